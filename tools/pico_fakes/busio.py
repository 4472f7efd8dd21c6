"""Fake of CircuitPython's ``busio`` for the memory benchmark (VM only): SPI keeps
its C object's size (``_cost.SPI``, an estimate)."""

from _cost import SPI as _SPI_BYTES
from _cost import slots


class SPI:
    def __init__(self, clock, MOSI=None, MISO=None, half_duplex=False):
        c = slots("SPI", _SPI_BYTES, 3)
        c[0], c[1], c[2] = clock, MOSI, MISO
        self._c = c

    def try_lock(self):
        return True

    def unlock(self):
        pass

    def configure(self, *, baudrate=100000, polarity=0, phase=0, bits=8):
        pass

    def write(self, buffer, *, start=0, end=None):
        pass

    def deinit(self):
        pass

    frequency = 24000000
