"""Würfelblitz on the box: roll, count down, reveal, race, answer, discs.

The pure rules (dice, score, discs, bot model) are in ``games.wurfelblitz_rules``;
this module is the round flow, the screens, the rings and the bots.

A round, phase by phase (``Game.phase``):

- ``wait``: the roller's ring pulses; the roller taps their button (a bot rolls
  on its own after a short pause). The last throw and its answer stay on screen.
  The first roller is drawn by lot from the match seed (the German rule text:
  "Der Anfangsspieler wird ausgelost").
- ``count``: 3-2-1 on the screen, the rings and the piezo. The race is armed when
  the countdown starts, so a press now is a false start: red blink, buzz, and that
  player is out for this round (no disc lost; RULES.md names no other penalty).
- ``dark``: the backlight goes off and the throw is drawn unseen; then the
  backlight goes on. The race opens at the captured reveal edge.
- ``open``: the first press (and every press within the tie window) answers.
  A button held down through the reveal is stuck: ignored for the round.
- ``call`` -> ``confirm`` (answer mode "call"): the buzzers say their answer aloud
  while the screen says so (CALL_NS), then the right answer and its working are
  shown; each buzzer holds (= "I said that") or taps (= "I said something else").
  Presses after the answer became visible are ignored; presses before it were
  calls too, so the rebound goes to them in time order.
- ``entry`` (answer mode "tap"): each buzzer taps the answer as a count, shown
  live, and holds to send it (a hold with no taps is 0). Taps are counted from
  the capture edges (the buzz itself never counts), the hold comes from the
  gestures. The right answer stays hidden until the round is decided, so the
  race stays open for everyone else meanwhile.
- ``wrong``: wrong answers hand back a white disc and lock the player out; the
  race re-opens for the rest (the next presser in time order answers).
- Right answers each earn a white disc (several at once if they tied). Reaching
  the handicap's whites makes a black at once; three blacks win (``over``).
  The round's winner rolls next (tied winners: the earliest press, an exact tie
  drawn by lot). Nobody right within the time limit: void, same roller again.
  Lost capture data (or a pause) voids the round: discs go back to how they were
  when it began and the same roller rolls again.
"""

import displayio

from games import wurfelblitz_rules as rules
from games.wurfelblitz_rules import score  # noqa: F401  (pinned API: games.wurfelblitz.score)
from referee import palette, race_text, rings, screen, sound
from referee.arbiter import Race
from referee.box import REVEAL
from referee.game import BaseGame, Option, resolve_options
from referee.gestures import HOLD, HOLD_MS, TAP
from referee.rng import Rng

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


TITLE = "Wurfelblitz"
MIN_PLAYERS = 2
MAX_PLAYERS = 7


class SeatHandicaps(Option):
    """``handicaps=(3, 1, 2, ...)``: whites per black for each seat, given by code
    (tests, a saved match); not offered in the launcher, where ``handicap`` sets
    one value for everybody or "each" lets every player set their own."""

    def __init__(self):
        Option.__init__(self, "handicaps", "Handicap per seat", (None,), None, ("same",), menu=False)

    def expected(self):
        return "None or a tuple of whites per black (1..3), one per seat"

    def accepts(self, value):
        if value is None:
            return True
        if type(value) not in (tuple, list) or not 1 <= len(value) <= MAX_PLAYERS:
            return False
        for h in value:
            if type(h) is not int or h < 1 or h > 3:
                return False
        return True


OPTIONS = (
    Option("answer", "Answer", ("call", "tap"), "call"),
    Option("whites", "White dice", (2, 3), 2),
    Option("brainteaser", "Brainteaser", (False, True), False, ("off", "on")),
    Option("handicap", "Handicap", (3, 2, 1, "each"), 3, ("3 whites", "2 whites", "1 white", "each own")),
    Option("limit_s", "Time limit", (5, 10, 15, 20, 30, 45, 60, 90, 120), 30,
           ("5 s", "10 s", "15 s", "20 s", "30 s", "45 s", "60 s", "90 s", "120 s")),
    Option("bot_ms", "Bots think", (900, 1500, 2500), 1500, ("0.9 s", "1.5 s", "2.5 s")),
    Option("bot_errors", "Bot errors", (0, 50, 150, 300), 150, ("never", "5%", "15%", "30%")),
    SeatHandicaps(),
)

# Phases.
SETUP = "setup"
WAIT = "wait"
COUNT = "count"
DARK = "dark"
OPEN = "open"
CALL = "call"
CONFIRM = "confirm"
ENTRY = "entry"
WRONG = "wrong"
OVER = "over"
_ROUND_PHASES = (COUNT, DARK, OPEN, CALL, CONFIRM, ENTRY, WRONG)

