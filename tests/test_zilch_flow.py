"""Zilch end to end on the simulated box: turns, variants, bots, screens, invariants."""
import json

import pytest
from zilch_helpers import load_dice, pace

from games import zilch, zilch_screen
from games import zilch_strategy as zs
from games.zilch_rules import options
from hardware.sim import SimTable
from referee import palette, rings, sound

FAST = dict(think_ms=6, roll_ms=4, show_ms=6)  # bot matches
HUMAN = dict(think_ms=6, roll_ms=4, show_ms=1500)  # a result outlasts a hold (1.1 s)


def table(players=2, bots=(), seed=1, speed=HUMAN, **opts):
    t = SimTable(players=players, seed=seed)
    g = t.start("zilch", bots=bots, **opts)
    pace(g, **speed)
    return t, g


def wait_for(t, g, phases, max_ms=20000):
    left = max_ms
    while g.phase not in phases:
        assert left > 0, "phase %s never came (stuck in %s)" % (phases, g.phase)
        t.advance(2)
        left -= 2


def values(g):
    return [v for _, v in g.menu.items]


def choose(t, g, value):
    """The active (human) player taps to ``value`` and holds to choose it."""
    wait_for(t, g, (zilch.PRE, zilch.PICK, zilch.NEXT))
    vals = values(g)
    assert value in vals, "%r not offered in %r" % (value, vals)
    steps = (vals.index(value) - g.menu.index) % len(vals)
    if steps:
        t.tap(g.player, steps)
    assert g.menu.current()[1] == value
    t.hold(g.player)


def keep(t, g, faces):
    wait_for(t, g, (zilch.PICK,))
    for v in values(g):
        if list(v[1]) == sorted(faces):
            choose(t, g, v)
            return v[2]
    raise AssertionError("set-aside %r not offered: %r" % (faces, values(g)))


def roll(t, g, *dice):
    """Load the next roll(s) and let the active player hold "Roll"."""
    load_dice(g, *dice)
    choose(t, g, ("roll",))
    wait_for(t, g, (zilch.PICK, zilch.END))


def zilch_turn(t, g):
    """The active player throws a loaded Zilch (six dice or fewer)."""
    roll(t, g, [2, 3, 4, 6, 6, 2][: g.dice_left()])
    assert g.phase == zilch.END and g.last_turn["result"] == "zilch"


def next_turn(t, g):
    wait_for(t, g, (zilch.PRE, zilch.OVER))
    # a turn's scores and menu are drawn in the passes after its screen (and after the
    # turn's save, a pass of its own)
    assert t.advance_until(lambda: not g._menu_due, 200)


# --- the pinned API ------------------------------------------------------------------
def test_pinned_api_is_re_exported():
    assert zilch.score([1, 1, 1]) == 1000
    assert zilch.score([5, 1]) == 150
    with pytest.raises(ValueError):
        zilch.score([2, 3])
    assert zilch.is_zilch([2, 3, 4, 6, 6, 2]) and not zilch.is_zilch([2, 2, 2])
    assert zilch.Rules(target=15000).target == 15000
    assert zilch.Rules.ten_thousand().target == 10000
    assert zilch.TITLE == "Zilch" and zilch.MIN_PLAYERS == 2 and zilch.MAX_PLAYERS == 7
    keys = [o.key for o in zilch.OPTIONS]
    assert keys == ["variant", "pyramiding", "challenge", "overtaking", "hint", "bot"]


@pytest.mark.parametrize("variant, target, kinds, sets", [
    (15000, 15000, True, True), (10000, 10000, False, True), (5000, 5000, False, False)])
def test_variant_option_selects_the_preset(variant, target, kinds, sets):
    _, g = table(variant=variant)
    assert (g.rules.target, g.rules.kinds, g.rules.sets) == (target, kinds, sets)
    assert g.record("zilch")["options"]["variant"] == target  # saved with the match


# --- bot matches with invariants ----------------------------------------------------------
def check_log(log, rules, players):
    """Every finished turn against the rules, recomputed from the log alone."""
    on_board = set()
    last_bank = {}
    previous = 0
    used = {}
    reached = set()  # players whose total has reached 5,000 (docs/rulings.md: for good)
    for r in log:
        p = r["player"]
        before, after = r["before"], r["after"]
        reached |= {q for q in range(1, players + 1) if before[q] >= 5000}
        assert all((a - b) % 50 == 0 for a, b in zip(after, before))
        assert all(x >= 0 for x in after)
        touched = [q for q in range(1, players + 1) if after[q] != before[q]]
        assert set(touched) <= {p, r["challenged"]}
        slot = 1 if p in reached else 0  # the side of 5,000: it sets a challenge's penalty
        if r["challenged"]:
            slots = used.setdefault(p, [])
            assert slot not in slots, "a challenge slot used twice"
            slots.append(slot)
            assert r["challenge_no"] == len(slots) <= 2
            assert r["challenged"] != p
        if r["result"] == "bank":
            points = r["points"]
            minimum = 350 if p in on_board else 500
            assert points >= minimum, r
            if rules.overtaking and previous and previous != p:
                assert points > last_bank.get(previous, 0), r
            assert after[p] - before[p] == points
            if r["challenged"]:
                q = r["challenged"]
                assert after[q] == max(0, before[q] - points)
            on_board.add(p)
            last_bank[p] = points
        else:
            assert r["points"] == 0
            if r["challenged"]:
                cost = 2000 if slot else 600
                assert r["penalty"] == cost
                assert after[p] == max(0, before[p] - cost)
            else:
                assert after == before
        previous = p


