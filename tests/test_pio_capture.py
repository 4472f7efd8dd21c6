"""PIO capture: the program run cycle-accurately in pioemu, the decoder, the reader.

Every emulation goes through ``emulate_capture``, which raises unless pioemu ran
exactly the cycles asked (it stops silently on instructions it lacks).
Levels: bit i = input i (0..6 stations, active-low; 7 = REVEAL); IDLE = all
stations up, backlight off.
"""

import itertools
import os
import subprocess
import sys
from array import array

import adafruit_pioasm
import pioemu
import pytest
from pioemu.shift_register import ShiftRegister

from hardware import pio_capture as pc
from tools.bench_capture import FIRST_SAMPLE, IDLE, Levels, emulate_capture

MHZ = (125000000, 150000000)
SAMPLE = pc.CYCLES_PER_SAMPLE
IN_PINS_PC = 4  # address of `in pins, 8`
LOOP_PC = pc.PIO_KWARGS["wrap_target"]


def ns(cycles, f):
    return cycles * 1000000000 // f


def sample_of(cycle):
    """Index of the first sample at or after ``cycle`` (while no event is pending)."""
    return -((FIRST_SAMPLE - cycle) // SAMPLE)


def flip(index, round_=0):
    """The level that changes ``index`` away from IDLE (round 0) or back (round 1)."""
    return ((IDLE >> index) & 1) ^ (1 - round_)


def run(changes, cycles, f=125000000, start=IDLE, **kw):
    words, final = emulate_capture(Levels(changes, start), cycles, **kw)
    dec = pc.Decoder(f)
    edges = dec.feed(words)
    return edges, dec, words


# --- the program ------------------------------------------------------------------


def test_opcodes_are_the_assembled_source():
    assert pc.OPCODES == adafruit_pioasm.assemble(pc.SOURCE)  # the same array("H")
    kwargs = adafruit_pioasm.Program(pc.SOURCE).pio_kwargs
    assert kwargs  # wrap, wrap_target, sideset_enable (pioasm 1.3)
    for key, value in kwargs.items():
        assert key in pc.PIO_KWARGS and pc.PIO_KWARGS[key] == value, key


def test_program_shape():
    ops = pc.OPCODES
    assert len(ops) <= 32
    # No delay or side-set bits anywhere: every instruction is exactly one cycle.
    assert all(op & 0x1F00 == 0 for op in ops)
    # The only push is non-blocking (a full FIFO must never stall the counter).
    pushes = [op for op in ops if op & 0xE080 == 0x8000]
    assert pushes == [0x8000]
    # The sample is the only `in pins` and reads exactly the 8 inputs.
    assert [op for op in ops if op & 0xE0E0 == 0x4000] == [0x4008]
    assert ops[IN_PINS_PC] == 0x4008
    assert pc.PIO_KWARGS["in_pin_count"] == 8
    assert pc.PIO_KWARGS["pull_in_pin_up"] == 0x7F  # stations only, not REVEAL


def test_emulation_runs_the_cycles_asked():
    words, final = emulate_capture(Levels([]), 1234)
    assert final.clock == 1234
    assert len(words) == 1  # word 0 only: nothing changed


def test_every_sample_is_linear_in_time_on_every_path():
    """At every `in pins` the count in X equals COUNT_TOP - (cycles since sample 0) / 6:
    time = f(counter) exactly, through idle loops, events and bursts."""
    changes = [(50, 0, 0), (51, 3, 0), (70, 0, 1), (75, 7, 1), (76, 6, 0), (95, 6, 1)]
    changes += [(120 + 7 * k, 2, k % 2) for k in range(12)]
    levels = Levels(changes)
    seen = []

    def spy(state: pioemu.State) -> int:
        if state.program_counter == IN_PINS_PC:
            seen.append((state.clock, state.x_register & pc.COUNT_TOP))
        return levels(state.clock)

    words, final = emulate_capture(spy, 600)
    assert len(words) >= 8
    assert seen[0][0] == FIRST_SAMPLE
    for clock, count in seen:
        assert (clock - FIRST_SAMPLE) % SAMPLE == 0
        assert count == pc.COUNT_TOP - (clock - FIRST_SAMPLE) // SAMPLE
    # after a pushed word exactly EVENT_SAMPLES - 1 samples are skipped
    gaps = set(b[0] - a[0] for a, b in zip(seen, seen[1:]))
    assert gaps == {SAMPLE, pc.EVENT_SAMPLES * SAMPLE}


# --- timing ------------------------------------------------------------------------------


@pytest.mark.parametrize("f", MHZ)
def test_isolated_edges_within_one_sample(f):
    # every phase of the sample period, every input, both directions
    changes = []
    cycle = 40
    for k in range(16):
        index = k % 8
        changes.append((cycle, index, flip(index, k // 8)))
        cycle += 23 + (k % SAMPLE)
    edges, dec, _ = run(changes, cycle + 30, f)
    assert dec.lost == 0
    assert len(edges) == len(changes)
    period = ns(SAMPLE, f)
    for (cycle, index, level), (i, t, lv) in zip(changes, edges):
        assert (i, lv) == (index, level)
        true = ns(cycle - FIRST_SAMPLE, f)
        assert true <= t < true + period
        assert t == pc.Decoder(f).t_ns(sample_of(cycle))


@pytest.mark.parametrize("f", MHZ)
def test_resolution_figures(f):
    assert pc.Decoder(f).t_ns(1) == 6 * 1000000000 // f  # 48 ns / 40 ns
    assert pc.Decoder(f).t_ns(1000) == 1000 * (6 * 1000000000 // f)


def test_ties_for_every_pair_never_ordered_by_pin():
    # samples 6 and 7 are at cycles 40 and 46: changes at 41..46 are all seen at 46
    for a, b in itertools.combinations(range(8), 2):
        for da, db in ((0, 0), (0, 5), (5, 0), (2, 3)):
            changes = [(41 + da, a, flip(a)), (41 + db, b, flip(b))]
            edges, dec, _ = run(changes, 120)
            t = {i: ts for i, ts, _ in edges}
            assert set(t) == {a, b} and t[a] == t[b], (a, b, da, db, edges)
            assert dec.lost == 0


def test_one_cycle_apart_across_a_sample_is_ordered_either_way():
    for a, b in itertools.permutations(range(8), 2):
        # sample 6 is at cycle 40: a change at 40 is seen there, one at 41 a sample later
        changes = [(40, a, flip(a)), (41, b, flip(b))]
        edges, _, _ = run(changes, 110)
        t = {i: ts for i, ts, _ in edges}
        assert t[a] < t[b], (a, b, edges)


def test_burst_keeps_order():
    order = [5, 2, 6, 0, 3, 1, 4]  # stations, 19 cycles apart: each in its own event
    changes = [(40 + 19 * k, p, 0) for k, p in enumerate(order)]
    changes.append((40 + 19 * 7, 7, 1))  # then the reveal
    edges, dec, _ = run(changes, 300)
    assert [i for i, _, _ in edges] == order + [7]
    times = [t for _, t, _ in edges]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert dec.lost == 0


def test_changes_inside_the_dead_time_are_late_but_in_order():
    # a change one cycle after an event's sample is reported after it, <= 3 samples late
    for d in range(1, 3 * SAMPLE + 1):
        changes = [(40, 0, 0), (40 + d, 1, 0)]
        edges, _, _ = run(changes, 120)
        t = {i: ts for i, ts, _ in edges}
        true = ns(40 + d - FIRST_SAMPLE, 125000000)
        assert t[0] < t[1]
        assert true <= t[1] < true + pc.EVENT_SAMPLES * ns(SAMPLE, 125000000)


@pytest.mark.parametrize("f", MHZ)
def test_bounce_train_decodes_exactly(f):
    # toggles 19..26 cycles apart (at least one event path apart): every one seen
    changes = []
    cycle = 30
    for k in range(40):
        changes.append((cycle, 3, 1 if k % 2 else 0))
        cycle += 19 + (k * 5) % 8
    edges, dec, _ = run(changes, cycle + 30, f)
    assert dec.lost == 0
    assert [(i, lv) for i, _, lv in edges] == [(3, lv) for _, _, lv in changes]
    for (cycle, _, _), (_, t, _) in zip(changes, edges):
        true = ns(cycle - FIRST_SAMPLE, f)
        assert true <= t < true + ns(SAMPLE, f)


def test_fast_bounce_stays_consistent():
    # toggles every 7 cycles: some fall in dead time, but what comes out alternates,
    # never goes back in time, and ends at the true final level
    changes = [(30 + 7 * k, 1, k % 2) for k in range(31)]
    edges, dec, _ = run(changes, 400)
    assert dec.lost == 0
    levels = [lv for _, _, lv in edges]
    assert 5 < len(levels) < 31
    assert levels == [k % 2 for k in range(len(levels))]
    assert levels[-1] == changes[-1][2]
    times = [t for _, t, _ in edges]
    assert times == sorted(times)


# --- counter wrap ------------------------------------------------------------------


def resume_state(count, levels=IDLE):
    """pioemu state equal to a run already (COUNT_TOP - count) samples in, one word
    pushed (word 0, levels unchanged since): X = [levels][0000][count], seq 7 next."""
    return pioemu.State(
        program_counter=LOOP_PC,
        x_register=(levels << 24) | count,
        output_shift_register=ShiftRegister(0xFFFFFFFF, 0),
    )


def word0(levels=IDLE):
    return (pc.COUNT_TOP << pc.COUNT_SHIFT) | levels


def resumed(count, changes, cycles, f=125000000, start=IDLE):
    """Run from ``resume_state``; returns edges, decoder, words and the sample index
    of the first emulated sample (at clock 2)."""
    words, _ = emulate_capture(Levels(changes, start), cycles, initial_state=resume_state(count, start))
    dec = pc.Decoder(f)
    edges = dec.feed([word0(start)] + words)
    return edges, dec, words, pc.COUNT_TOP - count


def expected_sample(base, cycle):
    return base + -((2 - cycle) // SAMPLE)  # samples of the resumed run are at clock 2 + 6k


@pytest.mark.parametrize("f", MHZ)
def test_wrap_in_the_idle_loop_keeps_time_exact(f):
    changes = [(20, 0, 0), (250, 0, 1), (300, 7, 1), (400, 4, 0)]
    edges, dec, words, base = resumed(30, changes, 500, f)
    assert dec.lost == 0
    counts = [(w >> pc.COUNT_SHIFT) & pc.COUNT_TOP for w in words]
    assert pc.COUNT_TOP in counts  # the wrap forced a word
    assert dec._wraps == 1
    assert len(edges) == 4
    for (cycle, index, level), (i, t, lv) in zip(changes, edges):
        assert (i, lv) == (index, level)
        assert t == dec.t_ns(expected_sample(base, cycle))
    times = [t for _, t, _ in edges]
    assert times == sorted(times)


@pytest.mark.parametrize("count_at_event", [0, 1, 2, 3])
def test_wrap_inside_the_event_path(count_at_event):
    # the edge is seen at the sample whose count is count_at_event; the event path's
    # 3 decrements borrow when that count is < 3
    start = 12
    sample = start - count_at_event  # k-th sample of the resumed run
    cycle = 2 + SAMPLE * sample
    changes = [(cycle, 2, 0), (cycle + 150, 2, 1)]
    edges, dec, words, base = resumed(start, changes, cycle + 250)
    counts = [(w >> pc.COUNT_SHIFT) & pc.COUNT_TOP for w in words]
    assert counts[0] == count_at_event
    if count_at_event < 3:
        assert counts[1] == (count_at_event - 3) & pc.COUNT_TOP  # the forced wrap word
    assert dec.lost == 0 and dec._wraps == 1
    assert [t for _, t, _ in edges] == [dec.t_ns(expected_sample(base, c)) for c, _, _ in changes]


def test_wrap_with_every_input_low():
    # levels 0 and count 0 make X == 0: `jmp x--` falls through, the wrap still loops
    edges, dec, words, base = resumed(5, [(100, 7, 1)], 200, start=0x00)
    assert dec.lost == 0 and dec._wraps == 1
    assert edges == [(7, dec.t_ns(expected_sample(base, 100)), 1)]


# --- lost data ---------------------------------------------------------------------


def test_fifo_overflow_is_counted_exactly():
    # 11 words (word 0 + 10 toggles) while nobody drains a 4-deep FIFO: 7 dropped
    changes = [(30 + 20 * k, 5, k % 2) for k in range(10)]
    late = [(400, 6, 0)]  # after the drain: a new word with the sequence moved on
    words, final = emulate_capture(Levels(changes + late), 500, drain_at={300})
    assert final.clock == 500
    dec = pc.Decoder(125000000)
    dec.feed(words)
    assert len(words) == 5
    assert dec.lost == 7


def test_overflow_detected_across_batches():
    changes = [(30 + 20 * k, 0, k % 2) for k in range(6)] + [(400, 1, 0)]
    words, _ = emulate_capture(Levels(changes), 480, drain_at={300})
    dec = pc.Decoder(150000000)
    for w in words:  # one word per batch, as a slow reader would
        dec.feed([w])
    assert dec.lost == 3


# --- decoder on hand-made words ------------------------------------------------------


def word(seq, count, levels):
    return ((seq & 7) << pc.SEQ_SHIFT) | (count << pc.COUNT_SHIFT) | levels


def test_decode_hand_made_words():
    top = pc.COUNT_TOP
    words = [
        word(0, top, 0x7F),  # word 0: initial levels, no edges
        word(7, top - 10, 0x7E),  # P1 pressed at sample 10
        word(6, top - 20, 0xFA),  # P3 pressed and reveal on in sample 20: a tie
        word(5, top - 30, 0xFA),  # no change and no wrap: words went missing
    ]
    edges = pc.decode(words, 125000000)
    assert edges[0] == (0, 480, 0)
    assert sorted(edges[1:]) == [(2, 960, 0), (7, 960, 1)]
    dec = pc.Decoder(125000000)
    dec.feed(words)
    assert dec.levels == 0xFA and dec.lost == 1


def test_decoder_wraps_and_batches():
    top = pc.COUNT_TOP
    words = [
        word(0, top, 0x7F),
        word(7, 5, 0x7E),  # sample top - 5
        word(6, top, 0x7E),  # wrap word: sample 2**20 (no edge)
        word(5, top, 0x7E),  # equal count: one more full wrap
        word(4, top - 2, 0x7F),  # P1 released: sample 3 * 2**20 + 2
    ]
    f = 125000000
    all_at_once = pc.decode(words, f)
    assert all_at_once == [(0, (top - 5) * 48, 0), (0, (2 * (top + 1) + 2) * 48, 1)]
    dec = pc.Decoder(f)
    batched = []
    for w in words:
        dec.feed([w], batched)
    assert batched == all_at_once and dec.lost == 0
    assert dec.sample == 2 * (top + 1) + 2


def test_anchor_recounts_lost_wrap_words_from_the_box_clock():
    top = pc.COUNT_TOP
    f = 125000000
    period = (top + 1) * 48  # ns per counter wrap at 125 MHz (50.3 ms)
    t0 = 7 * 10**9
    for gap in (1, 3, 5):
        # word 0, a wrap word, then `gap` wrap words lost; P1 pressed 100 samples
        # into the period of the last lost one, and released 10 samples later
        words = [word(0, top, 0x7F), word(7, top, 0x7F), word(6 - gap, top - 100, 0x7E), word(5 - gap, top - 110, 0x7F)]
        true = [t0 + ((1 + gap) * (top + 1) + 100) * 48, t0 + ((1 + gap) * (top + 1) + 110) * 48]
        dec = pc.Decoder(f, t0_ns=t0)
        out = [("other", 1, 1)]
        dec.feed(words[:2], out)
        assert dec.mark is None
        dec.feed(words[2:], out)
        assert dec.lost == gap and dec.mark == 1
        assert [t for _, t, _ in out[1:]] == [t - gap * period for t in true]  # short by the lost wraps
        dec.anchor(true[1] + 3 * 10**6, out)  # drained 3 ms after the release
        assert out == [("other", 1, 1), (0, true[0], 0), (0, true[1], 1)]
        assert dec.mark is None and dec.sample == (1 + gap) * (top + 1) + 110
        dec.feed([word(4 - gap, top - 200, 0x7E)], out)  # and from now on on time
        assert out[-1] == (0, true[0] + 100 * 48, 0) and dec.mark is None
    # nothing lost: anchor() changes nothing, even a period later
    dec = pc.Decoder(f)
    out = dec.feed([word(0, top, 0x7F), word(7, top - 5, 0x7E)])
    dec.anchor(10 * period, out)
    assert out == [(0, 5 * 48, 0)]


def test_reader_re_anchors_after_a_fifo_overflow():
    top = pc.COUNT_TOP
    period = (top + 1) * 48
    words = [word(0, top, 0x7F)] + [word(-k, top, 0x7F) for k in range(1, 12)]  # 11 wraps
    words.append(word(-12, top - 1000, 0x7E))  # P1 down in the 12th period
    now = [0]
    sm = FifoSM(words, depth=8)
    cap = pc.PioCapture(sm, stations=7, mode="fifo", clock=lambda: now[0])
    sm.produce(1)
    assert cap.poll() == []
    sm.produce(11)  # 8 fit, 3 dropped
    now[0] = 11 * period + 10
    assert cap.poll() == [] and cap.overflows == 1
    sm.produce(1)
    now[0] = 11 * period + 1000 * 48 + 2 * 10**6
    assert cap.poll() == [(1, 11 * period + 1000 * 48, True)]
    assert cap.lost >= 3
    plain = pc.PioCapture(FifoSM(words, depth=8), stations=7, mode="fifo")  # no clock: short
    for n in (1, 11):
        plain.sm.produce(n)
        plain.poll()
    plain.sm.produce(1)
    assert plain.poll() == [(1, 8 * period + 1000 * 48, True)]


def test_decoder_flags_impossible_words():
    top = pc.COUNT_TOP
    cases = [
        ([word(3, top, 0x7F)], 5),  # word 0 missing: sequence starts at 3 (5 before it)
        ([word(0, top - 4, 0x7F)], 1),  # word 0 must be sample 0
        ([word(0, top, 0x7F), word(5, top - 9, 0x7E)], 2),  # sequence gap of 2
        ([word(0, top, 0x7F), word(7, 100, 0x7E), word(6, 500, 0x7F)], 1),  # wrap to a count far from top
        ([word(0, top, 0x7F), word(7, top - 3, 0x7F)], 1),  # no change, no wrap
        ([word(0, top, 0x7F), pc.MARK], 1),  # a ring slot never written
    ]
    for words, lost in cases:
        dec = pc.Decoder(125000000)
        dec.feed(words)
        assert dec.lost == lost, (words, dec.lost)


def test_decoder_time_at_a_clock_that_does_not_divide():
    dec = pc.Decoder(133000000)
    times = [dec.t_ns(k) for k in range(2000)]
    assert times == sorted(times)
    assert times[1000] == 6000 * 1000000000 // 133000000
    assert pc.Decoder(125000000, t0_ns=10**12).t_ns(2) == 10**12 + 96
    with pytest.raises(ValueError):
        pc.Decoder(0)


# --- the device reader, with fake state machines ---------------------------------------


class FifoSM:
    """rp2pio.StateMachine's FIFO interface, fed from emulated words; ``depth`` 8."""

    frequency = 125000000

    def __init__(self, words, depth=8):
        self.pending = list(words)
        self.fifo = []
        self.depth = depth
        self.rxstall = False
        self.cleared = 0

    def produce(self, n):
        for _ in range(n):
            if not self.pending:
                return
            w = self.pending.pop(0)
            if len(self.fifo) < self.depth:
                self.fifo.append(w)
            else:
                self.rxstall = True

    @property
    def in_waiting(self):
        return len(self.fifo)

    def readinto(self, buf, start=0, end=None):
        end = len(buf) if end is None else end
        assert end - start <= len(self.fifo)
        for k in range(start, end):
            buf[k] = self.fifo.pop(0)

    def clear_rxfifo(self):
        self.fifo = []
        self.rxstall = False
        self.cleared += 1


class RingSM(FifoSM):
    """Adds background_read: a DMA that writes every word into a looping ring."""

    def background_read(self, once=None, *, loop=None, loop2=None, swap=False):
        self.ring = loop
        self.pos = 0

    def produce(self, n):
        for _ in range(n):
            if not self.pending:
                return
            self.ring[self.pos] = self.pending.pop(0)
            self.pos = (self.pos + 1) % len(self.ring)


def race_words():
    changes = [(40, 7, 1), (100, 2, 0), (100, 4, 0), (160, 6, 0), (220, 2, 1), (260, 0, 0)]
    words, _ = emulate_capture(Levels(changes), 320)
    return words


@pytest.mark.parametrize("sm_class, mode", [(FifoSM, "fifo"), (RingSM, "ring")])
def test_reader_edges(sm_class, mode):
    words = race_words()
    sm = sm_class(words)
    cap = pc.PioCapture(sm, stations=5, t0_ns=1000)
    assert cap.mode == mode
    got = []
    while sm.pending:
        sm.produce(2)
        got.extend(cap.poll())
    f = 125000000
    t = lambda c: 1000 + pc.Decoder(f).t_ns(sample_of(c))  # noqa: E731
    # REVEAL is player 0 (pressed = lit); P3 and P5 tie; P7 is beyond 5 stations
    assert got == [(0, t(40), True), (3, t(100), True), (5, t(100), True), (3, t(220), False), (1, t(260), True)]
    assert cap.lost == 0
    assert cap.levels == (IDLE | 0x80) & ~0x51


def test_reader_counts_hardware_overflow():
    sm = FifoSM(race_words(), depth=2)
    cap = pc.PioCapture(sm, stations=7)
    sm.produce(5)
    cap.poll()
    assert sm.cleared == 1 and cap.overflows == 1
    assert cap.lost >= 1
    assert cap.take_lost() == cap.lost and cap.take_lost() == 0


def test_reader_ring_lapped():
    sm = RingSM(race_words())
    cap = pc.PioCapture(sm, stations=7, ring_words=4)
    sm.produce(4)
    cap.poll()
    assert cap.overflows == 1
    with pytest.raises(ValueError):
        pc.PioCapture(FifoSM([]), mode="dma")


def test_make_state_machine_with_a_fake_rp2pio(monkeypatch):
    calls = []

    class FakeRP2PIO:
        @staticmethod
        def StateMachine(program, frequency, **kwargs):
            calls.append((program, frequency, kwargs))
            return "sm"

    monkeypatch.setitem(sys.modules, "rp2pio", FakeRP2PIO)
    assert pc.make_state_machine("GP2", wrap=7) == "sm"
    program, frequency, kwargs = calls[0]
    assert isinstance(program, array) and program.typecode == "H" and list(program) == list(pc.OPCODES)
    assert frequency == 0 and kwargs["first_in_pin"] == "GP2"
    assert {k: kwargs[k] for k in pc.PIO_KWARGS} == pc.PIO_KWARGS


def test_module_imports_without_the_machine():
    code = ("import sys; sys.path.insert(0, 'lib'); sys.modules['rp2pio'] = sys.modules['board'] = None; "
            "import hardware.pio_capture")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
