"""The rings' NeoPixel strip: a write sends the strip only up to the last pixel that
changed (``upto``, which ``referee.rings`` sets before each ``show``).

A WS2812 keeps the first 24 bits it receives and passes the rest on down the chain;
after the pause that latches them, the pixels past the last bit sent keep their colour.
All 84 pixels take 2.5 ms to send at 800 kHz; seat 1's ring alone 0.36 ms, seat 7's
the whole strip. Its own module: ``hardware.bring_up``, which builds it, is forgotten
after the boot.
"""

import neopixel
from neopixel_write import neopixel_write


class Strip(neopixel.NeoPixel):
    """``neopixel.NeoPixel`` whose ``show`` sends its first ``upto`` pixels (0: all)."""

    upto = 0

    def _transmit(self, buffer):
        n = self.upto * self.bpp
        neopixel_write(self.pin, memoryview(buffer)[:n] if 0 < n < len(buffer) else buffer)
