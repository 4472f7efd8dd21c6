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


GAMES = (("zilch", "Zilch", 7), ("wurfelblitz", "Würfelblitz", 7), ("lightning_dice", "Lightning Dice", 6),
         ("zap_city", "ZAP City", 4), ("flyer", "Flyer", 4))


def record_match(name, players, seed):
    """The store operations of one all-bot match with the game's default options (Zilch:
    15,000 points, its longest): a list of (dict, new) saves and (None, False) clears,
    and the match's save points (more than its saves when it saved once a round)."""
    from pc.sim import SimTable
    from referee.core import MS

    t = SimTable(players=players, seed=seed)
    ops = []
    store = t.app.store
    save = store.save

    def recording(d, new=False):
        ops.append((d, new))
        return save(d, new)

    store.save = recording
    g = t.start(name, bots=tuple(range(1, players + 1)), seed=seed)
    for a in ("think_ns", "roll_ns", "show_ns"):  # short bot thinking and pauses: the same saves, sooner
        if hasattr(g, a):
            setattr(g, a, 6 * MS)
    if not t.run_until_over(8 * 60 * 60 * 1000):
        raise RuntimeError(name + " did not end")
    t.advance(50)  # the clear at the end
    return ops, g.saves


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
    for d, new in ops:
        before = clone(mc, nvm)
        Store(nvm).save(d, new)
        states.append(Store(nvm).load())
        steps = nvm.steps - before.steps
        erasing = nvm.erases > before.erases
        row = {"kind": "clear" if d is None else "save", "erase": erasing, "new": new, "steps": steps,
               "tried": 0, "lost": {}, "wrong": 0, "window": [], "used": Store(nvm)._used()}
        for k in range(steps):
            for partial in [None] + list(range(1, seeds + 1)):
                mem = clone(mc, before)
                mem.cut(k, partial)
                try:
                    Store(mem, log=lambda m: None).save(d, new)
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
    head = ("| match | saves (save points) | sector used | erases: new match / mid-match | cut points "
            "| 0 lost | 1 lost | more | wrong | time losing more, per match (typ / max) |")
    lines = [head, "|---" * (head.count("|") - 1) + "|"]
    for label, rows, points in results:
        lost = {}
        for r in rows:
            for k, v in r["lost"].items():
                lost[k] = lost.get(k, 0) + v
        more = sum(v for k, v in lost.items() if k > 1)
        # the time a cut loses more: the erase and the page programs before the last such cut point
        # (step 0 is the erase, steps 1.. the page programs)
        ms = [sum(e + p * max(r["window"]) for r in rows if r["window"]) for e, p in zip(ERASE_MS, PAGE_MS)]
        lines.append("| %s | %d (%d) | %d B | %d / %d | %d | %d | %d | %d | %d | %s |" % (
            label, sum(r["kind"] == "save" for r in rows), points, max(r["used"] for r in rows),
            sum(r["erase"] and r["new"] for r in rows), sum(r["erase"] and not r["new"] for r in rows),
            sum(r["tried"] for r in rows), lost.get(0, 0), lost.get(1, 0), more, sum(r["wrong"] for r in rows),
            "%.2f s / %.1f s" % (ms[0] / 1000, ms[1] / 1000) if more else "0"))
    return "\n".join(lines)


def survey(mc, args):
    """Many matches per game, each saved on a fresh flash model, no cuts: the sizes."""
    print("matches saved on the Pico's NVM flash model, no cuts, commit " + commit())
    print("python tools/power_cut.py --survey %d --seed %d --games %s" % (args.survey, args.seed, args.games))
    print()
    print("| game | matches | saves: median / max | save points: max | sector used: median / max "
          "| matches saving once a round | erased mid-match |")
    print("|---|---|---|---|---|---|---|")
    mid_total = 0
    for name, title, most in GAMES:
        if name not in args.games.split(","):
            continue
        players = most if args.players == "max" else min(most, int(args.players))
        saves, points, used, thinned, mid = [], [], [], 0, 0
        for m in range(args.survey):
            ops, n = record_match(name, players, args.seed + m)
            nvm = mc.ByteArray()
            top = 0
            for d, new in ops:
                e = nvm.erases
                Store(nvm).save(d, new)
                mid += nvm.erases > e and not new
                top = max(top, Store(nvm)._used())
            saves.append(sum(d is not None for d, _ in ops))
            points.append(n)
            used.append(top)
            thinned += n > saves[-1]
        saves.sort()
        used.sort()
        mid_total += mid
        print("| %s %dp | %d | %d / %d | %d | %d B / %d B | %d | %d |" % (
            title, players, len(saves), saves[len(saves) // 2], saves[-1], max(points), used[len(used) // 2], used[-1],
            thinned, mid))
    return 1 if mid_total else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="max", help="table size: 'max' (each game's largest) or a number (default max)")
    ap.add_argument("--matches", type=int, default=3, help="seeded matches per game (default 3)")
    ap.add_argument("--seeds", type=int, default=2, help="halfway cuts per step (default 2)")
    ap.add_argument("--seed", type=int, default=11, help="the first match's seed")
    ap.add_argument("--games", default=",".join(g[0] for g in GAMES), help="comma-separated (default all five)")
    ap.add_argument("--survey", type=int, default=0, metavar="N",
                    help="instead: N seeded matches per game without cuts: how many saves, how full, any erase mid-match")
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
    if args.survey:
        return survey(mc, args)
    results = []
    totals = {"tried": 0, "wrong": 0, "more": 0, "saves": 0, "mid": 0}
    nvm = mc.ByteArray()  # one box: every match on the same NVM, one after the other
    for name, title, most in GAMES:
        if name not in args.games.split(","):
            continue
        players = most if args.players == "max" else min(most, int(args.players))
        for m in range(args.matches):
            ops, points = record_match(name, players, args.seed + m)
            rows, nvm = replay(mc, ops, args.seeds, nvm)
            results.append(("%s %dp #%d" % (title, players, m + 1), rows, points))
            totals["tried"] += sum(r["tried"] for r in rows)
            totals["wrong"] += sum(r["wrong"] for r in rows)
            totals["more"] += sum(sum(v for k, v in r["lost"].items() if k > 1) for r in rows)
            totals["saves"] += sum(r["kind"] == "save" for r in rows)
            totals["mid"] += sum(r["erase"] and not r["new"] for r in rows)
    print("power cuts on the Pico's NVM flash model, commit " + commit())
    print("python tools/power_cut.py --players %s --matches %d --seeds %d --seed %d --games %s%s" % (
        args.players, args.matches, args.seeds, args.seed, args.games, " --lib " + args.lib if args.lib else ""))
    print()
    print(table(results))
    print()
    print("%d cut points: %d lost more than the save being written, %d wrong loads; %d saves, %d erased mid-match" % (
        totals["tried"], totals["more"], totals["wrong"], totals["saves"], totals["mid"]))
    return 1 if totals["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
