"""The letters dice carry for colour-blind players (REFEREE_COLOUR_CUES): a die
that can show a letter, and each dice colour's letter.

A screen imports it only when the cues are on, so a box without them never loads
it; ``games.unload`` forgets it with the game's modules.
"""

import bitmaptools
import displayio

from referee import die, palette, screen

# Each dice colour's letter: K for black (B is blue), as in CMYK.
COLOURS = {"orange": "O", "blue": "B", "black": "K", "yellow": "Y", "green": "G", "red": "R",
           "white": "W", "purple": "P"}

# A colour's letter (palette.LETTERS) as a 5x7 glyph, drawn thick (an own font: a
# die's mark must not depend on the terminal font's cell); a byte a row, the leftmost
# pixel in bit 4.
LETTERS = "OBKYGRWP"
_GLYPHS = (b"\x0e\x11\x11\x11\x11\x11\x0e\x1e\x11\x11\x1e\x11\x11\x1e\x11\x12\x14\x18\x14\x12\x11"
           b"\x11\x11\n\x04\x04\x04\x04\x0e\x11\x10\x17\x11\x11\x0f\x1e\x11\x11\x1e\x14\x12\x11"
           b"\x11\x11\x11\x15\x15\x15\n\x1e\x11\x11\x1e\x10\x10\x10")
_SHEETS = {}  # die size -> (bitmap of the letters, glyph scale)


def sheet(size):
    """The letters for dice of ``size`` px, one tile each (LETTERS order), 1 bit a
    pixel, at a scale that fits inside the dot and between the pips (2 at 44 px)."""
    got = _SHEETS.get(size)
    if got is not None:
        return got
    k = max(1, size // 22)
    bm = displayio.Bitmap(5 * k * len(LETTERS), 7 * k, 2)
    fill = bitmaptools.fill_region
    for t in range(len(LETTERS)):
        x0 = t * 5
        for row in range(7):
            bits = _GLYPHS[t * 7 + row] << 1  # a blank sixth column ends the last run
            start = -1  # the column a run of set pixels starts at
            for col in range(6):
                if (bits >> (5 - col)) & 1:
                    if start < 0:
                        start = col
                elif start >= 0:
                    fill(bm, (x0 + start) * k, row * k, (x0 + col) * k, (row + 1) * k, 1)
                    start = -1
    got = _SHEETS[size] = (bm, k)
    return got


class Die(die.Die):
    """A ``die.Die`` that can carry a letter (one of LETTERS): a small TileGrid of
    this size's letter sheet over the die, with a palette of its own (ink, clear)."""

    def __init__(self, x, y, size):
        bm, k = sheet(size)
        pal = displayio.Palette(2)
        pal.make_transparent(0)
        self._mark_pal = pal
        self._k = k
        self._mark = displayio.TileGrid(bm, pixel_shader=pal, width=1, height=1,
                                        tile_width=5 * k, tile_height=7 * k, default_tile=0)
        screen.set_shown(self._mark, False)
        super().__init__(x, y, size)
        self.group.append(self._mark)

    @property
    def mark(self):
        """The letter shown ("" if none)."""
        m = self._mark
        return "" if m.hidden else LETTERS[m[0]]

    def show(self, face, body=palette.WHITE, dot=None, border=None, caption=None, mark=""):
        """As ``die.Die.show``; ``mark``: a letter drawn inside the dot in the ink
        that reads on the dot, or else at the top edge between the pips in the body's
        ink ("" none)."""
        super().show(face, body, dot, border, caption)
        m = self._mark
        i = LETTERS.find(mark) if mark else -1
        screen.set_shown(m, i >= 0)
        if i >= 0:
            m[0] = i
            size = self.size
            k = self._k
            m.x = (size - 5 * k) // 2
            m.y = (size - 7 * k) // 2 if dot is not None else size // 14
            self._mark_pal[1] = screen.ink_for(body if dot is None else dot)