def check_ending(log, g):
    n = g.players
    trigger = None
    for i, r in enumerate(log):
        if r["after"][r["player"]] > g.rules.target:
            trigger = i
            break
    assert trigger is not None, "the game ended although nobody passed the target"
    p = log[trigger]["player"]
    assert g.final_by == p
    finals = [r["player"] for r in log[trigger + 1: trigger + n]]
    assert finals == [(p + k - 1) % n + 1 for k in range(1, n)], "one final turn each, in order"
    rest = log[trigger + n:]
    totals = log[trigger + n - 1]["after"]
    while rest:  # tie-break rounds: exactly the tied leaders play
        top = max(totals[1:])
        leaders = [q for q in range(1, n + 1) if totals[q] == top]
        assert len(leaders) > 1
        assert sorted(r["player"] for r in rest[: len(leaders)]) == leaders
        totals = rest[len(leaders) - 1]["after"]
        rest = rest[len(leaders):]
    top = max(g.totals[1:])
    assert g.winners == [q for q in range(1, n + 1) if g.totals[q] == top]
    assert len(g.winners) == 1


def play_checked(t, g, max_ms=600000):
    """Run a bot match in small steps, checking what must hold at every moment."""
    g.turn_log = log = []
    totals = list(g.totals)
    seen = 0
    entered = None
    while not g.over:
        assert t.now < max_ms * 1000000, "match did not end"
        t.advance(4)
        if g.totals != totals:  # totals change only when a turn ends
            assert len(log) > seen
            assert g.totals == log[-1]["after"]
            totals = list(g.totals)
        seen = len(log)
        if g.phase_at != entered and g.menu is not None:  # a menu just opened
            entered = g.phase_at
            if g.phase == zilch.PICK:
                legal = options(g.roll, g.rules, g.frozen)
                assert [(v[1], v[2]) for v in values(g)] == legal
            elif g.phase == zilch.NEXT:
                assert (("bank",) in values(g)) == g.can_bank()
                assert values(g)[0] == ("roll",)
            assert t.box.rings.mode(g.player) == rings.PULSE
    return log


VARIANTS = [
    {"variant": 15000},
    {"variant": 10000},
    {"variant": 5000},
    {"pyramiding": True},
    {"challenge": True},
    {"overtaking": True},
]


@pytest.mark.parametrize("players", [2, 7])
@pytest.mark.parametrize("bot", ["cautious", "expected"])
@pytest.mark.parametrize("opts", VARIANTS, ids=["15000", "10000", "5000", "pyramiding", "challenge", "overtaking"])
def test_bot_match_to_a_winner_with_invariants(opts, bot, players):
    t, g = table(players, tuple(range(1, players + 1)), 11 + players, FAST, bot=bot, **opts)
    log = play_checked(t, g)
    check_log(log, g.rules, players)
    check_ending(log, g)
    assert g.over and "WINS" in t.screen_text()
    for w in g.winners:
        assert t.box.rings.mode(w) == rings.FLASH
    if opts.get("challenge"):
        assert any(r["challenged"] for r in log), "no bot ever challenged"


def test_same_seed_same_match():
    results = []
    for _ in range(2):
        t, g = table(3, (1, 2, 3), 5, FAST)
        assert t.run_until_over(600000)
        results.append((g.totals, g.winners, g.turn_no))
    assert results[0] == results[1]


def test_bots_follow_the_default_pace():
    """With the default think time a bot's choice is visible before it is taken."""
    t = SimTable(players=2, seed=3)
    g = t.start("zilch", bots=(1,))
    t.advance(600)
    assert g.phase == zilch.PRE and g.player == 1  # still thinking
    t.advance(200)
    assert g.phase == zilch.PRE and g.bot_shown() == ("roll",)  # choice shown
    t.advance(400)
    assert g.phase in (zilch.ROLL, zilch.PICK, zilch.END)


# --- a human turn ---------------------------------------------------------------------------
def test_human_turn_with_a_seeded_roll():
    t, g = table(2, bots=(2,), seed=21)
    next_turn(t, g)
    assert values(g) == [("roll",)]
    choose(t, g, ("roll",))
    wait_for(t, g, (zilch.PICK, zilch.END))
    first = list(g.roll)
    assert len(first) == 6
    assert g.phase == zilch.PICK  # this seed's first throw scores
    legal = options(first, g.rules)
    assert [(v[1], v[2]) for v in values(g)] == legal
    faces, points = legal[-1]  # the last item: the cursor has to travel
    t.tap(1, len(legal) - 1)
    assert g.menu.current()[1][1] == faces
    t.hold(1)
    assert g.phase == zilch.NEXT and g.turn_points == points
    assert g.frozen == list(faces)
    assert "this turn " + str(points) in t.screen_text()


def test_human_sets_aside_rolls_and_banks():
    t, g = table(2, bots=(2,))
    roll(t, g, [1, 1, 1, 5, 2, 3])
    assert ("keep", (1, 1, 1, 5), 1050) in values(g)
    assert keep(t, g, [1, 1, 1]) == 1000
    assert values(g) == [("roll",), ("bank",)]
    text = t.screen_text()
    assert "Roll 3 dice" in text and "Bank 1000" in text
    roll(t, g, [5, 3, 4])
    keep(t, g, [5])
    assert g.turn_points == 1050 and g.dice_left() == 2
    assert g.totals[1] == 0  # nothing counts before the bank
    choose(t, g, ("bank",))
    assert g.phase == zilch.END and g.totals[1] == 1050
    assert g.last_turn["result"] == "bank" and g.last_turn["points"] == 1050
    assert "BANK" in t.screen_text()
    wait_for(t, g, (zilch.PRE, zilch.ROLL, zilch.PICK))
    assert g.player == 2 and t.box.rings.mode(2) == rings.PULSE and t.box.rings.mode(1) == rings.SOLID


