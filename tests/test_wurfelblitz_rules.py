"""Würfelblitz rules: dice table, score(), explain(), roll(), discs, bot model.

Bounds on answers (proved here, checked by the property tests, and shown tight by
explicit throws):

* Total pips of the six coloured dice <= 35: each die shows at most 6, and the red
  die's 6 is a dot (default table), so 5*6 + 5.
* Normal answer: 0..35 in general; 0..30 as soon as any dot shows (in particular
  with 1+ white dice, which always show a dot). A dot blocks some colour, and that
  die adds nothing, so at most five dice add at most 6 each. 30 is reached with
  both white dice on red and the other five dice on 6.
* Brainteaser answer when it applies (a dot colour shows twice): let w = white dice
  and d = coloured dice showing a dot. A die adds only if it shows pips and is
  blocked; blocked colours number at most w + d - 1 (one dot is a repeat) and
  pip-showing dice at most 6 - d, so at most max over d of 6 * min(w+d-1, 6-d) =
  18 for w <= 2 and 24 for w = 3. Both are reached (see the tight tests). An
  exhaustive enumeration of all 6^6 coloured faces x all white multisets agrees
  (run once while writing these tests; too slow to repeat here).
"""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.wurfelblitz_rules import (
    COLOURED_DICE,
    COLOURS,
    DOT_SWAPS,
    WHITE,
    WHITE_DIE,
    Discs,
    Supply,
    blocked,
    bot_answer,
    bot_reaction_ns,
    brainteaser_applies,
    build_dice,
    explain,
    repeated,
    roll,
    score,
    total_pips,
    won,
)

# Property tests: derandomized (same examples every run) and no deadline (the
# machine is shared, so timing must not decide a result).
PROPERTY = settings(derandomize=True, deadline=None, max_examples=100)

# ------------------------------------------------------------ helpers


class StandInRng:
    """A tiny deterministic LCG with randbelow(n); counts its draws."""

    def __init__(self, seed=1):
        self.state = (seed * 6364136223846793005 + 1442695040888963407) & (2**64 - 1)
        self.draws = 0

    def randbelow(self, n):
        self.draws += 1
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) & (2**64 - 1)
        return (self.state >> 33) % n


def oracle(throw, brainteaser=False):
    """The rule, written the plain way with sets and counts."""
    dots = [f for _, f in throw if isinstance(f, str)]
    blocked_set = set(dots)
    teaser = brainteaser and any(dots.count(c) >= 2 for c in blocked_set)
    return sum(
        f
        for c, f in throw
        if c != WHITE and isinstance(f, int) and ((c in blocked_set) == teaser)
    )


def blocked_pips(throw):
    dots = {f for _, f in throw if isinstance(f, str)}
    return sum(f for c, f in throw if c != WHITE and isinstance(f, int) and c in dots)


def make(coloured, whites=()):
    """A throw from {colour: face} and a list of white dots."""
    return [(c, coloured[c]) for c in COLOURS if c in coloured] + [(WHITE, w) for w in whites]


@st.composite
def throws(draw, min_whites=0, max_whites=3, partial=False):
    faces = [draw(st.sampled_from(COLOURED_DICE[c])) for c in COLOURS]
    whites = draw(st.lists(st.sampled_from(WHITE_DIE), min_size=min_whites, max_size=max_whites))
    throw = list(zip(COLOURS, faces)) + [(WHITE, w) for w in whites]
    if partial:
        keep = draw(st.lists(st.booleans(), min_size=len(throw), max_size=len(throw)))
        throw = [d for d, k in zip(throw, keep) if k]
    return draw(st.permutations(throw))


# ------------------------------------------------------------ dice table


def test_default_table_gives_these_dice():
    assert COLOURED_DICE == {
        "orange": ("blue", 2, 3, 4, 5, 6),
        "blue": (1, "black", 3, 4, 5, 6),
        "black": (1, 2, "yellow", 4, 5, 6),
        "yellow": (1, 2, 3, "green", 5, 6),
        "green": (1, 2, 3, 4, "red", 6),
        "red": (1, 2, 3, 4, 5, "orange"),
    }
    assert WHITE_DIE == ("orange", "blue", "black", "yellow", "green", "red")
    assert COLOURS == ("orange", "blue", "black", "yellow", "green", "red")


