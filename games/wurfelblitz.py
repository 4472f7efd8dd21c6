# Würfelblitz on the box: roll, count down, reveal, race, answer, discs.
#
# The four parts: the rules (dice, score, discs, the bots' error model) in
# ``games.wurfelblitz_rules``; this module, the round flow; the screen in
# ``games.wurfelblitz_screen``; the bots in ``games.wurfelblitz_bots`` (imported only
# when a seat is a bot). (Docstrings would cost the box no RAM, its .mpy drops
# them; only the tests' MicroPython VM, compiling the .py, keeps them: docs/design.md,
# "Memory".)
#
# A round, phase by phase (``Game.phase``, one of the constants below; ``FLOW`` lists
# the moves between them):
#
# - SETUP (handicap "each" only): every player taps to set their own whites per
#   black; a hold starts the match.
# - WAIT: the roller's ring pulses; the roller taps their button (a bot rolls on
#   its own after a short pause). The last throw and its answer stay on screen. The
#   first roller is drawn by lot from the match seed (the German rule text: "Der
#   Anfangsspieler wird ausgelost").
# - COUNT: 3-2-1 on the screen, the rings and the piezo. The race is armed when the
#   countdown starts, so a press now is a false start: red blink, buzz, and that
#   player is out for this round (no disc lost; docs/rulings.md names no other penalty).
# - DARK: the backlight goes off and the throw is drawn unseen; then the backlight
#   goes on. The race opens at the captured reveal edge.
# - OPEN: the first press (and every press within the tie window) answers. A
#   button held down through the reveal is stuck: ignored until it is let go, then a
#   fresh press counts. Everyone out (false starts, wrong answers): void at once.
# - CALL -> CONFIRM (answer mode "call"): the buzzers say their answer aloud while
#   the screen says so (_CALL_NS), then the right answer and its working are shown;
#   each buzzer holds (= "I said that") or taps (= "I said something else"). Presses
#   after the answer became visible are ignored; presses before it were calls too, so
#   the rebound goes to them in time order.
# - ENTRY (answer mode "tap"): each buzzer taps the answer as a count, shown live,
#   and holds to send it (a hold with no taps is 0). Taps are counted from the
#   capture edges (the buzz itself never counts), the hold comes from the gestures.
#   The right answer stays hidden until the round is decided, so the race stays open
#   for everyone else meanwhile.
# - WRONG: wrong answers hand back a white disc and lock the player out; the race
#   re-opens for the rest (the next presser in time order answers).
# - Tied answerers each have _ANSWER_NS to answer; once one of them is right, the
#   others have _RIGHT_WAIT_NS more at most (so one silent player cannot hold the table).
# - Right answers each earn a white disc (several at once if they tied). Reaching the
#   handicap's whites makes a black at once; three blacks win (OVER). The round's
#   winner rolls next (tied winners: the earliest press, an exact tie drawn by lot).
#   Nobody right within the time limit: void, same roller again. Lost capture data
#   (or a pause) voids the round: discs go back to how they were when it began and
#   the same roller rolls again.

from games import wurfelblitz_rules as rules
from games.wurfelblitz_rules import score  # noqa: F401  (pinned API: games.wurfelblitz.score)
from games.wurfelblitz_screen import LINE_CHARS, View
from referee import palette, race_text, rings, screen, sound
from referee.box import REVEAL
from referee.core import MS, const, seat
from referee.game import BaseGame, Option, resolve_options
from referee.gestures import HOLD, HOLD_MS, TAP

TITLE = "Wurfelblitz"
MIN_PLAYERS = 2
MAX_PLAYERS = 7


# An option that code may also give per seat, as a tuple of ints lo..hi (one per seat,
# seat 1 first): ``handicaps=(3, 1, 2)`` (whites per black; not in the launcher, where
# ``handicap`` is one value or "each"), ``bot_ms=(1500, 900, 2500)`` (a bot's mean
# reaction time), ``bot_errors=(0, 0, 300)`` (a bot's wrong answers, per mille).
class PerSeat(Option):
    def __init__(self, key, title, choices, default, names, lo, hi, menu=True):
        super().__init__(key, title, choices, default, names, menu)
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
    # letters on the dots and the coloured dice, seat numbers in the strip (the
    # launcher starts on REFEREE_COLOUR_CUES, as it does on every option's setting)
    Option("colour_cues", "Colour letters", (False, True), False, ("off", "on")),
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


