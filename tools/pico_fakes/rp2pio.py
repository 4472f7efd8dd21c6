"""Fake of CircuitPython's ``rp2pio`` for the memory benchmark (VM only): a
StateMachine keeps its C object's size (``_cost.STATEMACHINE``, an estimate)
and captures nothing (``background_read`` leaves the ring as it is)."""

from _cost import STATEMACHINE, slots


class StateMachine:
    # _c = [frequency, ring]
    def __init__(self, program, frequency, **kwargs):
        c = slots("StateMachine", STATEMACHINE, 2)
        c[0] = frequency or 125000000
        self._c = c

    frequency = property(lambda self: self._c[0])
    in_waiting = 0
    rxstall = False

    def background_read(self, once=None, *, loop=None, loop2=None, swap=False):
        self._c[1] = loop  # the C object holds the ring buffer

    def readinto(self, buffer, *, start=0, end=None, swap=False):
        pass

    def clear_rxfifo(self):
        pass

    def deinit(self):
        pass
