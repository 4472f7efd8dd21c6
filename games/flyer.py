# Essen 2006 flyer game on the box: the flow. Rules in games/flyer_rules.py (every
# ruling), the screen in games/flyer_screen.py, the bots in games/flyer_bots.py
# (imported only when a seat is a bot). docs/flyer.md, "Playing on the box".
#
# Seats: the flyer is for four homebases and the box always plays four. The launcher's
# player count (2..4) is the seats people may take, 1..n; seats n+1..4 are the box's
# bots (self.players is 4 once the game is built, so saves, scores and rings count four).
#
# Phases (FLOW below is the whole state machine):
#   SETUP   the six d6 throws and the values shown; a person's hold starts (a table of
#           bots goes on by itself after SETUP_MS)
#   ROLL    the six colour dice tumble, then the throw; a save point before it
#   FROM    menu: End turn, or the space to move from
#   MARKERS menu: which markers (Back)
#   TO      menu: where to; the dice that would pay are framed (Back)
#   CONFIRM menu: Move (pay and go) or Back; then FROM again
#   BOT     a bot seat plays a move every think time (referee.turns: the paying dice framed first)
#   OVER    all six markers home, the turn cap, or the table ended it (pause menu: the
#           app then shows standings())
# Only the active seat's button drives its menus; other seats' presses are ignored.
#
# (Docstrings would cost the box no RAM, its .mpy drops them; only the tests'
# MicroPython VM, compiling the .py, keeps them: docs/design.md, "Memory".)

from games import flyer_rules as R
from games.flyer_rules import ADJACENT  # noqa: F401  (pinned)
from games.flyer_screen import View
from referee import palette, rings, sound
from referee.core import MS, const, seat
from referee.game import Option
from referee.gestures import HOLD
from referee.menu import BACK, Menu
from referee.turns import TurnGame

TITLE = "Flyer (Essen 2006)"
MIN_PLAYERS = 2
MAX_PLAYERS = 4
OPTIONS = (
    Option("covered", "Covered rule", (False, True), False, ("off", "on")),
    Option("bot", "Bots", ("greedy", "spoiler"), "greedy"),
)

SETUP = const(0)
ROLL = const(1)
FROM = const(2)
MARKERS = const(3)
TO = const(4)
CONFIRM = const(5)
BOT = const(6)
OVER = const(7)

ROLL_MS = const(600)  # the colour dice tumble
SETUP_MS = const(4000)  # a table of bots reads the set-up this long
FLASH_MS = const(1500)  # a homebase owner's ring flashes on scoring
FRAME_MS = const(80)
MOVE = "move"
HINT = "tap:next hold:ok"  # beside "P4 plays", on its own dark block: 16 characters at most


def _mask(colours):
    m = 0
    for c in colours:
        m |= R.bit(c)
    return m


