"""The game registry: name -> (title, module). Game names as in DESIGN.md §8."""

# (name, title, module) in launcher order. Only games that exist are listed.
REGISTRY = (
    ("reaction", "Reaction test", "games.reaction"),
    ("wurfelblitz", "Wurfelblitz", "games.wurfelblitz"),
    ("zilch", "Zilch", "games.zilch"),
    ("selftest", "Self test", "referee.selftest"),
)


def titles():
    """[(name, title)] of the games whose module can be imported here."""
    return [(name, title) for name, title, _ in REGISTRY if _available(name)]


def _available(name):
    try:
        load(name)
        return True
    except ImportError:
        return False


def names():
    return [name for name, _, _ in REGISTRY]


def load(name):
    """The game module for ``name``; ValueError for an unknown name."""
    for n, _title, module in REGISTRY:
        if n == name:
            mod = __import__(module)
            for part in module.split(".")[1:]:
                mod = getattr(mod, part)
            return mod
    raise ValueError("unknown game: " + str(name) + " (known: " + ", ".join(names()) + ")")
