"""A full-screen background of bands, for a colour change drawn a band at a time.

A shape's new colour redraws the whole shape in one refresh; a background across the
screen is 76,800 px, a second or so on the firmware. ``Bands`` is ``n`` bands across
the screen, top to bottom, and a new colour (``set``) is one change in
``referee.pace``'s queue (it has the ``_todo``/``_draw`` of a ``screen.Text``): each
band that differs is drawn at its turn, a few a loop pass. Clear while it is the
background colour (black: the panel's own). Only the reaction test's green screen uses
it, so the pace module every match loads does not carry it.
"""

import bitmaptools
import displayio

from referee import palette, screen


class Bands(displayio.Group):
    """``n`` bands across the screen in ``color`` (module doc); ``set`` changes it to
    the background's (black: the bands are clear) or one of ``colors``, the colours it
    can take. One ``TileGrid`` of ``n`` tiles a band each, a tile of its sheet a colour:
    a band's new colour is a tile written (its box redrawn), where a palette written
    would redraw them all, and one layer where 60 shapes were 60 (the firmware asks
    every layer of the screen about every part of a refresh: ~3 µs a pixel more under
    the reaction test's GO!)."""

    def __init__(self, color, n, colors=(palette.GOOD,)):
        super().__init__()
        self._colors = (palette.BG,) + tuple(colors)
        k = len(self._colors)
        h = self._h = screen.HEIGHT // n
        sheet = displayio.Bitmap(screen.WIDTH, h * k, k)
        pal = displayio.Palette(k)
        pal.make_transparent(0)
        for t in range(1, k):
            bitmaptools.fill_region(sheet, 0, t * h, screen.WIDTH, (t + 1) * h, t)
            pal[t] = self._colors[t]
        self._n = n
        self._color = color
        self._grid = displayio.TileGrid(sheet, pixel_shader=pal, width=1, height=n, tile_width=screen.WIDTH,
                                        tile_height=h, default_tile=self._colors.index(color))
        self.append(self._grid)
        self._next = 0  # the first band that may still differ
        self._todo = False  # in referee.pace's queue

    def set(self, color):
        """The background's colour (black or one of the ``colors`` it was made with):
        drawn a band at a time while changes are paced (bands already drawn in an older
        colour are looked at again), else at once."""
        self._colors.index(color)  # (ValueError: a colour it was not made for)
        self._color = color
        self._next = 0
        screen.draw_later(self)

    def colors(self):
        """Each band's colour as drawn, top to bottom."""
        g = self._grid
        return [self._colors[g[0, i]] for i in range(self._n)]

    def _draw(self, budget_px, first=True):
        # Each band that differs from the colour, from ``_next``, until about
        # ``budget_px`` pixels are drawn (the first one whatever it costs when ``first``);
        # returns the pixels drawn.
        want = self._colors.index(self._color)
        g = self._grid
        w = screen.WIDTH * self._h
        spent = 0
        n = self._n
        i = self._next
        while i < n:
            if g[0, i] != want:
                if spent + w > budget_px and (spent or not first):
                    break
                g[0, i] = want
                spent += w
            i += 1
        self._next = i
        self._todo = i < n
        return spent