def test_each_coloured_die_follows_its_table_row():
    for colour, pip, dot in DOT_SWAPS:
        die = COLOURED_DICE[colour]
        assert len(die) == 6
        assert [f for f in die if isinstance(f, str)] == [dot]
        assert dot != colour and dot in COLOURS
        assert sorted(f for f in die if isinstance(f, int)) == [v for v in range(1, 7) if v != pip]
    assert sorted(COLOURED_DICE) == sorted(COLOURS)


def test_build_dice_follows_an_edited_table():
    edited = (("orange", 6, "red"),) + DOT_SWAPS[1:]
    dice = build_dice(edited)
    assert dice["orange"] == (1, 2, 3, 4, 5, "red")
    assert dice["blue"] == COLOURED_DICE["blue"]


@pytest.mark.parametrize(
    "table, message",
    [
        (DOT_SWAPS[:5], "no row for the red die"),
        (DOT_SWAPS + (("red", 1, "blue"),), "listed twice"),
        ((("pink", 1, "blue"),) + DOT_SWAPS[1:], "unknown die colour"),
        ((("orange", 0, "blue"),) + DOT_SWAPS[1:], "replaced pip must be 1..6"),
        ((("orange", 1, "orange"),) + DOT_SWAPS[1:], "another die's colour"),
        ((("orange", 1, "white"),) + DOT_SWAPS[1:], "another die's colour"),
    ],
)
def test_build_dice_rejects_bad_tables(table, message):
    with pytest.raises(ValueError, match=message):
        build_dice(table)


# ------------------------------------------------------------ the rule text's examples

# "black and green are not counted -> 3+4+1 = 8": two white dice on black; the
# yellow die shows its green dot; orange 3, blue 4, red 1 count.
EXAMPLE_8 = make(
    {"orange": 3, "blue": 4, "black": 5, "yellow": "green", "green": 6, "red": 1},
    ["black", "black"],
)
# "all dice with pips are excluded -> zero".
EXAMPLE_ZERO = make(
    {"orange": "blue", "blue": "black", "black": "yellow", "yellow": 2, "green": "red", "red": 5},
    ["orange", "green"],
)
# Brainteaser: "green shows twice -> only green and black count: 4+4 = 8".
EXAMPLE_TEASER = make(
    {"orange": 2, "blue": 6, "black": 4, "yellow": "green", "green": 4, "red": 3},
    ["green", "black"],
)


def test_example_black_and_green_blocked_is_8():
    assert blocked(EXAMPLE_8) == ("black", "green")
    assert score(EXAMPLE_8) == 8
    assert explain(EXAMPLE_8) == "blocked: black, green -> 3+4+1 = 8"


def test_example_everything_blocked_is_zero():
    assert blocked(EXAMPLE_ZERO) == COLOURS
    assert score(EXAMPLE_ZERO) == 0
    assert score(EXAMPLE_ZERO, brainteaser=True) == 0  # no colour shows twice
    assert explain(EXAMPLE_ZERO) == "blocked: all -> 0"


def test_example_brainteaser_green_twice_is_8():
    assert repeated(EXAMPLE_TEASER) == ("green",)
    assert brainteaser_applies(EXAMPLE_TEASER)
    assert score(EXAMPLE_TEASER, brainteaser=True) == 8
    assert score(EXAMPLE_TEASER) == 2 + 6 + 3  # the normal answer of the same throw
    assert explain(EXAMPLE_TEASER, True) == "green x2, count blocked: black, green -> 4+4 = 8"
    assert explain(EXAMPLE_TEASER) == "blocked: black, green -> 2+6+3 = 11"


# ------------------------------------------------------------ hand-made cases

ALL_SIXES = {"orange": 6, "blue": 6, "black": 6, "yellow": 6, "green": 6, "red": 5}


