"""A full-screen background of bands, for a colour change drawn a band at a time.

A shape's new colour redraws the whole shape in one refresh; a background across the
screen is 76,800 px, a second or so on the firmware. ``Bands`` is ``n`` rectangles
across the screen, top to bottom, and a new colour (``set``) is one change in
``referee.pace``'s queue (it has the ``_todo``/``_draw`` of a ``screen.Text``): each
band that differs is drawn at its turn, a few a loop pass. Hidden while it is the
background colour (black: the panel's own). Only the reaction test's green screen uses
it, so the pace module every match loads does not carry it.
"""

import displayio

from referee import palette, screen


class Bands(displayio.Group):
    """``n`` bands across the screen in ``color`` (module doc); ``set`` changes it."""

    def __init__(self, color, n):
        super().__init__()
        show = color != palette.BG
        for i in range(n):
            y = i * screen.HEIGHT // n
            band = screen.rect(0, y, screen.WIDTH, (i + 1) * screen.HEIGHT // n - y, color)
            band.hidden = not show
            self.append(band)
        self._color = color
        self._next = 0  # the first band that may still differ
        self._todo = False  # in referee.pace's queue

    def set(self, color):
        """The background's colour: drawn a band at a time while changes are paced
        (bands already drawn in an older colour are looked at again), else at once."""
        self._color = color
        self._next = 0
        screen.draw_later(self)

    def _draw(self, budget_px, first=True):
        # Each band that differs from the colour, from ``_next``, until about
        # ``budget_px`` pixels are drawn (the first one whatever it costs when ``first``);
        # returns the pixels drawn.
        color = self._color
        show = color != palette.BG
        spent = 0
        n = len(self)
        i = self._next
        while i < n:
            band = self[i]
            if band.pixel_shader[0] != color or band.hidden == show:
                w = band.width * band.height
                if spent + w > budget_px and (spent or not first):
                    break
                band.pixel_shader[0] = color
                band.hidden = not show
                spent += w
            i += 1
        self._next = i
        self._todo = i < n
        return spent
