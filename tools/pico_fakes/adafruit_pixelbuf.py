"""Fake of CircuitPython's built-in ``adafruit_pixelbuf`` (C on the RP2040, so the
deployed lib/adafruit_pixelbuf is never imported there) for the memory benchmark:
a PixelBuf keeps what it keeps on the board (``_cost.pixelbuf_bytes``)."""

from _cost import array_bytes, pixelbuf_bytes, slots


def _setter(i, conv=None):
    def put(self, v):
        self._c[i] = v if conv is None else conv(v)

    return put


class PixelBuf:
    # _c = [pixel bytes, n, bpp, brightness, auto_write, byteorder]
    def __init__(self, size, *, byteorder="BGR", brightness=1.0, auto_write=False, header=None, trailer=None):
        bpp = len(byteorder)
        c = slots("PixelBuf", pixelbuf_bytes(size, bpp, brightness), 6, array_bytes(size * bpp))
        c[0], c[1], c[2], c[3], c[4], c[5] = bytearray(size * bpp), size, bpp, brightness, auto_write, byteorder
        self._c = c

    n = property(lambda self: self._c[1])
    bpp = property(lambda self: self._c[2])
    auto_write = property(lambda self: self._c[4], _setter(4, None))
    byteorder = property(lambda self: self._c[5])

    @property
    def brightness(self):
        return self._c[3]

    @brightness.setter
    def brightness(self, value):
        self._c[3] = min(1.0, max(0.0, value))

    def __len__(self):
        return self._c[1]

    def _put(self, i, color):
        c = self._c
        if i < 0:
            i += c[1]
        if isinstance(color, int):
            color = ((color >> 16) & 255, (color >> 8) & 255, color & 255)
        b = c[0]
        k = i * c[2]
        for j in range(min(3, c[2])):
            b[k + j] = color[j]

    def __setitem__(self, index, color):
        if isinstance(index, slice):
            n = self._c[1]
            start = 0 if index.start is None else index.start % n
            step = index.step or 1
            for k, col in enumerate(color):
                self._put(start + k * step, col)
        else:
            self._put(index, color)
        if self._c[4]:
            self.show()

    def __getitem__(self, index):
        c = self._c
        if index < 0:
            index += c[1]
        k = index * c[2]
        return tuple(c[0][k:k + 3])

    def fill(self, color):
        for i in range(self._c[1]):
            self._put(i, color)
        if self._c[4]:
            self.show()

    def show(self):
        self._transmit(self._c[0])

    def _transmit(self, buffer):
        pass
