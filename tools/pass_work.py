"""The work of each loop pass of a seeded all-bot match, counted, not timed.

    python tools/pass_work.py GAME [--players N] [--seed S] [--seconds S] [--top K]

The box's loop runs every pass in one go: a pass that does a lot of work (a phase's new
screen built, a bot's search, the rules' checks) is a pass the box cannot answer a
press, turn a ring or draw (docs/firmware.md: Python there costs ~5 µs a bytecode,
~30 µs a call). This plays a match in the simulator as the box's loop does (a pass every
2 ms of virtual time, screen changes paced by ``referee.pace``) and counts, for each
pass, the calls the box's own code makes (functions of ``lib/``, ``games/``,
``hardware/``, and each call it makes into a module outside them, such as ``displayio``
or a builtin, counted as one: those are C calls on the box). Prints the passes with the
most calls, each with its phase before and after and the functions that made them.
Deterministic: the same match, the same counts. ``work(...)`` is what
``tests/test_pass_work.py`` checks against a budget.
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "lib")]
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from pc.sim import STEPS, SimTable  # noqa: E402
from referee import pace  # noqa: E402

OURS = tuple(os.path.join(ROOT, d) + os.sep for d in ("lib", "games", "hardware"))


class Counter:
    """``sys.setprofile`` hook: the calls the box's code makes while it is on (``per``:
    the function each was made from, as ``file:function``)."""

    def __init__(self):
        self.calls = 0
        self.per = {}

    def __call__(self, frame, event, arg):
        if event == "call":
            code = frame.f_code
            if code.co_filename.startswith(OURS):
                self._count(code)
                return
            back = frame.f_back  # a call from our code into another module: one C call
            if back is not None and back.f_code.co_filename.startswith(OURS):
                self._count(back.f_code)
        elif event == "c_call" and frame.f_code.co_filename.startswith(OURS):
            self._count(frame.f_code)

    def _count(self, code):
        self.calls += 1
        k = os.path.basename(code.co_filename) + ":" + code.co_name
        self.per[k] = self.per.get(k, 0) + 1


def work(game, players, seed=1, seconds=60, options=None):
    """[(pass number, calls, phase before, phase after, {function: calls})] for every
    pass of a seeded all-bot match of ``game`` (at most ``seconds`` of virtual time),
    the calls of the app's step (the game, its bots, its screen's changes) and of the
    pace step that draws them, counted together as the box runs them in one pass."""
    t = SimTable(players=players, seed=seed, mode=STEPS)
    t.start(game, bots=tuple(range(1, players + 1)), **(options or {}))
    app = t.app
    real_app_step = app.step
    real_pace_step = pace.step
    counter = [None]

    def phase():
        g = app.game
        return g.phase_name() if g is not None else "-"

    def counted(fn):
        def run(*a):
            c = counter[0]
            sys.setprofile(c)
            try:
                return fn(*a)
            finally:
                sys.setprofile(None)
        return run

    app.step = counted(real_app_step)
    pace.step = counted(real_pace_step)
    rows = []
    pace.start()
    try:
        n = 0
        while n * 2 < seconds * 1000 and app.game is not None and not app.game.over:
            counter[0] = c = Counter()
            before = phase()
            t.advance(2)
            n += 1
            rows.append((n, c.calls, before, phase(), c.per))
    finally:
        app.step = real_app_step
        pace.step = real_pace_step
        pace.stop()
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python tools/pass_work.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--functions", type=int, default=6, help="functions named per pass")
    a = ap.parse_args(argv)
    rows = work(a.game, a.players, a.seed, a.seconds)
    calls = sorted(r[1] for r in rows)
    print("%s, %d players, seed %d: %d passes; calls a pass: median %d, p99 %d, most %d"
          % (a.game, a.players, a.seed, len(rows), calls[len(calls) // 2], calls[len(calls) * 99 // 100], calls[-1]))
    for n, k, before, after, per in sorted(rows, key=lambda r: -r[1])[:a.top]:
        top = sorted(per.items(), key=lambda kv: -kv[1])[:a.functions]
        print("pass %6d %6d calls  %s -> %s  %s" % (n, k, before, after, " ".join("%s=%d" % kv for kv in top)))


if __name__ == "__main__":
    main()
