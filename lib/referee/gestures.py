"""One button per player: presses, taps, holds and double-taps from capture edges.

Two layers, both timed by the capture's own edge times (not by when the loop
happens to look):

``Press`` decodes one button's edges into presses, with the box's one bounce rule
(every game and the gestures use it): a press begins at its first down edge; a
contact shorter than BOUNCE_NS is no press, unless the button comes back down
within BOUNCE_NS (chatter at the start: the press goes on from its first edge);
a down edge within BOUNCE_NS of a press's release is chatter too (the press
stays ended). Races never wait for this: they take the raw edge time.

``Gestures`` builds on it: a series of presses each released within HOLD_MS, with
gaps under TAP_GAP_MS, is one TAP whose count is the number of presses (2 =
double-tap), reported once the gap has passed; a press still down HOLD_MS after
its edge is a HOLD (count = the taps just before it in the series).
"""

from referee.core import MS, const

TAP = const(1)  # count = taps in the series (2 = double-tap)
HOLD = const(2)  # count = taps just before the hold
CHORD = const(3)  # two seats pressed together and held (pause on a box without MENU)

MENU = const(8)  # the optional MENU button's input number (stations are 1..7)

# what Press.edge says of an edge
NOTHING = const(0)  # a repeated level, or chatter
DOWN = const(1)  # a press is on (new, or resumed by chatter after a SHORT): it began at .at
UP = const(2)  # the press ended at this edge (its length: t - .at)
SHORT = const(3)  # a contact too short to be a press (a DOWN may yet resume it)

HOLD_MS = const(600)
TAP_GAP_MS = const(250)
BOUNCE_NS = const(8000000)  # switch chatter settles well within this (datasheets: <5 ms)
# The pause chord: two buttons of the running game's seats (``seats``) that went down
# within CHORD_GAP_NS of each other and are both still down after CHORD_NS. Ordinary
# play never does that: holds are 0.6 s, and a button resting down (a stuck one, a
# seat nobody plays) pairs with nothing pressed later.
CHORD_NS = const(3000000000)
CHORD_GAP_NS = const(300000000)


class Press:
    """One button's presses from its edges, with the box's bounce rule (module doc).
    ``down``: the level as last reported; ``at``: when the current (or last) press
    began; ``up``: when it was last let go."""

    def __init__(self):
        self.down = False
        self.at = -BOUNCE_NS
        self.up = -BOUNCE_NS
        self.short = False  # the last release was a contact too short to count
        self.ended = True  # the last press was let go (chatter after it changes nothing)

    def edge(self, t, pressed):
        """Feed one edge at ``t`` ns; return NOTHING, DOWN, UP or SHORT."""
        if pressed == self.down:
            return NOTHING  # a repeated level (an edge between was lost)
        self.down = pressed
        if pressed:
            if t - self.up < BOUNCE_NS:  # chatter
                if self.short:
                    self.short = False
                    return DOWN  # the press goes on from its first edge
                return NOTHING  # the press stays ended
            self.at = t
            self.short = self.ended = False
            return DOWN
        self.up = t
        if self.ended:
            return NOTHING  # chatter of a release already said
        if t - self.at < BOUNCE_NS:
            self.short = True
            return SHORT
        self.ended = True
        return UP


class Gestures:
    """The gestures of ``stations`` stations and MENU (module doc): ``edge`` feeds it
    the capture's edges, ``update`` gives the gestures due. ``hold_ms``: how long a
    press lasts to be a hold; ``gap_ms``: the gap after a tap that ends its series."""

    def __init__(self, stations, hold_ms=HOLD_MS, gap_ms=TAP_GAP_MS):
        self.stations = stations
        self.seats = stations  # the app sets the running game's seat count
        self.hold_ns = hold_ms * MS
        self.gap_ns = gap_ms * MS
        n = MENU + 1
        self._keys = [Press() for _ in range(n)]  # each input's presses (index 0 unused)
        self._count = [0] * n  # presses in the current series
        self._held = [False] * n  # this press already made a HOLD
        self._late = [-1] * n  # a hold released before update() saw it: its count
        self._inputs = tuple(range(1, stations + 1)) + (MENU,)
        self._chord_since = None
        self._chord_fired = False
        self._out = []
        self._quiet = False  # nothing pending: update() has nothing to do until an edge

    def is_down(self, player):
        """True if the button of input ``player`` is down, as the capture last reported it."""
        return self._keys[player].down

    def held(self):
        """The running game's seats whose buttons are down now (the pause chord's)."""
        keys = self._keys
        return [p for p in range(1, self.seats + 1) if keys[p].down]

    def edge(self, player, t_ns, pressed):
        """Feed one capture edge (player 1..7 or MENU)."""
        self._quiet = False
        if 1 <= player <= MENU:
            self._edge(player, t_ns, bool(pressed))
        held = self.held()
        if len(held) < 2 or not pressed:  # a release ends a chord (or one forming)
            self._chord_since = None
            self._chord_fired = False
        elif self._chord_since is None and player in held:
            for p in held:
                if p != player and t_ns - self._keys[p].at <= CHORD_GAP_NS:
                    self._chord_since = t_ns

    def _edge(self, p, t, pressed):
        key = self._keys[p]
        said = key.edge(t, pressed)
        if said == DOWN:
            self._count[p] += 1
            self._held[p] = False
        elif said == SHORT:
            self._count[p] -= 1  # a contact too short to be a press (it may yet resume)
        elif said == UP:
            if not self._held[p] and t - key.at >= self.hold_ns:
                self._held[p] = True  # held long enough, between two loop passes
                self._late[p] = self._count[p] - 1
            if self._held[p]:
                self._count[p] = 0  # a hold ends its series

    def reset(self, player=None):
        """Forget pending gestures (e.g. when a screen changes under the players, or
        a press the game has used already): a button down now makes no gesture
        until it is let go and pressed again. A full reset forgets a pause chord
        being formed too: one begun at the launcher does not pause the match it
        starts."""
        for p in range(MENU + 1) if player is None else (player,):
            self._count[p] = 0
            self._late[p] = -1
            self._held[p] = self._keys[p].down
        if player is None:
            self._chord_since = None

    def update(self, now_ns):
        """Gestures due by ``now_ns``: a list of (player, kind, count)."""
        out = self._out
        del out[:]
        if self._quiet:
            return out
        quiet = True
        keys = self._keys
        for p in self._inputs:
            key = keys[p]
            if self._late[p] >= 0:
                out.append((p, HOLD, self._late[p]))
                self._late[p] = -1
            n = self._count[p]
            if key.down:
                if not self._held[p] and n and now_ns - key.at >= self.hold_ns:
                    self._held[p] = True
                    out.append((p, HOLD, n - 1))
            elif n and now_ns - key.up >= self.gap_ns:
                self._count[p] = 0
                out.append((p, TAP, n))
            if self._count[p] and not (key.down and self._held[p]):
                quiet = False  # a tap or a hold still to come
        if self._chord_since is not None and not self._chord_fired:
            quiet = False
            if now_ns - self._chord_since >= CHORD_NS:
                self._chord_fired = True
                out.append((0, CHORD, len(self.held())))
        self._quiet = quiet
        return out
