# Zilch on the box: the turn flow (docs/zilch.md). The rules are games.zilch_rules
# (re-exported here: score, is_zilch, Rules), the screen games.zilch_screen, the bots
# games.zilch_bots (imported only when a seat is a bot). Each turn the box rolls the
# free dice, offers the active player (on their own button) only the legal
# set-asides, then "Roll N dice" or "Bank X" when banking is allowed, and keeps
# every total. Totals change only when a turn ends (bank, a challenge's Zilch).
#
# Phases of a turn (FLOW below lists every allowed move):
#   PRE  --hold "Roll 6 dice" / "Challenge Pn"-->  ROLL (dice tumble)
#   ROLL --no scoring dice--> END (Zilch shown)            --> PRE of the next turn
#   ROLL --otherwise-->       PICK (menu of set-asides)
#   PICK --hold a set-aside--> NEXT ("Roll N dice" / "Bank X"; after turning the
#                              corner only "Roll 6 dice")
#   NEXT --roll--> ROLL      NEXT --bank--> END (bank shown) --> PRE or OVER
# PRE -> PRE: a turn begins again (start, restore); PRE -> OVER: a finished match
# restored. Bot seats decide after ``think_ns`` (the highlight moves to their
# choice, taken ``think_ns // 2`` later), so the table can follow them.

from games.zilch_rules import Rules, is_zilch, options_steps, score  # noqa: F401  (the pinned API)
from games.zilch_screen import View
from referee import dice, palette, rings, sound
from referee.core import MS, const, seat
from referee.game import Option
from referee.menu import Menu
from referee.turns import TurnGame

TITLE = "Zilch"
MIN_PLAYERS = 2
MAX_PLAYERS = 7
# Values as Rules.from_options takes them: the target as an int, switches as bools
# ("off"/"on" is only how they read in the launcher). "mixed" bots alternate by seat:
# the first bot seat cautious, the next expected value, and so on.
_OFF_ON = ("off", "on")
_NO_YES = (False, True)
OPTIONS = (
    Option("variant", "Game", (15000, 10000, 5000), 15000, ("15,000", "10,000", "5,000")),
    Option("pyramiding", "Pyramiding", _NO_YES, False, _OFF_ON),
    Option("challenge", "Challenge", _NO_YES, False, _OFF_ON),
    Option("overtaking", "Overtaking", _NO_YES, False, _OFF_ON),
    Option("hint", "Hint", _NO_YES, False, _OFF_ON),
    Option("bot", "Bots", ("cautious", "expected", "mixed"), "expected", ("cautious", "expected value", "mixed")),
)

PRE = const(0)  # before the first roll: roll, or announce a challenge
ROLL = const(1)  # the dice tumble
PICK = const(2)  # choose the dice to set aside
NEXT = const(3)  # roll the free dice or bank
END = const(4)  # the turn's result is shown
OVER = const(5)

ROLL_MS = const(600)  # the dice tumble
SHOW_MS = const(1600)  # a bank or a Zilch stays on screen
FRAME_MS = const(70)  # each tumbling die turns about this often
_BLANK = (None, None, None, None, None, None)


def dice_text(faces):
    return " ".join(str(f) for f in faces)


def _without(roll, taken):
    # ``roll`` minus the faces in ``taken`` (a multiset difference)
    rest = list(roll)
    for f in taken:
        rest.remove(f)
    return rest


