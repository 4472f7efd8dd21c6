"""User settings from ``settings.toml`` (read with ``os.getenv``), validated.

Every setting is ``REFEREE_<NAME>``. A missing value takes the default quietly;
a bad value takes the default and leaves a message for the screen. ``getenv``
may return str (CircuitPython 10.2+), int or bool (older versions, TOML parsers).
"""

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
    ("rotation", "pick", 90, (0, 90, 180, 270), None, "display rotation in degrees (270 = upside down)"),
)


def _parse(kind, raw, low, high):
    """Returns the parsed value or raises ValueError with a reason."""
    if kind == "int":
        if isinstance(raw, bool):
            raise ValueError("not a number")
        v = raw if isinstance(raw, int) else int(str(raw).strip())
        if v < low or v > high:
            raise ValueError("out of range " + str(low) + ".." + str(high))
        return v
    if kind == "bool":
        if isinstance(raw, bool):
            return raw
        s = str(raw).strip().lower()
        if s in ("1", "true", "yes", "on"):
            return True
        if s in ("0", "false", "no", "off"):
            return False
        raise ValueError("not true/false")
    if kind == "pick":  # one of a few ints
        v = int(str(raw).strip())
        if v not in low:
            raise ValueError("not one of " + "/".join(str(c) for c in low))
        return v
    if kind == "game":  # a choice among the registry's names (given by the entry point)
        kind = "choice"
    if kind == "choice":
        s = str(raw).strip().lower()
        if s not in low:
            raise ValueError("not one of " + "/".join(low))
        return s
    if kind == "seats":
        s = str(raw).strip()
        if not s:
            return ()
        seats = []
        for part in s.split(","):
            n = int(part.strip())
            if n < 1 or n > 7:
                raise ValueError("seat " + str(n) + " is not 1..7")
            if n not in seats:
                seats.append(n)
        return tuple(seats)
    return str(raw).strip()


# names: the game registry's names, which REFEREE_GAME must be one of.
class Settings:
    def __init__(self, getenv=None, names=()):
        self.values = {}
        self.messages = []
        for name, kind, default, low, high, _doc in SPEC:
            key = "REFEREE_" + name.upper()
            value = default
            if kind == "seats":
                value = ()
            try:  # CircuitPython's getenv raises on a line it cannot parse
                raw = getenv(key) if getenv else None
            except Exception as e:
                self.messages.append(key + " unreadable in settings.toml (" + str(e) + "); using " + str(default))
                raw = None
            if raw is not None:
                try:
                    value = _parse(kind, raw, names if kind == "game" else low, high)
                except (ValueError, TypeError) as e:
                    self.messages.append(key + "=" + str(raw) + ": " + str(e) + "; using " + str(default))
            self.values[name] = value

    def __getitem__(self, name):
        return self.values[name]

    def get(self, name, default=None):
        return self.values.get(name, default)
