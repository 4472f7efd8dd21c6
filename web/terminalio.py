"""Browser only: ``terminalio.FONT`` for the page, the box's built-in font as one sprite sheet.

Tile i of ``FONT.bitmap`` is code point 32 + i, a 6x12 cell, as in CircuitPython's
font, which ``referee.screen`` draws text with. The glyphs come from ``web_font``,
written by ``python tools/web.py build`` from the font the window draws
(pc/font.py): packed 8 pixels a byte, a row of the sheet at a time.
"""

import web_font
from displayio import Bitmap


class Glyph:
    def __init__(self, bitmap, tile_index):
        self.bitmap = bitmap
        self.tile_index = tile_index
        self.width = web_font.W
        self.height = web_font.H
        self.dx = 0
        self.dy = -2
        self.shift_x = web_font.W
        self.shift_y = 0


class BuiltinFont:
    def __init__(self):
        w = web_font.W * web_font.COUNT
        bm = Bitmap(w, web_font.H, 2)
        data = bm.data
        bits = web_font.BITS
        row = (w + 7) // 8
        for y in range(web_font.H):
            for x in range(w):
                if bits[y * row + (x >> 3)] & (0x80 >> (x & 7)):
                    data[y * w + x] = 1
        self.bitmap = bm
        self._glyphs = [Glyph(bm, i) for i in range(web_font.COUNT)]

    def get_bounding_box(self):
        return (web_font.W, web_font.H)

    def get_glyph(self, codepoint):
        i = codepoint - web_font.FIRST
        if 0 <= i < web_font.COUNT:
            return self._glyphs[i]
        return None


FONT = BuiltinFont()
