"""Fake of CircuitPython's ``busdisplay`` for the memory benchmark (VM only): a
display keeps what ``adafruit_st7789.ST7789`` keeps on the board (``_cost.ST7789``)
and refreshes nothing."""

from _cost import ST7789, slots


def _setter(i, conv=None):
    def put(self, v):
        self._c[i] = v if conv is None else conv(v)

    return put


class BusDisplay:
    # _c = [bus, root_group, auto_refresh, brightness, width, height, rotation]
    def __init__(self, display_bus, init_sequence, *, width, height, rotation=0, auto_refresh=True,
                 brightness=1.0, **kwargs):
        c = slots("BusDisplay", ST7789, 7)
        c[0], c[1], c[2], c[3], c[4], c[5], c[6] = display_bus, None, auto_refresh, brightness, width, height, rotation
        self._c = c

    def _get(i):
        return property(lambda self: self._c[i], _setter(i))

    root_group = _get(1)
    auto_refresh = _get(2)
    brightness = _get(3)
    width = property(lambda self: self._c[4] if self._c[6] % 180 == 0 else self._c[5])
    height = property(lambda self: self._c[5] if self._c[6] % 180 == 0 else self._c[4])
    rotation = _get(6)
    del _get

    def refresh(self, *, target_frames_per_second=None, minimum_frames_per_second=0):
        return True
