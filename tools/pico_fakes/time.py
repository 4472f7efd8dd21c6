"""The VM's own ``time`` plus CircuitPython's ``monotonic_ns``/``monotonic`` on a
virtual clock (``NOW[0]``, ns), which the memory benchmark advances (VM only)."""

import sys

_path = sys.path
sys.path = ()
try:
    from time import *  # noqa: F401,F403  (the built-in module)
finally:
    sys.path = _path
    del _path

NOW = [1000000000]


def monotonic_ns():
    return NOW[0]


def monotonic():
    return NOW[0] / 1e9