def test_zilch_loses_the_turn_points():
    t, g = table(2, bots=(2,))
    t.box.sound.log = []
    roll(t, g, [5, 2, 3, 4, 6, 6])
    keep(t, g, [5])
    roll(t, g, [1, 3, 4, 6, 6])
    keep(t, g, [1])
    assert g.turn_points == 150
    zilch_turn(t, g)
    assert g.totals[1] == 0 and g.last_turn["lost"] == 150
    text = t.screen_text()
    assert "ZILCH!" in text and "P1 loses 150" in text
    assert any(cue == sound.LOCKOUT for _, cue in t.box.sound.log)
    wait_for(t, g, (zilch.PRE, zilch.ROLL, zilch.PICK))
    assert g.player == 2


def test_turning_the_corner_forces_six_dice_and_a_zilch_loses_all():
    t, g = table(2)
    roll(t, g, [1, 1, 1, 5, 5, 2])
    keep(t, g, [1, 1, 1, 5, 5])
    roll(t, g, [5])
    keep(t, g, [5])
    assert g.turn_points == 1150 and g.corners == 1 and g.dice_left() == 6
    assert values(g) == [("roll",)]  # no bank after turning the corner
    text = t.screen_text()
    assert "Roll 6 dice" in text and "Bank" not in text and "CORNER" in text
    assert not g.can_bank()
    t.box.sound.log = []
    zilch_turn(t, g)
    assert len(g.roll) == 6
    assert g.last_turn["lost"] == 1150 and g.totals[1] == 0


def test_corner_in_one_throw_then_bank():
    t, g = table(2)
    roll(t, g, [1, 2, 3, 4, 5, 6])
    assert values(g)[0] == ("keep", (1, 2, 3, 4, 5, 6), 1500)
    keep(t, g, [1, 2, 3, 4, 5, 6])
    assert values(g) == [("roll",)]
    roll(t, g, [1, 2, 2, 3, 4, 6])
    keep(t, g, [1])
    assert values(g) == [("roll",), ("bank",)]
    choose(t, g, ("bank",))
    assert g.totals[1] == 1600


def test_entry_minimum_500_then_350():
    t, g = table(2)
    roll(t, g, [4, 4, 4, 2, 3, 6])
    keep(t, g, [4, 4, 4])
    assert values(g) == [("roll",)]  # 400 is not enough to get on the board
    assert "Bank needs 500" in t.screen_text()
    roll(t, g, [1, 2, 3])
    keep(t, g, [1])
    assert values(g) == [("roll",), ("bank",)]
    choose(t, g, ("bank",))
    assert g.totals[1] == 500 and g.on_board[1]
    next_turn(t, g)
    zilch_turn(t, g)  # P2
    next_turn(t, g)
    assert g.player == 1
    roll(t, g, [3, 3, 3, 2, 4, 6])
    keep(t, g, [3, 3, 3])
    assert values(g) == [("roll",)]  # 300 < 350
    roll(t, g, [5, 2, 4])
    keep(t, g, [5])
    assert values(g) == [("roll",), ("bank",)]  # 350 is enough once on the board
    choose(t, g, ("bank",))
    assert g.totals[1] == 850


def test_overtaking_must_beat_the_previous_players_bank():
    t, g = table(2, overtaking=True)
    roll(t, g, [1, 1, 1, 2, 3, 4])
    keep(t, g, [1, 1, 1])
    choose(t, g, ("bank",))
    assert g.last_bank[1] == 1000
    next_turn(t, g)
    roll(t, g, [1, 5, 2, 3, 4, 6])
    keep(t, g, [1, 5])
    assert g.beat() == 1000 and g.bank_minimum() == 1001
    assert values(g) == [("roll",)]
    assert "Bank needs 1001" in t.screen_text()
    roll(t, g, [1, 1, 1, 2])
    keep(t, g, [1, 1, 1])
    assert g.turn_points == 1150 and values(g) == [("roll",), ("bank",)]


def test_pyramiding_combines_frozen_dice_with_new_ones():
    t, g = table(2, pyramiding=True)
    roll(t, g, [5, 2, 3, 4, 6, 6])
    keep(t, g, [5])
    roll(t, g, [5, 5, 2, 3, 4])
    assert ("keep", (5, 5), 450) in values(g)  # three 5s (500) less the frozen 5 (50)
    keep(t, g, [5, 5])
    assert g.turn_points == 500 and g.frozen == [5, 5, 5]


def test_pyramiding_frozen_dice_rescue_a_roll():
    t, g = table(2, pyramiding=True)
    roll(t, g, [2, 2, 2, 3, 4, 6])
    keep(t, g, [2, 2, 2])
    roll(t, g, [2, 3, 4])
    assert g.phase == zilch.PICK  # without pyramiding this roll is a Zilch
    assert values(g) == [("keep", (2,), 3800)]  # four of a kind 4000 less 200


