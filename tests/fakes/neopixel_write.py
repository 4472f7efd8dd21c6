"""Strict fake of CircuitPython's ``neopixel_write``: checks the pin is a
``DigitalInOut`` set to output, records every frame in the fake world."""

import digitalio
import fakeworld


def neopixel_write(digitalinout, buf):
    if not isinstance(digitalinout, digitalio.DigitalInOut):
        raise TypeError("digitalinout must be of type DigitalInOut")
    if digitalinout.deinited():
        raise ValueError("Object has been deinitialized.")
    if digitalinout.direction is not digitalio.Direction.OUTPUT:
        raise AssertionError("fake: neopixel_write on a pin that is not an output")
    data = bytes(memoryview(buf))
    w = fakeworld.world()
    w.neopixel_frames.append((w.now_ns, digitalinout._pin.number, data))
