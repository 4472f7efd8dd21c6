"""Stand-in for CircuitPython's built-in ``bitmaptools``: the MicroPython VM's fake
(tools/pico_fakes/bitmaptools.py: the firmware's checks of ``fill_region``, one copy),
run from its file as ``adafruit_pixelbuf`` is; it writes through this folder's
``displayio.Bitmap``."""

import os

_src = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, os.pardir,
                    "tools", "pico_fakes", "bitmaptools.py")
with open(_src) as _f:
    exec(compile(_f.read(), os.path.normpath(_src), "exec"))
