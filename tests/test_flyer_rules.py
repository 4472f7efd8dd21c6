"""Essen 2006 flyer game: the pure rules (games/flyer_rules.py) and the bots
(games/flyer_bots.py). Rulings: docs/flyer.md."""

import json

import pytest

from games import flyer_bots as B
from games import flyer_rules as R
from referee.rng import Rng

COLOURS = R.COLOURS
RING = ("red", "purple", "blue", "green", "yellow")


def bits(*colours):
    m = 0
    for c in colours:
        m |= R.bit(c)
    return m


def state_with(stacks, values=None, players=4, scores=None):
    s = R.State(players)
    s.values = dict(values or {c: i + 1 for i, c in enumerate(reversed(COLOURS))})
    s.stacks = {k: list(v) for k, v in stacks.items() if v}
    s.scores = list(scores or [0] * players)
    for p in range(players):
        s.scores[p] = sum(s.values[c] for c in s.stacks.get(R.HOMES[p], ()))
    return s


def random_state(rng, players=4):
    """Markers scattered at random (homes of seated players included), random values."""
    s = R.State(players)
    s.values = R.values_from([rng.randbelow(6) + 1 for _ in range(6)])
    spaces = [x for x in R.SPACES if x not in R.OWNER or R.OWNER[x] <= players]
    order = list(COLOURS)
    rng.shuffle(order)
    for c in order:
        s.stacks.setdefault(spaces[rng.randbelow(len(spaces))], []).append(c)
    for p in range(players):
        s.scores[p] = sum(s.values[c] for c in s.stacks.get(R.HOMES[p], ()))
    return s


def random_dice(rng):
    dice = R.roll(rng)
    for i in range(6):
        if rng.randbelow(3) == 0:
            dice[i] = None
    return dice


# ------------------------------------------------------------------ brute force


def brute_moves(state, player, dice_left, covered):
    """Every (frm, to, mask) checked from first principles, written apart from the
    module: all space pairs and all 63 marker sets, payment as multiset removal."""
    out = set()
    for frm in R.BOARD:
        if frm.startswith("home"):
            continue
        stack = state.stacks.get(frm, [])
        for to in R.BOARD:
            if to not in R.BOARD[frm][3]:
                continue
            pay = R.BOARD[to][0]
            if pay is None:
                continue
            if to.startswith("home") and int(to[4:]) != player:
                continue
            for mask in range(1, 64):
                chosen = [c for i, c in enumerate(COLOURS) if mask >> i & 1]
                if not set(chosen) <= set(stack):
                    continue
                if covered and set(chosen) != set(stack[len(stack) - len(chosen):]):
                    continue
                purse = [d for d in dice_left if d is not None]
                try:
                    for c in [pay] + chosen:
                        purse.remove(c)
                except ValueError:
                    continue
                out.add((frm, to, mask))
    return out


# ------------------------------------------------------------------ the board


def test_board_table():
    names = {"centre", "yellow", "green", "blue", "purple", "red", "border",
             "home1", "home2", "home3", "home4"}
    assert set(R.ADJACENT) == names == set(R.BOARD) == set(R.POS) == set(R.PAYS)
    for s, ns in R.ADJACENT.items():
        assert isinstance(ns, tuple) and s not in ns
        for n in ns:
            assert s in R.ADJACENT[n], (s, n)  # symmetric
    for c in RING:
        assert R.PAYS[c] == c
        assert set(R.ADJACENT[c]) >= {"centre", "border"}
    assert R.PAYS["border"] == "white" and R.PAYS["centre"] is None
    for i, h in enumerate(R.HOMES):
        assert R.ADJACENT[h] == ("border",) and R.PAYS[h] == "white" and R.OWNER[h] == i + 1
    assert set(R.ADJACENT["border"]) == set(RING) | set(R.HOMES)
    # ring order red - purple - blue - green - yellow - red
    for i, c in enumerate(RING):
        assert RING[(i + 1) % 5] in R.ADJACENT[c] and RING[i - 1] in R.ADJACENT[c]
    for x, y in R.POS.values():
        assert 0 <= x < 320 and 0 <= y < 240 and isinstance(x, int) and isinstance(y, int)
    assert R.STEPS == dict({"centre": 3, "border": 1}, **{c: 2 for c in RING},
                           **{h: 0 for h in R.HOMES})


