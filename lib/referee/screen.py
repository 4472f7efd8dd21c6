"""Screen helpers: text, boxes and dice built once, updated in place.

Everything here is displayio, so the same calls render on the device and on the
PC (Blinka displayio). Build groups once; change ``.text``/``.hidden``/colours.

Text is drawn as tiles of the built-in terminal font (``terminalio.FONT.bitmap``,
which lives in flash on the device): one ``TileGrid`` of one byte per character
cell under a scaled ``Group``, about 300 B a line where an
``adafruit_display_text`` label costs ~100 B per character plus its library.
"""

import displayio
import terminalio
import vectorio

from referee import palette

try:
    from tilepalettemapper import TilePaletteMapper
except ImportError:  # CircuitPython 9 (the box runs on 9.2+): an inked text is a plain one
    TilePaletteMapper = None

WIDTH = 320
HEIGHT = 240
CHAR_W = 6  # terminalio.FONT cell at scale 1
CHAR_H = 12
_ALL = 1 << 30  # a budget of pixels with no end
# An inked text's cell mapping: its glyph's ink from slot 1 or 2 of the text's palette,
# its background transparent (lists: the firmware reads a mapping as a list, not a tuple)
_INK = (None, [0, 1], [0, 2])


# On the firmware a TileGrid's tile, a layer's ``hidden`` and a shape's size redraw their
# area whenever they are written, even with the value they hold, and a redraw of the panel
# costs the loop much more than a comparison: these three write only a change.
def set_shown(layer, shown=True):
    """Show (or hide: ``shown`` false) a layer; nothing is redrawn if it already is so.
    While changes are paced (``referee.pace``) it waits its turn. ``Parts``: each part."""
    if isinstance(layer, Parts):
        shown = bool(shown)
        if layer.shown is shown:  # asked again (a menu's bar at every step: 13 parts)
            return
        layer.shown = shown
        for part in layer:
            set_shown(part, shown)
        return
    if isinstance(layer, Text) and layer._veils:
        layer._veil(not shown)  # (``Text``'s ``veil``: its glyphs blanked, not its box hidden)
        if not (shown and layer.hidden):
            return
    if paced:
        if layer.hidden != bool(shown) and id(layer) not in paced._last:
            return  # as asked, nothing waits for it: no call (~30 µs a call on the box)
        paced.later(layer, bool(shown), None)
        return
    hidden = not shown
    if layer.hidden != hidden:
        layer.hidden = hidden


# ``referee.pace`` while it paces screen changes (the device, during a match), else None
paced = None


class Parts(displayio.Group):
    """A shape made of parts side by side, all at ``y0`` in the group (``referee.bar``):
    ``set_shown``, ``move`` and ``set_color`` change each part, never the group. On the
    firmware a group's ``hidden`` written redraws the box of every layer in it at once
    (CircuitPython's Group.c marks them all, hidden ones too): a menu's bar moved or
    hidden as a group was 83 ms of one refresh; a part at a time, a few ms a pass."""

    def __init__(self, y0):
        super().__init__()
        self.y0 = y0
        self.color = None  # the colour set_color gave every part last (None: not yet)
        self.shown = None  # what set_shown made every part last (None: not yet)


def move(layer, y, x=None):
    """Move a layer (a shape, a bar) to ``y`` (and ``x``, unless None): while changes are
    paced, hidden at its turn and shown at its new place at the next; else at once.
    Nothing if it is there. ``Parts``: each part, to where it would be if the group's
    own ``y`` were ``y``."""
    if isinstance(layer, Parts):
        for part in layer:
            move(part, layer.y0 + y - layer.y)
        return
    if paced:
        paced.move(layer, y, x)
    else:
        if x is not None and layer.x != x:
            layer.x = x
        if layer.y != y:
            layer.y = y


def draw_later(item):
    """``item`` (a ``Text``, a ``die.Die``: anything with ``_todo`` and ``_draw(budget_px,
    first)``) has something new to draw: at its turn while changes are paced (queued
    once), else now."""
    if paced:
        if not item._todo:
            item._todo = True
            paced.queue(item)
    else:
        item._draw(_ALL)


def put(grid, index, tile):
    """``grid[index] = tile`` only if it holds another tile."""
    if grid[index] != tile:
        grid[index] = tile


def resize(shape, width, height):
    """A vectorio rectangle's size, set only where it changes."""
    if shape.width != width:
        shape.width = width
    if shape.height != height:
        shape.height = height


