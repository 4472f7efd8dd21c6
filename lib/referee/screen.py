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

WIDTH = 320
HEIGHT = 240
CHAR_W = 6  # terminalio.FONT cell at scale 1
CHAR_H = 12


def _tile(ch):
    font = terminalio.FONT
    g = font.get_glyph(ord(ch))
    if g is None:
        g = font.get_glyph(63)  # "?"
    return g.tile_index


class Text(displayio.Group):
    """A text of up to ``cols`` x ``rows`` character cells whose ``anchor`` point
    (fractions of the text's box) sits at (x, y). ``.text`` and ``.color`` change
    it in place; a line longer than ``cols`` is cut (size ``cols`` for the longest
    text the place will show: it defaults to the screen's width)."""

    def __init__(self, s, x, y, scale=2, color=palette.TEXT, anchor=(0.0, 0.0), cols=0, rows=0):
        displayio.Group.__init__(self, scale=scale)
        lines = s.split("\n")
        if not cols:
            cols = WIDTH // (CHAR_W * scale)
            for ln in lines:
                cols = max(cols, len(ln))
        self._pal = displayio.Palette(2)
        self._pal.make_transparent(0)
        self._pal[1] = color
        self._blank = _tile(" ")
        self._grid = displayio.TileGrid(
            terminalio.FONT.bitmap, pixel_shader=self._pal, width=cols, height=max(rows, len(lines)),
            tile_width=CHAR_W, tile_height=CHAR_H, default_tile=self._blank)
        self.append(self._grid)
        self.anchor_point = anchor
        self._at = (x, y)
        self._text = None
        self._w = 0  # the current text's box in cells
        self._h = 1
        self.text = s

    @property
    def text(self):
        return self._text

    @text.setter
    def text(self, s):
        s = str(s)
        if s == self._text:
            return
        self._text = s
        grid = self._grid
        cols = grid.width
        w = 0
        row = 0
        col = 0
        for ch in s + "\n":
            if ch == "\n":
                if row < grid.height:
                    for c in range(col, cols):
                        grid[c, row] = self._blank
                w = max(w, col)
                row += 1
                col = 0
            elif col < cols and row < grid.height:
                grid[col, row] = _tile(ch)
                col += 1
        for r in range(row, grid.height):
            for c in range(cols):
                grid[c, r] = self._blank
        self._w = w
        self._h = min(row, grid.height)
        self._place()

    @property
    def color(self):
        return self._pal[1]

    @color.setter
    def color(self, c):
        self._pal[1] = c

    @property
    def anchored_position(self):
        return self._at

    @anchored_position.setter
    def anchored_position(self, xy):
        self._at = xy
        self._place()

    def set_scale(self, scale):
        self.scale = scale
        self._place()

    def _place(self):
        s = self.scale
        ax, ay = self.anchor_point
        self.x = self._at[0] - int(ax * self._w * CHAR_W * s)
        self.y = self._at[1] - int(ay * self._h * CHAR_H * s)


def text(s, x, y, scale=2, color=palette.TEXT, anchor=(0.0, 0.0), cols=0, rows=0):
    """A ``Text`` whose ``anchor`` point (fractions of its box) sits at (x, y)."""
    return Text(s, x, y, scale, color, anchor, cols, rows)