# --- the end of the game ---------------------------------------------------------------------
def test_final_turns_and_the_winner():
    t, g = table(3)
    g.totals[1:] = [14600, 9000, 14900]
    g.on_board[1:] = [True, True, True]
    roll(t, g, [1, 1, 1, 2, 3, 4])
    keep(t, g, [1, 1, 1])
    choose(t, g, ("bank",))  # 15600 > 15000: the final round starts
    next_turn(t, g)
    assert g.final_by == 1 and g.player == 2 and g.queue == [3]
    assert "FINAL TURN" in t.screen_text()
    zilch_turn(t, g)
    next_turn(t, g)
    assert g.player == 3
    roll(t, g, [1, 5, 2, 3, 4, 6])
    keep(t, g, [1, 5])
    roll(t, g, [1, 5, 2, 3])
    keep(t, g, [1, 5])
    roll(t, g, [1, 5])
    keep(t, g, [1, 5])  # 450 and the corner
    roll(t, g, [1, 1, 2, 3, 4, 6])
    keep(t, g, [1, 1])
    choose(t, g, ("bank",))  # 14900 + 650 = 15550 < 15600
    next_turn(t, g)
    assert g.over and g.winners == [1]
    text = t.screen_text()
    assert "P1 WINS" in text and "Game over" in text and "hold: menu" in text  # the way out
    assert t.box.rings.mode(1) == rings.FLASH


def test_exactly_the_target_does_not_end_the_game():
    t, g = table(2)
    g.totals[1:] = [14000, 0]
    g.on_board[1] = True
    roll(t, g, [1, 1, 1, 2, 3, 4])
    keep(t, g, [1, 1, 1])
    choose(t, g, ("bank",))
    next_turn(t, g)
    assert g.totals[1] == 15000 and not g.final_by and g.queue == []


def test_tied_leaders_play_tie_break_turns_until_it_breaks():
    t, g = table(3)
    s = g.state()  # P1 ended the trigger turn; P2 and P3 still owe their final turn
    s["totals"] = [0, 15100, 14000, 14750]
    s["on_board"] = [False, True, True, True]
    s["final_by"], s["queue"], s["previous"] = 1, [3], 1
    s["turn"]["player"] = 2
    g.restore(s, t.now)
    assert g.player == 2 and "FINAL TURN" in t.screen_text()
    zilch_turn(t, g)
    next_turn(t, g)
    assert g.player == 3
    roll(t, g, [1, 5, 5, 2, 3, 4])
    keep(t, g, [1, 5, 5])
    roll(t, g, [1, 5, 2])
    keep(t, g, [1, 5])
    choose(t, g, ("bank",))  # 14750 + 350 = 15100: tied with P1
    next_turn(t, g)
    assert g.tiebreak == 1 and not g.over
    assert [g.player] + g.queue == [1, 3]  # round the table after P3
    assert "TIE-BREAK" in t.screen_text()
    roll(t, g, [1, 1, 1, 2, 3, 4])
    keep(t, g, [1, 1, 1])
    choose(t, g, ("bank",))
    next_turn(t, g)
    assert g.player == 3
    zilch_turn(t, g)
    next_turn(t, g)
    assert g.over and g.winners == [1] and g.totals[1:] == [16100, 14000, 15100]


def test_a_tie_break_that_stays_tied_goes_round_again():
    t, g = table(2)
    s = g.state()
    s["totals"] = [0, 15100, 15100]
    s["on_board"] = [False, True, True]
    s["final_by"], s["queue"], s["tiebreak"], s["previous"] = 1, [2], 1, 1
    s["turn"]["player"] = 1
    g.restore(s, t.now)
    zilch_turn(t, g)
    next_turn(t, g)
    assert g.player == 2 and g.queue == []
    zilch_turn(t, g)
    next_turn(t, g)
    assert not g.over and g.tiebreak == 2 and g.player == 1 and g.queue == [2]


# --- challenge ----------------------------------------------------------------------------------
def test_challenge_bank_adds_and_subtracts():
    t, g = table(3, challenge=True)
    g.totals[1:] = [1000, 3000, 200]
    g.on_board[1:] = [True, True, True]
    g.restore(g.state(), t.now)
    assert values(g) == [("roll",), ("challenge", 2), ("challenge", 3)]
    assert "Challenge P2" in t.screen_text() and "Challenge risk 600" in t.screen_text()
    load_dice(g, [1, 1, 1, 2, 3, 4])
    choose(t, g, ("challenge", 2))
    wait_for(t, g, (zilch.PICK,))
    assert g.challenged == 2 and "vs P2" in t.screen_text()
    keep(t, g, [1, 1, 1])
    choose(t, g, ("bank",))
    assert g.totals[1:] == [2000, 2000, 200]
    assert g.challenges[1] == [True, False] and g.challenge_count[1] == 1
    for _ in (2, 3):
        next_turn(t, g)
        zilch_turn(t, g)
    next_turn(t, g)
    assert g.player == 1
    assert values(g) == [("roll",)]  # P1's before-5,000 challenge is used up


def test_challenge_subtraction_stops_at_zero():
    t, g = table(2, challenge=True)
    g.totals[1:] = [0, 300]
    g.restore(g.state(), t.now)
    load_dice(g, [1, 1, 1, 2, 3, 4])
    choose(t, g, ("challenge", 2))
    keep(t, g, [1, 1, 1])
    choose(t, g, ("bank",))
    assert g.totals[1:] == [1000, 0]


