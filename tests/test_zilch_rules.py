"""Zilch pure rules: scoring, variants, zilch odds, legal set-asides, pyramiding."""
import inspect
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.zilch_rules import Rules, best, counts_of, gain, is_zilch, options, score, score_with_frozen

CLASSIC = Rules.classic()
TEN = Rules.ten_thousand()
FIVE = Rules.five_thousand()
ALL_SWITCHES = [Rules(kinds=k, sets=s) for k in (True, False) for s in (True, False)]


def multisets(n):
    """Every sorted tuple of n faces."""
    if n == 0:
        return [()]
    found = []
    for rest in multisets(n - 1):
        for face in range(rest[-1] if rest else 1, 7):
            found.append(rest + (face,))
    return found


def sequences(n):
    """All 6**n ordered rolls of n dice."""
    rolls = [()]
    for _ in range(n):
        rolls = [r + (f,) for r in rolls for f in range(1, 7)]
    return rolls


# -- an independent reference: maximise over every partition into combinations ----------
def reference_combos(rules):
    combos = [((1,), 100), ((5,), 50)]
    for f in range(1, 7):
        combos.append(((f,) * 3, 1000 if f == 1 else 100 * f))
        if rules.kinds:
            combos += [((f,) * 4, 4000), ((f,) * 5, 5000), ((f,) * 6, 6000)]
    combos.append(((1, 2, 3, 4, 5, 6), 1500))
    if rules.sets:
        for f in range(1, 7):
            for g in range(f, 7):
                combos.append(((f,) * 3 + (g,) * 3, 3000))
                for h in range(g, 7):
                    combos.append(((f, f, g, g, h, h), 2000))
    return [(tuple(counts_of(d)), p) for d, p in combos]


_REFERENCE = {}


def reference_score(dice, rules):
    """Best total over partitions of ``dice`` into combinations; None if impossible."""
    key = (rules.kinds, rules.sets)
    if key not in _REFERENCE:
        _REFERENCE[key] = (reference_combos(rules), {})
    combos, memo = _REFERENCE[key]

    def solve(counts):
        if not any(counts):
            return 0
        if counts in memo:
            return memo[counts]
        top = None
        for need, points in combos:
            if all(need[f] <= counts[f] for f in range(7)):
                rest = solve(tuple(counts[f] - need[f] for f in range(7)))
                if rest is not None and (top is None or points + rest > top):
                    top = points + rest
        memo[counts] = top
        return top

    return solve(tuple(counts_of(dice)))


# -- score -------------------------------------------------------------------------------
SCORE_TABLE = [
    # dice, classic, 10,000 game, 5,000 game  (None = ValueError)
    ([1], 100, 100, 100),
    ([5], 50, 50, 50),
    ([1, 5], 150, 150, 150),
    ([1, 1], 200, 200, 200),
    ([1, 1, 1], 1000, 1000, 1000),
    ([2, 2, 2], 200, 200, 200),
    ([3, 3, 3], 300, 300, 300),
    ([4, 4, 4], 400, 400, 400),
    ([5, 5, 5], 500, 500, 500),
    ([6, 6, 6], 600, 600, 600),
    ([1, 1, 1, 5], 1050, 1050, 1050),
    ([5, 1, 1, 1], 1050, 1050, 1050),
    ([2, 2, 2, 1, 5], 350, 350, 350),
    ([2, 2, 2, 2], 4000, None, None),            # 10k/5k: three 2s and a lone 2
    ([1, 1, 1, 1], 4000, 1100, 1100),
    ([5, 5, 5, 5], 4000, 550, 550),
    ([3, 3, 3, 3, 3], 5000, None, None),
    ([1, 1, 1, 1, 1], 5000, 1200, 1200),
    ([5, 5, 5, 5, 5], 5000, 600, 600),
    ([4, 4, 4, 4, 4, 4], 6000, 3000, 800),       # 10k: two triplets of 4s; 5k: 400 + 400
    ([1, 1, 1, 1, 1, 1], 6000, 3000, 2000),
    ([6, 6, 6, 6, 6, 1], 5100, None, None),
    ([2, 2, 2, 2, 1, 5], 4150, None, None),
    ([2, 2, 2, 3, 3, 3], 3000, 3000, 500),
    ([1, 1, 1, 5, 5, 5], 3000, 3000, 1500),
    ([2, 2, 3, 3, 4, 4], 2000, 2000, None),
    ([1, 1, 5, 5, 6, 6], 2000, 2000, None),
    ([1, 1, 5, 5, 3, 3], 2000, 2000, None),
    ([2, 2, 2, 2, 3, 3], 2000, 2000, None),      # four of a kind + a pair: three pairs
    ([1, 1, 1, 1, 5, 5], 4100, 2000, 1200),      # ... or four 1s + 5 + 5 when better
    ([1, 1, 1, 1, 3, 3], 2000, 2000, None),
    ([1, 2, 3, 4, 5, 6], 1500, 1500, 1500),
    ([6, 5, 4, 3, 2, 1], 1500, 1500, 1500),
    ([1, 1, 5, 2, 2, 2], 450, 450, 450),
    ([2], None, None, None),
    ([3, 4], None, None, None),
    ([1, 2], None, None, None),
    ([1, 1, 1, 2], None, None, None),
    ([2, 2, 3, 3], None, None, None),            # two pairs are not a combination
    ([1, 2, 3, 4, 5], None, None, None),         # no short straights
    ([2, 3, 4, 5, 6, 6], None, None, None),
]


