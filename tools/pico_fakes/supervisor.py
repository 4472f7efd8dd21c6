"""Fake of CircuitPython's ``supervisor`` for the memory benchmark (VM only):
``ticks_ms`` on the virtual clock of the fake ``time``; ``runtime`` is static."""

import time


def ticks_ms():
    return (time.monotonic_ns() // 1000000) & 0x3FFFFFFF


class _Runtime:
    autoreload = True
    serial_connected = False
    serial_bytes_available = 0


runtime = _Runtime()


def reload():
    pass
