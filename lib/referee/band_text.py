"""A ``screen.Text`` whose new colour is drawn a band of cells at a time.

On the firmware a text's new colour redraws its whole box in one refresh, blank cells
too: a menu row at scale 2 (23 cells, 6,624 px) took ~40 ms, the reaction test's
"P3 WINS" at scale 4 72-93 ms. A ``BandText`` draws its glyphs through a
``tilepalettemapper.TilePaletteMapper``: each cell takes its ink from one of two slots of
the text's palette. A new colour is written into the slot no cell is moved to yet (the
firmware redraws nothing for a palette behind a mapper: measured, and ``TileGrid.c``
looks only at a ``Palette`` shader's changes), then the cells that show a glyph are
moved to it, at most ``band_px`` pixels a pace step (``_BAND_PX`` unless given): each
move a refresh of that cell's box alone, a blank cell never. The text takes its colour
left to right within a few passes; a glyph written meanwhile is inked in the new colour.
``screen.set_shown`` does not hide a ``BandText``: it blanks its glyphs, or draws them
again, a few cells a step (a text's box shown or hidden is redrawn whole, blank cells
too: a menu row's 6,624 px, Zilch's result at scale 4 10,368 px in one refresh).

Heap: a cell's mapping (about 20 B) on top of a ``Text``'s grid; only texts whose colour
changes in play are made so (a menu's rows in a match, the reaction test's result, the
headlines). Its own module: a game without one does not load it.
"""

import displayio
import terminalio

from referee import screen
from referee.core import const

try:
    from tilepalettemapper import TilePaletteMapper
except ImportError:  # CircuitPython 9 (the box runs on 9.2+): a new colour redraws the text whole
    TilePaletteMapper = None

# The most pixels of new colour in one pace step: ~13 ms of refresh over black.
_BAND_PX = const(2400)
# A cell's mapping: its glyph's ink from slot 1 or slot 2, its background transparent
# (a list: the firmware reads the value as a list, a tuple is refused).
_INK = (None, [0, 1], [0, 2])


class _Cells:
    """The grid as ``screen.Text._draw`` reads and writes it: a glyph written in a cell
    moves the cell to the ink slot of the text's newest colour."""

    def __init__(self, grid, mapper, blank):
        self.grid = grid
        self.mapper = mapper
        self.width = grid.width
        self.height = grid.height
        self.blank = blank
        self.ink = bytearray(b"\x01" * (grid.width * grid.height))  # each cell's slot (the mapper's)
        self.slot = 1  # the slot of the newest colour

    def __getitem__(self, cr):
        return self.grid[cr]

    def __setitem__(self, cr, tile):
        c, r = cr
        i = r * self.width + c
        if tile != self.blank and self.ink[i] != self.slot:
            self.inked(i)
        self.grid[cr] = tile

    def inked(self, i):
        """Move cell ``i`` to the newest colour's slot (the firmware redraws its box)."""
        s = self.slot
        if self.mapper is not None:
            self.mapper[i] = _INK[s]
        self.ink[i] = s


class BandText(screen.Text):
    """A ``screen.Text`` of ``cols`` columns (required) whose new colour is drawn at most
    ``band_px`` pixels a pace step, glyph cells only; ``.text``, ``.color`` and
    ``set_scale`` as a ``Text``'s."""

    def __init__(self, s, x, y, scale, color, anchor, cols, band_px=_BAND_PX, rows=0):
        self._band_px = band_px
        self._next = -1  # the next cell the colour walk looks at (-1: no walk)
        self._drawn = None  # the text its cells show (a new colour alone walks none of them)
        super().__init__(s, x, y, scale, color, anchor, cols, rows)

    def _build(self, w, rows, color):
        # a palette of two ink slots (slot 1 the first colour), a grid behind a mapper
        pal = self._pal = displayio.Palette(3)
        pal.make_transparent(0)
        pal[1] = color
        pal[2] = color
        self._grid = None
        self._regrid(w, rows)

    def _regrid(self, cols, rows):
        # a new grid has a new mapper (the firmware binds a mapper to one grid), every
        # cell in the newest colour's slot
        old = self._grid
        slot = 1
        if old is not None:
            slot = old.slot
            self.remove(old.grid)
        m = None if TilePaletteMapper is None else TilePaletteMapper(self._pal, 2)
        g = displayio.TileGrid(
            terminalio.FONT.bitmap, pixel_shader=self._pal if m is None else m, width=cols, height=rows,
            tile_width=screen.CHAR_W, tile_height=screen.CHAR_H, default_tile=self._blank)
        self.append(g)
        cells = self._grid = _Cells(g, m, self._blank)
        if slot != 1:
            for i in range(cols * rows):
                cells.inked(i)  # (before the grid is drawn: no cost)
            cells.slot = slot
        self._next = -1
        self._drawn = None  # its cells blank
        return cells

    _veils = True  # (a menu row shown or hidden whole: 6,624 px; its glyphs: a fraction)

    def _veil(self, veiled):
        # ``screen.Text._veil``, its cells drawn again
        self._drawn = None
        super()._veil(veiled)

    @property
    def color(self):
        """The text's colour (0xRRGGBB); a new one is drawn a few cells at a time (paced)."""
        c = self._color
        return self._pal[self._grid.slot] if c is None else c

    @color.setter
    def color(self, c):
        if c != self.color:
            self._color = c
            screen.draw_later(self)

    def _draw(self, budget_px, first=True):
        # a new scale as a ``Text``'s; a new colour into the slot no cell is in yet (or,
        # while a walk is under way, into the walk's slot, the walk begun again), the
        # glyph cells moved to it a few a call; then the cells as a ``Text`` draws them;
        # returns the pixels redrawn (an estimate)
        if self._rescale:
            return super()._draw(budget_px, first)
        g = self._grid
        c = self._color
        if c is not None:
            self._color = None
            if g.mapper is None:  # CircuitPython 9: the palette's one ink, the box redrawn whole
                self._pal[1] = c
                spent = screen.paced.area(self) if screen.paced else 0
                return spent + self._draw(budget_px - spent, False)
            if self._next < 0:
                g.slot = 3 - g.slot
            else:  # cells already moved show the colour before this one: again
                ink = g.ink
                for i in range(len(ink)):
                    if ink[i] == g.slot:
                        ink[i] = 0
            self._pal[g.slot] = c
            self._next = 0
        spent = 0
        if self._next >= 0:
            s = self.scale
            cell = screen.CHAR_W * screen.CHAR_H * s * s
            most = min(budget_px, self._band_px)
            ink = g.ink
            grid = g.grid
            w = g.width
            blank = self._blank
            n = len(ink)
            i = self._next
            while i < n:
                if ink[i] != g.slot and grid[i % w, i // w] != blank:
                    if spent + cell > most and (spent or not first):
                        self._next = i
                        return spent  # the other cells at the next call
                    g.inked(i)
                    spent += cell
                i += 1
            self._next = -1
        if self._text is self._drawn:  # only a colour: the cells are as they were
            self._todo = False
            return spent
        spent += super()._draw(budget_px - spent, first and not spent)
        if not self._todo:
            self._drawn = self._text
        return spent
