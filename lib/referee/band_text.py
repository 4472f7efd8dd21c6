"""A ``screen.Text`` whose colour changes a band of columns at a time.

On the firmware a text's new colour redraws its whole box in one refresh: a menu row
at scale 2 (23 cells, 6,624 px) took ~40 ms, the reaction test's "P3 WINS" at scale 4
72-93 ms. A ``BandText`` is the same text in grids of a few columns side by side, each
with a palette of its own (at most ``band_px`` pixels a grid, ``_BAND_PX`` unless
given: 8 columns at scale 2, 2 at scale 4), so that a new colour is drawn a band a pace
step, each a short refresh: the text takes its colour left to right within a few passes.

Its columns (``cols``) and its scale are fixed; each band costs a ``TileGrid`` and a
``Palette`` of heap, so only texts whose colour changes in play are banded (a menu's
rows in a match, the reaction test's result). Its own module: a game without one does
not load it.
"""

import displayio
import terminalio

from referee import screen
from referee.core import const

# A band's pixels at most: ~13 ms of refresh over black, ~20 ms over a coloured layer.
# (referee.pace's step budget, 1,500 px, made a band of five cells at scale 2: ~250 B of
# heap a band, 6 KB more in Zilch's menu, over its budget.)
_BAND_PX = const(2400)


class _Bands:
    """The bands' grids seen as one grid of ``cols`` x ``rows`` cells (what
    ``screen.Text._draw`` reads and writes)."""

    def __init__(self, grids, pals, band, cols, rows, color, blank):
        self.grids = grids
        self.pals = pals
        self.band = band
        self.width = cols
        self.height = rows
        self.color = color  # the text's colour (a band left blank keeps an older one)
        self.blank = blank

    def __getitem__(self, cr):
        c, r = cr
        return self.grids[c // self.band][c % self.band, r]

    def __setitem__(self, cr, tile):
        c, r = cr
        b = c // self.band
        pal = self.pals[b]
        if tile != self.blank and pal[1] != self.color:
            pal[1] = self.color  # a band left blank through a colour change: inked now
        self.grids[b][c % self.band, r] = tile

    def is_blank(self, b):
        """True if band ``b`` shows no glyph."""
        g = self.grids[b]
        for r in range(self.height):
            for c in range(g.width):
                if g[c, r] != self.blank:
                    return False
        return True


class BandText(screen.Text):
    """A ``screen.Text`` of ``cols`` columns (required) drawn in bands of columns with a
    palette each, of at most ``band_px`` pixels (smaller: shorter refreshes, more heap);
    ``.text`` and ``.color`` as a ``Text``'s, its scale fixed."""

    def __init__(self, s, x, y, scale, color, anchor, cols, band_px=_BAND_PX):
        self._band_px = band_px  # (read by _build, which Text's __init__ calls)
        super().__init__(s, x, y, scale, color, anchor, cols)

    def _build(self, w, rows, color):
        cols = self._cols
        s = self.scale
        most = self._band_px
        n = (cols * screen.CHAR_W * screen.CHAR_H * s * s * rows + most - 1) // most  # bands
        band = (cols + n - 1) // n  # (as even as they come)
        grids = []
        pals = []
        for x0 in range(0, cols, band):
            pal = displayio.Palette(2)
            pal.make_transparent(0)
            pal[1] = color
            g = displayio.TileGrid(terminalio.FONT.bitmap, pixel_shader=pal, width=min(band, cols - x0), height=rows,
                                   tile_width=screen.CHAR_W, tile_height=screen.CHAR_H, default_tile=self._blank,
                                   x=x0 * screen.CHAR_W)
            grids.append(g)
            pals.append(pal)
            self.append(g)
        self._pals = pals
        self._drawn = None  # the text its cells show (a new colour alone walks none of them)
        self._grid = _Bands(grids, pals, band, cols, rows, color, self._blank)

    @property
    def color(self):
        """The text's colour (0xRRGGBB); a new one is drawn a band at a time (paced)."""
        c = self._color
        return self._grid.color if c is None else c

    @color.setter
    def color(self, c):
        if c != self.color:
            self._color = c
            screen.draw_later(self)

    def set_scale(self, scale):
        """A banded text keeps its scale (its bands are cut for it)."""
        if scale != self.scale:
            raise ValueError("a BandText keeps its scale")

    def _draw(self, budget_px, first=True):
        # a new colour a band at a time (the first whatever it costs; a blank band is
        # inked when a glyph is drawn in it), then the cells as a ``screen.Text`` draws
        # them; returns the pixels redrawn (an estimate)
        spent = 0
        c = self._color
        if c is not None:
            s = self.scale
            g = self._grid
            for i, pal in enumerate(self._pals):
                if pal[1] != c and not g.is_blank(i):
                    box = g.grids[i].width * g.height * screen.CHAR_W * screen.CHAR_H * s * s
                    if spent + box > budget_px and (spent or not first):
                        return spent  # the other bands at the next call
                    pal[1] = c
                    spent += box
            g.color = c
            self._color = None
        if self._text is self._drawn:  # only a colour: the cells are as they were
            self._todo = False
            return spent
        spent += super()._draw(budget_px - spent, first and not spent)
        if not self._todo:
            self._drawn = self._text
        return spent
