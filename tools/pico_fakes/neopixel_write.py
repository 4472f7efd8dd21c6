"""Fake of CircuitPython's ``neopixel_write`` for the memory benchmark (VM only)."""


def neopixel_write(pin, buf):
    pass