class Game(TurnGame):
    TITLE = TITLE
    VERSION = 1  # the shape of state(): bump it when it changes (a save of another is not resumed)
    NAMES = ("pre", "roll", "pick", "next", "end", "over")
    FLOW = (
        (PRE, ROLL, OVER),  # PRE
        (PICK, END),  # ROLL
        (NEXT,),  # PICK
        (ROLL, END),  # NEXT
        (PRE, OVER),  # END
        (),  # OVER
    )
    BOTS = "games.zilch_bots"
    SHOW_HALVES = 2  # a bot's choice shows after a whole think time, is taken half one later

    def __init__(self, box, players, bots=(), seed=0, options=None, settings=None):
        super().__init__(box, players, bots, seed, options, settings)
        o = self.options
        self.rules = Rules.from_options(o)  # the variant and its three switches; the rest is ignored
        self.show_hint = o["hint"]
        self.strategy = None  # games.zilch_strategy, for the hint line
        if self.show_hint:
            from games import zilch_strategy

            self.strategy = zilch_strategy
        self.bot_kinds = {}  # bot seat -> "ev" or "cautious"
        if self.brain is not None:
            self.bot_kinds = self.brain.levels(o["bot"], self.bots)
        self.roll_ns = ROLL_MS * MS
        self.show_ns = SHOW_MS * MS
        n = players + 1  # per-seat lists, index 0 unused
        self.totals = [0] * n
        self.on_board = [False] * n
        self.last_bank = [0] * n  # each player's last banked turn (overtaking)
        self.challenges = [[False, False] for _ in range(n)]  # [before 5,000 used, after used]
        self.reached = [False] * n  # the total has reached 5,000 (the challenge split) once
        self.challenge_count = [0] * n
        self.turn_no = 0
        self.previous = 0  # who played the turn before this one (0 = nobody yet)
        self.final_by = 0  # who first ended a turn above the target (0 = not yet)
        self.queue = []  # players still owed a final or tie-break turn, in order
        self.tiebreak = 0  # tie-break rounds started
        self.turn_log = None  # a list to record every finished turn (tests, demos)
        self.last_turn = None  # the record of the last finished turn
        self.now = 0
        self._spin = 1  # the tumble's faces (see _throw)
        self._tumble = [1, 1, 1, 1, 1, 1]
        self._steps = None  # the roll's set-asides being worked out (ROLL)
        self._found = None  # ... and once known
        self._frame = -1  # the tumble's last turn: the time slot it fell in
        self._turns = 0  # the tumble's turns so far
        self._menu_due = 0  # a change's scores and menu to draw (2), its menu (1): _draw
        self._new_turn_state(1)
        self.view = View(self.root, players)

    # --- per-turn state ---------------------------------------------------------------
    def _new_turn_state(self, player):
        self.player = player
        self.turn_points = 0
        self.frozen = []  # dice set aside in this six-dice cycle
        self.roll = []  # the dice on the table (the last roll)
        self.free = []  # dice that the next roll will throw again (for the screen)
        self.corners = 0
        self.challenged = 0  # the seat challenged this turn (0 = no challenge)
        self.challenge_no = 0  # 1 or 2: which of the player's challenges this is (its
        # penalty goes by its side of 5,000, penalty() below, not by this order)
        self.menu = None
        self.result = ""
        self._bot_bank = False

    def dice_left(self):
        # dice the next roll throws: 6 at the start and after turning the corner
        return 6 - len(self.frozen)

    def beat(self):
        # with overtaking: the previous player's last banked turn, else 0
        if not self.rules.overtaking or not self.previous or self.previous == self.player:
            return 0
        return self.last_bank[self.previous]

    def bank_minimum(self):
        return self.rules.bank_minimum(self.on_board[self.player], self.beat())

    def can_bank(self):
        return self.rules.can_bank(self.turn_points, self.dice_left(), self.on_board[self.player], self.beat())

    def challenge_slot(self, player):
        # 0 (before 5,000) or 1 (after) if ``player`` may announce a challenge now, else -1
        return self.rules.challenge_slot(self.challenges[player], self.reached[player])

    def penalty(self, player):
        # what a Zilch costs ``player`` on a challenge announced now: the side of 5,000
        # decides (600 before, 2,000 after), not how many challenges they have used. A
        # total only moves when a turn ends, so the side stays put through the turn.
        return self.rules.challenge_penalties[1 if self.reached[player] else 0]

    # --- the screen -----------------------------------------------------------------------
    def _draw(self, menu_later=False):
        # everything from the state (called when the state changes); menu_later: the
        # scores in the next pass (tick) and the menu in the one after, a turn's change
        # drawn over three passes (in one, a new turn's was a 20 ms tick on the firmware)
        v = self.view
        p = self.player
        if self.phase == OVER:
            w = self.winners
            v.header("Game over", "hold: menu", palette.station(w[0]) if len(w) == 1 else palette.PANEL)
            v.kept(())
            v.status("")
        else:
            who = (" vs " + seat(self.challenged)) if self.challenged else " to play"
            v.header(seat(p) + who, "this turn " + str(self.turn_points), palette.station(p))
            v.kept(self.frozen)
            v.status(self._status_text())
        self._draw_dice()
        self._menu_due = 2
        if not menu_later:
            self.draw_due(self.now)

    def due(self):
        return self._menu_due != 0

    def draw_part(self, now_ns):
        # what _draw left for later, a pass each (BaseGame.due): the scores, then the menu
        if self._menu_due == 2:
            self._menu_due = 1
            w = self.winners
            self.view.scores(self.totals, (w[0] if len(w) == 1 else 0) if self.phase == OVER else self.player)
        else:
            self._draw_menu()

    def _status_text(self):
        if self.final_by:
            return "TIE-BREAK" if self.tiebreak else "FINAL TURN"
        if self.phase == NEXT and self.corners and not self.frozen:
            return "CORNER"
        return ""

    def _draw_dice(self):
        phase = self.phase
        if phase == PRE:
            self.view.dice(_BLANK, True)
        elif phase == OVER:
            self.view.dice(())
        elif phase == NEXT or (phase == END and self.result == "bank"):
            self.view.dice(self.free or _BLANK, True)
        elif phase == ROLL:
            n = len(self.roll)  # dice not turned yet stay as they were, grey
            self.view.dice(self._tumble[:n], False, (), self._turns)
        elif phase == PICK:
            self.view.dice(self.roll, False, self._positions(self.menu.current()[1][1]))
        else:
            self.view.dice(self.roll)

    def _positions(self, faces):
        # indexes in ``self.roll`` of the dice ``faces`` (a sub-multiset)
        used = []
        for f in faces:
            for i, g in enumerate(self.roll):
                if g == f and i not in used:
                    used.append(i)
                    break
        return used

    def _draw_menu(self):
        v = self.view
        self._menu_due = 0
        if self.phase in (END, OVER):
            return  # the result is on screen (_banner)
        v.no_result()
        if self.phase == ROLL:
            v.no_menu("Rolling...")
            return
        p = self.player
        if self.is_bot(p):
            hint = seat(p) + " bot: " + ("cautious" if self.bot_kinds[p] == "cautious" else "exp. value")
        elif self.show_hint:
            hint = self._hint_text()
        else:
            hint = "tap:next hold:pick"
        v.menu(self.menu, hint)

    def _hint_text(self):
        points = self.turn_points
        left = self.dice_left()
        if self.phase == PICK:
            value = self.menu.current()[1]
            points += value[2]
            left = len(self.roll) - len(value[1])
            if left == 0:
                left = 6
        return self.strategy.hint_text(points, left, self.rules, self.on_board[self.player], self.beat())

    def _banner(self, big, small, colour):
        self.view.no_menu()
        self.view.result(big, small, colour, self.phase == OVER)

    # --- the flow ---------------------------------------------------------------------------
    def start(self, now_ns):
        self.now = now_ns
        self._begin_turn(1, now_ns)

    def _begin_turn(self, player, now):
        self.turn_no += 1
        self._new_turn_state(player)
        self.box.rings.rest(self.players, now)
        self.box.rings.set(player, rings.PULSE, palette.station(player), now_ns=now)
        items = [("Roll 6 dice", ("roll",))]
        slot = self.challenge_slot(player)
        if slot >= 0:
            for q in range(1, self.players + 1):
                if q != player:
                    items.append(("Challenge " + seat(q), ("challenge", q)))
        title = "Your turn"
        if slot >= 0:
            title = "Challenge risk " + str(self.penalty(player))
        self.menu = Menu(title, items, owner=player)
        self.go(PRE, now)
        self.saves += 1  # a turn begins (the last one ended): the app saves the match
        self._draw(menu_later=True)

    def deal(self, n):
        # the faces of a throw of ``n`` dice
        return dice.roll(self.rng, n)

    def _throw(self, now):
        self.roll = self.deal(self.dice_left())
        t = self._tumble  # the dice as they lie until each turns
        f = self.free
        for i in range(6):
            t[i] = f[i] if i < len(f) else None
        self.free = []
        # The tumble shows faces from a small generator of its own, started from the
        # game's generator state without drawing from it: the dice a seed deals do not
        # depend on how many turns a tumble had time for.
        self._spin = (self.rng._s[0] & 0xFFFF) or 1
        self._frame = -1
        self._turns = 0
        # the roll's set-asides worked out a few a pass while the dice tumble
        self._steps = options_steps(self.roll, self.rules, self.frozen)
        self._found = None
        self.go(ROLL, now)
        self.box.sound.play(sound.CLICK, now)
        self._draw()

    def _turn(self, left_ns):
        # One die turns, the dice in turn: one die a loop pass is one die's area for the
        # display to redraw (the six at once made a pass of 80-110 ms on the firmware).
        # In the last round of turns (``left_ns``: the tumble's time left) each die lands
        # on the face it was dealt, so the throw's end redraws no die again.
        n = len(self.roll)
        i = self._turns % n
        self._turns += 1
        if left_ns < FRAME_MS * MS:
            self._tumble[i] = self.roll[i]
            return
        x = self._spin
        x ^= (x << 7) & 0xFFFF
        x ^= x >> 9
        x ^= (x << 8) & 0xFFFF
        t = self._tumble
        t[i] = ((t[i] or 0) + x % 5) % 6 + 1  # another face than it shows
        self._spin = x

    def _work(self):
        # the next few of the roll's set-asides (``options_steps``); True when all are known
        if self._found is None:
            for found in self._steps:
                if found is not None:
                    self._found = found
                    self._steps = None
                break
        return self._found is not None

    def _rolled(self, now):
        while not self._work():
            pass
        found = self._found
        self._found = None
        if not found:
            self._zilch(now)
            return
        items = []
        for faces, points in found:
            items.append((dice_text(faces) + "  +" + str(points), ("keep", faces, points)))
        self.menu = Menu("Set aside which?", items, owner=self.player)
        self.go(PICK, now)
        self._draw(menu_later=True)

    def _set_aside(self, faces, points, now):
        self.free = _without(self.roll, faces)
        self.frozen = self.frozen + list(faces)
        self.turn_points += points
        if len(self.frozen) == 6:  # turned the corner: all six must be rolled again
            self.corners += 1
            self.frozen = []
            self.free = []
            self.menu = Menu("Corner! Roll six", [("Roll 6 dice", ("roll",))], owner=self.player)
            self.box.sound.play(sound.RIGHT, now)
        else:
            n = self.dice_left()
            items = [("Roll " + str(n) + (" dice" if n > 1 else " die"), ("roll",))]
            if self.can_bank():
                items.append(("Bank " + str(self.turn_points), ("bank",)))
                title = "Roll or bank?"
            else:
                title = "Bank needs " + str(self.bank_minimum())
            self.menu = Menu(title, items, owner=self.player)
        self.go(NEXT, now)
        self._draw(menu_later=True)

    def _choose(self, value, now):
        what = value[0]
        if what == "roll":
            self._throw(now)
        elif what == "challenge":
            p = self.player
            slot = self.challenge_slot(p)
            if slot < 0:
                return
            self.challenges[p][slot] = True
            self.challenge_count[p] += 1
            self.challenge_no = self.challenge_count[p]
            self.challenged = value[1]
            self._throw(now)
        elif what == "keep":
            self._set_aside(value[1], value[2], now)
        elif what == "bank":
            if self.can_bank():
                self._bank(now)

    def _bank(self, now):
        p = self.player
        points = self.turn_points
        record = self._record("bank", points)
        self.result = "bank"
        self.totals[p] += points
        if self.totals[p] >= self.rules.challenge_split:
            self.reached[p] = True
        self.on_board[p] = True
        self.last_bank[p] = points
        text = "+" + str(points)
        if self.challenged:
            q = self.challenged
            taken = min(points, self.totals[q])  # totals never go below 0
            self.totals[q] -= taken
            text += "\n" + seat(q) + " -" + str(taken)
        self._finish(record, now)
        self._banner("BANK", seat(p) + " " + text, palette.GOOD)
        self.box.sound.play(sound.RIGHT, now)

    def _zilch(self, now):
        p = self.player
        record = self._record("zilch", 0)
        self.result = "zilch"
        small = seat(p) + (" loses " + str(self.turn_points) if self.turn_points else " scores nothing")
        if self.challenged:
            penalty = self.penalty(p)
            record["penalty"] = penalty
            self.totals[p] = max(0, self.totals[p] - penalty)
            small = seat(p) + " pays " + str(penalty)
        self.turn_points = 0
        self._finish(record, now)
        self._banner("ZILCH!", small, palette.BAD)
        self.box.sound.play(sound.LOCKOUT, now)

    def _record(self, result, points):
        return {
            "turn": self.turn_no,
            "player": self.player,
            "result": result,
            "points": points,
            "lost": self.turn_points if result == "zilch" else 0,
            "minimum": self.bank_minimum(),
            "beat": self.beat(),
            "challenged": self.challenged,
            "challenge_no": self.challenge_no,
            "penalty": 0,
            "before": list(self.totals),
        }

    def _finish(self, record, now):
        record["after"] = list(self.totals)
        self.last_turn = record
        if self.turn_log is not None:
            self.turn_log.append(record)
        self.menu = None
        self.go(END, now)
        self._draw(menu_later=True)  # (the scores at the next pass: the turn's result, its
        # banner and the scores in one pass were 25-27 ms on the firmware)

    def _after_turn(self, now):
        # the turn's result has been shown: whose turn is next, or the end
        p = self.player
        self.previous = p
        n = self.players
        if not self.final_by and self.totals[p] > self.rules.target:
            self.final_by = p
            self.queue = [(p + k - 1) % n + 1 for k in range(1, n)]
        if not self.final_by:
            self._begin_turn(p % n + 1, now)
            return
        if not self.queue:
            top = max(self.totals[1:])
            leaders = [q for q in range(1, n + 1) if self.totals[q] == top]
            if len(leaders) == 1:
                self._game_over(leaders, now)
                return
            self.tiebreak += 1
            leaders.sort(key=lambda q: (q - p - 1) % n)  # on round the table after p
            self.queue = leaders
        self._begin_turn(self.queue.pop(0), now)

    def _game_over(self, winners, now):
        self.winners = winners
        self.over = True
        self.menu = None
        self.go(OVER, now)
        self.box.rings.rest(self.players, now)
        for w in winners:
            self.box.rings.set(w, rings.FLASH, palette.station(w), now_ns=now)
        self.box.sound.play(sound.WIN, now)
        self._draw()
        names = " ".join(seat(w) for w in winners)
        self._banner(names + " WINS", str(self.totals[winners[0]]) + " points", palette.station(winners[0]))

    # --- input and time ---------------------------------------------------------------------
    def gesture(self, player, kind, count, now_ns):
        self.now = now_ns
        if self.phase not in (PRE, PICK, NEXT):
            return
        moved, value = self.turn_menu(self.menu, player, kind, count)  # the active human's button only
        if moved:
            self._draw_dice()
            self._draw_menu()
        elif value is not None:
            self._choose(value, now_ns)

    def tick(self, now_ns):
        self.now = now_ns
        phase = self.phase
        if phase == ROLL:
            elapsed = now_ns - self.phase_at
            if elapsed >= self.roll_ns:
                self._rolled(now_ns)
            else:
                self._work()
                # a turn in each time slot (a die's frame shared by the tumbling dice),
                # at most one a pass, however many slots a long pass let go by
                frame = elapsed // (FRAME_MS * MS // len(self.roll))
                if frame != self._frame:
                    self._frame = frame
                    self._turn(self.roll_ns - elapsed)
                    self._draw_dice()
        elif phase == END:
            if now_ns - self.phase_at >= self.show_ns:
                self._after_turn(now_ns)
        elif self.bot_seat():  # a bot's step begins with the phase (the menu is up)
            self.bot_tick(now_ns)

    if __debug__:  # the simulator's (it skips idle time); the box never asks: its -O3 .mpy leaves this out
        def next_at(self, now_ns):
            # a turn's menu; the roll's end; the shown result's end; a bot's step
            phase = self.phase
            if phase == ROLL:
                return self.phase_at + self.roll_ns
            if phase == END:
                return self.phase_at + self.show_ns
            return self.bot_next_at(now_ns) if self.bot_seat() else None

        def next_look_at(self, now_ns):
            # the tumble's next turn (the dice it shows: not the match's); the roll's
            # set-asides worked out ahead (the roll's end works out the rest)
            if self.phase == ROLL:
                if self._found is None:
                    return now_ns
                return self.phase_at + (self._frame + 1) * (FRAME_MS * MS // len(self.roll))
            return None

    # --- bots (games.zilch_bots decides; referee.turns runs its steps) --------------------
    def bot_show(self, value, now):
        for i, item in enumerate(self.menu.items):
            if item[1] == value:
                self.menu.index = i
        self._draw_dice()
        self._draw_menu()

    def bot_act(self, value, now):
        self._choose(value, now)

    def bot_decide(self):
        bots = self.brain
        if self.phase == PRE:
            q = bots.challenge(self, self.player)
            return ("challenge", q) if q else ("roll",)
        if self.phase == PICK:
            faces, self._bot_bank = bots.pick(self)
            for _text, value in self.menu.items:
                if value[1] == faces:
                    return value
            return self.menu.items[0][1]
        return ("bank",) if bots.banks(self, self._bot_bank) else ("roll",)

    # --- saving (BaseGame.record() adds seats, bots, options, seed, generator) -------------
    def standings(self):
        # best first by banked points
        t = self.totals
        return [(p, "%d. %s  %d points" % (place, seat(p), t[p]))
                for place, p in self.ranked(lambda q: -t[q])]

    def state(self):
        return {
            "totals": list(self.totals),
            "on_board": list(self.on_board),
            "last_bank": list(self.last_bank),
            "challenges": [list(c) for c in self.challenges],
            "reached": list(self.reached),
            "challenge_count": list(self.challenge_count),
            "turn_no": self.turn_no,
            "previous": self.previous,
            "final_by": self.final_by,
            "queue": list(self.queue),
            "tiebreak": self.tiebreak,
            "over": self.over,
            "winners": list(self.winners),
            "turn": {
                "player": self.player,
                "phase": self.phase,
                "points": self.turn_points,
                "dice_left": self.dice_left(),
                "frozen": list(self.frozen),
                "roll": list(self.roll),
                "corners": self.corners,
                "challenged": self.challenged,
                "challenge_no": self.challenge_no,
            },
        }

    def restore(self, data, now_ns=None):
        # Continue a match from state() data, on a game just started: the turn in
        # progress starts again from its first roll (a save loses at most that turn).
        now = self.now if now_ns is None else now_ns
        for key in ("totals", "on_board", "last_bank", "challenge_count", "reached"):
            if len(data[key]) != self.players + 1:
                raise ValueError("saved match is not for " + str(self.players) + " players")
            setattr(self, key, list(data[key]))
        split = self.rules.challenge_split
        for p in range(1, self.players + 1):  # a total at 5,000 or more has reached it
            self.reached[p] = bool(self.reached[p]) or self.totals[p] >= split
        self.challenges = [list(c) for c in data["challenges"]]
        self.previous = data["previous"]
        self.final_by = data["final_by"]
        self.queue = list(data["queue"])
        self.tiebreak = data["tiebreak"]
        self.turn_no = data["turn_no"] - 1
        turn = data["turn"]
        if data.get("over"):  # a finished match stays finished, with its winners
            self.turn_no += 1
            self._game_over(list(data["winners"]), now)
            return
        self.over = False
        self.winners = []
        self._begin_turn(turn["player"], now)
        if turn.get("challenged"):  # the challenge was announced: it still stands
            self.challenged = turn["challenged"]
            self.challenge_no = turn["challenge_no"]
            self.menu = Menu("Challenge turn", [("Roll 6 dice", ("roll",))], owner=self.player)
            self._draw()
        self.draw_due(now)  # a resumed match is drawn whole at once (its launch)
