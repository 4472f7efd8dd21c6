"""Fake of CircuitPython's ``tilepalettemapper`` for the memory benchmark (VM only).

A ``TilePaletteMapper`` keeps 32 bytes on a Pico; bound to a ``TileGrid`` (its
constructor), one pointer a tile and a block of ``input_color_count`` 32-bit indices a
tile (``TilePaletteMapper.c``): 1,040 bytes more for a grid of 52 tiles (measured on
CircuitPython 10.2.1). As the firmware: a mapping is a list (a tuple is refused), its
values within the palette, a tile inside the grid, the mapper bound to one grid.
"""

from _cost import MAPPER, ceil16, slots


class TilePaletteMapper:
    # _c = [pixel_shader, input colour count, tiles (bound: width | height << 12), mappings]
    def __init__(self, pixel_shader, input_color_count):
        c = slots("Mapper", MAPPER, 4)
        c[0] = pixel_shader
        c[1] = input_color_count
        c[2] = 0
        self._c = c

    def _bind(self, width, height):
        # a TileGrid made with it: the mappings (one block a tile and the pointers: a
        # bytearray as large keeps their bytes in the VM)
        if self._c[2]:
            raise RuntimeError("TilePaletteMapper may only be bound to a TileGrid once")
        n = width * height
        self._c[2] = width | height << 12
        self._c[3] = bytearray(ceil16(4 * n) + ceil16(4 * self._c[1]) * n - 16)

    pixel_shader = property(lambda self: self._c[0])
    width = property(lambda self: self._c[2] & 0xFFF)
    height = property(lambda self: self._c[2] >> 12)

    def __setitem__(self, index, value):
        w = self.width
        if type(index) is tuple:
            x, y = index
        else:
            x = index % w if w else 0
            y = index // w if w else 0
        if not (0 <= x < w and 0 <= y < self.height):
            raise IndexError("Tile index out of bounds")
        if type(value) is not list or len(value) > self._c[1]:
            raise ValueError("mapping_length must be 0-%d" % self._c[1])
        top = len(self._c[0]) - 1
        for v in value:
            if not 0 <= v <= top:
                raise ValueError("mapping_value must be 0-%d" % top)
