"""Bringing the box up: its drivers built from the pin plan and the settings, once.

``hardware.device.Device()`` imports this module, calls ``build`` and forgets it
(``referee.core.forget``): the code that runs only at boot is not kept in the heap for
the rest of the run, where every game's room is counted (docs/memory.md).
"""

import board
import busio
import digitalio
import displayio
import keypad
import microcontroller
import supervisor

try:
    import rp2pio  # noqa: F401  (only to know whether this board has PIO)

    HAVE_PIO = True
except ImportError:
    HAVE_PIO = False

try:
    from fourwire import FourWire  # CircuitPython 9+
except ImportError:  # CircuitPython 8
    from displayio import FourWire

import games
from hardware import keypad_capture, pins, pio_capture
from hardware.device import STATIONS, WATCHDOG_S, DeviceBox, Piezo, Strip
from referee.app import App
from referee.core import Values, forget
from referee.gestures import MENU
from referee.rings import PER_RING
from referee.settings import Settings


def panel_driver(name, rotation):
    """(the display class, its displayio rotation) for ``REFEREE_DISPLAY`` = ``name`` and
    ``REFEREE_ROTATION`` = ``rotation`` (90 = as the build guide mounts it, 270 = upside
    down). The ST7789 is a portrait controller that displayio turns to landscape (90);
    the ILI9341's driver sets landscape in the controller itself (MADCTL), so 90 is its
    0. Imports only that panel's library: a missing one raises ImportError (``main``
    says so on the screen)."""
    if name == "ili9341":
        import adafruit_ili9341

        return adafruit_ili9341.ILI9341, (rotation + 270) % 360
    import adafruit_st7789

    return adafruit_st7789.ST7789, rotation


def build(dev, getenv):
    """Give ``dev`` (a ``hardware.device.Device`` whose ``clock`` is set) its settings,
    display, ``box`` (a ``DeviceBox`` over every driver), ``app`` and ``watchdog``."""
    clock = dev.clock
    # the values kept, the reader forgotten: its code and table were ~3 KB of the heap of
    # every match and of the launcher
    read = Settings(getenv, games.names())
    dev.settings = s = Values(read.values, read.messages)
    read = None
    forget("referee.settings")
    messages = s.messages
    driver, rotation = panel_driver(s["display"], s["rotation"])
    dev.panel = s["display"]

    displayio.release_displays()  # a soft reload keeps the last run's display
    spi = busio.SPI(pins.pin(board, "TFT_SCK"), MOSI=pins.pin(board, "TFT_MOSI"))
    bus = FourWire(
        spi,
        command=pins.pin(board, "TFT_DC"),
        chip_select=pins.pin(board, "TFT_CS"),
        reset=pins.pin(board, "TFT_RST"),
        baudrate=pins.TFT_BAUD[s["spi_mhz"]],
    )
    dev.display = driver(bus, width=320, height=240, rotation=rotation, auto_refresh=False)
    lite = digitalio.DigitalInOut(pins.pin(board, "TFT_LITE"))
    lite.switch_to_output(value=True)

    pixels = Strip(pins.pin(board, "NEOPIXEL"), STATIONS * PER_RING, brightness=s["brightness"] / 100, auto_write=False)
    piezo = Piezo(pins.pin(board, "PIEZO"))

    want = s["capture"]
    use_pio = HAVE_PIO and want in ("auto", "pio")
    if want == "pio" and not HAVE_PIO:
        messages.append("REFEREE_CAPTURE=pio: this board has no PIO; using keypad (ms precision)")
    menu_pins = [pins.pin(board, "MENU")] if s["menu_button"] else []
    if use_pio:
        sm = pio_capture.make_state_machine(pins.pin(board, "P1"))
        # t0 read after the SM started: no edge is stamped before it happened, so
        # every edge stamped up to settle(now) is in (docs/capture.md)
        capture = pio_capture.PioCapture(sm, STATIONS, t0_ns=clock(), clock=clock)
        # one PIO sample: 48 ns at 125 MHz, 40 ns at 150 MHz
        capture.precision_ns = pio_capture.CYCLES_PER_SAMPLE * 1000000000 // sm.frequency
        menu = None
        if menu_pins:
            menu = _keys(menu_pins, (MENU,), 0.005, clock)
        name = "pio"
    else:
        station_pins = [pins.pin(board, r) for r in pins.STATIONS]
        players = tuple(range(1, STATIONS + 1)) + ((MENU,) if menu_pins else ())
        capture = _keys(station_pins + menu_pins, players, keypad_capture.INTERVAL_S, clock)
        menu = None
        name = "keypad"
    dev.box = DeviceBox(pixels, piezo, dev.display, lite, capture, menu, clock, s, name)
    dev.box.log("Referee Box: capture " + name + ", " + str(STATIONS) + " stations, display " + dev.panel)
    # after the fresh start that follows a match, the settings notice was seen already
    again = supervisor.runtime.run_reason == supervisor.RunReason.SUPERVISOR_RELOAD
    # logs every settings message, shows them first (not again after a fresh start)
    dev.app = App(dev.box, s, games, catch_errors=True, notice=not again, after_match=again)
    dev.watchdog = microcontroller.watchdog
    from watchdog import WatchDogMode

    dev.watchdog.timeout = WATCHDOG_S
    dev.watchdog.mode = WatchDogMode.RESET
    dev.watchdog.feed()


def _keys(pin_list, players, interval, clock):
    keys = keypad.Keys(pin_list, value_when_pressed=False, pull=True, interval=interval)
    return keypad_capture.KeypadCapture(keys, players, supervisor.ticks_ms, clock, keypad.Event())
