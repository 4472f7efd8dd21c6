# Würfelblitz on the box: roll, count down, reveal, race, answer, discs.
#
# The four parts: the rules (dice, score, discs, the bots' error model) in
# ``games.wurfelblitz_rules``; this module, the round flow; the screen in
# ``games.wurfelblitz_screen``; the bots in ``games.wurfelblitz_bots`` (imported only
# when a seat is a bot). (Docstrings would cost the box no RAM, its .mpy drops
# them; only the tests' MicroPython VM, compiling the .py, keeps them: docs/design.md,
# "Memory".)
#
# A round, phase by phase (SETUP, WAIT, COUNT, DARK, OPEN, CALL/CONFIRM or ENTRY,
# WRONG, OVER; ``FLOW`` below lists the moves): docs/wurfelblitz.md, "The flow, phase
# by phase"; in players' words, "A round" there.

from array import array

from games import wurfelblitz_rules as rules
from games.wurfelblitz_rules import (  # noqa: F401  (the registry's and the launcher's)
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTIONS,
    TITLE,
    bot_level,
    score,  # noqa: F401  (pinned API: games.wurfelblitz.score)
)
from games.wurfelblitz_screen import View, said
from referee import palette, rings, sound
from referee.box import REVEAL
from referee.core import MS, const, seat
from referee.game import BaseGame
from referee.gestures import HOLD, HOLD_MS, TAP, UP, Presses

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
_BOT_ROLL_NS = const(2500000000)  # 2500 ms: a bot roller gives the table time to read the result
_HOLD_NS = HOLD_MS * MS
_CLOSE_SETTLE_NS = const(5000000)  # 5 ms: after the race closes, presses before it settle this long


def _sooner(t, u):
    # the earlier of two times (ns), either of them None for none
    if u is None or (t is not None and t <= u):
        return t
    return u


