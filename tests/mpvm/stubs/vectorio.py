"""Stand-in for CircuitPython's ``vectorio`` inside the MicroPython VM (tests only):
shapes keep their attributes and draw nothing."""

from displayio import _Layer


class _Shape(_Layer):
    def __init__(self, pixel_shader, x, y, color_index):
        super().__init__(x, y)
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
        super().__init__(pixel_shader, x, y, color_index)
        if width < 1 or height < 1:
            raise ValueError("width and height must be >= 1")
        self.width = width
        self.height = height


class Circle(_Shape):
    def __init__(self, *, pixel_shader, radius, x=0, y=0, color_index=0):
        super().__init__(pixel_shader, x, y, color_index)
        if radius < 1:
            raise ValueError("radius must be >= 1")
        self.radius = radius


class Polygon(_Shape):
    def __init__(self, *, pixel_shader, points, x=0, y=0, color_index=0):
        super().__init__(pixel_shader, x, y, color_index)
        self.points = list(points)
