# ZAP City on the box: the flow. Rules in games/zap_city_rules.py (docs/zap_city.md),
# screen in games/zap_city_screen.py, bots in games/zap_city_bots.py (imported only
# when a seat is a bot).
#
#   START    the throw-off, one round every ROUND_MS (ties throw again), then who starts
#   TURN     the seat to play: double-tap = knock, tap = throw. A throw without the
#            required knock loses the turn (TURN again, the next seat). Option "Knock
#            reminder": off (default, the printed game) nothing on the screen or the
#            rings tells whether a knock is due (no prompt, no blinking ring, no symbol
#            counts, a knock is shown alike needed or not); on: MUST KNOCK FIRST, a
#            blinking ring, the counts, "no knock needed"
#   CHOOSE   one-button menus (tap = next, hold = choose): the move or Pass, then its
#            source, then its target (the screen's among/descend/name; "Back" on
#            every step after the first)
#   CONFIRM  "Confirm" / "Back"; confirmed: the move is applied, the next seat's TURN
#   OVER     a City die complete, a locked table, the turn limit or "End game"
# The legal actions are asked of the rules once a throw, kept while the menus are open
# (59 at the most in 90 bot matches, 237 on the most crowded table: ~12 KB on the box,
# the list each step made before) and dropped when the turn ends; each step filters them.
# Saved between turns: the rules' data and whose turn.

from games import zap_city_rules as R
from games.zap_city_screen import CITY0, View, among, branch, descend, field, name
from referee import palette, rings, sound
from referee.core import MS, const, seat
from referee.game import Option
from referee.gestures import TAP
from referee.menu import Menu
from referee.turns import TurnGame

TITLE = "ZAP City"
MIN_PLAYERS = 2
MAX_PLAYERS = 4
# "mixed": the bot seats alternate greedy, blocking, greedy...
OPTIONS = (
    Option("bot", "Bots", ("greedy", "blocker", "mixed"), "greedy", ("greedy", "blocking", "mixed")),
    Option("knock_reminder", "Knock reminder", (False, True), False, ("off", "on")),
)

START = const(0)
TURN = const(1)
CHOOSE = const(2)
CONFIRM = const(3)
OVER = const(4)

ROUND_MS = const(2500)  # each throw-off round stays this long
KNOCK = "knock"  # a bot's first step of a turn (referee.turns: its choice)
THROW = "throw"

PASS = const(-1)  # menu values besides the rules' fields
BACK = const(-2)
YES = const(-3)
_ROWS = const(3)  # menu lines under the question
_ASK = ("P%d: which move?", "P%d: from whom?", "P%d: which disk?", "P%d: to whom?", "P%d: where to?")


def _split(text):
    # describe() as two lines: "P2 City-Transfer:" / "4 to City"
    i = text.find(": ")
    if i < 0:
        return text, ""
    return text[:i + 1], text[i + 2:]


