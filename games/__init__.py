"""The game registry: name -> (title, module). Game names as in docs/design.md (*Pinned names*).

Listing the games imports none of them: a game module is loaded when it is
chosen and unloaded when its match ends, so only one game's code is in the
heap at a time (the device has little RAM).
"""

import sys

from referee.core import forget, forget_for

# (name, title, module) in launcher order.
REGISTRY = (
    ("reaction", "Reaction test", "games.reaction"),
    ("wurfelblitz", "Wurfelblitz", "games.wurfelblitz"),
    ("lightning_dice", "Lightning Dice", "games.lightning_dice"),
    ("zilch", "Zilch", "games.zilch"),
    ("zap_city", "ZAP City", "games.zap_city"),
    ("flyer", "Flyer (Essen 2006)", "games.flyer"),
    ("selftest", "Self test", "referee.selftest"),
)


def titles():
    """[(name, title)] in launcher order, without importing any game."""
    return [(name, title) for name, title, _ in REGISTRY]


def names():
    return [name for name, _, _ in REGISTRY]


def load(name):
    """The game module for ``name``. ValueError for an unknown name; ImportError
    if its files are missing (e.g. not deployed)."""
    for n, _title, module in REGISTRY:
        if n == name:
            mod = __import__(module)
            for part in module.split(".")[1:]:
                mod = getattr(mod, part)
            return mod
    raise ValueError("unknown game: " + str(name) + " (known: " + ", ".join(names()) + ")")


def unload():
    """Forget every loaded game module (and its rules modules) and the framework modules
    only games use (referee.core.FORGET, "game"), so the garbage collector can free their
    code and the launcher after a match has the heap it had at boot. Call with no game
    object left alive."""
    for key in list(sys.modules.keys()):
        if key.startswith("games."):
            forget(key)
    forget_for("game")
