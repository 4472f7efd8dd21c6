"""When code.py cannot import the box: a library missing from CIRCUITPY, or a file
that does not load (an ``.mpy`` compiled for another CircuitPython: ValueError).

It says so three ways, with only modules built into the firmware (the display
library, or the project's own ``lib/referee``, may be the one missing):

* on the screen, big enough to read across the table: the missing library's
  name and how to put it back. The display (``REFEREE_DISPLAY``: the ST7789 or
  the ILI9341) is driven by the firmware's own ``busdisplay`` and ``fourwire``
  with the init sequence its library sends (copied here: that library may be
  the missing one); text is tiles of
  the built-in terminal font, as ``referee.screen`` draws it (that module may
  be missing too);
* on serial (every 10 s);
* every ring blinks red.

Building the screen can fail (no display module, a pin in use): then serial and
the rings still say it. Nothing here raises.
"""

import os
import time

import board
import digitalio
import neopixel_write

from hardware import pins

RED = b"\x00\x28\x00"  # GRB, dim: the rings' power budget
WIDTH = 320
HEIGHT = 240
# adafruit_st7789's init sequence, with its defaults (bgr=True, invert=True)
INIT = (
    b"\x01\x80\x96"  # SWRESET, 150 ms
    b"\x11\x80\xff"  # SLPOUT, 500 ms
    b"\x3a\x81\x55\x0a"  # COLMOD 16-bit, 10 ms
    b"\x36\x01\x08"  # MADCTL
    b"\x13\x80\x0a"  # NORON, 10 ms
    b"\x29\x80\xff"  # DISPON, 500 ms
    b"\x36\x01\xc0"  # MADCTL: default rotation, BGR
    b"\x21\x00"  # INVON
)
# adafruit_ili9341's init sequence, with its defaults (bgr=False, invert=False); its
# controller turns the picture to landscape itself (MADCTL MV), so the box's 90 is its 0
INIT_ILI9341 = (
    b"\x01\x80\x80"  # SWRESET, 128 ms
    b"\xef\x03\x03\x80\x02"
    b"\xcf\x03\x00\xc1\x30"
    b"\xed\x04\x64\x03\x12\x81"
    b"\xe8\x03\x85\x00\x78"
    b"\xcb\x05\x39\x2c\x00\x34\x02"
    b"\xf7\x01\x20"
    b"\xea\x02\x00\x00"
    b"\xc0\x01\x23"  # power control
    b"\xc1\x01\x10"
    b"\xc5\x02\x3e\x28"  # VCM control
    b"\xc7\x01\x86"
    b"\x37\x01\x00"  # vertical scroll zero
    b"\x3a\x01\x55"  # COLMOD 16-bit
    b"\xb1\x02\x00\x18"  # frame rate
    b"\xb6\x03\x08\x82\x27"  # display function control
    b"\xf2\x01\x00"
    b"\x26\x01\x01"  # gamma curve
    b"\xe0\x0f\x0f\x31\x2b\x0c\x0e\x08\x4e\xf1\x37\x07\x10\x03\x0e\x09\x00"
    b"\xe1\x0f\x00\x0e\x14\x03\x11\x07\x31\xc1\x48\x08\x0f\x0c\x31\x36\x0f"
    b"\x11\x80\x78"  # SLPOUT, 120 ms
    b"\x29\x80\x78"  # DISPON, 120 ms
    b"\x36\x01\x38"  # MADCTL: landscape
)
BACK = 0x400000  # dark red
INK = 0xFFFFFF
NAME_INK = 0xFFE000  # yellow
_KEPT = []  # the backlight's pin: kept, so the light stays on (C objects take no new attributes)


def missing(e):
    """The module an ImportError names ("no module named 'x'" -> "x")."""
    name = getattr(e, "name", None)  # CPython's; CircuitPython's only says it in the message
    if name:
        return name
    msg = str(e)
    q = msg.find("'")
    if q >= 0 and msg.find("'", q + 1) > q:
        return msg[q + 1:msg.find("'", q + 1)]
    return msg


LIBRARY = ("missing library", ("copy it to", "CIRCUITPY/lib:"))
FILES = ("copy the files", "again:")  # a file there does not load: all of them again, for this firmware


def what(e):
    """(the problem in a few words, the name or message to show, what to do) for
    exception ``e``."""
    if isinstance(e, ImportError):
        return LIBRARY[0], missing(e), LIBRARY[1]
    msg = str(e)
    if "mpy" in msg:  # "incompatible .mpy file": compiled for another CircuitPython
        return "old .mpy files", msg, FILES
    return "a file does not load", type(e).__name__ + ": " + msg, FILES


