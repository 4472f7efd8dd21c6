"""What the box keeps between matches: the last table (the launcher's "Play again"),
the wins per seat since the box was switched on, and the rings' brightness and the
sound level chosen at the launcher (settings.toml gives the defaults).

It is one small record in the last page of the box's NVM (``referee.store.Window``,
records of kind ``KEEP``), written by the store's own code: a change appends into
erased bytes, so most writes erase nothing. It is read at the launcher and written
there (after a match, or a choice of light or sound), never while a match runs; this
module is forgotten during a match (``referee.core.FORGET``). A record that does not
read (damaged, cut short, of another shape) gives the defaults, field by field: no
Play again, no wins, the settings' light and sound; never an error.

The record, compact JSON: ``t`` the last table [game, seats, bots, options], ``w`` the
wins of seats 1..7, ``l`` the ring brightness in percent, ``s`` the sound level
(0 off .. 3 high).
"""

from referee.core import seat
from referee.store import KEEP, KEEP_BYTES, Store, Window

SEATS = 7
LIGHTS = (10, 25, 40, 60)  # the launcher's ring brightness steps (percent; 60: the build guide's highest)
SOUNDS = ("off", "low", "mid", "high")  # the launcher's sound levels 0..3
MOST = 9999  # wins a seat can show


def open_store(mem, log):
    """The keep's store in the last page of ``mem`` (None: no memory, or too small)."""
    if mem is None or len(mem) < 1024 + KEEP_BYTES:
        return None
    n = len(mem)
    return Store(Window(mem, n - KEEP_BYTES, n), lambda m: log("kept record: " + m), KEEP)


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


def wins_line(wins, players=SEATS):
    """The session's wins in a few words ("Wins: P1 2  P3 1"), "" when nobody has won."""
    out = ""
    for p in range(1, min(players, SEATS) + 1):
        if wins[p - 1]:
            out += ("  " if out else "Wins: ") + seat(p) + " " + str(wins[p - 1])
    return out


def session_screen(wins, players, winners):
    """The screen after a won match (built then, not kept): who won it, and the wins of
    each seat since the box was switched on, this match's marked "+1"."""
    import displayio

    from referee import palette, screen

    root = displayio.Group()
    root.append(screen.background(palette.PANEL))
    root.append(screen.centred("Match over", 6, 3, palette.WARN))
    who = " ".join(seat(p) for p in winners)
    won = (who + (" win" if len(winners) > 1 else " wins")) if winners else "nobody won"
    root.append(screen.centred(won, 42, 2, palette.station(winners[0]) if len(winners) == 1 else palette.TEXT))
    root.append(screen.centred("Wins since switched on", 74, 2, palette.DIM))
    n = min(players, SEATS)
    half = n if n <= 4 else (n + 1) // 2  # up to 4 seats a column
    left = 100 if n <= 4 else 24
    for p in range(1, n + 1):
        col = (p - 1) // half
        row = (p - 1) % half
        text = seat(p) + "  " + str(wins[p - 1]) + ("  +1" if p in winners else "")
        root.append(screen.text(text, left + col * 160, 102 + row * 26, 2, palette.station(p)))
    root.append(screen.centred("hold: back to the games", screen.HEIGHT - 28, 2, palette.DIM))
    return root
