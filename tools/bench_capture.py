"""Capture benchmark: the PIO capture program run cycle-accurately in pioemu.

    python tools/bench_capture.py

Prints the resolution at 125 and 150 MHz, an order sweep of two inputs over
-200..+200 ns in 1-cycle steps (wrong orders must be 0; pairs in one sample are
ties), the event-path dead time, next to the keypad fallback measured the same
way: hardware/keypad_capture.py on the strict keypad fake of tests/fakes (1 ms
scans), drained by a loop polling every 1.7 ms, out of step with the scans.

``emulate_capture`` is also the harness tests/test_pio_capture.py uses.
"""

import bisect
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (ROOT, os.path.join(ROOT, "lib")):  # hardware.pio_capture imports referee
    if _p not in sys.path:
        sys.path.insert(0, _p)

import pioemu  # noqa: E402

from hardware import pio_capture as pc  # noqa: E402

IDLE = 0x7F  # stations released (pulled up), backlight off
INIT_CYCLES = 2  # `mov x, ~null`, `mov osr, null`
FIRST_SAMPLE = INIT_CYCLES + 2  # cycle of sample 0 (`in pins` is the loop's 3rd instruction)


class Levels:
    """Input levels as a step function of the PIO clock: ``changes`` is
    ``[(cycle, input_index, level), ...]`` (level holds from that cycle on)."""

    def __init__(self, changes, start=IDLE):
        self.cycles = []
        self.values = []
        v = start
        for cycle, index, level in sorted(changes):
            v = (v | (1 << index)) if level else (v & ~(1 << index))
            if self.cycles and self.cycles[-1] == cycle:
                self.values[-1] = v
            else:
                self.cycles.append(cycle)
                self.values.append(v)
        self.start = start

    def __call__(self, clock: int) -> int:
        i = bisect.bisect_right(self.cycles, clock)
        return self.values[i - 1] if i else self.start


def emulate_capture(level_at, cycles, drain_at=None, initial_state=None):
    """Run ``pc.OPCODES`` for exactly ``cycles`` PIO clocks.

    ``level_at(clock) -> levels`` gives the 8 inputs (bit i = input i, as
    ``in pins`` sees them from first_in_pin). The RX FIFO (4 deep in pioemu) is
    drained after every cycle, or only at the clocks in ``drain_at`` if given.
    Returns ``(words, final_state)``; raises if the emulation stopped early
    (pioemu ends silently on an instruction it does not implement).
    """
    words = []
    final = initial_state
    gen = pioemu.emulate(
        list(pc.OPCODES),
        stop_when=pioemu.clock_cycles_reached(cycles),
        initial_state=initial_state,
        input_source=level_at,
        shift_isr_right=pc.PIO_KWARGS["in_shift_right"],
        auto_push=pc.PIO_KWARGS["auto_push"],
        push_threshold=pc.PIO_KWARGS["push_threshold"],
        wrap_target=pc.PIO_KWARGS["wrap_target"],
        wrap_top=pc.PIO_KWARGS["wrap"],
    )
    for _before, state in gen:
        final = state
        if state.receive_fifo and (drain_at is None or state.clock in drain_at):
            words.extend(state.receive_fifo)
            state.receive_fifo.clear()
    if final is None or final.clock != cycles:
        raise RuntimeError("emulation stopped at clock " + str(final and final.clock) + ", asked " + str(cycles))
    words.extend(final.receive_fifo)
    return words, final


def true_ns(cycle, sysclk_hz):
    """Time of an input change at PIO ``cycle``, on the decoder's base (sample 0 = 0)."""
    return (cycle - FIRST_SAMPLE) * 1000000000 / sysclk_hz


def capture(changes, cycles, sysclk_hz, start=IDLE):
    words, _ = emulate_capture(Levels(changes, start), cycles)
    return pc.decode(words, sysclk_hz)


def resolution(sysclk_hz):
    """Isolated edges at every phase of a sample period: max error (ns)."""
    worst = 0.0
    for phase in range(pc.CYCLES_PER_SAMPLE * 2):
        cycle = 40 + phase
        edges = capture([(cycle, 2, 0)], cycle + 30, sysclk_hz)
        assert len(edges) == 1, edges
        err = edges[0][1] - true_ns(cycle, sysclk_hz)
        assert 0 <= err < pc.CYCLES_PER_SAMPLE * 1e9 / sysclk_hz
        worst = max(worst, err)
    return worst


