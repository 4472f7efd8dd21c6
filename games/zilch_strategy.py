"""Zilch bots: a cautious one and one that maximises the expected turn score.

A bot is called after each roll that is not a Zilch:

    choice(roll, turn_points, rules=None, on_board=True, frozen=None, beat=0)
        -> (dice, bank) or None for a Zilch

``roll`` the faces just rolled, ``turn_points`` the turn's points before this set-aside,
``on_board`` whether the player has banked before (first bank needs ``rules.entry``),
``frozen`` the dice already set aside in this six-dice cycle (used with pyramiding),
``beat`` the previous player's last bank (used with overtaking). ``dice`` is a sorted
tuple of faces, one of zilch_rules.options(roll, rules, frozen); ``bank`` says whether
to bank after setting it aside (always legal; False when the player must roll).

The expected-value bot reads TABLES, computed offline by tools/zilch_table.py (see
docs/zilch_bot.md): for each number of dice to roll next (1..6) and turn points t (in
50s), the expected gain of rolling, playing on optimally, over banking t. Banking wins
when that gain is <= 0; a set-aside is chosen by comparing the expected final turn
results of the states it leads to. Integers only: runs on MicroPython/CircuitPython.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

from games.zilch_rules import CLASSIC, best, options

STEP = const(50)
ENTRY_TABLE_MIN = const(500)      # the minimum the ENTRY tables were computed for
CAUTIOUS_POINTS = const(300)
CAUTIOUS_FEW_DICE = const(3)

# BEGIN GENERATED TABLES (tools/zilch_table.py --write)
# Per scoring variant: (EXPECTED, GAIN, SLOPE, ENTRY); see docs/zilch_bot.md.
# EXPECTED = expected points per turn (ev on board, ev entry, cautious on board,
#   cautious entry). GAIN[n-1][t//50] = expected gain of rolling n dice over
#   banking t, minimum 350 (stored up to the first t where banking wins; beyond,
#   extrapolated with SLOPE[n-1] points per 10,000). ENTRY[n-1][t//50]: the same
#   for t < 500 before the first bank (minimum 500).
TABLES = {
    "classic": (
        (846, 841, 753, 744),
        (
            (300, 263, 227, 191, 155, 119, 84, 48, 13, -22),
            (249, 210, 171, 132, 93, 54, 15, -18),
            (257, 217, 178, 139, 99, 67, 45, 31, 16, 2, -12),
            (312, 274, 237, 203, 177, 161, 147, 134, 123, 114, 106, 98, 90, 82, 74, 66,
             58, 50, 42, 34, 26, 18, 10, 2, -6),
            (449, 419, 394, 376, 362, 349, 338, 328, 319, 310, 302, 294, 286, 278, 271,
             263, 256, 250, 244, 238, 232, 226, 220, 216, 212, 208, 204, 200, 196, 193,
             189, 185, 181, 177, 173, 169, 165, 161, 157, 153, 149, 145, 141, 137, 133,
             130, 126, 122, 118, 114, 110, 106, 102, 98, 94, 90, 86, 83, 79, 75, 71,
             67, 63, 59, 55, 51, 47, 43, 40, 36, 32, 28, 24, 20, 16, 12, 8, 4, 1, -3),
            (846, 831, 820, 810, 801, 793, 786, 779, 773, 767, 761, 755, 748, 742, 737,
             732, 727, 722, 717, 713, 708, 704, 700, 697, 693, 689, 686, 683, 679, 676,
             672, 669, 666, 662, 659, 655, 652, 649, 645, 642, 639, 636, 633, 630, 627,
             624, 621, 618, 615, 612, 608, 606, 603, 601, 598, 596, 593, 590, 588, 585,
             583, 580, 578, 575, 573, 571, 569, 567, 566, 564, 562, 560, 558, 556, 554,
             553, 551, 549, 548, 547, 545),
        ),
        (-6771, -4481, -2794, -1585, -779, -251),
        (
            (297, 261, 226, 190, 155, 119, 84, 48, 13, -22),
            (247, 209, 170, 132, 93, 54, 15, -23, -49, -67),
            (257, 217, 178, 139, 99, 60, 27, 4, 2, 2),
            (312, 274, 237, 199, 165, 138, 129, 128, 123, 114),
            (449, 416, 386, 360, 347, 342, 337, 328, 319, 310),
            (841, 822, 810, 804, 799, 793, 786, 779, 773, 767),
        ),
    ),
    "ten_thousand": (
        (590, 569, 541, 514),
        (
            (217, 181, 145, 110, 74, 39, 4, -32),
            (185, 146, 108, 69, 30, -1),
            (198, 158, 119, 83, 54, 40, 32, 18, 3, -11),
            (238, 202, 172, 153, 141, 130, 116, 105, 96, 88, 80, 72, 64, 56, 48, 40,
             32, 25, 17, 9, 1, -7),
            (319, 300, 286, 275, 263, 252, 242, 234, 226, 218, 211, 203, 195, 189, 182,
             176, 170, 164, 158, 153, 149, 145, 141, 138, 134, 130, 126, 122, 118, 114,
             110, 106, 102, 98, 94, 91, 87, 83, 79, 75, 71, 67, 63, 59, 55, 52, 48, 44,
             40, 36, 32, 28, 24, 20, 17, 13, 9, 5, 1, -3),
            (590, 582, 573, 565, 557, 551, 545, 539, 533, 527, 521, 516, 512, 507, 503,
             498, 494, 490, 486, 483, 480, 477, 474, 471, 468, 465, 462, 459, 455, 452,
             449, 447, 444, 441, 439, 436, 434, 431, 429, 426, 424, 421, 419, 416, 414,
             412, 410, 408, 406, 405, 403, 401, 399, 397, 395, 393, 391, 390, 389, 387,
             386),
        ),
        (-6764, -4477, -2793, -1584, -777, -251),
        (
            (210, 176, 143, 109, 74, 39, 4, -32, -67, -102),
            (183, 145, 107, 69, 30, -8, -47, -85, -93, -93),
            (197, 158, 119, 80, 41, 2, -23, -29, -17, -11),
            (237, 199, 163, 126, 96, 82, 88, 94, 94, 88),
            (311, 280, 254, 236, 235, 240, 239, 234, 226, 218),
            (569, 556, 553, 554, 554, 550, 545, 539, 533, 527),
        ),
    ),
    "five_thousand": (
        (467, 434, 413, 373),
        (
            (177, 140, 104, 69, 33, -2),
            (154, 115, 76, 37, -2),
            (167, 128, 89, 57, 37, 30, 25, 11, -4),
            (209, 176, 151, 140, 133, 122, 110, 100, 92, 84, 76, 68, 60, 52, 44, 36,
             28, 20, 12, 4, -4),
            (299, 286, 277, 267, 256, 245, 237, 229, 221, 213, 205, 197, 190, 184, 178,
             172, 166, 160, 154, 150, 146, 142, 138, 134, 130, 126, 122, 119, 115, 111,
             107, 103, 99, 95, 91, 87, 83, 79, 75, 72, 68, 64, 60, 56, 52, 48, 44, 40,
             36, 32, 29, 25, 21, 17, 13, 9, 5, 1, -3),
            (467, 459, 451, 442, 435, 428, 421, 415, 408, 402, 396, 391, 386, 381, 376,
             371, 366, 362, 359, 355, 352, 348, 345, 341, 338, 334, 331, 327, 324, 320,
             317, 314, 311, 308, 305, 302, 299, 296, 293, 290, 288, 285, 282, 279, 277,
             275, 272, 270, 268, 266, 264, 261, 259, 257, 255, 253, 251, 249, 247, 246),
        ),
        (-6787, -4467, -2793, -1581, -775, -317),
        (
            (166, 134, 101, 68, 33, -2, -38, -73, -109, -144),
            (150, 113, 75, 37, -2, -40, -79, -118, -116, -107),
            (167, 128, 89, 49, 10, -29, -49, -47, -27, -18),
            (208, 170, 134, 96, 70, 61, 75, 86, 88, 84),
            (284, 253, 229, 216, 221, 230, 233, 228, 221, 213),
            (434, 423, 424, 429, 430, 427, 421, 415, 408, 402),
        ),
    ),
}
# END GENERATED TABLES


def _tables(rules):
    """The tables of the rules' scoring variant; custom switch sets (four of a kind but
    no sets) use the classic tables (legality is always checked against the rules)."""
    variant = rules.variant()
    return TABLES[variant if variant in TABLES else "classic"]


def roll_gain(turn_points, dice_left, rules=None, on_board=True):
    """Expected gain, in points, of rolling ``dice_left`` dice now (and playing on
    optimally) over banking ``turn_points`` now. Positive: roll; <= 0: bank if allowed.
    ``dice_left`` is 6 at the start of the turn and after turning the corner."""
    if rules is None:
        rules = CLASSIC
    if dice_left < 1 or dice_left > 6:
        raise ValueError("dice_left is 1..6")
    _, gain, slope, entry = _tables(rules)
    i = turn_points // STEP
    if i < 0:
        i = 0
    if not on_board and turn_points < ENTRY_TABLE_MIN:
        return entry[dice_left - 1][i]
    row = gain[dice_left - 1]
    if i < len(row):
        return row[i]
    last = len(row) - 1
    return row[last] + ((turn_points - last * STEP) * slope[dice_left - 1] + 5000) // 10000


def hint(turn_points, dice_left, rules=None, on_board=True):
    """The on-screen hint: expected gain of rolling over banking, in points."""
    return roll_gain(turn_points, dice_left, rules, on_board)


def hint_text(turn_points, dice_left, rules=None, on_board=True, beat=0):
    """E.g. "bank: expected gain of rolling is -40" (or "roll: ...", "must roll: ...")."""
    if rules is None:
        rules = CLASSIC
    g = roll_gain(turn_points, dice_left, rules, on_board)
    if not rules.can_bank(turn_points, dice_left, on_board, beat):
        verb = "must roll"
    elif g > 0:
        verb = "roll"
    else:
        verb = "bank"
    sign = "+" if g > 0 else ""
    return "%s: expected gain of rolling is %s%d" % (verb, sign, g)


def expected_value(turn_points, dice_left, rules=None, on_board=True, beat=0):
    """Expected final result of the turn from this state for the expected-value bot."""
    if rules is None:
        rules = CLASSIC
    g = roll_gain(turn_points, dice_left, rules, on_board)
    if g < 0 and rules.can_bank(turn_points, dice_left, on_board, beat):
        g = 0
    return turn_points + g


def ev_should_bank(turn_points, dice_left, rules=None, on_board=True, beat=0):
    """Bank when allowed and rolling is not expected to gain anything."""
    if rules is None:
        rules = CLASSIC
    return (rules.can_bank(turn_points, dice_left, on_board, beat)
            and roll_gain(turn_points, dice_left, rules, on_board) <= 0)


def ev_choice(roll, turn_points, rules=None, on_board=True, frozen=None, beat=0):
    """The set-aside with the best expected final turn result (ties: the menu order,
    i.e. more points, then fewer dice), and whether to bank after it."""
    if rules is None:
        rules = CLASSIC
    top = None
    top_value = 0
    for dice, points in options(roll, rules, frozen):
        left = len(roll) - len(dice) or 6
        value = expected_value(turn_points + points, left, rules, on_board, beat)
        if top is None or value > top_value:
            top = (dice, turn_points + points, left)
            top_value = value
    if top is None:
        return None
    dice, points, left = top
    return dice, ev_should_bank(points, left, rules, on_board, beat)


def cautious_should_bank(turn_points, dice_left, rules=None, on_board=True, beat=0):
    """The cautious rule: bank as soon as banking is legal and the turn has at least 300
    points or fewer than 3 dice are left (with the usual minimums of 350 and 500 this is
    simply: bank as soon as it is allowed)."""
    if rules is None:
        rules = CLASSIC
    return (rules.can_bank(turn_points, dice_left, on_board, beat)
            and (turn_points >= CAUTIOUS_POINTS or dice_left < CAUTIOUS_FEW_DICE))


def cautious_choice(roll, turn_points, rules=None, on_board=True, frozen=None, beat=0):
    """The highest-scoring set-aside (ties: fewer dice), then the cautious bank rule."""
    top = best(roll, rules, frozen)
    if top is None:
        return None
    dice, points = top
    left = len(roll) - len(dice) or 6
    return dice, cautious_should_bank(turn_points + points, left, rules, on_board, beat)


BOTS = {"cautious": cautious_choice, "ev": ev_choice}


def expected_points_per_turn(rules=None, on_board=True, bot="ev"):
    """Expected points of one turn, from the offline computation: for the "ev" or
    "cautious" bot, once on the board (minimum 350) or for a first bank (minimum 500).
    Exact for the presets' scoring without pyramiding, challenge or overtaking."""
    if rules is None:
        rules = CLASSIC
    expected = _tables(rules)[0]
    index = (0 if bot == "ev" else 2) + (0 if on_board else 1)
    if bot not in BOTS:
        raise ValueError("unknown bot %r" % (bot,))
    return expected[index]
