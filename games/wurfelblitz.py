# Würfelblitz on the box: roll, count down, reveal, race, answer, discs.
#
# The pure rules (dice, score, discs, bot model) are in ``games.wurfelblitz_rules``;
# this module is the round flow, the screens, the rings and the bots. (Comments, not
# docstrings, at module and class level: the MicroPython VM keeps those in RAM.)
#
# A round, phase by phase (``Game.phase``):
#
# - "wait": the roller's ring pulses; the roller taps their button (a bot rolls on
#   its own after a short pause). The last throw and its answer stay on screen. The
#   first roller is drawn by lot from the match seed (the German rule text: "Der
#   Anfangsspieler wird ausgelost").
# - "count": 3-2-1 on the screen, the rings and the piezo. The race is armed when the
#   countdown starts, so a press now is a false start: red blink, buzz, and that
#   player is out for this round (no disc lost; RULES.md names no other penalty).
# - "dark": the backlight goes off and the throw is drawn unseen; then the backlight
#   goes on. The race opens at the captured reveal edge.
# - "open": the first press (and every press within the tie window) answers. A
#   button held down through the reveal is stuck: ignored until it is let go, then a
#   fresh press counts. Everyone out (false starts, wrong answers): void at once.
# - "call" -> "confirm" (answer mode "call"): the buzzers say their answer aloud while
#   the screen says so (_CALL_NS), then the right answer and its working are shown;
#   each buzzer holds (= "I said that") or taps (= "I said something else"). Presses
#   after the answer became visible are ignored; presses before it were calls too, so
#   the rebound goes to them in time order.
# - "entry" (answer mode "tap"): each buzzer taps the answer as a count, shown live,
#   and holds to send it (a hold with no taps is 0). Taps are counted from the
#   capture edges (the buzz itself never counts), the hold comes from the gestures.
#   The right answer stays hidden until the round is decided, so the race stays open
#   for everyone else meanwhile.
# - "wrong": wrong answers hand back a white disc and lock the player out; the race
#   re-opens for the rest (the next presser in time order answers).
# - Tied answerers each have _ANSWER_NS to answer; once one of them is right, the
#   others have _RIGHT_WAIT_NS more at most (so one silent player cannot hold the table).
# - Right answers each earn a white disc (several at once if they tied). Reaching the
#   handicap's whites makes a black at once; three blacks win ("over"). The round's
#   winner rolls next (tied winners: the earliest press, an exact tie drawn by lot).
#   Nobody right within the time limit: void, same roller again. Lost capture data
#   (or a pause) voids the round: discs go back to how they were when it began and
#   the same roller rolls again.

import displayio
import vectorio

from games import wurfelblitz_rules as rules
from games.wurfelblitz_rules import score  # noqa: F401  (pinned API: games.wurfelblitz.score)
from referee import palette, race_text, rings, screen, sound
from referee.box import REVEAL
from referee.game import BaseGame, Option, resolve_options
from referee.gestures import HOLD, HOLD_MS, TAP
from referee.rng import Rng
from referee.core import MS, const, seat


TITLE = "Wurfelblitz"
MIN_PLAYERS = 2
MAX_PLAYERS = 7


# An option that code may also give per seat, as a tuple of ints lo..hi (one per seat,
# seat 1 first): ``handicaps=(3, 1, 2)`` (whites per black; not in the launcher, where
# ``handicap`` is one value or "each"), ``bot_ms=(1500, 900, 2500)`` (a bot's mean
# reaction time), ``bot_errors=(0, 0, 300)`` (a bot's wrong answers, per mille).
class PerSeat(Option):
    def __init__(self, key, title, choices, default, names, lo, hi, menu=True):
        Option.__init__(self, key, title, choices, default, names, menu)
        self.lo = lo
        self.hi = hi

    def expected(self):
        return "one of " + repr(self.choices) + " or a tuple of ints %d..%d, one per seat" % (self.lo, self.hi)

    def accepts(self, v):
        if type(v) not in (tuple, list):
            return v in self.choices
        if not 0 < len(v) <= MAX_PLAYERS:
            return False
        for h in v:
            if type(h) is not int or not self.lo <= h <= self.hi:
                return False
        return True


OPTIONS = (
    Option("answer", "Answer", ("call", "tap"), "call"),
    Option("whites", "White dice", (2, 3), 2),
    Option("brainteaser", "Brainteaser", (False, True), False, ("off", "on")),
    Option("handicap", "Handicap", (3, 2, 1, "each"), 3, ("3 whites", "2 whites", "1 white", "each own")),
    Option("limit_s", "Time limit", (5, 10, 15, 20, 30, 45, 60, 90, 120), 30,
           ("5 s", "10 s", "15 s", "20 s", "30 s", "45 s", "60 s", "90 s", "120 s")),
    # "spread": one person trains against bots of every level (see bot_level)
    PerSeat("bot_ms", "Bots think", (900, 1500, 2500, "spread"), 1500,
            ("0.9 s", "1.5 s", "2.5 s", "spread 2.5..0.9 s"), 100, 10000),
    PerSeat("bot_errors", "Bot errors", (0, 50, 150, 300, "spread"), 150,
            ("never", "5%", "15%", "30%", "spread 0..30%"), 0, 1000),
    PerSeat("handicaps", "Handicap per seat", (None,), None, ("same",), 1, 3, False),
)