# ------------------------------------------------------------------ set-up


def test_setup_values_stack_and_first_player():
    for seed in range(50):
        s, throws = R.setup(Rng(seed))
        assert len(throws) == 6 and all(1 <= t <= 6 for t in throws)
        t = sorted(throws)
        assert [s.values[c] for c in ("red", "purple", "blue", "green", "yellow", "white")] == t
        assert s.stacks == {"centre": ["white", "yellow", "green", "blue", "purple", "red"]}
        assert s.current == 4 and s.scores == [0, 0, 0, 0] and s.turns == 0
    # the throws come back as thrown (the same numbers the rng gave)
    rng = Rng(7)
    expect = [rng.randbelow(6) + 1 for _ in range(6)]
    assert R.setup(Rng(7))[1] == expect
    # ties allowed
    assert R.values_from([3, 3, 3, 3, 3, 3]) == {c: 3 for c in COLOURS}
    s, _ = R.setup(Rng(1), players=3)
    assert s.current == 3 and len(s.scores) == 3
    with pytest.raises(ValueError):
        R.State(5)


def test_turn_order_last_seat_first_then_seat_order():
    s, _ = R.setup(Rng(3))
    seen = []
    for _ in range(6):
        seen.append(s.current)
        R.end_turn(s)
    assert seen == [4, 1, 2, 3, 4, 1] and s.turns == 6


def test_colour_dice_are_uniform():
    rng = Rng(11)
    counts = {c: 0 for c in COLOURS}
    for _ in range(2000):
        throw = R.roll(rng)
        assert len(throw) == 6
        for c in throw:
            counts[c] += 1
    for c in COLOURS:
        assert 1800 < counts[c] < 2200, counts


# ------------------------------------------------------------------ the rule text's examples


def test_example_red_field_with_and_without_the_optional_rule():
    # 2 red, 1 blue, 1 yellow, 1 white (the text names five dice; the sixth is spent)
    s, _ = R.setup(Rng(1))
    dice = ["red", "blue", "red", "yellow", None, "white"]
    into_red = {m for m in R.payable_moves(s, 4, dice, False) if m[1] == "red"}
    # without the rule the covered red-paid markers below purple may move too
    movable = bits("red", "blue", "yellow", "white")
    assert {m[2] for m in into_red} == {m for m in range(1, 64) if m & movable == m}
    # with the rule: only the red marker; purple (no purple die) blocks the rest
    assert [m for m in R.payable_moves(s, 4, dice, True) if m[1] == "red"] == [
        ("centre", "red", bits("red"))]
    # with a purple die the player could move markers further down the stack
    dice[4] = "purple"
    groups = {m[2] for m in R.payable_moves(s, 4, dice, True) if m[1] == "red"}
    assert groups == {bits("red"), bits("red", "purple"), bits("red", "purple", "blue")}


def test_example_two_whites_from_yellow_to_a_homebase():
    s = state_with({"centre": ["white", "yellow", "blue", "purple", "red"],
                    "yellow": ["green"]})
    dice = ["green", "white", "red", "green", "white", "blue"]
    first = ("yellow", "border", bits("green"))
    assert first in R.payable_moves(s, 2, dice)
    assert R.play(s, first, 2, dice) == 0
    home = ("border", "home2", bits("green"))
    assert R.payable_moves(s, 2, dice) == [home] or home in R.payable_moves(s, 2, dice)
    assert R.play(s, home, 2, dice) == s.values["green"]
    assert s.scores == [0, s.values["green"], 0, 0]
    assert dice == [None, None, "red", None, None, "blue"]
    # one white fewer: the marker cannot get home this turn
    s = state_with({"yellow": ["green"], "centre": ["white", "yellow", "blue", "purple", "red"]})
    dice = ["green", "white", "red", "green", "yellow", "blue"]
    R.play(s, first, 2, dice)
    assert not [m for m in R.payable_moves(s, 2, dice) if m[1].startswith("home")]


