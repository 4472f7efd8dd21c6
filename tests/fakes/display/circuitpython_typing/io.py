"""Type-hint names (see the package docstring)."""


def __getattr__(name):
    return object
