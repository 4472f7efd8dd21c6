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

from games.zilch_rules import CLASSIC, best, options
from referee.core import const

STEP = const(50)
ENTRY_TABLE_MIN = const(500)      # the minimum the ENTRY tables were computed for
CAUTIOUS_POINTS = const(300)
CAUTIOUS_FEW_DICE = const(3)

# BEGIN GENERATED TABLES (tools/zilch_table.py --write)
# Per scoring variant: (EXPECTED, START, SLOPE, DATA); see docs/zilch_bot.md.
# EXPECTED: expected points per turn (ev on board, ev first bank, cautious on
#   board, cautious first bank). DATA: signed 16-bit little-endian gains, 12 rows
#   with row r at entries START[r] .. START[r+1]-1. Rows 0-5 (n = 1..6 dice to
#   roll): GAIN(t) = expected gain of rolling over banking t = 0, 50, 100, ...
#   with the 350 minimum, stored up to the first t where banking wins; beyond
#   the last entry it falls by SLOPE[n-1] points per 10,000 points. Rows 6-11:
#   the same for t < 500 before the first bank (minimum 500).
TABLES = {
    "classic": (
        (846, 841, 753, 744),
        (0, 10, 18, 29, 54, 134, 215, 225, 235, 245, 255, 265, 275),
        (-6771, -4481, -2794, -1585, -779, -251),
        (
            b"\x2c\x01\x07\x01\xe3\x00\xbf\x00\x9b\x00\x77\x00\x54\x00\x30\x00"  # n=1
            b"\x0d\x00\xea\xff"
            b"\xf9\x00\xd2\x00\xab\x00\x84\x00\x5d\x00\x36\x00\x0f\x00\xee\xff"  # n=2
            b"\x01\x01\xd9\x00\xb2\x00\x8b\x00\x63\x00\x43\x00\x2d\x00\x1f\x00"  # n=3
            b"\x10\x00\x02\x00\xf4\xff"
            b"\x38\x01\x12\x01\xed\x00\xcb\x00\xb1\x00\xa1\x00\x93\x00\x86\x00"  # n=4
            b"\x7b\x00\x72\x00\x6a\x00\x62\x00\x5a\x00\x52\x00\x4a\x00\x42\x00"
            b"\x3a\x00\x32\x00\x2a\x00\x22\x00\x1a\x00\x12\x00\x0a\x00\x02\x00"
            b"\xfa\xff"
            b"\xc1\x01\xa3\x01\x8a\x01\x78\x01\x6a\x01\x5d\x01\x52\x01\x48\x01"  # n=5
            b"\x3f\x01\x36\x01\x2e\x01\x26\x01\x1e\x01\x16\x01\x0f\x01\x07\x01"
            b"\x00\x01\xfa\x00\xf4\x00\xee\x00\xe8\x00\xe2\x00\xdc\x00\xd8\x00"
            b"\xd4\x00\xd0\x00\xcc\x00\xc8\x00\xc4\x00\xc1\x00\xbd\x00\xb9\x00"
            b"\xb5\x00\xb1\x00\xad\x00\xa9\x00\xa5\x00\xa1\x00\x9d\x00\x99\x00"
            b"\x95\x00\x91\x00\x8d\x00\x89\x00\x85\x00\x82\x00\x7e\x00\x7a\x00"
            b"\x76\x00\x72\x00\x6e\x00\x6a\x00\x66\x00\x62\x00\x5e\x00\x5a\x00"
            b"\x56\x00\x53\x00\x4f\x00\x4b\x00\x47\x00\x43\x00\x3f\x00\x3b\x00"
            b"\x37\x00\x33\x00\x2f\x00\x2b\x00\x28\x00\x24\x00\x20\x00\x1c\x00"
            b"\x18\x00\x14\x00\x10\x00\x0c\x00\x08\x00\x04\x00\x01\x00\xfd\xff"
            b"\x4e\x03\x3f\x03\x34\x03\x2a\x03\x21\x03\x19\x03\x12\x03\x0b\x03"  # n=6
            b"\x05\x03\xff\x02\xf9\x02\xf3\x02\xec\x02\xe6\x02\xe1\x02\xdc\x02"
            b"\xd7\x02\xd2\x02\xcd\x02\xc9\x02\xc4\x02\xc0\x02\xbc\x02\xb9\x02"
            b"\xb5\x02\xb1\x02\xae\x02\xab\x02\xa7\x02\xa4\x02\xa0\x02\x9d\x02"
            b"\x9a\x02\x96\x02\x93\x02\x8f\x02\x8c\x02\x89\x02\x85\x02\x82\x02"
            b"\x7f\x02\x7c\x02\x79\x02\x76\x02\x73\x02\x70\x02\x6d\x02\x6a\x02"
            b"\x67\x02\x64\x02\x60\x02\x5e\x02\x5b\x02\x59\x02\x56\x02\x54\x02"
            b"\x51\x02\x4e\x02\x4c\x02\x49\x02\x47\x02\x44\x02\x42\x02\x3f\x02"
            b"\x3d\x02\x3b\x02\x39\x02\x37\x02\x36\x02\x34\x02\x32\x02\x30\x02"
            b"\x2e\x02\x2c\x02\x2a\x02\x29\x02\x27\x02\x25\x02\x24\x02\x23\x02"
            b"\x21\x02"
            b"\x29\x01\x05\x01\xe2\x00\xbe\x00\x9b\x00\x77\x00\x54\x00\x30\x00"  # n=1, first bank
            b"\x0d\x00\xea\xff"
            b"\xf7\x00\xd1\x00\xaa\x00\x84\x00\x5d\x00\x36\x00\x0f\x00\xe9\xff"  # n=2, first bank
            b"\xcf\xff\xbd\xff"
            b"\x01\x01\xd9\x00\xb2\x00\x8b\x00\x63\x00\x3c\x00\x1b\x00\x04\x00"  # n=3, first bank
            b"\x02\x00\x02\x00"
            b"\x38\x01\x12\x01\xed\x00\xc7\x00\xa5\x00\x8a\x00\x81\x00\x80\x00"  # n=4, first bank
            b"\x7b\x00\x72\x00"
            b"\xc1\x01\xa0\x01\x82\x01\x68\x01\x5b\x01\x56\x01\x51\x01\x48\x01"  # n=5, first bank
            b"\x3f\x01\x36\x01"
            b"\x49\x03\x36\x03\x2a\x03\x24\x03\x1f\x03\x19\x03\x12\x03\x0b\x03"  # n=6, first bank
            b"\x05\x03\xff\x02"
        ),
    ),
    "ten_thousand": (
        (590, 569, 541, 514),
        (0, 8, 14, 24, 46, 106, 167, 177, 187, 197, 207, 217, 227),
        (-6764, -4477, -2793, -1584, -777, -251),
        (
            b"\xd9\x00\xb5\x00\x91\x00\x6e\x00\x4a\x00\x27\x00\x04\x00\xe0\xff"  # n=1
            b"\xb9\x00\x92\x00\x6c\x00\x45\x00\x1e\x00\xff\xff"  # n=2
            b"\xc6\x00\x9e\x00\x77\x00\x53\x00\x36\x00\x28\x00\x20\x00\x12\x00"  # n=3
            b"\x03\x00\xf5\xff"
            b"\xee\x00\xca\x00\xac\x00\x99\x00\x8d\x00\x82\x00\x74\x00\x69\x00"  # n=4
            b"\x60\x00\x58\x00\x50\x00\x48\x00\x40\x00\x38\x00\x30\x00\x28\x00"
            b"\x20\x00\x19\x00\x11\x00\x09\x00\x01\x00\xf9\xff"
            b"\x3f\x01\x2c\x01\x1e\x01\x13\x01\x07\x01\xfc\x00\xf2\x00\xea\x00"  # n=5
            b"\xe2\x00\xda\x00\xd3\x00\xcb\x00\xc3\x00\xbd\x00\xb6\x00\xb0\x00"
            b"\xaa\x00\xa4\x00\x9e\x00\x99\x00\x95\x00\x91\x00\x8d\x00\x8a\x00"
            b"\x86\x00\x82\x00\x7e\x00\x7a\x00\x76\x00\x72\x00\x6e\x00\x6a\x00"
            b"\x66\x00\x62\x00\x5e\x00\x5b\x00\x57\x00\x53\x00\x4f\x00\x4b\x00"
            b"\x47\x00\x43\x00\x3f\x00\x3b\x00\x37\x00\x34\x00\x30\x00\x2c\x00"
            b"\x28\x00\x24\x00\x20\x00\x1c\x00\x18\x00\x14\x00\x11\x00\x0d\x00"
            b"\x09\x00\x05\x00\x01\x00\xfd\xff"
            b"\x4e\x02\x46\x02\x3d\x02\x35\x02\x2d\x02\x27\x02\x21\x02\x1b\x02"  # n=6
            b"\x15\x02\x0f\x02\x09\x02\x04\x02\x00\x02\xfb\x01\xf7\x01\xf2\x01"
            b"\xee\x01\xea\x01\xe6\x01\xe3\x01\xe0\x01\xdd\x01\xda\x01\xd7\x01"
            b"\xd4\x01\xd1\x01\xce\x01\xcb\x01\xc7\x01\xc4\x01\xc1\x01\xbf\x01"
            b"\xbc\x01\xb9\x01\xb7\x01\xb4\x01\xb2\x01\xaf\x01\xad\x01\xaa\x01"
            b"\xa8\x01\xa5\x01\xa3\x01\xa0\x01\x9e\x01\x9c\x01\x9a\x01\x98\x01"
            b"\x96\x01\x95\x01\x93\x01\x91\x01\x8f\x01\x8d\x01\x8b\x01\x89\x01"
            b"\x87\x01\x86\x01\x85\x01\x83\x01\x82\x01"
            b"\xd2\x00\xb0\x00\x8f\x00\x6d\x00\x4a\x00\x27\x00\x04\x00\xe0\xff"  # n=1, first bank
            b"\xbd\xff\x9a\xff"
            b"\xb7\x00\x91\x00\x6b\x00\x45\x00\x1e\x00\xf8\xff\xd1\xff\xab\xff"  # n=2, first bank
            b"\xa3\xff\xa3\xff"
            b"\xc5\x00\x9e\x00\x77\x00\x50\x00\x29\x00\x02\x00\xe9\xff\xe3\xff"  # n=3, first bank
            b"\xef\xff\xf5\xff"
            b"\xed\x00\xc7\x00\xa3\x00\x7e\x00\x60\x00\x52\x00\x58\x00\x5e\x00"  # n=4, first bank
            b"\x5e\x00\x58\x00"
            b"\x37\x01\x18\x01\xfe\x00\xec\x00\xeb\x00\xf0\x00\xef\x00\xea\x00"  # n=5, first bank
            b"\xe2\x00\xda\x00"
            b"\x39\x02\x2c\x02\x29\x02\x2a\x02\x2a\x02\x26\x02\x21\x02\x1b\x02"  # n=6, first bank
            b"\x15\x02\x0f\x02"
        ),
    ),
    "five_thousand": (
        (467, 434, 413, 373),
        (0, 6, 11, 20, 41, 100, 160, 170, 180, 190, 200, 210, 220),
        (-6787, -4467, -2793, -1581, -775, -317),
        (
            b"\xb1\x00\x8c\x00\x68\x00\x45\x00\x21\x00\xfe\xff"  # n=1
            b"\x9a\x00\x73\x00\x4c\x00\x25\x00\xfe\xff"  # n=2
            b"\xa7\x00\x80\x00\x59\x00\x39\x00\x25\x00\x1e\x00\x19\x00\x0b\x00"  # n=3
            b"\xfc\xff"
            b"\xd1\x00\xb0\x00\x97\x00\x8c\x00\x85\x00\x7a\x00\x6e\x00\x64\x00"  # n=4
            b"\x5c\x00\x54\x00\x4c\x00\x44\x00\x3c\x00\x34\x00\x2c\x00\x24\x00"
            b"\x1c\x00\x14\x00\x0c\x00\x04\x00\xfc\xff"
            b"\x2b\x01\x1e\x01\x15\x01\x0b\x01\x00\x01\xf5\x00\xed\x00\xe5\x00"  # n=5
            b"\xdd\x00\xd5\x00\xcd\x00\xc5\x00\xbe\x00\xb8\x00\xb2\x00\xac\x00"
            b"\xa6\x00\xa0\x00\x9a\x00\x96\x00\x92\x00\x8e\x00\x8a\x00\x86\x00"
            b"\x82\x00\x7e\x00\x7a\x00\x77\x00\x73\x00\x6f\x00\x6b\x00\x67\x00"
            b"\x63\x00\x5f\x00\x5b\x00\x57\x00\x53\x00\x4f\x00\x4b\x00\x48\x00"
            b"\x44\x00\x40\x00\x3c\x00\x38\x00\x34\x00\x30\x00\x2c\x00\x28\x00"
            b"\x24\x00\x20\x00\x1d\x00\x19\x00\x15\x00\x11\x00\x0d\x00\x09\x00"
            b"\x05\x00\x01\x00\xfd\xff"
            b"\xd3\x01\xcb\x01\xc3\x01\xba\x01\xb3\x01\xac\x01\xa5\x01\x9f\x01"  # n=6
            b"\x98\x01\x92\x01\x8c\x01\x87\x01\x82\x01\x7d\x01\x78\x01\x73\x01"
            b"\x6e\x01\x6a\x01\x67\x01\x63\x01\x60\x01\x5c\x01\x59\x01\x55\x01"
            b"\x52\x01\x4e\x01\x4b\x01\x47\x01\x44\x01\x40\x01\x3d\x01\x3a\x01"
            b"\x37\x01\x34\x01\x31\x01\x2e\x01\x2b\x01\x28\x01\x25\x01\x22\x01"
            b"\x20\x01\x1d\x01\x1a\x01\x17\x01\x15\x01\x13\x01\x10\x01\x0e\x01"
            b"\x0c\x01\x0a\x01\x08\x01\x05\x01\x03\x01\x01\x01\xff\x00\xfd\x00"
            b"\xfb\x00\xf9\x00\xf7\x00\xf6\x00"
            b"\xa6\x00\x86\x00\x65\x00\x44\x00\x21\x00\xfe\xff\xda\xff\xb7\xff"  # n=1, first bank
            b"\x93\xff\x70\xff"
            b"\x96\x00\x71\x00\x4b\x00\x25\x00\xfe\xff\xd8\xff\xb1\xff\x8a\xff"  # n=2, first bank
            b"\x8c\xff\x95\xff"
            b"\xa7\x00\x80\x00\x59\x00\x31\x00\x0a\x00\xe3\xff\xcf\xff\xd1\xff"  # n=3, first bank
            b"\xe5\xff\xee\xff"
            b"\xd0\x00\xaa\x00\x86\x00\x60\x00\x46\x00\x3d\x00\x4b\x00\x56\x00"  # n=4, first bank
            b"\x58\x00\x54\x00"
            b"\x1c\x01\xfd\x00\xe5\x00\xd8\x00\xdd\x00\xe6\x00\xe9\x00\xe4\x00"  # n=5, first bank
            b"\xdd\x00\xd5\x00"
            b"\xb2\x01\xa7\x01\xa8\x01\xad\x01\xae\x01\xab\x01\xa5\x01\x9f\x01"  # n=6, first bank
            b"\x98\x01\x92\x01"
        ),
    ),
}
# END GENERATED TABLES