class Game(TurnGame):
    TITLE = TITLE
    VERSION = 1  # the shape of state(): bump it when it changes (a save of another is not resumed)
    # a bot's step's screen still to draw at the next pass (BaseGame.due): its move
    # (framed on the board, described) or 0 (the board as played, "thinks..."); None: nothing
    _due = None
    NAMES = ("setup", "roll", "from", "markers", "to", "confirm", "bot", "over")
    FLOW = (
        (ROLL, OVER),  # SETUP
        (FROM, BOT, OVER),  # ROLL
        (MARKERS, ROLL, OVER),  # FROM: a space, or End turn (the next seat rolls)
        (MARKERS, FROM, TO, OVER),  # MARKERS: pick more, Back, or the group is chosen
        (MARKERS, CONFIRM, OVER),  # TO
        (TO, FROM, OVER),  # CONFIRM: Back, or moved
        (BOT, ROLL, OVER),  # BOT: moved, or ended the turn
        (),  # OVER
    )
    BOTS = "games.flyer_bots"

    def __init__(self, box, players, bots=(), seed=0, options=None, settings=None):
        people = players
        bots = tuple(bots) + tuple(range(people + 1, R.PLAYERS + 1))
        super().__init__(box, R.PLAYERS, bots, seed, options, settings)
        o = self.options
        self.covered = o["covered"]
        self.bot_kind = o["bot"]
        self.roll_ns = ROLL_MS * MS
        self.st, self.throws = R.setup(self.rng, R.PLAYERS)
        self.dice = None  # the throw, None for each spent die (None: not thrown)
        self.menu = None
        self.frm = None  # the move being built: from-space, markers, the whole move
        self.mask = 0
        self.move = None
        self.last = ""  # the last move, shown until the next one
        self.how = ""  # how the game ended
        self.flash = 0  # seat whose ring flashes (0 = none) and since when
        self.flash_at = 0
        self._frame = -1
        self.view = View(self.root, R.PLAYERS)

    # --- the pinned views ----------------------------------------------------------
    @property
    def stacks(self):
        return self.st.stacks

    @property
    def values(self):
        return self.st.values

    @property
    def scores(self):
        return self.st.scores

    @property
    def player(self):
        return self.st.current

    # --- the app's calls -----------------------------------------------------------
    def start(self, now_ns):
        v = self.view
        st = self.st
        v.values_of(st.values)
        v.homes(st.scores)
        v.board(st.stacks)
        v.show_dice(None)
        people = len(self.bots) < R.PLAYERS
        v.turn(0, "Set-up", "")
        v.lines("Throws " + " ".join(str(t) for t in self.throws) + ": points",
                seat(st.current) + " starts" + ("  hold: go" if people else ""))
        self._rings(now_ns)

    def gesture(self, player, kind, count, now_ns):
        if self.phase == SETUP:
            if kind == HOLD and not self.is_bot(player):
                self._begin_turn(now_ns)
            return
        if self.phase not in (FROM, MARKERS, TO, CONFIRM):
            return
        moved, value = self.turn_menu(self.menu, player, kind, count)  # the active person's button only
        if moved:
            self._draw_menu()
        elif value is not None:
            self._choose(value, now_ns)

    def tick(self, now_ns):
        if self.flash and now_ns - self.flash_at >= FLASH_MS * MS:
            self.flash = 0
            self._rings(now_ns)
        phase = self.phase
        since = now_ns - self.phase_at
        if phase == SETUP:
            if len(self.bots) >= R.PLAYERS and since >= SETUP_MS * MS:
                self._begin_turn(now_ns)
        elif phase == ROLL:
            if since >= self.roll_ns:
                self._thrown(now_ns)
            else:
                frame = since // (FRAME_MS * MS)
                if frame != self._frame:
                    self._frame = frame
                    self.view.show_dice(None, (), frame)
        elif phase == BOT:
            self.bot_tick(now_ns)  # a bot's step begins with the phase (bot_decide)

    if __debug__:  # the simulator's (it skips idle time); the box never asks: its -O3 .mpy leaves this out
        def next_at(self, now_ns):
            # a flash's end; a table of bots' set-up read; the roll's end; a bot's step
            due = [self.flash_at + FLASH_MS * MS] if self.flash else []
            phase = self.phase
            if phase == SETUP:
                if len(self.bots) >= R.PLAYERS:
                    due.append(self.phase_at + SETUP_MS * MS)
            elif phase == ROLL:
                due.append(self.phase_at + self.roll_ns)
            elif phase == BOT:
                due.append(self.bot_next_at(now_ns))
            return min(due) if due else None

        def next_look_at(self, now_ns):
            # the tumble's next frame (the dice it shows: not the match's)
            if self.phase == ROLL:
                return self.phase_at + (self._frame + 1) * FRAME_MS * MS
            return None

    def resumed(self, now_ns, paused_ns):
        # the pause menu closed: timers go on where they stopped
        super().resumed(now_ns, paused_ns)
        self.flash_at += paused_ns

    def standings(self):
        # best first, for the app's "Match ended" screen: "P4  12 pts: red wht"
        st = self.st
        out = []
        for p in self._ranked():
            home = st.stacks.get(R.HOMES[p - 1], ())
            n = len(home)
            what = "" if not n else ": " + (R.names(_mask(home), None, 12) if n <= 3 else str(n) + " markers")
            out.append((p, seat(p) + "  " + str(st.scores[p - 1]) + " pts" + what))
        return out

    def end(self, now_ns):
        # the table ended the match from the pause menu: over, scored as it stands
        if self.phase != OVER:
            self._game_over(now_ns, "Ended by the table")

    def _ranked(self):
        sc = self.st.scores
        return sorted(range(1, len(sc) + 1), key=lambda p: -sc[p - 1])

    # --- turns ----------------------------------------------------------------------
    def _begin_turn(self, now):
        # a save point: the last turn has ended (or the set-up is done)
        self.saves += 1
        self.dice = None
        self.menu = None
        self._due = None
        self._frame = -1
        self.go(ROLL, now)
        p = self.player
        self.view.turn(p, seat(p) + (" (bot)" if self.is_bot(p) else "") + " to play", "")
        self.view.board(self.st.stacks)
        self.view.lines(self.last, "Rolling...")
        self.box.sound.play(sound.CLICK, now)
        self._rings(now)

    def _thrown(self, now):
        self.dice = R.roll(self.rng)
        self.view.show_dice(self.dice)
        if self.is_bot(self.player):
            self.move = None
            self.go(BOT, now)
            self.view.lines(self.last, seat(self.player) + " thinks...")
        else:
            self._menu_from(now)

    def _end_turn(self, now):
        R.end_turn(self.st)
        self.menu = None
        if R.over(self.st):
            self._game_over(now, "Turn limit reached")
        else:
            self._begin_turn(now)

    def _played(self, move, now):
        # pay and move (the flow has checked the move: a ValueError here is a bug)
        p = self.player
        points = R.play(self.st, move, p, self.dice, self.covered)
        # the last move, shown until the next one: "P4: red+purple to home4 +8"
        n = R.count(move)
        tail = " to " + move[1]
        room = 26 - 4 - len(tail) - 4  # "P4: ", " +12"
        self.last = seat(p) + ": " + (R.names(move[2], None, room) if n <= 2 else str(n) + " markers") + tail
        if points:
            self.last += " +" + str(points)
            owner = R.OWNER[move[1]]
            self.flash = owner
            self.flash_at = now
            self.box.sound.play(sound.RIGHT, now)
            self._rings(now)
        self.view.homes(self.st.scores)
        self.view.show_dice(self.dice)
        self.move = None
        self.frm = None
        if R.markers_home(self.st) == 6:
            R.end_turn(self.st)
            self._game_over(now, "All markers home")
            return False
        return True

    # --- a person's menus -------------------------------------------------------
    def _open(self, phase, title, items, now, index=0, back=True):
        self.go(phase, now)
        self.menu = Menu(title, items, owner=self.player, index=index, back=back)
        self._draw_menu()

    def _menu_from(self, now):
        self.frm = None
        self.mask = 0
        self.move = None
        items = R.menu_from(self.st, self.player, self.dice, self.covered)
        title = "From where?" if len(items) > 1 else "No move left"
        self._open(FROM, title, items, now, 1 if len(items) > 1 else 0, False)

    def _menu_markers(self, now, picked=0):
        self.move = None
        items = R.menu_markers(self.st, self.player, self.dice, self.covered, self.frm, picked)
        self.mask = picked
        self._open(MARKERS, "Which markers?", items, now)

    def _menu_to(self, now):
        items = R.menu_to(self.st, self.player, self.dice, self.covered, self.frm, self.mask)
        self._open(TO, "Where to?", items, now)

    def _menu_confirm(self, now):
        n = len(R.payment(self.st, self.move, self.dice))
        self._open(CONFIRM, "Move?", [("Move: pay " + str(n) + " dice", MOVE)], now)

    def _choose(self, value, now):
        phase = self.phase
        if phase == FROM:
            if value == R.END:
                self._end_turn(now)
            else:
                self.frm = value
                self._menu_markers(now)
        elif phase == MARKERS:
            if value == BACK:
                self._menu_from(now)
            elif value[1]:
                self.mask = value[0]
                self._menu_to(now)
            else:
                self._menu_markers(now, value[0])
        elif phase == TO:
            if value == BACK:
                self._menu_markers(now)
            else:
                self.move = value
                self._menu_confirm(now)
        elif phase == CONFIRM:
            if value == BACK:
                self.move = None
                self._menu_to(now)
            elif self._played(self.move, now):
                self._menu_from(now)

    def _draw_menu(self):
        # the menu's current item, with what it would do shown on the board and dice
        m = self.menu
        text, value = m.current()
        frm = self.frm
        mask = self.mask
        move = self.move
        if self.phase == FROM:
            frm = value if value != R.END else None
        elif self.phase == MARKERS and value != BACK:
            mask = value[0]
        elif self.phase == TO and value != BACK:
            move = value
        self._show_move(frm, mask, move)
        where = " " + str(m.index + 1) + "/" + str(len(m.items))
        if self.phase == CONFIRM:
            head = R.describe(self.move)
        elif self.phase == FROM:
            head = self.last or m.title
        else:
            head = m.title + where
        self.view.lines(head, text, True)
        p = self.player
        self.view.turn(p, seat(p) + " plays", HINT)

    def _show_move(self, frm, mask, move):
        paying = ()
        to = None
        if move is not None:
            frm, to, mask = move
            paying = R.payment(self.st, move, self.dice) or ()
        self.view.board(self.st.stacks, frm, to, mask)
        self.view.show_dice(self.dice, paying)

    # --- bots ---------------------------------------------------------------------
    def bot_decide(self):
        # the bot's search for its next move on the dice left
        return self.brain.search(self.bot_kind, self.st, self.player, self.dice, self.covered, self.rng)

    def bot_show(self, move, now):
        # the bot's move framed (its payment) at half its think time; None ends the turn
        if move is None:
            self._end_turn(now)
            return
        self.move = move
        self._due = move  # framed at the next pass (draw_part)

    def bot_act(self, move, now):
        if self._played(move, now):
            self.go(BOT, now)
            # the board at the next pass: a bot's move played and the board drawn in one
            # pass were 21-28 ms on the firmware
            self._due = 0

    def due(self):
        return self._due is not None

    def draw_part(self, now_ns):
        # a bot's step's screen (a step's screen and the next step: a pass each)
        d = self._due
        self._due = None
        if d == 0:
            self.view.board(self.st.stacks)
            self.view.lines(self.last, seat(self.player) + " thinks...")
        else:
            self._show_move(None, 0, d)
            self.view.lines(self.last, R.describe(d))

    # --- the end ------------------------------------------------------------------
    def _game_over(self, now, how):
        st = self.st
        self.menu = None
        self._due = None
        self.move = None
        self.over = True
        self.winners = R.winners(st)
        self.how = how
        self.flash = 0  # the winners' rings flash from now on
        self.go(OVER, now)
        v = self.view
        v.board(st.stacks)
        v.homes(st.scores)
        w = self.winners  # (the dice are done: the winner takes their place)
        if len(w) == 1:
            v.turn(w[0], seat(w[0]) + " wins!", "hold: menu")
            v.winner(seat(w[0]), "wins!", palette.station(w[0]))
        else:
            v.turn(0, "Tie: " + " ".join(seat(p) for p in w), "hold: menu")
            v.winner("Tie:", " ".join(seat(p) for p in w), palette.TEXT)
        v.lines(how, "  ".join(seat(p) + " " + str(st.scores[p - 1]) for p in self._ranked()))
        self.box.rings.rest(st.players, now)
        for p in w:
            self.box.rings.set(p, rings.FLASH, palette.station(p), now_ns=now)
        self.box.sound.play(sound.WIN, now)

    def _rings(self, now):
        r = self.box.rings
        r.rest(R.PLAYERS, now)
        if self.phase != SETUP:
            r.set(self.player, rings.PULSE, palette.station(self.player), now_ns=now)
        if self.flash:
            r.set(self.flash, rings.FLASH, palette.station(self.flash), now_ns=self.flash_at)

    # --- saving -------------------------------------------------------------------
    def state(self):
        # the rules' save data plus whose turn it is (saved only between turns)
        d = R.to_data(self.st)
        d["turn"] = self.st.current
        return d

    def restore(self, data, now_ns):
        # ValueError for anything a game cannot reach (the app drops such a save)
        st = R.from_data(data)
        if st.players != R.PLAYERS or data.get("turn", st.current) != st.current:
            raise ValueError("not a four-seat flyer save")
        self.st = st
        self.last = ""
        self.view.values_of(st.values)
        self.view.homes(st.scores)
        if R.over(st):
            self._game_over(now_ns, "All markers home" if R.markers_home(st) == 6 else "Turn limit reached")
        else:
            self._begin_turn(now_ns)
