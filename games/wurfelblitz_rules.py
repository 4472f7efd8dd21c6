# Würfelblitz: the pure rules (dice, score of a throw, discs, bot model).
#
# No I/O, no clock: the round flow and the screens (``games/wurfelblitz.py``) are
# built on these functions. Rulings: docs/rulings.md, section Würfelblitz.
#
# A throw is a list of ``(die_colour, face)``. ``die_colour`` is one of COLOURS or
# "white"; ``face`` is pips 1..6 (int) or a dot colour (str). A throw may hold each
# coloured die at most once (a missing coloured die simply counts nothing) and any
# number of white dice (the box has three; the game uses two or three).
#
# (Docstrings would cost the box no RAM, its .mpy drops them; only the tests'
# MicroPython VM, compiling the .py, keeps them: docs/design.md, "Memory".)


from referee.core import const
from referee.dice import roll_die
from referee.game import Option

# The game's table and options (games.wurfelblitz re-exports them for the registry
# and the launcher).
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


COLOURS = ("orange", "blue", "black", "yellow", "green", "red")
WHITE = "white"

# The coloured dice, as ONE editable table (docs/rulings.md: *unverified*). Each coloured
# die shows pips 1..6, except that one pip value is replaced by a dot of another
# colour: (die colour, replaced pip value, dot colour).
DOT_SWAPS = (
    ("orange", 1, "blue"),
    ("blue", 2, "black"),
    ("black", 3, "yellow"),
    ("yellow", 4, "green"),
    ("green", 5, "red"),
    ("red", 6, "orange"),
)

MAX_WHITE_DICE = const(3)  # white dice in the box
WHITE_DISCS = const(14)  # reward discs in the box
BLACK_DISCS = const(14)
BLACKS_TO_WIN = const(3)
DEFAULT_HANDICAP = const(3)  # whites that make one black


def build_dice(swaps):
    """colour -> die (tuple of 6 faces) from a DOT_SWAPS-style table; ValueError if bad."""
    dice = {}
    for row in swaps:
        colour, pip, dot = row
        if colour not in COLOURS:
            raise ValueError("dice table: unknown die colour %r" % (colour,))
        if colour in dice:
            raise ValueError("dice table: %s die listed twice" % colour)
        if type(pip) is not int or pip < 1 or pip > 6:
            raise ValueError("dice table: %s die: replaced pip must be 1..6" % colour)
        if dot not in COLOURS or dot == colour:
            raise ValueError("dice table: %s die: dot must be another die's colour" % colour)
        dice[colour] = tuple(dot if v == pip else v for v in range(1, 7))
    for colour in COLOURS:
        if colour not in dice:
            raise ValueError("dice table: no row for the %s die" % colour)
    return dice


COLOURED_DICE = build_dice(DOT_SWAPS)
WHITE_DIE = COLOURS  # one dot of each colour

_BIT = {}
for _i in range(len(COLOURS)):
    _BIT[COLOURS[_i]] = 1 << _i
_ALL = const(63)  # every colour blocked
_REPEAT_SHIFT = const(6)
del _i


def _check_face(colour, face):
    """ValueError unless a die of ``colour`` can show ``face``."""
    if type(face) is int:  # bool is rejected here: type(True) is bool
        if colour == WHITE:
            raise ValueError("white dice show only colour dots, not pips (%d)" % face)
        if face < 1 or face > 6:
            raise ValueError("%s die: pips must be 1..6, got %d" % (colour, face))
        if face not in COLOURED_DICE[colour]:
            raise ValueError(
                "%s die has no %d face (it shows a %s dot instead)"
                % (colour, face, _dot_of(colour))
            )
    elif type(face) is str:
        if face not in _BIT:
            raise ValueError("unknown dot colour %r on the %s die" % (face, colour))
        if colour != WHITE and face not in COLOURED_DICE[colour]:
            raise ValueError(
                "%s die has no %s dot (its dot is %s)" % (colour, face, _dot_of(colour))
            )
    else:
        raise ValueError("%s die: face must be pips (int) or a dot colour (str), got %r" % (colour, face))


def _dot_of(colour):
    for face in COLOURED_DICE[colour]:
        if type(face) is str:
            return face
    return "no"


