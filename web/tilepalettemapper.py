"""CircuitPython's ``tilepalettemapper`` in the browser (Pyodide): per-tile colour mappings.

The page draws a grid with one list of colours (``displayio.TileGrid``'s command), so
this mapper gives the palette's colours at the last mapping written to every tile: while
a text (an inked ``referee.screen.Text``) is between two colours the page shows every glyph in the
newer one, where the box moves them a few cells a pass.
"""

import displayio


class TilePaletteMapper(displayio.Palette):
    """Per-tile colour mappings over ``pixel_shader``, drawn with the last one written."""

    def __init__(self, pixel_shader, input_color_count):
        super().__init__(input_color_count)
        self.pixel_shader = pixel_shader
        self._map = list(range(input_color_count))

    def __setitem__(self, index, value):
        # (the firmware's rules on a mapping are checked on the PC: pc/tile_palette_mapper.py)
        self._map[:len(value)] = value
        displayio.changed()

    def colors(self):
        """The palette's colours at the last mapping (CLEAR where transparent)."""
        src = self.pixel_shader.colors()
        return [src[j] for j in self._map]
