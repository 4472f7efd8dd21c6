"""Dice on the screen: faces as tiles of one sprite sheet per die size, a palette per die.

Loaded with a game and forgotten with it (games.unload), so the sheets it built go
with it and the launcher never holds dice code.
"""

import bitmaptools
import displayio

from referee import palette
from referee.screen import draw_later, ink_for, put, set_shown, text

# Pip positions on a 3x3 grid (column, row) for faces 1..6.
PIPS = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}
_DOT = 7  # the sheet's tile of one big colour dot; tile 0 is a blank face
_TILES = 8
_SHEETS = {}  # die size -> its sprite sheet, shared by every die of that size


def _disc(bm, cx, cy, r, value):
    # the pixels dx * dx + dy * dy <= r * r around (cx, cy): a span a row, |dx| <= w
    fill = bitmaptools.fill_region
    rr = r * r
    w = r
    for dy in range(r + 1):
        while w * w + dy * dy > rr:
            w -= 1
        fill(bm, cx - w, cy - dy, cx + w + 1, cy - dy + 1, value)
        if dy:
            fill(bm, cx - w, cy + dy, cx + w + 1, cy + dy + 1, value)


def sheet(size):
    """The sprite sheet for dice of ``size`` px: tile 0 blank, 1..6 pips, 7 a big
    dot. Colour indexes: 0 the 2 px frame (a border, or the body's colour), 1 the
    body, 2 the ink (pips, the dot's ring), 3 the dot. One bitmap for all the dice
    of a size (about size * size / 2 bytes); each die is one tile of it."""
    bm = _SHEETS.get(size)
    if bm is not None:
        return bm
    bm = displayio.Bitmap(size * _TILES, size, 4)
    bm.fill(1)
    fill = bitmaptools.fill_region
    r = max(2, size // 10)
    step = size // 4
    for t in range(_TILES):
        x0 = t * size
        x1 = x0 + size
        fill(bm, x0, 0, x1, 2, 0)  # the frame: top, bottom, left, right
        fill(bm, x0, size - 2, x1, size, 0)
        fill(bm, x0, 0, x0 + 2, size, 0)
        fill(bm, x1 - 2, 0, x1, size, 0)
        for col, row in PIPS.get(t, ()):
            _disc(bm, x0 + step * (col + 1), step * (row + 1), r, 2)
    half = size // 2
    _disc(bm, _DOT * size + half, half, size // 4 + 2, 2)
    _disc(bm, _DOT * size + half, half, size // 4, 3)
    _SHEETS[size] = bm
    return bm


class Die:
    """A die: one tile of its size's sprite sheet (``sheet``) with a palette of
    its own (frame, body, ink, dot), and a caption built on first use (for disks,
    numbers and jokers). ``show(...)`` changes it in place."""

    def __init__(self, x, y, size):
        self.group = displayio.Group(x=x, y=y)
        self.size = size
        self._pal = displayio.Palette(4)
        self._grid = displayio.TileGrid(sheet(size), pixel_shader=self._pal, width=1, height=1,
                                        tile_width=size, tile_height=size, default_tile=0)
        self.group.append(self._grid)
        self._label = None
        self._todo = False  # a look waits in referee.pace's queue
        self._look = None  # the look to draw: (frame, body, ink, dot, tile)
        self.show(None)

    @property
    def face(self):
        """The sheet tile shown (or to be, while paced): 0 blank, 1..6 pips, 7 the dot."""
        return self._look[4]

    def show(self, face, body=palette.WHITE, dot=None, border=None, caption=None):
        """``face``: pips 1..6, None (blank). ``dot``: a colour drawn as a big dot
        instead of pips. ``caption``: short text instead of pips."""
        set_shown(self.group)
        ink = ink_for(body)
        if dot is not None:
            tile = _DOT
        elif caption is None and face in PIPS:
            tile = face
        else:
            tile = 0
        look = (body if border is None else border, body, ink, body if dot is None else dot, tile)
        # A new look redraws the whole die: while changes are paced (referee.pace) it is
        # drawn at its turn, one die or a few a refresh, not every die of a throw at once.
        # The look it has (or waits to draw) again: nothing to draw.
        if look != self._look:
            self._look = look
            draw_later(self)
        if caption and self._label is None:
            size = self.size
            self._label = text("", size // 2, size // 2, max(1, size // 14), palette.BLACK, (0.5, 0.5), cols=4)
            self.group.append(self._label)
        if self._label is not None:
            self._label.text = caption or ""
            self._label.color = ink

    def _draw(self, budget_px, first=True):
        # referee.pace's call (or show's): the look drawn; returns the pixels redrawn (0:
        # it waits, bigger than what the step has left and not its first change)
        if not first and self.size * self.size > budget_px:
            return 0
        pal = self._pal
        c0, c1, c2, c3, tile = self._look
        pal[0] = c0
        pal[1] = c1
        pal[2] = c2
        pal[3] = c3
        put(self._grid, 0, tile)
        self._todo = False
        return self.size * self.size

    def hide(self):
        """Hide the die (``show`` shows it again)."""
        set_shown(self.group, False)