@pytest.mark.parametrize("dice, classic, ten, five", SCORE_TABLE)
def test_score_table(dice, classic, ten, five):
    for rules, expected in ((CLASSIC, classic), (TEN, ten), (FIVE, five)):
        if expected is None:
            with pytest.raises(ValueError):
                score(dice, rules)
        else:
            assert score(dice, rules) == expected, (dice, rules)


def test_default_rules_are_classic():
    assert score([2, 2, 2, 2]) == 4000
    assert score([2, 2, 2, 2], None) == 4000


@pytest.mark.parametrize("rules", ALL_SWITCHES, ids=lambda r: "kinds=%s,sets=%s" % (
    r.kinds, r.sets))
def test_score_matches_partition_reference_for_every_multiset(rules):
    checked = 0
    for n in range(1, 7):
        for dice in multisets(n):
            expected = reference_score(dice, rules)
            if expected is None:
                with pytest.raises(ValueError):
                    score(dice, rules)
            else:
                assert score(list(dice), rules) == expected, dice
            checked += 1
    assert checked == 923


@pytest.mark.parametrize("bad", [[], [1] * 7, [0], [7], [1, "5"], [True], [1.0], [None]])
def test_score_rejects_malformed_dice(bad):
    with pytest.raises(ValueError):
        score(bad)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=6), st.randoms())
def test_score_ignores_order(dice, rnd):
    shuffled = dice[:]
    rnd.shuffle(shuffled)
    for rules in (CLASSIC, TEN, FIVE):
        try:
            expected = score(dice, rules)
        except ValueError:
            with pytest.raises(ValueError):
                score(shuffled, rules)
        else:
            assert score(shuffled, rules) == expected


def test_score_does_not_modify_its_argument():
    dice = [5, 1, 1, 1]
    score(dice)
    assert dice == [5, 1, 1, 1]


# -- is_zilch: exhaustive odds -----------------------------------------------------------
# A roll scores iff it has a 1 or a 5, three of a face, or (six dice, sets allowed) three
# pairs; straights always contain a 1. So count the rolls over the four faces 2,3,4,6
# with no face three times:
#   1 die  4          of 6      = 2/3
#   2 dice 16         of 36     = 4/9
#   3 dice 64-4 = 60  of 216    = 5/18
#   4 dice 256 - 4*(4*3 + 1) = 204 of 1296 = 17/108
#   5 dice 1024 - 4*(10*9 + 5*3 + 1) = 600 of 7776 = 25/324
#   6 dice every face <= 2: patterns 2,2,2 (4 * 90 = 360) and 2,2,1,1 (6 * 180 = 1080):
#          1440 of 46656 = 5/162 without sets; the 360 three-pair rolls score with
#          sets, leaving 1080 of 46656 = 5/216.
ZILCH_ODDS = {1: Fraction(2, 3), 2: Fraction(4, 9), 3: Fraction(5, 18), 4: Fraction(17, 108),
              5: Fraction(25, 324)}


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_zilch_probability_by_exhaustive_enumeration(n):
    rolls = sequences(n)
    assert len(rolls) == 6 ** n
    for rules in (CLASSIC, TEN, FIVE):
        zilches = sum(1 for roll in rolls if is_zilch(list(roll), rules))
        if n < 6:
            expected = ZILCH_ODDS[n]
        else:
            expected = Fraction(5, 216) if rules.sets else Fraction(5, 162)
        assert Fraction(zilches, 6 ** n) == expected, (n, rules)


@pytest.mark.parametrize("rules", ALL_SWITCHES)
def test_is_zilch_iff_no_option(rules):
    for n in range(1, 7):
        for roll in multisets(n):
            assert is_zilch(list(roll), rules) == (options(list(roll), rules) == [])