def test_a_group_arrives_in_reverse_order():
    s, _ = R.setup(Rng(1))
    dice = ["red", "red", "purple", "blue", "green", "yellow"]
    R.play(s, ("centre", "red", bits("red", "purple", "blue")), 4, dice, True)
    assert s.stacks["red"] == ["red", "purple", "blue"]  # was blue, purple, red upwards
    assert s.stacks["centre"] == ["white", "yellow", "green"]
    # without the optional rule a scattered group also leaves highest first
    s, _ = R.setup(Rng(1))
    dice = ["blue", "red", "blue", "yellow", "white", None]
    R.play(s, ("centre", "blue", bits("red", "yellow", "white")), 4, dice)
    assert s.stacks["blue"] == ["red", "yellow", "white"]
    assert s.stacks["centre"] == ["green", "blue", "purple"]
    # on top of what is already there
    R.play(s, ("centre", "blue", bits("purple", "green")), 4,
           ["blue", "purple", "green", None, None, None])
    assert s.stacks["blue"] == ["red", "yellow", "white", "purple", "green"]
    assert s.stacks["centre"] == ["blue"]


# ------------------------------------------------------------------ payment


def test_payment_names_distinct_matching_dice_and_each_die_pays_once():
    s, _ = R.setup(Rng(1))
    dice = ["red", "white", "red", "red", "purple", "blue"]
    move = ("centre", "red", bits("red", "purple"))
    idx = R.payment(s, move, dice)
    assert idx == (0, 2, 4)  # the space's die first, then the markers top first
    assert [dice[i] for i in idx] == ["red", "red", "purple"]
    R.play(s, move, 4, dice)
    assert dice == [None, "white", None, "red", None, "blue"]
    # the purple die is spent: purple cannot move again this turn
    assert not [m for m in R.payable_moves(s, 4, dice) if m[2] & bits("purple")]
    back = ("red", "centre", bits("purple"))
    assert back not in R.payable_moves(s, 4, dice)  # the centre takes nobody
    with pytest.raises(ValueError):
        R.play(s, ("red", "purple", bits("purple")), 4, dice)
    # the same colour pays for the space and a marker only with two dice
    s, _ = R.setup(Rng(1))
    assert R.payment(s, ("centre", "red", bits("red")), ["red", None, None, None, None, None]) is None
    assert R.payment(s, ("centre", "red", bits("red")), ["red", "red", None, None, None, None]) == (0, 1)


def test_a_move_takes_its_markers_from_one_space_a_ruling_with_its_reason():
    # Green on the yellow space and blue on the red space, both next to the border: the
    # flyer prices a move per destination, but says its markers move one by one and
    # arrive inverted, as one stack does. The box keeps one origin per move (one
    # (frm, to, mask) per move): the two markers never share one payment for the border.
    s = state_with({"yellow": ["green"], "red": ["blue"], "centre": ["white", "yellow", "purple", "red"]})
    dice = ["white", "green", "blue", None, None, None]
    moves = R.payable_moves(s, 1, dice)
    to_border = [m for m in moves if m[1] == "border"]
    assert sorted(to_border) == [("red", "border", bits("blue")), ("yellow", "border", bits("green"))]
    R.play(s, ("yellow", "border", bits("green")), 1, dice)
    assert not [m for m in R.payable_moves(s, 1, dice) if m[1] == "border"]  # one white: spent
    with pytest.raises(ValueError):
        R.play(s, ("red", "border", bits("blue")), 1, dice)
    # the ruling is written down where the table reads the rulings, with its reasons
    import os

    docs = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs")
    with open(os.path.join(docs, "rulings.md"), encoding="utf-8") as f:
        rulings = f.read()
    flyer = rulings[rulings.index("## The Essen 2006 flyer game"):]
    assert "**One origin per move**" in flyer
    for reason in ("per destination", "one by one", "inverted", "one stack"):
        assert reason in flyer, reason
    with open(os.path.join(docs, "flyer.md"), encoding="utf-8") as f:
        assert "**One origin per move**" in f.read()

