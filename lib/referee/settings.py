"""User settings from ``settings.toml`` (read with ``os.getenv``), validated.

The one checker of settings, on the device and on the PC. Every setting is
``REFEREE_<NAME>``. A missing value takes the default quietly; a bad value takes
the default and leaves a message in ``messages``, written for the people at the
table (no Python error text), which the app shows on screen page by page.
``getenv`` may return str (CircuitPython 10.2+), int or bool (older versions,
TOML parsers), or raise on a line it cannot parse.
"""

from referee.core import Values

# name: (kind, default, low/choices, high, what it does)
SPEC = (
    ("players", "int", 4, 2, 7, "seats at the table (2-7)"),
    ("bots", "seats", "", None, None, "seats the box plays, e.g. \"2,3\""),
    ("game", "game", "reaction", None, None, "game the launcher starts on (a name in games/__init__.py)"),
    ("tie_window_ms", "int", 0, 0, 50, "presses this close to the first also win (0 = strictly first)"),
    ("min_reaction_ms", "int", 0, 0, 200, "faster than this after the reveal = false start (0 = off; athletics uses 100)"),
    ("brightness", "int", 25, 1, 100, "ring brightness cap in percent (power budget)"),
    ("sound", "bool", True, None, None, "piezo on/off"),
    ("answer", "choice", "call", ("call", "tap"), None, "Wurfelblitz answer mode"),
    ("whites", "int", 2, 2, 3, "Wurfelblitz white dice"),
    ("limit_s", "pick", 30, (5, 10, 15, 20, 30, 45, 60, 90, 120), None, "seconds before a race round nobody wins is void"),
    ("capture", "choice", "auto", ("auto", "pio", "keypad"), None, "press capture backend"),
    ("menu_button", "bool", True, None, None, "a MENU button is fitted (GP14)"),
    # 0 and 180 would turn the 320x240 panel portrait: the firmware's screens garble
    ("rotation", "pick", 90, (90, 270), None, "display rotation in degrees: 90, or 270 = upside down"),
    ("colour_cues", "bool", False, None, None, "a second cue beside every colour: letters on dice, seat numbers"),
    # the recommended panel is the larger ILI9341 (2.8" or 3.2"); a missing key keeps the
    # 2.0" ST7789 every box built before had (deploy keeps an existing settings.toml)
    ("display", "choice", "st7789", ("ili9341", "st7789"), None, "display: ili9341 (3.2\"/2.8\", recommended) or st7789 (2.0\")"),
    ("spi_mhz", "pick", 62, (62, 31, 24), None, "display SPI clock in MHz: 62 redraws fastest; 31 or 24 if the screen shows noise"),
)

SHOWN = 14  # characters of a bad value quoted in its message


def shown(raw):
    """A bad value as a message quotes it: printable ASCII, cut to SHOWN."""
    s = str(raw)
    out = ""
    for ch in s[:SHOWN]:
        out += ch if " " <= ch <= "~" else "?"
    if len(s) > SHOWN:
        out += ".."
    return "\"" + out + "\""


def said(kind, value):
    """A default as the message names it."""
    if kind == "bool":
        return "on" if value else "off"
    if kind == "seats":
        return "none" if not value else ",".join(str(v) for v in value)
    return str(value)


def whole(s):
    """The int ``s`` spells (an optional sign, then digits only), or None."""
    s = s.strip()
    digits = s[1:] if s[:1] in ("+", "-") else s
    if not digits:
        return None
    for ch in digits:
        if not "0" <= ch <= "9":
            return None
    if len(digits) > 9:  # out of every range; int() of thousands of digits is slow
        return -1000000000 if s[0] == "-" else 1000000000
    return int(s)


def _parse(kind, raw, low, high):
    """Returns the parsed value or raises ValueError with a reason in plain words."""
    if kind == "int" or kind == "pick":
        return _number(kind, raw, low, high)
    if kind == "bool":
        return _switch(raw)
    if kind == "seats":
        return _seats(str(raw).strip())
    s = str(raw).strip()
    if kind == "game" and s.lower() not in low:  # a name of the registry (given by the entry point)
        raise ValueError("no such game here; the games: " + ", ".join(low))
    if kind == "choice" and s.lower() not in low:
        raise ValueError("must be " + " or ".join(low))
    return s.lower() if kind in ("game", "choice") else s


def _number(kind, raw, low, high):
    # "int": a whole number low..high; "pick": one of the few ints in ``low``
    v = None if isinstance(raw, bool) else (raw if isinstance(raw, int) else whole(str(raw)))
    if kind == "pick":
        if v not in low:
            raise ValueError("must be " + ", ".join(str(c) for c in low))
        return v
    if v is None:
        raise ValueError("not a whole number " + str(low) + "-" + str(high))
    if v < low or v > high:
        raise ValueError("must be " + str(low) + "-" + str(high))
    return v


def _switch(raw):
    if isinstance(raw, bool):
        return raw
    s = str(raw).strip().lower()
    if s in ("1", "true", "yes", "on"):
        return True
    if s in ("0", "false", "no", "off"):
        return False
    raise ValueError("must be 1 (on) or 0 (off)")


def _seats(s):
    # "2,3": the seats the box plays (each once, 1-7); "" is nobody
    seats = []
    for part in s.split(",") if s else ():
        n = whole(part)
        if n is None or n < 1 or n > 7:
            raise ValueError("must be seats 1-7, e.g. 2,3")
        if n not in seats:
            seats.append(n)
    return tuple(seats)


def line_of(why):
    """The line number a parser's message ``why`` names ("... at line 3 ..."), else 0."""
    at = why.find("line ")
    n = ""
    if at >= 0:
        for ch in why[at + 5:]:
            if not "0" <= ch <= "9":
                break
            n += ch
    return int(n) if n else 0


def toml_problem(why, hint="a quote or = missing?"):
    """The message for a settings.toml that cannot be read at all (the PC's
    parser gives up on the whole file); ``why`` is the parser's text, of which
    only the line number is kept; ``hint``: what is likely wrong."""
    n = line_of(why)
    line = " at line " + str(n) if n else ""
    return "settings.toml cannot be read" + line + " (" + hint + "); every setting takes its default"


class Settings(Values):
    """Every setting of SPEC read with ``getenv`` and checked (module doc): ``values``
    by name, ``messages`` for the table. ``names``: the game registry's names, which
    REFEREE_GAME must be one of; ``notes``: messages found before (e.g. settings.toml
    unreadable), shown first; ``keys``: every REFEREE_* key the file has, where the
    reader can list them (the PC): a key that is no setting (a typo) gets a message too."""

    def __init__(self, getenv=None, names=(), notes=(), keys=()):
        super().__init__({}, list(notes))
        unreadable = []
        for name, kind, default, low, high, _doc in SPEC:
            key = "REFEREE_" + name.upper()
            value = default
            if kind == "seats":
                value = ()
            try:  # CircuitPython's getenv raises on a line it cannot parse
                raw = getenv(key) if getenv else None
            except Exception:
                unreadable.append(key)
                raw = None
            if raw is not None:
                try:
                    value = _parse(kind, raw, names if kind == "game" else low, high)
                except ValueError as e:
                    self.messages.append(key + "=" + shown(raw) + ": " + str(e) + "; using " + said(kind, value))
            self.values[name] = value
        if unreadable:
            self.messages.append(
                "settings.toml: a line cannot be read; defaults used for " + ", ".join(unreadable)
            )
        known = ["REFEREE_" + s[0].upper() for s in SPEC]
        for key in keys:
            if key.startswith("REFEREE_") and key not in known:
                self.messages.append(key + " is not a setting (a typo?): ignored")

