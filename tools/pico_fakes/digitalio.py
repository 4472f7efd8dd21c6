"""Fake of CircuitPython's ``digitalio`` for the memory benchmark (VM only): a
DigitalInOut keeps its C object's size (``_cost.DIGITALINOUT``; as a Python
object it cannot be that small, see ``_cost.OVER``). An output drives its pin on
the fake wiring (``_wire``): the backlight GP22 reaches GP9 through the jumper."""

import time

import _wire
from _cost import DIGITALINOUT, slots


def _setter(i, conv=None):
    def put(self, v):
        self._c[i] = v if conv is None else conv(v)

    return put


class Direction:
    INPUT = "INPUT"
    OUTPUT = "OUTPUT"


class Pull:
    UP = "UP"
    DOWN = "DOWN"


class DriveMode:
    PUSH_PULL = "PUSH_PULL"
    OPEN_DRAIN = "OPEN_DRAIN"


class DigitalInOut:
    # _c = [pin, direction, value, pull]
    def __init__(self, pin):
        c = slots("DigitalInOut", DIGITALINOUT, 4)
        c[0] = pin
        c[1] = Direction.INPUT
        c[2] = True
        self._c = c

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self._c[1] = Direction.OUTPUT
        self._set(value)

    def _set(self, v):
        c = self._c
        c[2] = bool(v)
        if c[1] == Direction.OUTPUT and c[0] is not None and hasattr(c[0], "number"):
            _wire.output(c[0].number, c[2], time.NOW[0])

    def switch_to_input(self, pull=None):
        self._c[1] = Direction.INPUT
        self._c[3] = pull

    direction = property(lambda self: self._c[1], _setter(1, None))
    value = property(lambda self: self._c[2], _set)
    pull = property(lambda self: self._c[3], _setter(3, None))
    drive_mode = DriveMode.PUSH_PULL

    def deinit(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()