@pytest.mark.parametrize(
    "throw, normal, teaser",
    [
        # no dot anywhere (no white dice): everything counts; the brainteaser cannot apply
        (make(ALL_SIXES), 35, 35),
        # white dice only: nothing to count
        ([(WHITE, "red"), (WHITE, "red")], 0, 0),
        ([], 0, 0),
        # both whites on red (a duplicate): red blocked; the brainteaser counts red alone
        (make(ALL_SIXES, ["red", "red"]), 30, 5),
        # whites on two colours, no repeat: brainteaser changes nothing
        (make(ALL_SIXES, ["orange", "blue"]), 23, 23),
        # a coloured die's dot blocks another die: orange shows blue -> blue blocked
        (make(dict(ALL_SIXES, orange="blue"), ["red", "green"]), 6 + 6, 6 + 6),
        # ...and the same dot on a white die makes blue a repeat: count blue + red
        (make(dict(ALL_SIXES, orange="blue"), ["red", "blue"]), 6 + 6 + 6, 6 + 5),
        # a blocked die that itself shows a dot adds nothing either way: red shows
        # its orange dot and is blocked by the whites; the brainteaser counts orange only
        (make(dict(ALL_SIXES, red="orange"), ["red", "red"]), 6 + 6 + 6 + 6, 6),
        # a dot colour three times
        (make(ALL_SIXES, ["yellow", "yellow", "yellow"]), 29, 6),
        # two colours repeated at once: both colours' dice count
        (make(dict(ALL_SIXES, orange="blue", black="yellow"), ["blue", "yellow", "green"]), 5, 18),
        # zero is a valid normal answer while the brainteaser one is not zero
        (make({"orange": 2, "blue": 3}, ["orange", "blue", "blue"]), 0, 5),
        # a partial throw: missing dice count nothing
        (make({"green": 4, "red": 2}, ["orange"]), 6, 6),
    ],
)
def test_hand_made_throws(throw, normal, teaser):
    assert score(throw) == normal
    assert score(throw, brainteaser=False) == normal
    assert score(throw, brainteaser=True) == teaser
    assert oracle(throw) == normal and oracle(throw, True) == teaser


def test_two_versus_three_white_dice():
    coloured = {"orange": 4, "blue": 3, "black": 6, "yellow": 1, "green": 2, "red": 5}
    two = make(coloured, ["black", "green"])
    three = make(coloured, ["black", "green", "orange"])
    assert score(two) == 4 + 3 + 1 + 5
    assert score(three) == 3 + 1 + 5
    assert not brainteaser_applies(three)
    assert score(three, True) == score(three)
    three_dup = make(coloured, ["black", "green", "green"])
    assert score(three_dup) == score(two)
    assert score(three_dup, True) == 6 + 2


def test_order_of_dice_does_not_matter_and_any_sequence_is_accepted():
    t = EXAMPLE_TEASER
    assert score(list(reversed(t)), True) == 8
    assert score(tuple(t), True) == 8
    assert score(iter(t), True) == 8
    assert score([list(d) for d in t], True) == 8
    assert explain(iter(t), True) == explain(t, True)


def test_tight_bounds_are_reached():
    assert total_pips(make(ALL_SIXES)) == 35
    assert score(make(ALL_SIXES, ["red", "red"])) == 30
    assert score(make(ALL_SIXES, ["red", "red", "red"])) == 30
    two = make(dict(ALL_SIXES, red="orange", black="yellow"), ["green", "green"])
    assert brainteaser_applies(two) and score(two, True) == 18
    three = make(dict(ALL_SIXES, red="orange", black="yellow"), ["blue", "green", "green"])
    assert brainteaser_applies(three) and score(three, True) == 24


# ------------------------------------------------------------ invalid throws


