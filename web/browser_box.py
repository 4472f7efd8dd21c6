"""Browser only: the box in a web page (web/index.html), the fourth world of the game modules.

The page runs this module, ``lib/referee`` and ``games`` unchanged under MicroPython
in WebAssembly. ``BrowserBox`` is the box the app drives, as ``hardware/sim.py``'s
``SimBox`` is in the window: the keys, touches and clicks web/box.js catches become
capture edges stamped with the browser's event times, the rings and the down
buttons go to a small table the page draws from, the piezo's tones to Web Audio,
and the 4 KiB NVM is kept in the browser's localStorage, so a reload offers Resume.

Honest timing: a browser stamps its events to about 0.1-1 ms (and coarser when it
must, against timing attacks), so every edge is floored to the whole millisecond:
races are decided at that precision, presses in the same millisecond are ties, and
the screen says "browser capture: ms precision" as the keypad fallback's box does.
The reveal is the moment the page handed the lit frame to the browser to show.

web/box.js calls, once per animation frame: ``loop(now_ms)`` (one main-loop pass and,
after a change, the screen's draw commands), ``drawn(t_ms)`` once a frame that
changed the backlight is drawn; and ``edge(input, t_ms, down)`` for every event.
Times are the page's clock (``performance.now()``, event ``timeStamp``) in ms, as
JavaScript numbers: a whole one crosses as a 32-bit int, any other as a float.
"""

import json
import sys

import displayio
import js
from web_mem import address

import games
from referee import shown
from referee.app import App
from referee.box import REVEAL, Box
from referee.core import MS
from referee.rings import PER_RING
from referee.rng import Rng
from referee.settings import SPEC, Settings

STATIONS = 7
NVM_KEY = "referee-box-nvm"
NVM_SIZE = 4096
LOOP_MS = 2  # advance(): the virtual loop pass, as the simulator's


class Strip(list):
    """The rings' NeoPixels: the page draws ``referee.rings.Rings.colors``."""

    def show(self):
        pass


class Speaker:
    """The piezo: the page plays a square wave at ``freq`` Hz (0 = silence)."""

    def tone(self, freq):
        js.refereeTone(int(freq))


class LocalNvm:
    """The box's 4 KiB NVM in localStorage, as hex, written whole at each write (as
    ``pc/store.FileNvm`` writes its file). What the store relies on: a
    fixed length, slice reads, slice writes of the same length (a memoryview
    refuses any other)."""

    def __init__(self, key=NVM_KEY, size=NVM_SIZE):
        self.key = key
        text = js.localStorage.getItem(key)
        data = None
        if isinstance(text, str) and len(text) == 2 * size:
            try:
                data = bytes.fromhex(text)
            except ValueError:  # not hex: an erased NVM
                pass
        self.data = bytearray(data or b"\xff" * size)

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        return self.data[index]

    def __setitem__(self, index, value):
        memoryview(self.data)[index] = value
        js.localStorage.setItem(self.key, self.data.hex())


class BrowserBox(Box):
    capture_name = "browser"
    precision_ns = MS

    def __init__(self, sound, store, seed):
        super().__init__(STATIONS, Strip([0] * (STATIONS * PER_RING)), Speaker(), store=store, sound=sound)
        self.now = 0
        self.skew = 0  # ns that advance() has moved the box's clock past the page's
        self.edges = []
        self.root = None
        self.unseen = []  # backlight changes not yet on the canvas
        self.rng = Rng(seed)

    def stamp(self, t_ms):
        """The box time of a page time in ms, floored to the millisecond."""
        return int(t_ms) * MS + self.skew

    def now_ns(self):
        return self.now

    def poll(self):
        out = self.edges
        self.edges = []
        return out

    def set_backlight(self, on):
        self.unseen.append(bool(on))

    def show(self, group):
        self.root = group
        displayio.changed()

    def new_seed(self):
        return self.rng.next_u32()

    def log_exception(self, e):
        if hasattr(sys, "print_exception"):
            sys.print_exception(e)
        else:  # Pyodide
            import traceback

            traceback.print_exception(e)


# The table the page reads after each loop(): its layout is web/box.js's too.
LIT = 0  # 1: the backlight is on
SEATS = 1  # the running game's seats, 0 at the launcher and menus
SCENE = 2  # address of the draw commands
SCENE_LEN = 3  # their number
DOWN = 4  # 8 flags: stations 1..7 and MENU held down
RINGS = DOWN + 8  # 7 x 12 ring colours 0xRRGGBB
STATE_LEN = RINGS + STATIONS * PER_RING


