"""Stand-in for CircuitPython's ``terminalio`` inside the MicroPython VM (tests only):
FONT answers with the built-in font's metrics (6x12 cells), tile i = code point 32 + i
of its sprite sheet ``bitmap`` (on the device in flash; here a size with no pixels)."""


class Glyph:
    def __init__(self, tile_index):
        self.bitmap = None
        self.tile_index = tile_index
        self.width = 6
        self.height = 12
        self.dx = 0
        self.dy = -2
        self.shift_x = 6
        self.shift_y = 0


class _Sheet:
    width = 6 * 95
    height = 12


class _BuiltinFont:
    bitmap = _Sheet()

    def get_bounding_box(self):
        return (6, 12)

    def get_glyph(self, codepoint):
        if 0x20 <= codepoint < 0x7F:
            return Glyph(codepoint - 0x20)
        return None


FONT = _BuiltinFont()
