"""Stand-in for CircuitPython's built-in ``terminalio``."""

import fontio

FONT = fontio.BuiltinFont()
