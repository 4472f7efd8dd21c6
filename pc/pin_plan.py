"""PC only: the pin plan in words, for the wiring diagram, the build guide and tests.

The GPIO numbers come from ``hardware/pins.py`` (the one table the box reads);
this adds the Pico header pin and what is wired to each, which the box never
shows and so never carries.
"""

from hardware import pins

# role -> (Pico header pin, what is wired to it)
_WORDS = {
    "P1": (4, "station 1 button, other leg to GND"),
    "P2": (5, "station 2 button, other leg to GND"),
    "P3": (6, "station 3 button, other leg to GND"),
    "P4": (7, "station 4 button, other leg to GND"),
    "P5": (9, "station 5 button, other leg to GND"),
    "P6": (10, "station 6 button, other leg to GND"),
    "P7": (11, "station 7 button, other leg to GND"),
    "REVEAL": (12, "jumper from the display's Lite line (GP22): the reveal sense"),
    "MENU": (19, "MENU button (optional), other leg to GND"),
    "PIEZO": (20, "piezo +, piezo - to GND"),
    "NEOPIXEL": (21, "74AHCT125 1A; 1Y -> 330 ohm -> ring 1 DIN"),
    "TFT_CS": (22, "display TCS"),
    "TFT_SCK": (24, "display SCK (SPI0)"),
    "TFT_MOSI": (25, "display MOSI (SPI0)"),
    "TFT_DC": (26, "display D/C"),
    "TFT_RST": (27, "display RST"),
    "TFT_LITE": (29, "display Lite (backlight on/off) and the jumper to GP9"),
}

# role, board pin, Pico header pin, what is wired to it
PINS = tuple((role, pins.name(role)) + _WORDS[role] for role, _gp in pins.GPIOS)

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


def check():
    """The plan's own rules; returns a list of problems (empty = sound)."""
    problems = []
    numbers = [pins.gpio(r) for r in pins.CAPTURE]
    for a, b in zip(numbers, numbers[1:]):
        if b != a + 1:
            problems.append("capture pins are not consecutive at GP" + str(a))
    seen = {}
    for role, board_name, header, _ in PINS:
        for key in (board_name, header):
            if key in seen:
                problems.append(role + " shares " + str(key) + " with " + seen[key])
            seen[key] = role
    if set(_WORDS) != set(r for r, _gp in pins.GPIOS):
        problems.append("pin_plan words and pins.GPIOS name different roles")
    return problems
