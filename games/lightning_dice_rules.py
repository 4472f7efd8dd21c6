# Lightning Dice: the pure rules (card language, keep policy, the deck).
#
# No display, no box, no clock: the game flow (games/lightning_dice.py) is built on
# these. Dice are six ints 1..6 in screen order. Rulings: docs/rulings.md, Lightning Dice.
# docs/lightning_dice.md gives the exact meaning of every card form, the keep policy
# and the deck's balance table (tools/lightning_deck.py).
#
#   Card(spec)              spec: card text, e.g. "three 5s", "sum >= 27"
#   card.spec               the text as given (what the screen shows)
#   card.matches(dice)      True when the six dice meet the card
#   card.keep(dice)         [bool] * 6: the dice the box keeps for this card
#   meets(dice, target)     target: a Card, or an int 1..6 (six dice of that value:
#   keep(dice, target)      the player's own number for a Bonus, a rival's for Thunder)
#   DECK                    the 50 goal cards (a tuple of Card)
#
# Memory: a Card holds two attributes, its text and one small int (_code) that packs
# the form and its parameters, so the whole deck costs a few bytes per card beyond the
# text.
#
# (Docstrings would cost the box no RAM, its .mpy drops them; only the tests'
# MicroPython VM, compiling the .py, keeps them: docs/design.md, "Memory".)

from referee.core import const

# Form codes: _code = form | (parameters << 4).
_COUNT = const(1)  # need per value, 3 bits each (value v at bits 3v-3..3v-1)
_KIND = const(2)  # n: at least n dice show one value
_PAIRS = const(3)  # k: the dice hold k disjoint pairs
_TRIPLES = const(4)  # k: the dice hold k disjoint triples
_FULL = const(5)  # full house
_STRAIGHT = const(6)  # 1-2-3-4-5-6
_SMALL = const(7)  # 1-2-3-4-5 or 2-3-4-5-6 among the dice
_ONLY = const(8)  # mask (bit v set = value v allowed): every die shows an allowed value
_SUM = const(9)  # lo | hi << 6: lo <= sum of the six dice <= hi
_ALL_VALUES = const(0x7E)  # bits 1..6

_NUMS = ("one", "two", "three", "four", "five", "six")
_SETS = (("even", 0x54), ("odd", 0x2A), ("high", 0x70), ("low", 0x0E))
_OPS = (">=", "<=", "=", "==", ">", "<")


def _bad(spec, why):
    return ValueError("unreadable card spec %r: %s" % (spec, why))


def _tokens(spec):
    # Words, numbers and comparison operators; spaces, tabs and apostrophes separate
    # them ("5's" reads as "5 s", "sum>=27" as "sum >= 27").
    out = []
    cur = ""
    kind = 0
    for ch in spec.lower():
        if "a" <= ch <= "z":
            k = 1
        elif "0" <= ch <= "9":
            k = 2
        elif ch == "<" or ch == ">" or ch == "=":
            k = 3
        elif ch in " \t\n'":
            k = 0
        else:
            raise _bad(spec, "unexpected character %r" % ch)
        if k != kind and cur:
            out.append(cur)
            cur = ""
        if k:
            cur += ch
        kind = k
    if cur:
        out.append(cur)
    return out


def _number(spec, word):
    # one..six or 1..6
    for i in range(6):
        if word == _NUMS[i]:
            return i + 1
    if len(word) == 1 and "1" <= word <= "6":
        return int(word)
    raise _bad(spec, "%r is not a count one..six" % word)


def _value(spec, words):
    # a die value 1..6 written as a digit, optionally followed by "s" ("5", "5s", "5's")
    if not words or len(words) > 2 or (len(words) == 2 and words[1] != "s"):
        raise _bad(spec, "expected a die value such as 5s after the count")
    w = words[0]
    if len(w) != 1 or not ("1" <= w <= "6"):
        raise _bad(spec, "%r is not a die value 1..6" % w)
    return int(w)


