"""The VM's own ``time`` plus CircuitPython's ``monotonic_ns``/``monotonic`` on a
virtual clock (``NOW[0]``, ns), which the memory benchmark advances (VM only).
Reading the clock lets the wiring (``_wire``) catch up to it: the capture's DMA and
the key scanner run in the background on the board, so whatever the box reads after
the clock is as the wires were by then."""

import sys

import _wire

_path = sys.path
sys.path = ()
try:
    from time import *  # noqa: F401,F403  (the built-in module)
finally:
    sys.path = _path
    del _path

NOW = [1000000000]


def monotonic_ns():
    _wire.advance(NOW[0])
    return NOW[0]


def monotonic():
    _wire.advance(NOW[0])
    return NOW[0] / 1e9
