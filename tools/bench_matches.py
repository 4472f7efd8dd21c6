"""Benchmark: CPU time of seeded all-bot matches of every game in the simulator.

    python tools/bench_matches.py [--seeds N] [--players N]

Prints, per game, the median over the seeds of each figure on its own: the CPU
seconds per match, the virtual time played and the loop passes per CPU second
(so a column is not one seed's value picked by another column). Figures, not
assertions.
"""

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "lib")]
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import games  # noqa: E402
from pc.sim import SimTable  # noqa: E402

HEAD = ("game", "cpu s", "virtual s", "loops/cpu s", "finished")


def bench(name, players, seed):
    """(cpu s, virtual s, finished, loop passes) of one seeded all-bot match."""
    t = SimTable(players=players, seed=seed)
    t0 = time.process_time()
    t.start(name, bots=tuple(range(1, players + 1)))
    over = t.run_until_over(4 * 3600 * 1000)
    cpu = time.process_time() - t0
    return cpu, t.now / 1e9, over, t.now // t.loop_ns


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def summary(runs):
    """(cpu s, virtual s, loops per cpu s, finished, runs): each figure the median of
    its own column over ``runs`` (bench()'s tuples)."""
    return (median([r[0] for r in runs]), median([r[1] for r in runs]),
            median([r[3] / r[0] if r[0] else 0 for r in runs]), sum(1 for r in runs if r[2]), len(runs))


def line(width, title, figures):
    """One row of the table; ``width``: the first column's (the longest title)."""
    cpu, virt, rate, done, n = figures
    return ("%-" + str(width) + "s %8s %12s %14s %s") % (title, "%.3f" % cpu, "%.1f" % virt, "%.0f" % rate,
                                                        "%d/%d" % (done, n))


def head(width):
    return ("%-" + str(width) + "s %8s %12s %14s %s") % HEAD


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
        print(line(w, title, summary([bench(name, n, seed) for seed in range(1, args.seeds + 1)])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
