"""One button per player: presses, taps, holds and double-taps from capture edges.

Two layers, both timed by the capture's own edge times (not by when the loop
happens to look):

``Presses`` decodes each button's edges into presses, with the box's one bounce rule
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

# what Presses.edge says of an edge
NOTHING = const(0)  # a repeated level, or chatter
DOWN = const(1)  # a press is on (new, or resumed by chatter after a SHORT): it began at .at
UP = const(2)  # the press ended at this edge (its length: t - .at)
SHORT = const(3)  # a contact too short to be a press (a DOWN may yet resume it)
_ENDED = const(0)
_ON = const(1)
_SHORT = const(2)

HOLD_MS = const(600)
TAP_GAP_MS = const(250)
BOUNCE_NS = const(8000000)  # switch chatter settles well within this (datasheets: <5 ms)
# The pause chord: two buttons of the running game's seats (``seats``) that went down
# within CHORD_GAP_NS of each other and are both still down after CHORD_NS. Ordinary
# play never does that: holds are 0.6 s, and a button resting down (a stuck one, a
# seat nobody plays) pairs with nothing pressed later.
CHORD_NS = const(3000000000)
CHORD_GAP_NS = const(300000000)


class Presses:
    """The presses of buttons 0..n-1 from their edges, with the box's bounce rule
    (module doc). Per button: ``down[i]`` the level as last reported; ``at[i]`` when
    the current (or last) press began; ``up[i]`` when it was last let go; ``on(i)``
    whether a press is on now. (Lists, not an object per button: less heap.)"""

    def __init__(self, n):
        self.down = [False] * n
        self.at = [-BOUNCE_NS] * n
        self.up = [-BOUNCE_NS] * n
        self._st = bytearray(n)  # _ENDED, _ON (a press is on) or _SHORT (a contact too short, so far)

    def on(self, i):
        """True while button ``i`` is in a press (down, and not chatter after a release)."""
        return self._st[i] == _ON

    def edge(self, i, t, pressed):
        """Feed one edge of button ``i`` at ``t`` ns; return NOTHING, DOWN, UP or SHORT."""
        if pressed == self.down[i]:
            return NOTHING  # a repeated level (an edge between was lost)
        self.down[i] = pressed
        st = self._st[i]
        if pressed:
            if t - self.up[i] < BOUNCE_NS:  # chatter
                if st == _SHORT:
                    self._st[i] = _ON
                    return DOWN  # the press goes on from its first edge
                return NOTHING  # the press stays ended
            self.at[i] = t
            self._st[i] = _ON
            return DOWN
        self.up[i] = t
        if st != _ON:
            return NOTHING  # chatter of a release already said
        if t - self.at[i] < BOUNCE_NS:
            self._st[i] = _SHORT
            return SHORT
        self._st[i] = _ENDED
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
        self._keys = Presses(n)  # each input's presses (index 0 unused)
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
        return self._keys.down[player]

    def held(self):
        """The running game's seats whose buttons are down now (the pause chord's)."""
        down = self._keys.down
        return [p for p in range(1, self.seats + 1) if down[p]]

    def edge(self, player, t_ns, pressed):
        """Feed one capture edge (player 1..7 or MENU)."""
        self._quiet = False
        if 1 <= player <= MENU:
            self._edge(player, t_ns, bool(pressed))
        held = self.held() if pressed else ()
        if len(held) < 2:  # a release ends a chord (or one forming)
            self._chord_since = None
            self._chord_fired = False
        elif self._chord_since is None and player in held:
            for p in held:
                if p != player and t_ns - self._keys.at[p] <= CHORD_GAP_NS:
                    self._chord_since = t_ns

    def _edge(self, p, t, pressed):
        keys = self._keys
        said = keys.edge(p, t, pressed)
        if said == DOWN:
            self._count[p] += 1
            self._held[p] = False
        elif said == SHORT:
            self._count[p] -= 1  # a contact too short to be a press (it may yet resume)
        elif said == UP:
            if not self._held[p] and t - keys.at[p] >= self.hold_ns:
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
            self._held[p] = self._keys.down[p]
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
        late = self._late
        count = self._count
        held = self._held
        for p in self._inputs:  # (locals: the pass after every press)
            if late[p] >= 0:
                out.append((p, HOLD, late[p]))
                late[p] = -1
            n = count[p]
            if not n:
                continue  # no series: nothing to come
            down = keys.down[p]
            if down:
                if not held[p] and now_ns - keys.at[p] >= self.hold_ns:
                    held[p] = True
                    out.append((p, HOLD, n - 1))
            elif now_ns - keys.up[p] >= self.gap_ns:
                count[p] = 0
                out.append((p, TAP, n))
            if count[p] and not (down and held[p]):
                quiet = False  # a tap or a hold still to come
        if self._chord_since is not None and not self._chord_fired:
            quiet = False
            if now_ns - self._chord_since >= CHORD_NS:
                self._chord_fired = True
                out.append((0, CHORD, len(self.held())))
        self._quiet = quiet
        return out
