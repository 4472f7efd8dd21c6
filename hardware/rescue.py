"""When code.py cannot import the box: a library missing from CIRCUITPY.

There may be no screen to say it on (the display library may be the one missing),
so this says it on serial and blinks every ring red, for ever, using only modules
built into the firmware (``board``, ``digitalio``, ``neopixel_write``, ``time``).
The message names the missing module and how to put it back.
"""

import time

import board
import digitalio
import neopixel_write

from hardware import pins

RED = b"\x00\x28\x00"  # GRB, dim: the rings' power budget


def missing(e):
    """The module an ImportError names ("no module named 'x'" -> "x")."""
    name = getattr(e, "name", None)  # CPython's; CircuitPython's only says it in the message
    if name:
        return name
    msg = str(e)
    q = msg.find("'")
    if q >= 0 and msg.find("'", q + 1) > q:
        return msg[q + 1:msg.find("'", q + 1)]
    return msg


def run(e, blinks=None, sleep=time.sleep):
    """Say what is missing and blink; ``blinks``: stop after that many (None: for ever)."""
    text = ("Referee Box cannot start: missing library: " + missing(e)
            + " (copy it to CIRCUITPY/lib: python tools/deploy.py)")
    pin = digitalio.DigitalInOut(pins.pin(board, "NEOPIXEL"))
    pin.direction = digitalio.Direction.OUTPUT
    on = RED * (7 * 12)
    off = bytes(len(on))
    n = 0
    while blinks is None or n < blinks:
        if n % 10 == 0:
            print(text)
        neopixel_write.neopixel_write(pin, on)
        sleep(0.5)
        neopixel_write.neopixel_write(pin, off)
        sleep(0.5)
        n += 1
    print("blinked", n)