def _parse_sum(spec, t):
    if len(t) != 3 or t[1] not in _OPS or not t[2].isdigit():
        raise _bad(spec, "expected sum >= X, sum <= X, sum = X, sum > X or sum < X")
    op = t[1]
    x = int(t[2])
    lo = 6
    hi = 36
    if op == ">=":
        lo = x
    elif op == ">":
        lo = x + 1
    elif op == "<=":
        hi = x
    elif op == "<":
        hi = x - 1
    else:
        lo = x
        hi = x
    lo = max(lo, 6)
    hi = min(hi, 36)
    if lo > hi:
        raise _bad(spec, "six dice always sum to 6..36, so it can never be met")
    return _SUM | (lo << 4) | (hi << 10)


def _parse_clauses(spec, t):
    # Clauses joined by "and": all "N Vs" (at least N dice show V, values distinct,
    # at most six dice in all) or all "no Vs" (no die shows V).
    need = 0
    mask = _ALL_VALUES
    counts = 0
    start = 0
    n = len(t)
    for stop in range(n + 1):
        if stop < n and t[stop] != "and":
            continue
        part = t[start:stop]
        start = stop + 1
        if not part:
            raise _bad(spec, "empty clause around 'and'")
        if part[0] == "no":
            v = _value(spec, part[1:])
            if not mask & (1 << v):
                raise _bad(spec, "value %d named twice" % v)
            mask &= ~(1 << v)
        else:
            c = _number(spec, part[0])
            v = _value(spec, part[1:])
            if need & (7 << (3 * v - 3)):
                raise _bad(spec, "value %d named twice" % v)
            need |= c << (3 * v - 3)
            counts += c
    if need and mask != _ALL_VALUES:
        raise _bad(spec, "'and' joins count clauses or 'no' clauses, not both")
    if need:
        if counts > 6:
            raise _bad(spec, "needs %d dice but there are six" % counts)
        return _COUNT | (need << 4)
    if not mask:
        raise _bad(spec, "excludes every value, so it can never be met")
    return _ONLY | (mask << 4)


def _parse_sets(spec, t):
    # "N of a kind", "N pairs", "N triples"; None for a count of faces ("three 5s")
    n = len(t)
    w = t[0]
    word = t[1]
    if t[1:] == ["of", "a", "kind"]:
        k = _number(spec, w)
        if k < 2:
            raise _bad(spec, "a kind needs 2..6 dice")
        return _KIND | (k << 4)
    if word == "pair" or word == "pairs":
        if n != 2 or _number(spec, w) > 3:
            raise _bad(spec, "six dice hold one to three pairs")
        return _PAIRS | (_number(spec, w) << 4)
    if word in ("triple", "triples", "triplet", "triplets"):
        if n != 2 or _number(spec, w) > 2:
            raise _bad(spec, "six dice hold one or two triples")
        return _TRIPLES | (_number(spec, w) << 4)
    if not word[0].isdigit():
        raise _bad(spec, "unknown card")
    return None


def _parse(spec):
    if not isinstance(spec, str):
        raise ValueError("card spec must be text, not %r" % (spec,))
    t = _tokens(spec)
    n = len(t)
    if not n:
        raise _bad(spec, "empty")
    w = t[0]
    if w == "sum":
        return _parse_sum(spec, t)
    if n == 2 and w == "full" and t[1] == "house":
        return _FULL
    if n == 1 and w == "straight":
        return _STRAIGHT
    if n == 2 and w == "small" and t[1] == "straight":
        return _SMALL
    if w == "all":
        if n == 2:
            for name, mask in _SETS:
                if t[1] == name:
                    return _ONLY | (mask << 4)
        raise _bad(spec, "expected all even, all odd, all high or all low")
    if n >= 2 and w != "no" and "and" not in t:
        code = _parse_sets(spec, t)
        if code is not None:
            return code
    if w == "no" or w.isdigit() or w in _NUMS:
        return _parse_clauses(spec, t)
    raise _bad(spec, "unknown card")


