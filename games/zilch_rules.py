"""Zilch: the pure rules (scoring, zilch test, legal set-asides, variant switches).

No state, no I/O: the game flow (games/zilch.py) and the bots (games/zilch_strategy.py)
are built on these functions. Dice are faces 1..6 (ints) in any order.

Scoring (docs/rulings.md): six of a kind 6000, five 5000, four 4000 (``kinds``); two triplets
3000, three pairs 2000 (``sets``); straight 1-2-3-4-5-6 1500; three 1s 1000; three Ns
N*100; a single 1 100; a single 5 50. A set-aside scores the best way to split it into
combinations with every die used.

How the best split is found: the combinations that involve several faces (straight, two
triplets, three pairs) need all six dice, and at most six dice are ever set aside, so
either one of them is the whole set-aside, or every combination involves one face only.
The best single-face split of k dice of face f is a 6x7 table built once per ``kinds``
setting; the score is then the larger of the whole-set readings and the sum over faces.
That is O(6) per call, with nothing to memoise.

A triplet or a pair is read as "three (two) dice showing the same face", so a four of a
kind is also two pairs and six of a kind is also two triplets or three pairs: with the
10,000 rules (no four/five/six of a kind) six 2s score 3000 as two triplets, and four 2s
with two 3s score 2000 as three pairs, but four 2s alone cannot be split (three 2s and a
lone 2) and raise ValueError.
"""

from referee.core import const

STRAIGHT = const(1500)
THREE_PAIRS = const(2000)
TWO_TRIPLETS = const(3000)
FOUR_KIND = const(4000)
FIVE_KIND = const(5000)
SIX_KIND = const(6000)


