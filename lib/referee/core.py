"""The few helpers every module shares, each defined once.

``const`` (MicroPython's compile-time constant, a plain function on CPython),
``MS`` (nanoseconds in a millisecond: times are integer ns everywhere) and
``seat(p)``, the label a player reads for seat ``p`` ("P3"), and ``forget(name)``,
which drops a loaded module so the garbage collector can free its code.
"""

import sys

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


MS = const(1000000)


def seat(p):
    """The label a player reads for seat ``p`` ("P3")."""
    return "P" + str(p)


def forget(name):
    """Drop module ``name`` (e.g. "games.zilch"): from sys.modules and from its
    package's attributes, so nothing keeps its code alive. No error if not loaded."""
    if sys.modules.pop(name, None) is None:
        return
    pkg, _, leaf = name.rpartition(".")
    parent = sys.modules.get(pkg)
    if parent is not None and leaf in parent.__dict__:
        delattr(parent, leaf)
