"""Power cuts at every point of every save of seeded matches, on the model of the
Pico's NVM flash sector (tests/fakes/microcontroller.py: ByteArray, written as
CircuitPython 10.2's ports/raspberrypi/common-hal/nvm/ByteArray.c does).

    python tools/power_cut.py                 # the table, with the commit
    python tools/power_cut.py --players 7 --seeds 3

Each match (all bots on a SimTable: Zilch, then Würfelblitz, on the same NVM) is
played once and the store's operations are recorded: every save the app makes (at a
turn or round end) and the clear at the match's end. They are replayed on the flash
model; for every write, a cut is tried before each of its steps (the erase, each
page program) completes, both with the step never started and cut halfway (each
bit the step had to flip flipped or not, ``--seeds`` ways). After each cut a fresh
Store loads, and the result is compared with what was saved:

* 0 lost: the save being written (or, for the clear, nothing) is loaded;
* 1 lost: the save before it: the round in progress is replayed;
* more: an older save, or nothing left of the match (the number of saves lost is
  counted back to the state that loads);
* wrong: anything that was never saved. Must be 0.
"""

import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (ROOT, os.path.join(ROOT, "lib")):
    if _p not in sys.path:
        sys.path.insert(0, _p)
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

Store = None  # referee.store.Store, imported in main() (--lib: another build's store)
ERASE_MS = (45, 400)  # 4 KiB sector erase, typical / max: W25Q16JV datasheet (the Pico's flash)
PAGE_MS = (0.4, 3)  # 256-byte page program, typical / max


def record_match(name, players, seed):
    """The store operations of one all-bot match: a list of dicts (saves) and None (clears)."""
    import games
    from hardware.sim import SimTable
    from referee.core import MS

    def opt(key, words):
        for o in games.load(name).OPTIONS:
            if o.key == key:
                return o.choices[list(o.names).index(words)]
        raise KeyError(key)

    t = SimTable(players=players, seed=seed)
    ops = []
    store = t.app.store
    save = store.save

    def recording(d):
        ops.append(d)
        return save(d)

    store.save = recording
    bots = tuple(range(1, players + 1))
    if name == "zilch":
        g = t.start("zilch", bots=bots, seed=seed, variant=opt("variant", "5,000"),
                    challenge=opt("challenge", "on"), overtaking=opt("overtaking", "on"))
        g.think_ns, g.roll_ns, g.show_ns = 6 * MS, 4 * MS, 6 * MS  # short bot thinking and pauses
    else:
        g = t.start("wurfelblitz", bots=bots, seed=seed, bot_ms=900, whites=3, brainteaser=True)
    if not t.run_until_over(60 * 60 * 1000):
        raise RuntimeError(name + " did not end")
    t.advance(50)  # the clear at the end
    return ops


def fake_nvm_module():
    """tests/fakes/microcontroller.py (the flash model), imported on its own."""
    fakes = os.path.join(ROOT, "tests", "fakes")
    sys.path.insert(0, fakes)
    try:
        import microcontroller
    finally:
        sys.path.remove(fakes)
    if not hasattr(microcontroller, "PowerCut"):
        raise RuntimeError("not the flash model: " + microcontroller.__file__)
    return microcontroller


def clone(mc, nvm):
    c = mc.ByteArray(len(nvm))
    c._data[:] = nvm._data
    c.steps, c.erases, c.programs = nvm.steps, nvm.erases, nvm.programs
    return c


def replay(mc, ops, seeds, nvm=None):
    """Cut every write of ``ops`` at every step; returns (rows, nvm after all ops)."""
    nvm = nvm or mc.ByteArray()
    states = [Store(nvm).load()]  # what a load should give before op 0, after op 0, ...
    rows = []
    for _i, d in enumerate(ops):
        before = clone(mc, nvm)
        Store(nvm).save(d)
        states.append(Store(nvm).load())
        steps = nvm.steps - before.steps
        erasing = nvm.erases > before.erases
        row = {"kind": "clear" if d is None else "save", "erase": erasing, "steps": steps,
               "tried": 0, "lost": {}, "wrong": 0, "window": []}
        for k in range(steps):
            for partial in [None] + list(range(1, seeds + 1)):
                mem = clone(mc, before)
                mem.cut(k, partial)
                try:
                    Store(mem, log=lambda m: None).save(d)
                except mc.PowerCut:
                    pass
                else:
                    raise AssertionError("the cut did not happen")
                got = Store(mem, log=lambda m: None).load()
                row["tried"] += 1
                j = len(states) - 1
                while j >= 0 and states[j] != got:
                    j -= 1
                if j < 0:
                    row["wrong"] += 1
                    continue
                lost = len(states) - 1 - j
                if d is None and lost == 1 and states[-1] is None:
                    lost = 0 if got is None else 1  # the clear: nothing offered is its aim
                row["lost"][lost] = row["lost"].get(lost, 0) + 1
                if lost > 1:
                    row["window"].append(k)
        rows.append(row)
    return rows, nvm