@pytest.mark.parametrize(
    "throw, message",
    [
        ([("orange", 1)], "orange die has no 1 face"),
        ([("blue", 2)], "blue die has no 2 face"),
        ([("red", 6)], "red die has no 6 face"),
        ([("orange", "red")], "orange die has no red dot .its dot is blue"),
        ([("orange", "orange")], "no orange dot"),
        ([("pink", 3)], "unknown die colour 'pink'"),
        ([("White", "red")], "unknown die colour"),
        ([(3, 3)], "unknown die colour"),
        ([("white", 3)], "white dice show only colour dots"),
        ([("white", "purple")], "unknown dot colour 'purple'"),
        ([("white", "white")], "unknown dot colour"),
        ([("green", 0)], "pips must be 1..6"),
        ([("green", 7)], "pips must be 1..6"),
        ([("green", -1)], "pips must be 1..6"),
        ([("green", 2.0)], "face must be pips"),
        ([("green", True)], "face must be pips"),
        ([("green", None)], "face must be pips"),
        ([("green",)], r"\(colour, face\) pair"),
        ([("green", 2, 3)], r"\(colour, face\) pair"),
        (["green"], r"\(colour, face\) pair"),
        ([5], r"\(colour, face\) pair"),
        ([("blue", 3), ("blue", 4)], "blue die appears twice"),
    ],
)
def test_invalid_throws_raise_value_error(throw, message):
    good = [(WHITE, "red"), ("yellow", 2)]
    for bad in (throw, good + throw):
        for fn in (score, blocked, repeated, brainteaser_applies, explain, total_pips):
            with pytest.raises(ValueError, match=message):
                fn(bad)
        with pytest.raises(ValueError, match=message):
            score(bad, brainteaser=True)


# ------------------------------------------------------------ properties


@PROPERTY
@given(throws(), st.booleans())
def test_score_matches_the_plain_rule(throw, teaser):
    assert score(throw, teaser) == oracle(throw, teaser)


@PROPERTY
@given(throws(partial=True), st.booleans())
def test_partial_throws_match_the_plain_rule(throw, teaser):
    assert score(throw, teaser) == oracle(throw, teaser)


@PROPERTY
@given(throws())
def test_normal_answer_bounds(throw):
    normal = score(throw)
    assert 0 <= normal <= total_pips(throw) <= 35
    if any(isinstance(f, str) for _, f in throw):
        assert normal <= 30


@PROPERTY
@given(throws(min_whites=2, max_whites=3))
def test_with_white_dice_the_answers_are_at_most_30(throw):
    assert blocked(throw)  # white dice always block something
    assert 0 <= score(throw) <= 30
    assert 0 <= score(throw, True) <= 30


@PROPERTY
@given(throws())
def test_brainteaser_bounds(throw):
    whites = sum(1 for c, _ in throw if c == WHITE)
    if brainteaser_applies(throw):
        assert 0 <= score(throw, True) <= (24 if whites == 3 else 18)


@PROPERTY
@given(throws(partial=True))
def test_brainteaser_applies_only_when_a_dot_colour_repeats(throw):
    dots = [f for _, f in throw if isinstance(f, str)]
    repeats = tuple(c for c in COLOURS if dots.count(c) >= 2)
    assert repeated(throw) == repeats
    assert brainteaser_applies(throw) == bool(repeats)
    assert blocked(throw) == tuple(c for c in COLOURS if c in dots)
    if not repeats:
        assert score(throw, True) == score(throw)


@PROPERTY
@given(throws(partial=True))
def test_normal_plus_blocked_pips_is_all_pips(throw):
    pips = sum(f for _, f in throw if isinstance(f, int))
    assert total_pips(throw) == pips
    assert score(throw) + blocked_pips(throw) == pips
    if brainteaser_applies(throw):
        assert score(throw) + score(throw, True) == pips


@PROPERTY
@given(throws(), st.booleans())
def test_explain_is_ascii_and_ends_with_the_answer(throw, teaser):
    text = explain(throw, teaser)
    assert text.isascii() and "\n" not in text
    assert text.count(" -> ") == 1
    answer = score(throw, teaser)
    assert text.endswith(" " + str(answer))
    arithmetic = text.rsplit(" -> ", 1)[1]
    terms = arithmetic.split(" = ")[0]
    assert sum(int(t) for t in terms.split("+")) == answer
    # one 53-character line (320 px, 6 px font) without the brainteaser; with it,
    # up to 87 (measured over every dot pattern; the screen wraps them)
    assert len(text) <= (90 if teaser else 53)
    assert len(arithmetic) <= 16


