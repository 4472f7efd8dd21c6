"""Stand-in for CircuitPython's built-in ``micropython`` (const and decorators)."""


def const(x):
    return x


def native(f):
    return f


def viper(f):
    return f
