"""Benchmark: CPU time of seeded all-bot matches of every game, event-driven beside 2 ms stepping.

    python tools/bench_matches.py [--seeds N] [--players N] [--parts]

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


PARTS = ("start", "game", "search", "save", "app", "simulator")


def parts(name, players, seeds):
    """Where an event-driven match's CPU goes (ms a match, the mean over ``seeds``):
    the match's start (the game built, its first screen), the game's passes (its tick
    or a part of its screen) without its bots' search, the bots' search slices, the
    saves' passes, the rest of the app's passes (gestures, rings, sound, routing) and the
    simulator's own (which pass is next, the presses). Timed by wrapping those calls,
    which adds a little to each: shares, not the benchmark's figures."""
    from referee import app as app_mod
    from referee import turns

    acc = dict.fromkeys(PARTS, 0.0)
    stack = []

    def timed(key, fn):
        def run(*a):
            t0 = time.perf_counter()
            stack.append(0.0)
            try:
                return fn(*a)
            finally:
                inner = stack.pop()
                spent = time.perf_counter() - t0
                acc[key] += spent - inner
                if stack:
                    stack[-1] += spent
        return run

    saved = [(app_mod.App, "step"), (app_mod.App, "_save_pass"), (app_mod.App, "_guard"), (turns, "slice_of")]
    real = [getattr(o, k) for o, k in saved]
    app_mod.App.step = timed("app", real[0])
    app_mod.App._save_pass = timed("save", real[1])
    app_mod.App._guard = timed("game", real[2])
    turns.slice_of = timed("search", real[3])
    total = 0.0
    try:
        for seed in range(1, seeds + 1):
            t = SimTable(players=players, seed=seed, mode=EVENTS)
            before = dict(acc)
            t0 = time.perf_counter()
            t.start(name, bots=tuple(range(1, players + 1)))
            t1 = time.perf_counter()
            acc.update(before)  # (what the start ran counts as the start)
            t.run_until_over(4 * 3600 * 1000)
            t2 = time.perf_counter()
            acc["start"] += t1 - t0
            total += t2 - t0
    finally:
        for (o, k), f in zip(saved, real):
            setattr(o, k, f)
    acc["simulator"] = total - sum(acc[k] for k in PARTS if k != "simulator")
    return {k: 1000 * v / seeds for k, v in acc.items()}, 1000 * total / seeds


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
    ap.add_argument("--parts", action="store_true",
                    help="instead: where an event-driven match's CPU goes (ms a match, wrapped calls: shares)")
    args = ap.parse_args(argv)
    if args.seeds < 1:
        ap.error("--seeds must be 1 or more")
    w = width([title for _, title in games.titles()])
    if args.parts:
        print(("%-" + str(w) + "s") % "game" + "".join(" %9s" % k for k in PARTS) + " %9s" % "total ms")
    else:
        print(head(w))
    for name, title in games.titles():
        mod = games.load(name)
        if not getattr(mod, "BOTS_CAN_PLAY", True):
            continue
        n = max(mod.MIN_PLAYERS, min(mod.MAX_PLAYERS, args.players))
        if args.parts:
            split, total = parts(name, n, args.seeds)
            print(("%-" + str(w) + "s") % title + "".join(" %9.2f" % split[k] for k in PARTS) + " %9.2f" % total,
                  flush=True)
            continue
        pairs = [(bench(name, n, seed, EVENTS), bench(name, n, seed, STEPS)) for seed in range(1, args.seeds + 1)]
        print(line(w, title, summary(pairs)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
