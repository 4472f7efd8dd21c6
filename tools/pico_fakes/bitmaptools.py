"""Fake of CircuitPython's ``bitmaptools``: ``fill_region``, what the box uses.

One copy for every fake world that has no firmware: the MicroPython VM (the memory
benchmark and the compatibility checks mount this folder), the bare interpreter
(tests/fakes/display/bitmaptools.py runs this file) and the browser (tools/web.py
ships it beside web/displayio.py). Each world's ``displayio.Bitmap`` gives
``bits_per_value`` (as the firmware's) and ``_fill_region``, which writes the
rectangle once it is checked here: the VM's draws nothing (on the board
``fill_region`` allocates nothing), the others write their pixels.

The checks are the firmware's (``shared-bindings/bitmaptools/__init__.c``, the same
from CircuitPython 9.2 to 10.2.1), in its order: ``dest_bitmap`` a ``displayio.Bitmap``
itself (a subclass is refused), then ``value`` an int below ``1 << bits_per_value`` (a
negative one is out of range too: the C reads it unsigned), then ``x1`` in 0..width,
``x2`` in x1..width, ``y1`` in 0..height, ``y2`` in y1..height (``None`` for ``x2`` or
``y2``: the edge). Nothing is clipped: a corner off the bitmap raises ``ValueError``.
x2 and y2 are exclusive; x1 == x2 or y1 == y2 fills nothing.
"""

from displayio import Bitmap


def _int(v, wrong):
    # mp_obj_get_int_maybe: an int or a bool, within a machine word
    if type(v) is not int and type(v) is not bool:
        raise TypeError(wrong % type(v).__name__)
    if v < -0x80000000 or v > 0x7FFFFFFF:
        raise OverflowError("overflow converting long int to machine word")
    return int(v)


def _within(v, name, low, high):
    # bitmaptools_validate_coord_range: mp_arg_validate_int_range(type_int(v), low, high)
    v = _int(v, name + " must be of type int, not %s")
    if v < low or v > high:
        raise ValueError("%s must be %d-%d" % (name, low, high))
    return v


def fill_region(dest_bitmap, x1, y1, x2, y2, value):
    """Writes ``value`` into the pixels x1 <= x < x2, y1 <= y < y2 of ``dest_bitmap``."""
    if type(dest_bitmap) is not Bitmap:
        raise TypeError("dest_bitmap must be of type Bitmap, not %s" % type(dest_bitmap).__name__)
    value = _int(value, "can't convert %s to int")
    if value < 0 or value >= 1 << dest_bitmap.bits_per_value:
        raise ValueError("out of range of target")
    w = dest_bitmap.width
    h = dest_bitmap.height
    x1 = _within(x1, "x1", 0, w)
    x2 = w if x2 is None else _within(x2, "x2", x1, w)
    y1 = _within(y1, "y1", 0, h)
    y2 = h if y2 is None else _within(y2, "y2", y1, h)
    if x1 < x2 and y1 < y2:
        dest_bitmap._fill_region(x1, y1, x2, y2, value)
