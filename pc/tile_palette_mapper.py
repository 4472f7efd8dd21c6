"""PC only: CircuitPython's ``tilepalettemapper`` module for Blinka's displayio, which has none.

On the firmware a ``TilePaletteMapper`` gives each tile of the ``TileGrid`` it is made
for its own mapping from the bitmap's colour indices to the palette's: a text
(an inked ``referee.screen.Text``) changes its colour a few cells at a time that way. Blinka's
``TileGrid`` draws with a ``Palette`` only, so this mapper is one: its colours are the
palette's at the last mapping written, every tile drawn with them. What it keeps from
the firmware: a mapping is a list (the firmware refuses a tuple), its values inside the
palette, its index inside the grid, a mapper bound to the one grid made with it. What it does not
keep: while a text is between two colours the PC draws every glyph in the newer one
(on the box the cells not moved yet keep the older colour for a pass or two); the
colours a palette takes behind a mapper are drawn on the PC at once, on the box only in
the tiles mapped again (an inked ``referee.screen.Text`` maps again every cell with a glyph).
``install()`` makes ``import tilepalettemapper`` find it.
"""

import importlib.machinery
import sys
import types

from displayio._palette import Palette
from displayio._tilegrid import TileGrid


class TilePaletteMapper(Palette):
    """Per-tile colour mappings over ``pixel_shader`` (a ``displayio.Palette``), drawn on
    the PC with the last mapping written (see the module's docstring)."""

    def __init__(self, pixel_shader, input_color_count):
        super().__init__(input_color_count)
        self._shader = pixel_shader
        self._count = input_color_count
        self._size = None  # (width, height) of the grid, once known
        self._map = list(range(input_color_count))
        self._copy()

    @property
    def pixel_shader(self):
        """The palette the mappings index."""
        return self._shader

    def _copy(self):
        # its own colours: the shader's at the mapping
        for i, j in enumerate(self._map):
            Palette.__setitem__(self, i, self._shader[j])
            if self._shader.is_transparent(j):
                self.make_transparent(i)
            else:
                self.make_opaque(i)

    def _bind(self, grid):
        # a TileGrid made with it (install()'s wrap of Blinka's TileGrid.__init__)
        if self._size is not None:
            raise RuntimeError("TilePaletteMapper may only be bound to a TileGrid once")
        self._size = (grid.width, grid.height)

    def __setitem__(self, index, value):
        """Map tile ``index`` (``(x, y)`` or ``y * width + x``): ``value`` a list of
        palette indices, one per input colour."""
        if type(value) is not list:
            raise TypeError("a mapping is a list (the firmware misreads a tuple)")
        if len(value) > self._count:
            raise ValueError("mapping_length must be 0-%d" % self._count)
        for v in value:
            if not 0 <= v < len(self._shader):
                raise ValueError("mapping_value must be 0-%d" % (len(self._shader) - 1))
        if self._size is not None:
            w, h = self._size
            x, y = index if type(index) is tuple else (index % w, index // w)
            if not (0 <= x < w and 0 <= y < h):
                raise IndexError("Tile index out of bounds")
        self._map[:len(value)] = value
        self._copy()


def install():
    """Idempotent: ``import tilepalettemapper`` finds this module's mapper, and a
    ``TileGrid`` made with one binds it (as the firmware's constructor does)."""
    if getattr(TileGrid.__init__, "_binds", False) is False:
        blinka_init = TileGrid.__init__

        def init(self, bitmap, *, pixel_shader, **kw):
            blinka_init(self, bitmap, pixel_shader=pixel_shader, **kw)
            if isinstance(pixel_shader, TilePaletteMapper):
                pixel_shader._bind(self)

        init._binds = True
        TileGrid.__init__ = init
    if "tilepalettemapper" not in sys.modules:
        m = types.ModuleType("tilepalettemapper")
        m.__spec__ = importlib.machinery.ModuleSpec("tilepalettemapper", None)  # (find_spec reads it)
        m.__doc__ = "CircuitPython's tilepalettemapper on the PC (pc/tile_palette_mapper.py)."
        m.TilePaletteMapper = TilePaletteMapper
        sys.modules["tilepalettemapper"] = m