def commit():
    try:
        h = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return h + (" (+ uncommitted changes)" if dirty else "")
    except OSError:
        return "?"


def table(results):
    head = ("| match | writes (erasing) | cut points | 0 lost | 1 lost | more | most lost | wrong "
            "| more: cut before step | time losing more, per match (typ / max) |")
    lines = [head, "|---" * (head.count("|") - 1) + "|"]
    for label, rows in results:
        for kind in ("save", "clear"):
            rs = [r for r in rows if r["kind"] == kind]
            if not rs:
                continue
            lost = {}
            for r in rs:
                for k, v in r["lost"].items():
                    lost[k] = lost.get(k, 0) + v
            more = sum(v for k, v in lost.items() if k > 1)
            window = sorted(set(k for r in rs for k in r["window"]))
            where = ("erase" if 0 in window else "") + (", pages 1-" + str(max(window)) if max(window or [0]) else "")
            # the time a cut loses more: the erase and the page programs before the last such cut point
            # (step 0 is the erase, steps 1.. the page programs)
            ms = [sum(e + p * max(r["window"]) for r in rs if r["window"]) for e, p in zip(ERASE_MS, PAGE_MS)]
            lines.append("| %s %ss | %d (%d) | %d | %d | %d | %d | %d | %d | %s | %s |" % (
                label, kind, len(rs), sum(r["erase"] for r in rs), sum(r["tried"] for r in rs),
                lost.get(0, 0), lost.get(1, 0), more, max(lost) if lost else 0, sum(r["wrong"] for r in rs),
                where if window else "-", "%.2f s / %.1f s" % (ms[0] / 1000, ms[1] / 1000) if window else "0"))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="3,7", help="table sizes, comma-separated (default 3,7)")
    ap.add_argument("--seeds", type=int, default=2, help="halfway cuts per step (default 2)")
    ap.add_argument("--seed", type=int, default=11, help="the matches' seed")
    ap.add_argument("--lib", help="take referee.store from this lib/ instead (another build, to compare)")
    args = ap.parse_args(argv)
    global Store
    if args.lib:
        import importlib.util

        spec = importlib.util.spec_from_file_location("other_store", os.path.join(args.lib, "referee", "store.py"))
        other = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(other)
        Store = other.Store
    else:
        from referee.store import Store
    mc = fake_nvm_module()
    results = []
    totals = {"tried": 0, "wrong": 0, "saves": 0, "erasing": 0}
    for players in [int(p) for p in args.players.split(",")]:
        nvm = mc.ByteArray()
        for name, title in (("zilch", "Zilch"), ("wurfelblitz", "Würfelblitz")):
            ops = record_match(name, players, args.seed)
            rows, nvm = replay(mc, ops, args.seeds, nvm)
            results.append(("%s %dp" % (title, players), rows))
            totals["tried"] += sum(r["tried"] for r in rows)
            totals["wrong"] += sum(r["wrong"] for r in rows)
            totals["saves"] += sum(r["kind"] == "save" for r in rows)
            totals["erasing"] += sum(r["erase"] and r["kind"] == "save" for r in rows)
    print("power cuts on the Pico's NVM flash model, commit " + commit())
    print("python tools/power_cut.py --players " + args.players + " --seeds " + str(args.seeds) + " --seed " + str(args.seed)
          + (" --lib " + args.lib if args.lib else ""))
    print()
    print(table(results))
    print()
    print("%d cut points, %d wrong loads; %d of %d saves erased the sector" % (
        totals["tried"], totals["wrong"], totals["erasing"], totals["saves"]))
    return 1 if totals["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
