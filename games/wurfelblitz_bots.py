# Würfelblitz's bots: each bot seat's level (mean reaction in ms, wrong answers per
# mille; see games.wurfelblitz.bot_level) and how a bot acts on it: when it buzzes and
# what it says (the rules' model: its reaction +/- a third, the mistakes people make),
# how long it takes to confirm its call, and the pace of its taps. The flow imports
# this module only when a seat is a bot.

from games import wurfelblitz_rules as rules
from referee.core import const

_CONFIRM_NS = const(700000000)  # 700 ms: a bot confirms its call (the answer is on screen)
_TAP_START_NS = const(300000000)  # 300 ms: tap mode, before its first tap
_TAP_NS = const(180000000)  # 180 ms between its taps
_SEND_NS = const(700000000)  # 700 ms after its last tap it sends the count


class Bots:
    def __init__(self, options, bots):
        self.levels = {}  # bot seat -> (mean reaction ms, wrong answers per mille)
        for b in bots:
            self.levels[b] = rules.bot_level(options, bots, b)

    def read(self, b, rng, throw, teaser, reveal_ns):
        # Bot ``b`` sees the throw at ``reveal_ns``: (when it buzzes, what it will say).
        ms, errors = self.levels[b]
        at = reveal_ns + rules.bot_reaction_ns(rng, ms, ms // 3)
        return at, rules.bot_answer(rng, throw, teaser, errors)

    def confirm_at(self, now):
        return now + _CONFIRM_NS

    def first_tap_at(self, now):
        return now + _TAP_START_NS

    def next_tap_at(self, now, taps, said):
        # after a tap: the next one, or the send once ``said`` taps are in
        return now + (_TAP_NS if taps < said else _SEND_NS)
