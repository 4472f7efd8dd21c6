"""PC only: the real displayio tree rendered into an off-screen pygame surface.

One display at a time (Blinka's rule), so the module keeps a single instance.
Used headless for PNG snapshots and by the window, which scales it up and draws
the rings around it.
"""

import os

os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import busdisplay  # noqa: E402
import pygame  # noqa: E402
from blinka_displayio_pygamedisplay import PyGameDisplay  # noqa: E402

from pc import env as pc_env  # noqa: E402, F401  (before Blinka: no board warnings)

WIDTH = 320
HEIGHT = 240


class OffscreenDisplay(PyGameDisplay):
    def _initialize(self, init_sequence):
        if not pygame.get_init():
            pygame.init()
        self._pygame_screen = pygame.Surface((self.width, self.height))

    def _refresh_display(self):
        busdisplay.BusDisplay._refresh_display(self)
        self._refresh_pending = False

    def _get_refresh_areas(self):
        # The whole screen, but only when something changed (the surface keeps the
        # last frame). Partial areas are not used: PyGameDisplay's converter fails
        # on areas with an odd number of pixels.
        if busdisplay.BusDisplay._get_refresh_areas(self):
            return [self._core.area]
        return []

    def _release(self):
        self._pygame_screen = None


_display = [None]


def display():
    if _display[0] is None:
        _display[0] = OffscreenDisplay(width=WIDTH, height=HEIGHT, auto_refresh=False)
    return _display[0]


OFF = (0, 0, 0)  # an IPS panel with its backlight off: black, nothing readable


def render(group, backlight=True):
    """A pygame Surface with ``group`` drawn. With the backlight off the panel
    is black, as on the box: what is drawn in the dark (the stimulus, drawn
    before the reveal) must not be readable early in the window either."""
    d = display()
    if d.root_group is not group:
        d.root_group = group
    d.refresh()
    surf = d._pygame_screen.copy()
    if not backlight:
        surf.fill(OFF)
    return surf
