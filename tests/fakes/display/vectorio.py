"""Stand-in for CircuitPython's built-in ``vectorio`` shapes (keyword-only)."""

import displayio


class _Shape(displayio._Layer):
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
    def __init__(self, *, pixel_shader, width, height, x=0, y=0, color_index=0):
        if displayio._int("width", width) < 1 or displayio._int("height", height) < 1:
            raise ValueError("width and height must be >= 1")
        self._init_shape(pixel_shader, x, y, color_index)
        self.width = width
        self.height = height


class Circle(_Shape):
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
        self.points = list(points)
