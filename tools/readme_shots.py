"""The README's screenshots: one 320x240 PNG of each game in play, from the simulator.

    python tools/readme_shots.py [--out docs/img] [--seed 3]

Each game is played by bots from a seed (the same match every time); the shot is
taken at a moment a little into the match (the screen's text changes are counted
on a first pass, as ``python code.py --demo`` does), the display alone, without
the rings drawn around it. Writes ``<out>/game_<game>.png`` for every game of the
registry but the self test, plus ``game_launcher.png`` (Play again and the
session's wins), ``game_rules.png`` (a How to play page) and ``game_over.png``
(the end of a won match).
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "lib")]

from pc import demo as pc_demo  # noqa: E402  (sets the dummy video driver first)

SEATS = {"zap_city": 3, "flyer": 4, "lightning_dice": 4}
WHERE = 0.4  # how far into the match's screen changes the shot is taken
# from there, the first screen whose text has this (a result, not a countdown)
WANT = {"wurfelblitz": "->", "reaction": "first by"}


def shoot(name, out, seed):
    changes = pc_demo._play(name, SEATS.get(name, 4), {}, seed, lambda table, i: None)[2]
    at = max(1, int(changes * WHERE))
    path = os.path.join(out, "game_" + name + ".png")
    done = []

    def snap(table, i):
        if i >= at and not done and WANT.get(name, "") in table.screen_text():
            done.append(table.save_png(path, rings=False))

    pc_demo._play(name, SEATS.get(name, 4), {}, seed, snap)
    return path


def launcher_and_rules(out):
    from pc.sim import SimTable

    t = SimTable(players=4, seed=1)
    t.app.kept["w"] = [2, 0, 1, 0, 0, 0, 0]
    t.app.kept["t"] = ["zilch", 4, [3, 4], {}]
    t.app.back_to_launcher()
    t.advance(10)
    written = [t.save_png(os.path.join(out, "game_launcher.png"), rings=False)]
    t.tap(1, count=4)  # Zilch (the fifth item)
    t.hold(1)
    while t.app.launcher.menu.current()[0] != "How to play":
        t.tap(1)
    t.hold(1)
    written.append(t.save_png(os.path.join(out, "game_rules.png"), rings=False))
    # a won match's end: the session's wins
    t = SimTable(players=4, seed=2)
    t.app.kept["w"] = [2, 0, 1, 0, 0, 0, 0]
    game = t.start("reaction", bots=(1, 2, 3, 4), rounds=3)
    t.run_until_over(120000)
    if game.over and game.winners:
        t.hold(1)
        written.append(t.save_png(os.path.join(out, "game_over.png"), rings=False))
    return written


def main(argv=None):
    import games

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "img"), help="folder for the PNGs (default docs/img)")
    ap.add_argument("--seed", type=int, default=3, help="the matches' seed (default 3)")
    args = ap.parse_args(argv)
    if not os.path.isdir(args.out):
        ap.error("no such folder: " + args.out)
    for name in games.names():
        if name != "selftest":
            print(shoot(name, args.out, args.seed))
    for path in launcher_and_rules(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
