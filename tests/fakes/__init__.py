"""Strict fakes of the CircuitPython machine modules, for running device code on a PC.

The modules in this folder are imported under their real names (``board``,
``digitalio``, ``rp2pio``, ``keypad``, ``microcontroller``, ``watchdog``,
``supervisor``, ``storage``, ``pwmio``, ``busio``, ``fourwire``,
``neopixel_write``, ``alarm``) by putting this folder first on ``sys.path``. They share one
``fakeworld.World``: a virtual clock, pin ownership and pin levels. Signatures
and refusals follow the CircuitPython 9/10 bindings (positional vs keyword-only
arguments, ranges, "GPn in use").

``display/`` holds stand-ins for the built-in display modules (``displayio``,
``terminalio``, ``vectorio``, ``fontio``, ``busdisplay``, ``micropython``,
``tilepalettemapper``, ``bitmaptools``) for a
bare interpreter with no site-packages; in-process tests use Blinka displayio.

``machine(**world_kwargs)`` is a context manager that installs the fakes (Blinka's
own ``board``/``digitalio``/... are taken out of ``sys.modules`` first), drops
the modules that bind machine modules at import (``neopixel``, ``adafruit_st7789``,
the project's packages) so they are imported afresh
against the fakes, and puts everything back afterwards.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DISPLAY = os.path.join(HERE, "display")

MACHINE = (
    "fakeworld",
    "board",
    "microcontroller",
    "digitalio",
    "rp2pio",
    "keypad",
    "storage",
    "supervisor",
    "pwmio",
    "busio",
    "fourwire",
    "neopixel_write",
    "watchdog",
    "alarm",
)
# Imported afresh inside the context (they bind machine modules when imported).
FRESH = (
    "neopixel",
    "adafruit_st7789",
    "adafruit_ili9341",
    "adafruit_pixelbuf",
    "referee",
    "games",
    "hardware",
    "boot",
    "safemode",
)


def _top(name):
    return name.split(".", 1)[0]


class machine:
    def __init__(self, **world_kwargs):
        self.world_kwargs = world_kwargs
        self.world = None

    def __enter__(self):
        self._modules = dict(sys.modules)
        self._path = list(sys.path)
        try:  # Blinka's display core first: the fake FourWire derives from its FourWire
            import busdisplay  # noqa: F401
            import displayio._displaycore  # noqa: F401
        except ImportError:
            pass
        for name in list(sys.modules):
            if _top(name) in MACHINE or _top(name) in FRESH:
                del sys.modules[name]
        sys.path.insert(0, HERE)
        import fakeworld

        self.world = fakeworld.reset(**self.world_kwargs)
        return self.world

    def __exit__(self, *exc):
        for name in list(sys.modules):
            if name not in self._modules:
                del sys.modules[name]
        sys.modules.update(self._modules)
        sys.path[:] = self._path
        return False


def restart(w):
    """What a reset (the watchdog's) or a soft reload (``supervisor.reload()``) does
    to the fakes: the pins are free and the displays released (the firmware's
    ``reset_port``), the watchdog off, the clock goes on, the jumpers stay; the NVM
    keeps its bytes (``microcontroller.nvm`` is the module's). Returns the new world;
    code.py then runs again (build a new Device on it)."""
    import displayio
    import fakeworld
    import microcontroller

    microcontroller.watchdog.deinit()
    displayio.release_displays()
    now = w.now_ns
    jumpers = dict(w.jumpers)
    w2 = fakeworld.reset()
    w2.now_ns = now
    w2.jumpers.update(jumpers)
    return w2


def bare_path(*folders):
    """``sys.path`` for a bare interpreter: ``folders``, the fakes, the display
    stand-ins and the standard library only (no site-packages)."""
    import sysconfig

    std = sysconfig.get_paths()["stdlib"]
    dyn = os.path.join(std, "lib-dynload")
    return list(folders) + [HERE, DISPLAY, std, dyn]
