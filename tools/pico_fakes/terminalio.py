"""Fake of CircuitPython's ``terminalio`` for the memory benchmark (VM only):
``FONT`` is the built-in 6x12 font (``fontio.BuiltinFont``, bitmap in flash)."""

from fontio import BuiltinFont

FONT = BuiltinFont()


class Terminal:
    def __init__(self, *args, **kwargs):
        pass
