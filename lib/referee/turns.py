"""The turn games' base (Zilch, ZAP City, the flyer game): one seat plays at a time.

``TurnGame`` owns what those games shared in three versions: whose turn it is
(``player``), the bots module (``brain``: imported only when a seat is a bot), the
one-button turn menu (``BaseGame.turn_menu``), a save at every turn
(``round_saves``), the pause shifting every timer, and the **bot's step**:

1. ``think(now, search)`` begins it. ``search`` is the bot's decision as a
   generator that yields while it works and returns its choice: the box runs one
   slice of it per loop pass (``slice_of``), so a long search never stalls the
   box (the screen, the rings and a MENU press go on; the watchdog is fed). A plain
   value is a decision already made.
2. Once the choice is ready and ``SHOW_HALVES`` half think times (``think_ns``) have
   passed since the step began, the game's ``bot_show(choice, now)`` puts it on the screen
   (the highlight moves to it).
3. Half a think time after it was shown, ``bot_act(choice, now)`` plays it.

So the table can follow a bot: it "thinks" on screen, shows its choice, then plays.
This module is loaded with a turn game and forgotten with it.
"""

from referee.core import MS, const, finish  # noqa: F401  (finish: the bots' whole search at once)
from referee.game import BaseGame

THINK_MS = const(700)


def slice_of(search):
    """Run one slice of a bot's search: ``(True, choice)`` when it has finished,
    ``(False, None)`` while it works. A search is a generator (it yields between
    slices and returns its choice)."""
    try:
        next(search)
    except StopIteration as e:
        return True, e.value
    return False, None


class TurnGame(BaseGame):
    """A game played a turn at a time, with bots that think in slices (module doc)."""

    BOTS = ""  # the bots' module, e.g. "games.zilch_bots"
    SHOW_HALVES = 1  # a bot's choice appears after this many half think times
    player = 0  # the seat to play (a game keeps it, or computes it: ZAP City's property)

    def __init__(self, box, players, bots=(), seed=0, options=None, settings=None):
        super().__init__(box, players, bots, seed, options, settings)
        self.think_ns = THINK_MS * MS
        self.brain = None  # the bots module, only when a seat is a bot
        if self.bots and self.BOTS:
            self.brain = __import__(self.BOTS, None, None, ("_",))
        self._search = None
        self._ready = False
        self._choice = None
        self._step_at = 0  # when the bot's step began (ns)
        self._shown_at = -1  # when its choice appeared (-1: not yet)

    def go(self, phase, now_ns):
        """``BaseGame.go``; a new phase also ends any bot step under way: the game
        begins the next one."""
        super().go(phase, now_ns)
        self._search = None
        self._ready = False

    def bot_seat(self):
        """True while a bot's seat is to play."""
        return self.brain is not None and not self.over and self.is_bot(self.player)

    def think(self, now_ns, search):
        """Begin a bot's step (module doc): ``search`` is a generator or the choice itself."""
        self._step_at = now_ns
        self._shown_at = -1
        if hasattr(search, "send"):  # a generator: run a slice a pass
            self._search = search
            self._ready = False
            self._choice = None
        else:
            self._search = None
            self._ready = True
            self._choice = search

    def thinking(self):
        """True while a bot's step is under way (begun and not yet played)."""
        return self._search is not None or self._ready

    def bot_shown(self):
        """The bot's choice while it is on the screen, waiting to be played; else None."""
        return self._choice if self._ready and self._shown_at >= 0 else None

    def bot_decide(self):
        """The bot's next step, begun with the phase (at ``phase_at``) when none is under
        way: its search or its choice. None (this default): the game begins each step
        itself with ``think``."""
        return None

    def bot_tick(self, now_ns):
        """One pass of the bot's step: begun with the phase if the game says so
        (``bot_decide``), a slice of its search, then its choice shown, then played
        (``bot_show``/``bot_act``). Call from ``tick``."""
        if self._search is None and not self._ready:
            search = self.bot_decide()
            if search is None:
                return
            self.think(self.phase_at, search)
        if self._search is not None:
            self._ready, self._choice = slice_of(self._search)
            if not self._ready:
                return
            self._search = None
        if not self._ready:
            return
        half = self.think_ns // 2
        if self._shown_at < 0:
            if now_ns - self._step_at >= self.SHOW_HALVES * half:
                self._shown_at = now_ns
                self.bot_show(self._choice, now_ns)
        elif now_ns - self._shown_at >= half:
            choice = self._choice
            self._ready = False
            self._choice = None
            self.bot_act(choice, now_ns)

    if __debug__:  # the simulator's (it skips idle time); the box never asks: its -O3 .mpy leaves this out
        def bot_next_at(self, now_ns):
            """When ``bot_tick`` next does something (for ``next_at``): the next pass while
            a step is to begin or its search runs, else when its choice shows or is played."""
            if self._search is not None or not self._ready:
                return now_ns
            half = self.think_ns // 2
            if self._shown_at < 0:
                return self._step_at + self.SHOW_HALVES * half
            return self._shown_at + half

    def bot_show(self, choice, now_ns):
        """Show a bot's choice before it is played (the game's screen)."""

    def bot_act(self, choice, now_ns):
        """Play a bot's choice (the game's flow)."""

    def round_saves(self):
        """The number of seats: a save at every turn, and a round is a turn each."""
        return self.players

    def resumed(self, now_ns, paused_ns):
        """The pause menu closed after ``paused_ns``: the flow's timer and a bot's step
        go on where they stopped."""
        self.phase_at += paused_ns
        self._step_at += paused_ns
        if self._shown_at >= 0:
            self._shown_at += paused_ns
