"""Browser only: ``vectorio`` for the page, drawn by web/box.js (see web/displayio.py).

A shape's pixels are those CircuitPython's vectorio fills: a rectangle x..x+w-1, a
circle every pixel within ``radius`` of its centre (dx*dx + dy*dy <= r*r), a polygon
its winding-number inside over the box of its points. A group's scale moves a
shape; its size is in screen pixels.
"""

from displayio import CIRCLE, CLEAR, POLYGON, RECT, Layer, _kept, changed


class _Shape(Layer):
    pixel_shader = _kept("pixel_shader")
    color_index = _kept("color_index")

    def __init__(self, pixel_shader, x, y, color_index):
        super().__init__(x, y)
        self._pixel_shader = pixel_shader
        self._color_index = color_index

    @property
    def location(self):
        return (self._x, self._y)

    @location.setter
    def location(self, xy):
        self._x, self._y = xy
        changed()

    def _color(self):
        pal = self._pixel_shader
        i = self._color_index
        return CLEAR if pal.is_transparent(i) else pal[i]


class Rectangle(_Shape):
    width = _kept("width")
    height = _kept("height")

    def __init__(self, *, pixel_shader, width, height, x=0, y=0, color_index=0):
        if width < 1 or height < 1:
            raise ValueError("width and height must be >= 1")
        super().__init__(pixel_shader, x, y, color_index)
        self._width = width
        self._height = height

    def command(self, x, y, scale, out):
        out += (RECT, x, y, self._width, self._height, self._color())


class Circle(_Shape):
    radius = _kept("radius")

    def __init__(self, *, pixel_shader, radius, x=0, y=0, color_index=0):
        if radius < 1:
            raise ValueError("radius must be >= 1")
        super().__init__(pixel_shader, x, y, color_index)
        self._radius = radius

    def command(self, x, y, scale, out):
        out += (CIRCLE, x, y, self._radius, self._color())


class Polygon(_Shape):
    points = _kept("points")

    def __init__(self, *, pixel_shader, points, x=0, y=0, color_index=0):
        if len(points) < 3:
            raise ValueError("Polygon needs at least 3 points")
        super().__init__(pixel_shader, x, y, color_index)
        self._points = list(points)

    def command(self, x, y, scale, out):
        out += (POLYGON, x, y, self._color(), len(self._points))
        for px, py in self._points:
            out += (px, py)