def _tables(rules):
    """The tables of the rules' scoring variant; custom switch sets (four of a kind but
    no sets) use the classic tables (legality is always checked against the rules)."""
    variant = rules.variant()
    return TABLES[variant if variant in TABLES else "classic"]


def _entry(data, k):
    """The k-th signed 16-bit little-endian value of ``data``."""
    v = data[2 * k] | (data[2 * k + 1] << 8)
    return v - 0x10000 if v & 0x8000 else v


def stored_gains(dice_left, rules=None, on_board=True):
    """The stored row of rolling gains for ``dice_left`` dice: t = 0, 50, 100, ...
    (on the board: minimum 350; otherwise the first-bank row, t < 500 only)."""
    if rules is None:
        rules = CLASSIC
    _, start, _, data = _tables(rules)
    r = dice_left - 1 if on_board else dice_left + 5
    return [_entry(data, k) for k in range(start[r], start[r + 1])]


def roll_gain(turn_points, dice_left, rules=None, on_board=True):
    """Expected gain, in points, of rolling ``dice_left`` dice now (and playing on
    optimally) over banking ``turn_points`` now. Positive: roll; <= 0: bank if allowed.
    ``dice_left`` is 6 at the start of the turn and after turning the corner."""
    if rules is None:
        rules = CLASSIC
    if dice_left < 1 or dice_left > 6:
        raise ValueError("dice_left is 1..6")
    _, start, slope, data = _tables(rules)
    i = turn_points // STEP
    if i < 0:
        i = 0
    if not on_board and turn_points < ENTRY_TABLE_MIN:
        return _entry(data, start[dice_left + 5] + i)
    first = start[dice_left - 1]
    last = start[dice_left] - 1 - first
    if i <= last:
        return _entry(data, first + i)
    return _entry(data, first + last) + (
        (turn_points - last * STEP) * slope[dice_left - 1] + 5000) // 10000