# The phases (``Game.phase``), their words in Game.NAMES, the moves in Game.FLOW.
SETUP = const(0)
WAIT = const(1)
COUNT = const(2)
DARK = const(3)
OPEN = const(4)
CALL = const(5)
CONFIRM = const(6)
ENTRY = const(7)
WRONG = const(8)
OVER = const(9)

_COUNT_STEP_NS = const(700000000)  # 700 ms: each of 3, 2, 1
_DARK_NS = const(250000000)  # 250 ms: backlight off while the throw is drawn
_CALL_NS = const(1200000000)  # 1200 ms: call mode: time to say it before the answer shows
_WRONG_NS = const(1800000000)  # 1800 ms: "wrong" shown before the race re-opens
_ANSWER_NS = const(20000000000)  # 20000 ms: an answerer who never answers is out (no penalty)
_RIGHT_WAIT_NS = const(5000000000)  # 5000 ms: once a tied answerer is right, the others get this long
_FLASH_NS = const(2000000000)  # 2000 ms: the round winner's ring flashes
_BLINK_NS = const(2000000000)  # 2000 ms: a locked-out / false-start ring blinks red, then stays dim red
_BOT_ROLL_NS = const(2500000000)  # 2500 ms: a bot roller gives the table time to read the result
_TAP_MIN_NS = const(5000000)  # 5 ms: a tap must be down this long (bounce is shorter)
_TAP_JOIN_NS = const(5000000)  # 5 ms: a press this soon after a release continues it (bounce)
_HOLD_NS = HOLD_MS * MS
_CLOSE_SETTLE_NS = const(5000000)  # 5 ms: after the race closes, presses before it settle this long
_OUT_RED = palette.scale(palette.BAD, 60)
_WHITE_PX = const(0xA0A0A0)  # a white disc on the ring: plainly lit under the brightness cap, no hue


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
    VERSION = 1  # the shape of state(): bump it when it changes (a save of another is not resumed)
    NAMES = ("setup", "wait", "count", "dark", "open", "call", "confirm", "entry", "wrong", "over")
    # FLOW[phase]: where it may go next. WAIT from any phase of a round: a void (time
    # up, nobody right, a pause or lost capture data); OVER from SETUP and WAIT: a
    # restored match that was already won.
    FLOW = (
        (WAIT, OVER),  # SETUP: a hold starts the match
        (WAIT, COUNT, OVER),  # WAIT: the roller rolls (WAIT again: a restore)
        (DARK, WAIT),  # COUNT: after 1, the dark
        (OPEN, WAIT),  # DARK: the backlight comes on
        (CALL, CONFIRM, ENTRY, WAIT),  # OPEN: someone buzzed (CONFIRM: a rebound in call mode)
        (CONFIRM, WAIT),  # CALL: the answer shows
        (WRONG, WAIT, OVER),  # CONFIRM: judged
        (WRONG, WAIT, OVER),  # ENTRY: judged
        (OPEN, WAIT),  # WRONG: the race re-opens for the others
        (),  # OVER
    )

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
        self.setup = False
        self.discs = [None]
        for p in range(1, players + 1):
            self.discs.append(rules.Discs(given[p - 1] if p <= len(given) else rules.DEFAULT_HANDICAP if each
                                          else o["handicap"]))
            if each and not self.is_bot(p):
                self.setup = True
        self.phase = SETUP
        self.bot = None
        if self.bots:
            from games import wurfelblitz_bots

            levels = {}
            for b in self.bots:
                levels[b] = bot_level(o, self.bots, b)
            self.bot = wurfelblitz_bots.Bots(levels)
        self.supply = rules.Supply()
        self.round = 0
        self.roller = 1 + self.rng.randbelow(players)  # drawn by lot from the seed
        self.throw = self.answer = self._saved = None
        self.until = self.flash_until = self.step = 0
        self.down = [False] * (players + 1)  # human station levels from capture
        self.last_down = [-1] * (players + 1)  # time of each human's last press edge
        self.fed_down = [False] * (players + 1)  # the last edge given to the race was a press
        self.summary = []  # what happened in the last round: parts of text, each kept whole
        self.blinking = {}  # player -> end of the red blink
        self._round_reset()
        self.view = View(self.root, players, self.whites, self.setup, o["colour_cues"])
        self._draw_discs()

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
        self.results = []  # this round's verdicts so far (wrong answers), for its summary
        self.flagged = []  # false starts and stuck buttons
        self.stuck = []  # held down since before the roll, still down (ignored until let go)

    def _in_round(self):
        return COUNT <= self.phase <= WRONG

    # ------------------------------------------------------------------ screens
    def _draw_discs(self):
        over = self.phase == OVER
        for p in range(1, self.players + 1):
            d = self.discs[p]
            self.view.discs(p, d.black, d.white, p == self.roller and not over)

    def _draw_throw(self, judged):
        """The throw on the dice; once ``judged``, the dice that count get a green frame."""
        counts = None
        if judged:
            throw = self.throw
            blocked = rules.blocked(throw)
            flipped = self.teaser and rules.brainteaser_applies(throw)
            counts = [type(throw[i][1]) is int and (throw[i][0] in blocked) == flipped for i in range(6)]
        self.view.show_throw(self.throw, counts)

    def _show_answer(self, parts, color):
        """The right answer, big, the throw with the dice that count framed, and
        ``parts`` in ``color`` over the answer's working."""
        self.view.show_big("=" + str(self.answer), palette.GOOD)
        self.view.info(parts, color, rules.explain(self.throw, self.teaser))
        self._draw_throw(True)

    def _show_setup(self):
        """Handicap "each": every player taps to set their own whites per black."""
        self.view.header("Whites for a black", "", palette.TEXT, palette.WARN)
        self.view.info()
        rows = []
        for p in range(1, self.players + 1):
            h = self.discs[p].handicap
            rows.append("P%d: %d white%s%s" % (p, h, "s" if h > 1 else "", " (bot)" if self.is_bot(p) else ""))
        self.view.setup(rows)

    def _waiting(self, bots=False):
        """The answerers still to answer (humans only unless ``bots``)."""
        return [p for p in self.answerers if self.verdict.get(p) is None and (bots or not self.is_bot(p))]

    def _bot_words(self, verb):
        """e.g. ["P2 says 7", "P3 says 9"]: what the bots among the answerers said,
        with the verdict once a bot has confirmed."""
        out = []
        for p in self.answerers:
            if self.is_bot(p):
                v = self.verdict.get(p)
                out.append(seat(p) + verb + str(self.said[p]) + ("" if v is None else ": right" if v else ": wrong"))
        return out

    def _show_confirm(self):
        """Call mode, answer shown: who still has to hold (= "I said that") or tap, and
        what the bots said."""
        humans = self._waiting()
        parts = []
        if humans:
            text = _names(humans) + ": hold=said it tap=other"
            if len(text) > LINE_CHARS:
                text = _names(humans) + ": hold=yes tap=no"
            parts.append(text)
        self._show_answer(parts + self._bot_words(" said "), palette.WARN)

    def _show_entry(self):
        """Tap mode: the count so far, big for one answerer, in a row for several."""
        who = self.answerers
        counts = ""
        if len(who) == 1:
            self.view.show_big(str(self.counters[who[0]].taps), palette.station(who[0]))
        else:
            self.view.show_big("")
            for p in who:
                counts += "  P" + str(p) + ":" + str(self.counters[p].taps) + ("" if self.verdict.get(p) is None else "!")
        humans = self._waiting()
        head = _names(humans) + ": tap answer, hold=send" if humans else _names(who) + " tapping..."
        self.view.info((head,), palette.WARN, rest=(counts[2:],))

    def _headline(self):
        """Who answers and by how much they were first, e.g. "P3 first by 1.204 ms"."""
        head = ("next: " if self.rebound else "") + race_text.headline(self.race, self.box.precision_ns)
        self.view.header("R" + str(self.round), head, palette.WARN)

    # -------------------------------------------------------------------- rings
    def _ring_rest(self, p, now):
        # 12 pixels: a bright quarter of the ring per black disc, then one white pixel
        # per white disc (neutral, half as bright), the rest faint in the station colour
        d = self.discs[p]
        c = palette.station(p)
        px = [c] * (min(d.black, 3) * 4) + [_WHITE_PX] * d.white + [palette.scale(c, 30)] * rings.PER_RING
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
        if self.setup:
            self.phase_at = now_ns
            self._show_setup()
            self.box.rings.rest(self.players, now_ns)
        else:
            self._to_wait(now_ns)

    def _to_wait(self, now):
        """The roller's turn. The last round's throw, answer and results stay on screen
        (the header names that round) until the next round is rolled."""
        self.go(WAIT, now)
        self.saves += 1  # between rounds: the app saves the match (state())
        self.until = now + _BOT_ROLL_NS
        p = self.roller
        view = self.view
        view.header("Round " + str(self.round if self.throw else self.round + 1),
                    seat(p) + (" rolls" if self.is_bot(p) else ": tap to roll"), palette.station(p))
        view.bar(0, 1)
        view.show_mid("")
        if self.throw:
            self._show_answer(self.summary, palette.WARN)
        else:
            view.hide_throw()
            view.show_big("")
            if self.summary:
                view.info(self.summary, palette.WARN)
            else:
                t = self.teaser
                view.show_mid(TITLE, palette.WARN, 4)
                view.info(("Add the pips of the dice", "A dot twice: count the" if t else "whose colour shows no dot."),
                          rest=("dotted colours instead!" if t else "First right: white disc",))
        self._draw_discs()
        if now >= self.flash_until:
            self._rings_wait(now)

    def _new_throw(self):
        # from the match's one generator, which goes on: a round replayed after a void
        # (pause, lost capture) and a match resumed after a power cut (the app reseeds
        # it) throw dice nobody has seen (the rulings)
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
        self.go(COUNT, now)
        self.until = now
        self.step = 0
        view = self.view
        view.hide_throw()
        view.show_mid("")
        view.show_big("")
        view.info()
        view.header("Round " + str(self.round), seat(self.roller) + " rolls", palette.station(self.roller))
        self._draw_discs()
        self._countdown(now)

    def _countdown(self, now):
        """3, 2, 1, then dark: the throw is drawn unseen."""
        if now < self.until:
            return
        self.step += 1
        digit = 4 - self.step
        view = self.view
        if digit:
            view.show_mid(str(digit))
            self.box.sound.play(sound.COUNT, now)
            self.until = now + _COUNT_STEP_NS
        else:
            self.go(DARK, now)
            self.box.reveal(False)
            view.show_mid("")
            self._draw_throw(False)
            view.header(None, "GO!", palette.GOOD)
            self._show_notes()
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
            if pressed and self.phase == OPEN and self.reveal_at is None:
                self._revealed(t_ns)
            return
        if not 1 <= player <= self.players or self.is_bot(player):
            return
        self.down[player] = pressed
        if pressed:
            self.last_down[player] = t_ns
        if not self._in_round():
            return
        if pressed:
            if self._in_time(t_ns):
                self.race.edge(player, t_ns, True)
                self.fed_down[player] = True
        elif self.fed_down[player]:
            self.race.edge(player, t_ns, False)
            self.fed_down[player] = False
        elif player in self.stuck:  # let go at last: from now on it may buzz
            self.stuck.remove(player)
            self.flagged.remove(player)
            if self.phase == OPEN and not self.rebound:
                self._show_notes()
            self._ring_rest(player, t_ns)
        c = self.counters.get(player)
        if c and self.phase == ENTRY and self.verdict.get(player) is None:
            taps = c.taps
            c.edge(t_ns, pressed)
            if c.taps != taps:
                self.box.sound.play(sound.CLICK, t_ns)
                self._show_entry()

    def _revealed(self, t_ns):
        # the reveal edge came back through capture: the race opens at t_ns
        self.reveal_at = t_ns
        self.race.reveal(t_ns)
        self.deadline = t_ns + self.limit_ns
        for b in self.bots:
            self.bot_press[b], self.said[b] = self.bot.read(b, self.rng, self.throw, self.teaser, t_ns)
        for p in range(1, self.players + 1):
            if self.down[p] and not self.fed_down[p]:
                self._flag((p,), t_ns, True)

    def gesture(self, player, kind, count, now_ns):
        if not 1 <= player <= self.players or self.is_bot(player) or self.last_down[player] < self.phase_at:
            return  # not a seat, a bot's seat, or a press left over from an earlier phase
        phase = self.phase
        if phase == SETUP:
            if kind == TAP:
                h = self.discs[player].handicap
                self.discs[player] = rules.Discs(h - 1 if h > 1 else 3)
                self._show_setup()
            elif kind == HOLD:
                self.view.setup(None)
                self._to_wait(now_ns)
        elif phase == WAIT:
            if player == self.roller and kind == TAP:
                self._roll(now_ns)
        elif player in self.answerers and self.verdict.get(player) is None:
            if phase == CONFIRM:
                if kind == HOLD:
                    self.verdict[player] = True
                elif kind == TAP:
                    self.verdict[player] = False
                self._show_confirm()
            elif phase == ENTRY and kind == HOLD:  # send the count
                self.said[player] = taps = self.counters[player].taps
                self.verdict[player] = taps == self.answer
                self._show_entry()

    # --------------------------------------------------------------------- tick
    def tick(self, now_ns):
        now = now_ns
        phase = self.phase
        self._unblink(now)
        if phase == WAIT:
            if self.flash_until and now >= self.flash_until:
                self.flash_until = 0
                self._rings_wait(now)
            if self.is_bot(self.roller) and now >= self.until:
                self._roll(now)
            return
        if not self._in_round():
            return
        self._bots_buzz(now)
        self.race.settle(now)
        t = self.deadline
        if t is not None and now >= t and (self.closed_at is None or t < self.closed_at):
            self.closed_at = t
        if phase == COUNT or phase == DARK:
            self._before_light(phase, now)
        elif phase == OPEN:
            self._open(now)
        elif phase == CALL:
            self._headline()
            if now >= self.until:
                self._to_confirm(now)
        elif phase == WRONG:
            if now >= self.until:
                self._reopen(now)
        else:  # CONFIRM, ENTRY
            self._answers_due(now)

    def next_at(self, now_ns):
        # a ring's blink or flash ends; a bot rolls; a bot buzzes or answers; the time
        # limit; the phase's end; the time bar's next step; a time at which the race's
        # verdict can change
        due = list(self.blinking.values())
        phase = self.phase
        if phase == WAIT:
            if self.flash_until:
                due.append(self.flash_until)
            if self.is_bot(self.roller):
                due.append(self.until)
        elif self._in_round():
            due += list(self.bot_press.values())
            due.append(self.race.next_at())
            due.append(self.deadline)
            if phase == OPEN:
                w = self.view.tbar_w
                if self.reveal_at is not None and w > 0:
                    # the time bar (the view's: WIDTH * left // limit pixels) loses a
                    # pixel at the first time T with WIDTH * (deadline - T) < w * limit
                    due.append(self.deadline - (w * self.limit_ns + screen.WIDTH - 1) // screen.WIDTH + 1)
                if self.closed_at is not None:
                    due.append(self.closed_at + self.race.tie_window_ns + _CLOSE_SETTLE_NS)
            elif phase == CONFIRM or phase == ENTRY:
                for b in self.bot_act:
                    if self.verdict.get(b) is None:
                        due.append(self.bot_act[b])
                due.append(self.answer_until if self._waiting(True) else now_ns)
            else:  # COUNT, DARK, CALL, WRONG
                due.append(self.until)
        due = [t for t in due if t is not None]
        return min(due) if due else None

    def _unblink(self, now):
        # a locked-out or false-start ring blinks red, then stays dim red
        for p in sorted(self.blinking):
            if now >= self.blinking[p]:
                del self.blinking[p]
                if self._in_round():
                    self.box.rings.set(p, rings.SOLID, _OUT_RED, now_ns=now)

    def _bots_buzz(self, now):
        for b in sorted(self.bot_press):  # seat order: MicroPython dicts are unordered
            t = self.bot_press[b]
            if t <= now:
                del self.bot_press[b]
                if self._in_time(t):  # else the answer was on screen, or the time was up
                    self.race.edge(b, t, True)
                    self.race.edge(b, t + 80 * MS, False)

    def _before_light(self, phase, now):
        # the countdown, then the throw drawn in the dark: false starts flagged; lit at the end
        self._flag(self.race.false_starts(), now)
        if phase == COUNT:
            self._countdown(now)
        elif now >= self.until:  # the throw is drawn: light it
            self.go(OPEN, now)
            self.box.reveal(True)
            self.box.sound.play(sound.GO, now)
            for p in range(1, self.players + 1):
                if p not in self.flagged:
                    self._ring_rest(p, now)

    def _answers_due(self, now):
        # CONFIRM, ENTRY: the bots answer; once all have, or time is up, the round is judged
        self._bots_answer(now)
        waiting = self._waiting(True)
        if waiting and True in self.verdict.values():  # one is right: the rest hurry up
            self.answer_until = min(self.answer_until, now + _RIGHT_WAIT_NS)
        if waiting and now < self.answer_until:
            return
        for p in waiting:
            self.verdict[p] = "none"  # never answered: out, no penalty
        self._judge(now)

    def _in_time(self, t):
        # A press stamped ``t`` is part of the race: before the answer showed (call
        # mode) and before the time limit, judged on the stamp alone (docs/rulings.md: a press
        # at or after the limit never answers, however the loop's passes fall).
        return (self.closed_at is None or t < self.closed_at) and (self.deadline is None or t < self.deadline)

    def _flag(self, players, now, stuck=False):
        """False starts (or stuck buttons) the round has not flagged yet."""
        new = False
        for p in players:
            if p not in self.flagged:
                new = True
                self.flagged.append(p)
                if stuck:
                    self.stuck.append(p)
                    self.box.rings.set(p, rings.SOLID, palette.WARN, now_ns=now)
                else:
                    self._ring_out(p, now)
                    self.box.sound.play(sound.FALSE_START, now)
        if new:
            self._show_notes()

    def _show_notes(self):
        """This round's false starts and stuck buttons, e.g. "P2 P5 false start: out"."""
        out = [p for p in self.flagged if p not in self.stuck]
        parts = []
        if out:
            parts.append(_names(out) + " false start: out")
        if self.stuck:
            parts.append(_names(self.stuck) + " held down: let go")
        self.view.info(parts, palette.BAD)

    def _open(self, now):
        race = self.race
        if self.reveal_at is None:
            return
        out = race.false_starts()
        self._flag(out, now)
        self.view.bar(self.deadline - now, self.limit_ns)  # the time bar
        winners = race.winners()
        if winners:
            self._answer(now, winners)
        elif (self.closed_at is not None and now >= self.closed_at + race.tie_window_ns + _CLOSE_SETTLE_NS
              or len(out) + len(race.locked()) >= self.players):
            # nobody right (or nobody left to answer): void, the same roller rolls again
            self.summary = [("Time up" if now >= self.deadline else "Nobody right") + ": round void"] + self.results
            self.box.sound.play(sound.ERROR, now)
            self._to_wait(now)

    # ------------------------------------------------------------------ answers
    def _answer(self, now, who):
        self.answerers = list(who)
        self.answer_until = now + _ANSWER_NS
        self.view.bar(0, 1)
        self._headline()
        tap = self.mode == "tap"
        for p in who:
            self.box.rings.set(p, rings.SOLID, palette.station(p), now_ns=now)
            if tap:
                self.counters[p] = TapCount(now)
                if self.is_bot(p):
                    self.bot_act[p] = self.bot.first_tap_at(now)
        if tap:
            self.go(ENTRY, now)
            self._show_entry()
        elif self.rebound:
            self._to_confirm(now)
        else:  # say it now, before the answer shows
            self.go(CALL, now)
            self.until = now + _CALL_NS
            one = len(who) == 1
            color = palette.station(who[0]) if one else palette.TEXT
            self.view.show_big((_names(who) if one else "") + "?", color)
            self.view.info((_names(who) + ": say it now!",), color, rest=self._bot_words(" says "))

    def _to_confirm(self, now):
        self.go(CONFIRM, now)
        if not self.rebound and (self.closed_at is None or now < self.closed_at):
            self.closed_at = now  # the answer is visible: later presses cannot count
        for p in self.answerers:
            if self.is_bot(p):
                self.bot_act[p] = self.bot.confirm_at(now)
        self._show_confirm()

    def _bots_answer(self, now):
        for b in sorted(self.bot_act):  # seat order: MicroPython dicts are unordered
            if now < self.bot_act[b] or self.verdict.get(b) is not None:
                continue
            if self.phase == CONFIRM:
                del self.bot_act[b]
                self.verdict[b] = self.said[b] == self.answer
                self._show_confirm()
                continue
            c = self.counters[b]
            if c.taps < self.said[b]:
                c.taps += 1
                self.bot_act[b] = self.bot.next_tap_at(now, c.taps, self.said[b])
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
        self.results += parts
        if not right:
            self.box.sound.play(sound.LOCKOUT, now)
            self.go(WRONG, now)
            self.until = now + _WRONG_NS
            if self.mode == "tap":  # the answer stays hidden
                self.view.show_big("X", palette.BAD)
                self.view.info(parts, palette.BAD, rest=("race open for the others",))
            else:
                self._show_answer(parts, palette.BAD)
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
        self.summary = gains + self.results
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
        self.go(OPEN, now)
        self.answerers = []
        view = self.view
        view.header(None, "open again", palette.GOOD)
        if self.mode == "tap":  # who is out stays on screen
            view.show_big("")
            view.info(self.results, palette.BAD)
        else:
            self._show_answer(("earlier callers may answer",), palette.TEXT)
        locked = self.race.locked()
        for p in range(1, self.players + 1):
            if p not in locked and p not in self.flagged:
                self._ring_rest(p, now)
        self._open(now)

    def resumed(self, now_ns, paused_ns):
        # The pause menu gave no edges to the game: buttons let go while it showed (the
        # pause chord) are up now, and one still held counts only once pressed again.
        self.down = [False] * (self.players + 1)
        self._void(now_ns, paused_ns, "paused")

    def capture_lost(self, now_ns):
        self._void(now_ns, 0, "capture data lost")

    def _void(self, now_ns, paused_ns, why):
        if not self._in_round():
            self.until += paused_ns
            if self.flash_until:
                self.flash_until += paused_ns
            return
        # a pause or lost capture data voids the round: back to the discs it began
        # with (saved when it began), the same roller rolls again
        self.race.lost_data(why)
        self.blinking = {}
        self.flash_until = 0
        self.box.sound.play(sound.ERROR, now_ns)
        self.summary = [why + ": void"]
        self.restore(self._saved, now_ns)
        self.box.reveal(True)  # only now: the throw nobody saw is off the screen

    def _finish_match(self, now, champions):
        """The match is over: the winner large, the standings below, the discs strip."""
        self.winners = list(champions)
        self.over = True
        self.go(OVER, now)
        self.box.sound.play(sound.WIN, now)
        self.view.header("Match over", "hold: menu", palette.DIM)
        discs = self.discs
        rows = []
        for place, p in self.ranked(self._disc_key):
            d = discs[p]
            rows.append("%d. %s B%d W%d" % (place, seat(p), d.black, d.white))
        one = len(champions) == 1
        self.view.over(_names(champions) + (" WINS!" if one else " WIN!"),
                       palette.station(champions[0]) if one else palette.WARN, rows)
        self._draw_discs()
        for p in range(1, self.players + 1):
            if p in champions:
                self.box.rings.set(p, rings.FLASH, palette.station(p), now_ns=now)
            else:
                self._ring_rest(p, now)

    def _disc_key(self, p):
        d = self.discs[p]
        return (-d.black, -d.white)

    def standings(self):
        # best first: black discs, then white (the rules' ranking)
        out = []
        for place, p in self.ranked(self._disc_key):
            d = self.discs[p]
            out.append((p, "%d. %s  %d black, %d white" % (place, seat(p), d.black, d.white)))
        return out

    # -------------------------------------------------------------- persistence
    def state(self):
        # Würfelblitz's own part of the save (between rounds), as plain data: the
        # round, the roller, each seat's discs and the box's supply (BaseGame.record
        # adds the seats, bots, options and seed).
        return {"round": self.round, "roller": self.roller, "discs": [d.to_dict() for d in self.discs[1:]],
                "supply": self.supply.to_dict()}

    def restore(self, state, now_ns=0):
        # Continue a match from ``state()`` (between rounds); ``summary``, the line
        # about the last round, is kept.
        n = self.players
        if len(state["discs"]) != n:
            raise ValueError("saved match is for " + str(len(state["discs"])) + " players")
        if not 1 <= state["roller"] <= n:
            raise ValueError("saved roller is not a seat")
        self.discs = [None]
        for d in state["discs"]:
            self.discs.append(rules.Discs.from_dict(d))
        self.supply = rules.Supply.from_dict(state["supply"])
        self.round = state["round"]
        self.roller = state["roller"]
        self.throw = self.answer = None
        self._round_reset()
        self.view.setup(None)
        champions = []
        for p in range(1, n + 1):
            if rules.won(self.discs[p]):
                champions.append(p)
        if champions:
            self._finish_match(now_ns, champions)
        else:
            self._to_wait(now_ns)
