"""The few helpers every module shares, each defined once.

``const`` (MicroPython's compile-time constant, a plain function on CPython),
``MS`` (nanoseconds in a millisecond: times are integer ns everywhere) and
``seat(p)``, the label a player reads for seat ``p`` ("P3"), ``Values`` (the settings as
the box keeps them), ``finish(steps)`` (a generator's value, every step at once: a bot's
search, a save) and ``forget(name)``, which drops a loaded module so the garbage
collector can free its code.
"""

import sys

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


MS = const(1000000)


def finish(steps):
    """The value a generator returns, all its steps run at once (a bot's search sliced
    for the loop, referee.turns; a save written a step a pass, referee.store)."""
    while True:
        try:
            next(steps)
        except StopIteration as e:
            return e.value


def seat(p):
    """The label a player reads for seat ``p`` ("P3")."""
    return "P" + str(p)


class Values:
    """Settings read and checked (``referee.settings.Settings`` reads them): ``get(name,
    default)``, ``[name]``, and ``messages`` for the notice. The box keeps one of these,
    not the reader, whose code and table stay on the flash once it has read them."""

    def __init__(self, values, messages):
        self.values = values
        self.messages = messages

    def __getitem__(self, name):
        return self.values[name]

    def get(self, name, default=None):
        """The value of setting ``name`` (e.g. "players"), else ``default``."""
        return self.values.get(name, default)


# What the box forgets, and when: the one table of it. The heap of a Pico holds the
# launcher's code or a game's, never both (docs/memory.md).
#   "match": a match starts: the launcher's code (its pages), the store's reading half (a match
#            only writes its saves), what the box keeps (read and written at the
#            launcher), the rules pages, the menus (a game that uses them loads them) and
#            an earlier match's pause menu
#   "said":  the settings notice has been read: its code is not needed again
#   "game":  a match ends: the framework modules only games use (with every games.*
#            module, which games.unload forgets)
FORGET = (
    ("match", ("referee.launcher", "referee.setup", "referee.store_read", "referee.keep", "referee.rules",
               "referee.menu", "referee.pause")),
    ("said", ("referee.notice",)),
    ("game", ("referee.session", "referee.selftest", "referee.game", "referee.turns", "referee.die", "referee.bands",
              "referee.bar", "referee.arbiter", "referee.race_text", "referee.marks",
              "referee.pause")),
)


def forget_for(moment):
    """Forget the modules ``FORGET`` names for ``moment`` ("match", "said", "game")."""
    for when, names in FORGET:
        if when == moment:
            for name in names:
                forget(name)


def forget(name):
    """Drop module ``name`` (e.g. "games.zilch"): from sys.modules and from its
    package's attributes, so nothing keeps its code alive. No error if not loaded."""
    if sys.modules.pop(name, None) is None:
        return
    pkg, _, leaf = name.rpartition(".")
    parent = sys.modules.get(pkg)
    if parent is not None and leaf in parent.__dict__:
        delattr(parent, leaf)
