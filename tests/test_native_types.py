"""The fakes give native types CircuitPython's rules (tests/fakes/native_types.py): the line
that stopped the box at boot (``displayio.Group.__init__(self, scale=scale)``) fails here
as it does on the firmware, in-process (Blinka's classes, sealed by conftest) and in a
bare interpreter (tests/fakes/display)."""

import subprocess
import sys

import displayio
import fakes
import pytest
import vectorio

FIRMWARE_MESSAGE = "type object 'Group' has no attribute '__init__'"

PROBE = r"""
import displayio, vectorio

class Old(displayio.Group):          # lib/referee/screen.py before the boot fix
    def __init__(self, scale=2):
        displayio.Group.__init__(self, scale=scale)

class New(displayio.Group):
    def __init__(self, scale=2):
        super().__init__(scale=scale)
        self.note = "a subclass takes new attributes"

class Lazy(displayio.Group):          # never calls super().__init__
    def __init__(self, scale=3):
        self.before = 1

out = []
try:
    Old()
    out.append("old: built")
except AttributeError as e:
    out.append("old: " + str(e))
n = New()
out.append("new: scale %d, %s" % (n.scale, n.note))
lazy = Lazy(scale=4)  # the native part is made afterwards, from the constructor's arguments
out.append("lazy: scale %d, before %d" % (lazy.scale, lazy.before))
try:
    Lazy(4)           # ... which the native type may refuse (Group's are keyword-only)
    out.append("lazy positional: built")
except TypeError:
    out.append("lazy positional: refused")
g = displayio.Group()
try:
    g.label = "x"
    out.append("sealed: no")
except AttributeError as e:
    out.append("sealed: " + str(e))
p = displayio.Palette(2)
r = vectorio.Rectangle(pixel_shader=p, width=4, height=5)
r.width = 9
out.append("rect width %d" % r.width)
try:
    vectorio.Rectangle.__init__(r, pixel_shader=p, width=1, height=1)
    out.append("rect init: reachable")
except AttributeError as e:
    out.append("rect init: " + str(e))
print("\n".join(out))
"""

EXPECTED = [
    "old: " + FIRMWARE_MESSAGE,
    "new: scale 2, a subclass takes new attributes",
    "lazy: scale 4, before 1",
    "lazy positional: refused",
    "sealed: 'Group' object has no attribute 'label'",
    "rect width 9",
    "rect init: type object 'Rectangle' has no attribute '__init__'",
]


def test_in_process_blinka_classes_follow_the_firmware():
    assert isinstance(displayio.Group, fakes.native_types.NativeType)
    assert isinstance(vectorio.Rectangle, fakes.native_types.NativeType)
    ns = {}
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(PROBE, "probe", "exec"), ns)
    assert buf.getvalue().split("\n")[:-1] == EXPECTED


def test_bare_fakes_follow_the_firmware():
    r = subprocess.run([sys.executable, "-S", "-c",
                        "import sys\nsys.path[:] = %r\n" % fakes.bare_path() + PROBE],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:-1] == EXPECTED


def test_the_old_text_class_fails_as_the_box_did():
    """referee.screen.Text as it was at 45d71c8: the fake refuses it with the firmware's words."""
    class Text(displayio.Group):
        def __init__(self, scale=2):
            displayio.Group.__init__(self, scale=scale)

    with pytest.raises(AttributeError, match=FIRMWARE_MESSAGE):
        Text()
    from referee import screen

    assert screen.Text("ok", 0, 0).scale == 2  # today's Text: super().__init__
