"""Stand-in for CircuitPython's built-in ``fontio``: a fixed 6x12 cell font."""

import displayio


class Glyph:
    def __init__(self, bitmap, tile_index, width, height, dx, dy, shift_x, shift_y):
        self.bitmap = bitmap
        self.tile_index = tile_index
        self.width = width
        self.height = height
        self.dx = dx
        self.dy = dy
        self.shift_x = shift_x
        self.shift_y = shift_y


class BuiltinFont:
    def __init__(self):
        self.bitmap = displayio.Bitmap(6 * 95, 12, 2)
        self._glyphs = {}

    def get_bounding_box(self):
        return (6, 12)

    def get_glyph(self, codepoint):
        if not isinstance(codepoint, int):
            raise TypeError("codepoint must be an int")
        index = codepoint - 32 if 32 <= codepoint < 127 else 0
        g = self._glyphs.get(index)
        if g is None:
            g = Glyph(self.bitmap, index, 6, 12, 0, 0, 6, 0)
            self._glyphs[index] = g
        return g


class FontProtocol:
    """Type-hint name only (libraries import it inside try/except ImportError;
    CPython evaluates their annotations, CircuitPython does not)."""
