"""Zilch bots: the stored tables, legality of every choice, and a simulated comparison."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import zilch_strategy as zs
from games.zilch_rules import Rules, counts_of, is_zilch, options, score_counts
from tools import zilch_table

try:
    from referee.rng import Rng

    def make_randbelow(seed):
        return Rng(seed).randbelow
except ImportError:  # pragma: no cover - before lib/referee/rng.py existed
    def make_randbelow(seed):
        state = [seed & 0xFFFFFFFF]

        def randbelow(n):
            state[0] = (state[0] * 1664525 + 1013904223) & 0xFFFFFFFF
            return (state[0] >> 16) % n
        return randbelow

PRESETS = [("classic", Rules.classic()), ("ten_thousand", Rules.ten_thousand()),
           ("five_thousand", Rules.five_thousand())]
RULES = [r for _, r in PRESETS]
ids = [name for name, _ in PRESETS]


# -- the stored tables -------------------------------------------------------------------
def test_tool_reproduces_the_stored_tables():
    # a cap of 30,000 points gives the same stored numbers as the default (see the tool)
    built = zilch_table.build_all(cap=30000)
    text, start, stop = zilch_table.stored_block()
    assert text[start:stop] == zilch_table.render(built)


@pytest.mark.parametrize("name, rules", PRESETS, ids=ids)
def test_stored_gains_satisfy_the_bellman_equation(name, rules):
    """Each stored gain equals a one-step look-ahead through the stored values: the
    probability-weighted best successor, minus the points held (rounding tolerance)."""
    outs = [None] + [zilch_table.outcomes(n, rules) for n in range(1, 7)]
    for on_board in (True, False):
        for n in range(1, 7):
            for i, stored in enumerate(zs.stored_gains(n, rules, on_board)):
                t = i * 50
                total = 0
                for weight, moves, _ in outs[n]:
                    if moves:
                        total += weight * max(
                            zs.expected_value(t + steps * 50, n - used or 6, rules, on_board)
                            for steps, used in moves)
                look_ahead = total / 6 ** n - t
                assert abs(look_ahead - stored) <= 2.5, (name, on_board, n, t)


@pytest.mark.parametrize("name, rules", PRESETS, ids=ids)
def test_banking_region_is_above_one_threshold_per_dice_count(name, rules):
    thresholds = {}
    for n in range(1, 6):
        banks = [zs.ev_should_bank(t, n, rules) for t in range(0, 20001, 50)]
        first = banks.index(True)
        assert all(banks[first:]), (n, "banks then rolls again")
        thresholds[n] = first * 50
        assert thresholds[n] >= rules.later_min
    for t in range(0, 20001, 50):
        assert not zs.ev_should_bank(t, 6, rules)           # corner: never
    if name == "classic":
        # one die left is worth rolling longer than two: 1/3 chance of turning the corner
        assert thresholds == {1: 450, 2: 350, 3: 500, 4: 1200, 5: 3950}


def test_expected_points_per_turn_figures():
    assert zs.expected_points_per_turn() == 846
    assert zs.expected_points_per_turn(Rules.classic(), on_board=False) == 841
    assert zs.expected_points_per_turn(Rules.classic(), bot="cautious") == 753
    assert zs.expected_points_per_turn(Rules.ten_thousand()) == 590
    assert zs.expected_points_per_turn(Rules.five_thousand()) == 467
    for rules in RULES:
        for on_board in (True, False):
            ev = zs.expected_points_per_turn(rules, on_board)
            assert ev > zs.expected_points_per_turn(rules, on_board, "cautious")
            # the turn start (0 points, six dice) is the same quantity
            assert zs.expected_value(0, 6, rules, on_board) == ev
    with pytest.raises(ValueError):
        zs.expected_points_per_turn(bot="reckless")


def test_hint():
    classic = Rules.classic()
    assert zs.hint(450, 1, classic) == -22
    assert zs.hint_text(450, 1, classic) == "hint: bank (-22)"
    assert zs.hint_text(400, 1, classic) == "hint: roll (+13)"
    assert zs.hint_text(400, 1, classic, on_board=False) == "can't bank: roll"
    assert zs.hint_text(2000, 6, classic) == "can't bank: roll"
    # far beyond the stored rows the gain keeps falling
    assert zs.hint(5000, 1, classic) < zs.hint(2000, 1, classic) < 0
    assert zs.hint(30000, 6, classic) < 0 < zs.hint(4000, 6, classic)
    with pytest.raises(ValueError):
        zs.hint(100, 0, classic)


@pytest.mark.parametrize("name, rules", PRESETS, ids=ids)
def test_extrapolation_stays_close_to_the_exact_gain(name, rules):
    exact = zilch_table.build(rules, cap=30000)["gains_exact"]
    for n in range(1, 7):
        for i in range(0, 400, 3):                           # up to 20,000 points
            assert abs(zs.roll_gain(i * 50, n, rules) - exact[n][i]) <= 40, (n, i * 50)


# -- legality of every choice ------------------------------------------------------------
rolls = st.integers(1, 6).flatmap(
    lambda n: st.lists(st.integers(1, 6), min_size=n, max_size=n))


FROZEN = [[], [5], [1, 1], [2, 2, 2], [1, 5, 5], [2, 2, 2, 2]]


@settings(max_examples=300, deadline=None)
@given(rolls, st.integers(0, 400).map(lambda k: k * 50), st.booleans(),
       st.sampled_from(RULES), st.sampled_from([None, 0, 600, 2500]), st.booleans(),
       st.sampled_from(FROZEN))
def test_bots_choose_legal_set_asides_and_never_bank_below_the_minimum(
        roll, points, on_board, preset, beat, pyramiding, frozen):
    rules = Rules(target=preset.target, kinds=preset.kinds, sets=preset.sets,
                  overtaking=beat is not None, pyramiding=pyramiding)
    beat = beat or 0
    if len(frozen) + len(roll) > 6 or (frozen and score_counts(counts_of(frozen), rules) < 0):
        frozen = []
    menu = dict(options(roll, rules, frozen))
    for bot in (zs.ev_choice, zs.cautious_choice):
        choice = bot(roll, points, rules, on_board=on_board, frozen=frozen, beat=beat)
        if is_zilch(roll, rules, frozen):
            assert choice is None and not menu
            continue
        dice, bank = choice
        assert dice in menu
        left = len(roll) - len(dice) or 6
        if bank:
            assert points + menu[dice] >= rules.bank_minimum(on_board, beat)
            assert rules.can_bank(points + menu[dice], left, on_board, beat)
            assert left < 6


def test_ev_bot_does_not_bank_below_the_entry_minimum_even_when_rolling_looks_bad():
    classic = Rules.classic()
    # 450 points with 2 dice: rolling is expected to lose, but a first bank needs 500
    assert zs.hint(450, 2, classic, on_board=False) < 0
    assert not zs.ev_should_bank(450, 2, classic, on_board=False)
    assert zs.ev_should_bank(450, 2, classic, on_board=True)
    # 400 points, roll 1,2,3: taking the 1 reaches 500 with 2 dice -> a first bank is legal
    assert zs.ev_choice([1, 2, 3], 400, classic, on_board=False) == ((1,), True)
    # 300 points, roll 5,2,3: 350 is not enough for a first bank -> must roll on
    assert zs.ev_choice([5, 2, 3], 300, classic, on_board=False) == ((5,), False)
    assert zs.ev_choice([5, 2, 3], 300, classic, on_board=True) == ((5,), True)


def test_ev_bot_prefers_keeping_dice_over_small_points():
    classic = Rules.classic()
    # first roll 1,1,5,2,3,4: the cautious bot takes 1,1,5 (250); the EV bot keeps a
    # single 1 and rolls five dice
    assert zs.cautious_choice([1, 1, 5, 2, 3, 4], 0, classic) == ((1, 1, 5), False)
    assert zs.ev_choice([1, 1, 5, 2, 3, 4], 0, classic) == ((1,), False)
    # and it takes hot dice when the roll allows it
    assert zs.ev_choice([1, 2, 3, 4, 5, 6], 0, classic) == ((1, 2, 3, 4, 5, 6), False)


def test_cautious_rule():
    classic = Rules.classic()
    assert zs.cautious_choice([1, 1, 1, 5, 2, 3], 0, classic) == ((1, 1, 1, 5), True)
    assert zs.cautious_choice([1, 1, 1, 5, 2, 3], 0, classic, on_board=False) == (
        (1, 1, 1, 5), True)
    assert zs.cautious_choice([5, 2], 250, classic) == ((5,), False)     # 300 < 350
    assert zs.cautious_choice([5, 2], 300, classic) == ((5,), True)
    assert zs.cautious_choice([2, 3, 4, 6, 6, 2], 0, classic) is None
    loose = Rules(entry=0, later_min=0)
    assert zs.cautious_should_bank(100, 2, loose)       # fewer than 3 dice left
    assert not zs.cautious_should_bank(100, 3, loose)   # under 300 with 3 dice
    assert zs.cautious_should_bank(300, 5, loose)
    assert not zs.cautious_should_bank(5000, 6, loose)  # turning the corner


def test_pyramiding_choices_use_the_combined_gain():
    pyramid = Rules(pyramiding=True)
    dice, bank = zs.ev_choice([2, 3], 200, pyramid, frozen=[2, 2, 2])
    assert dice == (2,) and bank                        # four 2s: 4000 total
    assert zs.cautious_choice([2, 3], 200, pyramid, frozen=[2, 2, 2]) == ((2,), True)


# -- simulated play ----------------------------------------------------------------------
@pytest.mark.parametrize("name, rules, turns", [
    ("classic", Rules.classic(), 2500), ("five_thousand", Rules.five_thousand(), 2500)])
def test_ev_bot_outscores_the_cautious_bot_in_simulation(name, rules, turns):
    means = {}
    for bot in ("ev", "cautious"):
        randbelow = make_randbelow(20240601)
        results = [zilch_table.simulate_turn(zs.BOTS[bot], randbelow, rules)
                   for _ in range(turns)]
        mean = sum(results) / turns
        spread = (sum((x - mean) ** 2 for x in results) / turns) ** 0.5
        expected = zs.expected_points_per_turn(rules, True, bot)
        # the simulation agrees with the computed expectation (4 standard errors)
        assert abs(mean - expected) <= 4 * spread / turns ** 0.5, (bot, mean, expected)
        means[bot] = mean
    assert means["ev"] >= means["cautious"]
