# Lightning Dice on the box: a card face up, everyone rolls at once, the first to meet
# it claims it. Rules: games/lightning_dice_rules.py; screen: lightning_dice_screen.py;
# bots: lightning_dice_bots.py (imported only when a seat is a bot). How to play and
# every ruling taken here: docs/lightning_dice.md. (Docstrings would cost the box no
# RAM, its .mpy drops them; only the tests' MicroPython VM, compiling the .py, keeps
# them: docs/design.md, "Memory".)
#
# Phases (FLOW is the whole machine):
#   BREAK  between cards: the result stays (3 s; 5 s before the first card); a tap
#          cycles the player's target for the next card: the card -> Bonus (six of
#          their own number) -> Thunder on each opponent in seat order -> the card
#   DEAL   the backlight goes off, the card and every player's new hand are drawn
#          unseen, the race is armed; the backlight goes on once they are (250 ms
#          at least)
#   PLAY   the race opens at the captured reveal edge. A tap (press and release within
#          350 ms) rolls the player's free dice at its release; the box keeps the
#          dice that serve the player's target (rules.keep). A press still down
#          350 ms after its edge is a claim, judged on the dice that were on screen
#          at that edge
#   OVER   the standings
#
# Input comes from raw capture edges only (gestures are ignored): a contact shorter
# than 5 ms is no press, a press within 8 ms of a release continues it (bounce).
# Claims: the card met -> it goes into the card's Race (earliest edge wins; every
# claimer within the tie window who met it scores +2, then the next card); else six of
# the claimer's own number -> Bonus +1; six of an opponent's -> Thunder, that one -1;
# else a false claim -2 (scores never below 0). After a Bonus or Thunder the player's
# six dice are rolled afresh and the target goes back to the card. A claim pressed
# before the card was lit is a false start: out of this card's race (no points lost);
# an out player may still take a Bonus or Thunder, even on six that also meet the card.
# Quick game: the first to meet the card takes it (+1 card), a false claim puts the
# claimer out of that card, no Bonus or Thunder; most cards when the deck is out wins.

from games import lightning_dice_rules as rules
from games.lightning_dice_rules import DECK, Card  # noqa: F401  (pinned: games.lightning_dice.Card, DECK)
from games.lightning_dice_screen import View
from referee import palette, race_text, rings, sound
from referee.box import REVEAL
from referee.core import const, seat
from referee.game import BaseGame, Option
from referee.gestures import DOWN, UP, Presses

TITLE = "Lightning Dice"
MIN_PLAYERS = 2
MAX_PLAYERS = 6
OPTIONS = (
    Option("target", "Target score", (10, 20, 30), 20),
    Option("mode", "Game", ("standard", "quick"), "standard", ("standard", "quick: most cards")),
    Option("bot_level", "Bots", ("easy", "normal", "hard"), "normal"),
)

_BREAK = const(0)
_DEAL = const(1)
_PLAY = const(2)
_OVER = const(3)

_CLAIM_NS = const(350000000)  # 350 ms: a press still down this long is a claim (from its edge)
_BREAK_NS = const(3000000000)  # 3000 ms: the result stays at least this long
_FIRST_NS = const(5000000000)  # 5000 ms: before the first card (choose targets)
_DARK_NS = const(250000000)  # 250 ms: backlight off while the card is drawn
_FLASH_NS = const(1000000000)  # 1000 ms: a ring flashes a claim's result
# A roll's dice go on the screen a few a pass, in passes of their own (a roll and its
# row in one pass were 23-60 ms on the firmware: ~10 ms of the game's work, ~3.8 ms a
# die redrawn): at most this many pixels of dice a pass (two dice)
_DICE_PX = const(1352)

# die value -> ring colour (red, orange, yellow, green, blue, violet); a free die's dim
_HUES = (0, 0xFF1010, 0xFF7000, 0xFFD000, 0x10E020, 0x1050FF, 0xB020FF)
_DIM_HUES = tuple(palette.scale(c, 40) for c in _HUES)