class Rules:
    """The variant switches of a Zilch match.

    target      a turn ending with MORE than this total triggers the final round
    entry       minimum turn points for a player's first bank ("getting on the board")
    later_min   minimum turn points for every later bank
    kinds       four / five / six of a kind score (4000 / 5000 / 6000)
    sets        two triplets (3000) and three pairs (2000) score
    pyramiding  dice set aside earlier in the turn combine with new ones
    challenge   each player may announce two challenge turns (penalties below)
    overtaking  a bank must also beat the previous player's last banked turn
    challenge_penalties  points lost for a Zilch on the challenge before the split and
                         on the one after (the side decides, not the order of use)
    challenge_split      one challenge before reaching this total, one after
    """

    def __init__(self, target=15000, entry=500, later_min=350, kinds=True, sets=True,
                 pyramiding=False, challenge=False, overtaking=False,
                 challenge_penalties=(600, 2000), challenge_split=5000):
        for name, value in (("target", target), ("entry", entry),
                             ("later_min", later_min), ("challenge_split", challenge_split)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError("%s must be a non-negative int, not %r" % (name, value))
        if target <= 0:
            raise ValueError("target must be positive")
        if len(challenge_penalties) != 2:
            raise ValueError("challenge_penalties needs two values")
        self.target = target
        self.entry = entry
        self.later_min = later_min
        self.kinds = bool(kinds)
        self.sets = bool(sets)
        self.pyramiding = bool(pyramiding)
        self.challenge = bool(challenge)
        self.overtaking = bool(overtaking)
        self.challenge_penalties = (int(challenge_penalties[0]), int(challenge_penalties[1]))
        self.challenge_split = challenge_split

    # -- presets -------------------------------------------------------------------
    @classmethod
    def classic(cls, **switches):
        """15,000 game, every combination scores."""
        return cls(**switches)

    @classmethod
    def ten_thousand(cls, **switches):
        """10,000 game: no four / five / six of a kind."""
        switches.setdefault("target", 10000)
        return cls(kinds=False, **switches)

    @classmethod
    def five_thousand(cls, **switches):
        """5,000 game: no four / five / six of a kind, no two triplets, no three pairs."""
        switches.setdefault("target", 5000)
        return cls(kinds=False, sets=False, **switches)

    @classmethod
    def from_options(cls, options, errors=None):
        """Rules from launcher options (already typed, as referee.game.resolve_options
        gives them): "variant" ("classic", "ten_thousand", "five_thousand", or the
        targets 15000 / 10000 / 5000), "target" / "entry" / "later_min" (ints),
        "pyramiding" / "challenge" / "overtaking" (bools). Unknown keys are ignored. A bad
        value raises ValueError or, when ``errors`` is a list, is reported there and the
        preset's default is kept."""
        variant = options.get("variant", "classic")
        maker = _PRESETS.get(variant)
        if maker is None:
            _bad(errors, "variant", variant)
            maker = "classic"
        switches = {}
        for key in ("target", "entry", "later_min", "pyramiding", "challenge", "overtaking"):
            if key in options:
                value = options[key]
                if key in ("target", "entry", "later_min"):
                    good = (isinstance(value, int) and not isinstance(value, bool)
                            and value >= (1 if key == "target" else 0))
                else:
                    good = isinstance(value, bool)
                if good:
                    switches[key] = value
                else:
                    _bad(errors, key, value)
        return getattr(cls, maker)(**switches)

    # -- helpers for the game flow ----------------------------------------------------
    def variant(self):
        """'classic', 'ten_thousand', 'five_thousand' (scoring switches) or 'custom'."""
        if self.kinds and self.sets:
            return "classic"
        if self.sets:
            return "ten_thousand"
        if not self.kinds:
            return "five_thousand"
        return "custom"

    def bank_minimum(self, on_board=True, beat=0):
        """Smallest turn total that may be banked (``beat``: previous player's last bank,
        only with overtaking, which needs strictly more)."""
        minimum = self.later_min if on_board else self.entry
        if self.overtaking and beat + 1 > minimum:
            minimum = beat + 1
        return minimum

    def can_bank(self, turn_points, dice_left, on_board=True, beat=0):
        """May a player with ``turn_points`` bank now? ``dice_left`` is the number of dice
        the next roll would use: 6 after turning the corner (or at the start), which forces
        a roll."""
        if dice_left >= 6 or turn_points <= 0:
            return False
        return turn_points >= self.bank_minimum(on_board, beat)

    def challenge_slot(self, used, reached):
        """Which challenge a player may announce now: 0 (the one before 5,000), 1 (the
        one after) or -1 (none). ``used``: [before used, after used]; ``reached``: the
        player's total has reached ``challenge_split`` at some point. docs/rulings.md: the
        "before" challenge closes for good once the total has reached the split, even
        if it falls back below, and the "after" one opens then."""
        if not self.challenge:
            return -1
        slot = 1 if reached else 0
        return -1 if used[slot] else slot

    def __eq__(self, other):
        return isinstance(other, Rules) and self._key() == other._key()

    def _key(self):
        return (self.target, self.entry, self.later_min, self.kinds, self.sets,
                self.pyramiding, self.challenge, self.overtaking,
                self.challenge_penalties, self.challenge_split)

    def __repr__(self):
        return ("Rules(target=%d, entry=%d, later_min=%d, kinds=%s, sets=%s, pyramiding=%s,"
                " challenge=%s, overtaking=%s)" % (
                    self.target, self.entry, self.later_min, self.kinds, self.sets,
                    self.pyramiding, self.challenge, self.overtaking))


_PRESETS = {"classic": "classic", 15000: "classic", "ten_thousand": "ten_thousand",
            10000: "ten_thousand", "five_thousand": "five_thousand", 5000: "five_thousand"}


def _bad(errors, key, value):
    message = "zilch option %s: bad value %r" % (key, value)
    if errors is None:
        raise ValueError(message)
    errors.append(message)


CLASSIC = Rules()


# -- scoring ---------------------------------------------------------------------------
def _build_face_table(kinds):
    """table[f][k]: best points for k dice all showing f, every die used; -1 if impossible."""
    table = [None]
    for face in range(1, 7):
        parts = []
        if face == 1:
            parts.append((1, 100))
        elif face == 5:
            parts.append((1, 50))
        parts.append((3, 1000 if face == 1 else 100 * face))
        if kinds:
            parts.append((4, FOUR_KIND))
            parts.append((5, FIVE_KIND))
            parts.append((6, SIX_KIND))
        best = [0, -1, -1, -1, -1, -1, -1]
        for k in range(1, 7):
            top = -1
            for size, points in parts:
                if size <= k and best[k - size] >= 0:
                    if points + best[k - size] > top:
                        top = points + best[k - size]
            best[k] = top
        table.append(best)
    return table


_FACES = (_build_face_table(False), _build_face_table(True))


def counts_of(dice):
    """[_, n1, ..., n6]: how many dice show each face (index 0 unused). ValueError on a
    value that is not a face 1..6."""
    counts = [0, 0, 0, 0, 0, 0, 0]
    for die in dice:
        if isinstance(die, bool) or not isinstance(die, int) or die < 1 or die > 6:
            raise ValueError("not a die face: %r" % (die,))
        counts[die] += 1
    return counts


def score_counts(counts, rules=None):
    """Best points for the dice described by ``counts`` (as from counts_of), every die
    used; -1 if they cannot all be used, 0 for no dice."""
    if rules is None:
        rules = CLASSIC
    faces = _FACES[1 if rules.kinds else 0]
    total = 0
    n = 0
    for face in range(1, 7):
        k = counts[face]
        n += k
        if total >= 0:
            points = faces[face][k]
            total = points + total if points >= 0 else -1
    if n == 6:
        straight = True
        pairs = True
        triplets = True
        for face in range(1, 7):
            k = counts[face]
            if k != 1:
                straight = False
            if k & 1:
                pairs = False
            if k not in (0, 3, 6):
                triplets = False
        if straight and STRAIGHT > total:
            total = STRAIGHT
        if rules.sets:
            if triplets and TWO_TRIPLETS > total:
                total = TWO_TRIPLETS
            if pairs and THREE_PAIRS > total:
                total = THREE_PAIRS
    return total


def score(dice, rules=None):
    """Points for setting aside exactly these dice (1 to 6 faces, any order), the best
    way to split them into combinations with every die used. ValueError if a die cannot
    be used (or for no dice, more than six, or a value that is not a face)."""
    n = len(dice)
    if n == 0 or n > 6:
        raise ValueError("a set-aside is 1 to 6 dice, not %d" % n)
    points = score_counts(counts_of(dice), rules)
    if points <= 0:
        raise ValueError("these dice do not all score: %r" % (sorted(dice),))
    return points


def is_zilch(roll, rules=None, frozen=None):
    """True if no set-aside of ``roll`` scores at all (the turn is lost). With pyramiding,
    ``frozen`` (the dice already set aside this cycle) may rescue a roll; see gain()."""
    if rules is None:
        rules = CLASSIC
    if rules.pyramiding and frozen:
        return not options(roll, rules, frozen)
    counts = counts_of(roll)
    if counts[1] or counts[5]:
        return False
    pairs = len(roll) == 6
    for face in range(1, 7):
        if counts[face] >= 3:
            return False
        if counts[face] & 1:
            pairs = False
    return not (pairs and rules.sets)


def gain(frozen, new, rules=None):
    """Points that setting aside ``new`` adds to the turn, given ``frozen``: the dice
    already set aside in the current six-dice cycle (since the turn started or the corner
    was last turned).

    Without pyramiding every set-aside is scored alone: score(new). With pyramiding the
    cycle is scored as a whole, so the gain is score(frozen + new) - score(frozen); the
    turn total is the sum of the gains, i.e. the sum over cycles of the score of all the
    dice set aside in that cycle taken together (best split). A pyramided set-aside is
    legal when the combined dice all score and the gain is positive (a frozen 2,2,2,2 is
    worth 4000; adding 3,3 would make it three pairs at 2000, so that is not allowed).
    ValueError if ``new`` is not a legal set-aside.
    """
    if rules is None:
        rules = CLASSIC
    if not (rules.pyramiding and frozen):
        return score(new, rules)
    if not new or len(new) + len(frozen) > 6:
        raise ValueError("a set-aside is 1 to 6 dice")
    counts = counts_of(frozen)
    before = score_counts(counts, rules)
    added = counts_of(new)
    for face in range(1, 7):
        counts[face] += added[face]
    after = score_counts(counts, rules)
    if before < 0 or after <= before:
        raise ValueError("%r does not add to %r" % (sorted(new), sorted(frozen)))
    return after - before


score_with_frozen = gain


def options(roll, rules=None, frozen=None):
    """The legal set-asides of ``roll``: a list of (dice, points) with ``dice`` a sorted
    tuple, each distinct multiset once, ``points`` its gain (see gain(); plain score
    without pyramiding). Order, for a one-button menu: most points first; equal points,
    fewer dice first (more dice left to roll); then by the dice. [] for a Zilch."""
    return next(options_steps(roll, rules, frozen, 1 << 30))  # (no pause: the list at once)


def options_steps(roll, rules=None, frozen=None, per=4):
    """``options()`` worked out a few at a time (the box, during a roll's tumble: all at
    once were ~30-60 ms of one loop pass on a Pico): a generator that yields None after
    every ``per`` sets of dice scored, then the list ``options()`` returns."""
    if rules is None:
        rules = CLASSIC
    counts = counts_of(roll)
    base = [0, 0, 0, 0, 0, 0, 0]
    before = 0
    if rules.pyramiding and frozen:
        base = counts_of(frozen)
        before = score_counts(base, rules)
        if before < 0:
            raise ValueError("frozen dice do not score: %r" % (sorted(frozen),))
    # every sub-multiset of the roll, counted like an odometer over its faces (no list
    # of them all: it stayed on the heap through the tumble)
    faces = [f for f in range(1, 7) if counts[f]]
    sub = [0, 0, 0, 0, 0, 0, 0]
    found = []
    n = 0
    while True:
        i = 0
        while i < len(faces) and sub[faces[i]] == counts[faces[i]]:
            sub[faces[i]] = 0
            i += 1
        if i == len(faces):
            break  # every one seen (back to none)
        sub[faces[i]] += 1
        combined = [base[f] + sub[f] for f in range(7)]
        if sum(combined) > 6:
            continue
        n += 1
        if n % per == 0:
            yield None
        points = score_counts(combined, rules) - before
        if points > 0:
            dice = []
            for face in range(1, 7):
                dice.extend([face] * sub[face])
            found.append((tuple(dice), points))
    found.sort(key=_menu_order)
    yield found


def _menu_order(option):
    return (-option[1], len(option[0]), option[0])


def best(roll, rules=None, frozen=None, found=None):
    """The highest-scoring set-aside as (dice, points) (equal points: fewer dice), or
    None for a Zilch. ``found``: ``options(roll, rules, frozen)`` if known already."""
    if found is None:
        found = options(roll, rules, frozen)
    return found[0] if found else None
