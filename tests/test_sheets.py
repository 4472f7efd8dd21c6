"""``bitmaptools.fill_region`` in every world that runs the box's code without the
firmware keeps the firmware's rules, and writes the pixels it is asked to: the bare
interpreter's fakes (tests/fakes/display), the MicroPython VM's (tools/pico_fakes:
they keep no pixels, so there only the checks) and the browser's ``displayio`` (web/)
in that VM, all three through one fake (tools/pico_fakes/bitmaptools.py).

The firmware's rules (CircuitPython 10.2.1, ``shared-bindings/bitmaptools/__init__.c``):
no clipping (a corner off the bitmap is a ``ValueError`` naming it), x2 and y2 exclusive,
``None`` for x2/y2 the edge, a value below ``1 << bits_per_value``.
"""

import os
import shutil
import subprocess
import sys

import compat
import fakes

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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