def bot_level(options, bots, p, words=False):
    # Bot seat ``p``'s mean reaction (ms) and wrong answers (per mille): one value for
    # every bot, a per-seat tuple (a seat it does not reach: the default), or
    # "spread": the first bot (in seat order) slow and careful (2.5 s, never wrong),
    # the last fast and sloppy (0.9 s, 30%), the others evenly between. ``words``:
    # how the launcher shows it after "bot", e.g. " 2.5 s 0%".
    k = 0
    for b in bots:
        if b < p:
            k += 1
    out = []
    for key, slow, fast, default in (("bot_ms", 2500, 900, 1500), ("bot_errors", 0, 300, 150)):
        v = options[key]
        if v == "spread":
            v = slow + (fast - slow) * k // max(1, len(bots) - 1)
        elif type(v) is not int:
            v = v[p - 1] if p <= len(v) else default
        out.append(v)
    if words:
        return " %d.%d s %d%%" % (out[0] // 1000, out[0] % 1000 // 100, out[1] // 10)
    return out

_ROUND = ("count", "dark", "open", "call", "confirm", "entry", "wrong")  # phases of a round in play

_COUNT_STEP_NS = const(700000000)  # 700 ms: each of 3, 2, 1
_DARK_NS = const(250000000)  # 250 ms: backlight off while the throw is drawn
_CALL_NS = const(1200000000)  # 1200 ms: call mode: time to say it before the answer shows
_WRONG_NS = const(1800000000)  # 1800 ms: "wrong" shown before the race re-opens
_ANSWER_NS = const(20000000000)  # 20000 ms: an answerer who never answers is out (no penalty)
_RIGHT_WAIT_NS = const(5000000000)  # 5000 ms: once a tied answerer is right, the others get this long
_FLASH_NS = const(2000000000)  # 2000 ms: the round winner's ring flashes
_BLINK_NS = const(2000000000)  # 2000 ms: a locked-out / false-start ring blinks red, then stays dim red
_BOT_ROLL_NS = const(2500000000)  # 2500 ms: a bot roller gives the table time to read the result
_BOT_CONFIRM_NS = const(700000000)
_BOT_TAP_START_NS = const(300000000)
_BOT_TAP_NS = const(180000000)
_BOT_SEND_NS = const(700000000)
_TAP_MIN_NS = const(5000000)  # 5 ms: a tap must be down this long (bounce is shorter)
_TAP_JOIN_NS = const(5000000)  # 5 ms: a press this soon after a release continues it (bounce)
_HOLD_NS = HOLD_MS * MS
_CLOSE_SETTLE_NS = const(5000000)  # 5 ms: after the race closes, presses before it settle this long

# Screen layout (320x240).
_DIE = const(44)
_STEP = const(52)  # die + gap
_DICE_X = const(8)  # (320 - 6 dice - 5 gaps) // 2
_ROW1_Y = const(30)
_ROW2_Y = const(80)
_STRIP_Y = const(198)
_EDGE = const(0x909090)  # die outline on the dark background
_SKIPPED = const(0x404040)  # outline of a die that does not count, once the answer is shown
_OUT_RED = palette.scale(palette.BAD, 60)
_TEXT_W = screen.WIDTH - 8
_LINE_CHARS = _TEXT_W // (2 * screen.CHAR_W)  # an info line at scale 2


def _names(players):
    return " ".join(seat(p) for p in players)


# One answerer's taps, counted from capture edges as they happen. Only presses that
# begin at or after ``since`` count (never the buzz itself); a press counts when it
# is released after _TAP_MIN_NS.._HOLD_NS; a press within _TAP_JOIN_NS of the last
# release is bounce and continues that press.
class TapCount:
    def __init__(self, since):
        self.since = since
        self.taps = 0
        self.down_at = None  # start of the current press (None: none seen)
        self.up_at = None  # its release (None while down)

    def edge(self, t, pressed):
        down = self.down_at
        up = self.up_at
        if not pressed:
            if down is not None and up is None:  # else a release of a press before ``since``
                self.up_at = t
                if _TAP_MIN_NS <= t - down < _HOLD_NS:
                    self.taps += 1
        elif t >= self.since and (down is None or up is not None):  # not already down
            self.up_at = None
            if up is not None and t - up < _TAP_JOIN_NS:  # bounce: the same press goes on
                if _TAP_MIN_NS <= up - down < _HOLD_NS:
                    self.taps -= 1
            else:
                self.down_at = t


class Game(BaseGame):
    TITLE = TITLE

    def __init__(self, box, players, bots=(), seed=0, options=None, settings=None):
        super().__init__(box, players, bots, seed, options, settings)
        o = self.options = resolve_options(OPTIONS, options or {})
        self.race = self.new_race()
        self.mode = o["answer"]
        self.whites = o["whites"]
        self.teaser = o["brainteaser"]
        self.limit_ns = o["limit_s"] * 1000 * MS
        each = o["handicap"] == "each"  # everyone sets their own at the start
        given = o["handicaps"] or ()
        self.phase = "wait"
        self.discs = [None]
        for p in range(1, players + 1):
            self.discs.append(rules.Discs(given[p - 1] if p <= len(given) else rules.DEFAULT_HANDICAP if each
                                          else o["handicap"]))
            if each and not self.is_bot(p):
                self.phase = "setup"
        self.supply = rules.Supply()
        self.round = 0
        self.roller = 1 + self.rng.randbelow(players)  # drawn by lot from the seed
        self.throw = self.answer = self._saved = self.setup_lines = None
        self.phase_at = self.until = self.flash_until = self.step = 0
        self.down = [False] * (players + 1)  # human station levels from capture
        self.last_down = [-1] * (players + 1)  # time of each human's last press edge
        self.fed_down = [False] * (players + 1)  # the last edge given to the race was a press
        self.summary = ""  # what happened in the last round, one line
        self.blinking = {}  # player -> end of the red blink
        self._round_reset()
        self._build()

    def _round_reset(self):
        # said, verdict, counters, bot_act: per answerer; an answerer is judged once
        # a round, so entries of earlier answerers are never read again
        self.answerers = []
        self.said = {}
        self.verdict = {}  # True, False or "none" (never answered)
        self.counters = {}  # tap mode: player -> TapCount
        self.bot_act = {}  # bot -> time of its next confirm / tap / send
        self.bot_press = {}  # bot -> time of its buzz
        self.reveal_at = self.deadline = self.closed_at = None  # closed_at: later presses are not part of the race
        self.rebound = False  # the race re-opened after wrong answers (call mode: the answer is shown)
        self.answer_until = 0
        self.notes = []  # false starts / stuck buttons this round
        self.flagged = []
        self.stuck = []  # held down since before the roll, still down (ignored until let go)
        self.tbar_w = -1

    # ------------------------------------------------------------------ screens
    def _build(self):
        W = screen.WIDTH
        root = self.root
        root.append(screen.background())
        self.top_left = screen.text("", 4, 2, 2, palette.DIM)
        self.top_right = screen.text("", W - 4, 2, 2, palette.TEXT, (1.0, 0.0))
        # even height: Blinka's PC display mis-sizes odd-area refreshes
        self.tbar = screen.rect(0, 25, W, 4, palette.WARN)
        self.tbar.hidden = True
        self.dice_group = dice = displayio.Group()
        dice.hidden = True
        for item in (self.top_left, self.top_right, self.tbar, dice):
            root.append(item)
        frame = screen.solid(palette.GOOD)  # a green frame behind each coloured die that counts
        self.frames = []
        self.dice = []  # the six coloured dice, then the white ones
        for i in range(6):
            f = vectorio.Rectangle(pixel_shader=frame, x=_DICE_X - 3 + i * _STEP, y=_ROW1_Y - 3,
                                   width=_DIE + 6, height=_DIE + 6)
            f.hidden = True
            self.frames.append(f)
            dice.append(f)
        for i in range(6 + self.whites):
            self.dice.append(screen.Die(_DICE_X + i % 6 * _STEP, _ROW1_Y if i < 6 else _ROW2_Y, _DIE))
            dice.append(self.dice[i].group)
        self.big = screen.text("", (_DICE_X + 3 * _STEP + W) // 2, _ROW2_Y + _DIE // 2, 4, palette.TEXT, (0.5, 0.5))
        self.mid = screen.text("", W // 2, 78, 8, palette.WARN, (0.5, 0.5))
        root.append(self.big)
        root.append(self.mid)
        self.lines = []
        for y in (130, 152, 174):
            self.lines.append(screen.text("", 4, y, 2))
            root.append(self.lines[-1])
        # the disc counts under each name, at scale 2: "B1 W2" if it fits the seat's
        # cell, else "B1W2"; seven seats (45 px cells) leave no room for the name: the
        # columns, in seat order and station colours, show "B1" over "W2"
        cell = W // self.players
        self.strip_gap = " " if cell >= 72 else "" if cell >= 52 else None
        self.names = [None]
        self.counts = [None]
        for p in range(1, self.players + 1):
            cx = (p - 1) * cell + cell // 2
            c = palette.station(p)
            self.names.append(screen.text(seat(p), cx, _STRIP_Y, 2, c, (0.5, 0.0)))
            self.counts.append(screen.text("", cx, _STRIP_Y + 22, 2, c, (0.5, 0.0)))
            root.append(self.names[p])
            root.append(self.counts[p])
        self._draw_discs()

    def _set(self, label, text, color=None, scale=None):
        if scale is not None and label.scale != scale:
            label.scale = scale
        if label.text != text:
            label.text = text
        if color is not None and label.color != color:
            label.color = color

    def _line(self, i, text, color=palette.TEXT):
        """Info line ``i``: scale 2 if it fits the width, else scale 1."""
        scale = 2 if len(text) <= _LINE_CHARS else 1
        self._set(self.lines[i], screen.fit(text, _TEXT_W, scale), color, scale)

    def _lines(self, first="", second="", third="", color=palette.TEXT):
        """All three info lines; only the first in ``color``."""
        self._line(0, first, color)
        self._line(1, second)
        self._line(2, third)

    def _draw_discs(self):
        gap = self.strip_gap
        for p in range(1, self.players + 1):
            d = self.discs[p]
            b = "B" + str(d.black)
            w = "W" + str(d.white)
            star = "*" if p == self.roller and self.phase != "over" else ""
            self._set(self.names[p], star + (seat(p) if gap is not None else b))
            self._set(self.counts[p], b + gap + w if gap is not None else w)

    def _draw_throw(self, judged):
        """The throw on the dice; once ``judged``, the dice that count get a green frame."""
        throw = self.throw
        blocked = rules.blocked(throw)
        flipped = self.teaser and rules.brainteaser_applies(throw)
        for i in range(len(throw)):
            colour, face = throw[i]
            pips = type(face) is int
            border = _EDGE
            if i < 6:
                counts = judged and pips and (colour in blocked) == flipped
                self.frames[i].hidden = not counts
                if judged and not counts:
                    border = _SKIPPED
            self.dice[i].show(face if pips else None, palette.DICE[colour],
                              dot=None if pips else palette.DICE[face], border=border)
        self.dice_group.hidden = False

    def _show_answer(self):
        """The right answer, big, and its working on lines 2 and 3: word-wrapped, or
        if that takes more than two lines, cut before its " -> " (the reasons small,
        the sum big)."""
        self._set(self.big, "=" + str(self.answer), palette.GOOD, 4)
        text = rules.explain(self.throw, self.teaser)
        cut = len(text)
        if cut > _LINE_CHARS:
            cut = text.rfind(" ", 0, _LINE_CHARS + 1)
            if len(text) - cut - 1 > _LINE_CHARS:
                cut = text.find(" -> ")
        self._line(1, text[:cut] if cut >= 0 else text)
        self._line(2, text[cut + 1:] if cut >= 0 else "")
        self._draw_throw(True)

    def _show_setup(self):
        """Handicap "each": every player taps to set their own whites per black."""
        if self.setup_lines is None:
            self.setup_lines = [screen.centred("tap: change yours   hold: start", 184, 1, palette.DIM)]
            for p in range(1, self.players + 1):
                self.setup_lines.append(screen.text("", 20, 9 + 21 * p, 2, palette.station(p)))
            for lb in self.setup_lines:
                self.root.append(lb)
        self._set(self.top_left, "Whites for a black", palette.WARN)
        self._set(self.top_right, "")
        self._lines()
        for p in range(1, self.players + 1):
            h = self.discs[p].handicap
            self._set(self.setup_lines[p], "P%d: %d white%s%s" % (p, h, "s" if h > 1 else "", " (bot)" if self.is_bot(p) else ""))

    def _waiting(self, bots=False):
        """The answerers still to answer (humans only unless ``bots``)."""
        return [p for p in self.answerers if self.verdict.get(p) is None and (bots or not self.is_bot(p))]

    def _bot_words(self, verb):
        """e.g. "P2 says 7  P3 says 9": what the bots among the answerers said."""
        return "  ".join(seat(p) + verb + str(self.said[p]) for p in self.answerers if self.is_bot(p))

    def _show_confirm(self):
        """Call mode, answer shown: who still has to hold (= "I said that") or tap."""
        humans = self._waiting()
        if humans:
            text = _names(humans) + ": hold=said it tap=other"
            if len(text) > _LINE_CHARS:
                text = _names(humans) + ": hold=yes tap=no"
            self._line(0, text, palette.WARN)
        elif self._waiting(True):
            self._line(0, self._bot_words(" said "), palette.WARN)

    def _show_entry(self):
        """Tap mode: the count so far, big for one answerer, in a row for several."""
        who = self.answerers
        counts = ""
        if len(who) == 1:
            self._set(self.big, str(self.counters[who[0]].taps), palette.station(who[0]), 4)
        else:
            self._set(self.big, "")
            for p in who:
                counts += "  P" + str(p) + ":" + str(self.counters[p].taps) + ("" if self.verdict.get(p) is None else "!")
        humans = self._waiting()
        head = _names(humans) + ": tap answer, hold=send" if humans else _names(who) + " tapping..."
        self._lines(head, "", counts[2:], palette.WARN)

    def _headline(self):
        """Who answers and by how much they were first, e.g. "P3 first by 1.204 ms"."""
        head = ("next: " if self.rebound else "") + race_text.headline(self.race, self.box.precision_ns)
        self._set(self.top_left, "R" + str(self.round), palette.DIM)
        self._set(self.top_right, screen.fit(head, screen.WIDTH - 44, 2), palette.WARN)

    # -------------------------------------------------------------------- rings
    def _ring_rest(self, p, now):
        # 12 pixels: a bright quarter of the ring per black disc, then one dim white
        # pixel per white disc, the rest faint in the station colour
        d = self.discs[p]
        c = palette.station(p)
        px = [c] * (min(d.black, 3) * 4) + [0x505050] * d.white + [palette.scale(c, 30)] * rings.PER_RING
        self.box.rings.set(p, rings.PIXELS, arg=px[:rings.PER_RING], now_ns=now)

    def _rings_wait(self, now):
        for p in range(1, self.players + 1):
            if p == self.roller:
                self.box.rings.set(p, rings.PULSE, palette.station(p), now_ns=now)
            else:
                self._ring_rest(p, now)

    def _ring_out(self, p, now):
        self.box.rings.set(p, rings.BLINK, palette.BAD, now_ns=now)
        self.blinking[p] = now + _BLINK_NS

    # --------------------------------------------------------------------- flow
    def start(self, now_ns):
        if self.phase == "setup":
            self.phase_at = now_ns
            self._show_setup()
            self.box.rings.rest(self.players, now_ns)
        else:
            self._to_wait(now_ns)

    def _enter(self, phase, now):
        self.phase = phase
        self.phase_at = now

    def _to_wait(self, now):
        """The roller's turn; the last throw and its answer (or what happened) stay on screen."""
        self._enter("wait", now)
        self.saves += 1  # between rounds: the app saves the match (state())
        self.until = now + _BOT_ROLL_NS
        p = self.roller
        self._set(self.top_left, "Round " + str(self.round + 1), palette.DIM)
        self._set(self.top_right, seat(p) + (" rolls" if self.is_bot(p) else ": tap to roll"), palette.station(p))
        self.tbar.hidden = True
        self._set(self.mid, "")
        if self.throw:
            self._show_answer()
            self._line(0, self.summary, palette.WARN)
        else:
            self.dice_group.hidden = True
            self._set(self.big, "")
            if self.summary:
                self._lines(self.summary, color=palette.WARN)
            else:
                t = self.teaser
                self._set(self.mid, TITLE, palette.WARN, 4)
                self._lines("Add the pips of the dice", "A dot twice: count the" if t else "whose colour shows no dot.")
                self._line(2, "dotted colours instead!" if t else "First right: white disc", palette.DIM)
        self._draw_discs()
        if now >= self.flash_until:
            self._rings_wait(now)

    def _new_throw(self):
        # one generator per throw: a saved match replays from (seed, round)
        self.rng = Rng(((self.seed << 20) | (self.round & 0xFFFFF)) & ((1 << 128) - 1))
        self.throw = rules.roll(self.rng, self.whites)
        self.answer = rules.score(self.throw, self.teaser)

    def _roll(self, now):
        """The roller started the round: countdown, race armed."""
        self.round += 1
        self._saved = self.state()
        self._round_reset()
        self.blinking = {}
        self.race.reset()
        self.race.arm(now)
        # a button down already is not given to the race: still down at the reveal it
        # is stuck (flagged, see edge); once let go, a fresh press is a press like any
        self.fed_down = [False] * (self.players + 1)
        self._new_throw()
        self._enter("count", now)
        self.until = now
        self.step = 0
        self.dice_group.hidden = True
        self._set(self.mid, "")
        self._set(self.big, "")
        self._lines()
        self._set(self.top_left, "Round " + str(self.round), palette.DIM)
        self._set(self.top_right, seat(self.roller) + " rolls", palette.station(self.roller))
        self._draw_discs()
        self._countdown(now)

    def _countdown(self, now):
        """3, 2, 1, then dark: the throw is drawn unseen."""
        if now < self.until:
            return
        self.step += 1
        digit = 4 - self.step
        if digit:
            self._set(self.mid, str(digit), palette.WARN, 8)
            self.box.sound.play(sound.COUNT, now)
            self.until = now + _COUNT_STEP_NS
        else:
            self._enter("dark", now)
            self.box.reveal(False)
            self._set(self.mid, "")
            self._draw_throw(False)
            self._set(self.top_right, "GO!", palette.GOOD)
            self._line(0, "  ".join(self.notes), palette.BAD)
            self.until = now + _DARK_NS
        for p in range(1, self.players + 1):
            if p not in self.flagged:
                if digit:
                    self.box.rings.set(p, rings.COUNT, palette.WARN, 4 * digit, 0, now)
                else:
                    self.box.rings.set(p, rings.OFF)

    # -------------------------------------------------------------------- input
    def edge(self, player, t_ns, pressed):
        if player == REVEAL:
            if pressed and self.phase == "open" and self.reveal_at is None:
                # the reveal edge came back through capture: the race opens at t_ns
                self.reveal_at = t_ns
                self.race.reveal(t_ns)
                self.deadline = t_ns + self.limit_ns
                for b in self.bots:
                    ms, errors = bot_level(self.options, self.bots, b)
                    self.bot_press[b] = t_ns + rules.bot_reaction_ns(self.rng, ms, ms // 3)
                    self.said[b] = rules.bot_answer(self.rng, self.throw, self.teaser, errors)
                for p in range(1, self.players + 1):
                    if self.down[p] and not self.fed_down[p]:
                        self._flag((p,), t_ns, True)
            return
        if not 1 <= player <= self.players or self.is_bot(player):
            return
        self.down[player] = pressed
        if pressed:
            self.last_down[player] = t_ns
        if self.phase not in _ROUND:
            return
        if pressed:
            if self.closed_at is None or t_ns < self.closed_at:
                self.race.edge(player, t_ns, True)
                self.fed_down[player] = True
        elif self.fed_down[player]:
            self.race.edge(player, t_ns, False)
            self.fed_down[player] = False
        elif player in self.stuck:  # let go at last: from now on it may buzz
            self.stuck.remove(player)
            self.flagged.remove(player)
            self.notes.remove(seat(player) + " held down: let go")
            if self.phase == "open":
                self._line(0, "  ".join(self.notes), palette.BAD)
            self._ring_rest(player, t_ns)
        c = self.counters.get(player)
        if c and self.phase == "entry" and self.verdict.get(player) is None:
            taps = c.taps
            c.edge(t_ns, pressed)
            if c.taps != taps:
                self.box.sound.play(sound.CLICK, t_ns)
                self._show_entry()

    def gesture(self, player, kind, count, now_ns):
        if not 1 <= player <= self.players or self.is_bot(player) or self.last_down[player] < self.phase_at:
            return  # not a seat, a bot's seat, or a press left over from an earlier phase
        phase = self.phase
        if phase == "setup":
            if kind == TAP:
                h = self.discs[player].handicap
                self.discs[player] = rules.Discs(h - 1 if h > 1 else 3)
                self._show_setup()
            elif kind == HOLD:
                for lb in self.setup_lines or ():
                    lb.text = ""
                self._to_wait(now_ns)
        elif phase == "wait":
            if player == self.roller and kind == TAP:
                self._roll(now_ns)
        elif player in self.answerers and self.verdict.get(player) is None:
            if phase == "confirm":
                if kind == HOLD:
                    self.verdict[player] = True
                elif kind == TAP:
                    self.verdict[player] = False
                self._show_confirm()
            elif phase == "entry" and kind == HOLD:  # send the count
                self.said[player] = taps = self.counters[player].taps
                self.verdict[player] = taps == self.answer
                self._show_entry()

    # --------------------------------------------------------------------- tick
    def tick(self, now_ns):
        now = now_ns
        phase = self.phase
        for p in sorted(self.blinking):
            if now >= self.blinking[p]:
                del self.blinking[p]
                if phase in _ROUND:
                    self.box.rings.set(p, rings.SOLID, _OUT_RED, now_ns=now)
        if phase == "wait":
            if self.flash_until and now >= self.flash_until:
                self.flash_until = 0
                self._rings_wait(now)
            if self.is_bot(self.roller) and now >= self.until:
                self._roll(now)
            return
        if phase not in _ROUND:
            return
        for b in sorted(self.bot_press):  # the bots buzz (seat order: MicroPython dicts are unordered)
            t = self.bot_press[b]
            if t <= now:
                del self.bot_press[b]
                if self.closed_at is None or t < self.closed_at:  # else the answer was on screen: too late
                    self.race.edge(b, t, True)
                    self.race.edge(b, t + 80 * MS, False)
        self.race.settle(now)
        t = self.deadline
        if t is not None and now >= t and (self.closed_at is None or t < self.closed_at):
            self.closed_at = t
        if phase == "count" or phase == "dark":
            self._flag(self.race.false_starts(), now)
            if phase == "count":
                self._countdown(now)
            elif now >= self.until:  # the throw is drawn: light it
                self._enter("open", now)
                self.box.reveal(True)
                self.box.sound.play(sound.GO, now)
                for p in range(1, self.players + 1):
                    if p not in self.flagged:
                        self._ring_rest(p, now)
        elif phase == "open":
            self._open(now)
        elif phase == "call":
            self._headline()
            if now >= self.until:
                self._to_confirm(now)
        elif phase == "wrong":
            if now >= self.until:
                self._reopen(now)
        else:  # confirm, entry
            self._bots_answer(now)
            waiting = self._waiting(True)
            if waiting and True in self.verdict.values():  # one is right: the rest hurry up
                self.answer_until = min(self.answer_until, now + _RIGHT_WAIT_NS)
            if waiting and now < self.answer_until:
                return
            for p in waiting:
                self.verdict[p] = "none"  # never answered: out, no penalty
            self._judge(now)

    def _flag(self, players, now, stuck=False):
        """False starts (or stuck buttons) the round has not flagged yet."""
        for p in players:
            if p not in self.flagged:
                self.flagged.append(p)
                if stuck:
                    self.stuck.append(p)
                    self.box.rings.set(p, rings.SOLID, palette.WARN, now_ns=now)
                    self.notes.append(seat(p) + " held down: let go")
                else:
                    self._ring_out(p, now)
                    self.box.sound.play(sound.FALSE_START, now)
                    self.notes.append(seat(p) + " false start: out")
                self._line(0, "  ".join(self.notes), palette.BAD)

    def _open(self, now):
        race = self.race
        if self.reveal_at is None:
            return
        out = race.false_starts()
        self._flag(out, now)
        left = self.deadline - now
        w = screen.WIDTH * left // self.limit_ns if left > 0 else 0
        if w != self.tbar_w:  # the time bar
            self.tbar_w = w
            self.tbar.hidden = w <= 0
            if w > 0:
                self.tbar.width = w
        winners = race.winners()
        if winners:
            self._answer(now, winners)
        elif (self.closed_at is not None and now >= self.closed_at + race.tie_window_ns + _CLOSE_SETTLE_NS
              or len(out) + len(race.locked()) >= self.players):
            # nobody right (or nobody left to answer): void, the same roller rolls again
            self.summary = ("Time up" if now >= self.deadline else "Nobody right") + ": round void"
            self.box.sound.play(sound.ERROR, now)
            self._to_wait(now)

    # ------------------------------------------------------------------ answers
    def _answer(self, now, who):
        self.answerers = list(who)
        self.answer_until = now + _ANSWER_NS
        self.tbar.hidden = True
        self.tbar_w = -1
        self._headline()
        tap = self.mode == "tap"
        for p in who:
            self.box.rings.set(p, rings.SOLID, palette.station(p), now_ns=now)
            if tap:
                self.counters[p] = TapCount(now)
                if self.is_bot(p):
                    self.bot_act[p] = now + _BOT_TAP_START_NS
        if tap:
            self._enter("entry", now)
            self._show_entry()
        elif self.rebound:
            self._to_confirm(now)
        else:  # say it now, before the answer shows
            self._enter("call", now)
            self.until = now + _CALL_NS
            one = len(who) == 1
            color = palette.station(who[0]) if one else palette.TEXT
            self._set(self.big, (_names(who) if one else "") + "?", color, 4)
            self._lines(_names(who) + ": say it now!", self._bot_words(" says "), "", color)

    def _to_confirm(self, now):
        self._enter("confirm", now)
        if not self.rebound and (self.closed_at is None or now < self.closed_at):
            self.closed_at = now  # the answer is visible: later presses cannot count
        for p in self.answerers:
            if self.is_bot(p):
                self.bot_act[p] = now + _BOT_CONFIRM_NS
        self._show_answer()
        self._show_confirm()

    def _bots_answer(self, now):
        for b in sorted(self.bot_act):  # seat order: MicroPython dicts are unordered
            if now < self.bot_act[b] or self.verdict.get(b) is not None:
                continue
            if self.phase == "confirm":
                del self.bot_act[b]
                self.verdict[b] = self.said[b] == self.answer
                self._show_confirm()
                continue
            c = self.counters[b]
            if c.taps < self.said[b]:
                c.taps += 1
                self.bot_act[b] = now + (_BOT_TAP_NS if c.taps < self.said[b] else _BOT_SEND_NS)
                self.box.sound.play(sound.CLICK, now)
                self._show_entry()
            else:  # send the count
                del self.bot_act[b]
                self.verdict[b] = c.taps == self.answer

    def _judge(self, now):
        right = []
        parts = []
        for p in self.answerers:
            v = self.verdict[p]
            if v is True:
                right.append(p)
                continue
            self.race.lock_out(p)
            self._ring_out(p, now)
            said = self.said.get(p)
            who = seat(p)
            if v is not False:
                parts.append(who + " no answer")
                continue
            if said is not None and (self.mode == "tap" or self.is_bot(p)):
                who += " said " + str(said) + ":"
            parts.append(who + (" wrong -1 white" if self.discs[p].penalise(self.supply) else " wrong"))
        self._draw_discs()
        if not right:
            self.box.sound.play(sound.LOCKOUT, now)
            self._enter("wrong", now)
            self.until = now + _WRONG_NS
            if self.mode == "tap":
                self._set(self.big, "X", palette.BAD, 4)
                self._lines("  ".join(parts), "race open for the others", "", palette.BAD)
            else:
                self._line(0, "  ".join(parts), palette.BAD)
            return
        gains = []
        champions = []
        noted = len(self.supply.notes)
        for p in right:
            black = self.discs[p].award(self.supply)
            gains.append(seat(p) + (" right: BLACK disc" if black else " right: +1 white"))
            self.box.rings.set(p, rings.FLASH, palette.station(p), now_ns=now)
            if rules.won(self.discs[p]):
                champions.append(p)
        for note in self.supply.notes[noted:]:  # the box's discs ran out: awards still count
            self.box.log(note)
            gains.append(note.split(":")[0])
        self.flash_until = now + _FLASH_NS
        self.roller = self._first_of(right)
        self.summary = "  ".join(gains + parts)
        if champions:
            self._finish_match(now, champions)
        else:
            self.box.sound.play(sound.RIGHT, now)
            self._to_wait(now)

    def _first_of(self, players):
        """The earliest press among ``players``; an exact tie drawn by lot."""
        best = None
        tied = [players[0]]
        for p in players:
            t = self.race.press_ns(p)
            if t is not None and (best is None or t < best):
                best = t
                tied = [p]
            elif t is not None and t == best:
                tied.append(p)
        return tied[self.rng.randbelow(len(tied))] if len(tied) > 1 else tied[0]

    def _reopen(self, now):
        """After wrong answers: the race goes on for the others."""
        self.rebound = True
        self._enter("open", now)
        self.answerers = []
        self._set(self.top_right, "open again", palette.GOOD)
        if self.mode == "tap":
            self._set(self.big, "")
            self._lines()
        else:
            self._line(0, "earlier callers may answer")
        locked = self.race.locked()
        for p in range(1, self.players + 1):
            if p not in locked and p not in self.flagged:
                self._ring_rest(p, now)
        self._open(now)

    def resumed(self, now_ns, paused_ns, why="paused"):
        if self.phase not in _ROUND:
            self.until += paused_ns
            if self.flash_until:
                self.flash_until += paused_ns
            return
        # a pause or lost capture data voids the round: back to the discs it began
        # with (saved when it began), the same roller rolls again
        self.race.lost_data(why)
        self.box.reveal(True)
        self.blinking = {}
        self.flash_until = 0
        self.box.sound.play(sound.ERROR, now_ns)
        self.summary = why + ": void"
        self.restore(self._saved, now_ns)

    def capture_lost(self, now_ns):
        self.resumed(now_ns, 0, "capture data lost")

    def _finish_match(self, now, champions):
        self.winners = list(champions)
        self.over = True
        self._enter("over", now)
        self.box.sound.play(sound.WIN, now)
        self._show_answer()
        self._draw_discs()
        self._set(self.top_left, "Match over", palette.DIM)
        self._set(self.top_right, "hold: menu", palette.DIM)
        one = len(champions) == 1
        self._line(0, _names(champions) + (" WINS!" if one else " WIN!"),
                   palette.station(champions[0]) if one else palette.WARN)
        for p in range(1, self.players + 1):
            if p in champions:
                self.box.rings.set(p, rings.FLASH, palette.station(p), now_ns=now)
            else:
                self._ring_rest(p, now)

    # -------------------------------------------------------------- persistence
    def state(self):
        """The match between rounds as plain data (see ``restore``)."""
        opts = {}
        for k, v in self.options.items():
            opts[k] = list(v) if type(v) is tuple else v
        return {"game": "wurfelblitz", "seed": self.seed, "players": self.players, "round": self.round,
                "roller": self.roller, "discs": [d.to_dict() for d in self.discs[1:]],
                "supply": self.supply.to_dict(), "options": opts, "over": self.over, "winners": list(self.winners)}

    def restore(self, state, now_ns=0):
        """Continue a match saved by ``state()`` (between rounds); ``summary``, the
        line about the last round, is kept."""
        n = self.players
        if state.get("players") != n or len(state["discs"]) != n:
            raise ValueError("saved match is for " + str(state.get("players")) + " players")
        self.discs = [None]
        for d in state["discs"]:
            self.discs.append(rules.Discs.from_dict(d))
        self.supply = rules.Supply.from_dict(state["supply"])
        self.seed = state["seed"]
        self.round = state["round"]
        if not 1 <= state["roller"] <= n:
            raise ValueError("saved roller is not a seat")
        self.roller = state["roller"]
        self.throw = self.answer = None
        self._round_reset()
        for lb in self.setup_lines or ():
            lb.text = ""
        champions = []
        for p in range(1, n + 1):
            if rules.won(self.discs[p]):
                champions.append(p)
        if champions:
            self._new_throw()
            self._finish_match(now_ns, champions)
        else:
            self._to_wait(now_ns)

    @classmethod
    def from_state(cls, box, state, bots=(), settings=None, now_ns=0):
        """A new game continuing ``state``."""
        options = {}
        for k, v in state.get("options", {}).items():
            options[k] = tuple(v) if type(v) is list else v
        g = cls(box, state["players"], bots, state["seed"], options, settings)
        g.restore(state, now_ns)
        return g
