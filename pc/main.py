"""PC only: ``python code.py`` on CPython — the box in a window, or a headless demo."""

import argparse
import os
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (_ROOT, os.path.join(_ROOT, "lib")):  # whatever the working directory
    if _p not in sys.path:
        sys.path.insert(0, _p)

from pc import env as pc_env  # noqa: E402, F401  (before Blinka and pygame)

DEFAULT_DEMO_DIR = "demo-out"
DEMO_SEED = 1  # the demo is reproducible; the window seeds from os.urandom


MAX_SCALE = 8


def _whole(low, high, what):
    """An argparse type: a whole number from ``low`` to ``high`` (None: no limit),
    else a message naming the flag's range (argparse exits with status 2)."""

    def check(text):
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError("not a whole number: " + repr(text)) from None
        if v < low or (high is not None and v > high):
            raise argparse.ArgumentTypeError(
                "%s must be %s, not %d" % (what, ("%d-%d" % (low, high)) if high is not None else ">= %d" % low, v))
        return v

    return check


def _args(argv):
    from referee.settings import SPEC

    lo, hi = [(row[3], row[4]) for row in SPEC if row[0] == "players"][0]
    ap = argparse.ArgumentParser(prog="python code.py", description="Referee Box on a PC")
    ap.add_argument("--demo", nargs="?", const=DEFAULT_DEMO_DIR, metavar="DIR",
                    help="headless: bots play a match of each game, PNG snapshots go to DIR (default %(const)s)")
    ap.add_argument("--players", type=_whole(lo, hi, "seats"), default=None,
                    help="seats at the table, %d-%d (default: settings.toml)" % (lo, hi))
    ap.add_argument("--seed", type=_whole(0, None, "a seed"), default=None,
                    help="seed of the simulated table (window: fresh from os.urandom, logged; demo: 1)")
    ap.add_argument("--scale", type=_whole(1, MAX_SCALE, "the zoom"), default=2,
                    help="window zoom, 1-%d (default 2)" % MAX_SCALE)
    ap.add_argument("--game", default=None, help="demo only this game")
    ap.add_argument("--save", default=None, metavar="FILE",
                    help="window only: the file that stands in for the box's NVM, where matches are saved"
                         " (default ~/.referee-box-nvm.bin; the demo never touches it)")
    return ap.parse_args(argv)

def read_settings_toml(path="settings.toml"):
    """(values, notes): the REFEREE_* values of settings.toml as the device's
    os.getenv would see them, and messages about the file itself (it does not
    parse: every setting takes its default, and the screen says so). The values
    are checked later, by referee.settings, like the device's.

    Where CircuitPython's getenv reads what the PC's TOML parser refuses, the PC
    reads it the same way and says so: a key set twice keeps its first value
    (getenv stops at the first), and after a UTF-8 byte-order mark the first line
    is lost (getenv takes the mark for part of its key)."""
    from referee.settings import toml_problem

    try:
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        return {}, []
    except OSError as e:  # a folder of that name, no permission
        why = "it is a folder" if os.path.isdir(path) else (e.strerror or str(e))
        return _unread("settings.toml cannot be read (" + why + "); every setting takes its default", e)
    notes = []
    if raw.startswith(b"\xef\xbb\xbf"):
        raw, note = _after_bom(raw[3:])
        if note:
            notes.append(note)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return _unread(toml_problem(str(e)), e)
    data, more = _parse(text)
    if isinstance(data, BaseException):
        return _unread(more[0], data)
    for note in notes + more:
        print(note)
    return {k: str(v) if not isinstance(v, str) else v for k, v in data.items()}, notes + more


def _unread(note, e):
    print(note + " (" + type(e).__name__ + ": " + str(e) + ")")
    return {}, [note]


def _key_of(line):
    """The bare key a ``key = value`` line sets, else ""."""
    key = line.split("=", 1)[0].strip() if "=" in line else ""
    ok = key and all(ch.isalnum() or ch in "_-" for ch in key)
    return key if ok else ""


def _after_bom(raw):
    """(bytes, note) for a file that began with a UTF-8 byte-order mark: its first
    line blanked if it sets a key (the box cannot read that line), and why."""
    first, nl, rest = raw.partition(b"\n")
    key = _key_of(first.decode("utf-8", "replace"))
    if not key:
        return raw, ""  # a comment or a blank line: nothing is lost
    return nl + rest, ("settings.toml starts with a byte-order mark (BOM): the box cannot read its first line, so "
                       + key + " takes its default; save the file as UTF-8 without BOM")


def _parse(text):
    """(dict, notes), or (the exception, [note]) when the file cannot be read."""
    import tomllib

    from referee.settings import line_of, toml_problem

    lines = text.split("\n")
    notes = []
    while True:  # each round blanks a line, so it ends
        try:
            return tomllib.loads("\n".join(lines)), notes
        except tomllib.TOMLDecodeError as e:
            n = line_of(str(e))
            key = _key_of(lines[n - 1]) if "Cannot overwrite a value" in str(e) and 0 < n <= len(lines) else ""
            if not key:
                return e, [toml_problem(str(e))]
            notes.append("settings.toml line " + str(n) + " sets " + key + " again: the first value is used, "
                         "as on the box; delete one of them")
            lines[n - 1] = ""
        except (RecursionError, MemoryError) as e:  # e.g. a line of hundreds of nested [
            return e, [toml_problem("", "brackets nested too deep?")]


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
    seed = DEMO_SEED if args.seed is None else args.seed
    if args.demo is not None:
        return _demo(args.demo, settings, seed, args.game, notes, "--demo " + args.demo, 2)  # 2: a bad flag
    from pc import window as pc_window

    why = pc_window.unavailable()
    if why:
        print("No display can be opened here (" + why + "); running the headless demo instead.")
        return _demo(DEFAULT_DEMO_DIR, settings, seed, args.game, notes, "the demo's folder " + DEFAULT_DEMO_DIR, 1)
    return pc_window.run(settings, seed=args.seed, scale=args.scale, save_path=args.save, notes=notes)


def _demo(folder, settings, seed, only, notes, what, status):
    from pc import demo as pc_demo

    why = pc_demo.folder_problem(folder)
    if why:
        print(what + ": " + why, file=sys.stderr)
        return status
    return pc_demo.run(folder, settings, seed=seed, only=only, notes=notes)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
