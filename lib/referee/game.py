"""The contract between the app loop and a game, and the mould games are cast in.

A game module in ``games/`` defines ``TITLE``, ``MIN_PLAYERS``, ``MAX_PLAYERS``,
``OPTIONS`` (launcher options, see ``Option``) and ``Game``, a subclass of
``BaseGame``. The app feeds it capture edges, gestures and the time; the game
never reads pins and never sleeps. It draws into ``self.root`` (a displayio
Group the app shows) and sets ``box.rings`` modes and ``box.sound`` cues.

A game is four parts (docs/design.md, "Adding a game"): ``games/<name>_rules.py``
(pure rules: no display, no time), ``games/<name>.py`` (the flow: ``Game`` with
``const`` int phases and one ``FLOW`` table of the moves between them, checked by
``go()``), ``games/<name>_screen.py`` (the screen: built once, updated in place)
and ``games/<name>_bots.py`` (imported only when a seat is a bot).
"""

import displayio

from referee.arbiter import GLITCH_NS, Race
from referee.core import MS
from referee.gestures import HOLD, TAP
from referee.rng import Rng


class Option:
    """A launcher option: ``choices`` are values, ``names`` how they read on screen."""

    def __init__(self, key, title, choices, default, names=None, menu=True):
        self.key = key
        self.title = title
        self.choices = tuple(choices)
        self.default = default
        self.names = tuple(names) if names else tuple(str(c) for c in choices)
        self.menu = menu  # False: not offered in the launcher, only given by code

    def accepts(self, value):
        """True if ``value`` may be given for this option (``resolve_options``).
        A subclass may accept more than ``choices`` (e.g. per-seat tuples)."""
        return value in self.choices

    def expected(self):
        """What ``accepts`` takes, in words for error messages."""
        return "one of " + repr(self.choices)

    def name(self, value):
        """How ``value`` reads on screen: its name, else ``str(value)``."""
        for c, n in zip(self.choices, self.names):
            if c == value:
                return n
        return str(value)

    def check(self, value):
        """``value`` if it is one of the choices, else the default."""
        return value if value in self.choices else self.default

    def named(self, given):
        """The choice ``given`` stands for, written as its name or as text ("on" for
        True in a save of an older version, "15000"); ValueError if none."""
        for c, n in zip(self.choices, self.names):
            if given == n or given == str(c):
                return c
        raise ValueError("option " + self.key + ": " + repr(given) + " is not " + self.expected())


def resolve_options(options_spec, given):
    """Options dict from the spec's defaults overridden by ``given`` (a choice, or its
    name: ``Option.named``). Raises ValueError naming any unknown key or value. The app
    resolves a match's options once, here; a game reads ``self.options[key]``."""
    out = {}
    for opt in options_spec:
        out[opt.key] = opt.default
    for key, value in given.items():
        spec = None
        for opt in options_spec:
            if opt.key == key:
                spec = opt
        if spec is None:
            raise ValueError("unknown option: " + key)
        out[key] = value if spec.accepts(value) else spec.named(value)
    return out


