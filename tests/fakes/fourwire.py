"""Strict fake of CircuitPython's ``fourwire.FourWire`` (displayio's SPI bus).

``FourWire(spi_bus, *, command, chip_select, reset=None, baudrate=24000000,
polarity=0, phase=0)``: ``spi_bus`` must be a ``busio.SPI``; the D/C, CS and
RST pins are claimed. It records what the display driver sends (commands and
byte counts) instead of toggling pins.

On a PC with Blinka displayio loaded, the class derives from Blinka's
``FourWire`` so Blinka's real ``BusDisplay`` (which ``adafruit_st7789`` builds
on) accepts it and renders through it; without Blinka (the deploy test's bare
interpreter) it stands alone.
"""

import sys

import busio
import fakeworld
from digitalio import check_pin

_core = sys.modules.get("displayio._displaycore")
_Base = getattr(_core, "FourWire", object) if _core is not None else object

DISPLAY_COMMAND = 0
DISPLAY_DATA = 1


class FourWire(_Base):
    def __init__(self, spi_bus, *, command, chip_select, reset=None, baudrate=24000000, polarity=0, phase=0):
        if not isinstance(spi_bus, busio.SPI):
            raise TypeError("spi_bus must be of type SPI, not " + type(spi_bus).__name__)
        pins = []
        for name, p in (("command", command), ("chip_select", chip_select), ("reset", reset)):
            if p is not None:
                pins.append(check_pin(p, name))
        if command is None:
            raise AssertionError("fake: a FourWire without D/C is not what this box uses")
        if isinstance(baudrate, bool) or not isinstance(baudrate, int) or baudrate <= 0:
            raise ValueError("baudrate must be > 0")
        if polarity not in (0, 1) or phase not in (0, 1):
            raise ValueError("polarity and phase must be 0 or 1")
        w = fakeworld.world()
        for p in pins:
            if p.number in w.claimed:
                raise ValueError(p.name + " in use")
        for p in pins:
            w.claim(p, "fourwire")
        self._fake_pins = pins
        self._spi = spi_bus
        self._frequency = baudrate
        self._polarity = polarity
        self._phase = phase
        self._in_transaction = False
        self._deinited = False
        self.commands = []  # command bytes in order
        self.data_bytes = 0
        self.pixel_bytes = 0
        self._last_command = None
        w.display_buses.append(self)

    # --- what displayio calls ---------------------------------------------------
    def reset(self):
        if self._deinited:
            raise ValueError("Object has been deinitialized.")

    def send(self, command, data, *, toggle_every_byte=False):
        if not 0 <= command <= 255:
            raise ValueError("Command must be an int between 0 and 255")
        self._begin_transaction()
        self._send(DISPLAY_COMMAND, 0, bytes([command]))
        self._send(DISPLAY_DATA, 0, data)
        self._end_transaction()

    def _free(self):
        return not self._in_transaction

    def _begin_transaction(self):
        if self._in_transaction:
            return False
        if not self._spi.try_lock():
            return False
        self._spi.configure(baudrate=self._frequency, polarity=self._polarity, phase=self._phase)
        self._in_transaction = True
        return True

    def _send(self, data_type, chip_select, data):
        if not self._in_transaction:
            raise AssertionError("fake: FourWire send outside a transaction")
        data = bytes(data) if not isinstance(data, int) else bytes([data])
        self._spi.write(data)
        if data_type == DISPLAY_COMMAND:
            for b in data:
                self.commands.append(b)
                self._last_command = b
        else:
            self.data_bytes += len(data)
            if self._last_command == 0x2C:
                self.pixel_bytes += len(data)

    def _end_transaction(self):
        self._in_transaction = False
        self._spi.unlock()

    def _release(self):
        self.deinit()

    def deinit(self):
        if not self._deinited:
            w = fakeworld.world()
            for p in self._fake_pins:
                w.release(p)
            self._spi.deinit()
        self._deinited = True