def test_explain_wording():
    assert explain(make(ALL_SIXES)) == "blocked: none -> 6+6+6+6+6+5 = 35"
    assert explain(make({"green": 4}, ["red"])) == "blocked: red -> 4"
    t = make(dict(ALL_SIXES, orange="blue"), ["red", "green"])
    assert explain(t, True) == "no dot twice; blocked: blue, green, red -> 6+6 = 12"
    t3 = make(ALL_SIXES, ["yellow", "yellow", "yellow"])
    assert explain(t3, True) == "yellow x3, count blocked: yellow -> 6"
    t4 = make(dict(ALL_SIXES, orange="blue", black="yellow"), ["blue", "yellow", "green"])
    assert explain(t4, True) == "blue x2, yellow x2, count blocked: blue, yellow, green -> 6+6+6 = 18"


# ------------------------------------------------------------ roll()


def test_roll_shape_and_draws():
    for whites in (0, 1, 2, 3):
        rng = StandInRng(whites)
        throw = roll(rng, whites)
        assert rng.draws == 6 + whites
        assert [c for c, _ in throw] == list(COLOURS) + [WHITE] * whites
        score(throw, True)  # valid, or this raises
    assert len(roll(StandInRng(9))) == 8  # two white dice by default


@pytest.mark.parametrize("whites", [-1, 4, 2.0, None])
def test_roll_rejects_bad_white_counts(whites):
    with pytest.raises(ValueError):
        roll(StandInRng(), whites)


def test_roll_is_deterministic():
    assert roll(StandInRng(42), 3) == roll(StandInRng(42), 3)
    assert roll(StandInRng(42), 3) != roll(StandInRng(43), 3)


def test_roll_covers_every_face_of_every_die_roughly_evenly():
    rng = StandInRng(7)
    n = 3000
    counts = {}
    for _ in range(n):
        for i, (colour, face) in enumerate(roll(rng, 3)):
            key = (colour if colour != WHITE else "white%d" % i, face)
            counts[key] = counts.get(key, 0) + 1
    dice = dict(COLOURED_DICE)
    dice.update({"white6": WHITE_DIE, "white7": WHITE_DIE, "white8": WHITE_DIE})
    for name, die in dice.items():
        for face in die:
            assert 400 <= counts.get((name, face), 0) <= 600, (name, face)  # expect 500
    assert sum(counts.values()) == 9 * n


def test_roll_with_the_project_rng():
    rng_mod = pytest.importorskip("referee.rng")
    a = roll(rng_mod.Rng(2024), 3)
    b = roll(rng_mod.Rng(2024), 3)
    assert a == b
    score(a, True)
    seen = set()
    r = rng_mod.Rng(1)
    for _ in range(300):
        seen.update(roll(r, 2))
    expected = {(c, f) for c in COLOURS for f in COLOURED_DICE[c]} | {(WHITE, d) for d in WHITE_DIE}
    assert seen == expected


# ------------------------------------------------------------ discs


def test_award_makes_a_black_at_the_handicap():
    d = Discs()
    assert d.handicap == 3
    assert d.award() is False and (d.white, d.black) == (1, 0)
    assert d.award() is False and (d.white, d.black) == (2, 0)
    assert d.award() is True and (d.white, d.black) == (0, 1)
    beginner = Discs(handicap=1)
    assert beginner.award() is True and (beginner.white, beginner.black) == (0, 1)
    two = Discs(2)
    assert [two.award() for _ in range(4)] == [False, True, False, True]
    assert two.black == 2


def test_penalise_hands_back_a_white_and_never_a_black():
    d = Discs(3, white=1, black=2)
    assert d.penalise() is True and (d.white, d.black) == (0, 2)
    assert d.penalise() is False and (d.white, d.black) == (0, 2)


def test_won():
    d = Discs(1)
    assert not won(d)
    d.award()
    d.award()
    assert not won(d)
    d.award()
    assert won(d)
    assert won(Discs(black=1), blacks_to_win=1)
    assert not won(Discs(black=3), blacks_to_win=4)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"handicap": 0},
        {"handicap": 4},
        {"handicap": 2.0},
        {"handicap": 2, "white": 2},
        {"white": -1},
        {"black": -1},
        {"black": 1.5},
    ],
)
def test_discs_reject_bad_values(kwargs):
    with pytest.raises(ValueError):
        Discs(**kwargs)


