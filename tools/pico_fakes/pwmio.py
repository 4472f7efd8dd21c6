"""Fake of CircuitPython's ``pwmio`` for the memory benchmark (VM only): PWMOut
keeps its C object's size (``_cost.PWMOUT``, an estimate)."""

from _cost import PWMOUT, slots


def _setter(i, conv=None):
    def put(self, v):
        self._c[i] = v if conv is None else conv(v)

    return put


class PWMOut:
    # _c = [duty_cycle, frequency]
    def __init__(self, pin, *, duty_cycle=0, frequency=500, variable_frequency=False):
        c = slots("PWMOut", PWMOUT, 2)
        c[0], c[1] = duty_cycle, frequency
        self._c = c

    duty_cycle = property(lambda self: self._c[0], _setter(0, None))
    frequency = property(lambda self: self._c[1], _setter(1, None))

    def deinit(self):
        pass
