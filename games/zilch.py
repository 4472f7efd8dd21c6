"""Zilch on the box: the turn flow, its variants, its screens and its bots.

The pure rules live in ``games.zilch_rules`` (re-exported here: ``score``,
``is_zilch``, ``Rules``), the bots in ``games.zilch_strategy``. This module is
the state machine the app drives: each turn the box rolls the free dice, offers
the active player (on their own button) only the legal set-asides, then "Roll N
dice" or "Bank X" when banking is allowed, and keeps every total.

Phases of a turn::

    PRE  --hold "Roll 6 dice" / "Challenge Pn"-->  ROLL (dice tumble)
    ROLL --no scoring dice--> END (Zilch shown)            --> next turn
    ROLL --otherwise-->       PICK (menu of set-asides)
    PICK --hold a set-aside--> NEXT ("Roll N dice" / "Bank X"; after turning
                               the corner only "Roll 6 dice")
    NEXT --roll--> ROLL      NEXT --bank--> END (bank shown) --> next turn

Totals change only when a turn ends (bank, Zilch penalty of a challenge). Bot
seats decide after ``think_ns`` (the highlight moves to their choice, which is
taken ``think_ns // 2`` later), so the table can follow them.
"""

from games import zilch_strategy
from games.zilch_rules import Rules, is_zilch, score  # noqa: F401  (the pinned API)
from games.zilch_rules import options as legal_options
from referee import dice, palette, rings, screen, sound
from referee.game import BaseGame, Option
from referee.gestures import HOLD, TAP
from referee.menu import Menu
from referee.core import MS, const, seat


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

PRE = "pre"  # before the first roll: roll, or announce a challenge
ROLL = "roll"  # the dice tumble
PICK = "pick"  # choose the dice to set aside
NEXT = "next"  # roll the free dice or bank
END = "end"  # the turn's result is shown
OVER = "over"

THINK_MS = const(700)  # a bot's visible think time per decision
ROLL_MS = const(600)  # the dice tumble
SHOW_MS = const(1600)  # a bank or a Zilch stays on screen
FRAME_MS = const(70)  # tumble frame

BOT_KINDS = {"cautious": "cautious", "expected": "ev"}

# Screen layout (320x240): header band, big dice row, set-aside row, then the
# menu on the left and the totals on the right, the hint line at the bottom.
_HEAD_H = const(24)
_DIE = const(46)
_DIE_GAP = const(6)
_DICE_Y = const(30)
_SMALL = const(22)
_SMALL_Y = const(80)
_MENU_X = const(4)
_MENU_W = const(210)
_MENU_Y = const(120)
_ROW_H = const(25)
_ROWS = const(4)
_SCORE_X = const(216)
_SCORE_Y = const(106)
_SCORE_H = const(120)
_HINT_Y = const(228)

_FREE = 0x8A8F98  # free dice waiting to be rolled
_PICKED = 0xFFE38A  # dice of the highlighted set-aside
_ACTIVE_BG = 0x2E4A66


def dice_text(faces):
    return " ".join(str(f) for f in faces)


def _without(roll, taken):
    """``roll`` minus the faces in ``taken`` (a multiset difference)."""
    rest = list(roll)
    for f in taken:
        rest.remove(f)
    return rest