def test_discs_round_trip_as_plain_ints():
    d = Discs(2, white=1, black=2)
    data = d.to_list()
    assert data == [1, 2, 2]  # white, black, handicap
    assert all(type(v) is int for v in data)
    back = Discs.from_list(json.loads(json.dumps(data)))
    assert back == d and back is not d
    for bad in ([3, 0, 3], [0, 0], [0, 0, 3, 1], [0, -1, 3], [0, 0, "3"]):
        with pytest.raises(ValueError):
            Discs.from_list(bad)


def test_supply_counts_discs_and_notes_when_it_runs_out():
    s = Supply()
    assert (s.white, s.black) == (14, 14) and s.notes == []
    small = Supply(1, 1)
    a, b = Discs(), Discs()
    a.award(small)
    b.award(small)  # no white left: owed, still counts
    assert (b.white, small.white, small.white_owed) == (1, 0, 1)
    assert small.ran_out_white and small.notes == ["white discs ran out: awards still count"]
    b.penalise(small)  # the owed disc is settled first
    assert (small.white, small.white_owed) == (0, 0)
    a.award(small)  # owed again
    assert (a.white, small.white, small.white_owed) == (2, 0, 1)
    a.award(small)  # a's two whites go back (settling the owed one), a black comes out
    assert (a.white, a.black, small.white, small.white_owed, small.black) == (0, 1, 1, 0, 0)
    c = Discs(1)
    c.award(small)
    assert c.black == 1 and small.black_owed == 1 and small.ran_out_black
    assert len(small.notes) == 2
    data = small.to_list()
    assert all(type(v) is int for v in data) and len(data) == 8
    back = Supply.from_list(json.loads(json.dumps(data)))
    assert back.to_list() == data and back.notes == small.notes


def test_seven_players_can_empty_the_black_supply_on_the_winning_disc():
    # Whites cannot run out (7 players x 2 whites = 14), but 7 players on two blacks
    # hold all 14 blacks, so the winner's third black is owed.
    s = Supply()
    players = [Discs() for _ in range(7)]
    for _ in range(2):
        for p in players:
            for _ in range(3):
                p.award(s)
    for p in players:
        p.award(s)
        p.award(s)
    assert s.white == 0 and s.black == 0 and not s.notes
    assert players[0].award(s) is True
    assert won(players[0]) and s.black_owed == 1
    assert s.notes == ["black discs ran out: awards still count"]


def test_supply_rejects_bad_counts():
    with pytest.raises(ValueError):
        Supply(-1, 14)
    with pytest.raises(ValueError):
        Supply.from_list([14, 14, -2, 14, 0, 0, 0, 0])


@settings(derandomize=True, deadline=None, max_examples=60)
@given(
    st.lists(st.integers(1, 3), min_size=1, max_size=7),
    st.integers(0, 14),
    st.integers(0, 14),
    st.lists(st.tuples(st.integers(0, 6), st.booleans()), max_size=120),
)
def test_any_sequence_of_awards_and_penalties_keeps_the_books(handicaps, whites, blacks, ops):
    supply = Supply(whites, blacks)
    players = [Discs(h) for h in handicaps]
    for who, right in ops:
        p = players[who % len(players)]
        before = (p.white, p.black)
        made_black = p.award(supply) if right else p.penalise(supply)
        assert 0 <= p.white < p.handicap
        assert p.black >= before[1]
        if right:
            assert p.black == before[1] + (1 if made_black else 0)
            assert p.white == (0 if made_black else before[0] + 1)
        else:
            assert p.black == before[1]
            assert p.white == max(0, before[0] - 1)
        in_hands_w = sum(q.white for q in players)
        in_hands_b = sum(q.black for q in players)
        assert supply.white + in_hands_w - supply.white_owed == whites
        assert supply.black + in_hands_b - supply.black_owed == blacks
        assert supply.white >= 0 and supply.black >= 0
        assert supply.white_owed == 0 or supply.white == 0
        assert supply.black_owed == 0 or supply.black == 0
        if supply.white_owed:
            assert supply.ran_out_white
        if supply.black_owed:
            assert supply.ran_out_black
        assert len(supply.notes) == int(supply.ran_out_white) + int(supply.ran_out_black)
    for p in players:
        assert Discs.from_list(p.to_list()) == p