def test_is_zilch_examples():
    assert is_zilch([2, 3, 4, 6, 6, 2])
    assert not is_zilch([2, 2, 3, 3, 4, 4])
    assert is_zilch([2, 2, 3, 3, 4, 4], FIVE)
    assert not is_zilch([2, 3, 4, 6, 6, 6])
    assert not is_zilch([5])


# -- options / best ----------------------------------------------------------------------
def sub_multisets(roll):
    counts = counts_of(roll)
    subs = [()]
    for face in range(1, 7):
        subs = [s + (face,) * k for s in subs for k in range(counts[face] + 1)]
    return set(s for s in subs if s)


@pytest.mark.parametrize("rules", [CLASSIC, TEN, FIVE])
def test_options_are_exactly_the_scoring_sub_multisets(rules):
    for n in range(1, 7):
        for roll in multisets(n):
            menu = options(list(roll), rules)
            dice_list = [d for d, _ in menu]
            assert len(set(dice_list)) == len(dice_list)        # no duplicates
            expected = set()
            for sub in sub_multisets(roll):
                if reference_score(sub, rules) is not None:
                    expected.add(sub)
            assert set(dice_list) == expected, roll
            for dice, points in menu:
                assert list(dice) == sorted(dice)
                assert points == score(dice, rules)
            keys = [(-p, len(d), d) for d, p in menu]
            assert keys == sorted(keys)


def test_options_menu_order_example():
    menu = options([1, 1, 5, 2, 2, 2])
    assert menu[0] == ((1, 1, 2, 2, 2, 5), 450)
    assert menu[-1] == ((5,), 50)
    assert ((2, 2, 2), 200) in menu and ((1, 1), 200) in menu
    assert menu.index(((1, 1), 200)) < menu.index(((2, 2, 2), 200))   # fewer dice first
    assert len(menu) == 11


def test_best():
    assert best([1, 2, 3, 4, 5, 6]) == ((1, 2, 3, 4, 5, 6), 1500)
    assert best([1, 2, 3, 4, 5, 6], FIVE) == ((1, 2, 3, 4, 5, 6), 1500)
    assert best([2, 2, 2, 2, 3, 4]) == ((2, 2, 2, 2), 4000)
    assert best([2, 2, 2, 2, 3, 4], TEN) == ((2, 2, 2), 200)
    assert best([2, 3, 4, 6, 6, 2]) is None


# -- pyramiding --------------------------------------------------------------------------
PYRAMID = Rules(pyramiding=True)


def test_pyramiding_example_from_the_rules():
    assert gain([5], [5, 5], PYRAMID) == 450          # the cycle is now three 5s = 500
    assert gain([5], [5, 5], CLASSIC) == 100          # without pyramiding: 50 + 100
    assert score_with_frozen is gain


def test_pyramiding_reaches_kinds_only_when_they_exist():
    assert gain([2, 2, 2], [2], PYRAMID) == 3800      # four 2s: 4000 - 200
    with pytest.raises(ValueError):
        gain([2, 2, 2], [2], Rules.ten_thousand(pyramiding=True))
    with pytest.raises(ValueError):
        gain([2, 2, 2], [2], CLASSIC)                 # a lone 2 never scores alone


def test_pyramiding_never_lowers_the_turn():
    with pytest.raises(ValueError):                   # 4000 would become three pairs 2000
        gain([2, 2, 2, 2], [3, 3], PYRAMID)
    assert gain([2, 2, 2, 2], [5], PYRAMID) == 50


def test_pyramiding_rescues_a_roll_and_offers_the_combined_gain():
    assert is_zilch([2, 3], CLASSIC, frozen=[2, 2, 2])
    assert not is_zilch([2, 3], PYRAMID, frozen=[2, 2, 2])
    assert options([2, 3], PYRAMID, frozen=[2, 2, 2]) == [((2,), 3800)]
    assert is_zilch([2, 3], Rules.ten_thousand(pyramiding=True), frozen=[2, 2, 2])
    assert options([1, 5, 5], PYRAMID, frozen=[5])[0] == ((1, 5, 5), 550)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=6, max_size=6), st.data())
