"""The VM's own ``os`` plus CircuitPython's ``getenv`` and ``urandom``, for the
memory benchmark (VM only). ``getenv`` reads /settings.toml (the tree's, mounted
by the benchmark) as CircuitPython does; ``urandom`` is a fixed sequence, so a
match is the same every run."""

import sys

_path = sys.path
sys.path = ()
try:
    from os import *  # noqa: F401,F403  (the built-in module)
finally:
    sys.path = _path
    del _path


def getenv(key, default=None):
    try:
        f = open("/settings.toml")
    except OSError:
        return default
    with f:
        for line in f:
            line = line.strip()
            if not line.startswith(key):
                continue
            k, _, v = line.partition("=")
            if k.strip() != key:
                continue
            v = v.strip()
            if v.startswith('"'):
                return v[1:v.index('"', 1)]
            v = v.split("#")[0].strip()
            try:
                return int(v)
            except ValueError:
                return default
    return default


_state = [0x12345678]


def urandom(n):
    out = bytearray(n)
    x = _state[0]
    for i in range(n):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        out[i] = x & 0xFF
    _state[0] = x
    return bytes(out)
