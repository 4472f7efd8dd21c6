"""Fake of CircuitPython's ``tilepalettemapper`` for a bare interpreter (see README.md).

Keeps the firmware's rules (``shared-bindings/tilepalettemapper``): a mapping is a list,
its values inside the palette, its tile inside the one grid the mapper is bound to (by
that grid's constructor). Draws nothing, as the other fakes here."""

from displayio import Palette


class TilePaletteMapper(Palette):
    """Per-tile colour mappings over ``pixel_shader``."""

    def __init__(self, pixel_shader, input_color_count):
        super().__init__(input_color_count)
        self.pixel_shader = pixel_shader
        self._count = input_color_count
        self._size = None
        self._maps = {}

    def _bind(self, grid):
        if self._size is not None:
            raise RuntimeError("TilePaletteMapper may only be bound to a TileGrid once")
        self._size = (grid.width, grid.height)

    def __setitem__(self, index, value):
        if type(value) is not list or len(value) > self._count:
            raise ValueError("mapping_length must be 0-%d" % self._count)
        for v in value:
            if not 0 <= v < len(self.pixel_shader):
                raise ValueError("mapping_value must be 0-%d" % (len(self.pixel_shader) - 1))
        w, h = self._size
        x, y = index if type(index) is tuple else (index % w, index // w)
        if not (0 <= x < w and 0 <= y < h):
            raise IndexError("Tile index out of bounds")
        self._maps[y * w + x] = list(value)
