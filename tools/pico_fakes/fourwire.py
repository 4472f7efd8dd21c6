"""Fake of CircuitPython's ``fourwire`` for the memory benchmark (VM only): the
bus lives in static storage on the board (0 B of heap)."""


class FourWire:
    def __init__(self, spi_bus, *, command, chip_select, reset=None, baudrate=24000000, polarity=0, phase=0):
        self._c = spi_bus  # the bus keeps the SPI object alive, as on the board

    def reset(self):
        pass

    def send(self, command, data, *, toggle_every_byte=False):
        pass

    def deinit(self):
        pass
