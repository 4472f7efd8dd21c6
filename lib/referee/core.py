"""The few helpers every module shares, each defined once.

``const`` (MicroPython's compile-time constant, a plain function on CPython),
``MS`` (nanoseconds in a millisecond: times are integer ns everywhere) and
``seat(p)``, the label a player reads for seat ``p`` ("P3").
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


MS = const(1000000)


def seat(p):
    return "P" + str(p)
