"""The keypad fallback: event -> edge conversion (pure) and the queue drain on fakes."""

import fakes
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.keypad_capture import PRECISION_NS, TICKS_PERIOD, event_time_ns, to_edge

MS = 1000000


def test_event_time_is_the_age_of_the_event_before_now():
    assert event_time_ns(990, 1000, 5 * 10**9) == 5 * 10**9 - 10 * MS
    assert event_time_ns(1000, 1000, 7) == 7  # stamped this very millisecond


def test_event_time_across_the_ticks_wrap():
    # ticks_ms wrapped from 2**29-3 to 5: the event is 8 ms old, not 2**29 ms in the future
    assert event_time_ns(TICKS_PERIOD - 3, 5, 10**12) == 10**12 - 8 * MS


@given(
    now_ns=st.integers(min_value=0, max_value=10**15),
    age_ms=st.integers(min_value=0, max_value=TICKS_PERIOD // 2 - 1),
    ticks_now=st.integers(min_value=0, max_value=TICKS_PERIOD - 1),
)
def test_event_time_property(now_ns, age_ms, ticks_now):
    event_ms = (ticks_now - age_ms) % TICKS_PERIOD
    assert event_time_ns(event_ms, ticks_now, now_ns) == now_ns - age_ms * MS


def test_to_edge_maps_keys_to_players():
    players = (1, 2, 3, 8)  # three stations and MENU
    assert to_edge(3, True, 100, players, 100, 50 * MS) == (8, 50 * MS, True)
    assert to_edge(0, 0, 90, players, 100, 50 * MS) == (1, 40 * MS, False)
    assert to_edge(4, True, 100, players, 100, 0) is None
    assert to_edge(-1, True, 100, players, 100, 0) is None


# --- the drain, on the strict keypad fake -----------------------------------------


@pytest.fixture
def world():
    with fakes.machine() as w:
        yield w


def _capture(world, pins, players, max_events=64):
    import board
    import keypad
    import supervisor

    from hardware.keypad_capture import INTERVAL_S, KeypadCapture

    keys = keypad.Keys(
        [getattr(board, p) for p in pins], value_when_pressed=False, pull=True, interval=INTERVAL_S,
        max_events=max_events,
    )
    return KeypadCapture(keys, players, supervisor.ticks_ms, world.clock, keypad.Event())


def test_presses_come_back_with_ms_precision(world):
    cap = _capture(world, ("GP2", "GP3", "GP14"), (1, 2, 8))
    assert cap.precision_ns == PRECISION_NS == MS
    world.advance(5)
    world.press(3, at_ns=world.now_ns + 1234567, hold_ns=80 * MS)  # P2 down at 6.234567 ms
    world.press(14, at_ns=world.now_ns + 3 * MS, hold_ns=20 * MS)  # MENU at exactly 8 ms
    world.advance(10)
    out = cap.poll([])
    # the 1 ms scan sees a press at the next scan after it (a press at the very
    # instant of a scan is seen by the following one)
    assert out == [(2, 7 * MS, True), (8, 9 * MS, True)]
    world.advance(200)
    assert cap.poll([]) == [(8, 29 * MS, False), (2, 87 * MS, False)]
    assert cap.poll([]) == []
    assert cap.lost == 0


def test_drain_reuses_one_event_and_appends(world):
    cap = _capture(world, ("GP2",), (1,))
    ev = cap._event
    world.press(2, at_ns=MS // 2, hold_ns=3 * MS)
    world.advance(10)
    out = [("earlier", 0, True)]
    assert cap.poll(out) is out
    assert out[1:] == [(1, 1 * MS, True), (1, 4 * MS, False)]
    assert cap._event is ev


def test_queue_overflow_is_counted_as_lost(world):
    cap = _capture(world, ("GP2",), (1,), max_events=2)
    for i in range(3):
        world.press(2, at_ns=(1 + 10 * i) * MS, hold_ns=5 * MS)
    world.advance(40)  # six events into a queue of two
    out = cap.poll([])
    assert cap.lost == 1
    # the real queue keeps the oldest two (the first press and its release) and drops
    # the newest; the key was up then, so nothing is left "down"
    assert out == [(1, 2 * MS, True), (1, 7 * MS, False)]
    assert not cap.keys.events.overflowed  # cleared for the next round


def test_overflow_never_leaves_a_phantom_hold(world):
    cap = _capture(world, ("GP2", "GP3"), (1, 2), max_events=2)
    world.press(2, at_ns=1 * MS, hold_ns=100 * MS)  # P1 down, and still down at the poll
    world.press(3, at_ns=3 * MS, hold_ns=2 * MS)  # P2 taps: its release does not fit
    world.advance(10)
    out = cap.poll([])
    assert cap.lost == 1
    # P2's release was dropped by the full queue: the capture releases every key it
    # believed down now, and resets the scanner...
    assert (2, 10 * MS, False) in out and (1, 10 * MS, False) in out
    world.advance(5)
    # ...which reports P1, still held, as a fresh press; P2 stays up
    assert cap.poll([]) == [(1, 11 * MS, True)]
    world.advance(100)
    assert cap.poll([]) == [(1, 102 * MS, False)]  # let go at 101 ms, seen by the next scan


def test_times_stay_monotonic_across_the_ticks_wrap(world):
    world.ticks_offset_ms = TICKS_PERIOD - 5  # ticks_ms wraps 5 ms from now
    cap = _capture(world, ("GP2",), (1,))
    world.press(2, at_ns=3 * MS + 1, hold_ns=4 * MS)  # down before the wrap, up after it
    world.advance(20)
    out = cap.poll([])
    assert out == [(1, 4 * MS, True), (1, 8 * MS, False)]


def test_the_bench_keypad_row_is_measured_and_the_docs_quote_it():
    """tools/bench_capture.py measures its keypad row on the keypad fake (not a
    hard-coded 1 ms): under 2 ms late, never misordered, ties exactly in one scan."""
    import os

    from tools.bench_capture import keypad_figures

    scan, worst, pairs, wrong, ties, mismatch = keypad_figures()
    assert scan == PRECISION_NS
    assert MS < worst < 2 * MS  # a whole scan late can happen, plus the poll's phase
    assert (pairs, wrong, mismatch) == (306, 0, 0) and 0 < ties < pairs
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "docs", "capture.md")) as f:
        doc = f.read()
    quoted = "%d.%03d ms" % (worst // MS, worst % MS // 1000)
    assert quoted in doc and "0 / 306, %d of them ties" % ties in doc
