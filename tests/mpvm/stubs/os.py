"""The VM's own ``os`` plus what CircuitPython's ``os`` adds (tests only):
``getenv`` (no settings.toml here: always the default) and ``urandom``.
This is MicroPython's documented way to extend a built-in module."""

import sys

_path = sys.path
sys.path = ()
try:
    from os import *  # noqa: F401,F403  (the built-in module)
finally:
    sys.path = _path
    del _path


def getenv(key, default=None):
    return default


_state = [0]


def urandom(n):
    """Not random enough for keys; enough for a seed in a test. (Not the VM's
    ``random``: importing it here would sneak it past the --absent shadow.)"""
    import time

    if not _state[0]:
        _state[0] = (time.time_ns() ^ 0x9E3779B9) & 0xFFFFFFFF or 1
    out = bytearray(n)
    x = _state[0]
    for i in range(n):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        out[i] = x & 0xFF
    _state[0] = x
    return bytes(out)
