"""The pin plan of the real box (Raspberry Pi Pico / Pico 2), as one table.

Everything that names a GPIO reads it from here: the device box, the self test,
the wiring diagram (tools/draw_wiring.py) and the build guide. Names are the
``board`` attribute names, so the device resolves them with ``getattr(board, ...)``
and this module imports on a PC too.

Why the backlight has its own GPIO and a jumper: rp2pio refuses a pin that any
other peripheral holds (``first_in_pin``'s pins must be free, "pins are never
shared with other peripherals"), and digitalio holds the pin it drives. So the
backlight is driven by GP22 as a plain output, and a wire from the display's
backlight line (Lite) back to GP9 lets the capture state machine sample the
reveal as its 8th input, in the same instruction as the buttons.
"""

# role, board pin, Pico header pin, what is wired to it
PINS = (
    ("P1", "GP2", 4, "station 1 button, other leg to GND"),
    ("P2", "GP3", 5, "station 2 button, other leg to GND"),
    ("P3", "GP4", 6, "station 3 button, other leg to GND"),
    ("P4", "GP5", 7, "station 4 button, other leg to GND"),
    ("P5", "GP6", 9, "station 5 button, other leg to GND"),
    ("P6", "GP7", 10, "station 6 button, other leg to GND"),
    ("P7", "GP8", 11, "station 7 button, other leg to GND"),
    ("REVEAL", "GP9", 12, "jumper from the display's Lite line (GP22): the reveal sense"),
    ("MENU", "GP14", 19, "MENU button (optional), other leg to GND"),
    ("PIEZO", "GP15", 20, "piezo +, piezo - to GND"),
    ("NEOPIXEL", "GP16", 21, "74AHCT125 1A; 1Y -> 330 ohm -> ring 1 DIN"),
    ("TFT_CS", "GP17", 22, "display TCS"),
    ("TFT_SCK", "GP18", 24, "display SCK (SPI0)"),
    ("TFT_MOSI", "GP19", 25, "display MOSI (SPI0)"),
    ("TFT_DC", "GP20", 26, "display D/C"),
    ("TFT_RST", "GP21", 27, "display RST"),
    ("TFT_LITE", "GP22", 29, "display Lite (backlight on/off) and the jumper to GP9"),
)

STATIONS = ("P1", "P2", "P3", "P4", "P5", "P6", "P7")
# The PIO samples these consecutive pins in one `in pins, 8`: stations, then REVEAL.
CAPTURE = STATIONS + ("REVEAL",)

# Power and ground on the Pico header.
POWER = (
    ("VBUS", 40, "5 V from USB (only when powered by USB)"),
    ("VSYS", 39, "5 V in from the supply, through the Pico's diode"),
    ("3V3", 36, "3.3 V out: display Vin"),
    ("GND", 38, "ground (also 3, 8, 13, 18, 23, 28, 33)"),
)


def row(role):
    for r in PINS:
        if r[0] == role:
            return r
    raise KeyError("no pin for " + str(role))


def name(role):
    """``"GP9"`` for ``"REVEAL"``."""
    return row(role)[1]


def gpio(role):
    """The GPIO number: 9 for ``"REVEAL"``."""
    return int(name(role)[2:])


def pin(board, role):
    """The ``board`` pin object for ``role`` (on the device)."""
    return getattr(board, name(role))


def check():
    """The plan's own rules; returns a list of problems (empty = sound)."""
    problems = []
    numbers = [gpio(r) for r in CAPTURE]
    for a, b in zip(numbers, numbers[1:]):
        if b != a + 1:
            problems.append("capture pins are not consecutive at GP" + str(a))
    seen = {}
    for role, board_name, header, _ in PINS:
        for key in (board_name, header):
            if key in seen:
                problems.append(role + " shares " + str(key) + " with " + seen[key])
            seen[key] = role
    return problems