def hint(turn_points, dice_left, rules=None, on_board=True):
    """The on-screen hint: expected gain of rolling over banking, in points."""
    return roll_gain(turn_points, dice_left, rules, on_board)


def hint_text(turn_points, dice_left, rules=None, on_board=True, beat=0):
    """The hint line, short enough for the screen at scale 2: "hint: bank (-40)",
    "hint: roll (+13)" or, when the rules do not let the player bank yet, "can't
    bank: roll" (no number: there is no choice to weigh); the number is the
    expected gain of rolling on (``roll_gain``)."""
    if rules is None:
        rules = CLASSIC
    g = roll_gain(turn_points, dice_left, rules, on_board)
    if not rules.can_bank(turn_points, dice_left, on_board, beat):
        return "can't bank: roll"
    if g > 0:
        verb = "hint: roll"
    else:
        verb = "hint: bank"
    sign = "+" if g > 0 else ""
    return "%s (%s%d)" % (verb, sign, g)


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


def ev_choice(roll, turn_points, rules=None, on_board=True, frozen=None, beat=0, found=None):
    """The set-aside with the best expected final turn result (ties: the menu order,
    i.e. more points, then fewer dice), and whether to bank after it. ``found``:
    ``options(roll, rules, frozen)`` if known already (the game's, worked out during
    the tumble)."""
    if rules is None:
        rules = CLASSIC
    if found is None:
        found = options(roll, rules, frozen)
    top = None
    top_value = 0
    for dice, points in found:
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


def cautious_choice(roll, turn_points, rules=None, on_board=True, frozen=None, beat=0, found=None):
    """The highest-scoring set-aside (ties: fewer dice), then the cautious bank rule
    (``found``: as ``ev_choice``'s)."""
    top = best(roll, rules, frozen, found)
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