class Game(BaseGame):
    TITLE = TITLE
    VERSION = 2  # the shape of state(): bump it when it changes (a save of another is not resumed)
    _due = 0  # the parts of a roller's turn's screen still to draw (_to_wait, draw_part)
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
        o = self.options
        self.race = self.new_race()
        self.mode = o["answer"]
        self.whites = o["whites"]
        self.teaser = o["brainteaser"]
        self.limit_ns = o["limit_s"] * 1000 * MS
        self.discs = rules.start_discs(o, players)
        self.setup = o["handicap"] == "each" and len(self.bots) < players  # people set their own at the start
        self.phase = SETUP
        self.bot = None
        if self.bots:
            from games import wurfelblitz_bots

            self.bot = wurfelblitz_bots.Bots(o, self.bots)
        self.supply = rules.Supply()
        self.round = 0
        self.roller = 1 + self.rng.randbelow(players)  # drawn by lot from the seed
        self.throw = self.answer = self._saved = None
        self.until = self.flash_until = self.step = 0
        self.keys = Presses(players + 1)  # each human station's presses
        self.fed_down = [False] * (players + 1)  # the last edge given to the race was a press
        self.summary = []  # what happened in the last round: parts of text, each kept whole
        self._round_reset()
        self.view = View(self.root, self.box.rings, players, self.whites, self.setup, o["colour_cues"])
        self._draw_discs()

    def _round_reset(self):
        # said, verdict, taps, bot_act: per answerer; an answerer is judged once
        # a round, so entries of earlier answerers are never read again
        self.answerers = []
        self.said = {}
        self.verdict = {}  # True, False or "none" (never answered)
        self.taps = {}  # tap mode: player -> taps counted (presses begun in ENTRY, let go before a hold)
        self.bot_act = {}  # bot -> time of its next confirm / tap / send
        self.bot_press = {}  # bot -> time of its buzz
        self._head_due = False  # a press went into the race since the headline was drawn (CALL)
        self._say = False  # the race is won: the screen says so at the next pass
        self.after = []  # when each bot (in seat order) buzzes after the light, ns (_read)
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
        self.view.all_discs(self.discs, None if self.phase == OVER else self.roller)

    def _waiting(self, bots=False):
        """The answerers still to answer (humans only unless ``bots``)."""
        return [p for p in self.answerers if self.verdict.get(p) is None and (bots or not self.is_bot(p))]

    def _bot_words(self, verb):
        """What the bots among the answerers said (screen.said)."""
        return said([p for p in self.answerers if self.is_bot(p)], self.said, self.verdict, verb)

    def _show_answer(self, parts, color):
        self.view.answer(self.answer, parts, color, self.throw, self.teaser)

    def _show_confirm(self):
        """Call mode, answer shown: who still has to hold (= "I said that") or tap."""
        self.view.confirm(self._waiting(), self._bot_words(" said "), self.answer, self.throw, self.teaser)

    def _show_entry(self):
        """Tap mode: the count so far."""
        self.view.entry(self.answerers, self.taps, self._waiting(), self.verdict)

    def _headline(self):
        self.view.headline(self.round, self.rebound, self.race, self.box.precision_ns)

    # --------------------------------------------------------------------- flow
    def start(self, now_ns):
        if self.setup:
            self.phase_at = now_ns
            self.view.handicaps(self.discs, self.bots)
            self.box.rings.rest(self.players, now_ns)
        else:
            self._to_wait(now_ns)

    def _to_wait(self, now):
        """The roller's turn. The last round's throw, answer and results stay on screen
        (the header names that round) until the next round is rolled."""
        self.go(WAIT, now)
        self._say = False
        self.saves += 1  # between rounds: the app saves the match (state())
        self.until = now + _BOT_ROLL_NS
        p = self.roller
        self.view.waiting(self.round if self.throw else self.round + 1, p, self.is_bot(p), self.summary,
                          self.throw is not None, self.teaser)
        # the answer's summary, then the discs, each at a pass of its own (BaseGame.due):
        # the whole screen in the pass of the verdict was 32-41 ms on the firmware
        self._due = 2 if self.throw else 1
        if now >= self.flash_until:
            self.view.rings_wait(self.roller, self.discs, now)

    def due(self):
        return self._due != 0

    def draw_part(self, now_ns):
        # the next part of the roller's turn's screen (_to_wait)
        if self._due == 2:
            self._show_answer(self.summary, palette.WARN)
        else:
            self._draw_discs()
        self._due -= 1

    def _roll(self, now):
        """The roller started the round: countdown, race armed."""
        self.round += 1
        self._saved = self._start()
        self._round_reset()
        self.view.blinking = {}
        self.race.reset()
        self.race.arm(now)
        # a button down already is not given to the race: still down at the reveal it
        # is stuck (flagged, see edge); once let go, a fresh press is a press like any
        self.fed_down = [False] * (self.players + 1)
        # from the match's one generator, which goes on: a round replayed after a void
        # (pause, lost capture) and a match resumed after a power cut (the app reseeds
        # it) throw dice nobody has seen (the rulings)
        self.throw = rules.roll(self.rng, self.whites)
        self.answer = rules.score(self.throw, self.teaser)
        self.go(COUNT, now)
        self.until = now
        self.step = 0
        self.view.rolled(self.round, self.roller)  # (the discs as _to_wait drew them)
        # the countdown's first digit at the next pass (until: now): the throw, its answer
        # and the digit in one pass were 26-28 ms on the firmware

    def _countdown(self, now):
        """3, 2, 1, then dark: the throw is drawn unseen."""
        if now < self.until:
            return
        self.step += 1
        digit = 4 - self.step
        if digit:
            self.box.sound.play(sound.COUNT, now)
            self.until = now + _COUNT_STEP_NS
        else:
            self.go(DARK, now)
            self.box.reveal(False)
            self.until = now + _DARK_NS
        self.view.countdown(digit, self.throw, self.flagged, now)
        if not digit:
            self._show_notes()

    # -------------------------------------------------------------------- input
    def edge(self, player, t_ns, pressed):
        if player == REVEAL:
            if pressed and self.phase == OPEN and self.reveal_at is None:
                self._revealed(t_ns)
            return
        if not 1 <= player <= self.players or self.is_bot(player):
            return
        keys = self.keys
        said = keys.edge(player, t_ns, pressed)
        if not self._in_round():
            return
        if pressed:
            if self._in_time(t_ns):
                self.race.edge(player, t_ns, True)
                self.fed_down[player] = self._head_due = True
        elif self.fed_down[player]:
            self.race.edge(player, t_ns, False)
            self.fed_down[player] = False
            self._head_due = True
        elif player in self.stuck:  # let go at last: from now on it may buzz
            self.stuck.remove(player)
            self.flagged.remove(player)
            if self.phase == OPEN and not self.rebound:
                self._show_notes()
            self.view.ring_rest(player, self.discs[player], t_ns)
        if (said == UP and self.phase == ENTRY and player in self.taps and self.verdict.get(player) is None
                and keys.at[player] >= self.phase_at and t_ns - keys.at[player] < _HOLD_NS):
            self.taps[player] += 1  # a tap of the count (a hold sends it)
            self.box.sound.play(sound.CLICK, t_ns)
            self._show_entry()

    def _revealed(self, t_ns):
        # the reveal edge came back through capture: the race opens at t_ns
        self.reveal_at = t_ns
        self.race.reveal(t_ns)
        self.deadline = t_ns + self.limit_ns
        while self._read():  # (read in the countdown and the dark already, but for a short one)
            pass
        for i in range(len(self.bots)):
            self.bot_press[self.bots[i]] = t_ns + self.after[i]
        for p in range(1, self.players + 1):
            if self.keys.down[p] and not self.fed_down[p]:
                self._flag((p,), t_ns, True)

    def gesture(self, player, kind, count, now_ns):
        if not 1 <= player <= self.players or self.is_bot(player) or self.keys.at[player] < self.phase_at:
            return  # not a seat, a bot's seat, or a press left over from an earlier phase
        phase = self.phase
        if phase == SETUP:
            if kind == TAP:
                h = self.discs[player].handicap
                self.discs[player] = rules.Discs(h - 1 if h > 1 else 3)
                self.view.handicaps(self.discs, self.bots)
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
                self.said[player] = taps = self.taps[player]
                self.verdict[player] = taps == self.answer
                self._show_entry()

    # --------------------------------------------------------------------- tick
    def tick(self, now_ns):
        now = now_ns
        if self._say:
            self._say_answer(now)
        phase = self.phase
        self.view.unblink(now, self._in_round())
        if phase == WAIT:
            if self.flash_until and now >= self.flash_until:
                self.flash_until = 0
                self.view.rings_wait(self.roller, self.discs, now)
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
            if self._head_due:  # a later press may change the margin: drawn once it is judged
                self._headline()  # (not every pass: 6 ms on a Pico)
                self._head_due = bool(self.race.pending())
            if now >= self.until:
                self._to_confirm(now)
        elif phase == WRONG:
            if now >= self.until:
                self._reopen(now)
        else:  # CONFIRM, ENTRY
            self._answers_due(now)

    if __debug__:  # the simulator's (it skips idle time); the box never asks: its -O3 .mpy leaves this out
        def next_at(self, now_ns):
            # a ring's blink or flash ends; a bot rolls; a bot buzzes or answers; the time
            # limit; the phase's end; a time at which the race's verdict can change; a won
            # race's screen (the pass after it). No list made: the simulator asks before
            # every pass.
            if self._say:
                return now_ns
            t = None
            for v in self.view.blinking.values():
                t = _sooner(t, v)
            phase = self.phase
            if phase == WAIT:
                if self.flash_until:
                    t = _sooner(t, self.flash_until)
                return _sooner(t, self.until) if self.is_bot(self.roller) else t
            if not self._in_round():
                return t
            for v in self.bot_press.values():
                t = _sooner(t, v)
            t = _sooner(_sooner(t, self.race.next_at()), self.deadline)
            if phase == OPEN:
                if self.closed_at is not None:
                    t = _sooner(t, self.closed_at + self.race.tie_window_ns + _CLOSE_SETTLE_NS)
                return t
            if phase == CONFIRM or phase == ENTRY:
                for b in self.bot_act:
                    if self.verdict.get(b) is None:
                        t = _sooner(t, self.bot_act[b])
                return _sooner(t, self.answer_until if self._waiting(True) else now_ns)
            t = _sooner(t, self.until)  # COUNT, DARK, CALL, WRONG
            if phase == CALL:
                return now_ns if self._head_due else t  # (the headline drawn again: the next pass)
            if len(self.after) < len(self.bots) and phase != WRONG:
                t = _sooner(t, now_ns)  # a bot to read the throw in the next pass
            return t

        def next_look_at(self, now_ns):
            # the time bar's next pixel
            if self.phase == OPEN and self.reveal_at is not None:
                return self.view.bar_next(self.deadline, self.limit_ns)
            return None

    def _bots_buzz(self, now):
        for b in sorted(self.bot_press):  # seat order: MicroPython dicts are unordered
            t = self.bot_press[b]
            if t <= now:
                del self.bot_press[b]
                if self._in_time(t):  # else the answer was on screen, or the time was up
                    self.race.edge(b, t, True)
                    self.race.edge(b, t + 80 * MS, False)
                    self._head_due = True

    def _read(self):
        # The next bot reads the throw: when it will buzz after the light, what it will
        # say. A bot a pass in the countdown and the dark, the same draws in the same
        # order as at the light (seven bots at once were a pass of 63 ms on a Pico, at
        # the very moment the race opens).
        # False once every bot has read it.
        n = len(self.after)
        if n == len(self.bots):
            return False
        b = self.bots[n]
        at, self.said[b] = self.bot.read(b, self.rng, self.throw, self.teaser, 0)
        self.after.append(at)
        return True

    def _before_light(self, phase, now):
        # the countdown, then the throw drawn in the dark: false starts flagged; lit at the end
        self._read()
        self._flag(self.race.false_starts(), now)
        if phase == COUNT:
            self._countdown(now)
        elif now >= self.until:  # the throw is drawn: light it
            self.go(OPEN, now)
            self.box.reveal(True)
            self.box.sound.play(sound.GO, now)
            self.view.rings_rest(self.discs, self.flagged, now)

    def _answers_due(self, now):
        # CONFIRM, ENTRY: the bots answer; once all have, or time is up, the round is judged
        # (a bot's confirmation is drawn only if the round goes on: the judgement's screen
        # in the same pass replaces it, and one pass building both was ~50 ms on the box)
        confirmed = self._bots_answer(now)
        waiting = self._waiting(True)
        if waiting and True in self.verdict.values():  # one is right: the rest hurry up
            self.answer_until = min(self.answer_until, now + _RIGHT_WAIT_NS)
        if waiting and now < self.answer_until:
            if confirmed:
                self._show_confirm()
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
                    self.view.ring_out(p, now)
                    self.box.sound.play(sound.FALSE_START, now)
        if new:
            self._show_notes()

    def _show_notes(self):
        self.view.notes([p for p in self.flagged if p not in self.stuck], self.stuck)

    def _open(self, now):
        race = self.race
        if self.reveal_at is None:
            return
        winners = race.winners()
        if winners:  # first: nothing in the pass between a press and its ring
            self._answer(now, winners)
        out = race.false_starts()
        self._flag(out, now)
        if winners:
            return
        self.view.bar(self.deadline - now, self.limit_ns)  # the time bar
        if (self.closed_at is not None and now >= self.closed_at + race.tie_window_ns + _CLOSE_SETTLE_NS
              or len(out) + len(race.locked()) >= self.players):
            # nobody right (or nobody left to answer): void, the same roller rolls again
            self.summary = [("Time up" if now >= self.deadline else "Nobody right") + ": round void"] + self.results
            self.box.sound.play(sound.ERROR, now)
            self._to_wait(now)

    # ------------------------------------------------------------------ answers
    def _answer(self, now, who):
        # The winners' rings are lit at once, mid-pass; what the screen says of it
        # is built at the next (``_say_answer``: the headline and the call were ~15 ms of
        # the winning pass on a Pico, between the press and its ring).
        self.answerers = list(who)
        self.answer_until = now + _ANSWER_NS
        self._say = True
        tap = self.mode == "tap"
        for p in who:
            self.box.rings.set(p, rings.SOLID, palette.station(p), now_ns=now)
            if tap:
                self.taps[p] = 0
                if self.is_bot(p):
                    self.bot_act[p] = self.bot.first_tap_at(now)
        self.box.rings.update(now)  # out now, not at the pass's end: press -> ring (~0.6 ms)
        if tap:
            self.go(ENTRY, now)
        elif self.rebound:
            self._to_confirm(now, False)
        else:  # say it now, before the answer shows
            self.go(CALL, now)
            self.until = now + _CALL_NS

    def _say_answer(self, now):
        # the screen of ``_answer``'s pass, a pass later
        self._say = False
        self.view.bar(0, 1)
        self._headline()
        self._head_due = bool(self.race.pending())
        phase = self.phase
        if phase == ENTRY:
            self._show_entry()
        elif phase == CALL:
            self.view.call(self.answerers, self._bot_words(" says "))
        else:
            self._show_confirm()

    def _to_confirm(self, now, show=True):
        self.go(CONFIRM, now)
        if not self.rebound and (self.closed_at is None or now < self.closed_at):
            self.closed_at = now  # the answer is visible: later presses cannot count
        for p in self.answerers:
            if self.is_bot(p):
                self.bot_act[p] = self.bot.confirm_at(now)
        if show:
            self._show_confirm()

    def _bots_answer(self, now):
        # True if a bot confirmed its answer (the confirm screen is the caller's to draw)
        confirmed = False
        for b in sorted(self.bot_act):  # seat order: MicroPython dicts are unordered
            if now < self.bot_act[b] or self.verdict.get(b) is not None:
                continue
            if self.phase == CONFIRM:
                del self.bot_act[b]
                self.verdict[b] = self.said[b] == self.answer
                confirmed = True
                continue
            taps = self.taps[b]
            if taps < self.said[b]:
                self.taps[b] = taps = taps + 1
                self.bot_act[b] = self.bot.next_tap_at(now, taps, self.said[b])
                self.box.sound.play(sound.CLICK, now)
                self._show_entry()
            else:  # send the count
                del self.bot_act[b]
                self.verdict[b] = taps == self.answer
        return confirmed

    def _judge(self, now):
        right = []
        parts = []
        for p in self.answerers:
            v = self.verdict[p]
            if v is True:
                right.append(p)
                continue
            self.race.lock_out(p)
            self.view.ring_out(p, now)
            said = self.said.get(p)
            who = seat(p)
            if v is not False:
                parts.append(who + " no answer")
                continue
            if said is not None and (self.mode == "tap" or self.is_bot(p)):
                who += " said " + str(said) + ":"
            parts.append(who + (" wrong -1 white" if self.discs[p].penalise(self.supply) else " wrong"))
        self.results += parts
        if not right:
            self._draw_discs()  # (else the discs are drawn with the awards: _to_wait, _finish_match)
            self.box.sound.play(sound.LOCKOUT, now)
            self.go(WRONG, now)
            self.until = now + _WRONG_NS
            if self.mode == "tap":  # the answer stays hidden
                self.view.wrong(parts)
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
        self.roller = rules.first_of([self.race.press_ns(p) for p in right], right, self.rng)
        self.summary = gains + self.results
        if champions:
            self._finish_match(now, champions)
        else:
            self.box.sound.play(sound.RIGHT, now)
            self._to_wait(now)

    def _reopen(self, now):
        """After wrong answers: the race goes on for the others."""
        self.rebound = True
        self.go(OPEN, now)
        self.answerers = []
        self.view.header(None, "open again", palette.GOOD)
        if self.mode == "tap":  # who is out stays on screen
            self.view.wrong(self.results, False)
        else:
            self._show_answer(("earlier callers may answer",), palette.TEXT)
        self.view.rings_rest(self.discs, self.race.locked() + self.flagged, now)
        self._open(now)

    def resumed(self, now_ns, paused_ns):
        # The pause menu gave no edges to the game: buttons let go while it showed (the
        # pause chord) are up now, and one still held counts only once pressed again.
        self.keys = Presses(self.players + 1)
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
        self.view.blinking = {}
        self.flash_until = 0
        self.box.sound.play(sound.ERROR, now_ns)
        self.summary = [why + ": void"]
        self.restore(self._begun(), now_ns)
        self.box.reveal(True)  # only now: the throw nobody saw is off the screen

    def _finish_match(self, now, champions):
        """The match is over: the winner large, the standings below, the discs strip."""
        self.winners = list(champions)
        self.over = True
        self.go(OVER, now)
        self.box.sound.play(sound.WIN, now)
        self.view.over(champions, self.ranked(self._disc_key), self.discs)
        self._draw_discs()
        self.view.rings_rest(self.discs, champions, now)
        for p in champions:
            self.box.rings.set(p, rings.FLASH, palette.station(p), now_ns=now)

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
        # round, the roller, each seat's discs [white, black, handicap] and the box's
        # supply (its eight numbers: Supply.to_list); BaseGame.record adds the seats,
        # bots, options and seed. (VERSION 1 wrote them as dicts: a save at seven seats
        # was 659 B, held twice while it is written: the tightest heap of the box.)
        return {"round": self.round, "roller": self.roller, "discs": [d.to_list() for d in self.discs[1:]],
                "supply": self.supply.to_list()}

    def _start(self):
        # the round's start, to go back to if it is voided, as 16-bit numbers: the
        # round, the roller, each seat's discs, the supply (state()'s dict and lists,
        # ~500 B, were held through every round: where the box's heap is lowest)
        v = [self.round, self.roller]
        for d in self.discs[1:]:
            v += d.to_list()
        return array("H", v + self.supply.to_list())

    def _begun(self):
        # _start's numbers as state() has them
        a = self._saved
        n = self.players
        return {"round": a[0], "roller": a[1], "discs": [list(a[2 + 3 * i:5 + 3 * i]) for i in range(n)],
                "supply": list(a[2 + 3 * n:])}

    def restore(self, state, now_ns=0):
        # Continue a match from ``state()`` (between rounds); ``summary``, the line
        # about the last round, is kept.
        self.discs, self.supply, self.round, self.roller = rules.read_state(state, self.players)
        self.throw = self.answer = None
        self._round_reset()
        self.view.setup(None)
        champions = [p for p in range(1, self.players + 1) if rules.won(self.discs[p])]
        if champions:
            self._finish_match(now_ns, champions)
        else:
            self._to_wait(now_ns)
            self.draw_due(now_ns)  # a resumed match is drawn whole at once
