"""Benchmark: CPU time of seeded all-bot matches of every game in the simulator.

    python tools/bench_matches.py [--seeds N]

Prints, per game, the CPU seconds per match (median over seeds), the virtual
time played and the loop passes per CPU second. Figures, not assertions.
"""

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "lib")]
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import games  # noqa: E402
from hardware.sim import SimTable  # noqa: E402


def bench(name, players, seed):
    t = SimTable(players=players, seed=seed)
    t0 = time.process_time()
    t.start(name, bots=tuple(range(1, players + 1)))
    over = t.run_until_over(4 * 3600 * 1000)
    cpu = time.process_time() - t0
    return cpu, t.now / 1e9, over, t.now // t.loop_ns


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args(argv)
    print("%-14s %8s %12s %14s %s" % ("game", "cpu s", "virtual s", "loops/cpu s", "finished"))
    for name, title in games.titles():
        mod = games.load(name)
        if not getattr(mod, "BOTS_CAN_PLAY", True):
            continue
        n = max(mod.MIN_PLAYERS, min(mod.MAX_PLAYERS, args.players))
        rows = [bench(name, n, seed) for seed in range(1, args.seeds + 1)]
        rows.sort()
        cpu, virt, over, loops = rows[len(rows) // 2]
        done = sum(1 for r in rows if r[2])
        print("%-14s %8.3f %12.1f %14.0f %d/%d" % (title, cpu, virt, loops / cpu if cpu else 0, done, len(rows)))


if __name__ == "__main__":
    main()
