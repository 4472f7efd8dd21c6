"""Fake of CircuitPython's ``vectorio`` for the memory benchmark (VM only): a
shape keeps what it keeps on a Pico (96 B, ``_cost.SHAPE``) and draws nothing."""

from _cost import SHAPE, slots


def _setter(i, conv=None):
    def put(self, v):
        self._c[i] = v if conv is None else conv(v)

    return put


def _prop(i):
    return property(lambda self: self._c[i], _setter(i))


class _Shape:
    # _c = [pixel_shader, x, y, color_index, hidden, size a, size b]
    def __init__(self, pixel_shader, x, y, color_index, a, b=None):
        c = slots("Shape", SHAPE, 7)
        c[0] = pixel_shader
        c[1] = x
        c[2] = y
        c[3] = color_index
        c[4] = False
        c[5] = a
        c[6] = b
        self._c = c

    pixel_shader = _prop(0)
    x = _prop(1)
    y = _prop(2)
    color_index = _prop(3)
    hidden = _prop(4)

    @property
    def location(self):
        return (self._c[1], self._c[2])

    @location.setter
    def location(self, xy):
        self._c[1], self._c[2] = xy


class Rectangle(_Shape):
    def __init__(self, *, pixel_shader, width, height, x=0, y=0, color_index=0):
        if width < 1 or height < 1:
            raise ValueError("width and height must be >= 1")
        super().__init__(pixel_shader, x, y, color_index, width, height)

    width = _prop(5)
    height = _prop(6)


class Circle(_Shape):
    def __init__(self, *, pixel_shader, radius, x=0, y=0, color_index=0):
        if radius < 1:
            raise ValueError("radius must be >= 1")
        super().__init__(pixel_shader, x, y, color_index, radius)

    radius = _prop(5)


class Polygon(_Shape):
    def __init__(self, *, pixel_shader, points, x=0, y=0, color_index=0):
        super().__init__(pixel_shader, x, y, color_index, list(points))

    points = property(lambda self: self._c[5], _setter(5, lambda v: list(v)))
