"""The one palette: station colours, dice colours, UI colours (0xRRGGBB)."""

BLACK = 0x000000
WHITE = 0xFFFFFF
# The screens' background is black: the panel shows black where no layer is, so a
# black background needs no full-screen layer (the firmware renders every layer under
# every redrawn pixel; a full-screen one costs a whole redraw ~180 ms on a Pico).
BG = 0x000000
PANEL = 0x223344
TEXT = 0xFFFFFF
DIM = 0x8899AA
GOOD = 0x30D050
BAD = 0xFF3030
WARN = 0xFFC020
ACCENT = 0x40A0FF

# One colour per station P1..P7, chosen to be told apart across a table. P3's green
# leans a little to blue (was 0x20D040) so that protanopes and deuteranopes tell it
# from P4's yellow and P2's red better; pairs no palette of seven separates for them
# carry the seat number on screen (REFEREE_COLOUR_CUES, tests/test_colour_blind.py).
STATIONS = (0x2080FF, 0xFF4020, 0x10C060, 0xFFD000, 0xC040FF, 0x00D0D0, 0xFF70B0)

# Dice colours by name (Würfelblitz, Flyer).
DICE = {
    "orange": 0xFF8000,
    "blue": 0x2050FF,
    "black": 0x202020,
    "yellow": 0xFFE000,
    "green": 0x10B030,
    "red": 0xE01010,
    "white": 0xF0F0F0,
    "purple": 0x9030D0,
}


def station(player):
    """Colour of station ``player`` (1-based)."""
    return STATIONS[(player - 1) % len(STATIONS)]


def scale(color, num, den=255):
    """``color`` with each channel multiplied by num/den (integers only)."""
    r = ((color >> 16) & 0xFF) * num // den
    g = ((color >> 8) & 0xFF) * num // den
    b = (color & 0xFF) * num // den
    return (r << 16) | (g << 8) | b


def rgb(color):
    """``color`` as its (r, g, b) channels, 0..255 each."""
    return ((color >> 16) & 0xFF, (color >> 8) & 0xFF, color & 0xFF)