def _counts(dice):
    # c[v] = how many dice show v (c[0] stays 0: the "no value" of _top)
    if len(dice) != 6:
        raise ValueError("six dice expected, not %r" % (dice,))
    c = [0, 0, 0, 0, 0, 0, 0]
    for d in dice:
        if d < 1 or d > 6:
            raise ValueError("a die shows 1..6, not %r" % (d,))
        c[d] += 1
    return c


def _top(c, skip):
    # the most common value other than skip, ties to the higher value (0 if none)
    best = 0
    for v in range(6, 0, -1):
        if v != skip and c[v] > c[best]:
            best = v
    return best


def _quota(dice, c):
    # keep, in screen order, up to c[v] dice of each value v (c is used up)
    out = [False] * 6
    for i in range(6):
        d = dice[i]
        if c[d]:
            out[i] = True
            c[d] -= 1
    return out


class Card:
    def __init__(self, spec, code=0):
        # code: the parsed form of spec when already known (the deck below)
        self._code = code or _parse(spec)
        self.spec = spec

    def __repr__(self):
        return "Card(%r)" % self.spec

    def _met(self, c):
        form = self._code & 15
        p = self._code >> 4
        if form == _COUNT:
            for v in range(1, 7):
                if c[v] < (p >> (3 * v - 3)) & 7:
                    return False
            return True
        if form == _KIND:
            return c[_top(c, 0)] >= p
        if form == _PAIRS:
            k = 0
            for v in range(1, 7):
                k += c[v] >> 1
            return k >= p
        if form == _TRIPLES:
            k = 0
            for v in range(1, 7):
                k += c[v] // 3
            return k >= p
        if form == _FULL:
            v = _top(c, 0)
            return c[v] >= 3 and c[_top(c, v)] >= 2
        if form == _STRAIGHT:
            return c[1] == 1 and c[2] == 1 and c[3] == 1 and c[4] == 1 and c[5] == 1
        if form == _SMALL:
            return c[2] > 0 and c[3] > 0 and c[4] > 0 and c[5] > 0 and (c[1] > 0 or c[6] > 0)
        if form == _ONLY:
            for v in range(1, 7):
                if c[v] and not (p >> v) & 1:
                    return False
            return True
        s = c[1] + 2 * c[2] + 3 * c[3] + 4 * c[4] + 5 * c[5] + 6 * c[6]
        return (p & 63) <= s <= (p >> 6)

    def matches(self, dice):
        return self._met(_counts(dice))

    def keep(self, dice):
        c = _counts(dice)
        if self._met(c):
            return [True] * 6
        form = self._code & 15
        p = self._code >> 4
        if form == _COUNT:
            for v in range(1, 7):
                c[v] = min(c[v], (p >> (3 * v - 3)) & 7)
            return _quota(dice, c)
        if form == _KIND:
            v = _top(c, 0)
            return [d == v for d in dice]
        if form == _PAIRS:
            for v in range(1, 7):
                c[v] &= 6
            return _quota(dice, c)
        if form == _TRIPLES or form == _FULL:
            return _quota(dice, _keep_sets(c, form, p))
        if form == _STRAIGHT or form == _SMALL:
            return _quota(dice, _keep_run(c, form))
        if form == _ONLY:
            return [(p >> d) & 1 == 1 for d in dice]
        return _keep_sum(dice, c, p & 63, p >> 6)


def _keep_sets(c, form, p):
    # triples or a full house: the counts to keep of the two most common values
    v = _top(c, 0)
    w = _top(c, v)
    a = c[v]
    b = c[w]
    for u in range(7):
        c[u] = 0
    if form == _TRIPLES:
        # the two most common values seen at least twice, three dice each
        # (all five of a five of a kind: a sixth makes six of a kind)
        c[v] = a if a == 5 else (min(a, 3) if a >= 2 else 0)
        c[w] = min(b, 3) if b >= 2 and p > 1 else 0
    else:
        # three of the most common value, two of the next if it shows twice
        c[v] = min(a, 3)
        c[w] = 2 if b >= 2 else 0
    return c