def test_homebase_only_own_and_markers_stay_home():
    s = state_with({"border": ["red", "blue"], "home3": ["white"],
                    "centre": ["yellow", "green", "purple"]})
    dice = ["white", "blue", "red", "white", "white", "blue"]
    for p in range(1, 5):
        moves = R.payable_moves(s, p, dice)
        homes = {m[1] for m in moves if m[1].startswith("home")}
        assert homes == {"home%d" % p}
        assert not [m for m in moves if m[0].startswith("home")]
    with pytest.raises(ValueError):
        R.apply(s, ("border", "home1", bits("blue")), 2)
    with pytest.raises(ValueError):
        R.apply(s, ("home3", "border", bits("white")), 3)
    assert R.apply(s, ("border", "home1", bits("blue")), 1) == s.values["blue"]
    assert s.scores[0] == s.values["blue"]


# ------------------------------------------------------------------ properties


def check_invariants(s):
    everywhere = [c for st in s.stacks.values() for c in st]
    assert sorted(everywhere) == sorted(COLOURS)  # conservation
    assert all(s.stacks.values())  # empty stacks omitted
    for p in range(s.players):
        assert s.scores[p] == sum(s.values[c] for c in s.stacks.get(R.HOMES[p], ()))


def test_thousands_of_random_legal_moves_keep_markers_and_scores():
    rng = Rng(2006)
    moves_played = 0
    for game in range(60):
        covered = game % 2 == 1
        s, _ = R.setup(rng, players=4 if game % 3 else 3)
        while not R.over(s) and s.turns < 60:
            dice = R.roll(rng)
            p = s.current
            homes_before = {h: list(s.stacks.get(h, ())) for h in R.HOMES}
            spent = 0
            while True:
                moves = R.payable_moves(s, p, dice, covered)
                if not moves or rng.randbelow(6) == 0:
                    break
                m = moves[rng.randbelow(len(moves))]
                before = [d for d in dice if d is not None]
                idx = R.payment(s, m, dice)
                assert len(set(idx)) == len(idx) == R.count(m) + 1
                assert all(dice[i] is not None for i in idx)
                old = list(s.scores)
                pts = R.play(s, m, p, dice, covered)
                assert sum(s.scores) - sum(old) == pts
                spent += len(idx)
                assert len([d for d in dice if d is not None]) == len(before) - len(idx)
                moves_played += 1
                check_invariants(s)
            assert spent <= 6
            for h, st in homes_before.items():  # nothing ever leaves a homebase
                assert s.stacks.get(h, [])[:len(st)] == st
            R.end_turn(s)
    assert moves_played > 2000


def test_payable_moves_complete_and_sound_against_brute_force():
    rng = Rng(99)
    checked = 0
    for i in range(500):
        players = 2 + i % 3
        s = random_state(rng, players)
        dice = random_dice(rng) if i % 4 else R.roll(rng)
        player = 1 + rng.randbelow(players)
        for covered in (False, True):
            got = R.payable_moves(s, player, dice, covered)
            assert len(got) == len(set(got)), "duplicates"
            want = brute_moves(s, player, dice, covered)
            assert set(got) == want
            for m in got:
                idx = R.payment(s, m, dice)
                assert idx is not None and len(set(idx)) == R.count(m) + 1
                assert dice[idx[0]] == R.PAYS[m[1]]
                assert sorted(dice[j] for j in idx[1:]) == sorted(R.colours_of(m[2]))
                assert R.legal(s, m, player, covered)
            checked += len(got)
    assert checked > 3000


# ------------------------------------------------------------------ menus