def sample_window(cycle):
    """Index of the first sample that can see a change made at ``cycle`` (no dead time)."""
    return -((FIRST_SAMPLE - cycle) // pc.CYCLES_PER_SAMPLE)


def order_sweep(sysclk_hz, span_ns=200, pins=(0, 6)):
    """Input ``pins[0]`` changes at a fixed cycle, ``pins[1]`` offset by every
    cycle in +-span_ns, at every sample phase. Returns (pairs, wrong order, ties,
    tie mismatches): a tie must happen exactly when both changes fall in the same
    sample window, so the mismatches must be 0, like the wrong orders."""
    a, b = pins
    span = int(span_ns * sysclk_hz // 1000000000)
    pairs = wrong = ties = mismatch = 0
    for phase in range(pc.CYCLES_PER_SAMPLE):
        base = 60 + phase + span
        for d in range(-span, span + 1):
            ca, cb = base, base + d
            edges = capture([(ca, a, 0), (cb, b, 0)], max(ca, cb) + 40, sysclk_hz)
            t = {i: ts for i, ts, _lvl in edges}
            assert set(t) == {a, b}, edges
            pairs += 1
            tie = t[a] == t[b]
            ties += tie
            if tie != (sample_window(ca) == sample_window(cb)):
                mismatch += 1
            if not tie and (t[a] < t[b]) != (ca < cb):
                wrong += 1
    return pairs, wrong, ties, mismatch


def dead_time(sysclk_hz):
    """After an event on one input (at every phase): the samples not taken, the
    smallest reported gap between two events, the worst error of a change that
    follows an event, and the shortest pulse on another input never missed."""
    ns = 1e9 / sysclk_hz
    min_gap = None
    late = 0.0
    for phase in range(pc.CYCLES_PER_SAMPLE):
        first = 60 + phase
        for d in range(1, 40):
            edges = capture([(first, 0, 0), (first + d, 1, 0)], first + d + 40, sysclk_hz)
            ts = sorted(set(e[1] for e in edges))
            if len(ts) == 2:
                gap = ts[1] - ts[0]
                min_gap = gap if min_gap is None else min(min_gap, gap)
            t1 = [t for i, t, _lvl in edges if i == 1][0]
            late = max(late, t1 - true_ns(first + d, sysclk_hz))
    always_seen = None
    for width in range(1, 40):
        seen_all = True
        for start in range(60, 60 + 3 * pc.CYCLES_PER_SAMPLE):
            edges = capture([(60, 0, 0), (start, 1, 0), (start + width, 1, 1)], start + width + 40, sysclk_hz)
            if not any(e[0] == 1 for e in edges):
                seen_all = False
                break
        if seen_all:
            always_seen = width
            break
    blind = (pc.EVENT_SAMPLES - 1) * pc.CYCLES_PER_SAMPLE
    return blind * ns, min_gap, late, always_seen * ns


KEYPAD_POLL_NS = (300000, 1700000)  # first poll, then every 1.7 ms (as tests/test_capture_backends.py)


def keypad_run(changes, end_ns):
    """``changes`` = [(t_ns, station 0/1, pressed)] on the keypad fake, drained by
    ``KeypadCapture`` at every loop poll; returns its edges (player 1/2)."""
    for folder in ("tests", "lib"):
        if os.path.join(ROOT, folder) not in sys.path:
            sys.path.insert(0, os.path.join(ROOT, folder))
    import contextlib
    import io

    import fakes

    with contextlib.redirect_stdout(io.StringIO()):  # Blinka's "board not supported" note
        machine = fakes.machine()
        world = machine.__enter__()
    try:
        import board
        import keypad
        import supervisor

        from hardware import pins
        from hardware.keypad_capture import INTERVAL_S, KeypadCapture

        roles = pins.STATIONS[:2]
        keys = keypad.Keys([pins.pin(board, r) for r in roles], value_when_pressed=False, pull=True, interval=INTERVAL_S)
        cap = KeypadCapture(keys, (1, 2), supervisor.ticks_ms, world.clock, keypad.Event())
        for t, i, pressed in changes:
            world.at(t, pins.gpio(roles[i]), 0 if pressed else None)  # None: let go, pulled up
        out = []
        n, every = KEYPAD_POLL_NS
        while True:
            world.advance_to(min(n, end_ns))
            cap.poll(out)
            if n >= end_ns:
                break
            n += every
        assert cap.lost == 0
        keys.deinit()
    finally:
        machine.__exit__(None, None, None)
    return out


def keypad_figures():
    """Scan period, worst error of isolated presses at 400 phases, and the same
    +-200 ns order sweep as the PIO (8 ns steps, 6 phases of the scan)."""
    ms = 1000000
    changes = []
    presses = []
    t = 5 * ms
    for k in range(400):  # a press every 7 ms, 37 us further into the scan each time
        at = t + k * 37000 % ms
        changes += [(at, 0, True), (at + 3 * ms, 0, False)]
        presses.append(at)
        t += 7 * ms
    got = [e[1] for e in keypad_run(changes, t) if e[0] == 1 and e[2]]
    assert len(got) == len(presses)
    worst = max(g - p for g, p in zip(got, presses))
    assert min(g - p for g, p in zip(got, presses)) >= 0
    pairs = wrong = ties = mismatch = 0
    changes = []
    cases = []
    t = 5 * ms
    for phase in (0, 1000, 170000, 500000, 999800, 999900):
        for d in range(-200, 201, 8):
            ta, tb = t + phase, t + phase + d
            changes += [(ta, 0, True), (tb, 1, True), (t + 4 * ms, 0, False), (t + 4 * ms, 1, False)]
            cases.append((ta, tb))
            t += 9 * ms
    downs = [e for e in keypad_run(changes, t) if e[2]]
    for ta, tb in cases:
        a = [e[1] for e in downs if e[0] == 1 and ta <= e[1] < ta + 4 * ms]
        b = [e[1] for e in downs if e[0] == 2 and tb <= e[1] < tb + 4 * ms]
        assert len(a) == len(b) == 1, (ta, tb, a, b)
        pairs += 1
        tie = a[0] == b[0]
        ties += tie
        if tie != (ta // ms == tb // ms):  # a change at a scan instant is seen by the next scan
            mismatch += 1
        if not tie and (a[0] < b[0]) != (ta < tb):
            wrong += 1
    return ms, worst, pairs, wrong, ties, mismatch


def main(argv=None):
    import argparse

    argparse.ArgumentParser(prog="python tools/bench_capture.py",
                            description=__doc__.split("\n\n")[0]).parse_args(argv)
    rows = []
    for mhz in (125, 150):
        f = mhz * 1000000
        per = pc.CYCLES_PER_SAMPLE * 1000 / mhz
        worst = resolution(f)
        pairs, wrong, ties, mismatch = order_sweep(f)
        blind, gap, late, pulse = dead_time(f)
        rows.append((mhz, per, worst, pairs, wrong, ties, mismatch, blind, gap, late, pulse))
    print("PIO capture (pioemu, cycle-accurate); the keypad fallback for comparison\n")
    head = ("path", "ns/sample", "worst err", "pairs", "wrong", "ties", "tie!=win", "blind", "min gap", "late", "pulse")
    fmt = "{:<13}{:>10}{:>10}{:>7}{:>6}{:>6}{:>9}{:>7}{:>8}{:>6}{:>7}"
    print(fmt.format(*head))
    for mhz, per, worst, pairs, wrong, ties, mismatch, blind, gap, late, pulse in rows:
        print(
            fmt.format(
                "PIO %d MHz" % mhz,
                "%.1f" % per,
                "%.1f" % worst,
                pairs,
                wrong,
                ties,
                mismatch,
                "%.0f" % blind,
                "%.0f" % gap,
                "%.0f" % late,
                "%.0f" % pulse,
            )
        )
    scan, worst, pairs, wrong, ties, mismatch = keypad_figures()
    print(fmt.format("keypad", scan, worst, pairs, wrong, ties, mismatch, "-", "-", "-", "-"))
    print(
        "\nns/sample: one `in pins` every %d cycles. worst err: reported minus true time of an"
        "\nisolated edge (always >= 0, < one sample). Sweep: two inputs offset -200..+200 ns"
        "\nin 1-cycle steps at every sample phase; wrong = reported in the opposite order"
        "\n(must be 0); ties = same t_ns; tie!=win = pairs in one sample window not reported"
        "\nas a tie, or a tie across windows (must be 0). After a change (ns): blind = time"
        "\nnot sampled while its word is pushed (%d of %d samples); min gap = smallest reported"
        "\ngap between two events; late = worst error of a change that falls in the blind"
        "\ntime; pulse = shortest pulse that is never missed right after another event."
        "\nkeypad (measured on the strict keypad fake, polled every 1.7 ms): keypad.Keys(interval"
        "\n=0.001) scans every 1 ms and stamps events with supervisor.ticks_ms(); KeypadCapture"
        "\nadds the poll's sub-ms phase, so an edge is reported up to 1 ms late to the scan plus"
        "\n< 1 ms of phase: worst err < 2 ms. Its sweep steps 8 ns at 6 phases of the scan;"
        "\npairs in one scan are ties." % (pc.CYCLES_PER_SAMPLE, pc.EVENT_SAMPLES - 1, pc.EVENT_SAMPLES)
    )


if __name__ == "__main__":
    main()
