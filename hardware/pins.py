"""The pin plan of the real box (Raspberry Pi Pico / Pico 2): each role's GPIO.

Everything that names a GPIO reads it from here: the device box, boot.py, the
self test, the wiring diagram and the build guide. Only the numbers go to the
box; what each pin is wired to (header pins, words for the build guide) is in
``pc/pin_plan.py``, which stays on the PC (it costs heap the box needs).
The backlight has its own GPIO (22) and a jumper to GP9: rp2pio refuses a pin
another peripheral holds, so the capture samples the reveal on GP9 as its 8th
input, in the same instruction as the buttons (hardware/README.md).
"""

# (role, GPIO) in header order
GPIOS = (
    ("P1", 2), ("P2", 3), ("P3", 4), ("P4", 5), ("P5", 6), ("P6", 7), ("P7", 8),
    ("REVEAL", 9), ("MENU", 14), ("PIEZO", 15), ("NEOPIXEL", 16), ("TFT_CS", 17),
    ("TFT_SCK", 18), ("TFT_MOSI", 19), ("TFT_DC", 20), ("TFT_RST", 21), ("TFT_LITE", 22),
)

# The display's SPI clock for each REFEREE_SPI_MHZ (hardware/device.py drives it;
# hardware/rescue.py, which runs before the settings are read, the slowest).
TFT_BAUD = {62: 62500000, 31: 31250000, 24: 24000000}

STATIONS = ("P1", "P2", "P3", "P4", "P5", "P6", "P7")
# The PIO samples these consecutive pins in one `in pins, 8`: stations, then REVEAL.
CAPTURE = STATIONS + ("REVEAL",)


def gpio(role):
    """The GPIO number: 9 for ``"REVEAL"``."""
    for r, n in GPIOS:
        if r == role:
            return n
    raise KeyError("no pin for " + str(role))


def name(role):
    """``"GP9"`` for ``"REVEAL"``: the ``board`` attribute name."""
    return "GP" + str(gpio(role))


def pin(board, role):
    """The ``board`` pin object for ``role`` (on the device)."""
    return getattr(board, name(role))