def walk_menus(s, player, dice, covered):
    """Every move reachable through the three menu levels; asserts the level sizes."""
    found = []
    top = R.menu_from(s, player, dice, covered)
    assert top[0] == ("End turn", R.END) and len(top) <= 7
    for _text, frm in top[1:]:
        todo = [0]
        while todo:
            picked = todo.pop()
            items = R.menu_markers(s, player, dice, covered, frm, picked)
            assert 1 <= len(items) <= 7
            for text, (mask, done) in items:
                assert len(text) <= 24
                if not done:
                    todo.append(mask)
                    continue
                tos = R.menu_to(s, player, dice, covered, frm, mask)
                assert 1 <= len(tos) <= 7
                for text2, move in tos:
                    assert move[:1] == (frm,) and move[2] == mask and len(text2) <= 24
                    found.append(move)
    return found


def test_menus_cover_every_payable_move_with_at_most_seven_items_a_level():
    rng = Rng(5)
    pickers = 0
    for i in range(300):
        s = random_state(rng) if i % 2 else R.setup(rng)[0]
        dice = random_dice(rng) if i % 3 else R.roll(rng)
        for covered in (False, True):
            player = 1 + rng.randbelow(4)
            found = walk_menus(s, player, dice, covered)
            assert set(found) == set(R.payable_moves(s, player, dice, covered))
            if not covered and len(R.menu_markers(s, player, dice, False, "centre")) and \
                    not R.menu_markers(s, player, dice, False, "centre")[0][1][1]:
                pickers += 1
    assert pickers > 5  # the picker level was exercised
    s, _ = R.setup(Rng(1))
    assert R.menu_from(s, 4, [None] * 6) == [("End turn", R.END)]


def test_describe():
    assert R.describe(("centre", "red", bits("red")), 2) == "P2: red centre to red"
    # one move's markers read as one word: full names when they fit 26 characters
    assert R.describe(("centre", "red", bits("red", "purple"))) == "purple+red centre to red"
    assert R.describe(("border", "home2", bits("yellow", "purple")), 2) == "P2: yel+pur border to home2"
    assert R.describe(("border", "home2", bits("red", "blue", "white")), 2) == \
        "P2: 3 markers border to home2"
    assert R.names(bits("yellow", "blue")) == "yellow+blue"


# ------------------------------------------------------------------ end, cap, winners


def test_end_and_winners():
    s = state_with({"home1": ["red", "white"], "home2": ["blue", "purple", "green", "yellow"]},
                   values={"white": 6, "yellow": 5, "green": 3, "blue": 3, "purple": 2, "red": 1})
    assert R.over(s) and s.scores == [7, 13, 0, 0] and R.winners(s) == [2]
    s = state_with({"home1": ["red", "white"], "home3": ["blue", "yellow"], "border": ["purple",
                    "green"]}, values={c: 3 for c in COLOURS})
    assert not R.over(s) and R.winners(s) == [1, 3]
    s.cap = 8
    s.turns = 7
    assert not R.over(s)
    R.end_turn(s)
    assert R.over(s)
    s.cap = 0
    assert not R.over(s)


# ------------------------------------------------------------------ bots


def test_greedy_takes_the_two_white_route_home():
    s = state_with({"centre": ["white", "yellow", "blue", "purple", "red"],
                    "yellow": ["green"]})
    dice = ["white", "green", "red", "green", "blue", "white"]
    played = B.play_turn(s, 3, dice, False, Rng(1), B.greedy)
    assert played[:2] == [("yellow", "border", bits("green")), ("border", "home3", bits("green"))]
    assert s.scores[2] == s.values["green"]


def test_greedy_moves_valuable_markers_closer_when_it_cannot_score():
    s, _ = R.setup(Rng(1))
    s.values = R.values_from([1, 2, 3, 4, 5, 6])
    dice = ["purple", "red", "purple", "yellow", "green", "blue"]
    def closeness(state):
        return sum(state.values[c] * (3 - R.STEPS[sp])
                   for sp, st in state.stacks.items() for c in st)

    before = closeness(s)
    played = B.play_turn(s, 4, dice, True, Rng(2), B.greedy)
    assert played and closeness(s) > before and s.scores == [0, 0, 0, 0]
    check_invariants(s)