def centred(s, y, scale=2, color=palette.TEXT):
    return text(s, WIDTH // 2, y, scale, color, (0.5, 0.0))


def solid(color):
    p = displayio.Palette(1)
    p[0] = color
    return p


def rect(x, y, w, h, color):
    return vectorio.Rectangle(pixel_shader=solid(color), width=w, height=h, x=x, y=y)


def circle(x, y, r, color):
    return vectorio.Circle(pixel_shader=solid(color), radius=r, x=x, y=y)


def set_color(shape, color):
    shape.pixel_shader[0] = color


def background(color=palette.BG):
    return rect(0, 0, WIDTH, HEIGHT, color)


def fit(s, width_px, scale):
    """``s`` cut to what fits in ``width_px`` at ``scale``."""
    n = width_px // (CHAR_W * scale)
    return s if len(s) <= n else s[: max(0, n - 1)] + "."


# Pip positions on a 3x3 grid (column, row) for faces 1..6.
PIPS = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}
_SLOTS = ((0, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (2, 2))


def ink_for(color):
    """Black or white, whichever reads better on ``color``."""
    r, g, b = palette.rgb(color)
    return palette.BLACK if (r * 3 + g * 6 + b) > 1200 else palette.WHITE


class Die:
    """A die drawn with shapes: a square body, seven pip slots, a colour dot and a
    text face (for disks, numbers and jokers). ``show(...)`` changes it in place."""

    def __init__(self, x, y, size):
        self.group = displayio.Group(x=x, y=y)
        self.size = size
        self._body = rect(0, 0, size, size, palette.WHITE)
        self._inner = None  # the square inside a border, built on the first border
        self.group.append(self._body)
        r = max(2, size // 10)
        step = size // 4
        self._ink = solid(palette.BLACK)  # one palette shared by the seven pips
        self._pips = []
        for col, row in _SLOTS:
            c = vectorio.Circle(pixel_shader=self._ink, radius=r, x=step * (col + 1), y=step * (row + 1))
            self._pips.append(((col, row), c))
            self.group.append(c)
        # The colour dot (and its ring) and the caption label are built on first use,
        # in the same drawing order (pips, ring, dot, label): most dice never need them.
        self._dot = None
        self._dot_ring = None
        self._label = None
        self.show(None)

    def show(self, face, body=palette.WHITE, dot=None, border=None, caption=None):
        """``face``: pips 1..6, None (blank). ``dot``: a colour drawn as a big dot
        instead of pips. ``caption``: short text instead of pips."""
        self.group.hidden = False
        if border is not None and self._inner is None:
            self._inner = rect(2, 2, self.size - 4, self.size - 4, body)
            self.group.insert(1, self._inner)  # over the body, under the pips
        set_color(self._body, body if border is None else border)
        if self._inner is not None:  # without a border the body alone looks the same
            set_color(self._inner, body)
        ink = ink_for(body)
        lit = PIPS.get(face, ()) if (dot is None and caption is None) else ()
        self._ink[0] = ink
        for slot, c in self._pips:
            c.hidden = slot not in lit
        if dot is not None and self._dot is None:
            size = self.size
            self._dot_ring = circle(size // 2, size // 2, size // 4 + 2, palette.BLACK)
            self._dot = circle(size // 2, size // 2, size // 4, palette.BLACK)
            i = len(self.group) - (self._label is not None)  # after the pips, under the caption
            self.group.insert(i, self._dot_ring)
            self.group.insert(i + 1, self._dot)
        if self._dot is not None:
            self._dot.hidden = dot is None
            self._dot_ring.hidden = dot is None
        if dot is not None:
            set_color(self._dot, dot)
            set_color(self._dot_ring, ink)
        if caption and self._label is None:
            size = self.size
            self._label = text("", size // 2, size // 2, max(1, size // 14), palette.BLACK, (0.5, 0.5))
            self.group.append(self._label)
        if self._label is not None:
            self._label.text = caption or ""
            self._label.color = ink

    def hide(self):
        self.group.hidden = True


def texts(group, ox=0, oy=0, out=None):
    """Every visible label in ``group`` as (y, x, text), in absolute pixels."""
    if out is None:
        out = []
    if getattr(group, "hidden", False):
        return out
    gx = ox + getattr(group, "x", 0)
    gy = oy + getattr(group, "y", 0)
    for item in group:
        if getattr(item, "hidden", False):
            continue
        if hasattr(item, "text") and hasattr(item, "anchored_position"):
            if item.text:
                out.append((gy + item.y, gx + item.x, item.text))
        elif isinstance(item, displayio.Group):
            texts(item, gx, gy, out)
    return out


def screen_text(group):
    """The labels of ``group`` top to bottom, left to right, one per line."""
    items = texts(group)
    items.sort()
    return "\n".join(t for _, _, t in items)