class Page:
    """The box on the page: built by ``boot``, run by ``loop``."""

    def __init__(self, env, seed):
        self.settings = Settings(env.get, games.names(), (), env.keys())
        self.box = BrowserBox(self.settings["sound"], LocalNvm(), seed)
        print("browser seed " + str(seed))
        self.app = App(self.box, self.settings, games, catch_errors=True)
        import array

        self.state = array.array("i", [0] * STATE_LEN)
        self.state_at = address(self.state)
        self._seen = -1  # displayio.changes() at the last scene

    def loop(self, now_ms):
        """One main-loop pass at page time ``now_ms``; the table updated. Returns
        1 if the screen changed (new draw commands), + 2 if a backlight change
        waits for ``drawn``."""
        box = self.box
        box.now = max(box.now, int(now_ms * 1000) * 1000 + box.skew)
        self.app.step()
        return self._table()

    def _table(self):
        box = self.box
        st = self.state
        st[LIT] = 1 if box.backlight else 0
        game = self.app.game
        st[SEATS] = game.players if game is not None else 0
        g = self.app.gestures
        for i in range(8):
            st[DOWN + i] = 1 if g.is_down(i + 1) else 0
        i = RINGS
        for p in range(1, STATIONS + 1):
            for c in box.rings.colors(p):
                st[i] = c
                i += 1
        out = 2 if box.unseen else 0
        n = displayio.changes()
        if n != self._seen:
            self._seen = n
            st[SCENE], st[SCENE_LEN] = displayio.scene(box.root)
            out |= 1
        return out

    def drawn(self, t_ms):
        """The frame showing the current backlight was drawn at ``t_ms``: each
        change since is a REVEAL edge then (the light left the screen)."""
        box = self.box
        t = box.stamp(t_ms)
        for on in box.unseen:
            box.edges.append((REVEAL, t, on))
        box.unseen = []

    def edge(self, player, t_ms, down):
        self.box.edges.append((player, self.box.stamp(t_ms), bool(down)))

    # --- for the tests and the measurements (tools/web.py) ---------------------
    def advance(self, ms):
        """Run ``ms`` of box time now, in 2 ms passes (the simulator's), ahead of
        the page's clock: a bot match plays out in seconds. The next ``loop`` draws."""
        box = self.box
        end = box.now + ms * MS
        while box.now < end:
            box.skew += LOOP_MS * MS
            box.now += LOOP_MS * MS
            self.app.step()
            if box.unseen:  # ahead of the page's clock no frame is drawn: the light's edge
                for on in box.unseen:  # is the pass's end (1 ns on, as the simulator's)
                    box.edges.append((REVEAL, box.now + 1, on))
                box.unseen = []

    def launch(self, name, players, bots, seed=None):
        self.app.launch(name, players, tuple(bots), seed=seed)

    def status(self):
        app = self.app
        game = app.game
        box = self.box
        text = shown.screen_text(box.root) if box.root is not None and box.backlight else ""
        return json.dumps({
            "mode": app.mode, "game": app._name if game is not None else None,
            "over": bool(game is not None and game.over), "winners": list(game.winners) if game is not None else [],
            "players": game.players if game is not None else 0, "lit": box.backlight, "text": text,
            "error": app.error, "now_ms": box.now // MS,
        })


_page = [None]


def boot(env_json, seed):
    """(Re)start the box with the settings ``env_json`` (REFEREE_* strings, as in
    settings.toml) and the session's ``seed`` (a string: the page's ints are 32-bit
    signed); as a power cycle, the NVM stays."""
    if _page[0] is not None:
        _page[0] = None
        games.unload()
    _page[0] = Page(json.loads(env_json), int(seed))
    return _page[0].state_at


def loop(now_ms):
    return _page[0].loop(now_ms)


def drawn(t_ms):
    _page[0].drawn(t_ms)


def edge(player, t_ms, down):
    _page[0].edge(player, t_ms, down)


def advance(ms):
    _page[0].advance(ms)


def launch(name, players, bots_json, seed=""):
    """Start a game as the launcher would (``seed``: a string, "" for a fresh one)."""
    _page[0].launch(name, players, json.loads(bots_json), int(seed) if seed else None)


def status():
    return _page[0].status()


def spec():
    """The settings (referee.settings.SPEC) and the game names, for the page's form."""
    rows = []
    for name, kind, default, low, high, doc in SPEC:
        rows.append({"key": "REFEREE_" + name.upper(), "kind": kind, "default": default,
                     "low": list(low) if isinstance(low, tuple) else low, "high": high, "doc": doc})
    return json.dumps({"settings": rows, "games": games.names()})
