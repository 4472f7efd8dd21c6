"""PC only: ``python code.py`` on CPython — the box in a window, or a headless demo."""

import argparse
import os
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (_ROOT, os.path.join(_ROOT, "lib")):  # whatever the working directory
    if _p not in sys.path:
        sys.path.insert(0, _p)

from hardware import pc_env  # noqa: E402, F401  (before Blinka and pygame)

DEFAULT_DEMO_DIR = "demo-out"
DEMO_SEED = 1  # the demo is reproducible; the window seeds from os.urandom


def _args(argv):
    ap = argparse.ArgumentParser(prog="python code.py", description="Referee Box on a PC")
    ap.add_argument("--demo", nargs="?", const=DEFAULT_DEMO_DIR, metavar="DIR",
                    help="headless: bots play a match of each game, PNG snapshots go to DIR (default %(const)s)")
    ap.add_argument("--players", type=int, default=None, help="seats at the table (default: settings.toml)")
    ap.add_argument("--seed", type=int, default=None,
                    help="seed of the simulated table (window: fresh from os.urandom, logged; demo: 1)")
    ap.add_argument("--scale", type=int, default=2, help="window zoom (default 2)")
    ap.add_argument("--game", default=None, help="demo only this game")
    ap.add_argument("--save", default=None, metavar="FILE",
                    help="window only: the file that stands in for the box's NVM, where matches are saved"
                         " (default ~/.referee-box-nvm.bin; the demo never touches it)")
    return ap.parse_args(argv)

def read_settings_toml(path="settings.toml"):
    """(values, notes): the REFEREE_* values of settings.toml as the device's
    os.getenv would see them, and messages about the file itself (it does not
    parse: every setting takes its default, and the screen says so). The values
    are checked later, by referee.settings, like the device's."""
    import tomllib

    from referee.settings import toml_problem

    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        return {}, []
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        note = toml_problem(str(e))
        print(note + " (" + str(e) + ")")
        return {}, [note]
    return {k: str(v) if not isinstance(v, str) else v for k, v in data.items()}, []

def main(argv):
    args = _args(argv)
    if args.game is not None:
        import games

        if args.game not in games.names():
            print("--game " + args.game + ": no such game; the games: " + ", ".join(games.names()), file=sys.stderr)
            return 2
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    settings, notes = read_settings_toml(os.path.join(here, "settings.toml"))
    if args.players is not None:
        settings["REFEREE_PLAYERS"] = str(args.players)
    if args.demo is not None:
        from hardware import pc_demo

        return pc_demo.run(args.demo, settings, seed=DEMO_SEED if args.seed is None else args.seed, only=args.game,
                           notes=notes)
    from hardware import pc_window

    why = pc_window.unavailable()
    if why:
        print("No display can be opened here (" + why + "); running the headless demo instead.")
        from hardware import pc_demo

        return pc_demo.run(DEFAULT_DEMO_DIR, settings, seed=DEMO_SEED if args.seed is None else args.seed,
                           only=args.game, notes=notes)
    return pc_window.run(settings, seed=args.seed, scale=args.scale, save_path=args.save, notes=notes)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