def test_pyramided_gains_add_up_to_the_cycle_score(dice, data):
    """Set aside a whole cycle piece by piece: the gains sum to the score of all."""
    free = dice[:]
    frozen = []
    total = 0
    while free:
        menu = options(free, PYRAMID, frozen)
        if not menu:
            break
        chosen, points = data.draw(st.sampled_from(menu))
        assert points == gain(frozen, list(chosen), PYRAMID)
        assert points > 0
        total += points
        frozen += list(chosen)
        for die in chosen:
            free.remove(die)
        assert total == score(frozen, PYRAMID)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=5), st.lists(st.integers(1, 6),
       min_size=1, max_size=3))
def test_pyramided_gain_is_at_least_the_plain_score(frozen, new):
    if len(frozen) + len(new) > 6:
        return
    try:
        score(frozen, PYRAMID)
        plain = score(new, PYRAMID)
    except ValueError:
        return
    assert gain(frozen, new, PYRAMID) >= plain


# -- Rules -------------------------------------------------------------------------------
def test_rules_pinned_constructor_and_presets():
    params = inspect.signature(Rules).parameters
    assert list(params)[0] == "target" and params["target"].default == 15000
    assert Rules().target == 15000 and Rules().entry == 500 and Rules().later_min == 350
    assert Rules.classic() == Rules()
    assert (TEN.target, TEN.kinds, TEN.sets) == (10000, False, True)
    assert (FIVE.target, FIVE.kinds, FIVE.sets) == (5000, False, False)
    assert [r.variant() for r in (CLASSIC, TEN, FIVE)] == [
        "classic", "ten_thousand", "five_thousand"]
    assert Rules(sets=False).variant() == "custom"
    assert Rules.ten_thousand(pyramiding=True).pyramiding
    assert Rules.five_thousand(target=6000).target == 6000
    assert CLASSIC != TEN and not (Rules() != CLASSIC)
    assert "target=10000" in repr(TEN)


@pytest.mark.parametrize("kwargs", [{"target": 0}, {"target": -5}, {"entry": -1},
                                    {"later_min": "350"}, {"target": True}])
def test_rules_rejects_bad_values(kwargs):
    with pytest.raises(ValueError):
        Rules(**kwargs)


def test_rules_from_options():
    assert Rules.from_options({}) == CLASSIC
    assert Rules.from_options({"variant": 10000}) == TEN
    assert Rules.from_options({"variant": "five_thousand"}) == FIVE
    r = Rules.from_options({"variant": "ten_thousand", "pyramiding": True,
                            "overtaking": True, "challenge": False, "entry": 600,
                            "unknown": "ignored"})
    assert r.pyramiding and r.overtaking and not r.challenge and r.entry == 600
    assert not r.kinds and r.target == 10000
    with pytest.raises(ValueError):
        Rules.from_options({"pyramiding": "maybe"})
    with pytest.raises(ValueError):
        Rules.from_options({"variant": 20000})
    with pytest.raises(ValueError):
        Rules.from_options({"target": 0})
    errors = []
    r = Rules.from_options({"variant": "7", "target": "lots", "entry": True,
                            "challenge": True}, errors)
    assert len(errors) == 3 and "variant" in errors[0] and "target" in errors[1]
    assert r == Rules(challenge=True)


def test_bank_legality():
    assert CLASSIC.bank_minimum(on_board=False) == 500
    assert CLASSIC.bank_minimum(on_board=True) == 350
    assert not CLASSIC.can_bank(450, 3, on_board=False)
    assert CLASSIC.can_bank(500, 3, on_board=False)
    assert CLASSIC.can_bank(350, 1, on_board=True)
    assert not CLASSIC.can_bank(300, 1, on_board=True)
    assert not CLASSIC.can_bank(5000, 6)                  # turning the corner: must roll
    overtaking = Rules(overtaking=True)
    assert overtaking.bank_minimum(True, beat=800) == 801
    assert not overtaking.can_bank(800, 2, beat=800)
    assert overtaking.can_bank(850, 2, beat=800)
    assert overtaking.can_bank(350, 2, beat=100)
    assert CLASSIC.can_bank(350, 2, beat=800)             # beat ignored without overtaking


def test_options_worked_out_a_few_at_a_time_are_the_same_options():
    # the box works a roll's set-asides out while the dice tumble, a few sets a pass
    # (issue "The box never freezes": all at once were ~30-60 ms of one pass on a Pico)
    from games.zilch_rules import options_steps

    for roll, frozen in (([1, 5, 2, 2, 2, 3], None), ([1, 1, 1, 5, 5, 6], None), ([2, 3, 4, 6], [1, 1, 1])):
        for rules in (CLASSIC, PYRAMID):
            out = list(options_steps(roll, rules, frozen, 4))
            assert out[-1] == options(roll, rules, frozen)
            assert all(x is None for x in out[:-1]) and len(out) >= 2