# ------------------------------------------------------------ bot model


@PROPERTY
@given(throws(min_whites=2), st.booleans(), st.integers(0, 2**32))
def test_bot_answer_is_right_or_plausibly_wrong(throw, teaser, seed):
    right = score(throw, teaser)
    assert bot_answer(StandInRng(seed), throw, teaser, 0) == right
    wrong = bot_answer(StandInRng(seed), throw, teaser, 1000)
    assert wrong != right and wrong >= 0
    assert abs(wrong - right) <= 35
    assert bot_answer(StandInRng(seed), throw, teaser, 1000) == wrong  # deterministic


def test_bot_answer_error_rate():
    rng = StandInRng(3)
    throw = EXAMPLE_TEASER
    n = 2000
    wrong = sum(1 for _ in range(n) if bot_answer(rng, throw, True, 250) != 8)
    assert 400 <= wrong <= 600  # expect 500


def test_bot_wrong_answers_are_the_plausible_ones():
    # EXAMPLE_8: right 8 (orange 3, blue 4, red 1); blocked black 5, green 6.
    seen = set()
    rng = StandInRng(11)
    for _ in range(300):
        seen.add(bot_answer(rng, EXAMPLE_8, False, 1000))
    # counted a blocked die (13, 14), skipped a counted die (5, 4, 7), used the
    # brainteaser rule (11), off by one (9, 7)
    assert seen == {13, 14, 5, 4, 7, 11, 9}


def test_bot_answer_on_a_zero_throw_is_never_negative():
    rng = StandInRng(5)
    answers = {bot_answer(rng, EXAMPLE_ZERO, False, 1000) for _ in range(100)}
    # off by one upwards only, or counted the blocked yellow 2 / red 5
    assert answers == {1, 2, 5}


@pytest.mark.parametrize("rate", [-1, 1001, 0.5])
def test_bot_answer_rejects_bad_rates(rate):
    with pytest.raises(ValueError):
        bot_answer(StandInRng(), EXAMPLE_8, False, rate)


def test_bot_answer_validates_the_throw():
    with pytest.raises(ValueError):
        bot_answer(StandInRng(), [("orange", 1)], False, 0)


@PROPERTY
@given(st.integers(0, 2**32), st.integers(0, 3000), st.integers(0, 1000))
def test_bot_reaction_is_an_int_in_range(seed, mean_ms, spread_ms):
    t = bot_reaction_ns(StandInRng(seed), mean_ms, spread_ms)
    assert type(t) is int
    assert t >= 1000000
    assert t <= max(mean_ms + spread_ms, 1) * 1000000
    assert t >= (mean_ms - spread_ms) * 1000000
    assert t == bot_reaction_ns(StandInRng(seed), mean_ms, spread_ms)


def test_bot_reaction_shape():
    assert bot_reaction_ns(StandInRng(), 700, 0) == 700000000
    assert bot_reaction_ns(StandInRng(), 0, 0) == 1000000  # floor of 1 ms
    rng = StandInRng(8)
    samples = [bot_reaction_ns(rng, 800, 300) for _ in range(3000)]
    mean = sum(samples) // len(samples)
    assert abs(mean - 800000000) < 15000000
    near = sum(1 for s in samples if abs(s - 800000000) <= 100000000)
    assert near > len(samples) // 2  # bell-shaped: most within a third of the spread
    assert len(set(samples)) > 1000


@pytest.mark.parametrize("args", [(-1, 10), (10, -1), (1.5, 10), (10, None)])
def test_bot_reaction_rejects_bad_args(args):
    with pytest.raises(ValueError):
        bot_reaction_ns(StandInRng(), *args)
