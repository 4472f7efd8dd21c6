"""Stand-in for CircuitPython's ``supervisor`` inside the MicroPython VM (tests only):
just ``ticks_ms()``, which ``adafruit_ticks`` looks for."""

import time


def ticks_ms():
    return time.ticks_ms() & 0x3FFFFFFF