def test_challenge_zilch_costs_600_then_2000():
    t, g = table(2, challenge=True)
    g.totals[1:] = [4000, 1000]
    g.on_board[1:] = [True, True]
    g.restore(g.state(), t.now)
    load_dice(g, [2, 3, 4, 6, 6, 2])
    choose(t, g, ("challenge", 2))
    wait_for(t, g, (zilch.END,))
    assert g.totals[1:] == [3400, 1000] and g.last_turn["penalty"] == 600
    assert "P1 pays 600" in t.screen_text()
    next_turn(t, g)
    zilch_turn(t, g)  # P2
    next_turn(t, g)
    assert g.player == 1 and values(g) == [("roll",)]  # below 5,000 with that slot used


def test_second_challenge_after_5000_costs_2000_and_no_third():
    t, g = table(2, challenge=True)
    s = g.state()
    s["totals"] = [0, 6000, 1000]
    s["on_board"] = [False, True, True]
    s["challenges"] = [[False, False], [True, False], [False, False]]
    s["challenge_count"] = [0, 1, 0]
    s["turn"]["player"] = 1
    g.restore(s, t.now)
    assert "Challenge risk 2000" in t.screen_text()
    load_dice(g, [2, 3, 4, 6, 6, 2])
    choose(t, g, ("challenge", 2))
    wait_for(t, g, (zilch.END,))
    assert g.totals[1:] == [4000, 1000] and g.last_turn["penalty"] == 2000
    assert g.last_turn["challenge_no"] == 2
    next_turn(t, g)
    zilch_turn(t, g)
    next_turn(t, g)
    assert g.player == 1 and values(g) == [("roll",)]  # both challenges used


def test_the_challenge_penalty_goes_by_the_side_of_5000_not_by_the_order_used():
    # the printed rule: "un avant 5000 points et un apres", a Zilch costing 600 on the
    # first and 2,000 on the second; the first is the one before 5,000. A player who
    # skipped the early challenge used to pay only 600 on the late one (skipping it was
    # free); the late challenge now costs 2,000 whenever it is used
    t, g = table(2, challenge=True)
    g.totals[1:] = [6000, 1000]
    g.on_board[1:] = [True, True]
    g.restore(g.state(), t.now)
    assert g.challenges[1] == [False, False] and g.challenge_slot(1) == 1
    assert "Challenge risk 2000" in t.screen_text()
    load_dice(g, [2, 3, 4, 6, 6, 2])
    choose(t, g, ("challenge", 2))
    wait_for(t, g, (zilch.END,))
    assert g.totals[1:] == [4000, 1000] and g.last_turn["penalty"] == 2000
    assert g.last_turn["challenge_no"] == 1  # the first challenge P1 announced, yet 2,000
    assert "P1 pays 2000" in t.screen_text()
    next_turn(t, g)
    zilch_turn(t, g)  # P2
    next_turn(t, g)
    assert g.player == 1 and values(g) == [("roll",)]  # below 5,000, but "before" is closed

def test_a_restored_challenge_turn_keeps_its_challenge():
    t, g = table(2, challenge=True)
    choose(t, g, ("challenge", 2))
    s = g.state()
    assert s["turn"]["challenged"] == 2 and s["challenges"][1] == [True, False]
    t2, g2 = table(2, challenge=True)
    g2.restore(s, t2.now)
    assert g2.challenged == 2 and values(g2) == [("roll",)]
    assert "vs P2" in t2.screen_text()


def test_challenge_is_offered_only_with_the_option():
    t, g = table(3)
    assert values(g) == [("roll",)]
    assert g.record("zilch")["options"]["challenge"] is False


# --- input discipline -----------------------------------------------------------------------------
def test_presses_of_other_players_change_nothing():
    t, g = table(3, bots=(3,))
    roll(t, g, [1, 1, 5, 5, 2, 3])
    before = json.dumps(g.state(), sort_keys=True)
    index = g.menu.index
    text = t.screen_text()
    for p in (2, 3, 5):
        t.tap(p, 2)
        t.hold(p)
    assert json.dumps(g.state(), sort_keys=True) == before
    assert g.menu.index == index and t.screen_text() == text
    t.tap(1)
    assert g.menu.index == index + 1  # the active player's own button does move it


def test_bot_seat_never_waits_and_its_button_is_ignored():
    t, g = table(2, bots=(2,))
    zilch_turn(t, g)
    wait_for(t, g, (zilch.PRE,))
    assert g.player == 2
    t.hold(2)  # a human leaning on the bot's button
    t.tap(1)
    wait_for(t, g, (zilch.PRE,), max_ms=60000)  # the bot's turn ends by itself
    assert g.player == 1 and g.turn_no == 3


# --- screens, hint, state -----------------------------------------------------------------------
def test_screens_render_and_read(tmp_path):
    t, g = table(4, hint=True)
    g.totals[1:] = [1200, 350, 15000, 0]
    g.restore(g.state(), t.now)
    text = t.screen_text()
    for s in ("P1 to play", "this turn 0", "Roll 6 dice", "P1 1200", "P3 15000", "can't bank: roll"):
        assert s in text
    t.save_png(str(tmp_path / "pre.png"))
    roll(t, g, [1, 1, 5, 5, 2, 3])
    text = t.screen_text()
    assert "Set aside which?" in text and "1 1 5 5" in text and "+300" in text
    current = g.menu.current()[1]
    hint = zs.hint_text(current[2], 2, g.rules, False, 0)
    assert hint in text
    t.save_png(str(tmp_path / "pick.png"))
    keep(t, g, [1, 1])
    text = t.screen_text()
    assert "Roll 4 dice" in text and "this turn 200" in text
    assert zs.hint_text(200, 4, g.rules, False, 0) in text
    zilch_turn(t, g)
    t.save_png(str(tmp_path / "zilch.png"))
    for name in ("pre", "pick", "zilch"):
        assert (tmp_path / (name + ".png")).stat().st_size > 1000