def test_spoiler_pulls_a_valuable_marker_off_the_border():
    s = state_with({"border": ["red", "white"], "centre": ["yellow", "green", "blue", "purple"]},
                   values={"white": 6, "yellow": 5, "green": 4, "blue": 3, "purple": 2, "red": 1})
    dice = ["blue", "white", "yellow", "yellow", "green", "green"]  # one white: cannot score
    m = B.spoiler(s, 1, dice, False, Rng(1))
    assert m is not None and m[0] == "border" and m[2] & bits("white")
    assert B.greedy(s, 1, dice, False, Rng(1)) is None or \
        B.greedy(s, 1, dice, False, Rng(1))[0] != "border"


@pytest.mark.parametrize("w", [B._greedy_w, B._spoil_w])
def test_a_move_weighed_from_the_value_before_is_its_value_after(w):
    # the search weighs a move from the value before it (only the markers moved
    # change it); a move home that changes who leads is weighed whole: every move of
    # a few hundred boards, the spoiler behind, level and ahead, against the board
    # valued after the move is played
    rng = Rng(11)
    lead_changes = 0
    for _ in range(300):
        s = random_state(rng)
        p = 1 + rng.randbelow(4)
        dice = R.roll(rng)
        k = B._tables(s, p, w)
        here = B._value(s, p, w)
        before = R.to_data(s)
        for m in R.payable_moves(s, p, dice):
            after = R.State(4)
            after.values = s.values
            after.scores = list(s.scores)
            after.stacks = {x: list(st) for x, st in s.stacks.items()}
            R.apply(after, m, p)
            top = max(s.scores[q] for q in range(4) if q != p - 1)
            lead_changes += s.scores[p - 1] < top <= after.scores[p - 1]
            assert B._weigh(s, m, p, here, k) == B._value(after, p, w), (s.stacks, s.scores, m)
        assert R.to_data(s) == before  # weighing left the board as it was
    assert lead_changes > 10


def test_bots_stop_when_nothing_helps():
    s = state_with({"home1": list(COLOURS)})
    assert B.greedy(s, 2, R.roll(Rng(1)), False, Rng(1)) is None
    s, _ = R.setup(Rng(1))
    assert B.spoiler(s, 1, [None] * 6, True, Rng(1)) is None


def play_game(seed, bots, covered, cap=R.TURN_CAP):
    rng = Rng(seed)
    s, _ = R.setup(rng, cap=cap)
    while not R.over(s):
        p = s.current
        dice = R.roll(rng)
        while True:
            m = bots[p - 1](s, p, dice, covered, rng)
            if m is None:
                break
            assert m in R.payable_moves(s, p, dice, covered)
            R.play(s, m, p, dice, covered)
        check_invariants(s)
        R.end_turn(s)
    return s


@pytest.mark.parametrize("covered", [False, True], ids=["base", "optional-rule"])
@pytest.mark.parametrize("table", ["greedy", "spoiler", "mixed"])
def test_seeded_bot_games_reach_the_end(table, covered):
    bots = {"greedy": [B.greedy] * 4, "spoiler": [B.spoiler] * 4,
            "mixed": [B.greedy, B.spoiler, B.greedy, B.spoiler]}[table]
    home = 0
    for seed in range(8):
        s = play_game(seed, bots, covered)
        assert R.over(s) and s.turns <= R.TURN_CAP
        assert R.winners(s)
        home += R.markers_home(s) == 6
    assert home >= 6  # most games end with every marker home, not at the cap


def test_the_cap_ends_a_stalled_game_by_score():
    s = play_game(4, [B.spoiler] * 4, False, cap=12)
    assert s.turns == 12 and R.over(s)
    best = max(s.scores)
    assert R.winners(s) == [p + 1 for p in range(4) if s.scores[p] == best]


