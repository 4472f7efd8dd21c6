"""PC only: Blinka's ``terminalio.FONT`` with the sprite sheet CircuitPython's has.

On the device the built-in font is one bitmap in flash, every glyph a 6x12 tile
of it, and ``FONT.get_glyph(cp).tile_index`` names the tile; ``referee.screen``
draws text as a ``TileGrid`` over that sheet. Blinka's font keeps one bitmap per
glyph instead (its ``bitmap`` is not a sheet), so ``install()`` swaps in a font
that copies the same glyphs (printable ASCII, the set the box draws) into one
sheet, tile i = code point 32 + i, as the firmware's font orders them.
"""

import displayio
import terminalio

FIRST = 32
LAST = 126
W = 6
H = 12


class _Glyph:
    def __init__(self, g, tile_index):
        self.bitmap = g.bitmap
        self.tile_index = tile_index
        self.width = g.width
        self.height = g.height
        self.dx = g.dx
        self.dy = g.dy
        self.shift_x = g.shift_x
        self.shift_y = g.shift_y


class SheetFont:
    def __init__(self, font):
        self._font = font
        n = LAST - FIRST + 1
        self.bitmap = displayio.Bitmap(W * n, H, 2)
        self._glyphs = {}
        for cp in range(FIRST, LAST + 1):
            g = font.get_glyph(cp)
            if g is None:
                continue
            i = cp - FIRST
            top = H - 2 - g.height - g.dy  # the baseline 2 px above the cell's bottom
            for y in range(g.height):
                for x in range(g.width):
                    if g.bitmap[x, y] and 0 <= x + g.dx < W and 0 <= top + y < H:
                        self.bitmap[i * W + x + g.dx, top + y] = 1
            self._glyphs[cp] = _Glyph(g, i)
        # get_glyph(codepoint): the glyph, None if the font has none; the dict's own
        # lookup, no Python frame per character drawn (a C call on the device too)
        self.get_glyph = self._glyphs.get

    def get_bounding_box(self):
        return (W, H)


def install():
    """Idempotent: terminalio.FONT becomes a ``SheetFont`` over Blinka's font."""
    if not isinstance(terminalio.FONT, SheetFont):
        terminalio.FONT = SheetFont(terminalio.FONT)