def lines_for(problem, name, advice):
    """[(text, scale, colour)] of the screen, top to bottom: the name at scale 3,
    or 2 when it is long, in as many lines as it needs (two at most, cut after)."""
    out = [("Referee Box", 2, INK), ("cannot start:", 2, INK), (problem, 2, INK)]
    scale = 3 if len(name) <= WIDTH // 18 else 2
    cols = WIDTH // (6 * scale)
    parts = []
    rest = name
    while len(rest) > cols:  # broken after a "." or "_" where there is one
        cut = max(rest.rfind(".", cols // 2, cols), rest.rfind("_", cols // 2, cols)) + 1 or cols
        parts.append(rest[:cut])
        rest = rest[cut:]
    parts.append(rest)
    if len(parts) > 2:
        parts = parts[:2]
        parts[1] = parts[1][:cols - 2] + ".."
    for p in parts:
        out.append((p, scale, NAME_INK))
    for line in advice + ("tools/deploy.py",):
        out.append((line, 2, INK))
    return out


def screen(problem, name, advice=LIBRARY[1]):
    """The screen's root group (built-in modules only)."""
    import displayio
    import terminalio

    font = terminalio.FONT
    root = displayio.Group()
    bg = displayio.Palette(1)
    bg[0] = BACK
    fill = displayio.Group(scale=10)  # a 32x24 bitmap scaled up: 96 bytes, not 9.6 KB
    fill.append(displayio.TileGrid(displayio.Bitmap(WIDTH // 10, HEIGHT // 10, 1), pixel_shader=bg))
    root.append(fill)
    rows = lines_for(problem, name, advice)
    y = 6
    gap = (HEIGHT - 12 - sum(12 * s for _t, s, _c in rows)) // (len(rows) - 1)
    for text, scale, colour in rows:
        pal = displayio.Palette(2)
        pal.make_transparent(0)
        pal[1] = colour
        grid = displayio.TileGrid(font.bitmap, pixel_shader=pal, width=max(1, len(text)), height=1,
                                  tile_width=6, tile_height=12)
        for i, ch in enumerate(text):
            g = font.get_glyph(ord(ch)) or font.get_glyph(63)
            grid[i, 0] = g.tile_index
        group = displayio.Group(scale=scale, x=(WIDTH - 6 * scale * len(text)) // 2, y=y)
        group.append(grid)
        root.append(group)
        y += 12 * scale + gap
    return root


def show(said, getenv=os.getenv):
    """Light the display with the screen ``said`` (``what()``'s three parts); the
    display, or None if it could not be built (said on serial)."""
    try:
        import busio
        import displayio

        try:
            from fourwire import FourWire  # CircuitPython 9+
        except ImportError:
            from displayio import FourWire
        try:
            from busdisplay import BusDisplay  # CircuitPython 9+
        except ImportError:
            from displayio import Display as BusDisplay
        try:
            rotation = int(getenv("REFEREE_ROTATION") or 90)
        except (TypeError, ValueError):
            rotation = 90
        if rotation not in (90, 270):
            rotation = 90
        try:
            panel = str(getenv("REFEREE_DISPLAY") or "").strip().lower()
        except Exception:  # a line getenv cannot parse: the default panel
            panel = ""
        init = INIT
        if panel == "ili9341":
            init, rotation = INIT_ILI9341, (rotation + 270) % 360
        displayio.release_displays()
        spi = busio.SPI(pins.pin(board, "TFT_SCK"), MOSI=pins.pin(board, "TFT_MOSI"))
        bus = FourWire(spi, command=pins.pin(board, "TFT_DC"), chip_select=pins.pin(board, "TFT_CS"),
                       reset=pins.pin(board, "TFT_RST"), baudrate=pins.TFT_BAUD[24])
        display = BusDisplay(bus, init, width=WIDTH, height=HEIGHT, rotation=rotation, auto_refresh=False)
        display.root_group = screen(*said)
        display.refresh()
        lite = digitalio.DigitalInOut(pins.pin(board, "TFT_LITE"))
        lite.switch_to_output(value=True)
        _KEPT.append(lite)
        return display
    except Exception as e:  # no screen to say it on: serial and the rings still do
        print("rescue: no screen (" + repr(e) + ")")
        return None


def run(e, blinks=None, sleep=time.sleep, getenv=os.getenv):
    """Say what is wrong and blink; ``blinks``: stop after that many (None: for ever)."""
    said = what(e)
    problem, name, advice = said
    text = "Referee Box cannot start: " + problem + ": " + name + " (" + " ".join(advice) + " python tools/deploy.py)"
    print(text)
    display = show(said, getenv)
    pin = digitalio.DigitalInOut(pins.pin(board, "NEOPIXEL"))
    pin.direction = digitalio.Direction.OUTPUT
    on = RED * (7 * 12)
    off = bytes(len(on))
    n = 0
    while blinks is None or n < blinks:
        if n % 10 == 9:
            print(text)
        neopixel_write.neopixel_write(pin, on)
        sleep(0.5)
        neopixel_write.neopixel_write(pin, off)
        sleep(0.5)
        n += 1
    print("blinked", n)
    return display