def test_bot_games_are_reproducible():
    a = play_game(21, [B.greedy, B.spoiler] * 2, False)
    b = play_game(21, [B.greedy, B.spoiler] * 2, False)
    assert R.to_data(a) == R.to_data(b)


# ------------------------------------------------------------------ save / resume


def test_data_round_trip():
    rng = Rng(8)
    for i in range(100):
        s = random_state(rng, 2 + i % 3)
        s.current = 1 + rng.randbelow(s.players)
        s.turns = rng.randbelow(50)
        s.cap = rng.randbelow(300)
        data = json.loads(json.dumps(R.to_data(s)))
        t = R.from_data(data)
        assert R.to_data(t) == R.to_data(s)
        assert t.stacks == s.stacks and t.values == s.values and t.scores == s.scores
        assert (t.current, t.turns, t.cap, t.players) == (s.current, s.turns, s.cap, s.players)
    # a resumed game plays on exactly as the original
    a = play_game(3, [B.greedy] * 4, True, cap=5)
    b = R.from_data(R.to_data(a))
    for s in (a, b):
        s.cap = R.TURN_CAP
    r1, r2 = Rng(77), Rng(77)
    for s, r in ((a, r1), (b, r2)):
        while not R.over(s):
            B.play_turn(s, s.current, R.roll(r), True, r, B.spoiler)
            R.end_turn(s)
    assert R.to_data(a) == R.to_data(b)


def test_from_data_rejects_impossible_saves():
    s, _ = R.setup(Rng(1))
    good = R.to_data(s)
    bad = []
    d = json.loads(json.dumps(good)); d["stacks"]["centre"].append("red"); bad.append(d)
    d = json.loads(json.dumps(good)); d["stacks"]["centre"].pop(); bad.append(d)
    d = json.loads(json.dumps(good)); d["stacks"]["moon"] = d["stacks"].pop("centre"); bad.append(d)
    d = json.loads(json.dumps(good)); d["scores"][0] = 3; bad.append(d)
    d = json.loads(json.dumps(good)); d["players"] = 3; bad.append(d)
    d = json.loads(json.dumps(good)); d["current"] = 5; bad.append(d)
    d = json.loads(json.dumps(good)); d["values"] = [1, 2]; bad.append(d)
    d = json.loads(json.dumps(good)); del d["turns"]; bad.append(d)
    d = json.loads(json.dumps(good)); d["cap"] = -1; bad.append(d)
    d = json.loads(json.dumps(good)); d["stacks"] = {"home4": ["red"], "centre": COLOURS[:5]}
    d["players"] = 3; d["scores"] = [0, 0, 0]; d["current"] = 1; bad.append(d)
    for d in bad:
        with pytest.raises(ValueError):
            R.from_data(d)
    assert R.to_data(R.from_data(good)) == good


# ------------------------------------------------------------------ the same under MicroPython

VM_GAMES = """
from referee.rng import Rng
from games import flyer_rules as R, flyer_bots as B
for seed in range(3):
    rng = Rng(seed)
    s, t = R.setup(rng)
    while not R.over(s):
        p = s.current
        B.play_turn(s, p, R.roll(rng), seed == 1, rng, (B.greedy, B.spoiler)[p % 2])
        R.end_turn(s)
    print(seed, t, s.turns, s.scores, sorted(s.stacks.items()))
s = R.from_data(R.to_data(s))
print(R.menu_from(s, 1, R.roll(Rng(4))), R.winners(s))
"""


def test_seeded_bot_games_play_the_same_under_micropython():
    import compat

    compat.require_vm()
    vm = compat.run_vm(VM_GAMES)
    assert vm.returncode == 0, compat.vm_to_repo_paths(vm.stderr)
    cp = compat.run_cpython(VM_GAMES)
    assert cp.returncode == 0, cp.stderr
    assert vm.stdout == cp.stdout and vm.stdout.count("\n") == 4