MS = const(1000000)
COUNT_STEP_NS = 700 * MS  # each of 3, 2, 1
DARK_NS = 250 * MS  # backlight off while the throw is drawn
CALL_NS = 1200 * MS  # call mode: time to say it before the answer shows
WRONG_NS = 1800 * MS  # "wrong" shown before the race re-opens
ANSWER_NS = 20000 * MS  # an answerer who never answers is out (no penalty)
FLASH_NS = 2000 * MS  # the round winner's ring flashes
BLINK_NS = 2000 * MS  # a locked-out / false-start ring blinks red, then stays dim red
BOT_ROLL_NS = 2500 * MS  # a bot roller gives the table time to read the result
BOT_CONFIRM_NS = 700 * MS
BOT_TAP_START_NS = 300 * MS
BOT_TAP_NS = 180 * MS
BOT_SEND_NS = 700 * MS
TAP_MIN_NS = 5 * MS  # a tap must be down this long (bounce is shorter)
TAP_JOIN_NS = 5 * MS  # a press this soon after a release continues it (bounce)
HOLD_NS = HOLD_MS * MS
CLOSE_SETTLE_NS = 5 * MS  # after the race closes, presses before it settle this long

NO_ANSWER = "none"  # verdict of an answerer who never answered

# Screen layout (320x240).
DIE = const(44)
DIE_GAP = const(8)
ROW1_Y = const(30)
ROW2_Y = const(80)
LINE_Y = (130, 152, 174)
STRIP_Y = const(198)
EDGE = 0x909090  # die outline on the dark background
COUNTED = palette.GOOD  # outline of a die that counts, once the answer is shown
SKIPPED = 0x404040
OUT_RED = palette.scale(palette.BAD, 60)


def wrap(text, width):
    """``text`` broken at spaces into lines of at most ``width`` characters."""
    rows = []
    row = ""
    for word in text.split(" "):
        if row and len(row) + 1 + len(word) > width:
            rows.append(row)
            row = word
        else:
            row = row + " " + word if row else word
    if row:
        rows.append(row)
    return rows


def _seed_for_round(seed, round_no):
    """One generator per throw: a saved match replays from (seed, round)."""
    return ((seed << 20) | (round_no & 0xFFFFF)) & ((1 << 128) - 1)


class TapCount:
    """One answerer's taps, counted from capture edges as they happen.

    Only presses that begin at or after ``since`` count (never the buzz itself);
    a press counts when it is released after TAP_MIN_NS..HOLD_NS; a press within
    TAP_JOIN_NS of the last release is bounce and continues that press.
    """

    def __init__(self, since):
        self.since = since
        self.taps = 0
        self.down_at = None  # start of the current press (None: none seen)
        self.up_at = None  # its release (None while down)
        self.counted = False

    def edge(self, t_ns, pressed):
        """Feed one edge; True if the count changed."""
        if pressed:
            if t_ns < self.since:
                return False
            if self.down_at is not None and self.up_at is None:
                return False  # already down
            if self.up_at is not None and t_ns - self.up_at < TAP_JOIN_NS:
                self.up_at = None  # bounce: the same press goes on
                if self.counted:
                    self.counted = False
                    self.taps -= 1
                    return True
                return False
            self.down_at = t_ns
            self.up_at = None
            self.counted = False
            return False
        if self.down_at is None or self.up_at is not None:
            return False  # a release of a press that began before ``since``
        self.up_at = t_ns
        held = t_ns - self.down_at
        if TAP_MIN_NS <= held < HOLD_NS:
            self.taps += 1
            self.counted = True
            return True
        return False


