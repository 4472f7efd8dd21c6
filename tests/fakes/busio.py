"""Strict fake of CircuitPython's ``busio.SPI`` on the RP2040/RP2350 pin map.

``SPI(clock, MOSI=None, MISO=None, half_duplex=False)``: the pins must belong
to one hardware SPI (SPI0: SCK GP2/6/18/22, TX GP3/7/19, RX GP0/4/16/20;
SPI1: SCK GP10/14/26, TX GP11/15/27, RX GP8/12/28), and are claimed.
``write``/``configure`` need the lock, as on the device.
"""

import fakeworld
from digitalio import check_pin

_SPI = (
    {"sck": (2, 6, 18, 22), "tx": (3, 7, 19), "rx": (0, 4, 16, 20)},
    {"sck": (10, 14, 26), "tx": (11, 15, 27), "rx": (8, 12, 28)},
)


class SPI:
    def __init__(self, clock, MOSI=None, MISO=None, half_duplex=False):
        check_pin(clock, "clock")
        for name, p in (("MOSI", MOSI), ("MISO", MISO)):
            if p is not None:
                check_pin(p, name)
        inst = None
        for i, spi in enumerate(_SPI):
            if clock.number in spi["sck"]:
                inst = i
        if inst is None or (MOSI is not None and MOSI.number not in _SPI[inst]["tx"]) or (
            MISO is not None and MISO.number not in _SPI[inst]["rx"]
        ):
            raise ValueError("Invalid pins")
        if half_duplex:
            raise NotImplementedError("Half duplex SPI is not implemented")
        w = fakeworld.world()
        pins = [p for p in (clock, MOSI, MISO) if p is not None]
        for p in pins:
            if p.number in w.claimed:
                raise ValueError(p.name + " in use")
        for p in pins:
            w.claim(p, "busio.SPI")
        self._pins = pins
        self._locked = False
        self._deinited = False
        self.baudrate = 250000
        self.written = 0  # bytes

    def _check(self):
        if self._deinited:
            raise ValueError("Object has been deinitialized.")

    def deinit(self):
        if not self._deinited:
            for p in self._pins:
                fakeworld.world().release(p)
        self._deinited = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    def try_lock(self):
        self._check()
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self):
        self._check()
        self._locked = False

    def configure(self, *, baudrate=100000, polarity=0, phase=0, bits=8):
        self._check()
        if not self._locked:
            raise RuntimeError("Function requires lock")
        if polarity not in (0, 1) or phase not in (0, 1) or bits not in (8, 16):
            raise ValueError("Invalid SPI configuration")
        self.baudrate = baudrate

    def write(self, buffer, *, start=0, end=None):
        self._check()
        if not self._locked:
            raise RuntimeError("Function requires lock")
        mv = memoryview(buffer)
        end = len(mv) if end is None else end
        self.written += max(0, end - start) * mv.itemsize

    @property
    def frequency(self):
        return self.baudrate