def test_seven_players_fit_on_screen(tmp_path):
    t, g = table(7, bots=(7,))
    g.totals[1:] = [12350, 800, 15000, 0, 350, 9950, 1200]
    g.restore(g.state(), t.now)
    text = t.screen_text()
    for p, v in enumerate(g.totals[1:], 1):
        assert "P%d %d" % (p, v) in text
    t.save_png(str(tmp_path / "seven.png"))
    assert (tmp_path / "seven.png").exists()


def test_state_is_plain_data_and_restores():
    t, g = table(3, challenge=True, overtaking=True)
    roll(t, g, [1, 1, 1, 2, 3, 4])
    keep(t, g, [1, 1, 1])
    choose(t, g, ("bank",))
    next_turn(t, g)
    s = g.state()
    assert json.loads(json.dumps(s)) == s
    assert s["totals"] == [0, 1000, 0, 0] and s["last_bank"][1] == 1000
    assert s["turn"]["player"] == 2
    r = g.record("zilch")  # seats, options, seed: BaseGame.record, not state()
    assert r["options"]["challenge"] and r["options"]["overtaking"]
    assert r["seed"] == g.seed and g.rules.variant() == "classic"
    assert not {"seed", "players", "bots", "options", "variant", "target"} & set(s)
    t2, g2 = table(3, challenge=True, overtaking=True)
    g2.restore(s, t2.now)
    s2 = g2.state()
    for key in ("totals", "on_board", "last_bank", "challenges", "previous", "final_by", "turn_no"):
        assert s2[key] == s[key]
    assert g2.player == 2 and g2.beat() == 1000


def test_game_over_hold_returns_to_the_launcher():
    t, g = table(2, (1, 2), 1, FAST, variant=5000)
    assert t.run_until_over(600000)
    t.hold(1)
    assert t.app.mode == "over"  # the session's wins
    t.hold(1)
    assert t.app.mode == "launcher"


# --- options from code, mixed bots, endgame, pause, restore (audit fixes) --------------------------
def test_options_from_code_are_bools_and_int_targets():
    t = SimTable(players=2, seed=1)
    g = t.start("zilch", variant=10000, pyramiding=True, challenge=True, overtaking=True, hint=True)
    r = g.rules
    assert (r.target, r.pyramiding, r.challenge, r.overtaking, g.show_hint) == (10000, True, True, True, True)
    t2 = SimTable(players=2, seed=1)
    g2 = t2.start("zilch", variant=5000, pyramiding=False)
    assert g2.rules.target == 5000 and not g2.rules.pyramiding and not g2.show_hint
    names = {o.key: (o.name(o.default), o.name(True)) for o in zilch.OPTIONS}
    assert names["pyramiding"] == ("off", "on") and names["variant"][0] == "15,000"  # on/off only on screen


def test_mixed_bots_alternate_cautious_and_expected_value_by_seat():
    t, g = table(3, bots=(2, 3), bot="mixed")
    assert g.bot_kinds == {2: "cautious", 3: "ev"}
    zilch_turn(t, g)  # P1 (human)
    next_turn(t, g)
    assert g.player == 2 and "P2 bot: cautious" in t.screen_text()
    load_dice(g, [1, 1, 5, 2, 3, 4], [2, 3, 4])
    wait_for(t, g, (zilch.NEXT,))
    assert g.frozen == [1, 1, 5]  # the cautious bot takes the most points
    wait_for(t, g, (zilch.END,))
    next_turn(t, g)
    assert g.player == 3 and "P3 bot: exp. value" in t.screen_text()
    load_dice(g, [1, 1, 5, 2, 3, 4], [2, 3, 4, 6, 6])
    wait_for(t, g, (zilch.NEXT,))
    assert g.frozen == [1]  # the same throw: the EV bot keeps a single 1 and rolls five


def test_ev_bot_banks_a_final_turn_that_wins_the_game():
    t, g = table(2, bots=(2,), bot="expected")
    s = g.state()  # P1 triggered the end at 15,100; P2's final turn is the last of the game
    s["totals"] = [0, 15100, 14800]
    s["on_board"] = [False, True, True]
    s["final_by"], s["queue"], s["previous"] = 1, [], 1
    s["turn"]["player"] = 2
    g.restore(s, t.now)
    assert not zs.ev_should_bank(400, 3, g.rules)  # on points alone the EV bot would roll on
    load_dice(g, [4, 4, 4, 2, 3, 6], [2, 3, 6])  # had it rolled on: a Zilch
    wait_for(t, g, (zilch.OVER,), max_ms=10000)
    assert g.winners == [2] and g.totals[1:] == [15100, 15200]


