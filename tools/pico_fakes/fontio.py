"""Fake of CircuitPython's ``fontio`` for the memory benchmark (VM only).

``BuiltinFont``: the 6x12 terminal font; its bitmap is in flash on the board
(nothing in the heap). ``get_glyph`` makes a new Glyph each call, as the C
module does (garbage, collected)."""

from displayio import Bitmap

# The glyphs of the built-in font, in tile order (ASCII; the board's build adds
# a few more for its translation, which the project's screens do not use).
_CHARS = "".join(chr(c) for c in range(0x20, 0x7F))


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
        self.bitmap = Bitmap(6 * len(_CHARS), 12, 2, _in_flash=True)  # in flash: 0 B

    def get_bounding_box(self):
        return (6, 12)

    def get_glyph(self, codepoint):
        i = _CHARS.find(chr(codepoint))
        if i < 0:
            return None
        return Glyph(self.bitmap, i, 6, 12, 0, -2, 6, 0)