def _scan(throw):
    """Validate a throw; return blocked | repeated << 6 (bit masks over COLOURS).

    One small int, so scoring a list/tuple throw allocates nothing on the heap.
    """
    present = 0
    blocked = 0
    repeated = 0
    for die in throw:
        try:
            colour, face = die
        except (TypeError, ValueError):
            raise ValueError("each die must be a (colour, face) pair, got %r" % (die,))
        if colour != WHITE:
            bit = _BIT.get(colour, 0) if type(colour) is str else 0
            if not bit:
                raise ValueError("unknown die colour %r" % (colour,))
            if present & bit:
                raise ValueError("the %s die appears twice in the throw" % colour)
            present |= bit
        _check_face(colour, face)
        if type(face) is str:
            bit = _BIT[face]
            if blocked & bit:
                repeated |= bit
            blocked |= bit
    return blocked | (repeated << _REPEAT_SHIFT)


def _sequence(throw):
    if type(throw) is list or type(throw) is tuple:
        return throw
    return tuple(throw)


def _sum_pips(throw, mask, want_blocked):
    total = 0
    for colour, face in throw:
        if colour != WHITE and type(face) is int:
            if ((_BIT[colour] & mask) != 0) == want_blocked:
                total += face
    return total


def score(throw, brainteaser=False):
    """The right answer for ``throw`` (pinned: docs/design.md).

    Blocked colours are all dot colours showing on any die. Normal answer: the sum
    of the pips of the coloured dice whose colour is not blocked (0 is valid).
    Brainteaser: if any dot colour shows at least twice, the sum of the pips of
    the coloured dice whose colour IS blocked; otherwise the normal answer.
    ValueError for anything a real throw cannot show.
    """
    throw = _sequence(throw)
    masks = _scan(throw)
    teaser = bool(brainteaser) and masks > _ALL
    return _sum_pips(throw, masks & _ALL, teaser)


def _names(mask):
    out = []
    for colour in COLOURS:
        if mask & _BIT[colour]:
            out.append(colour)
    return out


def blocked(throw):
    """The blocked colours (dot colours showing anywhere), in COLOURS order."""
    return tuple(_names(_scan(_sequence(throw)) & _ALL))


def repeated(throw):
    """The dot colours showing at least twice, in COLOURS order."""
    return tuple(_names(_scan(_sequence(throw)) >> _REPEAT_SHIFT))


def brainteaser_applies(throw):
    """True if some dot colour shows at least twice (the brainteaser counts blocked dice)."""
    return _scan(_sequence(throw)) > _ALL


def total_pips(throw):
    """Sum of all pips showing (normal answer + blocked dice's pips)."""
    throw = _sequence(throw)
    _scan(throw)
    total = 0
    for _colour, face in throw:
        if type(face) is int:
            total += face
    return total


def start_discs(options, players):
    """[None, Discs of seat 1, ...]: each seat's whites per black from the options
    (``handicaps``, one per seat, else ``handicap``; "each": the default until every
    player sets their own)."""
    given = options["handicaps"] or ()
    h = options["handicap"]
    out = [None]
    for p in range(1, players + 1):
        out.append(Discs(given[p - 1] if p <= len(given) else DEFAULT_HANDICAP if h == "each" else h))
    return out


def read_state(state, players):
    """(discs, supply, round, roller) of a game's ``state()`` for ``players`` seats;
    ValueError if it is not one."""
    if len(state["discs"]) != players:
        raise ValueError("saved match is for " + str(len(state["discs"])) + " players")
    if not 1 <= state["roller"] <= players:
        raise ValueError("saved roller is not a seat")
    discs = [None]
    for d in state["discs"]:
        discs.append(Discs.from_list(d))
    return discs, Supply.from_list(state["supply"]), state["round"], state["roller"]


def first_of(times, players, rng):
    """The player of ``players`` whose press time (``times``, in the same order; None:
    none) is earliest; an exact tie drawn by lot with ``rng``."""
    best = None
    tied = [players[0]]
    for i in range(len(players)):
        t = times[i]
        if t is not None and (best is None or t < best):
            best = t
            tied = [players[i]]
        elif t is not None and t == best:
            tied.append(players[i])
    return tied[rng.randbelow(len(tied))] if len(tied) > 1 else tied[0]


def counting(throw, brainteaser=False):
    """One bool per coloured die of ``throw``: True if it counts (a green frame on
    screen once the answer shows): a die showing pips and not blocked, or, when the
    brainteaser applies, a blocked one."""
    out = []
    bl = blocked(throw)
    flipped = brainteaser and brainteaser_applies(throw)
    for i in range(6):
        colour, face = throw[i]
        out.append(type(face) is int and (colour in bl) == flipped)
    return out


