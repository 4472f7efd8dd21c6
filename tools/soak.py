"""Soak: a long party on the virtual clock. Every game in turn, bots at every seat,
a pause (MENU) and resume every few minutes, a match that runs past the cap ended
from the pause menu; no error allowed.

    python tools/soak.py [--hours 12] [--loop-ms 5] [--vm-hours 12] [--vm-loop-ms 20] [--seed 1]

Two runs:

* CPython (``SimTable``): the loop's cost at the start vs the end: CPU µs per loop
  pass of each game's first match and of its last, and the Python objects alive at
  the launcher after the first match and after the last (gc.get_objects()).
* MicroPython VM (tools/bench_memory.py's machinery: the board's .mpy modules, the
  Device on tools/pico_fakes): the heap sampled in chunks of its own (in this VM
  gc.collect() frees nothing inside one runPython call), at the launcher after every
  match and every ``SAMPLE_MS`` in matches. Growth is the launcher's heap after a
  match minus after the first match, and each game's peak in a later match minus its
  first: both must stay under ``BOUND`` bytes.

Figures for docs/reliability.md; ``--vm-hours 0`` or ``--hours 0`` skips a run.
"""

import argparse
import gc
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (ROOT, os.path.join(ROOT, "lib"), os.path.join(ROOT, "tools")):
    if _p not in sys.path:
        sys.path.insert(0, _p)
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import games  # noqa: E402

MATCH_CAP_MIN = 30  # a match still running after this is ended from the pause menu
PAUSE_EVERY_MIN = 2  # a pause (then resume) every this many virtual minutes of a match
PAUSE_S = 20
BOUND = 2048  # bytes of heap growth allowed (launcher after a match; a game's peak)
SAMPLE_MS = 10000  # VM: a heap sample every this much virtual time in a match
SOAK_GAMES = ("reaction", "wurfelblitz", "lightning_dice", "zilch", "zap_city", "flyer")
MIN = 60 * 1000  # ms


def _order(names=None):
    have = games.names()
    return [n for n in (names or SOAK_GAMES) if n in have]


# --- CPython -------------------------------------------------------------------------


