"""Reaction test: the whole press path in one small game (its screen:
games/reaction_screen.py; docs/design.md walks through both as the example of a game).

Each round the screen goes dark, the stimulus is drawn unseen, then the
backlight comes on (the reveal, captured like a button). Everyone presses; the
Race names the winner and every reaction time. Personal bests per match.
The result stays until a player taps or holds a button on purpose (a press the
race took makes no gesture: ``edge`` says so); with only bots at the table the
rounds go on by themselves after RESULT_NS.
"""


from games.reaction_screen import View
from referee import palette, rings, sound
from referee.box import REVEAL
from referee.core import MS, const, seat
from referee.game import BaseGame, Option
from referee.gestures import HOLD, TAP

TITLE = "Reaction test"
MIN_PLAYERS = 1
MAX_PLAYERS = 7
OPTIONS = (Option("rounds", "Rounds", (3, 5, 10), 5),)

READY = const(0)
DARK = const(1)
OPEN = const(2)
RESULT = const(3)
OVER = const(4)

READY_NS = 1500 * MS
OPEN_NS = 3000 * MS  # the race stays open this long after the reveal
RESULT_NS = 3500 * MS  # an all-bot table's pause on the result
BOT_MEAN_MS = 260
BOT_SPREAD_MS = 60


class Game(BaseGame):
    TITLE = TITLE
    NAMES = ("ready", "dark", "open", "result", "over")
    FLOW = (
        (READY, DARK, OVER),  # READY: the round's first (a replay begins again), then dark
        (OPEN, RESULT, READY, OVER),  # DARK: lit; void (capture lost); replayed after a pause
        (RESULT, READY, OVER),  # OPEN
        (READY, OVER),  # RESULT
        (),  # OVER
    )
    VERSION = 1  # the shape of state(): bump it when it changes (a save of another is not resumed)

    def __init__(self, box, players, bots=(), seed=0, options=None, settings=None):
        super().__init__(box, players, bots, seed, options, settings)
        self.rounds = self.options["rounds"]
        self.race = self.new_race()
        self.round = 0
        self.phase = READY
        self.until = 0
        self.wins = [0] * (players + 1)
        self.best = [None] * (players + 1)
        self.bot_at = {}
        self.after = {}  # bot -> its press after the light (ns), drawn in the dark
        self.down = [False] * (players + 1)  # station levels, from capture edges
        self.flagged = []  # false starters already shown this round
        self.replay = False
        self.lit = False
        self.view = View(self.root, players, self.box)

    # --- what the screen shows --------------------------------------------
    def _show_ready(self):
        self.view.ready(self.round, self.rounds)

    def _show_result(self):
        self.view.result(self.race, "Round " + str(self.round) + "/" + str(self.rounds) + self._go_on(), self.best,
                         self.box.precision_ns)

    def _show_over(self):
        self.view.over(self.winners, self.tie_break, self.wins, self.best, self.box.precision_ns)

    # --- flow ----------------------------------------------------------------
    def start(self, now_ns):
        self._next_round(now_ns)

    def _next_round(self, now_ns):
        if not self.replay:
            self.round += 1
        self.replay = False
        self.race.reset()
        for p in range(1, self.players + 1):
            if self.down[p]:  # already held as the round begins: stuck if still down at the reveal
                self.race.edge(p, now_ns, True)
        self.bot_at = {}
        self.after = {}
        self.flagged = []
        self.lit = False  # the winner's ring is lit this round
        self.go(READY, now_ns)
        self.until = now_ns + READY_NS
        self.box.rings.rest(self.players, now_ns)
        self._show_ready()

    def _go_dark(self, now_ns):
        self.go(DARK, now_ns)
        # armed now, before the light goes off: the arm is in before any settle()
        # (the captured dark edge may come back late: up to 20 ms without the jumper)
        self.race.arm(now_ns)
        self.box.reveal(False)
        self.view.stimulus()  # drawn while nobody can see it
        self.until = now_ns + (1500 + self.rng.randbelow(2500)) * MS
        for b in self.bots:
            if self.rng.randbelow(50) == 0:  # a bot jumps the gun now and then
                self.bot_at[b] = now_ns + self.rng.randbelow(1000) * MS

    def _reveal(self, now_ns):
        self.go(OPEN, now_ns)
        self.box.reveal(True)
        self.until = now_ns + OPEN_NS

    def _go_on(self):
        if len(self.bots) >= self.players:
            return ""
        return "  tap: " + ("results" if self.round >= self.rounds and not self.replay else "next")

    def edge(self, player, t_ns, pressed):
        if player == REVEAL:
            if pressed and self.phase == OPEN:
                self.race.reveal(t_ns)
                for b in self.bots:
                    if b not in self.bot_at:
                        self.bot_at[b] = t_ns + self._after(b)
            return
        if not 1 <= player <= self.players:
            return
        self.down[player] = pressed
        if self.phase in (READY, DARK, OPEN):
            self.race.edge(player, t_ns, pressed)
        # a press while the race is armed is the race's: no tap or hold of it
        # (it would skip the result it produced); in READY a tap stays a tap
        return self.phase in (DARK, OPEN)

    def _after(self, b):
        # bot b's press after the light (ns): drawn in the dark, one bot a loop pass
        # (six at the light were ~7.5 ms of the race's first pass on a Pico), in the
        # order the light would have drawn them (the same draws for a seed)
        a = self.after.get(b)
        if a is None:
            spread = self.rng.randbelow(2 * BOT_SPREAD_MS + 1) - BOT_SPREAD_MS
            a = self.after[b] = (BOT_MEAN_MS + spread) * MS + self.rng.randbelow(MS)
        return a

    def _read(self):
        # the next bot without a press time yet draws its own (DARK, a pass each)
        for b in self.bots:
            if b not in self.bot_at and b not in self.after:
                self._after(b)
                return True
        return False

    def _show_false_starts(self, now_ns):
        for p in self.race.false_starts():
            if p not in self.flagged:
                self.flagged.append(p)
                self._false_start(p, now_ns)

    def _false_start(self, player, now_ns):
        self.box.rings.set(player, rings.BLINK, palette.BAD, now_ns=now_ns)
        self.box.sound.play(sound.FALSE_START, now_ns)

    def gesture(self, player, kind, count, now_ns):
        if self.phase == RESULT and kind in (TAP, HOLD):
            self._after_result(now_ns)  # a press made after the result: on purpose

    def tick(self, now_ns):
        for b in self.bots:  # seat order, not dict order (MicroPython dicts are unordered)
            t = self.bot_at.get(b)
            if t is not None and t <= now_ns:
                self.race.edge(b, t, True)
                self.race.edge(b, t + 90 * MS, False)
                self.bot_at[b] = None
        if self.phase in (DARK, OPEN):
            self.race.settle(now_ns)
            self._show_false_starts(now_ns)
        if self.phase == READY and now_ns >= self.until:
            self._go_dark(now_ns)
        elif self.phase == DARK:
            if now_ns >= self.until:
                self._reveal(now_ns)
            else:
                self._read()
        elif self.phase == OPEN:
            if not self.lit:
                # the winner's ring lights the moment the race knows the winner, not when
                # the round closes (everyone pressed): a press and its light feel as one
                self._light_winners(self.race.winners(), now_ns)
            if self.race.decided() or now_ns >= self.until:
                self._finish_round(now_ns)
        elif self.phase == RESULT and now_ns >= self.until and len(self.bots) >= self.players:
            self._after_result(now_ns)

    if __debug__:  # the simulator's (it skips idle time); the box never asks: its -O3 .mpy leaves this out
        def next_at(self, now_ns):
            # a bot's press; the phase's end; a time at which the race's verdict can change
            due = [t for t in self.bot_at.values() if t is not None]
            phase = self.phase
            if phase in (DARK, OPEN):
                due.append(self.race.next_at())
            if phase in (READY, DARK, OPEN) or (phase == RESULT and len(self.bots) >= self.players):
                due.append(self.until)
            if phase == DARK and len(self.after) + len(self.bot_at) < len(self.bots):
                due.append(now_ns)  # a bot to draw its press time in the next pass
            due = [t for t in due if t is not None]
            return min(due) if due else None

    def _after_result(self, now_ns):
        if self.round >= self.rounds and not self.replay:
            self._finish_match(now_ns)
        else:
            self._next_round(now_ns)

    def _finish_round(self, now_ns):
        self.go(RESULT, now_ns)
        self.until = now_ns + RESULT_NS
        race = self.race
        for p, rt in race.order():
            if self.best[p] is None or rt < self.best[p]:
                self.best[p] = rt
        w = race.winners()
        for p in w:
            self.wins[p] += 1
        if not self.lit:
            self._light_winners(w, now_ns)
        self._show_false_starts(now_ns)
        self.box.sound.play(sound.RIGHT if w else sound.ERROR, now_ns)
        self._show_result()

    def _light_winners(self, w, now_ns):
        for p in w:
            self.lit = True
            self.box.rings.set(p, rings.FLASH, palette.station(p), now_ns=now_ns)

    def capture_lost(self, now_ns):
        # a lost release would leave a station "down" (stuck next round): forget the
        # levels; a button really held shows up by its release (a stream that starts
        # with a release is down since before: the race judges that)
        self.down = [False] * (self.players + 1)
        if self.phase in (DARK, OPEN):
            self.race.lost_data()
            self.box.reveal(True)
            self.replay = True
            self.go(RESULT, now_ns)
            self.until = now_ns + RESULT_NS
            self._show_result()
            self.view.void("capture data lost: replay")

    def resumed(self, now_ns, paused_ns):
        if self.phase in (DARK, OPEN):  # a paused race cannot be judged fairly
            self.box.reveal(True)
            self.replay = True
            self._next_round(now_ns)

    def _finish_match(self, now_ns):
        top = max(self.wins[1:])
        winners = [p for p in range(1, self.players + 1) if self.wins[p] == top]
        self.tie_break = len(winners) > 1
        if self.tie_break:  # best single reaction breaks a tie on wins
            timed = [p for p in winners if self.best[p] is not None]
            if timed:
                fastest = min(self.best[p] for p in timed)
                winners = [p for p in timed if self.best[p] == fastest]
        self.winners = winners
        self.over = True
        self.go(OVER, now_ns)
        for p in winners:
            self.box.rings.set(p, rings.FLASH, palette.station(p), now_ns=now_ns)
        self.box.sound.play(sound.WIN, now_ns)
        self._show_over()

    def _rank_key(self, p):
        # most wins, then the fastest best reaction (none: last)
        b = self.best[p]
        return (-self.wins[p], b is None, b or 0)

    def standings(self):
        out = []
        for place, p in self.ranked(self._rank_key):
            b = self.best[p]
            # "1. P4  wins 1, 215 ms": fits a scale-2 row (25 cells)
            out.append((p, "%d. %s  wins %d%s" % (place, seat(p), self.wins[p],
                                                  ", " + str(b // 1000000) + " ms" if b is not None else "")))
        return out

    def state(self):
        return {
            "seed": self.seed,
            "round": self.round,
            "wins": list(self.wins),
            "best": list(self.best),
        }

    def restore(self, state, now_ns):
        # the state of a judged round goes on with the next one (the box does not save a
        # reaction test: a match is a minute; the contract has restore beside state)
        n = self.players + 1
        wins, best, rnd = state["wins"], state["best"], state["round"]
        if (len(wins) != n or len(best) != n or not 0 <= rnd <= self.rounds
                or [w for w in wins if not isinstance(w, int) or w < 0]
                or [b for b in best if b is not None and (not isinstance(b, int) or b < 0)]):
            raise ValueError("not this table's reaction test save")
        self.round = rnd
        self.wins = list(wins)
        self.best = list(best)
        if rnd >= self.rounds:
            self._finish_match(now_ns)
        else:
            self._next_round(now_ns)