class Game(BaseGame):
    TITLE = TITLE
    VERSION = 1  # the shape of state(): bump it when it changes (a save of another is not resumed)
    FLOW = ((_BREAK, _DEAL, _OVER), (_PLAY, _BREAK), (_BREAK, _OVER), ())
    NAMES = ("break", "deal", "play", "over")

    def __init__(self, box, players, bots=(), seed=0, options=None, settings=None):
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError("Lightning Dice is for 2-6 players, not " + str(players))
        super().__init__(box, players, bots, seed, options, settings)
        o = self.options
        self.goal = o["target"]
        self.quick = o["mode"] == "quick"
        n = players
        self.race = self.new_race()
        self.scores = [0] * n  # index 0 = P1 (quick game: cards taken)
        self.targets = [0] * (n + 1)  # 0 = the card, else the number to roll six of
        self.deck = list(range(len(DECK)))
        self.rng.shuffle(self.deck)
        self.pos = 0  # the next card to deal
        self.card = DECK[self.deck[0]]  # the card face up (before the first deal: the first)
        # each player's dice: cur = as rolled, seen = on screen since seen_at, before =
        # on screen until then (a claim is judged on what was on screen at its edge)
        self.cur = [bytearray(6) for _ in range(n + 1)]
        self.seen = [bytearray(6) for _ in range(n + 1)]
        self.before = [bytearray(6) for _ in range(n + 1)]
        self.kept = [0] * (n + 1)  # bit i: die i kept
        self.px = [[0] * 12 for _ in range(n + 1)]  # ring pixels, reused
        self.seen_at = [0] * (n + 1)
        # a station's presses (the box's one bounce rule); bit p of used: the press on
        # now was used already (claimed, or began before this card)
        self.keys = Presses(n + 1)
        self.used = 0
        self._dealt = 0  # the seats dealt a hand for this card (a seat a pass)
        self.hold_at = [-1] * (n + 1)  # bots: the edge of a claim being held (-1: none)
        self.tap_at = [0] * (n + 1)  # bots: when they tap next
        self.flash = [0] * (n + 1)  # a ring shows a result until then (0: none)
        self.dirty = 0  # bit p: player p's dice to draw
        self.drawing = []  # the seats whose rolls are being drawn, in turn (people first)
        # a card's result in passes of its own (the verdict's pass was 24-28 ms of work
        # on the firmware): bit 0 the margin's line, bit 1 the rings and the bots' new
        # targets; one a pass, lowest first, from the pass after the verdict (BaseGame.due)
        self._due = 0
        self.out = 0  # bit p: out of this card's race
        self.arm_at = self.reveal_at = self.over_at = None
        self.until = 0
        self.brains = None
        if self.bots:
            from games import lightning_dice_bots

            self.brains = {}
            for b in self.bots:
                self.brains[b] = lightning_dice_bots.Bot(o["bot_level"])
        self.view = View(n)
        self.root.append(self.view.root)
        for p in range(1, n + 1):
            self._hand(p)
            self._show_target(p)

    # ----------------------------------------------------------- pinned views
    def dice(self, player):
        return list(self.seen[player])

    # ------------------------------------------------------------------ flow
    def start(self, now_ns):
        self._draw(now_ns, True)
        v = self.view
        v.big(TITLE, palette.WARN, "most cards wins" if self.quick else "first to " + str(self.goal) + " points",
              "tap: pick aim  hold: claim", palette.TEXT)
        self.until = now_ns + _FIRST_NS
        self._rings(now_ns)

    def _deal(self, now):
        if self.pos >= len(self.deck):  # standard game: the deck again, reshuffled
            self.rng.shuffle(self.deck)
            self.pos = 0
        self.card = DECK[self.deck[self.pos]]
        self.pos += 1
        self.race.reset()
        self.race.arm(now)
        self.arm_at = now
        self.reveal_at = self.over_at = None
        self.out = 0
        self.go(_DEAL, now)
        del self.drawing[:]  # every hand is dealt afresh, drawn in the dark
        self.box.reveal(False)
        self.view.card(self.card.spec)
        for p in range(1, self.players + 1):
            if self.keys.down[p]:
                self.used |= 1 << p  # held from before the card: never a claim
            self.flash[p] = 0
        # the hands are dealt a seat a pass in the dark, in seat order, from the next
        # pass (the six at once were a pass of 54-67 ms on the firmware; the card's
        # pass and a hand, 28-31 ms), drawn as rolls are (_draw); the light waits for
        # the last die
        self._dealt = 0
        self.until = now + _DARK_NS

    def _hand(self, p):
        # a new hand: all six dice rolled, then kept toward the target
        d = self.cur[p]
        for i in range(6):
            d[i] = 1 + self.rng.randbelow(6)
        self._keep(p)

    def _roll(self, p):
        d = self.cur[p]
        k = self.kept[p]
        for i in range(6):
            if not (k >> i) & 1:
                d[i] = 1 + self.rng.randbelow(6)
        self._keep(p)

    def _keep(self, p):
        t = self.targets[p]
        k = 0
        i = 0
        for b in rules.keep(self.cur[p], t or self.card):
            if b:
                k |= 1 << i
            i += 1
        self.kept[p] = k
        self.dirty |= 1 << p

    def _draw(self, now, at_once=False):
        # The dice rolled or dealt since the last pass: on a new screen (``at_once``)
        # drawn now; else each seat's in turn, people's before bots', a few dice a pass,
        # in passes without a roll in play (a hand dealt in the dark and two dice were
        # ~14 ms on the firmware, a roll and two dice ~20 ms). A row counts as seen
        # (claims are judged on it, a bot looks at it, the ring shows it) from the pass
        # that drew its last die.
        d = self.dirty
        q = self.drawing
        if d:
            self.dirty = 0
            for p in range(1, self.players + 1):
                if (d >> p) & 1:
                    if at_once:
                        self.view.dice(p, self.cur[p], self.kept[p])
                        self._seen(p, now)
                        continue
                    self.view.set_dice(p, self.cur[p], self.kept[p])
                    if p in q:
                        continue
                    i = len(q)
                    if not self.is_bot(p):  # after the row being drawn and the people's
                        i = 1 if q else 0
                        while i < len(q) and not self.is_bot(q[i]):
                            i += 1
                    q.insert(i, p)
        if q and (not d or self.phase == _DEAL):
            p = q[0]
            if self.view.draw_dice(p, _DICE_PX):
                q.pop(0)
                self._seen(p, now)
                if self.phase == _PLAY and p in self.bots and self.hold_at[p] < 0 and self.reveal_at is not None:
                    self._bot_look(p, now)

    def _seen(self, p, now):
        # seat p's dice are on the screen from now
        self.before[p][:] = self.seen[p]
        self.seen[p][:] = self.cur[p]
        self.seen_at[p] = now
        if not self.flash[p] and self.phase == _PLAY:
            self._ring_dice(p, now)

    # ------------------------------------------------------------------ input
    def edge(self, player, t_ns, pressed):
        if player == REVEAL:
            if pressed and self.phase == _PLAY and self.reveal_at is None:
                self.reveal_at = t_ns  # the card became visible: the race opens
                self.race.reveal(t_ns)
                for b in self.bots:
                    self._bot_look(b, t_ns)
            return
        if not 1 <= player <= self.players or self.is_bot(player):
            return
        p = player
        keys = self.keys
        said = keys.edge(p, t_ns, pressed)
        bit = 1 << p
        if said == DOWN:
            if keys.at[p] == t_ns:
                self.used &= ~bit  # a new press (not one resumed after chatter)
        elif said == UP and not self.used & bit:
            self.used |= bit
            at = keys.at[p]
            if t_ns - at >= _CLAIM_NS:  # held long enough between two loop passes: a claim
                self._claim(p, at, t_ns)
            elif self.phase == _PLAY and at >= self.arm_at:
                self._roll(p)  # a tap: the free dice roll at its release
            elif self.phase == _BREAK and (self.over_at is None or at >= self.over_at) and not self.quick:
                self._cycle(p)

    def gesture(self, player, kind, count, now_ns):
        pass  # everything comes from the edges

    def _cycle(self, p):
        # the card -> own number (Bonus) -> each opponent (Thunder) -> the card
        t = self.targets[p]
        n = self.players
        if t == 0:
            t = p
        else:
            t = t % n + 1
            if t == p:
                t = 0
        self.targets[p] = t
        self._show_target(p)
        self.box.rings.set(p, rings.SOLID, self._target_color(p))

    def _target_color(self, p):
        t = self.targets[p]
        return palette.station(p) if t == 0 else palette.WARN if t == p else palette.station(t)

    def _show_target(self, p):
        t = self.targets[p]
        self.view.target(p, "card" if t == 0 else "Bonus" if t == p else "Th " + seat(t),
                         palette.DIM if t == 0 else self._target_color(p))

    # ------------------------------------------------------------------ tick
    def tick(self, now_ns):
        now = now_ns
        if self.phase == _OVER:
            return
        for p in range(1, self.players + 1):
            self._seat_tick(p, now)
            if self.phase == _OVER:
                return
        ph = self.phase
        if ph == _BREAK:
            if now >= self.until:
                self._deal(now)
        elif ph == _DEAL:
            if self._dealt < self.players:
                self._dealt += 1
                self._hand(self._dealt)
            elif now >= self.until and not self.drawing:
                self.go(_PLAY, now)
                self.box.reveal(True)
                for p in range(1, self.players + 1):
                    self._ring_dice(p, now)
                self.box.sound.play(sound.GO, now)
        elif self.reveal_at is not None:
            race = self.race
            race.settle(now - _CLAIM_NS)  # every claim pressed by then is in
            w = race.winners()
            if w:
                self._taken(w, now)
            elif self._outs() >= self.players:
                self._void("everyone is out of this card", now)
        self._draw(now)

    if __debug__:  # the simulator's (it skips idle time); the box never asks: its -O3 .mpy leaves this out
        def next_at(self, now_ns):
            # dice to draw or a hand to deal; a ring flash's end; a claim's hold; a bot's next
            # look; the break's or the deal's end; a time at which the race's verdict can change
            ph = self.phase
            if ph == _OVER:
                return None
            if self.dirty or self.drawing or (ph == _DEAL and self._dealt < self.players):
                return now_ns
            play = ph == _PLAY and self.reveal_at is not None
            t = self.until if ph == _BREAK or ph == _DEAL else None
            if t is None and self.reveal_at is not None:
                t = self.race.next_at()
                if t is not None:
                    t += _CLAIM_NS  # settled _CLAIM_NS behind the clock
            brains = self.brains or ()
            for p in range(1, self.players + 1):
                f = self.flash[p]
                if f and (t is None or f < t):
                    t = f
                if p in brains:
                    u = self.hold_at[p]
                    u = u + _CLAIM_NS if u >= 0 else self.tap_at[p] if play else None
                elif self.keys.on(p) and not self.used & (1 << p):
                    u = self.keys.at[p] + _CLAIM_NS
                else:
                    continue
                if u is not None and (t is None or u < t):
                    t = u
            return t

    def _seat_tick(self, p, now):
        # a seat's ring flash ends; its bot looks at its dice; a press held long enough claims
        f = self.flash[p]
        if f and now >= f:
            self.flash[p] = 0
            if self.phase == _BREAK:
                self.box.rings.set(p, rings.SOLID, self._target_color(p), now_ns=now)
            else:
                self._ring_dice(p, now)
        if self.brains is not None and p in self.brains:
            self._bot(p, now)
        else:
            keys = self.keys
            if keys.on(p) and not self.used & (1 << p) and now - keys.at[p] >= _CLAIM_NS:
                self.used |= 1 << p
                self._claim(p, keys.at[p], now)

    def _outs(self):
        k = 0
        for p in range(1, self.players + 1):
            k += (self.out >> p) & 1
        return k

    # ------------------------------------------------------------------ claims
    def _claim(self, p, t, now):
        if self.over or self.arm_at is None or t <= self.arm_at or (self.over_at is not None and t >= self.over_at):
            return  # a hold between cards (or down at the deal): nothing to claim
        race = self.race
        if self.reveal_at is None or t < self.reveal_at:
            race.press(p, t)  # before the card was lit: the race calls it a false start
            race.release(p, t + _CLAIM_NS)
            self.out |= 1 << p
            self._note(p, seat(p) + " false start: out", palette.BAD, now)
            self.box.sound.play(sound.FALSE_START, now)
            return
        dice = self.seen[p] if t >= self.seen_at[p] else self.before[p]
        out = (self.out >> p) & 1
        v = dice[0]
        six = not self.quick and v <= self.players and rules.meets(dice, v)
        if self.card.matches(dice) and not (out and six):
            if out:  # out of this card's race: a Bonus or Thunder is still theirs (below)
                self._note(p, seat(p) + " is out of this card", palette.BAD, now)
                return
            race.press(p, t)
            race.release(p, t + _CLAIM_NS)
            if self.over_at is not None:  # the card is taken: only the margin changes
                self._margin()
            return
        if not six:
            if self.quick:
                race.lock_out(p)
                self.out |= 1 << p
                self._note(p, seat(p) + " wrong: out", palette.BAD, now)
            else:
                self._add(p, -2)
                self._note(p, seat(p) + " wrong claim -2", palette.BAD, now)
            self.box.sound.play(sound.LOCKOUT, now)
            return
        if v == p:
            self._add(p, 1)
            self._note(p, seat(p) + " BONUS! +1", palette.station(p), now, True)
        else:
            self._add(v, -1)
            self._note(p, seat(p) + " THUNDER " + seat(v) + " -1", palette.station(p), now, True)
        self.box.sound.play(sound.RIGHT, now)
        self.targets[p] = 0  # done: a fresh hand for the card
        self._show_target(p)
        self._hand(p)
        self._check(now)

    def _add(self, p, k):
        s = self.scores[p - 1] + k
        self.scores[p - 1] = s if s > 0 else 0
        self.view.score(p, self.scores[p - 1])

    def _note(self, p, text, color, now, good=False):
        if self.phase != _BREAK:
            self.view.status(text, color)
        self.box.rings.set(p, rings.FLASH if good else rings.BLINK, palette.station(p) if good else palette.BAD,
                           now_ns=now)
        self.flash[p] = now + _FLASH_NS

    def _margin(self):
        self.view.status(race_text.headline(self.race, self.box.precision_ns), palette.WARN)

    def _taken(self, who, now):
        # the card is taken by who (the earliest claim and any within the tie window)
        names = " ".join(seat(p) for p in who)
        for p in who:
            self._add(p, 1 if self.quick else 2)
            self.box.rings.set(p, rings.FLASH, palette.station(p), now_ns=now)
            self.flash[p] = now + _FLASH_NS
        self.box.sound.play(sound.RIGHT, now)
        color = palette.station(who[0]) if len(who) == 1 else palette.TEXT
        self.view.big(names + (" TAKES IT" if self.quick else " GOT IT! +2"), color, self.card.spec, "")
        self._due |= 1  # the margin's line
        self._after(now)

    def _void(self, why, now):
        self.view.big("No one", palette.DIM, self.card.spec, why, palette.BAD)
        self.box.sound.play(sound.ERROR, now)
        self._after(now)

    def _after(self, now):
        # the card is over: the result stays, the next card after the break
        self.over_at = now
        if not self._check(now):
            self.go(_BREAK, now)
            self.until = now + _BREAK_NS
            self.saves += 1  # between cards: the app saves the match
            self._due |= 2  # the rings and the bots' targets

    def due(self):
        return self._due != 0

    def draw_part(self, now):
        # the next part of a card's result (_due)
        d = self._due
        if d & 1:
            self._due = d & ~1
            self._margin()
            return
        self._due = 0
        self._rings(now)
        for b in self.bots:
            self.targets[b] = 0 if self.quick else self.brains[b].target(self.rng, b, self.scores, self.goal)
            self._show_target(b)

    def _check(self, now):
        # the end: someone reached the target (standard) or the deck is out (quick)
        s = self.scores
        top = max(s)
        if self.quick:
            if self.pos < len(DECK):
                return False
        elif top < self.goal:
            return False
        self.winners = [p for p in range(1, self.players + 1) if s[p - 1] == top]
        self._finish(now)
        return True

    def _finish(self, now):
        self.over = True
        del self.drawing[:]  # the rows become the standings
        self._due = 0  # (the winner's screen has no margin line)
        self.go(_OVER, now)
        self.box.reveal(True)
        w = self.winners
        s = self.scores
        self.view.big(" ".join(seat(p) for p in w) + (" WINS!" if len(w) == 1 else " WIN!"),
                      palette.station(w[0]) if len(w) == 1 else palette.WARN,
                      str(s[w[0] - 1]) + (" cards" if self.quick else " points"), "hold: menu", palette.DIM)
        self.view.standings([p for p, _ in self.standings()], s)
        self.box.sound.play(sound.WIN, now)
        for p in range(1, self.players + 1):
            if p in w:
                self.box.rings.set(p, rings.FLASH, palette.station(p), now_ns=now)
            else:
                self.box.rings.set(p, rings.SOLID, palette.scale(palette.station(p), 60), now_ns=now)

    def standings(self):
        # best first, for the table ending the match from the pause menu
        s = self.scores
        word = " cards" if self.quick else " points"
        return [(p, seat(p) + "  " + str(s[p - 1]) + word)
                for p in sorted(range(1, self.players + 1), key=lambda p: (-s[p - 1], p))]

    # ------------------------------------------------------------------ bots
    def _bot_look(self, b, t):
        # a bot looks at its dice from t: it claims if they are good, else it taps
        brain = self.brains[b]
        d = self.cur[b]
        tg = self.targets[b]
        v = d[0]  # six of its own number or of its target's (rules.meets, on dice the box rolled)
        good = self.card.matches(d) or (not self.quick and (v == tg or v == b) and min(d) == max(d))
        if good or brain.wrong(self.rng):
            at = self.hold_at[b] = t + brain.see_ns(self.rng)
            self.tap_at[b] = at + _CLAIM_NS + brain.tap_ns(self.rng)
        else:
            self.hold_at[b] = -1
            self.tap_at[b] = t + brain.tap_ns(self.rng)

    def _bot(self, b, now):
        at = self.hold_at[b]
        if at >= 0:
            if now >= at + _CLAIM_NS:  # the bot's hold is a claim now
                self.hold_at[b] = -1
                self._claim(b, at, now)
                if self.phase == _PLAY and not (self.dirty >> b) & 1:
                    self._bot_look(b, now)  # (a fresh hand: looked at once it is drawn)
            return
        if self.phase != _PLAY or self.reveal_at is None or now < self.tap_at[b]:
            return
        if self.dirty or self.drawing:  # a roll waits to be drawn: the bot's waits for it
            return
        self._roll(b)  # (it looks at its dice once they are drawn)

    # ------------------------------------------------------------------ rings
    def _ring_dice(self, p, now):
        # 2 pixels per die, colour = value; kept dice bright, free dice dim
        px = self.px[p]
        d = self.seen[p]
        k = self.kept[p]
        for i in range(6):
            c = _HUES[d[i]] if (k >> i) & 1 else _DIM_HUES[d[i]]
            px[2 * i] = px[2 * i + 1] = c
        self.box.rings.set(p, rings.PIXELS, arg=px, now_ns=now)

    def _rings(self, now):
        for p in range(1, self.players + 1):
            if not self.flash[p]:
                self.box.rings.set(p, rings.SOLID, self._target_color(p), now_ns=now)

    # ------------------------------------------------------------------ faults
    def resumed(self, now_ns, paused_ns):
        if self.phase == _BREAK:
            self.until += paused_ns
        elif self.phase != _OVER:
            self._replay("paused: the card again", now_ns)

    def capture_lost(self, now_ns):
        if self.phase in (_DEAL, _PLAY):
            self._replay("capture lost: the card again", now_ns)

    def _replay(self, why, now):
        # a card that cannot be judged fairly goes back on the deck; nobody scores for it
        self.race.lost_data(why)
        self.box.reveal(True)
        self.pos -= 1
        self.over_at = now
        self.view.big("Card void", palette.BAD, why, "")
        self.go(_BREAK, now)
        self.until = now + _BREAK_NS
        self._rings(now)

    # ------------------------------------------------------------------ saves
    def state(self):
        return {"scores": list(self.scores), "targets": self.targets[1:], "deck": list(self.deck), "pos": self.pos}

    def restore(self, state, now_ns=0):
        n = self.players
        s = state.get("scores")
        t = state.get("targets")
        deck = state.get("deck")
        pos = state.get("pos")
        if type(s) is not list or len(s) != n or type(t) is not list or len(t) != n:
            raise ValueError("saved Lightning Dice match is not for " + str(n) + " players")
        for v in s + t:
            if type(v) is not int or v < 0:
                raise ValueError("saved Lightning Dice scores are not counts")
        if max(t) > n or type(deck) is not list or sorted(deck) != list(range(len(DECK))):
            raise ValueError("saved Lightning Dice deck or targets are damaged")
        if type(pos) is not int or not 0 <= pos <= len(DECK):
            raise ValueError("saved Lightning Dice deck position is damaged")
        self.scores = list(s)
        self.deck = list(deck)
        self.pos = pos
        self.card = DECK[self.deck[pos - 1 if pos else 0]]
        self.go(_BREAK, now_ns)
        self.arm_at = self.reveal_at = None
        for p in range(1, n + 1):
            self.targets[p] = 0 if self.quick else t[p - 1]
            self._show_target(p)
            self.view.score(p, s[p - 1])
            self._hand(p)
        self._draw(now_ns, True)
        self.over_at = now_ns
        if not self._check(now_ns):
            self.view.big("Match resumed", palette.WARN, "next card soon", "tap: pick aim  hold: claim", palette.TEXT)
            self.until = now_ns + _FIRST_NS
            self._rings(now_ns)
