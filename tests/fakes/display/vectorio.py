"""Stand-in for CircuitPython's built-in ``vectorio`` shapes (keyword-only)."""

import displayio


def _rw(name, positive=False):
    """A read-write property as the firmware's (``width``, ``radius``, ``color_index``,
    ...): stored under ``_name``; ``positive`` ones refuse values below 1."""
    key = "_" + name

    def put(self, v):
        if positive and displayio._int(name, v) < 1:
            raise ValueError(name + " must be >= 1")
        setattr(self, key, v)

    return property(lambda self: getattr(self, key), put)


class _Shape(displayio._Layer):
    pixel_shader = _rw("pixel_shader")
    color_index = _rw("color_index")

    def _init_shape(self, pixel_shader, x, y, color_index):
        if not isinstance(pixel_shader, (displayio.Palette, displayio.ColorConverter)):
            raise TypeError("pixel_shader must be a Palette or ColorConverter")
        self._init_layer(x, y)
        self.pixel_shader = pixel_shader
        self.color_index = color_index

    @property
    def location(self):
        return (self.x, self.y)

    @location.setter
    def location(self, xy):
        self.x, self.y = xy


class Rectangle(_Shape):
    width = _rw("width", positive=True)
    height = _rw("height", positive=True)

    def __init__(self, *, pixel_shader, width, height, x=0, y=0, color_index=0):
        if displayio._int("width", width) < 1 or displayio._int("height", height) < 1:
            raise ValueError("width and height must be >= 1")
        self._init_shape(pixel_shader, x, y, color_index)
        self.width = width
        self.height = height


class Circle(_Shape):
    radius = _rw("radius", positive=True)

    def __init__(self, *, pixel_shader, radius, x=0, y=0, color_index=0):
        if displayio._int("radius", radius) < 1:
            raise ValueError("radius must be >= 1")
        self._init_shape(pixel_shader, x, y, color_index)
        self.radius = radius


class Polygon(_Shape):
    def __init__(self, *, pixel_shader, points, x=0, y=0, color_index=0):
        if len(points) < 3:
            raise ValueError("a polygon needs 3 points")
        self._init_shape(pixel_shader, x, y, color_index)
        self._points = list(points)

    points = property(lambda self: list(self._points),
                      lambda self, v: setattr(self, "_points", list(v)))


# CircuitPython's rules for native types (no __init__ attribute, no new attributes)
import native_types  # noqa: E402

native_types.seal_module(__import__(__name__), native_types.NATIVE["vectorio"])