def explain(throw, brainteaser=False):
    """One ASCII line for the answer screen, e.g. "blocked: black, green -> 3+4+1 = 8".

    With the brainteaser in force: "green x2, count blocked: black, green -> 4+4 = 8".
    Terms follow COLOURS order. A screen may wrap the line at " -> ".
    """
    throw = _sequence(throw)
    masks = _scan(throw)
    blocked_mask = masks & _ALL
    repeated_mask = masks >> _REPEAT_SHIFT
    teaser = bool(brainteaser and repeated_mask)
    terms = []
    total = 0
    for colour in COLOURS:
        for die_colour, face in throw:
            if die_colour == colour:
                if type(face) is int and ((_BIT[colour] & blocked_mask) != 0) == teaser:
                    terms.append(str(face))
                    total += face
                break
    if len(terms) > 1:
        arithmetic = "+".join(terms) + " = " + str(total)
    else:
        arithmetic = str(total)
    if blocked_mask == _ALL:
        names = "all"
    elif blocked_mask:
        names = ", ".join(_names(blocked_mask))
    else:
        names = "none"
    if teaser:
        counts = []
        for colour in COLOURS:
            if repeated_mask & _BIT[colour]:
                n = 0
                for _, face in throw:
                    if face == colour:
                        n += 1
                counts.append("%s x%d" % (colour, n))
        return ", ".join(counts) + ", count blocked: " + names + " -> " + arithmetic
    head = "no dot twice; blocked: " if brainteaser else "blocked: "
    return head + names + " -> " + arithmetic


def roll(rng, whites=2):
    """A fresh throw: the six coloured dice (COLOURS order), then ``whites`` white dice.

    ``rng`` is any object with ``randbelow(n)`` (e.g. ``referee.rng.Rng``); one
    ``randbelow(6)`` per die, in that order.
    """
    if type(whites) is not int or whites < 0 or whites > MAX_WHITE_DICE:
        raise ValueError("white dice: 0..%d, got %r" % (MAX_WHITE_DICE, whites))
    throw = []
    for colour in COLOURS:
        throw.append((colour, roll_die(rng, COLOURED_DICE[colour])))
    for _ in range(whites):
        throw.append((WHITE, roll_die(rng, WHITE_DIE)))
    return throw


# ---------------------------------------------------------------- discs


# The box's reward discs, shared by all players. ``white``/``black`` are the discs
# still in the box. If a disc is due and none is left, it is owed (``white_owed``/
# ``black_owed``): the award still counts, and a note is recorded once per kind.
# Returned whites settle owed ones first. Balance: ``white + whites in hands -
# white_owed == white_total`` (same for black).
class Supply:
    def __init__(self, white=WHITE_DISCS, black=BLACK_DISCS):
        if type(white) is not int or type(black) is not int or white < 0 or black < 0:
            raise ValueError("supply: disc counts must be ints >= 0")
        self.white_total = white
        self.black_total = black
        self.white = white
        self.black = black
        self.white_owed = 0
        self.black_owed = 0
        self.ran_out_white = False
        self.ran_out_black = False

    def take_white(self):
        if self.white:
            self.white -= 1
        else:
            self.white_owed += 1
            self.ran_out_white = True

    def take_black(self):
        if self.black:
            self.black -= 1
        else:
            self.black_owed += 1
            self.ran_out_black = True

    def return_white(self, n=1):
        for _ in range(n):
            if self.white_owed:
                self.white_owed -= 1
            else:
                self.white += 1

    @property
    def notes(self):
        out = []
        if self.ran_out_white:
            out.append("white discs ran out: awards still count")
        if self.ran_out_black:
            out.append("black discs ran out: awards still count")
        return out

    def to_list(self):
        # a save's compact form (fewer bytes to write and to hold: the save's text)
        return [self.white_total, self.black_total, self.white, self.black, self.white_owed, self.black_owed,
                int(self.ran_out_white), int(self.ran_out_black)]

    @classmethod
    def from_list(cls, v):
        if len(v) != 8:
            raise ValueError("supply: 8 numbers, got %d" % len(v))
        s = cls(v[0], v[1])
        for i in range(2, 6):
            if type(v[i]) is not int or v[i] < 0:
                raise ValueError("supply: its counts must be ints >= 0")
        s.white, s.black, s.white_owed, s.black_owed = v[2], v[3], v[4], v[5]
        s.ran_out_white = bool(v[6])
        s.ran_out_black = bool(v[7])
        return s