def _keep_run(c, form):
    # a straight (1-6) or a small straight (1-5 or 2-6, whichever has more already)
    lo = 1
    hi = 6
    if form == _SMALL:
        a = 0
        for v in range(2, 6):
            a += c[v] > 0
        b = a + (c[6] > 0)
        a += c[1] > 0
        lo = 2 if b >= a else 1
        hi = lo + 4
    for v in range(7):
        c[v] = 1 if lo <= v <= hi and c[v] else 0
    return c


def _keep_sum(dice, c, lo, hi):
    s = c[1] + 2 * c[2] + 3 * c[3] + 4 * c[4] + 5 * c[5] + 6 * c[6]
    if lo != hi:
        if s < lo:
            t = (lo + 5) // 6
            return [d >= t for d in dice]
        t = hi // 6
        return [d <= t for d in dice]
    # sum = X: dice within 1 of X/6, nearest first (screen order on ties), each
    # kept only while the free dice can still make up exactly what is missing
    out = [False] * 6
    kept = 0
    total = 0
    for dist in range(7):
        for i in range(6):
            d = dice[i]
            if 6 * d - lo == dist or lo - 6 * d == dist:
                free = 5 - kept
                if free <= lo - total - d <= 6 * free:
                    out[i] = True
                    kept += 1
                    total += d
    return out


def meets(dice, target):
    if isinstance(target, Card):
        return target.matches(dice)
    _counts(dice)
    if target < 1 or target > 6:
        raise ValueError("target must be a Card or a value 1..6, not %r" % (target,))
    for d in dice:
        if d != target:
            return False
    return True


def keep(dice, target):
    if isinstance(target, Card):
        return target.keep(dice)
    if meets(dice, target):
        return [True] * 6
    return [d == target for d in dice]


# The deck: 50 cards, quickest first (docs/lightning_dice.md has the balance table).
# Fair to every seat: every number is asked for, six of any number meets 14 cards, and
# the cards that favour some numbers come in sets that favour each number alike (the
# seat table in the docs measures it). Each card's text comes with its parsed code
# (= Card(text)._code, checked by the tests), so importing the deck runs no parser and
# leaves no parser garbage.
DECK = tuple(Card(s, c) for s, c in (
    # quick
    ("sum >= 24", 37257),
    ("sum <= 18", 18537),
    ("three of a kind", 50),
    ("two 6s", 1048577),
    ("two 1s", 33),
    ("two 2s", 257),
    ("two 3s", 2049),
    ("two 4s", 16385),
    ("two 5s", 131073),
    ("full house", 5),
    ("no 2s and no 5s", 1448),
    ("no 1s and no 6s", 968),
    ("no 3s and no 4s", 1640),
    ("all low", 232),
    # steady
    ("all odd", 680),
    ("sum >= 29", 37337),
    ("all even", 1352),
    ("sum <= 13", 13417),
    ("four of a kind", 66),
    ("two 2s and two 5s", 131329),
    ("all high", 1800),
    ("two 3s and two 4s", 18433),
    ("two 1s and two 6s", 1048609),
    ("small straight", 7),
    ("three pairs", 51),
    ("sum = 24", 24969),
    ("five of a kind", 82),
    ("sum = 18", 18729),
    ("sum = 26", 27049),
    # hard
    ("five 2s", 641),
    ("five 4s", 40961),
    ("sum = 16", 16649),
    ("straight", 6),
    ("two triples", 36),
    ("five 3s", 5121),
    ("five 6s", 2621441),
    ("five 5s", 327681),
    ("five 1s", 81),
    ("sum = 33", 34329),
    ("sum = 9", 9369),
    ("three 1s and three 6s", 1572913),
    ("three 2s and three 5s", 196993),
    ("three 3s and three 4s", 27649),
    # slow
    ("six of a kind", 98),
    ("five 1s and one 6", 524369),
    ("five 4s and one 3", 41985),
    ("five 3s and one 4", 13313),
    ("five 6s and one 1", 2621457),
    ("five 5s and one 2", 327809),
    ("five 2s and one 5", 66177),
))