class BaseGame:
    """What every ``Game`` subclasses (module doc). ``box``: the ``referee.box.Box``;
    ``players``: the seats, 1..n; ``bots``: the seats bots play; ``seed``: the match's
    dice; ``options``: as ``resolve_options`` gives them; ``settings``: the box's
    ``Settings`` (anything with ``get`` will do; None: every default)."""

    TITLE = "game"
    VERSION = None  # the shape of state(): every game sets an int and bumps it when it changes

    def __init__(self, box, players, bots=(), seed=0, options=None, settings=None):
        self.box = box
        self.settings = settings
        self.players = players
        self.bots = tuple(bots)
        self.seed = seed
        self.rng = Rng(seed)
        self.options = options or {}
        self.root = displayio.Group()
        self.over = False
        self.winners = []
        self.message = ""
        # A resumable game (one with restore()) adds 1 here whenever a round or turn
        # has ended and state() is consistent: the app then saves the match.
        self.saves = 0
        self.phase = 0
        self.phase_at = 0  # when the flow entered ``phase`` (ns)

    # The flow: FLOW[phase] = the phases it may go to next, one tuple per phase
    # (phases are const ints 0..n-1, NAMES their words for logs and errors).
    FLOW = ()
    NAMES = ()

    def go(self, phase, now_ns):
        """Move the flow to ``phase``; a move FLOW does not list is a bug, raised
        (the app shows its error screen and offers the last save)."""
        if phase not in self.FLOW[self.phase]:
            raise ValueError("flow: " + self.phase_name() + " -> " + self.phase_name(phase))
        self.phase = phase
        self.phase_at = now_ns

    def phase_name(self, phase=None):
        """The word for ``phase`` (the current one if None) in logs and errors: its
        ``NAMES`` entry, else its number."""
        phase = self.phase if phase is None else phase
        return self.NAMES[phase] if phase < len(self.NAMES) else str(phase)

    def new_race(self):
        """A Race for this table: tie window and minimum reaction from the
        settings; a glitch threshold of at least two capture periods, because a
        capture that stamps whole milliseconds (keypad) cannot tell a 1 ms
        glitch from a press."""
        s = self.settings or {}
        return Race(
            self.players,
            tie_window_ns=s.get("tie_window_ms", 0) * MS,
            min_reaction_ns=s.get("min_reaction_ms", 0) * MS,
            glitch_ns=max(GLITCH_NS, 2 * self.box.precision_ns),
        )

    def is_bot(self, player):
        """True if a bot plays seat ``player``."""
        return player in self.bots

    # --- called by the app -------------------------------------------------
    def start(self, now_ns):
        """The match begins: build screens, set rings."""

    def edge(self, player, t_ns, pressed):
        """A raw capture edge: player 1..n (0 = the reveal line), exact t_ns.
        Return True for a press a race took: the app then makes no tap or hold
        of it, so a winning press never also skips the result it produced."""

    def gesture(self, player, kind, count, now_ns):
        """A tap/hold of a human station (see ``referee.gestures``)."""

    def tick(self, now_ns):
        """Called every loop with the current time: timers, bots, animations."""

    # --- a change of the screen drawn over passes ---------------------------------
    def due(self):
        """True while a part of a change of the screen waits for a pass of its own
        (a turn's screen, then its scores, then its menu: the whole change in one pass
        was 20-40 ms on the firmware). The app then runs ``draw_part`` in place of
        ``tick``, one part a pass; it draws them all (``draw_due``) after ``start`` and
        ``restore`` (a new screen is drawn whole) and before a gesture reaches the game
        (a press acts on the screen as it stands); the simulator runs that pass at once,
        whatever ``next_at`` says. The game keeps what its parts are."""
        return False

    def draw_part(self, now_ns):
        """Draw the next part of the screen that ``due`` says waits."""

    def draw_due(self, now_ns):
        """Draw every part that waits (``due``) now."""
        while self.due():
            self.draw_part(now_ns)

    def next_at(self, now_ns):
        """The earliest time (ns) ``tick`` can change the match if no edge or gesture comes
        first: a timer, a bot's move; None: nothing until a press. The simulator runs no
        loop pass before it (it skips idle time); the box's loop does not ask. This
        default, ``now_ns``, is the next pass: exact for any game."""
        return now_ns

    def next_look_at(self, now_ns):
        """The earliest time (ns) ``tick`` changes only what is shown, not the match (a
        tumbling die's next face, a time bar's next pixel), or does work ahead that a
        later tick would do anyway (Zilch works out a roll's set-asides while the dice
        tumble), if ``next_at`` names no earlier moment; None (this default): no such
        moment, ``next_at`` names them all.
        The simulator runs these passes only while somebody watches (the window), or when
        its screen is looked at; a tick that skipped them must leave the match and the
        screen as one that ran them (tests/test_sim_events.py compares them): a look
        whose time decides what it shows or when the next comes is ``next_at``'s."""
        return None

    def resumed(self, now_ns, paused_ns):
        """The pause menu closed after ``paused_ns``: move or restart timers."""

    def turn_menu(self, menu, player, kind, count):
        """A turn game's menu, driven by the seat to play (``self.player``) alone:
        ``(moved, chosen)``: (True, None) after a tap moved it, (False, value) after
        a hold chose ``value``; a press of another seat, of a bot's seat, or with no
        menu up: (False, None)."""
        if menu is None or player != getattr(self, "player", None) or self.is_bot(player):
            return False, None
        if kind == TAP:
            return menu.tap(player, count), None
        if kind == HOLD:
            return False, menu.hold(player)
        return False, None

    def standings(self):
        """[(player, text), ...] best first, shown when the table ends the match
        from the pause menu, e.g. (3, "1. P3  12 points"). Every game has its own
        (the contract: tests/test_app.py checks each game of the registry)."""
        raise NotImplementedError(self.TITLE + ": standings()")

    def ranked(self, key):
        """[(place, player), ...] best first by ``key(player)`` (smaller is better);
        tied seats share a place ("1., 1., 3.")."""
        order = sorted(range(1, self.players + 1), key=lambda p: (key(p), p))
        out = []
        place = 0
        for i, p in enumerate(order):
            if not i or key(p) != key(order[i - 1]):
                place = i + 1
            out.append((place, p))
        return out

    def end(self, now_ns):
        """The table ended the match from the pause menu: it is over now."""
        self.over = True

    def capture_lost(self, now_ns):
        """Capture data was lost (FIFO overflow): void what cannot be judged."""

    def state(self):
        """The game's own part of the saved match as plain data (ints, strs, lists,
        dicts): scores, turn, whatever ``restore`` needs; not what ``record``
        already holds (seats, bots, options, seed; not the generator: a resumed
        match draws from a fresh seed)."""
        return {}

    def restore(self, state, now_ns):
        """Continue a match from ``state()`` (the app resumes a saved match through it);
        ValueError for a state this game cannot continue. A game that saves (adds to
        ``saves``) restores."""
        raise ValueError(self.TITLE + " does not resume")

    def round_saves(self):
        """How many save points make a round: 1 when the game saves once a round,
        the number of seats when it saves at every turn. When a long match has
        filled most of the store, the app writes only one save a round."""
        return 1

    def record(self, name):
        """The whole saved match; its one owner. ``name``: the registry's name."""
        r = {"game": name, "players": self.players, "bots": list(self.bots), "seed": self.seed,
             "options": self.options, "state": self.state()}
        if self.VERSION is not None:  # a save from another VERSION is not resumed (App.resume)
            r["version"] = self.VERSION
        return r