# One player's discs. ``handicap`` = whites that make one black (1..3).
class Discs:
    def __init__(self, handicap=DEFAULT_HANDICAP, white=0, black=0):
        if type(handicap) is not int or handicap < 1 or handicap > 3:
            raise ValueError("handicap must be 1..3, got %r" % (handicap,))
        if type(white) is not int or white < 0 or white >= handicap:
            raise ValueError("white discs must be 0..%d with handicap %d" % (handicap - 1, handicap))
        if type(black) is not int or black < 0:
            raise ValueError("black discs must be an int >= 0")
        self.handicap = handicap
        self.white = white
        self.black = black

    def award(self, supply=None):
        """A right answer: +1 white; reaching ``handicap`` whites swaps them for a black
        at once. Returns True when a black was made."""
        if self.white + 1 >= self.handicap:
            if supply is not None:
                supply.return_white(self.white)
                supply.take_black()
            self.white = 0
            self.black += 1
            return True
        self.white += 1
        if supply is not None:
            supply.take_white()
        return False

    def penalise(self, supply=None):
        """A wrong answer: hand back one white if any (blacks are never lost).
        Returns True when a white was handed back."""
        if self.white:
            self.white -= 1
            if supply is not None:
                supply.return_white(1)
            return True
        return False

    def to_list(self):
        return [self.white, self.black, self.handicap]

    @classmethod
    def from_list(cls, v):
        if len(v) != 3:
            raise ValueError("discs: 3 numbers, got %d" % len(v))
        return cls(v[2], v[0], v[1])

    def __eq__(self, other):
        return (
            isinstance(other, Discs)
            and self.white == other.white
            and self.black == other.black
            and self.handicap == other.handicap
        )

    def __repr__(self):
        return "Discs(handicap=%d, white=%d, black=%d)" % (self.handicap, self.white, self.black)


def won(discs, blacks_to_win=BLACKS_TO_WIN):
    """True once ``discs`` holds ``blacks_to_win`` black discs."""
    return discs.black >= blacks_to_win


# ---------------------------------------------------------------- bots


def bot_answer(rng, throw, brainteaser, error_rate_permille):
    """What a bot says: the right answer, or with probability
    ``error_rate_permille``/1000 a plausible wrong one (never the right answer).

    Always draws ``randbelow(1000)`` once, plus one draw to pick a wrong answer.
    Wrong answers, as people make them: counted a blocked die, skipped a counted
    die, used the other rule (normal vs brainteaser), off by one.
    """
    if type(error_rate_permille) is not int or error_rate_permille < 0 or error_rate_permille > 1000:
        raise ValueError("error_rate_permille must be 0..1000")
    throw = _sequence(throw)
    masks = _scan(throw)
    blocked_mask = masks & _ALL
    repeated_mask = masks >> _REPEAT_SHIFT
    teaser = bool(brainteaser and repeated_mask)
    right = _sum_pips(throw, blocked_mask, teaser)
    if rng.randbelow(1000) >= error_rate_permille:
        return right
    wrong = []
    for colour, face in throw:
        if colour != WHITE and type(face) is int:
            counted = ((_BIT[colour] & blocked_mask) != 0) == teaser
            wrong.append(right - face if counted else right + face)
    if repeated_mask:
        # mixed up the two rules
        wrong.append(_sum_pips(throw, blocked_mask, not teaser))
    wrong.append(right + 1)
    wrong.append(right - 1)
    # keep plausible ones only: not the right answer, not negative, no duplicates
    candidates = []
    for w in wrong:
        if w != right and w >= 0 and w not in candidates:
            candidates.append(w)
    return candidates[rng.randbelow(len(candidates))]


def bot_reaction_ns(rng, mean_ms, spread_ms):
    """A bot's reaction time in integer ns: ``mean_ms`` +/- up to ``spread_ms``,
    bell-shaped (mean of three uniform draws at 1 us resolution), at least 1 ms.
    Deterministic given the rng; draws ``randbelow`` three times."""
    if type(mean_ms) is not int or type(spread_ms) is not int or mean_ms < 0 or spread_ms < 0:
        raise ValueError("mean_ms and spread_ms must be ints >= 0")
    spread_us = spread_ms * 1000
    width = 2 * spread_us + 1
    offset = 0
    for _ in range(3):
        offset += rng.randbelow(width) - spread_us
    t = mean_ms * 1000000 + (offset // 3) * 1000
    if t < 1000000:
        t = 1000000
    return t
