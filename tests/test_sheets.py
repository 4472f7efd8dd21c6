"""Sprite sheets drawn as rectangles (``bitmaptools.fill_region``) come out pixel for
pixel as the pixel loops drew them, in every world that runs them; and each world's
``fill_region`` keeps the firmware's rules.

The pixel loops are kept here, as the sheets were drawn up to 68aaa16: the dice of
``referee.die`` (every size 12..64 px: the games use 44), the letters of
``referee.marks``, Lightning Dice's faces and ZAP City's tiles. They draw into a plain
grid that refuses a pixel off the sheet, as the firmware's bitmaps do. The worlds: Blinka on the PC (its own ``fill_region`` and the
simulator's fast one, pc/fast_displayio.py), the bare interpreter's fakes
(tests/fakes/display), the MicroPython VM's (tools/pico_fakes: they keep no pixels,
so there only the checks) and the browser's ``displayio`` (web/) in that VM.

The firmware's rules (CircuitPython 10.2.1, ``shared-bindings/bitmaptools/__init__.c``):
no clipping (a corner off the bitmap is a ``ValueError`` naming it), x2 and y2 exclusive,
``None`` for x2/y2 the edge, a value below ``1 << bits_per_value``.
"""

import json
import os
import shutil
import subprocess
import sys

import compat
import displayio
import fakes
import pytest

from games import lightning_dice_screen, zap_city_screen
from hardware import sim  # noqa: F401  (the simulator's displayio: fast_displayio installed)
from pc import fast_displayio
from referee import die, marks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIE_SIZES = tuple(range(12, 65))
MARK_SIZES = (10, 22, 44, 66, 88)


class Grid:
    """A sheet's pixels as the pixel loops wrote them: a write off the sheet fails."""

    def __init__(self, width, height):
        self.width = width
        self.height = height
        self.px = bytearray(width * height)

    def fill(self, value):
        self.px[:] = bytes((value,)) * len(self.px)

    def __setitem__(self, xy, value):
        x, y = xy
        assert 0 <= x < self.width and 0 <= y < self.height, (x, y)
        self.px[y * self.width + x] = value


# ------------------------------------------------------------------ the pixel loops


def loop_disc(bm, cx, cy, r, value):
    rr = r * r
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            if dx * dx + dy * dy <= rr:
                bm[cx + dx, cy + dy] = value