class Game(TurnGame):
    TITLE = TITLE
    VERSION = 1  # the shape of state(): bump it when it changes (a save of another is not resumed)
    _due = False  # a turn's screen still to draw (_begin, _draw_turn)
    # the board's marks for a menu's line still to draw (_draw_menu, _draw_marks): None,
    # 0 (the board without marks) or (what, level) (_marks)
    _later = None
    NAMES = ("start", "turn", "choose", "confirm", "over")
    FLOW = ((TURN, OVER), (CHOOSE, TURN, OVER), (CONFIRM, OVER), (CHOOSE, TURN, OVER), ())
    BOTS = "games.zap_city_bots"

    def __init__(self, box, players, bots=(), seed=0, options=None, settings=None):
        super().__init__(box, players, bots, seed, options, settings)
        self.st = R.new_state(players)
        self.round_ns = ROUND_MS * MS
        self.reminder = self.options["knock_reminder"]  # off: the printed game
        self._kind = {}  # bot seat -> "greedy" / "blocker"
        if self.bots:
            kind = self.options["bot"]
            i = 0
            for b in sorted(self.bots):
                self._kind[b] = ("greedy", "blocker")[i % 2] if kind == "mixed" else kind
                i += 1
        self.view = View(players)
        self.root.append(self.view.root)
        self.menu = None
        self.stack = []  # the prefixes of the menus shown this turn (Back pops)
        self.action = None  # the move waiting for its confirmation (None: Pass)
        self.plan = None  # a bot's chosen move
        self._pending = None  # True: a bot's search for it is to begin with its first menu
        self._legal = None  # the seat's legal actions after its throw (None: not asked yet)
        self._last = None  # (prefix, the legal actions beginning with it): the last asked
        self.rounds = None  # the throw-off while it is shown
        self.result = ""  # the action just taken, in words
        self._r = 0  # the throw-off round on screen
        self._at = 0  # when the throw-off's round appeared

    # -- pinned views ----------------------------------------------------------------
    def city(self, player):
        return R.city(self.st, player)

    def urban(self, player):
        return R.urban(self.st, player)

    @property
    def player(self):
        # the seat to play
        return R.turn(self.st)

    # -- start: the throw-off --------------------------------------------------------
    def start(self, now_ns):
        self.rounds = R.throw_off(self.st, self.rng)
        self._r = 0
        self._at = now_ns
        self.box.rings.rest(self.players, now_ns)
        self._show_round()

    def _show_round(self):
        v = self.view
        row = self.rounds[self._r]
        last = self._r == len(self.rounds) - 1
        for p in range(1, self.players + 1):
            v.note(p, "")
        best = 0
        for p, total, shown in row:
            disks = [p * 8 + R.SYMBOLS.index(s) for s in shown]
            v.row(p, disks, (0, 0, 0, 0, 0, 0))
            v.note(p, str(total), palette.TEXT)
            best = max(best, total)
        tied = [p for p, total, _ in row if total == best]
        if last:
            end = seat(tied[0]) + " starts!"
            v.active(tied[0])
        else:
            end = " ".join(seat(p) for p in tied) + ": tie, again"
            v.active(0)
        v.said("Who starts?", "highest total, J = 6")
        v.panel("Throw-off, round " + str(self._r + 1), "", end,
                color=palette.station(tied[0]) if last else palette.WARN)

    # -- a turn ------------------------------------------------------------------------
    def _board(self, marks=None):
        st = self.st
        for p in range(1, self.players + 1):
            self.view.row(p, R.tops(st, p), R.city_disks(st, p), marks[p] if marks else 0)
            if self.phase == OVER or (self.phase != START and self.reminder):
                self.view.note(p, str(R.distinct(st, p)) + "/6")
            elif self.phase != START:
                self.view.note(p, "")  # "5/6" would be the knock reminder in other words

    def _begin(self, now):
        # The seat to play may knock and throw (after the throw-off, a move or a lost turn).
        p = self.player
        self.menu = None
        self.plan = None
        self.stack = []
        self._legal = None
        self.go(TURN, now)
        self.saves += 1  # between turns: the app saves the match
        r = self.box.rings
        r.rest(self.players, now)
        if self.reminder and self._must_knock():
            r.set(p, rings.BLINK, palette.station(p), now_ns=now)
        else:
            r.set(p, rings.PULSE, palette.station(p), now_ns=now)
        # its screen at the next pass the game ticks (after the save's): a move played and
        # the next turn's screen in one pass were 21-28 ms on the firmware
        self._due = True
        self._bot_turn(now)

    def _draw_turn(self):
        # the turn's screen (_begin): whose turn, the board, what to press
        self._due = False
        self._later = None
        self.view.active(self.player)
        self._board()
        self._ask_throw()

    def _bot_turn(self, now):
        # a bot's first step of its turn: knock (exactly when the rules require it), or throw
        if self.is_bot(self.player):
            knock = self._must_knock() and self.brain.wants_knock(self.st, self.player)
            self.think(now, KNOCK if knock else THROW)

    def _must_knock(self):
        return R.needs_knock(self.st, self.player) and not R.knocked(self.st)

    def _ask_throw(self):
        p = self.player
        who = seat(p) + (" (box) to play" if self.is_bot(p) else " to play")
        c = palette.station(p)
        if self.is_bot(p):
            self.view.panel(who, seat(p) + " knocked" if R.knocked(self.st) else "", "the box plays",
                            self._kind[p], color=palette.DIM, first=c)
        elif self.reminder and self._must_knock():
            self.view.panel(who, "MUST KNOCK FIRST:", "double-tap = knock", "a tap alone: turn lost",
                            color=palette.BAD, first=c)
        elif R.knocked(self.st):
            self.view.panel(who, seat(p) + " knocked", "tap = throw", color=palette.GOOD, first=c)
        elif self.reminder:
            self.view.panel(who, "tap = throw", first=c)
        else:  # the same words whether a knock is due or not
            self.view.panel(who, "tap = throw", "double-tap = knock", first=c)

    def _knock(self, now):
        if self.reminder and not R.needs_knock(self.st, self.player):
            self.view.panel(seat(self.player) + " to play", "no knock needed:", "tap = throw",
                            first=palette.station(self.player))
            return
        # without the reminder a knock is taken and shown alike, needed or not: saying
        # "no knock needed" would tell the table when one is
        R.knock(self.st)
        p = self.player
        self.box.rings.set(p, rings.PULSE, palette.station(p), now_ns=now)
        self.box.sound.play(sound.COUNT, now)
        self._ask_throw()
        self._bot_turn(now)

    def _throw(self, now):
        p = self.player
        ok = R.throw(self.st, self.rng)
        self._legal = None
        self.box.sound.play(sound.CLICK, now)
        if not ok:  # the knock was missing: the throw stands, the turn is lost
            self._said(seat(p) + " did not knock: turn lost", palette.BAD)
            self.box.sound.play(sound.LOCKOUT, now)
            self._next(now)
            return
        if self.is_bot(p):  # its search runs a slice a loop pass while the menu is up
            self.plan = None
            self._pending = True  # begun with the menu, on the menu's legal actions
        self.go(CHOOSE, now)
        self.menu = None  # the throw is drawn in this pass, the moves' menu in the next (tick)

    # -- menus -------------------------------------------------------------------------
    def _acts(self, prefix):
        # The legal actions beginning with prefix (never changed by a caller); the last
        # prefix's are kept (a bot's menu step draws the menu twice).
        legal = self._legal
        if legal is None:
            legal = self._legal = R.legal_actions(self.st, self.player)
            self._last = None
        if not prefix:
            return legal
        last = self._last
        if last is not None and last[0] == prefix:
            return last[1]
        out = among(legal, prefix)
        self._last = (prefix, out)
        return out

    def _open(self, prefix, now):
        # Show the menu that follows prefix: the moves (prefix ()), or the next step
        # with more than one choice; confirm once prefix names one action.
        p = self.player
        if not prefix:
            items = [(R.KINDS[k], k) for k in sorted(branch(self._acts(()), 0))]
            items.append(("Pass", PASS))
            self.stack = [()]
        else:
            acts = self._acts(prefix)
            prefix, firsts = descend(acts, prefix)
            if not firsts:
                self._confirm(acts[0] if acts else None, now)
                return
            acts = None
            level = len(prefix)
            items = [(name(firsts[c], level), c) for c in sorted(firsts)]
            items.append(("Back", BACK))
            self.stack.append(prefix)
        self.menu = Menu(_ASK[len(prefix)] % p, items, owner=p)
        self._draw_menu()
        self._bot_step(now)

    def _bot_step(self, now):
        # a bot's menu step: the search begun at its throw, then the plan it found
        p = self.player
        if self.is_bot(p):
            search = self.plan
            if self._pending:
                search = self.brain.search(self.st, p, self.rng, self._kind[p], self._acts(()))
            self._pending = None
            self.think(now, search)

    def _confirm(self, action, now):
        self.action = action
        self.go(CONFIRM, now)
        self.menu = Menu("", [("Confirm", YES), ("Back", BACK)], owner=self.player)
        self._draw_menu()
        self._bot_step(now)

    def _draw_menu(self):
        m = self.menu
        if self.phase == CONFIRM:
            if self.action is None:
                one, two = seat(self.player) + ": pass this turn?", ""
            else:
                one, two = _split(R.describe(self.action))
            self.view.panel(one, two, m.items[0][0], m.items[1][0], bar=2 + m.index,
                            first=palette.WARN, color=palette.WARN)
            self._later = (self.action, 5)
            return
        n = len(m.items)
        first = m.index - _ROWS + 1 if m.index >= _ROWS else 0
        rows = ["", "", ""]
        for i in range(_ROWS):
            if first + i < n:
                rows[i] = m.items[first + i][0]
        q = m.title
        if n > _ROWS:
            q += " " + str(m.index + 1) + "/" + str(n)
        self.view.panel(q, rows[0], rows[1], rows[2], bar=1 + m.index - first,
                        first=palette.station(self.player))
        value = m.current()[1]
        # the board's marks at the next pass the game ticks: a menu step's panel and its
        # marks in one pass were 21-27 ms on the firmware
        self._later = 0 if value < 0 else (self.stack[-1] + (value,), 0)

    def _draw_marks(self):
        w = self._later
        self._later = None
        if w == 0:
            self._board()
        else:
            self._marks(w[0], w[1])

    def _marks(self, what, level):
        # Highlight where the chosen moves take their disk from (and, once the source
        # is fixed, where it may go): what is a prefix, or one action (level 5).
        marks = [0] * (self.players + 1)
        if what is not None:
            acts = (what,) if level == 5 else self._acts(what)
            fixed = level == 5 or len(what) >= 3
            for a in acts:
                self._mark(marks, a[2], a[0] <= R.URBAN_CITY)
                if fixed:
                    self._mark(marks, a[3], a[0] == R.URBAN_FILL)
        self._board(marks)

    def _mark(self, marks, loc, urban):
        p = loc >> 3
        marks[p] |= 1 << ((loc & 7) if urban else CITY0 + (loc & 7))

    def _choose(self, value, now):
        if self.phase == CONFIRM:
            if value == YES:
                self._apply(now)
            else:  # Back: the last menu again
                self.go(CHOOSE, now)
                self._reopen(now)
            return
        if value == PASS:
            self._confirm(None, now)
        elif value == BACK:
            self.stack.pop()
            self._reopen(now)
        else:
            self._open(self.stack[-1] + (value,), now)

    def _reopen(self, now):
        prefix = self.stack.pop()
        self._open(prefix, now)

    def _apply(self, now):
        a = self.action
        p = self.player
        R.apply(self.st, a, self._legal)
        self.action = None
        self._legal = None
        if a is None:
            self._said(seat(p) + " passed")
        else:
            self._said(R.describe(a))
            self.box.sound.play(sound.RIGHT, now)
        self._next(now)

    def _next(self, now):
        if R.phase(self.st) == R.DONE:
            R.next_turn(self.st)
        if R.phase(self.st) == R.OVER:
            self._over(now, R.winner(self.st), "")
        else:
            self._begin(now)

    def _said(self, text, color=palette.TEXT):
        # The action just taken: stays on screen until the next one.
        self.result = text
        one, two = _split(text)
        self.view.said(one, two, color)

    # -- the end -----------------------------------------------------------------------
    def _over(self, now, w, why):
        self.go(OVER, now)
        self.over = True
        self._due = False  # (a turn's screen, or marks, not drawn yet: the end's instead)
        self._later = None
        self.menu = None
        self.winners = [w] if w else []
        r = self.box.rings
        r.rest(self.players, now)
        v = self.view
        self._board()
        v.active(w)
        if w:
            r.set(w, rings.FLASH, palette.station(w), now_ns=now)
            self.box.sound.play(sound.WIN, now)
            v.said(seat(w) + " WINS!", "hold a button: menu", palette.station(w))
        else:
            if not why:
                why = "table locked" if R.locked(self.st) else "turn limit"
            v.said("Game over: " + why, "hold a button: menu", palette.WARN)
        lines = ["", "", "", ""]
        i = 0
        for _p, text in self.standings():
            lines[i] = text
            i += 1
        v.panel(lines[0], lines[1], lines[2], lines[3], first=palette.TEXT)

    def standings(self):
        # [(seat, "1. P2  6 symbols"), ...] by the rules' ranking (the app shows them
        # when the table ends the match from the pause menu; the end screen too).
        out = []
        for place, p, n in R.ranking(self.st):
            out.append((p, str(place) + ". " + seat(p) + "  " + str(n) + (" symbol" if n == 1 else " symbols")))
        return out

    def end(self, now_ns):
        # "End game" from the pause menu: over, without a winner.
        if self.phase != OVER:
            self._over(now_ns, 0, "ended")

    # -- input and time ----------------------------------------------------------------
    def gesture(self, player, kind, count, now_ns):
        if player != self.player or self.is_bot(player) or self.phase in (START, OVER):
            return  # only the seat to play drives its turn
        if self.phase == TURN:
            if kind == TAP and count >= 2:
                self._knock(now_ns)
            elif kind == TAP:
                self._throw(now_ns)
            return
        if self.menu is None:  # a press in the pass between the throw and its menu
            self._open((), now_ns)
        moved, value = self.turn_menu(self.menu, player, kind, count)
        if moved:
            self._draw_menu()
        elif value is not None:
            self._choose(value, now_ns)

    def due(self):
        return self._due or self._later is not None

    def draw_part(self, now_ns):
        # a turn's screen (_begin), or a menu step's marks on the board (_draw_menu)
        if self._due:
            self._draw_turn()
        else:
            self._draw_marks()

    def tick(self, now_ns):
        if self.phase == START:
            if now_ns - self._at >= self.round_ns:
                self._at = now_ns
                if self._r + 1 < len(self.rounds):
                    self._r += 1
                    self._show_round()
                else:
                    self.rounds = None
                    self._begin(now_ns)
        elif self.phase == CHOOSE and self.menu is None:
            self._open((), now_ns)
        elif self.bot_seat():
            self.bot_tick(now_ns)

    if __debug__:  # the simulator's (it skips idle time); the box never asks: its -O3 .mpy leaves this out
        def next_at(self, now_ns):
            # the throw-off's next round, a throw's menu, or a bot's step
            if self.phase == START:
                return self._at + self.round_ns
            if self.phase == CHOOSE and self.menu is None:
                return now_ns
            return self.bot_next_at(now_ns) if self.bot_seat() else None

    def resumed(self, now_ns, paused_ns):
        super().resumed(now_ns, paused_ns)
        self._at += paused_ns  # a throw-off round goes on where it stopped

    # -- bots (games.zap_city_bots decides; referee.turns runs its steps) ---------------
    def bot_show(self, choice, now):
        if self.phase == TURN:
            return
        self.plan = choice
        m = self.menu
        was = m.index
        want = self._want()
        for i in range(len(m.items)):
            if m.items[i][1] == want:
                m.index = i
        if m.index != was:  # (else the menu is on the screen as it is)
            self._draw_menu()

    def bot_act(self, choice, now):
        if self.phase == TURN:
            if choice == KNOCK:
                self._knock(now)
            else:
                self._throw(now)
        else:
            self._choose(self.menu.current()[1], now)

    def _want(self):
        # The menu value that leads to the bot's plan.
        if self.phase == CONFIRM:
            return YES
        if self.plan is None:
            return PASS
        return field(self.plan, len(self.stack[-1]))

    # -- saving ------------------------------------------------------------------------
    def state(self):
        return {"zap": R.to_data(self.st), "turn": self.player, "result": self.result}

    def restore(self, data, now_ns):
        st = R.from_data(data["zap"])  # ValueError for anything but a sound save
        if R.players(st) != self.players or data.get("turn") != R.turn(st):
            raise ValueError("not this table's ZAP City save")
        if R.phase(st) not in (R.THROW, R.OVER):
            raise ValueError("a ZAP City save is made between turns")
        self.st = st
        self.rounds = None
        self._said(str(data.get("result", "")))
        if R.phase(st) == R.OVER:
            self._over(now_ns, R.winner(st), "")
        else:
            self._begin(now_ns)
            self.draw_due(now_ns)  # a resumed match is drawn whole at once