class Game(BaseGame):
    TITLE = TITLE

    def __init__(self, box, players, bots=(), seed=0, options=None, settings=None):
        super().__init__(box, players, bots, seed, options, settings)
        self.options = resolve_options(OPTIONS, options or {})
        o = self.options
        s = settings or {}
        self.tie_ns = s.get("tie_window_ms", 0) * MS
        self.race = Race(players, tie_window_ns=self.tie_ns, min_reaction_ns=s.get("min_reaction_ms", 0) * MS)
        self.mode = o["answer"]
        self.whites = o["whites"]
        self.teaser = o["brainteaser"]
        self.limit_ns = o["limit_s"] * 1000 * MS
        self.bot_ms = o["bot_ms"]
        self.bot_errors = o["bot_errors"]
        common = o["handicap"] if o["handicap"] != "each" else rules.DEFAULT_HANDICAP
        given = o["handicaps"] or ()
        self.discs = [None]
        for p in range(1, players + 1):
            self.discs.append(rules.Discs(given[p - 1] if p <= len(given) else common))
        self.supply = rules.Supply()
        self.round = 0
        self.roller = 1 + self.rng.randbelow(players)  # drawn by lot from the seed
        self.throw = None
        self.answer = None
        humans = [p for p in range(1, players + 1) if p not in self.bots]
        self.phase = SETUP if o["handicap"] == "each" and humans else WAIT
        self.phase_at = 0
        self.until = 0
        self.down = [False] * (players + 1)  # human station levels from capture
        self.last_down = [-1] * (players + 1)  # time of each human's last press edge
        self.fed_down = [False] * (players + 1)  # last edge given to the race was a press
        self.summary = ""  # what happened in the last round, one line
        self.notes = []  # false starts / stuck buttons this round
        self.flagged = []
        self.blinking = {}
        self.flash_until = 0
        self.step = 0
        self._saved = None
        self._round_reset()
        self._build()

    def _round_reset(self):
        self.answerers = []
        self.said = {}
        self.verdict = {}
        self.counters = {}
        self.bot_press = {}
        self.bot_says = {}
        self.bot_act = {}
        self.reveal_at = None
        self.deadline = None
        self.closed_at = None  # presses from this instant on are not part of the race
        self.expired = False
        self.shown_at = None  # call mode: when the answer became visible
        self.rebound = False
        self.answer_until = 0
        self.notes = []
        self.flagged = []
        self.tbar_w = -1

    # ------------------------------------------------------------------ screens
    def _build(self):
        root = self.root
        root.append(screen.background())
        self.top_left = screen.text("", 4, 2, 2, palette.DIM)
        self.top_right = screen.text("", screen.WIDTH - 4, 2, 2, palette.TEXT, (1.0, 0.0))
        root.append(self.top_left)
        root.append(self.top_right)
        self.tbar = screen.rect(0, 25, screen.WIDTH, 4, palette.WARN)  # even height: Blinka's PC display mis-sizes odd-area refreshes
        self.tbar.hidden = True
        root.append(self.tbar)
        self.dice_group = displayio.Group()
        self.dice = []
        self.frames = []  # a green frame behind each coloured die that counts
        x = (screen.WIDTH - 6 * DIE - 5 * DIE_GAP) // 2
        for i in range(6):
            f = screen.rect(x + i * (DIE + DIE_GAP) - 3, ROW1_Y - 3, DIE + 6, DIE + 6, COUNTED)
            f.hidden = True
            self.frames.append(f)
            self.dice_group.append(f)
        for i in range(6):
            d = screen.Die(x + i * (DIE + DIE_GAP), ROW1_Y, DIE)
            self.dice.append(d)
            self.dice_group.append(d.group)
        for i in range(rules.MAX_WHITE_DICE):
            d = screen.Die(x + i * (DIE + DIE_GAP), ROW2_Y, DIE)
            self.dice.append(d)
            self.dice_group.append(d.group)
        self.dice_group.hidden = True
        root.append(self.dice_group)
        bx = x + 3 * (DIE + DIE_GAP)
        self.big_x = (bx + screen.WIDTH) // 2
        self.big = screen.text("", self.big_x, ROW2_Y + DIE // 2, 4, palette.TEXT, (0.5, 0.5))
        root.append(self.big)
        self.mid = screen.text("", screen.WIDTH // 2, 78, 8, palette.WARN, (0.5, 0.5))
        root.append(self.mid)
        self.lines = []
        for y in LINE_Y:
            lb = screen.text("", 4, y, 2)
            self.lines.append(lb)
            root.append(lb)
        self.names = [None]
        self.counts = [None]
        cell = screen.WIDTH // self.players
        # the disc counts: "B1 W2" big if it fits the seat's cell, else "B1W2", else small
        self.strip_scale = 2 if cell >= 52 else 1
        self.strip_gap = " " if cell >= 72 or cell < 52 else ""
        for p in range(1, self.players + 1):
            cx = (p - 1) * cell + cell // 2
            nm = screen.text("P" + str(p), cx, STRIP_Y, 2, palette.station(p), (0.5, 0.0))
            ct = screen.text("", cx, STRIP_Y + 22 + (6 if self.strip_scale == 1 else 0), self.strip_scale,
                             palette.station(p), (0.5, 0.0))
            self.names.append(nm)
            self.counts.append(ct)
            root.append(nm)
            root.append(ct)
        self.setup_lines = None
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
        scale = 2 if len(text) * screen.CHAR_W * 2 <= screen.WIDTH - 8 else 1
        self._set(self.lines[i], screen.fit(text, screen.WIDTH - 8, scale), color, scale)

    def _clear_lines(self):
        for i in range(len(self.lines)):
            self._line(i, "")

    def _disc_text(self, p):
        d = self.discs[p]
        return "B" + str(d.black) + self.strip_gap + "W" + str(d.white)

    def _draw_discs(self):
        for p in range(1, self.players + 1):
            self._set(self.counts[p], self._disc_text(p))
            self._set(self.names[p], ("*P" if p == self.roller and self.phase != OVER else "P") + str(p))

    def _draw_throw(self, judged):
        """The throw on the dice; once ``judged``, the dice that count get a green outline."""
        throw = self.throw
        blocked = rules.blocked(throw)
        flipped = self.teaser and rules.brainteaser_applies(throw)
        for i in range(len(self.dice)):
            die = self.dice[i]
            if i >= len(throw):
                die.hide()
                continue
            colour, face = throw[i]
            border = EDGE
            if i < len(self.frames):
                counts = judged and type(face) is int and (colour in blocked) == flipped
                self.frames[i].hidden = not counts
                if judged and not counts:
                    border = SKIPPED
            body = palette.DICE[colour]
            if type(face) is int:
                die.show(face, body, border=border)
            else:
                die.show(None, body, dot=palette.DICE[face], border=border)
        self.dice_group.hidden = False

    def _show_answer(self):
        """The right answer, big, and its working on lines 2 and 3."""
        self._set(self.big, "=" + str(self.answer), palette.GOOD, 4)
        text = rules.explain(self.throw, self.teaser)
        rows = wrap(text, (screen.WIDTH - 8) // (screen.CHAR_W * 2))
        if len(rows) > 2:  # too long for two big lines: the reasons small, the sum big
            cut = text.find(" -> ")
            rows = [text[:cut], text[cut + 1:]] if cut >= 0 else [text, ""]
        while len(rows) < 2:
            rows.append("")
        self._line(1, rows[0], palette.TEXT)
        self._line(2, rows[1], palette.TEXT)
        self._draw_throw(True)

    def _show_wait(self):
        p = self.roller
        self._set(self.top_left, "Round " + str(self.round + 1), palette.DIM)
        if self.is_bot(p):
            self._set(self.top_right, "P" + str(p) + " rolls", palette.station(p))
        else:
            self._set(self.top_right, "P" + str(p) + ": tap to roll", palette.station(p))
        self.tbar.hidden = True
        self._set(self.mid, "")
        if self.throw is None and self.summary:
            self.dice_group.hidden = True
            self._set(self.big, "")
            self._line(0, self.summary, palette.WARN)
            self._line(1, "")
            self._line(2, "")
        elif self.throw is None:
            self.dice_group.hidden = True
            self._set(self.big, "")
            self._set(self.mid, TITLE, palette.WARN, 4)
            self._line(0, "Add the pips of the dice", palette.TEXT)
            self._line(1, "whose colour shows no dot." if not self.teaser else "A dot twice: count the", palette.TEXT)
            self._line(2, "First right: white disc" if not self.teaser else "dotted colours instead!", palette.DIM)
        else:
            self._show_answer()
            self._line(0, self.summary, palette.WARN)
        self._draw_discs()

    def _show_setup(self):
        """Handicap "each": every player taps to set their own whites per black."""
        if self.setup_lines is None:
            self.setup_lines = []
            hint = screen.centred("tap: change yours   hold: start", 184, 1, palette.DIM)
            self.setup_lines.append(hint)
            self.root.append(hint)
            for p in range(1, self.players + 1):
                lb = screen.text("", 20, 30 + (p - 1) * 21, 2, palette.station(p))
                self.setup_lines.append(lb)
                self.root.append(lb)
        self._set(self.top_left, "Whites for a black", palette.WARN)
        self._set(self.top_right, "")
        self._clear_lines()
        for p in range(1, self.players + 1):
            h = self.discs[p].handicap
            txt = "P" + str(p) + ": " + str(h) + (" whites" if h > 1 else " white")
            if self.is_bot(p):
                txt += " (bot)"
            self._set(self.setup_lines[p], txt)

    def _hide_setup(self):
        if self.setup_lines is not None:
            for lb in self.setup_lines:
                lb.text = ""

    # -------------------------------------------------------------------- rings
    def _disc_pixels(self, p):
        """12 pixels: a bright quarter of the ring per black disc, then one dim
        white pixel per white disc, the rest faint in the station colour."""
        d = self.discs[p]
        c = palette.station(p)
        faint = palette.scale(c, 30)
        px = []
        blacks = min(d.black, 3) * 4
        for i in range(rings.PER_RING):
            if i < blacks:
                px.append(c)
            elif i < blacks + d.white:
                px.append(0x505050)
            else:
                px.append(faint)
        return px

    def _ring_rest(self, p, now):
        self.box.rings.set(p, rings.PIXELS, arg=self._disc_pixels(p), now_ns=now)

    def _rings_wait(self, now):
        for p in range(1, self.players + 1):
            if p == self.roller:
                self.box.rings.set(p, rings.PULSE, palette.station(p), now_ns=now)
            else:
                self._ring_rest(p, now)

    def _ring_out(self, p, now):
        self.box.rings.set(p, rings.BLINK, palette.BAD, now_ns=now)
        self.blinking[p] = now + BLINK_NS

    # ------------------------------------------------------------------- flow
    def start(self, now_ns):
        if self.phase == SETUP:
            self._enter(SETUP, now_ns)
            self._show_setup()
            self.box.rings.rest(self.players, now_ns)
        else:
            self._to_wait(now_ns)

    def _enter(self, phase, now):
        self.phase = phase
        self.phase_at = now

    def _to_wait(self, now):
        self._enter(WAIT, now)
        self.until = now + BOT_ROLL_NS
        self._show_wait()
        if now >= self.flash_until:
            self._rings_wait(now)

    def _snapshot(self):
        self._saved = ([d.to_dict() for d in self.discs[1:]], self.supply.to_dict())

    def _restore_snapshot(self):
        discs, supply = self._saved
        for p in range(1, self.players + 1):
            self.discs[p] = rules.Discs.from_dict(discs[p - 1])
        self.supply = rules.Supply.from_dict(supply)

    def _roll(self, now):
        """The roller started the round: countdown, race armed."""
        self.round += 1
        self.rng = Rng(_seed_for_round(self.seed, self.round))
        self._snapshot()
        self._round_reset()
        self.blinking = {}
        self.race.reset()
        self.race.arm(now)
        for p in range(1, self.players + 1):
            self.fed_down[p] = False
            if self.down[p] and not self.is_bot(p):  # down already: stuck if still down at the reveal
                self.race.edge(p, now, True)
                self.fed_down[p] = True
        self.throw = rules.roll(self.rng, self.whites)
        self.answer = rules.score(self.throw, self.teaser)
        self._enter(COUNT, now)
        self.until = now
        self.step = 0
        self.dice_group.hidden = True
        self._set(self.mid, "")
        self._set(self.big, "")
        self._clear_lines()
        self._set(self.top_left, "Round " + str(self.round), palette.DIM)
        self._set(self.top_right, "P" + str(self.roller) + " rolls", palette.station(self.roller))
        self._draw_discs()
        self._countdown(now)

    def _countdown(self, now):
        if now < self.until:
            return
        self.step += 1
        if self.step <= 3:
            digit = 4 - self.step
            self._set(self.mid, str(digit), palette.WARN, 8)
            self.box.sound.play(sound.COUNT, now)
            for p in range(1, self.players + 1):
                if p not in self.flagged:
                    self.box.rings.set(p, rings.COUNT, palette.WARN, 4 * digit, 0, now)
            self.until = now + COUNT_STEP_NS
        else:
            self._go_dark(now)

    def _go_dark(self, now):
        self._enter(DARK, now)
        self.box.reveal(False)
        self._set(self.mid, "")
        self._draw_throw(False)
        self._set(self.top_right, "GO!", palette.GOOD)
        self._show_notes()
        for p in range(1, self.players + 1):
            if p not in self.flagged:
                self.box.rings.set(p, rings.OFF)
        self.until = now + DARK_NS

    def _reveal(self, now):
        self._enter(OPEN, now)
        self.box.reveal(True)
        self.box.sound.play(sound.GO, now)
        for p in range(1, self.players + 1):
            if p not in self.flagged:
                self._ring_rest(p, now)

    def _revealed(self, t_ns):
        """The reveal edge came back through capture: the race opens at t_ns."""
        self.reveal_at = t_ns
        self.race.reveal(t_ns)
        self.deadline = t_ns + self.limit_ns
        for b in self.bots:
            self.bot_press[b] = t_ns + rules.bot_reaction_ns(self.rng, self.bot_ms, self.bot_ms // 3)
            self.bot_says[b] = rules.bot_answer(self.rng, self.throw, self.teaser, self.bot_errors)

    # ------------------------------------------------------------------ input
    def edge(self, player, t_ns, pressed):
        if player == REVEAL:
            if pressed and self.phase == OPEN and self.reveal_at is None:
                self._revealed(t_ns)
            return
        if not 1 <= player <= self.players or self.is_bot(player):
            return
        self.down[player] = pressed
        if pressed:
            self.last_down[player] = t_ns
        if self.phase not in _ROUND_PHASES:
            return
        if pressed:
            if self.closed_at is None or t_ns < self.closed_at:
                self.race.edge(player, t_ns, True)
                self.fed_down[player] = True
        elif self.fed_down[player]:
            self.race.edge(player, t_ns, False)
            self.fed_down[player] = False
        counter = self.counters.get(player)
        if counter is not None and self.phase == ENTRY and self.verdict.get(player) is None:
            if counter.edge(t_ns, pressed):
                self.box.sound.play(sound.CLICK, t_ns)
                self._show_entry()

    def _fresh(self, player):
        """The player's latest press began in the current phase (not a leftover)."""
        return self.last_down[player] >= self.phase_at

    def gesture(self, player, kind, count, now_ns):
        if not 1 <= player <= self.players or self.is_bot(player) or not self._fresh(player):
            return
        if self.phase == SETUP:
            if kind == TAP:
                d = self.discs[player]
                h = d.handicap - 1 if d.handicap > 1 else 3
                self.discs[player] = rules.Discs(h)
                self._show_setup()
            elif kind == HOLD:
                self._hide_setup()
                self._to_wait(now_ns)
        elif self.phase == WAIT:
            if player == self.roller and kind == TAP:
                self._roll(now_ns)
        elif self.phase == CONFIRM:
            if player in self.answerers and self.verdict.get(player) is None:
                if kind == HOLD:
                    self.verdict[player] = True
                elif kind == TAP:
                    self.verdict[player] = False
                self._show_confirm()
        elif self.phase == ENTRY:
            if player in self.answerers and self.verdict.get(player) is None and kind == HOLD:
                self._send(player, self.counters[player].taps)

    # ------------------------------------------------------------------- tick
    def tick(self, now_ns):
        now = now_ns
        phase = self.phase
        for p in sorted(self.blinking):
            if now >= self.blinking[p]:
                del self.blinking[p]
                if phase in _ROUND_PHASES:
                    self.box.rings.set(p, rings.SOLID, OUT_RED, now_ns=now)
        if phase == WAIT:
            if self.flash_until and now >= self.flash_until:
                self.flash_until = 0
                self._rings_wait(now)
            if self.is_bot(self.roller) and now >= self.until:
                self._roll(now)
            return
        if phase not in _ROUND_PHASES:
            return
        self._bots_press(now)
        self.race.settle(now)
        if self.deadline is not None and now >= self.deadline and not self.expired:
            self.expired = True
            if self.closed_at is None or self.deadline < self.closed_at:
                self.closed_at = self.deadline
        if phase == COUNT:
            self._check_false_starts(now)
            self._countdown(now)
        elif phase == DARK:
            self._check_false_starts(now)
            if now >= self.until:
                self._reveal(now)
        elif phase == OPEN:
            self._open(now)
        elif phase == CALL:
            self._headline()
            if now >= self.until:
                self._to_confirm(now)
        elif phase in (CONFIRM, ENTRY):
            self._bots_answer(now)
            if now >= self.answer_until:
                for p in self.answerers:
                    if self.verdict.get(p) is None:
                        self.verdict[p] = NO_ANSWER
            self._check_answers(now)
        elif phase == WRONG:
            if now >= self.until:
                self._reopen(now)

    def _check_false_starts(self, now):
        for p in self.race.false_starts():
            if p not in self.flagged:
                self.flagged.append(p)
                self._ring_out(p, now)
                self.box.sound.play(sound.FALSE_START, now)
                self.notes.append("P" + str(p) + " false start: out")
                self._show_notes()

    def _check_stuck(self, now):
        for p in self.race.stuck():
            if p not in self.flagged:
                self.flagged.append(p)
                self.box.rings.set(p, rings.SOLID, palette.WARN, now_ns=now)
                self.notes.append("P" + str(p) + " button stuck: ignored")
                self._show_notes()

    def _show_notes(self):
        if self.phase in (COUNT, DARK, OPEN):
            self._line(0, "  ".join(self.notes), palette.BAD)

    def _open(self, now):
        race = self.race
        if self.reveal_at is None:
            return
        self._check_false_starts(now)
        self._check_stuck(now)
        self._time_bar(now)
        w = race.winners()
        if w:
            self._answer(now, w)
            return
        if self.closed_at is not None and now >= self.closed_at + self.tie_ns + CLOSE_SETTLE_NS:
            if self.expired:
                self._no_winner(now, "Time up")
            else:
                self._no_winner(now, "Nobody right")

    def _time_bar(self, now):
        left = self.deadline - now
        w = screen.WIDTH * left // self.limit_ns if left > 0 else 0
        if w != self.tbar_w:
            self.tbar_w = w
            self.tbar.hidden = w <= 0
            if w > 0:
                self.tbar.width = w

    def _bots_press(self, now):
        for b in sorted(self.bot_press):  # seat order: MicroPython dicts are unordered
            t = self.bot_press[b]
            if t is not None and t <= now:
                self.bot_press[b] = None
                if self.closed_at is not None and t >= self.closed_at:
                    continue  # the answer was already on screen: too late
                self.race.edge(b, t, True)
                self.race.edge(b, t + 80 * MS, False)

    # ----------------------------------------------------------------- answers
    def _answer(self, now, who):
        self.answerers = list(who)
        self.said = {}
        self.verdict = {}
        self.counters = {}
        self.bot_act = {}
        self.answer_until = now + ANSWER_NS
        self.tbar.hidden = True
        self.tbar_w = -1
        self._headline()
        for p in who:
            self.box.rings.set(p, rings.SOLID, palette.station(p), now_ns=now)
            if self.is_bot(p):
                self.said[p] = self.bot_says[p]
        if self.mode == "call":
            if self.shown_at is None:
                self._enter(CALL, now)
                self.until = now + CALL_NS
                self._show_call()
            else:
                self._to_confirm(now)
        else:
            self._enter(ENTRY, now)
            for p in who:
                self.counters[p] = TapCount(now)
                if self.is_bot(p):
                    self.bot_act[p] = now + BOT_TAP_START_NS
            self._show_entry()

    def _headline(self):
        """Who answers and by how much they were first, e.g. "P3 first by 1.204 ms"."""
        head = race_text.headline(self.race)
        if self.rebound:
            head = "next: " + head
        self._set(self.top_left, "R" + str(self.round), palette.DIM)
        self._set(self.top_right, screen.fit(head, screen.WIDTH - 44, 2), palette.WARN)

    def _names(self, players):
        return " ".join("P" + str(p) for p in players)

    def _show_call(self):
        who = self.answerers
        color = palette.station(who[0]) if len(who) == 1 else palette.TEXT
        self._set(self.big, (self._names(who) if len(who) == 1 else "") + "?", color, 4)
        self._line(0, self._names(who) + ": say it now!", color)
        bots = [p for p in who if self.is_bot(p)]
        self._line(1, "  ".join("P" + str(p) + " says " + str(self.said[p]) for p in bots), palette.TEXT)
        self._line(2, "")

    def _to_confirm(self, now):
        self._enter(CONFIRM, now)
        if self.shown_at is None:
            self.shown_at = now
            if self.closed_at is None or now < self.closed_at:
                self.closed_at = now  # the answer is visible: later presses cannot count
        for p in self.answerers:
            if self.is_bot(p):
                self.bot_act[p] = now + BOT_CONFIRM_NS
        self._show_answer()
        self._show_confirm()

    def _show_confirm(self):
        waiting = [p for p in self.answerers if self.verdict.get(p) is None]
        bots = [p for p in self.answerers if self.is_bot(p)]
        if waiting and not [p for p in waiting if not self.is_bot(p)]:
            self._line(0, "  ".join("P" + str(p) + " said " + str(self.said[p]) for p in bots), palette.WARN)
        elif waiting:
            who = self._names([p for p in waiting if not self.is_bot(p)])
            text = who + ": hold=said it tap=other"
            if len(text) > (screen.WIDTH - 8) // (screen.CHAR_W * 2):
                text = who + ": hold=yes tap=no"
            self._line(0, text, palette.WARN)

    def _show_entry(self):
        who = self.answerers
        if len(who) == 1:
            p = who[0]
            self._set(self.big, str(self.counters[p].taps), palette.station(p), 4)
            self._line(2, "")
        else:
            self._set(self.big, "")
            parts = []
            for p in who:
                parts.append("P" + str(p) + ":" + str(self.counters[p].taps) + ("" if self.verdict.get(p) is None else "!"))
            self._line(2, "  ".join(parts))
        humans = [p for p in who if not self.is_bot(p) and self.verdict.get(p) is None]
        if humans:
            self._line(0, self._names(humans) + ": tap answer, hold=send", palette.WARN)
        else:
            self._line(0, self._names(who) + " tapping...", palette.WARN)
        self._line(1, "")

    def _send(self, player, value):
        """Tap mode: ``player`` sent ``value``."""
        self.said[player] = value
        self.verdict[player] = value == self.answer

    def _bots_answer(self, now):
        for b in sorted(self.bot_act):  # seat order: MicroPython dicts are unordered
            t = self.bot_act[b]
            if t is None or now < t or self.verdict.get(b) is not None:
                continue
            if self.phase == CONFIRM:
                self.verdict[b] = self.said[b] == self.answer
                self.bot_act[b] = None
                self._show_confirm()
            else:
                counter = self.counters[b]
                if counter.taps < self.said[b]:
                    counter.taps += 1
                    self.bot_act[b] = now + (BOT_TAP_NS if counter.taps < self.said[b] else BOT_SEND_NS)
                    self.box.sound.play(sound.CLICK, now)
                    self._show_entry()
                else:
                    self.bot_act[b] = None
                    self._send(b, counter.taps)

    def _check_answers(self, now):
        for p in self.answerers:
            if self.verdict.get(p) is None:
                return
        self._judge(now)

    def _judge(self, now):
        right = []
        parts = []
        for p in self.answerers:
            v = self.verdict[p]
            said = self.said.get(p)
            known = said is not None and (self.mode == "tap" or self.is_bot(p))
            who = "P" + str(p) + (" said " + str(said) + ":" if known else "")
            if v is True:
                right.append(p)
            elif v is False:
                lost = self.discs[p].penalise(self.supply)
                self.race.lock_out(p)
                self._ring_out(p, now)
                parts.append(who + " wrong" + (" -1 white" if lost else ""))
            else:
                self.race.lock_out(p)
                self._ring_out(p, now)
                parts.append("P" + str(p) + " no answer")
        self._draw_discs()
        if not right:
            self.box.sound.play(sound.LOCKOUT, now)
            self._enter(WRONG, now)
            self.until = now + WRONG_NS
            self._line(0, "  ".join(parts), palette.BAD)
            if self.mode == "tap":
                self._set(self.big, "X", palette.BAD, 4)
                self._line(1, "race open for the others", palette.TEXT)
                self._line(2, "")
            return
        gains = []
        for p in right:
            black = self.discs[p].award(self.supply)
            gains.append("P" + str(p) + (" right: BLACK disc" if black else " right: +1 white"))
            self.box.rings.set(p, rings.FLASH, palette.station(p), now_ns=now)
        self.flash_until = now + FLASH_NS
        self.roller = self._first_of(right)
        self.summary = "  ".join(gains + parts)
        champions = [p for p in right if rules.won(self.discs[p])]
        if champions:
            self._finish_match(now, champions)
        else:
            self.box.sound.play(sound.RIGHT, now)
            self._to_wait(now)

    def _first_of(self, players):
        """The earliest press among ``players``; an exact tie drawn by lot."""
        best = None
        tied = []
        for p in players:
            t = self.race.press_ns(p)
            if t is None:
                continue
            if best is None or t < best:
                best = t
                tied = [p]
            elif t == best:
                tied.append(p)
        if not tied:
            return players[0]
        return tied[self.rng.randbelow(len(tied))] if len(tied) > 1 else tied[0]

    def _reopen(self, now):
        """After wrong answers: the race goes on for the others."""
        self.rebound = True
        self._enter(OPEN, now)
        self.answerers = []
        self._set(self.top_right, "open again", palette.GOOD)
        if self.mode == "tap":
            self._set(self.big, "")
            self._clear_lines()
        else:
            self._line(0, "earlier callers may answer", palette.TEXT)
        for p in range(1, self.players + 1):
            if p not in self.race.locked() and p not in self.flagged:
                self._ring_rest(p, now)
        self._open(now)

    def _no_winner(self, now, why):
        """Nobody right: the round is void and the same roller rolls again."""
        self.summary = why + ": round void"
        self.box.sound.play(sound.ERROR, now)
        self._to_wait(now)

    def _void(self, now, why):
        """Lost capture data or a pause: undo the round's discs, same roller again."""
        if self.phase not in _ROUND_PHASES:
            return
        self._restore_snapshot()
        self.race.lost_data(why)
        self.box.reveal(True)
        self.blinking = {}
        self.flash_until = 0
        self.summary = why + ": void"
        self.box.sound.play(sound.ERROR, now)
        self.throw = None
        self.answer = None
        self._to_wait(now)

    def capture_lost(self, now_ns):
        self._void(now_ns, "capture data lost")

    def resumed(self, now_ns, paused_ns):
        if self.phase in _ROUND_PHASES:
            self._void(now_ns, "paused")
        else:
            self.until += paused_ns
            if self.flash_until:
                self.flash_until += paused_ns

    def _finish_match(self, now, champions):
        self.winners = list(champions)
        self.over = True
        self._enter(OVER, now)
        self.box.sound.play(sound.WIN, now)
        self._show_answer()
        self._draw_discs()
        self._set(self.top_left, "Match over", palette.DIM)
        self._set(self.top_right, "hold: menu", palette.DIM)
        self._line(0, self._names(champions) + (" WINS!" if len(champions) == 1 else " WIN!"),
                   palette.station(champions[0]) if len(champions) == 1 else palette.WARN)
        for p in range(1, self.players + 1):
            if p in champions:
                self.box.rings.set(p, rings.FLASH, palette.station(p), now_ns=now)
            else:
                self._ring_rest(p, now)

    # -------------------------------------------------------------- persistence
    def state(self):
        """The match between rounds as plain data (see ``restore``)."""
        discs = []
        for p in range(1, self.players + 1):
            discs.append(self.discs[p].to_dict())
        opts = {}
        for k, v in self.options.items():
            opts[k] = list(v) if type(v) is tuple else v
        return {
            "game": "wurfelblitz",
            "seed": self.seed,
            "players": self.players,
            "round": self.round,
            "roller": self.roller,
            "discs": discs,
            "supply": self.supply.to_dict(),
            "options": opts,
            "over": self.over,
            "winners": list(self.winners),
        }

    def restore(self, state, now_ns=0):
        """Continue a match saved by ``state()`` (between rounds)."""
        if state.get("players") != self.players or len(state["discs"]) != self.players:
            raise ValueError("saved match is for " + str(state.get("players")) + " players")
        discs = [None]
        for d in state["discs"]:
            discs.append(rules.Discs.from_dict(d))
        self.discs = discs
        self.supply = rules.Supply.from_dict(state["supply"])
        self.seed = state["seed"]
        self.round = state["round"]
        roller = state["roller"]
        if not 1 <= roller <= self.players:
            raise ValueError("saved roller is not a seat")
        self.roller = roller
        self.throw = None
        self.answer = None
        self.summary = ""
        self._round_reset()
        self._hide_setup()
        champions = [p for p in range(1, self.players + 1) if rules.won(self.discs[p])]
        if champions:
            self.summary = "match restored"
            self.throw = rules.roll(Rng(_seed_for_round(self.seed, self.round)), self.whites)
            self.answer = rules.score(self.throw, self.teaser)
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