def loop_die(size):
    tiles = die._TILES
    bm = Grid(size * tiles, size)
    bm.fill(1)
    r = max(2, size // 10)
    step = size // 4
    for t in range(tiles):
        x0 = t * size
        for i in range(size):
            for k in (0, 1, size - 2, size - 1):
                bm[x0 + i, k] = 0
                bm[x0 + k, i] = 0
        for col, row in die.PIPS.get(t, ()):
            loop_disc(bm, x0 + step * (col + 1), step * (row + 1), r, 2)
    half = size // 2
    loop_disc(bm, die._DOT * size + half, half, size // 4 + 2, 2)
    loop_disc(bm, die._DOT * size + half, half, size // 4, 3)
    return bm


def loop_marks(size):
    k = max(1, size // 22)
    bm = Grid(5 * k * len(marks.LETTERS), 7 * k)
    for t in range(len(marks.LETTERS)):
        for row in range(7):
            bits = marks._GLYPHS[t * 7 + row]
            for col in range(5):
                if (bits >> (4 - col)) & 1:
                    for dy in range(k):
                        for dx in range(k):
                            bm[(t * 5 + col) * k + dx, row * k + dy] = 1
    return bm


def loop_lightning():
    L = lightning_dice_screen
    bm = Grid(12 * L._TILE, L._TILE)
    for f in range(12):
        x0 = f * L._TILE
        body = 1 if f >= 6 else 3
        pip = 2 if f >= 6 else 1
        for y in range(L._TILE - 2):
            for x in range(L._TILE - 2):
                bm[x0 + x, y] = body
        for col, row in die.PIPS[f % 6 + 1]:
            px = x0 + L._PIPS_AT[col]
            py = L._PIPS_AT[row]
            for dy in range(L._PIP):
                for dx in range(L._PIP):
                    if (dx % 4 or dy % 4):  # round the corners
                        bm[px + dx, py + dy] = pip
    return bm


def loop_zap():
    Z = zap_city_screen
    T = Z._T
    bm = Grid(11 * T, T)
    for t in range(1, 11):
        x0 = t * T
        for y in range(T - 1):
            for x in range(T - 1):
                edge = x == 0 or y == 0 or x == T - 2 or y == T - 2
                if t < Z._EMPTY:
                    c = t
                elif t == Z._EMPTY:
                    c = 6 if edge else 5
                elif edge:
                    c = t - Z._HIGH if t < 10 else 6
                else:
                    c = 7
                bm[x0 + x, y] = c
    return bm


def loop_sheets():
    """{name: Grid} of every sheet, as the pixel loops drew them."""
    got = {"die %d" % s: loop_die(s) for s in DIE_SIZES}
    got.update(("marks %d" % s, loop_marks(s)) for s in MARK_SIZES)
    got["lightning_dice"] = loop_lightning()
    got["zap_city"] = loop_zap()
    return got


# What builds each sheet in the tree (with the sheets' caches emptied first), as source:
# the bare interpreter and the VM run it too. ``sheets()`` returns {name: bitmap}.
BUILD = """
from referee import die, marks
from games import lightning_dice_screen, zap_city_screen

def sheets(die_sizes, mark_sizes):
    got = {}
    for s in die_sizes:
        die._SHEETS.clear()
        got["die %d" % s] = die.sheet(s)
    for s in mark_sizes:
        marks._SHEETS.clear()
        got["marks %d" % s] = marks.sheet(s)[0]
    got["lightning_dice"] = lightning_dice_screen._sheet()
    got["zap_city"] = zap_city_screen._tiles()[0]
    return got
"""


@pytest.fixture(scope="module")
def loops():
    return loop_sheets()


def test_the_pixel_loops_draw_inside_their_sheets(loops):
    # (Grid refuses a pixel off the sheet) and every colour of each sheet is there
    assert set(loops["die 44"].px) == {0, 1, 2, 3}
    assert set(loops["lightning_dice"].px) == {0, 1, 2, 3}
    assert set(loops["zap_city"].px) == set(range(8))
    assert set(loops["marks 44"].px) == {0, 1}


def _blinka_pixels(bm):
    return bytes(bm[x, y] for y in range(bm.height) for x in range(bm.width))


@pytest.mark.parametrize("fill", ["fast", "blinka"])
def test_the_sheets_on_the_pc_are_the_pixel_loops(loops, fill, monkeypatch):
    # the simulator's fill_region (pc/fast_displayio.py) and Blinka's own
    import bitmaptools

    if fill == "blinka":
        monkeypatch.setattr(bitmaptools, "fill_region", fast_displayio._BLINKA[bitmaptools, "fill_region"])
    else:
        assert bitmaptools.fill_region is fast_displayio._fill_region
    monkeypatch.setattr(die, "_SHEETS", {})
    monkeypatch.setattr(marks, "_SHEETS", {})
    ns = {}
    exec(BUILD, ns)
    got = ns["sheets"](DIE_SIZES, MARK_SIZES)
    assert sorted(got) == sorted(loops)
    for name, bm in got.items():
        assert isinstance(bm, displayio.Bitmap)
        assert (bm.width, bm.height) == (loops[name].width, loops[name].height), name
        assert _blinka_pixels(bm) == bytes(loops[name].px), name


def test_the_sheets_on_the_bare_interpreter_are_the_pixel_loops(loops):
    # tests/fakes/display: its bitmaptools is tools/pico_fakes/bitmaptools.py, writing
    # through the bare displayio.Bitmap
    script = "import sys, json\nsys.path[:] = %r\n%s\n" % (fakes.bare_path(ROOT, os.path.join(ROOT, "lib")), BUILD)
    script += ("got = sheets(%r, %r)\nimport bitmaptools\n"
               "print(json.dumps({'bitmaptools': bitmaptools.__file__, 'fill': bitmaptools.fill_region.__code__.co_filename,"
               " 'sheets': {n: [b.width, b.height, bytes(b._data).hex()] for n, b in got.items()}}))\n"
               % (DIE_SIZES, MARK_SIZES))
    r = subprocess.run([sys.executable, "-S", "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout)
    assert out["bitmaptools"].startswith(fakes.DISPLAY)
    assert out["fill"] == os.path.join(ROOT, "tools", "pico_fakes", "bitmaptools.py")
    assert sorted(out["sheets"]) == sorted(loops)
    for name, (w, h, data) in out["sheets"].items():
        assert (w, h) == (loops[name].width, loops[name].height), name
        assert bytes.fromhex(data) == bytes(loops[name].px), name


def test_the_sheets_are_built_in_the_micropython_vm():
    # tools/pico_fakes keep no pixels: here the sheets run their checks (a rectangle off
    # a sheet would raise as on the board) under MicroPython
    compat.require_vm()
    script = BUILD + "got = sheets(%r, %r)\nprint(len(got), got['die 44'].width)\n" % (DIE_SIZES, MARK_SIZES)
    r = compat.run_vm(script)
    assert r.returncode == 0, compat.vm_to_repo_paths(r.stderr)
    assert r.stdout.split() == [str(len(DIE_SIZES) + len(MARK_SIZES) + 2), str(44 * die._TILES)]


# ------------------------------------------------------------------ fill_region's rules

# Calls on a Bitmap(10, 4, 4) (2 bits a value) and a Bitmap(3, 2, 3) (2 bits: 0..3 fit,
# though only 3 values were asked for), in order, and what the firmware does with each.
RULES = """
import displayio, bitmaptools
a = displayio.Bitmap(10, 4, 4)
b = displayio.Bitmap(3, 2, 3)
CALLS = [
    (a, 0, 0, 10, 4, 3), (a, 2, 1, 5, 3, 1), (a, 3, 0, 3, 4, 2), (a, 0, 2, 10, 2, 2),
    (a, 7, 0, None, None, 2), (a, True, 3, 2, 4, False),
    (a, 0, 0, 11, 4, 1), (a, -1, 0, 5, 4, 1), (a, 5, 0, 4, 4, 1), (a, 0, 5, 4, 4, 1),
    (a, 0, 2, 4, 1, 1), (a, 0, -1, 4, 1, 1), (a, 0, 0, 4, 4, 4), (a, 0, 0, 4, 4, -1),
    (a, -1, 0, 4, 4, 9), (a, 0, 9, 11, 4, 1), (a, 1.0, 0, 4, 4, 1), (a, 0, 0, 4, 4, 1.0),
    (a, 0, 0, 2 ** 31, 4, 1), ("a bitmap", 0, 0, 1, 1, 0),
    (b, 0, 0, 3, 2, 3), (b, 1, 1, 2, 2, 0), (b, 0, 0, 3, 2, 4),
]
for c in CALLS:
    try:
        bitmaptools.fill_region(*c)
        print("ok")
    except Exception as e:
        print(type(e).__name__ + ": " + str(e))
for bm in (a, b):
    d = getattr(bm, "data", None)  # the browser's
    if d is None:
        d = getattr(bm, "_data", None)  # the bare interpreter's
    print("pixels", "-" if d is None else " ".join(str(v) for v in d))
"""
FIRMWARE = [
    "ok", "ok", "ok", "ok", "ok", "ok",
    "ValueError: x2 must be 0-10", "ValueError: x1 must be 0-10", "ValueError: x2 must be 5-10",
    "ValueError: y1 must be 0-4", "ValueError: y2 must be 2-4", "ValueError: y1 must be 0-4",
    "ValueError: out of range of target", "ValueError: out of range of target",
    "ValueError: out of range of target", "ValueError: x2 must be 0-10",
    "TypeError: x1 must be of type int, not float", "TypeError: can't convert float to int",
    "OverflowError: overflow converting long int to machine word",
    "TypeError: dest_bitmap must be of type Bitmap, not str",
    "ok", "ok", "ValueError: out of range of target",
]


def _pixels_after_the_calls():
    # what the calls that pass leave: a's and b's pixels, row by row
    a = Grid(10, 4)
    b = Grid(3, 2)
    for bm, x1, y1, x2, y2, v in ((a, 0, 0, 10, 4, 3), (a, 2, 1, 5, 3, 1), (a, 7, 0, 10, 4, 2), (a, 1, 3, 2, 4, 0),
                                  (b, 0, 0, 3, 2, 3), (b, 1, 1, 2, 2, 0)):
        for y in range(y1, y2):
            for x in range(x1, x2):
                bm[x, y] = v
    return ["pixels " + " ".join(str(p) for p in g.px) for g in (a, b)]


def _check(out, pixels=True):
    lines = out.split("\n")[:-1]
    assert lines[:len(FIRMWARE)] == FIRMWARE
    assert lines[len(FIRMWARE):] == (_pixels_after_the_calls() if pixels else ["pixels -", "pixels -"])


def test_the_bare_interpreter_s_fill_region_keeps_the_firmware_s_rules():
    r = subprocess.run([sys.executable, "-S", "-c", "import sys\nsys.path[:] = %r\n" % fakes.bare_path() + RULES],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    _check(r.stdout)


def test_the_vm_s_fill_region_keeps_the_firmware_s_rules():
    compat.require_vm()
    r = compat.run_vm(RULES)
    assert r.returncode == 0, r.stderr
    _check(r.stdout, pixels=False)  # the memory benchmark's bitmaps keep no pixels


def test_the_browser_s_fill_region_keeps_the_firmware_s_rules(tmp_path):
    # the page's displayio (web/displayio.py) under the VM, with the same bitmaptools
    # the page ships (tools/web.py); a tree mounted after the fakes' wins (its bitmaps
    # keep their pixels: the VM's fake would print none)
    compat.require_vm()
    for name in ("displayio.py", "web_mem.py"):
        shutil.copy(os.path.join(ROOT, "web", name), tmp_path / name)
    r = compat.run_vm(RULES, extra_trees=[("/lib", tmp_path)])
    assert r.returncode == 0, r.stderr
    _check(r.stdout)
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import web
    finally:
        sys.path.remove(os.path.join(ROOT, "tools"))
    with open(os.path.join(ROOT, "tools", "pico_fakes", "bitmaptools.py"), encoding="utf-8") as f:
        assert web.python_files()["/lib/bitmaptools.py"] == f.read()
