"""PC only: a stand-in ``supervisor`` module whose ``ticks_ms`` follows a clock we set.

``adafruit_ticks`` (and through it ``adafruit_debouncer``) reads
``supervisor.ticks_ms`` when it is imported. Installing this first makes the
gesture debouncers run on the simulated box's virtual time.
"""

import sys
import time
import types

_TICKS_MASK = (1 << 29) - 1
_clock = [None]


def ticks_ms():
    src = _clock[0]
    ns = src() if src is not None else time.monotonic_ns()
    return (ns // 1000000) & _TICKS_MASK


def use_clock(now_ns):
    """Make ``ticks_ms`` read ``now_ns()`` (None: the wall clock)."""
    _clock[0] = now_ns


def install():
    """Put the shim in ``sys.modules`` (idempotent) and rebind libraries already loaded."""
    mod = sys.modules.get("supervisor")
    if mod is None or getattr(mod, "ticks_ms", None) is not ticks_ms:
        mod = types.ModuleType("supervisor")
        mod.ticks_ms = ticks_ms
        mod.runtime = types.SimpleNamespace(autoreload=False, serial_connected=True)
        mod.__doc__ = "PC stand-in (hardware/pc_supervisor.py)"
        sys.modules["supervisor"] = mod
    for name in ("adafruit_ticks", "adafruit_debouncer"):
        lib = sys.modules.get(name)
        if lib is not None:
            lib.ticks_ms = ticks_ms
    return mod