def test_ev_bot_still_rolls_when_a_tie_break_rival_plays_after_it():
    t, g = table(3, bots=(2,), bot="expected")
    s = g.state()  # P3 is still owed a final turn: banking 15,200 is no sure win
    s["totals"] = [0, 15100, 14800, 14000]
    s["on_board"] = [False, True, True, True]
    s["final_by"], s["queue"], s["previous"] = 1, [3], 1
    s["turn"]["player"] = 2
    g.restore(s, t.now)
    load_dice(g, [4, 4, 4, 2, 3, 6], [2, 3, 6])
    wait_for(t, g, (zilch.END,), max_ms=10000)
    assert g.last_turn["result"] == "zilch"  # it rolled on (expected value), as before


def test_a_pause_does_not_cut_the_result_or_a_bots_think_time():
    t, g = table(2, bots=(2,), speed=dict(think_ms=1500, roll_ms=4, show_ms=1500))
    roll(t, g, [1, 1, 1, 2, 3, 4])
    keep(t, g, [1, 1, 1])
    choose(t, g, ("bank",))
    assert g.phase == zilch.END
    t.advance(100)
    t.menu()
    t.advance(3000)
    assert t.app.mode == "pause"
    t.hold(1)  # Resume
    assert t.app.mode == "game" and g.phase == zilch.END  # the bank is still on screen
    wait_for(t, g, (zilch.PRE,))
    assert g.player == 2
    t.advance(300)  # the bot thinks 1.5 s
    t.menu()
    t.advance(3000)
    t.hold(1)
    assert g.phase == zilch.PRE and g.bot_shown() is None  # still thinking after the pause
    wait_for(t, g, (zilch.ROLL, zilch.PICK, zilch.END))


def test_a_finished_match_restores_finished():
    t, g = table(2, (1, 2), 3, FAST, variant=5000)
    assert t.run_until_over(600000)
    s = g.state()
    t2, g2 = table(2, (1, 2), 3, FAST, variant=5000)
    g2.restore(s, t2.now)
    assert g2.over and g2.winners == g.winners and g2.phase == zilch.OVER
    assert "WINS" in t2.screen_text()


# --- the tumble and the challenge ruling (issue "Table-ready") ---------------------------------
def tumble_frames(t, g):
    """The looks (face, body) the big dice show at each change during one tumble, and the
    dice dealt."""
    frames = []
    while g.phase == zilch.ROLL:
        looks = [d.look[:2] for d in g.view.big if d.look is not None]
        if not frames or looks != frames[-1]:
            frames.append(looks)
        t.advance(2)
    return frames, list(g.roll)


def test_the_tumble_turns_one_die_at_a_time_looks_random_and_lands_on_the_dealt_dice():
    # One die turns a loop pass, the dice in turn (a pass redraws one die's area, not six:
    # issue "The box never freezes"); each turns about every FRAME_MS; the last round of
    # turns lands each die on the face dealt to it
    firsts = []
    for seed in (1, 2, 3, 4):
        t, g = table(2, seed=seed, speed=dict(think_ms=6, roll_ms=600, show_ms=1500))
        t.watch = True  # every frame a pass, as the box's loop (and the window)
        wait_for(t, g, (zilch.PRE,))
        t.press(1, hold_ms=800)  # hold "Roll 6 dice": the tumble starts at 600 ms
        wait_for(t, g, (zilch.ROLL,))
        start = [d.look[:2] for d in g.view.big]  # the pass that threw turned the first die:
        assert start[0][1] == palette.WHITE  # the others lie grey as they lay, blank
        assert all(look == (None, zilch_screen.FREE) for look in start[1:])
        frames, dealt = tumble_frames(t, g)
        assert len(frames) >= 40  # about 600 / (70 / 6) turns
        seen = [[] for _ in range(6)]
        for a, b in zip(frames, frames[1:]):
            changed = [i for i in range(6) if a[i] != b[i]]
            assert len(changed) == 1  # one die a turn
            seen[changed[0]].append(b[changed[0]][0])
        order = [i for a, b in zip(frames, frames[1:]) for i in range(6) if a[i] != b[i]]
        assert order[:11] == [1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5]  # in turn (the first: above)
        for i in range(6):
            assert len(set(seen[i])) >= 4  # not the 1,4,1,4 of a fixed formula
            assert all(x != y for x, y in zip(seen[i], seen[i][1:]))  # a turn shows another face
        assert [f for f, _ in frames[-1]] == dealt  # landed on the dealt dice, white
        assert all(body == palette.WHITE for _, body in frames[-1])
        firsts.append(tuple(f for f, _ in frames[6]))
    assert len(set(firsts)) == 4
    dealt = []  # the same seed deals the same dice, however long the tumble ran
    for roll_ms in (4, 600):
        t, g = table(2, seed=7, speed=dict(think_ms=6, roll_ms=roll_ms, show_ms=1500))
        choose(t, g, ("roll",))
        wait_for(t, g, (zilch.PICK, zilch.END))
        dealt.append(list(g.roll))
    assert dealt[0] == dealt[1]


