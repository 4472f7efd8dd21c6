# Lightning Dice bots: how fast a bot taps, how long it takes to see that its dice
# are good, how often it claims on dice that are not, and which target it picks
# between cards. Pure decisions over plain values; the flow (games/lightning_dice.py)
# imports this module only when a seat is a bot, and times everything itself.
#
# Per level: (ms between taps, +- ms, ms to see good dice, +- ms, false claims per
# thousand rolls, style). Style 0 always plays the card; 1 sometimes goes for a
# Bonus; 2 also throws Thunder at a leader who is close to winning.
#   easy   4 taps/s, sees in 0.9 s, claims wrongly now and then
#   normal 6 taps/s, sees in 0.6 s
#   hard   8 taps/s, sees in 0.35 s, never claims wrongly

from referee.core import MS

LEVELS = ("easy", "normal", "hard")
_PARAMS = ((250, 60, 900, 300, 12, 0), (165, 40, 600, 200, 4, 1), (125, 25, 350, 100, 0, 2))


class Bot:
    def __init__(self, level):
        i = LEVELS.index(level) if level in LEVELS else 1
        self.tap, self.tap_dev, self.see, self.see_dev, self.errors, self.style = _PARAMS[i]

    # Delays are drawn to the nanosecond, as a person's are: bots often look at the same
    # instant (the reveal, or the loop pass that rolled their dice), and whole
    # milliseconds from it made two of them press in the same nanosecond (a tie).
    # The widest range, 2 x 300 ms = 6e8 ns, is well inside randbelow's 2**32.
    def tap_ns(self, rng):
        # time to the next tap
        return (self.tap - self.tap_dev) * MS + rng.randbelow(2 * self.tap_dev * MS + 1)

    def see_ns(self, rng):
        # time from good dice on screen to the claim's press
        return (self.see - self.see_dev) * MS + rng.randbelow(2 * self.see_dev * MS + 1)

    def wrong(self, rng):
        # claims on this roll although nothing is met
        return rng.randbelow(1000) < self.errors

    def target(self, rng, me, scores, goal):
        # 0 = the card, else the player number to roll six of (me: Bonus, other: Thunder)
        if self.style == 0:
            return 0
        if scores[me - 1] == goal - 1 and rng.randbelow(2):
            return me  # a Bonus would win
        if self.style == 2:
            best = 0
            for p in range(1, len(scores) + 1):
                if p != me and scores[p - 1] >= goal - 4 and (not best or scores[p - 1] > scores[best - 1]):
                    best = p
            if best and scores[best - 1] > scores[me - 1] and rng.randbelow(2):
                return best
        return me if rng.randbelow(10) == 0 else 0
