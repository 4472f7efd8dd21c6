"""Benchmark: CPU time of seeded all-bot matches of every game, event-driven beside 2 ms stepping.

    python tools/bench_matches.py [--seeds N] [--players N]

Each seed's match is played twice in the simulator: with ``SimTable``'s ``events``
mode (a loop pass only when something can happen: what tests and tools use) and its
``steps`` mode (a pass every 2 ms of virtual time, as the box's loop). Prints, per
game, the median over the seeds of each figure on its own: the CPU seconds of a
match in each mode, their ratio (each seed's steps/events, so a noisy machine moves
both sides alike), the loop passes of a match in each mode, and the virtual time
played. Figures, not assertions.
"""

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "lib")]
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import games  # noqa: E402
from pc.sim import EVENTS, STEPS, SimTable  # noqa: E402

HEAD = ("game", "events cpu s", "steps cpu s", "ratio", "events passes", "steps passes", "virtual s", "finished")
COLS = (12, 11, 6, 13, 12, 9)


def bench(name, players, seed, mode=EVENTS):
    """(cpu s, virtual s, finished, loop passes) of one seeded all-bot match."""
    t = SimTable(players=players, seed=seed, mode=mode)
    t0 = time.process_time()
    t.start(name, bots=tuple(range(1, players + 1)))
    over = t.run_until_over(4 * 3600 * 1000)
    cpu = time.process_time() - t0
    return cpu, t.now / 1e9, over, t.passes


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def summary(pairs):
    """(events cpu s, steps cpu s, ratio, events passes, steps passes, virtual s,
    finished, runs): each figure the median of its own column over ``pairs``, one
    (events, steps) pair of bench() tuples per seed; a match finished if both did."""
    ev = [p[0] for p in pairs]
    st = [p[1] for p in pairs]
    return (median([r[0] for r in ev]), median([r[0] for r in st]),
            median([s[0] / e[0] if e[0] else 0 for e, s in pairs]),
            median([r[3] for r in ev]), median([r[3] for r in st]), median([r[1] for r in ev]),
            sum(1 for e, s in pairs if e[2] and s[2]), len(pairs))


def _row(width, cells):
    return ("%-" + str(width) + "s" + "".join(" %" + str(c) + "s" for c in COLS) + " %s") % cells


def line(width, title, figures):
    """One row of the table; ``width``: the first column's (the longest title)."""
    ecpu, scpu, ratio, epass, spass, virt, done, n = figures
    return _row(width, (title, "%.3f" % ecpu, "%.3f" % scpu, "%.0fx" % ratio, "%.0f" % epass, "%.0f" % spass,
                        "%.1f" % virt, "%d/%d" % (done, n)))


def head(width):
    return _row(width, HEAD)


def width(titles):
    return max([len(HEAD[0])] + [len(t) for t in titles])


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python tools/bench_matches.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=5, help="seeds 1..N per game (default 5)")
    ap.add_argument("--players", type=int, default=4, help="seats, capped by each game's range (default 4)")
    args = ap.parse_args(argv)
    if args.seeds < 1:
        ap.error("--seeds must be 1 or more")
    w = width([title for _, title in games.titles()])
    print(head(w))
    for name, title in games.titles():
        mod = games.load(name)
        if not getattr(mod, "BOTS_CAN_PLAY", True):
            continue
        n = max(mod.MIN_PLAYERS, min(mod.MAX_PLAYERS, args.players))
        pairs = [(bench(name, n, seed, EVENTS), bench(name, n, seed, STEPS)) for seed in range(1, args.seeds + 1)]
        print(line(w, title, summary(pairs)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
