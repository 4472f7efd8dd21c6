"""One button per player: tap, hold and double-tap from capture edges.

Each station gets an ``adafruit_debouncer.Button`` whose predicate reads the
station level as last reported by capture, so the gestures follow the same
edges as the race. The debouncer's clock is ``supervisor.ticks_ms`` (a shim on
the PC runs it on virtual time).
"""

from adafruit_debouncer import Button

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


TAP = const(1)  # count = taps in the series (2 = double-tap)
HOLD = const(2)  # count = taps just before the hold
CHORD = const(3)  # two seats pressed together and held (pause on a box without MENU)

MENU = const(8)  # the optional MENU button's input number (stations are 1..7)

HOLD_MS = const(600)
TAP_GAP_MS = const(250)
# The pause chord: two buttons of the running game's seats (``seats``) that went down
# within CHORD_GAP_NS of each other and are both still down after CHORD_NS. Ordinary
# play never does that: holds are 0.6 s, and a button resting down (a stuck one, a
# seat nobody plays) pairs with nothing pressed later.
CHORD_NS = const(3000000000)
CHORD_GAP_NS = const(300000000)


class Gestures:
    def __init__(self, stations, hold_ms=HOLD_MS, gap_ms=TAP_GAP_MS):
        self.stations = stations
        self.seats = stations  # the app sets the running game's seat count
        self._down = [False] * (MENU + 1)
        self._at = [0] * (MENU + 1)  # time of each input's last press edge
        # A list, not a dict: MicroPython dicts do not keep insertion order, and
        # gestures of one loop pass must come out in the same order everywhere.
        self._buttons = []
        for p in list(range(1, stations + 1)) + [MENU]:
            self._buttons.append((p, Button(
                self._reader(p),
                short_duration_ms=gap_ms,
                long_duration_ms=hold_ms,
                value_when_pressed=True,
                interval=0.005,
            )))
        self._chord_since = None
        self._chord_fired = False
        self._out = []

    def _reader(self, p):
        down = self._down
        return lambda: down[p]

    def is_down(self, player):
        return self._down[player]

    def held(self):
        return [p for p in range(1, self.seats + 1) if self._down[p]]

    def edge(self, player, t_ns, pressed):
        """Feed one capture edge (player 1..7 or MENU)."""
        if 1 <= player <= MENU:
            self._down[player] = bool(pressed)
            if pressed:
                self._at[player] = t_ns
        held = self.held()
        if len(held) < 2 or not pressed:  # a release ends a chord (or one forming)
            self._chord_since = None
            self._chord_fired = False
        elif self._chord_since is None and player in held:
            for p in held:
                if p != player and t_ns - self._at[p] <= CHORD_GAP_NS:
                    self._chord_since = t_ns

    def reset(self):
        """Forget pending gestures (e.g. when a screen changes under the players)."""
        for _p, b in self._buttons:
            b.update()
            b.short_counter = 0
            b.short_to_show = 0
            b.long_to_show = False

    def update(self, now_ns):
        """Run the debouncers; returns a list of (player, kind, count)."""
        out = self._out
        del out[:]
        down = self._down
        for p, b in self._buttons:
            # An idle button (up, settled, nothing pending) would change nothing:
            # skipping it keeps the loop cheap on the device. state bits 0/1 are
            # adafruit_debouncer's debounced and raw levels.
            if not down[p] and not (b.state & 3) and not b.short_counter and not b.short_to_show and not b.long_to_show:
                continue
            b.update()
            if b.long_press:
                out.append((p, HOLD, b.short_count))
            elif b.short_count:
                out.append((p, TAP, b.short_count))
        if self._chord_since is not None and not self._chord_fired:
            if now_ns - self._chord_since >= CHORD_NS:
                self._chord_fired = True
                out.append((0, CHORD, len(self.held())))
        return out
