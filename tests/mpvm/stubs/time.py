"""The VM's own ``time`` plus CircuitPython's ``monotonic``/``monotonic_ns`` (tests only)."""

import sys

_path = sys.path
sys.path = ()
try:
    from time import *  # noqa: F401,F403  (the built-in module)
finally:
    sys.path = _path
    del _path


def monotonic_ns():
    return time_ns()  # noqa: F405


def monotonic():
    return time_ns() / 1e9  # noqa: F405
