"""What the box keeps between matches: the last table (the launcher's "Play again"),
the wins per seat since the box was switched on, and the rings' brightness and the
sound level chosen at the launcher (settings.toml gives the defaults).

It is one small record in the last page of the box's NVM (a ``referee.store.Store``
over those bytes, records of kind ``KEEP``), written by the store's own code: a change appends into
erased bytes, so most writes erase nothing. It is read at the launcher and written
there (after a match, or a choice of light or sound), never while a match runs; this
module is loaded only while it is needed (the app reads the record at boot, the
launcher's "Sound and light" page) and forgotten after: the launcher keeps >= 80 KiB
free on a Pico (docs/design.md, "Memory"). A record that does not
read (damaged, cut short, of another shape) gives the defaults, field by field: no
Play again, no wins, the settings' light and sound; never an error.

The record, compact JSON: ``t`` the last table [game, seats, bots, options], ``w`` the
wins of seats 1..7, ``l`` the ring brightness in percent, ``s`` the sound level
(0 off .. 3 high).
"""

from referee.menu import Menu
from referee.store import KEEP, KEEP_BYTES, Store

SEATS = 7
LIGHTS = (10, 25, 40, 60)  # the launcher's ring brightness steps (percent; 60: the build guide's highest)
SOUNDS = ("off", "low", "mid", "high")  # the launcher's sound levels 0..3
MOST = 9999  # wins a seat can show


def open_store(mem, log):
    """The keep's store in the last page of ``mem`` (None: no memory, or too small)."""
    if mem is None or len(mem) < 1024 + KEEP_BYTES:
        return None
    return Store(mem, log, KEEP, len(mem) - KEEP_BYTES)


def _ints(v, n, lo, hi):
    # True if v is a list of n ints (n None: any length) in lo..hi
    if type(v) is not list or (n is not None and len(v) != n):
        return False
    for x in v:
        if type(x) is not int or not lo <= x <= hi:
            return False
    return True


def clean(d):
    """The kept record ``d`` (anything) as the app uses it: every field that reads
    right, the defaults for the rest (``w`` always there)."""
    out = {"w": [0] * SEATS}
    if type(d) is not dict:
        return out
    if _ints(d.get("w"), SEATS, 0, MOST):
        out["w"] = d["w"]
    t = d.get("t")
    if (type(t) is list and len(t) == 4 and type(t[0]) is str and type(t[1]) is int
            and _ints(t[2], None, 1, SEATS) and type(t[3]) is dict):
        out["t"] = t
    if type(d.get("l")) is int and 1 <= d["l"] <= 100:
        out["l"] = d["l"]
    if type(d.get("s")) is int and 0 <= d["s"] < len(SOUNDS):
        out["s"] = d["s"]
    return out


def load(store):
    """The kept record, cleaned (``clean``), from ``store`` (None: the defaults)."""
    return clean(store.load() if store is not None else None)


def light(kept, settings):
    """The rings' brightness in percent: the launcher's choice, else the settings'."""
    return kept.get("l", settings.get("brightness", 25))


def sound(kept, settings):
    """The sound level 0..3: the launcher's choice, else the settings' (on = high)."""
    return kept.get("s", 3 if settings.get("sound", True) else 0)


def start(app, mem, after_match):
    """The app's start: ``app.kept`` read from ``mem`` (``app._keep`` its store); a
    power-up (not ``after_match``) begins a new session of wins; light and sound applied."""
    app._keep = open_store(mem, app.box.log)
    app.kept = load(app._keep)
    if not after_match and any(app.kept["w"]):
        app.kept["w"] = [0] * SEATS
        app.write_kept()
    apply(app.box, app.kept, app.settings)


def apply(box, kept, settings):
    """The launcher's light and sound (else the settings') on ``box``."""
    if hasattr(box.pixels, "brightness"):
        box.pixels.brightness = light(kept, settings) / 100
    box.sound.set_level(sound(kept, settings))


def box_page(launcher, value):
    """The launcher's "Sound and light" page: ``value`` chosen on it (or ``"__box__"``:
    just opened) changes the kept record, then the page is drawn again."""
    k = launcher.kept
    settings = launcher.settings
    if value == "light":  # the next step, round to the first
        now = light(k, settings)
        k["l"] = LIGHTS[0]
        for v in LIGHTS:
            if v > now:
                k["l"] = v
                break
    elif value == "sound":
        k["s"] = (sound(k, settings) + 1) % len(SOUNDS)
    elif value == "wins":
        k["w"] = [0] * SEATS
    app = launcher.app
    if value in ("light", "sound", "wins") and app is not None:
        apply(app.box, k, settings)
        app.write_kept()
    items = [("Rings: " + str(light(k, settings)) + "%", "light"),
             ("Sound: " + SOUNDS[sound(k, settings)], "sound")]
    if any(k["w"]):
        items.append(("Clear the wins", "wins"))
    index = launcher.menu.index if launcher.stage == "box" and value != "wins" else 0
    launcher.menu = Menu("Sound and light", items, index=index, back=True)
    launcher.stage = "box"
    launcher.status()