def soak_cpython(hours, loop_ms=5, seed=1, names=None, out=None):
    """Play ``hours`` of virtual time; returns figures. Raises on any error."""
    from pc.sim import SimTable
    from referee.app import ENDED, GAME, LAUNCHER, OVER, PAUSE

    t = SimTable(players=7, seed=seed, catch_errors=False, loop_ms=loop_ms)
    order = _order(names)
    end_ms = hours * 60 * MIN
    matches = []  # (name, players, virtual ms, loop passes, cpu s)
    launcher_objects = []
    k = 0
    while t.now < end_ms * 1000000:
        name = order[k % len(order)]
        k += 1
        mod = games.load(name)
        players = min(mod.MAX_PLAYERS, 7) if k % 2 else max(mod.MIN_PLAYERS, 3)
        t.players = players
        t0 = t.now
        c0 = time.process_time()
        t.start(name, bots=tuple(range(1, players + 1)))
        played = 0
        while not t.game.over and played < MATCH_CAP_MIN * MIN and t.now < end_ms * 1000000:
            t.advance(PAUSE_EVERY_MIN * MIN)
            played += PAUSE_EVERY_MIN * MIN
            if t.game.over:
                break
            t.menu()  # MENU: pause
            t.advance(PAUSE_S * 1000)
            assert t.app.mode == PAUSE, t.app.mode
            t.hold(1)  # "Resume" is the first item
            assert t.app.mode == GAME, t.app.mode
        if not t.game.over:  # past the cap: MENU, "End game", "Yes, end it"
            t.menu()
            t.advance(400)
            t.tap(1)
            t.hold(1)
            t.tap(1)
            t.hold(1)
            assert t.app.mode == ENDED, t.app.mode
        cpu = time.process_time() - c0
        passes = (t.now - t0) // t.loop_ns
        t.hold(1)  # the standings or the end screen -> the games
        if t.app.mode == OVER:  # a won match: the session's wins first
            t.hold(1)
        assert t.app.mode == LAUNCHER, t.app.mode
        t.flush_screen()  # (the simulator draws a screen when looked at: what waits for a
        gc.collect()  # look, up to 256 changes of screens gone, is held till then, not leaked)
        launcher_objects.append(len(gc.get_objects()))
        matches.append((name, players, (t.now - t0) // 1000000, passes, cpu))
        if out:
            out("  %6.2f h  %-15s %dp %6.1f min  %6.2f µs/pass" % (t.now / 3.6e12, name, players,
                                                                  (t.now - t0) / 6e10, 1e6 * cpu / passes))
    first, last = {}, {}
    for m in matches:
        key = (m[0], m[1])
        first.setdefault(key, m)
        last[key] = m
    return {"hours": hours, "loop_ms": loop_ms, "matches": len(matches), "first": first, "last": last,
            "launcher_objects": launcher_objects, "virtual_h": t.now / 3.6e12}


# --- the MicroPython VM -----------------------------------------------------------------

# bench_memory's sampler keeps 1,000 samples and notes new modules at each: a soak
# takes more, and imports nothing new after the first cycle.
SAMPLER = r"""
SAMPLES = SAMPLES[:SI[0]] + [0] * ROOM
def S():
    gc.collect()
    SAMPLES[SI[0]] = gc.mem_alloc()
    SI[0] += 1
"""
# The soak's driver in the VM: one chunk per unit of play, then a sample (its own
# chunks). The plan is decided in the VM (a chunk cannot see the host), so each unit
# tags the sample that follows: the launcher after a match, a game's build, play.
DRIVER = r"""
ORDER = %(order)r
END = _t.NOW[0] + %(total_ns)d
CAP = %(cap_ns)d
PAUSE_NS = %(pause_ns)d
STEP_NS = %(step_ns)d
PER = %(per)d
ST = {"k": 0, "start": 0, "paused": 0, "back": True, "n": 0}
TAGS = [0] * %(room)d  # preallocated small ints (no heap per sample): kind + 8 * match
def TAG(kind):
    TAGS[ST["n"]] = kind + 8 * ST["k"]
    ST["n"] += 1
def UNIT():
    a = D.app
    now = _t.NOW[0]
    if now >= END:
        TAG(0)
        return
    if ST["back"]:  # launch the next game
        name, players = ORDER[ST["k"] %% len(ORDER)]
        ST["k"] += 1
        ST["back"] = False
        ST["start"] = ST["paused"] = now
        a.launch(name, players, bots=tuple(range(1, players + 1)))
        TAG(1)
        return
    g = a.game
    if g is None or g.over or now - ST["start"] >= CAP:
        if g is not None and not g.over:  # past the cap: ended from the pause menu
            a._pause(now)
            a._pause_choice("end!", now)
        a.back_to_launcher()
        D.step()
        ST["back"] = True
        TAG(3)
        return
    for _i in range(PER):
        if g.over:
            break
        _t.NOW[0] += STEP_NS
        D.step()
        if _t.NOW[0] - ST["paused"] >= PAUSE_NS:  # MENU: pause, then resume
            ST["paused"] = _t.NOW[0]
            a._pause(_t.NOW[0])
            for _j in range(10):
                _t.NOW[0] += STEP_NS
                D.step()
            a._pause_choice("resume", _t.NOW[0])
    TAG(2)
"""
UNIT = r"""
try:
    UNIT()
except Exception as _e:
    ERR.append("unit: " + repr(_e))
    TAG(4)
"""


def vm_chunks(hours, loop_ms, names=None):
    """The chunks of the VM soak and the labels of the samples before the units'."""
    import bench_memory as B

    chunks, labels = B.calibration_chunks()
    chunks.append(SAMPLER)
    chunks += B.SAMPLE + [B.DEVICE] + B.SAMPLE + [B.STEP] + B.SAMPLE
    labels += ["base", "device", "launcher"]
    order = []
    for k, name in enumerate(_order(names) * 2):
        mod = games.load(name)
        order.append((name, min(mod.MAX_PLAYERS, 7) if k % 2 == 0 else max(mod.MIN_PLAYERS, 3)))
    per = max(1, SAMPLE_MS // loop_ms)
    total_ms = int(hours * 60 * MIN)
    chunks.append(DRIVER % {"order": order, "total_ns": total_ms * 1000000, "cap_ns": MATCH_CAP_MIN * MIN * 1000000,
                            "pause_ns": PAUSE_EVERY_MIN * MIN * 1000000, "step_ns": loop_ms * 1000000, "per": per,
                            "room": total_ms // SAMPLE_MS + 2 * (total_ms // MIN) + 20})
    # units: one per sample of play, plus a build and a return per match (a match
    # lasts a minute at least), and a margin
    units = total_ms // SAMPLE_MS + 2 * (total_ms // MIN) + 10
    for _ in range(units):
        chunks += [UNIT] + B.SAMPLE
    chunks.append(B.REPORT.replace('"samples":', '"tags": TAGS[:ST["n"]], "samples":'))
    chunks[chunks.index(SAMPLER)] = SAMPLER.replace("ROOM", str(len(labels) + units + 8))
    return chunks, labels, order


KINDS = ("idle", "built", "match", "launcher", "error")


def decode(tag, order):
    kind, k = KINDS[tag % 8], tag // 8
    if kind in ("built", "match"):
        name, players = order[(k - 1) % len(order)]
        return "%s:%s %dp:%d" % (kind, name, players, k)
    return "%s:%d" % (kind, k) if kind == "launcher" else kind


def soak_vm(hours, loop_ms=20, names=None, tree=ROOT):
    """Run the VM soak; returns figures (bytes allocated, as bench_memory samples them)."""
    import bench_memory as B

    with tempfile.TemporaryDirectory(prefix="referee-soak-mpy-") as tmp:
        mounts, _modules, _version, settings = B.compile_tree(tree, tmp)
        chunks, labels, order = vm_chunks(hours, loop_ms, names)
        t0 = time.perf_counter()
        out = B.run_vm(chunks, mounts, settings)
        wall = time.perf_counter() - t0
    tags = [decode(t, order) for t in out["tags"]]
    s = list(zip(labels + tags, out["samples"]))
    s = [(lab, v) for lab, v in s if lab != "idle"]
    base = dict(s)["base"]
    launcher = [v - base for lab, v in s if lab.startswith("launcher")]
    peaks = {}  # game -> [peak of each of its matches]
    cur = {}
    for lab, v in s:
        if lab.startswith(("built:", "match:")):
            _kind, name, k = lab.split(":")
            cur[(name, k)] = max(cur.get((name, k), 0), v - base)
    for (name, _k), v in sorted(cur.items(), key=lambda kv: int(kv[0][1])):
        peaks.setdefault(name, []).append(v)
    return {"hours": hours, "loop_ms": loop_ms, "samples": len(s), "launcher": launcher, "peaks": peaks,
            "matches": len(launcher),
            "errors": out["errors"] + (["unit error"] if "error" in tags else []),
            "app_error": out["app_error"], "device_errors": out["device_errors"],
            "virtual_ms": out["virtual_ms"], "wall_s": wall,
            # the first cycle (every game and table size once) is the warm-up: what
            # stays for good (the pause menu, modules games share) comes then
            "warmup": (launcher[min(len(order), len(launcher)) - 1] - launcher[0]) if launcher else 0,
            "launcher_growth": (max(launcher[len(order):]) - launcher[len(order) - 1]) if len(launcher) > len(order)
            else None,
            "peak_growth": max([max(p[1:]) - p[1] for p in peaks.values() if len(p) > 2] or [0])}


def commit():
    r = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hours", type=float, default=12, help="virtual hours on CPython (0: skip)")
    ap.add_argument("--loop-ms", type=int, default=5)
    ap.add_argument("--vm-hours", type=float, default=12, help="virtual hours in the MicroPython VM (0: skip)")
    ap.add_argument("--vm-loop-ms", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    print("soak at commit %s: python tools/soak.py %s" % (commit(), " ".join(argv or sys.argv[1:])))
    bad = 0
    if args.hours:
        f = soak_cpython(args.hours, args.loop_ms, args.seed, out=None if args.quiet else print)
        print("CPython: %.1f virtual hours, %d matches, loop every %d ms, no error" % (f["virtual_h"], f["matches"],
                                                                                     f["loop_ms"]))
        print("| game | players | first match: µs/pass | last match: µs/pass |")
        print("|---|---|---|---|")
        for key in sorted(f["first"]):
            a, b = f["first"][key], f["last"][key]
            print("| %s | %d | %.1f | %.1f |" % (key[0], key[1], 1e6 * a[4] / a[3], 1e6 * b[4] / b[3]))
        lo = f["launcher_objects"]
        print("Python objects at the launcher: after match 1 %d, after match %d %d (max %d)" % (
            lo[0], len(lo), lo[-1], max(lo)))
    if args.vm_hours:
        v = soak_vm(args.vm_hours, args.vm_loop_ms)
        print("MicroPython VM: %.1f virtual hours (loop every %d ms), %d heap samples, %.0f s wall; errors %s %s" % (
            v["virtual_ms"] / 3.6e6, v["loop_ms"], v["samples"], v["wall_s"], v["errors"], v["app_error"] or ""))
        print("heap at the launcher after each match (bytes above the baseline): " + " ".join(str(x) for x in v["launcher"]))
        print("  first %d, min %d, max %d, last %d"
              % (v["launcher"][0], min(v["launcher"]), max(v["launcher"]), v["launcher"][-1]))
        for name, p in v["peaks"].items():
            print("  %-15s peak per match: first %d, max %d, last %d (%d matches)" % (name, p[0], max(p), p[-1],
                                                                                   len(p)))
        print("warm-up (launcher after the first cycle of every game minus after match 1): %d B" % v["warmup"])
        print("growth after the warm-up: launcher %s B, a game's peak (its 2nd match on) %d B (bound %d B)" % (
            v["launcher_growth"], v["peak_growth"], BOUND))
        if v["errors"] or v["app_error"] or (v["launcher_growth"] or 0) > BOUND or v["peak_growth"] > BOUND:
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
