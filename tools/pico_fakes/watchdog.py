"""Fake of CircuitPython's ``watchdog`` for the memory benchmark (VM only)."""


class WatchDogMode:
    RAISE = "RAISE"
    RESET = "RESET"


class WatchDogTimeout(Exception):
    pass