def _tile(ch):
    # The built-in font's tile for ``ch``. It numbers printable ASCII in order from the
    # space (CircuitPython's fontio BuiltinFont), so those take no call: its get_glyph
    # makes a new Glyph object each time, garbage for every cell a text draws.
    o = ord(ch)
    if 32 <= o <= 126:
        return o - 32
    font = terminalio.FONT
    g = font.get_glyph(o)
    if g is None:
        g = font.get_glyph(63)  # "?"
    return g.tile_index


class Text(displayio.Group):
    """A text of up to ``cols`` x ``rows`` character cells whose ``anchor`` point
    (fractions of the text's box) sits at (x, y). ``.text`` and ``.color`` change
    it in place; a line longer than ``cols`` is cut (size ``cols`` for the longest
    text the place will show: it defaults to the screen's width).

    ``veil``: ``set_shown`` blanks its glyphs, or draws them again, a few cells a pace
    step, and never hides its box (a box shown or hidden is redrawn whole, blank cells
    too: a menu row, 3,000-6,600 px). ``inked`` (veiled too): a new colour is drawn a
    few glyph cells a pace step, blank cells never (a new colour otherwise redraws the
    whole box in one refresh: Würfelblitz's answer at scale 4, 9,216 px, 81 ms on the
    firmware). Its grid draws through a ``tilepalettemapper.TilePaletteMapper``, each cell
    inked from one of two slots of its palette: a new colour goes into the slot no cell
    has moved to yet (the firmware redraws nothing for a palette behind a mapper:
    measured; ``TileGrid.c`` watches only a ``Palette`` shader) and the glyph cells move
    to it in turn, a glyph written meanwhile in the new colour. Heap: a cell's mapping,
    ~20 B (measured: 528 B for 26 cells), so only texts whose colour changes in play
    are inked."""

    # Defaults as class attributes: a text's own attribute map holds only what differs
    # (on the firmware an instance's map grows in steps of several slots, 8 B each).
    _veils = False  # ``set_shown`` blanks its glyphs instead of hiding it (``veil``)
    _veiled = False  # its glyphs blanked: shown as an empty text
    _color = None  # a colour waiting to be drawn (paced)
    _rescale = 0  # a scale waiting to be drawn (paced)
    _todo = False  # a text or colour waits in referee.pace's queue
    _blank = 0  # the space's tile (``_tile(" ")``)
    _h = 1  # the drawn text's lines
    _map = None  # inked: the grid's TilePaletteMapper
    _slot = 1  # the palette slot of the newest colour (inked: 1 or 2)
    _next = -1  # inked: the next cell the colour walk looks at (-1: no walk)
    _from = 0  # the cell (row * width + column) a part-drawn text goes on from (_draw); -1:
    # every cell drawn, until a new text, veil, grid or scale

    def __init__(self, s, x, y, scale=2, color=palette.TEXT, anchor=(0.0, 0.0), cols=0, rows=0, veil=False,
                 inked=False):
        super().__init__(scale=scale)
        if veil or inked:
            self._veils = True
        lines = s.split("\n")
        w = 1  # a ``cols`` given is the grid's width from the start (no new grid later)
        if not cols:
            cols = WIDTH // (CHAR_W * scale)
            for ln in lines:
                cols = max(cols, len(ln))
        else:
            w = cols
        # The grid is as wide as the widest text shown yet (up to ``cols``), or ``cols``
        # when given: the firmware redraws a grid's every cell, blank ones too, when it
        # moves, shows or changes colour.
        self._cols = cols
        self._build(w, max(rows, len(lines)), color, inked and TilePaletteMapper is not None)
        self.anchor_point = anchor
        self._at = (x, y)
        self._text = s
        draw_later(self)  # its first text: at once, unless changes are paced (then at its turn)

    def _build(self, w, rows, color, inked):
        # its palette (inked: two ink slots) and grid
        pal = self._pal = displayio.Palette(3 if inked else 2)
        pal.make_transparent(0)
        pal[1] = color
        self._grid = None
        if inked:
            pal[2] = color
            self._map = True  # (the mapper is made with each grid)
        self._regrid(w, rows)

    def _regrid(self, cols, rows):
        # a new grid of ``cols`` x ``rows`` blank cells in place of the old one (none at
        # first); returns it. Inked: a new mapper (the firmware binds one to one grid),
        # every cell in the newest colour's slot.
        old = self._grid
        if old is not None:
            self.remove(old)
        self._from = 0
        shader = self._pal
        if self._map is not None:
            shader = self._map = TilePaletteMapper(shader, 2)
            self._ink = bytearray(cols * rows)  # each cell's slot, as the mapper has it (0: not known)
            self._next = -1
        g = self._grid = displayio.TileGrid(
            terminalio.FONT.bitmap, pixel_shader=shader, width=cols, height=rows,
            tile_width=CHAR_W, tile_height=CHAR_H, default_tile=self._blank)
        self.append(g)
        return g

    def _inked(self, i):
        # cell ``i`` moved to the newest colour's slot (the firmware redraws its box)
        s = self._slot
        self._map[i] = _INK[s]
        self._ink[i] = s

    def _colour(self, budget_px, first):
        # a new colour, paced: (the pixels it redraws, whether the cells must wait: the
        # colour did not fit, or an inked text's walk goes on at the next call)
        c = self._color
        if self._map is not None:  # inked: a few glyph cells a call
            if c is None and self._next < 0:
                return 0, False
            self._color = None
            spent = self._recolour(c, budget_px, first)
            return spent, self._next >= 0
        if c is None:
            return 0, False
        spent = 0
        if paced:
            spent = paced.area(self)  # the whole text is redrawn: after other changes
            if spent > budget_px and not first:  # only if it fits, else a step of its own
                return 0, True
        self._color = None
        self._pal[1] = c
        return spent, False

    def _recolour(self, c, budget_px, first):
        # inked: a new colour ``c`` (None: a walk under way goes on) into the slot no cell
        # has moved to (or, while a walk is under way, into the walk's slot, the walk begun
        # again), glyph cells moved to it within ``budget_px``; returns the pixels redrawn
        ink = self._ink
        if c is not None:
            if self._next < 0:
                self._slot = 3 - self._slot
            else:  # cells already moved show the colour before this one: again
                for i in range(len(ink)):
                    if ink[i] == self._slot:
                        ink[i] = 0
            self._pal[self._slot] = c
            self._next = 0
        s = self.scale
        cell = CHAR_W * CHAR_H * s * s
        grid = self._grid
        w = grid.width
        blank = self._blank
        slot = self._slot
        n = len(ink)
        i = self._next
        # the firmware redraws the box around a grid's changed cells, blank cells between
        # them too (a menu row's points column: its glyphs and the row's first ones made
        # one box of the whole row, counted as its glyphs alone: 53 ms refreshes in Zilch)
        c0 = r0 = 999
        c1 = r1 = -1
        box = 0
        while i < n:
            if ink[i] != slot and grid[i % w, i // w] != blank:
                col = i % w
                row = i // w
                b = (max(c1, col) - min(c0, col) + 1) * (max(r1, row) - min(r0, row) + 1) * cell
                if b > budget_px and (c1 >= 0 or not first):
                    self._next = i
                    return box  # the other cells at the next call
                self._inked(i)
                c0 = min(c0, col)
                c1 = max(c1, col)
                r0 = min(r0, row)
                r1 = max(r1, row)
                box = b
            i += 1
        self._next = -1
        return box

    @property
    def text(self):
        """The text shown (a newline starts a line); setting it writes only the cells that
        change (paced: a few at a time, ``referee.pace.step``)."""
        return self._text

    @text.setter
    def text(self, s):
        s = str(s)
        if s == self._text:
            return
        self._text = s
        self._from = 0
        draw_later(self)

    def _draw(self, budget_px, first=True):
        # Writes the cells whose tile is not the text's, until about ``budget_px`` pixels
        # are written (paced: the rest at the next call); returns the pixels written (an
        # estimate); ``first``: nothing was drawn yet in this pace step. Only cells that
        # change are written: a smaller area to refresh. The text's box sits in the grid
        # as it sits at its anchor (centred: in the middle, to half a cell), so a new
        # text of another width rewrites cells, never moves the grid (which would redraw
        # it whole).
        spent = 0
        if self._rescale:  # paced: hidden at this turn, drawn at its new scale at the next
            px = paced.area(self)
            if not first and px > budget_px:
                return 0  # (a step with too little left: a later one)
            if not self.hidden:
                self.hidden = True
                return px  # the box it leaves
            self._scale_to(self._rescale)  # hidden: nothing is redrawn yet
            self._draw(_ALL)
            self.hidden = False
            return paced.area(self)  # the box it takes, only as wide as its text
        spent, wait = self._colour(budget_px, first)
        if wait:
            return spent  # (the text's cells after its colour)
        if self._from < 0:  # every cell drawn, and no new text since: a colour alone
            self._todo = False
            return spent
        if spent and self._map is not None:  # an inked text's cells recoloured in this
            return spent  # step: its new cells at the next (in one, the box around both)
        s = "" if self._veiled else self._text
        lines = s.split("\n")
        grid = self._grid
        w = 0
        for line in lines:
            w = max(w, len(line))
        w = min(w, self._cols)
        if w > grid.width:  # wider than it has been: a new grid, drawn whole
            was = grid.width
            grid = self._regrid(w, grid.height)
            if paced:
                spent += paced.area(self) * (was + w) // w
        spent, stopped = self._cells(grid, lines, int(self.anchor_point[0] * (grid.width - w)), spent, budget_px,
                                     first)
        if stopped:
            return spent  # part drawn: the next call goes on
        self._todo = False
        h = min(len(lines), grid.height)
        if h != self._h and not self._veiled:  # the drawn text's lines (blanked: kept in place)
            self._h = h
        if self._place() and paced:
            spent += 2 * paced.area(self)  # moved: its old and new places are redrawn whole
        return spent

    def _cells(self, grid, lines, off, spent, budget_px, first):
        # _draw's cells, from ``_from``: (the pixels written, whether the budget stopped
        # it: then ``_from`` is where the next call goes on). The firmware redraws the box
        # around a grid's changed cells: budgeted as such (the first change of a pace step
        # is made whatever it costs: ``first``). A part-drawn text goes on from the cell it
        # stopped at (the cells before it are drawn: a change of text, veil or grid starts
        # again).
        cols = grid.width
        blank = self._blank
        cell = CHAR_W * CHAR_H * self.scale * self.scale
        c0 = r0 = 999
        c1 = r1 = -1
        base = spent
        m = self._map
        slot = self._slot
        start = self._from
        self._from = 0
        for r in range(start // cols, grid.height):
            line = lines[r] if r < len(lines) else ""
            n = len(line)
            for c in range(start % cols if r == start // cols else 0, cols):
                k = c - off
                if 0 <= k < n:
                    t = ord(line[k]) - 32  # (_tile, written out for printable ASCII)
                    if t < 0 or t > 94:
                        t = _tile(line[k])
                else:
                    t = blank
                if grid[c, r] != t:
                    box = (max(c1, c) - min(c0, c) + 1) * (max(r1, r) - min(r0, r) + 1) * cell
                    if base + box > budget_px and (c1 >= 0 or base or not first):
                        self._from = r * cols + c
                        return spent, True
                    grid[c, r] = t
                    if m is not None and t != blank and self._ink[r * cols + c] != slot:
                        self._inked(r * cols + c)  # a glyph in an inked cell: the newest colour
                    c0 = min(c0, c)
                    c1 = max(c1, c)
                    r0 = min(r0, r)
                    r1 = max(r1, r)
                    spent = base + box
        self._from = -1  # every cell drawn (a new text, veil, grid or scale: 0 again)
        return spent, False

    def _veil(self, veiled):
        # ``set_shown`` of a text made with ``veil``: its glyphs blanked (``veiled``) or
        # drawn again, a few cells a pace step, its box never hidden (a box shown or
        # hidden is redrawn whole, blank cells too: Zilch's result line, 6,912 px)
        if veiled != self._veiled:
            self._veiled = veiled
            self._from = 0
            draw_later(self)

    @property
    def color(self):
        """The text's colour (0xRRGGBB); a new colour redraws the whole text (paced:
        at its turn in the queue), an inked text's a few glyph cells at a time."""
        c = self._color
        return self._pal[self._slot] if c is None else c

    @color.setter
    def color(self, c):
        if c != self.color:
            self._color = c
            draw_later(self)

    @property
    def anchored_position(self):
        """(x, y) where the anchor point sits; setting it moves the text there."""
        return self._at

    @anchored_position.setter
    def anchored_position(self, xy):
        self._at = xy
        self._place()

    def set_scale(self, scale):
        """Draw the text at ``scale``, its anchor point kept where it is, its grid only as
        wide as its text (the firmware redraws a text's whole box at a new scale). Paced,
        a shown text is hidden at its turn and drawn at the new scale at the next: the box
        it leaves and the box it takes are redrawn apart, not as one box around both."""
        if scale == (self._rescale or self.scale):
            return
        if paced and not self.hidden:
            self._rescale = scale  # (a colour or text waiting is drawn with it, hidden: free)
            draw_later(self)
            return
        self._scale_to(scale)
        self._draw(_ALL)

    def _scale_to(self, scale):
        self._rescale = 0
        self._from = 0
        self.scale = scale
        w = 1
        for line in self._text.split("\n"):
            w = max(w, len(line))
        w = min(w, self._cols)
        old = self._grid
        if w != old.width:
            self._regrid(w, old.height)
        self._place()

    def size(self):
        """(columns, rows) of its cells: the box the firmware redraws when it moves, shows
        or changes colour."""
        g = self._grid
        return g.width, g.height

    def _place(self):
        # True when the text moved
        s = self.scale
        ax, ay = self.anchor_point
        x = self._at[0] - int(ax * self.size()[0] * CHAR_W * s)
        y = self._at[1] - int(ay * self._h * CHAR_H * s)
        if x == self.x and y == self.y:
            return False
        self.x = x
        self.y = y
        return True


def text(s, x, y, scale=2, color=palette.TEXT, anchor=(0.0, 0.0), cols=0, rows=0, veil=False, inked=False):
    """A ``Text`` whose ``anchor`` point (fractions of its box) sits at (x, y); ``veil``:
    ``set_shown`` blanks its glyphs, a few cells a pace step, instead of hiding its box;
    ``inked``: so, and a new colour is drawn a few glyph cells a step (``Text``)."""
    return Text(s, x, y, scale, color, anchor, cols, rows, veil, inked)


def centred(s, y, scale=2, color=palette.TEXT):
    """A ``Text`` centred across the screen, its top at ``y``."""
    return text(s, WIDTH // 2, y, scale, color, (0.5, 0.0))


def solid(color):
    """A one-colour palette for a vectorio shape (``set_color`` changes the colour)."""
    p = displayio.Palette(1)
    p[0] = color
    return p


def rect(x, y, w, h, color):
    """A filled ``w`` x ``h`` rectangle of ``color``, its top left corner at (x, y)."""
    return vectorio.Rectangle(pixel_shader=solid(color), width=w, height=h, x=x, y=y)


def circle(x, y, r, color):
    """A filled circle of ``color`` and radius ``r``, its centre at (x, y)."""
    return vectorio.Circle(pixel_shader=solid(color), radius=r, x=x, y=y)


def set_color(shape, color):
    """The colour of a shape made with ``solid`` (``rect``, ``circle``), or of each part
    of a ``referee.bar``: it redraws the whole shape, so while changes are paced it waits its turn."""
    if isinstance(shape, displayio.Group):
        if isinstance(shape, Parts):  # asked again for the colour it has (or will have):
            if shape.color == color:  # nothing to check part by part (a turn's header,
                return  # asked at every change of the turn: 12 parts)
            shape.color = color
        for part in shape:
            set_color(part, color)
        return
    if paced:
        if shape.pixel_shader[0] != color or id(shape) in paced._last:
            paced.later(shape, None, color)  # (else as asked, nothing waits for it)
        return
    shape.pixel_shader[0] = color


def background(color=palette.BG):
    """A full-screen rectangle of ``color``, hidden while it is the background colour
    (black: the panel's own, with no layer to redraw); ``set_background`` changes it.
    (``referee.bands``: one that is redrawn a band at a time.)"""
    bg = rect(0, 0, WIDTH, HEIGHT, color)
    set_shown(bg, color != palette.BG)
    return bg


def set_background(bg, color):
    """A ``background()``'s colour; shown only when it is not the background colour."""
    set_color(bg, color)
    set_shown(bg, color != palette.BG)


def fit(s, width_px, scale):
    """``s`` cut to what fits in ``width_px`` at ``scale``."""
    n = width_px // (CHAR_W * scale)
    return s if len(s) <= n else s[: max(0, n - 1)] + "."


def ink_for(color):
    """Black or white, whichever has the higher contrast on ``color`` (WCAG's relative
    luminance, the channels squared for its curve: black above about 0.18). Every seat's
    colour takes black, so a header's text keeps its ink from one seat to the next (a
    text's new colour redraws its whole box: 6,912 px, ~58 ms on the firmware)."""
    r, g, b = palette.rgb(color)
    return palette.BLACK if 2126 * r * r + 7152 * g * g + 722 * b * b > 1790 * 65025 else palette.WHITE


def set_bar(bar, color, labels):
    """A bar made with ``rect`` turned ``color``, and the texts on it (``labels``)
    inked to read on it (``ink_for``)."""
    set_color(bar, color)
    ink = ink_for(color)
    for lb in labels:
        lb.color = ink
