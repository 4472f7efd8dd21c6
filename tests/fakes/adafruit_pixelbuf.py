"""Stand-in for CircuitPython's built-in ``adafruit_pixelbuf`` (a C module in the
firmware, never copied to CIRCUITPY): the pip package's pure-Python twin of it,
run from its file so a bare interpreter (``python -S``: no site-packages on the
path) can import neopixel."""

import os
import sys
import sysconfig

_sites = [sysconfig.get_paths()["purelib"]]
_venv = os.path.dirname(os.path.dirname(sys.executable))  # python -S leaves sys.prefix at the base
_sites.append(os.path.join(_venv, "lib", "python%d.%d" % sys.version_info[:2], "site-packages"))
for _site in _sites:
    _src = os.path.join(_site, "adafruit_pixelbuf.py")
    if os.path.exists(_src):
        with open(_src) as _f:
            exec(compile(_f.read(), _src, "exec"))
        break
else:
    raise ImportError("adafruit_pixelbuf: pip install -r requirements.txt")