class Game(BaseGame):
    TITLE = TITLE

    def __init__(self, box, players, bots=(), seed=0, options=None, settings=None):
        super().__init__(box, players, bots, seed, options, settings)
        o = self.options
        self.rules = Rules.from_options(
            {
                "variant": int(o.get("variant", 15000)),  # int(): an old "15000" still reads
                "pyramiding": o.get("pyramiding") in (True, "on"),
                "challenge": o.get("challenge") in (True, "on"),
                "overtaking": o.get("overtaking") in (True, "on"),
            }
        )
        self.show_hint = o.get("hint") in (True, "on")
        kind = o.get("bot", "expected")
        self.bot_kinds = {}  # bot seat -> "ev" or "cautious"
        for i, b in enumerate(sorted(self.bots)):
            self.bot_kinds[b] = BOT_KINDS.get(("cautious", "expected")[i % 2] if kind == "mixed" else kind, "ev")
        self.think_ns = THINK_MS * MS
        self.roll_ns = ROLL_MS * MS
        self.show_ns = SHOW_MS * MS
        n = players + 1  # per-seat lists, index 0 unused
        self.totals = [0] * n
        self.on_board = [False] * n
        self.last_bank = [0] * n  # each player's last banked turn (overtaking)
        self.challenges = [[False, False] for _ in range(n)]  # [before 5,000 used, after used]
        self.challenge_count = [0] * n
        self.turn_no = 0
        self.previous = 0  # who played the turn before this one (0 = nobody yet)
        self.final_by = 0  # who first ended a turn above the target (0 = not yet)
        self.queue = []  # players still owed a final or tie-break turn, in order
        self.tiebreak = 0  # tie-break rounds started
        self.turn_log = None  # a list to record every finished turn (tests, demos)
        self.last_turn = None  # the record of the last finished turn
        self.now = 0
        self._loaded = []  # dice loaded by ``load_dice`` (tests, demos)
        self._new_turn_state(1)
        self.phase = PRE
        self.since = 0
        self._frame = -1
        self._build()

    # --- test and demo hooks ----------------------------------------------------
    def pace(self, think_ms=None, roll_ms=None, show_ms=None):
        """Change the bot think time, tumble and result pause (tests use short ones)."""
        if think_ms is not None:
            self.think_ns = think_ms * MS
        if roll_ms is not None:
            self.roll_ns = roll_ms * MS
        if show_ms is not None:
            self.show_ns = show_ms * MS

    def load_dice(self, *rolls):
        """Queue rolls the box will throw next, instead of random ones (each is cut
        to the number of free dice)."""
        for r in rolls:
            self._loaded.append(list(r))

    # --- per-turn state -------------------------------------------------------------
    def _new_turn_state(self, player):
        self.player = player
        self.turn_points = 0
        self.frozen = []  # dice set aside in this six-dice cycle
        self.roll = []  # the dice on the table (the last roll)
        self.free = []  # dice that the next roll will throw again (for the screen)
        self.corners = 0
        self.challenged = 0  # the seat challenged this turn (0 = no challenge)
        self.challenge_no = 0  # 1 or 2: which of the player's challenges this is
        self.menu = None
        self.result = ""
        self._bot_value = None
        self._bot_at = 0
        self._bot_bank = False

    def dice_left(self):
        """Dice the next roll throws: 6 at the start and after turning the corner."""
        return 6 - len(self.frozen)

    def beat(self):
        """With overtaking: the previous player's last banked turn, else 0."""
        if not self.rules.overtaking or not self.previous or self.previous == self.player:
            return 0
        return self.last_bank[self.previous]

    def bank_minimum(self):
        return self.rules.bank_minimum(self.on_board[self.player], self.beat())

    def can_bank(self):
        return self.rules.can_bank(self.turn_points, self.dice_left(), self.on_board[self.player], self.beat())

    def challenge_slot(self, player):
        """0 (before 5,000) or 1 (after) if ``player`` may announce a challenge now, else -1."""
        if not self.rules.challenge:
            return -1
        slot = 0 if self.totals[player] < self.rules.challenge_split else 1
        return -1 if self.challenges[player][slot] else slot

    # --- screens -------------------------------------------------------------------
    def _build(self):
        root = self.root
        root.append(screen.background())
        self.head_bg = screen.rect(0, 0, screen.WIDTH, _HEAD_H, palette.PANEL)
        root.append(self.head_bg)
        self.head = screen.text("", 6, 2, 2)
        root.append(self.head)
        self.head_points = screen.text("", screen.WIDTH - 6, 2, 2, anchor=(1.0, 0.0))
        root.append(self.head_points)
        n = 6
        x0 = (screen.WIDTH - (n * _DIE + (n - 1) * _DIE_GAP)) // 2
        self.big = []
        for i in range(n):
            d = screen.Die(x0 + i * (_DIE + _DIE_GAP), _DICE_Y, _DIE)
            self.big.append(d)
            root.append(d.group)
        self.small = []
        for i in range(n):
            d = screen.Die(6 + i * (_SMALL + 4), _SMALL_Y, _SMALL)
            self.small.append(d)
            root.append(d.group)
        self.status = screen.text("", screen.WIDTH - 4, _SMALL_Y, 2, palette.WARN, (1.0, 0.0))
        root.append(self.status)
        self.menu_title = screen.text("", _MENU_X + 2, _SCORE_Y + 2, 1, palette.WARN)
        root.append(self.menu_title)
        self.bar = screen.rect(_MENU_X, _MENU_Y, _MENU_W, _ROW_H - 2, palette.ACCENT)
        root.append(self.bar)
        self.rows = []
        self.row_points = []
        for i in range(_ROWS):
            y = _MENU_Y + i * _ROW_H + 11
            lb = screen.text("", _MENU_X + 6, y, 2, anchor=(0.0, 0.5))
            self.rows.append(lb)
            root.append(lb)
            lb = screen.text("", _MENU_X + _MENU_W - 4, y, 2, anchor=(1.0, 0.5))
            self.row_points.append(lb)
            root.append(lb)
        self.banner = screen.text("", _MENU_X + _MENU_W // 2, _MENU_Y + 4, 4, palette.BAD, (0.5, 0.0))
        root.append(self.banner)
        self.banner2 = screen.text("", _MENU_X + _MENU_W // 2, _MENU_Y + 50, 2, palette.TEXT, (0.5, 0.0))
        root.append(self.banner2)
        pitch = min(26, _SCORE_H // self.players)
        self.score_bg = []
        self.score_rows = []
        for p in range(1, self.players + 1):
            y = _SCORE_Y + (p - 1) * pitch
            bg = screen.rect(_SCORE_X, y, screen.WIDTH - _SCORE_X, pitch, _ACTIVE_BG)
            bg.hidden = True
            self.score_bg.append(bg)
            root.append(bg)
            lb = screen.text("", _SCORE_X + 4, y + pitch // 2, 2, palette.station(p), (0.0, 0.5))
            self.score_rows.append(lb)
            root.append(lb)
        self.hint = screen.centred("", _HINT_Y, 1, palette.DIM)
        root.append(self.hint)

    def _draw(self):
        """Redraw everything from the state (called when the state changes)."""
        p = self.player
        colour = palette.station(p)
        if self.phase == OVER:
            colour = palette.station(self.winners[0]) if len(self.winners) == 1 else palette.PANEL
        screen.set_color(self.head_bg, colour)
        ink = screen.ink_for(colour)
        self.head.color = ink
        self.head_points.color = ink
        if self.phase == OVER:
            self.head.text = "Game over"
            self.head_points.text = ""
        else:
            self.head.text = seat(p) + " to play"
            self.head_points.text = "turn " + str(self.turn_points)
        self._draw_dice()
        self._draw_kept()
        self.status.text = self._status_text()
        self._draw_menu()
        self._draw_scores()

    def _status_text(self):
        if self.phase == OVER:
            return ""
        parts = []
        if self.challenged:
            parts.append("vs P" + str(self.challenged))
        if self.final_by:
            parts.append("TIE-BREAK" if self.tiebreak else "FINAL TURN")
        elif self.phase == NEXT and self.corners and not self.frozen:
            parts.append("CORNER")
        return " ".join(parts)

    def _draw_dice(self, tumble=-1):
        shown = self.roll
        body = palette.WHITE
        picked = ()
        if self.phase == PRE or self.phase == OVER:
            shown = [None] * 6
            body = _FREE
        elif self.phase == NEXT or (self.phase == END and self.result == "bank"):
            shown = self.free if self.free else [None] * 6
            body = _FREE
        elif self.phase == PICK and self.menu is not None:
            value = self.menu.current()[1]
            if value and value[0] == "keep":
                picked = self._positions(value[1])
        for i, d in enumerate(self.big):
            if i >= len(shown) or (self.phase == OVER):
                look = None
            elif tumble >= 0:
                look = (((tumble * 5 + i * 3 + (tumble >> 1)) % 6) + 1, palette.WHITE, None)
            elif i in picked:
                look = (shown[i], _PICKED, palette.WARN)
            else:
                look = (shown[i], body, None)
            self._show_die(d, look)

    def _positions(self, faces):
        """Indexes in ``self.roll`` of the dice ``faces`` (a sub-multiset)."""
        used = []
        for f in faces:
            for i, g in enumerate(self.roll):
                if g == f and i not in used:
                    used.append(i)
                    break
        return used

    def _draw_kept(self):
        kept = self.frozen if self.phase != OVER else []
        for i, d in enumerate(self.small):
            self._show_die(d, (kept[i], palette.WHITE, None) if i < len(kept) else None)

    def _show_die(self, die, look):
        """Show ``look`` = (face, body, border) on ``die`` (None hides it); a die
        that already shows it is left alone (redrawing shapes is costly)."""
        if getattr(die, "look", 0) == look:
            return
        die.look = look
        if look is None:
            die.hide()
        else:
            die.show(look[0], look[1], border=look[2])

    def _draw_menu(self):
        m = self.menu
        showing = m is not None and self.phase in (PRE, PICK, NEXT)
        self.bar.hidden = not showing
        told = self.phase in (END, OVER)  # a result is on screen
        self.banner.hidden = not told
        self.banner2.hidden = not told
        if not showing:
            for lb in self.rows:
                lb.text = ""
            for lb in self.row_points:
                lb.text = ""
            self.menu_title.text = "Rolling..." if self.phase == ROLL else ""
            self._draw_hint()
            return
        count = len(m.items)
        title = m.title
        if count > _ROWS:
            title += "  (" + str(m.index + 1) + "/" + str(count) + ")"
        if self.is_bot(self.player):
            title += "  - bot"
        self.menu_title.text = title
        first = 0
        if m.index >= _ROWS:
            first = m.index - _ROWS + 1
        for i, lb in enumerate(self.rows):
            k = first + i
            right = self.row_points[i]
            if k < count:
                # "1 5 5  +200": the dice on the left, the points right-aligned
                parts = m.items[k][0].split("  ")
                lb.text = parts[0]
                right.text = parts[1] if len(parts) > 1 else ""
                lb.color = right.color = palette.BLACK if k == m.index else palette.TEXT
            else:
                lb.text = right.text = ""
        self.bar.y = _MENU_Y + (m.index - first) * _ROW_H
        self._draw_hint()

    def _draw_hint(self):
        text = ""
        if self.phase == OVER:
            text = "hold a button: back to the menu"
        elif self.phase in (PRE, PICK, NEXT):
            text = seat(self.player) + ": tap = next   hold = choose"
            if self.is_bot(self.player):
                text = "the box plays P" + str(self.player) + (
                    " (cautious)" if self.bot_kinds[self.player] == "cautious" else " (expected value)")
            if self.show_hint:
                text = self._hint_text()
        self.hint.text = text

    def _hint_text(self):
        rules = self.rules
        board = self.on_board[self.player]
        points = self.turn_points
        left = self.dice_left()
        if self.phase == PICK:
            value = self.menu.current()[1]
            points += value[2]
            left = len(self.roll) - len(value[1])
            if left == 0:
                left = 6
        return zilch_strategy.hint_text(points, left, rules, board, self.beat())

    def _draw_scores(self):
        marked = self.winners if self.phase == OVER else [self.player]
        for p in range(1, self.players + 1):
            lb = self.score_rows[p - 1]
            lb.text = seat(p) + " " + str(self.totals[p])
            self.score_bg[p - 1].hidden = p not in marked
            if p in marked:
                screen.set_color(self.score_bg[p - 1], palette.station(p))
                lb.color = screen.ink_for(palette.station(p))
            else:
                lb.color = palette.station(p)

    def _banner(self, big, small, colour):
        """The result of a turn in the menu's place (the winner: high and wide)."""
        if self.phase == OVER:
            self.banner.anchored_position = (screen.WIDTH // 2, _DICE_Y + 4)
            self.banner2.anchored_position = (screen.WIDTH // 2, _DICE_Y + 48)
        else:
            self.banner.anchored_position = (_MENU_X + _MENU_W // 2, _MENU_Y + 4)
            self.banner2.anchored_position = (_MENU_X + _MENU_W // 2, _MENU_Y + 50)
        self.banner.text = big
        self.banner.color = colour
        self.banner2.text = small

    # --- the flow --------------------------------------------------------------------
    def start(self, now_ns):
        self.now = now_ns
        self._begin_turn(1, now_ns)

    def _enter(self, phase, now):
        self.phase = phase
        self.since = now
        self._bot_value = None

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
                    items.append(("Challenge P" + str(q), ("challenge", q)))
        title = "Your turn"
        if slot >= 0:
            cost = self.rules.challenge_penalties[self.challenge_count[player]]
            title = "Challenge? Zilch costs " + str(cost)
        self.menu = Menu(title, items, owner=player)
        self._enter(PRE, now)
        self.saves += 1  # a turn begins (the last one ended): the app saves the match
        self._draw()

    def _throw(self, now):
        n = self.dice_left()
        if self._loaded:
            faces = self._loaded.pop(0)[:n]
            while len(faces) < n:
                faces.append(dice.roll_die(self.rng))
        else:
            faces = dice.roll(self.rng, n)
        self.roll = faces
        self.free = []
        self._frame = -1
        self._enter(ROLL, now)
        self.box.sound.play(sound.CLICK, now)
        self._draw()
        self._draw_dice(0)

    def _rolled(self, now):
        found = legal_options(self.roll, self.rules, self.frozen)
        if not found:
            self._zilch(now)
            return
        items = []
        for faces, points in found:
            items.append((dice_text(faces) + "  +" + str(points), ("keep", faces, points)))
        self.menu = Menu("Set aside which dice?", items, owner=self.player)
        self._enter(PICK, now)
        self._draw()

    def _set_aside(self, faces, points, now):
        self.free = _without(self.roll, faces)
        self.frozen = self.frozen + list(faces)
        self.turn_points += points
        if len(self.frozen) == 6:  # turned the corner: all six must be rolled again
            self.corners += 1
            self.frozen = []
            self.free = []
            self.menu = Menu("Corner! Roll all six", [("Roll 6 dice", ("roll",))], owner=self.player)
            self.box.sound.play(sound.RIGHT, now)
        else:
            n = self.dice_left()
            items = [("Roll " + str(n) + (" dice" if n > 1 else " die"), ("roll",))]
            if self.can_bank():
                items.append(("Bank " + str(self.turn_points), ("bank",)))
                title = "Roll or bank?"
            else:
                title = "Roll on: bank needs " + str(self.bank_minimum())
            self.menu = Menu(title, items, owner=self.player)
        self._enter(NEXT, now)
        self._draw()

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
        self.on_board[p] = True
        self.last_bank[p] = points
        text = "+" + str(points)
        if self.challenged:
            q = self.challenged
            taken = min(points, self.totals[q])  # totals never go below 0
            self.totals[q] -= taken
            text += "\nP" + str(q) + " -" + str(taken)
        self._finish(record, now)
        self._banner("BANK", seat(p) + " " + text, palette.GOOD)
        self.box.sound.play(sound.RIGHT, now)

    def _zilch(self, now):
        p = self.player
        record = self._record("zilch", 0)
        self.result = "zilch"
        small = seat(p) + (" loses " + str(self.turn_points) if self.turn_points else " scores nothing")
        if self.challenged:
            penalty = self.rules.challenge_penalties[self.challenge_no - 1]
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
        self._enter(END, now)
        self._draw()

    def _after_turn(self, now):
        """The turn's result has been shown: whose turn is next, or the end."""
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
        self._enter(OVER, now)
        self.box.rings.rest(self.players, now)
        for w in winners:
            self.box.rings.set(w, rings.FLASH, palette.station(w), now_ns=now)
        self.box.sound.play(sound.WIN, now)
        self._draw()
        names = " ".join(seat(w) for w in winners)
        self._banner(names + " WINS", str(self.totals[winners[0]]) + " points", palette.station(winners[0]))

    # --- input and time ------------------------------------------------------------
    def gesture(self, player, kind, count, now_ns):
        self.now = now_ns
        if self.phase not in (PRE, PICK, NEXT) or self.menu is None:
            return
        if player != self.player or self.is_bot(player):
            return  # only the active human's button drives the turn
        if kind == TAP:
            if self.menu.tap(player, count):
                self._draw_dice()
                self._draw_menu()
        elif kind == HOLD:
            value = self.menu.hold(player)
            if value is not None:
                self._choose(value, now_ns)

    def tick(self, now_ns):
        self.now = now_ns
        phase = self.phase
        if phase == ROLL:
            elapsed = now_ns - self.since
            if elapsed >= self.roll_ns:
                self._rolled(now_ns)
            else:
                frame = elapsed // (FRAME_MS * MS)
                if frame != self._frame:
                    self._frame = frame
                    self._draw_dice(frame)
        elif phase == END:
            if now_ns - self.since >= self.show_ns:
                self._after_turn(now_ns)
        elif phase != OVER and self.is_bot(self.player):
            self._bot_tick(now_ns)

    def resumed(self, now_ns, paused_ns):
        # the pause menu closed: the tumble, a result on screen and a bot's think
        # time go on where they stopped
        self.since += paused_ns
        self._bot_at += paused_ns

    def _bot_tick(self, now):
        if self._bot_value is None:
            if now - self.since >= self.think_ns:
                value = self._bot_decide()
                for i, item in enumerate(self.menu.items):
                    if item[1] == value:
                        self.menu.index = i
                self._bot_value = value
                self._bot_at = now
                self._draw_dice()
                self._draw_menu()
        elif now - self._bot_at >= self.think_ns // 2:
            value = self._bot_value
            self._bot_value = None
            self._choose(value, now)

    # --- bots ------------------------------------------------------------------------
    def _bot_decide(self):
        p = self.player
        if self.phase == PRE:
            q = self._bot_challenge(p)
            return ("challenge", q) if q else ("roll",)
        if self.phase == PICK:
            faces, bank = zilch_strategy.BOTS[self.bot_kinds[p]](
                self.roll, self.turn_points, self.rules, self.on_board[p], self.frozen, self.beat()
            )
            self._bot_bank = bank
            for _text, value in self.menu.items:
                if value[1] == faces:
                    return value
            return self.menu.items[0][1]
        # NEXT
        call = self._final_call()
        if self.can_bank() and call <= 0 and (self._bot_bank or call < 0):
            return ("bank",)
        return ("roll",)

    def _final_call(self):
        # In the final or a tie-break turn: 1 if banking would still leave the bot
        # behind someone (pointless: play on); -1 if banking wins the game (the bot
        # ends strictly ahead and nobody is owed a turn after this one); else 0.
        if not self.final_by:
            return 0
        p = self.player
        mine = self.totals[p] + self.turn_points
        top = 0
        for q in range(1, self.players + 1):
            if q != p:
                theirs = self.totals[q]
                if q == self.challenged:
                    theirs = max(0, theirs - self.turn_points)
                if theirs > top:
                    top = theirs
        if top > mine:
            return 1
        return -1 if top < mine and not self.queue else 0

    def _bot_challenge(self, p):
        """Which player a bot challenges now (0 = none): the leading opponent, when the
        gap makes it worth the risk (the expected-value bot is bolder)."""
        if self.challenge_slot(p) < 0:
            return 0
        leader = 0
        for q in range(1, self.players + 1):
            if q != p and (not leader or self.totals[q] > self.totals[leader]):
                leader = q
        lead = self.totals[leader]
        mine = self.totals[p]
        if self.bot_kinds[p] == "ev":
            first = self.challenge_count[p] == 0
            wanted = lead >= 1000 and (lead >= mine if first else lead > mine + 2000)
        else:
            wanted = lead >= mine + 3000
        return leader if wanted else 0

    # --- saving ------------------------------------------------------------------------
    def state(self):
        return {
            "seed": self.seed,
            "players": self.players,
            "bots": list(self.bots),
            "options": dict(self.options),
            "variant": self.rules.variant(),
            "target": self.rules.target,
            "pyramiding": self.rules.pyramiding,
            "challenge": self.rules.challenge,
            "overtaking": self.rules.overtaking,
            "totals": list(self.totals),
            "on_board": list(self.on_board),
            "last_bank": list(self.last_bank),
            "challenges": [list(c) for c in self.challenges],
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
        """Continue a match from ``state()`` data: the turn in progress starts again
        from its first roll (a saved match loses at most the turn being played)."""
        now = self.now if now_ns is None else now_ns
        for key in ("totals", "on_board", "last_bank", "challenge_count"):
            if len(data[key]) != self.players + 1:
                raise ValueError("saved match is not for " + str(self.players) + " players")
            setattr(self, key, list(data[key]))
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