def test_the_before_challenge_closes_for_good_once_5000_is_reached():
    t, g = table(2, challenge=True)
    g.totals[1:] = [4800, 0]
    g.on_board[1:] = [True, True]
    g.restore(g.state(), t.now)
    assert g.challenge_slot(1) == 0 and g.reached[1] is False
    roll(t, g, [1, 1, 1, 2, 3, 4])  # no challenge: a plain roll
    keep(t, g, [1, 1, 1])
    choose(t, g, ("bank",))  # 5800: the 5,000 is reached, the "before" one unused
    assert g.reached[1] and g.challenge_slot(1) == 1
    next_turn(t, g)
    load_dice(g, [1, 1, 1, 2, 3, 4])
    choose(t, g, ("challenge", 1))  # P2 takes 1000 off P1: 4800 again
    keep(t, g, [1, 1, 1])
    choose(t, g, ("bank",))
    assert g.totals[1:] == [4800, 1000]
    next_turn(t, g)
    assert g.player == 1 and g.challenge_slot(1) == 1  # below 5,000, yet only "after"
    assert "Challenge risk 2000" in t.screen_text()  # P1's first challenge, the "after" one
    load_dice(g, [2, 3, 4, 6, 6, 2])
    choose(t, g, ("challenge", 2))
    wait_for(t, g, (zilch.END,))
    assert g.challenges[1] == [False, True] and g.totals[1] == 2800
    s = g.state()
    assert s["reached"][1] is True
    t2, g2 = table(2, challenge=True)
    g2.restore(s, t2.now)
    assert g2.reached[1] and g2.challenge_slot(1) == -1  # "before" closed, "after" used


def test_a_restored_total_at_5000_counts_as_reached():
    t, g = table(2, challenge=True)
    s = g.state()
    s["totals"] = [0, 5000, 0]
    g.restore(s, t.now)
    assert g.reached[1:] == [True, False] and g.challenge_slot(1) == 1 and g.challenge_slot(2) == 0


def test_zilch_imports_bots_and_strategy_only_when_needed():
    import sys

    import games

    games.unload()
    t, g = table(2)
    assert "games.zilch_bots" not in sys.modules and "games.zilch_strategy" not in sys.modules
    games.unload()
    t, g = table(2, hint=True)  # the hint line reads the strategy's tables, no bots
    assert "games.zilch_strategy" in sys.modules and "games.zilch_bots" not in sys.modules
    games.unload()
    t, g = table(2, bots=(2,))
    assert "games.zilch_bots" in sys.modules


def test_every_phase_change_is_one_the_flow_table_lists():
    assert zilch.PRE == 0 and zilch.OVER == len(zilch.Game.NAMES) - 1 == len(zilch.Game.FLOW) - 1
    t, g = table(2, (1, 2), 3, FAST, variant=5000)
    seen = set()
    real = g.go

    def go(phase, now):
        seen.add((g.phase, phase))
        real(phase, now)

    g.go = go
    assert t.run_until_over(600000)
    assert all(b in zilch.Game.FLOW[a] for a, b in seen)
    assert {(zilch.PRE, zilch.ROLL), (zilch.ROLL, zilch.PICK), (zilch.PICK, zilch.NEXT),
            (zilch.NEXT, zilch.END), (zilch.END, zilch.PRE), (zilch.END, zilch.OVER)} <= seen
    with pytest.raises(ValueError):
        g.go(zilch.PICK, t.now)  # OVER goes nowhere


def test_the_rolls_set_asides_are_worked_out_while_the_dice_tumble():
    # a few sets of dice a pass (options_steps), known before the tumble ends
    t, g = table(2, seed=3, speed=dict(think_ms=6, roll_ms=600, show_ms=1500))
    t.watch = True  # every pass run, as the box's loop
    wait_for(t, g, (zilch.PRE,))
    t.press(1, hold_ms=800)
    wait_for(t, g, (zilch.ROLL,))
    assert g._found is None
    t.advance(300)
    assert g.phase == zilch.ROLL and g._found is not None
    wait_for(t, g, (zilch.PICK, zilch.END))


def test_a_new_turn_is_drawn_over_passes_its_screen_then_its_scores_then_its_menu():
    # a turn's change in one pass was a 20 ms tick on the firmware: the header and dice
    # in the pass that begins the turn, the scores' highlight in a later one, the menu
    # in the one after (the turn's save, a pass of its own, between them)
    t, g = table(3)
    zilch_turn(t, g)  # P1 throws a Zilch: P2's turn begins when the result has been shown
    v = g.view
    seen = []
    while g.player == 1 or g.phase != zilch.PRE:
        t.advance(2)
    seen.append((v.head.text, v._marked, g._menu_due))
    while g._menu_due:
        t.advance(2)
        seen.append((v.head.text, v._marked, g._menu_due))
    assert seen[0][0] == "P2 to play" and seen[0][1] != 2  # the header: now; P2's row not yet marked
    assert seen[-1][1:] == (2, 0)  # marked: the band under P2's row
    # the band is a dim P2 colour under P2's row, which keeps its colour (no row is
    # recoloured when the turn passes: a 20-22 ms refresh on the firmware)
    assert v.score_rows[1].color == palette.station(2)
    assert all(part.pixel_shader[0] == palette.scale(palette.station(2), 110) for part in v.score_bg)
    assert [s[2] for s in seen].count(1) >= 1  # the scores before the menu, a pass apart
    assert "Roll 6 dice" in t.screen_text()


def test_a_turn_s_result_comes_with_its_banner_and_its_scores_a_pass_later():
    # the result, its banner and the scores in one pass were 25-27 ms on the firmware
    t, g = table(3)
    v = g.view
    at_banner = []
    real = g._banner

    def banner(big, small, colour):
        real(big, small, colour)
        at_banner.append((big, g._menu_due, v._marked))

    g._banner = banner
    zilch_turn(t, g)
    assert at_banner == [("ZILCH!", 2, 1)]  # the banner in the result's pass, the scores not yet
    assert t.advance_until(lambda: not g._menu_due, 200)
    assert g.phase == zilch.END and v._totals == g.totals
