"""PC only: the simulated box, a whole Referee Box on a virtual clock.

``SimTable`` drives the same app and game modules as the device: scripted
presses (with holds and bounce trains) become capture edges with exact ns
times, the rings are recorded through an ``adafruit_pixelbuf.PixelBuf``
subclass, and the real displayio tree is rendered headless on demand.
"""

import heapq
import os
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (_ROOT, os.path.join(_ROOT, "lib")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

# isort: off
from pc import code_cache  # noqa: E402

code_cache.install()  # the box's modules compiled once, however often a match imports them

from pc import env as pc_env  # noqa: E402, F401  (before Blinka: no board warnings)
from pc import fast_displayio  # noqa: E402
from pc import font as pc_font  # noqa: E402
from pc import tile_palette_mapper  # noqa: E402

# isort: on

pc_font.install()  # the font as a sprite sheet, as on the device
fast_displayio.install()  # Blinka's tile and colour writes, cheaper (same state)
tile_palette_mapper.install()  # the firmware's tilepalettemapper, which Blinka lacks

import adafruit_pixelbuf  # noqa: E402
from vectorio._vectorshape import _VectorShape  # noqa: E402  (Blinka's: LazyDraw's shapes)

import games  # noqa: E402
from referee import screen, shown  # noqa: E402
from referee.app import GAME, App  # noqa: E402
from referee.box import REVEAL, Box  # noqa: E402
from referee.core import MS  # noqa: E402
from referee.gestures import CHORD_NS  # noqa: E402
from referee.rings import PER_RING, Rings  # noqa: E402
from referee.rng import Rng  # noqa: E402
from referee.settings import Settings  # noqa: E402

STATIONS = 7
LOOP_MS = 2  # the simulated main loop runs every 2 ms of virtual time
EVENTS = "events"  # a pass only when something can happen (the default: tests, tools)
STEPS = "steps"  # a pass every LOOP_MS, as the box's loop (the equivalence test's reference)
KEY_MIN_MS = 40  # a window key press lasts at least this long


class SimPixels(adafruit_pixelbuf.PixelBuf):
    """The ring strip: records what each ``show()`` transmitted."""

    def __init__(self, n, brightness=1.0):
        super().__init__(n, byteorder="GRB", brightness=brightness, auto_write=False)
        self.frames = 0
        self.last = bytes(3 * n)

    def _transmit(self, buffer):
        self.frames += 1
        self.last = bytes(buffer)

    def transmitted(self, index):
        """(r, g, b) sent for pixel ``index`` (after the brightness cap)."""
        g, r, b = self.last[3 * index:3 * index + 3]
        return (r, g, b)


class SimRings(Rings):
    """The rings. With ``SimTable``'s ``STEPS`` mode the app draws them at every loop
    pass, as on the box; with ``EVENTS`` they are drawn when they are looked at
    (``sample``: ``SimTable.ring``, ``save_png``, the window's view): a ring is drawn
    from its mode and the time alone, so the strip then holds what the box's would."""

    def __init__(self, table, pixels, stations):
        super().__init__(pixels, stations)
        self.table = table

    def update(self, now_ns):
        if self.table.mode == EVENTS:
            return False  # drawn when sampled
        return super().update(now_ns)

    def sample(self):
        """Draw the rings at the table's time (nothing to write if a pass drew them then)."""
        return super().update(self.table.now)

    def colors(self, player):
        self.sample()
        return super().colors(player)


class LazyDraw:
    """``EVENTS`` mode's stand-in for ``referee.pace`` while the simulator runs its loop
    passes, builds its app (the launcher's screen) or resumes a saved match (``resume``:
    the game's screens): what they change on the screen (a ``screen.Text``'s text or
    colour, a die's look, a banded background: whatever ``screen.draw_later`` is given)
    is drawn when somebody looks (``SimTable.flush_screen``: its text, a PNG, the
    window's frame), not at every pass; a die tumbling through fifty faces before anyone
    looks is drawn once, a screen nobody looks at (a save resumed to be checked) not at
    all. What waits stays queued when another screen is shown (drawn when the screen is
    looked at, whichever it is). Shows, hides, moves, a shape's colour and a text's new
    scale are made at once (a field each). The game code is the device's: it draws
    through ``referee.screen`` as it does under pace."""

    lazy = True
    _last = {}  # (referee.pace's index of changes waiting: a show, hide or colour never waits here)

    def __init__(self):
        self._items = []  # what has something to draw, in the order it was changed
        # vectorio shapes shown, hidden or moved since the screen was last looked at: their
        # fields are written at once, the area they leave and take on the screen (Blinka's
        # ``_shape_set_dirty``, the costly part: a menu's bar is a dozen shapes) once, when
        # looked at; the frame drawn then is the same (the places a shape passed through
        # were never on the screen)
        self._shapes = {}

    def queue(self, item):
        if getattr(item, "_rescale", 0):  # a text's new scale: at once (tests read ``scale``)
            self._draw(item)
            return
        self._items.append(item)
        if len(self._items) > 256:  # (screens nobody looks at for a long time)
            self.flush()

    def touch(self, px):
        pass  # (referee.pace's: pixels written outside the queue are drawn when looked at)

    def _draw(self, item):
        prev = screen.paced
        screen.paced = self  # (a Text's paced branches ask ``area``)
        try:
            for _ in range(64):  # a rescale is two calls, a banded background a band a call
                if not item._todo:
                    break
                item._draw(1 << 30)
        finally:
            screen.paced = prev

    def flush(self):
        """Draw everything waiting now."""
        items = self._items
        self._items = []
        for item in items:
            self._draw(item)
        shapes = self._shapes
        if shapes:
            self._shapes = {}
            for shape in shapes.values():
                shape._shape_set_dirty()

    def settle(self):
        """Draw at once the texts waiting with a new scale (one queued for a change of text
        was given a scale after: ``Text.set_scale`` queues no second time), so a text's
        ``scale`` is its new one once the table hands back."""
        for item in self._items:
            if getattr(item, "_rescale", 0):
                self._draw(item)

    def pending(self):
        return False  # nothing waits for a loop pass: the screen is drawn when looked at

    def step(self, budget_px=0):
        return 0

    def later(self, layer, show, color):
        if color is not None and layer.pixel_shader[0] != color:
            layer.pixel_shader[0] = color
        if layer.hidden == show:
            if isinstance(layer, _VectorShape):
                layer._hidden = not show
                self._shapes[id(layer)] = layer
            else:
                layer.hidden = not show

    def move(self, layer, y, x=None):
        if isinstance(layer, _VectorShape):
            if (x is None or layer._x == x) and layer._y == y:
                return
            if x is not None:
                layer._x = x
            layer._y = y
            self._shapes[id(layer)] = layer
            return
        if x is not None and layer.x != x:
            layer.x = x
        if layer.y != y:
            layer.y = y

    def shown(self, layer):
        return not layer.hidden and not getattr(layer, "_veiled", False)  # (a text shown blank)

    def area(self, layer):
        return 0


class SimTones:
    def __init__(self, table):
        self.table = table
        self.log = []  # (t_ns, freq)
        self.out = None  # the window's speaker: tone(freq) heard as well as logged
        self.level = 3  # the sound level (referee.sound.Sound.set_level), as the piezo's

    def tone(self, freq):
        self.log.append((self.table.now, freq))
        if self.out is not None:
            self.out(freq)


class SimBox(Box):
    capture_name = "sim"
    precision_ns = 1
    rules_dir = os.path.join(_ROOT, "rules")  # the "How to play" pages (CIRCUITPY/rules on the box)

    def __init__(self, table, stations, brightness, store=None):
        self.table = table
        pixels = SimPixels(stations * PER_RING, brightness=brightness / 100)
        super().__init__(stations, pixels, SimTones(table), store=bytearray(b"\xff" * 4096) if store is None else store)
        self.tones = self.tone_driver = self.sound.driver
        self.rings = SimRings(table, pixels, stations)
        self.root = None
        self.logs = []

    def now_ns(self):
        return self.table.now

    def poll(self):
        edges = self.table._captured
        if not edges:
            return ()  # (most passes: no new list)
        self.table._captured = []
        return edges

    def set_backlight(self, on):
        # The light's edge is captured 1 ns after the loop pass's clock reading, as
        # on the box, where the backlight switches after the loop read its clock: the
        # game may already have settled its race up to that reading (race.settle(now):
        # every edge up to now is in), and a press at the reveal's own nanosecond is
        # then judged against it, valid (docs/arbitration.md), not a certain false
        # start. It comes back through the next poll, as the device's does.
        if on and screen.paced and not getattr(screen.paced, "lazy", False):  # the light reveals a
            # screen drawn whole, as on the device (a LazyDraw's is drawn when looked at)
            screen.paced.flush()
        self.table._captured.append((REVEAL, self.table.now + 1, bool(on)))

    def show(self, group):
        self.root = group

    def new_seed(self):
        return self.table.rng.next_u32()

    def log(self, msg):
        self.logs.append(msg)


# When a loop pass can next change anything, if no edge comes first. Only the
# simulator asks (the box runs its loop at its own pace), so these read the app's and
# the gestures' state here, on the PC, and cost the box's heap nothing; each game
# names its own moments (``BaseGame.next_at``: its timers, bots, animation frames).


def gestures_next_at(g, now_ns):
    """The earliest time ``g.update`` (referee.gestures.Gestures) can report a gesture:
    a hold's, a tap series' or the pause chord's threshold (ns); ``now_ns`` for one due
    already; None while nothing is pending."""
    if g._quiet:  # update() found nothing pending, and no edge came since
        return None
    t = None
    keys = g._keys
    for p in g._inputs:
        if g._late[p] >= 0:
            return now_ns
        if not g._count[p]:
            continue
        if keys.down[p]:
            if g._held[p]:
                continue
            due = keys.at[p] + g.hold_ns
        else:
            due = keys.up[p] + g.gap_ns
        if t is None or due < t:
            t = due
    if g._chord_since is not None and not g._chord_fired:
        due = g._chord_since + CHORD_NS
        if t is None or due < t:
            t = due
    return t


def app_next_at(app, now, looks=False):
    """The earliest time (ns) a pass of ``app`` can change anything: a gesture's
    threshold, the game's ``next_at`` (and ``next_look_at`` with ``looks``: somebody
    watches), the sound's next note; None: not until an edge. The rings are drawn from
    the time, so skipping passes skips only their writes."""
    if app._save_due:
        return now  # a save is written from the next pass's start, a step a pass
    t = gestures_next_at(app.gestures, now)
    game = app.game
    if app.mode == GAME and game is not None:
        try:
            n = now if game.due() else game.next_at(now)  # (a part of the screen: at once)
            if looks:
                k = game.next_look_at(now)
                if k is not None and (n is None or k < n):
                    n = k
        except Exception:  # the next pass's tick shows the error, if it is one
            n = now
        if n is not None and (t is None or n < t):
            t = n
    s = app.box.sound.next_at(now)
    if s is not None and (t is None or s < t):
        t = s
    return t


class SimTable:
    """A simulated box with ``players`` people seated (the box has 7 stations)."""

    def __init__(self, players=4, seed=1, settings=None, catch_errors=False, loop_ms=LOOP_MS, store=None, notes=(),
                 mode=EVENTS):
        """``mode``: ``EVENTS`` (default) runs only the loop passes at which something can
        happen: a press or release, a gesture's threshold, a game's or bot's timer, a
        note; the passes between would change nothing and are skipped (the passes run are
        still on the ``loop_ms`` grid, so a match ends exactly as with ``STEPS``, a pass
        every ``loop_ms`` as on the box). ``settings``: dict of REFEREE_* values as in settings.toml; ``players``
        None takes REFEREE_PLAYERS as checked (the window and the demo). ``notes``:
        messages about the settings file itself, shown with the settings' own.
        ``store``: the box's non-volatile bytes (default: 4096 bytes of 0xFF,
        an erased NVM; the window passes a file-backed one)."""
        self.seed = seed
        self.rng = Rng(seed)
        self.now = 0
        self.loop_ns = loop_ms * MS
        if mode not in (EVENTS, STEPS):
            raise ValueError("mode is " + repr(EVENTS) + " or " + repr(STEPS) + ", not " + repr(mode))
        self.mode = mode
        self.passes = 0  # loop passes run
        self._lazy = LazyDraw() if mode == EVENTS else None  # the screen drawn when looked at
        self._pending = []  # heap of (t_ns, seq, player, pressed)
        self._seq = 0
        self._captured = []
        env = dict(settings or {})
        if players is not None:
            env.setdefault("REFEREE_PLAYERS", players)
        self.settings = Settings(env.get, games.names(), notes, env.keys())
        self.players = self.settings["players"] if players is None else players
        self.box = SimBox(self, STATIONS, self.settings["brightness"], store)
        self.catch_errors = catch_errors
        self.app = self._lazily(App, self.box, self.settings, games, catch_errors=catch_errors)
        self.press_log = []  # every scripted edge, for replay
        self._key_down = {}  # window key -> time of its press
        self.paced = []  # the pixels referee.pace drew in each pass, while it paces
        # Somebody watches (the window): every pass that changes only what is shown runs
        # (a game's ``next_look_at``). Else (``EVENTS``) those passes are skipped, and the
        # screen is brought up to date when it is looked at (``flush_screen``).
        self.watch = False

    def _clock(self):
        return self.now

    # --- the game ------------------------------------------------------------
    @property
    def game(self):
        return self.app.game

    def start(self, name, bots=(), seed=None, **options):
        """Start game ``name`` with ``self.players`` seats; ``bots`` are the box's seats.
        Its first screen is drawn at once (tests read its texts' places and scales)."""
        if seed is None:
            seed = self.rng.next_u32()
        return self.app.launch(name, self.players, tuple(bots), seed=seed, options=options)

    def resume(self):
        """The saved match resumed (``App.resume``: the game, or None), as the launcher's
        Resume does."""
        return self._lazily(self.app.resume)

    def reboot(self):
        """A power cycle: a new App on the same box and store (the NVM keeps its
        bytes); held buttons and scripted presses are dropped, the clock goes on."""
        self.app = None
        games.unload()
        self._pending = []
        self._captured = []
        self._key_down = {}
        self.app = self._lazily(App, self.box, self.settings, games, catch_errors=self.catch_errors)
        return self.app

    def fresh_start(self):
        """The device's fresh start after a match (``supervisor.reload()``): a new App
        on the same box and store that knows it is not a power-up (the settings notice
        was seen, the session's wins are kept)."""
        self.app = None
        games.unload()
        self._pending = []
        self._captured = []
        self._key_down = {}
        self.app = self._lazily(App, self.box, self.settings, games, catch_errors=self.catch_errors, notice=False,
                                after_match=True)
        return self.app

    # --- presses -------------------------------------------------------------
    def _schedule(self, t_ns, player, pressed):
        self._seq += 1
        heapq.heappush(self._pending, (t_ns, self._seq, player, pressed))
        self.press_log.append((t_ns, player, pressed))

    def press(self, player, at_ns=None, hold_ms=80, bounce=0, bounce_us=300):
        """Press station ``player`` at ``at_ns`` (None = now) for ``hold_ms``.
        ``bounce`` extra open/close pairs ``bounce_us`` apart follow the first
        contact and precede the release, as a worn microswitch does."""
        if not 1 <= player <= STATIONS and player != 8:
            raise ValueError("no station " + str(player))
        t = self.now if at_ns is None else at_ns
        if t < self.now:
            raise ValueError("cannot press in the past")
        step = bounce_us * 1000
        self._schedule(t, player, True)
        for i in range(bounce):
            self._schedule(t + (2 * i + 1) * step, player, False)
            self._schedule(t + (2 * i + 2) * step, player, True)
        up = t + int(hold_ms * MS)
        for i in range(bounce):
            self._schedule(up + 2 * i * step, player, False)
            self._schedule(up + (2 * i + 1) * step, player, True)
        self._schedule(up + 2 * bounce * step, player, False)
        return t

    def key(self, player, down, min_ms=0):
        """A live key edge now: no scripted release. With ``min_ms`` (the
        window's keyboard), a release within ``min_ms`` of its press (a fast
        tap, or a press and release read in one frame) is held that long, so
        the tap is not thrown away as a glitch."""
        t = self.now
        if down:
            self._key_down[player] = t
        else:
            t = max(t, self._key_down.pop(player, t) + int(min_ms * MS))
        self._schedule(t, player, bool(down))

    def menu(self, at_ns=None, hold_ms=80):
        return self.press(8, at_ns, hold_ms)

    def tap(self, player, count=1):
        """``count`` quick taps, then advance until the gesture is reported."""
        for _ in range(count):
            self.press(player, hold_ms=60)
            self.advance(140)
        self.advance(300)

    def hold(self, player, ms=800):
        self.press(player, hold_ms=ms)
        self.advance(ms + 300)

    def lose_capture(self, words=1):
        """Pretend the capture FIFO overflowed."""
        self.box.lost += words

    # --- time ------------------------------------------------------------------
    def advance(self, ms):
        """Run the box for ``ms`` of virtual time."""
        self._run(ms, False)

    def _run(self, ms, due):
        return self._lazily(self._advance, ms, due)

    def _lazily(self, fn, *args, **kw):
        # ``fn(*args, **kw)`` with the screen changes it makes drawn when looked at
        # (``LazyDraw``), unless referee.pace was started (it draws them); a new scale
        # waiting is drawn before it returns (``LazyDraw.settle``)
        lazy = self._lazy
        if lazy is None or screen.paced is not None:
            return fn(*args, **kw)
        screen.paced = lazy
        try:
            return fn(*args, **kw)
        finally:
            lazy.settle()
            screen.paced = None

    def _advance(self, ms, due=False):
        # ``due``: ``_due()`` as the caller just found it (False: not known); returns it
        # as found at the end (events: nothing ran since), else False
        end = self.now + int(ms * MS)
        loop = self.loop_ns
        events = self.mode == EVENTS
        pending = self._pending
        while self.now < end:
            if events:
                if due is False:
                    due = self._due()
                if due is None or due > end:
                    self.now = end  # nothing can happen before the end: no pass
                    return due
                # the first pass of the loop_ns grid (from here) at or after ``due``
                k = (due - self.now + loop - 1) // loop
                self.now = min(self.now + max(1, k) * loop, end)
                due = False
            else:
                self.now = min(self.now + loop, end)
            while pending and pending[0][0] <= self.now:
                t, _, player, pressed = heapq.heappop(pending)
                self._captured.append((player, t, pressed))
            self.app.step()
            if screen.paced and screen.paced is not self._lazy:  # (referee.pace started: draws a
                # part of a change a pass, as the device)
                self.paced.append(screen.paced.step())
            self.passes += 1
        return False

    def _due(self):
        # the earliest time a pass can change anything (ns): an edge captured or still
        # to come, lost capture words, or what the app and the game wait for
        now = self.now
        paced = screen.paced
        if self._captured or self.box.lost or (paced and paced is not self._lazy and paced.pending()):
            return now  # (paced: a part of a change is drawn each pass, as on the device)
        t = app_next_at(self.app, now, self.watch)
        if self._pending and (t is None or self._pending[0][0] < t):
            t = self._pending[0][0]
        return t

    def advance_until(self, cond, max_ms=20000, step_ms=None):
        """Advance loop pass by loop pass until ``cond()`` holds (True) or
        ``max_ms`` have passed (False)."""
        step = step_ms if step_ms is not None else self.loop_ns / MS
        left = max_ms
        while not cond():
            if left <= 0:
                return False
            self.advance(step)
            left -= step
        return True

    def run_until_over(self, max_ms):
        """Advance until the game is over (True) or ``max_ms`` passed (False)."""
        return self._lazily(self._until_over, max_ms)  # (the screen drawn lazily throughout)

    def _until_over(self, max_ms):
        step = 100
        left = max_ms
        due = False  # (the last _advance's finding, while nothing ran since)
        while left > 0:
            game = self.app.game
            if game is not None and game.over:
                return True
            ms = min(step, left)
            if self.mode == EVENTS:  # whole steps in which nothing can happen, in one call
                if due is False:
                    due = self._due()
                idle = left if due is None else (due - self.now) // (step * MS) * step
                if idle > ms:
                    ms = min(idle, left)
            due = self._advance(ms, due)
            left -= ms
        return self.game is not None and self.game.over

    # --- what the table sees -----------------------------------------------------
    def flush_screen(self):
        """Draw what the passes (and the app's building, a saved match's resume) changed
        on the screen since it was last looked at (the events mode draws the screen when it
        is looked at: ``LazyDraw``); every way of looking here calls it, and code that reads
        the displayio tree itself must."""
        if self._lazy is None or screen.paced is not None:  # (referee.pace started: it draws)
            return
        app = self.app
        game = app.game
        if not self.watch and app.mode == GAME and game is not None:
            # a pass that changes only the screen is due and was skipped (nobody
            # watched): run it now, unless the match waits for a pass itself (a due
            # moment of the match is the next pass's, on the loop's grid)
            look = game.next_look_at(self.now)
            if look is not None and look <= self.now:
                due = self._due()
                if due is None or due > self.now:
                    self._lazily(app.step)
                    self.passes += 1
        self._lazy.flush()

    def screen_text(self):
        """Every label on the display, top to bottom (empty while the backlight is off)."""
        if self.box.root is None or not self.box.backlight:
            return ""
        return self.drawn_text()

    def drawn_text(self):
        """The labels drawn on the display, lit or not (the stimulus is drawn dark)."""
        if self.box.root is None:
            return ""
        self.flush_screen()
        return shown.screen_text(self.box.root)

    def ring(self, player):
        """[(r, g, b), ...] of station ``player``'s ring as transmitted."""
        self.box.rings.sample()
        px = self.box.pixels
        base = (player - 1) * PER_RING
        return [px.transmitted(base + i) for i in range(PER_RING)]

    def save_png(self, path, rings=True):
        """The screen (and the rings around it) as a PNG file."""
        import pygame

        from pc import display as pc_display
        from pc import view as pc_view

        self.box.rings.sample()
        self.flush_screen()
        surf = pc_display.render(self.box.root, self.box.backlight)
        if rings:
            surf = pc_view.compose(surf, self, scale=1)
        pygame.image.save(surf, path)
        return path
