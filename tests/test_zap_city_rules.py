"""ZAP City pure rules and bots: each action's legality from hand-built tables (the rule
text's examples among them), knock, throw-off, disk conservation and the legal list
against an independent reference over thousands of random moves, menus, describe(),
save data, seeded bot matches (also under the MicroPython VM)."""
import json

import compat
import pytest

from games import zap_city_bots as B
from games import zap_city_rules as R
from games import zap_city_screen as M
from referee.rng import Rng

CT, UF, UCT, CF, EX = R.CITY_TRANSFER, R.URBAN_FILL, R.URBAN_CITY, R.CITY_FILL, R.EXCHANGE
SYM = {s: i for i, s in enumerate(R.SYMBOLS)}


class Script:
    """An rng that returns scripted randbelow values."""

    def __init__(self, values):
        self.values = list(values)

    def randbelow(self, n):
        v = self.values.pop(0)
        assert 0 <= v < n
        return v


def disk(spec, seat):
    """'3' = a 3 of ``seat``; '3/2' = a 3 of P2; None = empty."""
    if spec is None:
        return 0
    if "/" in spec:
        s, o = spec.split("/")
        return int(o) * 8 + SYM[s]
    return seat * 8 + SYM[spec]


def table(n=2, turn=1, tops=None, cities=None):
    """A hand-built table, the seat ``turn`` to act. tops: {seat: [spec x3]} (the top is
    side 0 of each Urban die); cities: {seat: [spec, ...]} (missing sides empty). Disks
    are written, not moved: such tables need not conserve disks."""
    st = R.new_state(n)
    for seat, specs in (tops or {}).items():
        b = R.base(seat)
        for d, spec in enumerate(specs):
            st[b + R.TOPS + d] = 0
            st[b + d * 6] = disk(spec, seat)
    for seat, specs in (cities or {}).items():
        b = R.base(seat) + R.CITY
        for k in range(6):
            st[b + k] = disk(specs[k], seat) if k < len(specs) else 0
    st[1] = turn
    st[2] = R.ACT
    return st


def kinds(st, seat=None):
    return sorted({a[0] for a in R.legal_actions(st, seat or R.turn(st))})


def of_kind(st, kind, seat=None):
    return [a for a in R.legal_actions(st, seat or R.turn(st)) if a[0] == kind]


def syms(actions):
    return sorted(R.SYMBOLS[a[4] & 7] for a in actions)


# -- an independent reference: every candidate (kind, src, dst), filtered by the rules
#    read off the views (symbols and owners), not by the module's loops ----------------

def reference(st, seat):
    if R.phase(st) != R.ACT or R.turn(st) != seat:
        return set()
    n = R.players(st)
    tops = {(p, d): R.top(st, p, d) for p in range(1, n + 1) for d in range(3)}
    sides = {(p, k): R.city_disks(st, p)[k] for p in range(1, n + 1) for k in range(6)}
    own = [tops[(seat, d)] for d in range(3)]
    empty = own.count(0)

    def sym(x):
        return R.symbol(x)

    def first_hole(p):
        holes = [k for k in range(6) if not sides[(p, k)]]
        return holes[0] if holes else None

    def first_of(p, k):
        return sides[(p, k)] not in [sides[(p, j)] for j in range(k)]

    out = set()
    for (p, d), x in tops.items():
        for (q, e), y in tops.items():           # Urban -> Urban
            if x and not y and empty >= 1 and p != q and seat in (p, q):
                out.add((UF, seat, p * 8 + d, q * 8 + e, x, 0))
        for (q, k), _y in sides.items():          # Urban -> City
            if not x or q != seat or k != first_hole(seat):
                continue
            others = [own[j] for j in range(3) if j != d and own[j]]
            if p == seat and any(sym(x) == sym(o) or "J" in (sym(x), sym(o)) for o in others):
                out.add((CT, seat, p * 8 + d, q * 8 + k, x, 0))
            if p != seat and empty >= 1:
                if sym(x) == "J":
                    ok = any(sym(o) == "J" for o in own if o)
                else:
                    ok = any(sym(o) in (sym(x), "J") for o in own if o)
                if ok:
                    out.add((UCT, seat, p * 8 + d, q * 8 + k, x, 0))
    for (p, k), x in sides.items():              # City -> City
        if not x or not first_of(p, k):
            continue
        for (q, j), y in sides.items():
            if p == q:
                continue
            if not y and empty >= 2 and j == first_hole(q):
                out.add((CF, seat, p * 8 + k, q * 8 + j, x, 0))
            if y and empty == 3 and p < q and x != y and first_of(q, j):
                out.add((EX, seat, p * 8 + k, q * 8 + j, x, y))
    return out


# -- City-Transfer ----------------------------------------------------------------------

def test_city_transfer_needs_a_double():
    st = table(tops={1: ["3", "3", "5"]})
    assert syms(of_kind(st, CT)) == ["3", "3"]
    st = table(tops={1: ["3", "3", "3"]})
    assert syms(of_kind(st, CT)) == ["3", "3", "3"]     # each of the three dice
    st = table(tops={1: ["1", "3", "5"]})
    assert of_kind(st, CT) == []


def test_city_transfer_joker_stands_for_either_other_top():
    # the rule text's example: Joker + 2 + 3, the Joker may be read as 2 or 3
    st = table(tops={1: ["J", "2", "3"]})
    assert syms(of_kind(st, CT)) == ["2", "3", "J"]
    st = table(tops={1: ["J", "J", "4"]})
    assert syms(of_kind(st, CT)) == ["4", "J", "J"]
    st = table(tops={1: ["J", None, None]})              # a lone Joker pairs with nothing
    assert of_kind(st, CT) == []


def test_city_transfer_moves_the_top_disk_into_the_first_empty_city_side():
    st = table(tops={1: ["2", "4", "4/2"]}, cities={1: ["1", None, "3"]})
    a = [a for a in of_kind(st, CT) if a[2] == 8 + 2][0]
    assert a == (CT, 1, 8 + 2, 8 + 1, 16 + SYM["4"], 0)
    R.apply(st, a)
    assert R.city(st, 1) == ["1", "4", "3", None, None, None]
    assert R.city_disks(st, 1)[1] >> 3 == 2              # the disk keeps its owner (P2)
    assert R.tops(st, 1)[2] == 0
    assert R.describe(a) == "P1 City-Transfer: 4 to City"


def test_no_fill_power_replaces_the_double_and_a_full_city_takes_nothing():
    st = table(tops={1: [None, None, None]})
    assert CT not in kinds(st)
    st = table(tops={1: ["1", None, None]})              # City-Fill power, no double
    assert CT not in kinds(st)
    st = table(tops={1: ["5", "5", "2"]}, cities={1: ["1", "1", "2", "3", "4", "J"]})
    assert of_kind(st, CT) == []


def test_a_city_die_may_take_a_duplicate():
    st = table(tops={1: ["3", "3", "1"]}, cities={1: ["3"]})
    assert syms(of_kind(st, CT)) == ["3", "3"]


# -- Urban-Fill -------------------------------------------------------------------------

def test_urban_fill_both_ways_needs_an_own_empty_top():
    st = table(n=3, tops={1: ["1", "2", None], 2: ["4", None, "5"], 3: ["J", "J", "J"]})
    fills = of_kind(st, UF)
    take = sorted((a[2], a[3]) for a in fills if a[3] >> 3 == 1)
    give = sorted((a[2], a[3]) for a in fills if a[2] >> 3 == 1)
    # take: any disk on another player's top into the own empty top (die 3)
    assert take == sorted((q * 8 + e, 8 + 2) for q, e in ((2, 0), (2, 2), (3, 0), (3, 1), (3, 2)))
    # give: an own top disk into another player's empty top (P2 die 2)
    assert give == [(8 + 0, 16 + 1), (8 + 1, 16 + 1)]
    st = table(n=3, tops={1: ["1", "2", "3"], 2: ["4", None, "5"]})
    assert of_kind(st, UF) == []                         # no empty own top, no power


def test_urban_bonus_and_urban_blocking_examples():
    # Urban bonus: take a wanted 5 from P2's top into the own empty top
    st = table(tops={1: ["1", None, "1"], 2: ["5", "2", None]}, cities={1: ["1", "2"]})
    bonus = (UF, 1, 16 + 0, 8 + 1, 16 + SYM["5"], 0)
    assert bonus in of_kind(st, UF)
    assert R.describe(bonus) == "P1 Urban-Fill: 5 from P2"
    # Urban blocking: hand P2 a 2 (it has one in its City) into its empty top
    st = table(tops={1: ["2", None, "1"], 2: ["5", "3", None]}, cities={2: ["2"]})
    block = (UF, 1, 8 + 0, 16 + 2, 8 + SYM["2"], 0)
    assert block in of_kind(st, UF)
    R.apply(st, block)
    assert R.tops(st, 1) == [0, 0, 8 + SYM["1"]] and R.tops(st, 2)[2] == 8 + SYM["2"]
    assert R.describe(block) == "P1 Urban-Fill: 2 to P2"


# -- Urban-City-Transfer ----------------------------------------------------------------

def test_urban_city_transfer_rule_text_example():
    # green (P1) shows 1, 3 and an empty top; yellow (P2) shows a 3: take it to the City
    st = table(tops={1: ["1", "3", None], 2: ["3", "2", "1"]})
    got = of_kind(st, UCT)
    assert syms(got) == ["1", "3"]                      # the 2 makes no double
    a = [a for a in got if R.SYMBOLS[a[4] & 7] == "3"][0]
    assert a == (UCT, 1, 16 + 0, 8 + 0, 16 + SYM["3"], 0)
    R.apply(st, a)
    assert R.city(st, 1)[0] == "3" and R.city_disks(st, 1)[0] >> 3 == 2
    assert R.tops(st, 2)[0] == 0 and R.tops(st, 1) == [8 + 0, 8 + 2, 0]
    assert R.describe(a) == "P1 Urban-City-Transfer: 3 from P2 to City"


def test_urban_city_transfer_jokers():
    # a Joker may be taken only when the player already shows a Joker
    st = table(tops={1: ["1", "3", None], 2: ["J", "4", "4"]})
    assert of_kind(st, UCT) == []
    st = table(tops={1: ["J", "3", None], 2: ["J", "4", "5"]})
    assert syms(of_kind(st, UCT)) == ["4", "5", "J"]    # an own Joker doubles anything
    st = table(tops={1: ["J", None, None], 2: ["J", None, None]})
    assert syms(of_kind(st, UCT)) == ["J"]


def test_urban_city_transfer_needs_an_empty_top_and_room():
    st = table(tops={1: ["1", "3", "5"], 2: ["3", "1", "5"]})
    assert of_kind(st, UCT) == []
    st = table(tops={1: ["1", "3", None], 2: ["3", "1", "5"]},
               cities={1: ["1", "2", "2", "3", "4", "5"]})
    assert of_kind(st, UCT) == []


def test_capturing_a_joker_then_transferring_is_two_actions():
    st = table(tops={1: ["1", "3", None], 2: ["J", "4", "4"]})
    take_j = (UF, 1, 16 + 0, 8 + 2, 16 + SYM["J"], 0)
    assert take_j in R.legal_actions(st, 1)
    R.apply(st, take_j)
    assert R.phase(st) == R.DONE and R.legal_actions(st, 1) == []
    with pytest.raises(ValueError):
        R.apply(st, (CT, 1, 8 + 1, 8 + 0, 8 + SYM["3"], 0))
    with pytest.raises(ValueError):
        R.apply(st, None)


# -- City-Fill and City-Exchange ---------------------------------------------------------

def test_city_fill_needs_two_empty_tops_and_moves_between_different_city_dice():
    cities = {1: ["1", "2"], 2: ["3", "3", "4", "5", "J", "1"], 3: ["2/1"]}
    st = table(n=3, tops={1: ["1", None, "2"]}, cities=cities)
    assert CF not in kinds(st)
    st = table(n=3, tops={1: [None, None, "2"]}, cities=cities)
    fills = of_kind(st, CF)
    # P2's City is full: nothing enters it; each distinct disk of a die is offered once
    assert {a[3] >> 3 for a in fills} == {1, 3}
    assert all(a[2] >> 3 != a[3] >> 3 for a in fills)
    from_p2 = sorted(R.SYMBOLS[a[4] & 7] for a in fills if a[2] >> 3 == 2 and a[3] >> 3 == 1)
    assert from_p2 == ["1", "3", "4", "5", "J"]         # one 3 offered, not two
    assert len(fills) == 2 * 5 + 2 * 1 + 1 * 1          # P2->P1/P3, P1->P3, P3->P1


def test_city_bonus_and_city_blocking_examples():
    # City bonus: the 4 the player lacks comes from P2's City die into the own one
    st = table(n=3, tops={1: [None, None, "2"]},
               cities={1: ["1", "2", "3"], 2: ["4/2", "5/2"], 3: ["3/3", "1/3"]})
    bonus = (CF, 1, 16 + 0, 8 + 3, 16 + SYM["4"], 0)
    assert bonus in R.legal_actions(st, 1)
    assert R.describe(bonus) == "P1 City-Fill: 4 from P2 to P1"
    # City blocking: give P3 a second 3, taken from the own City die
    block = (CF, 1, 8 + 2, 24 + 2, 8 + SYM["3"], 0)
    assert block in R.legal_actions(st, 1)
    R.apply(st, block)
    assert R.city(st, 3) == ["3", "1", "3", None, None, None]
    assert R.city(st, 1) == ["1", "2", None, None, None, None]


def test_exchange_needs_three_empty_tops():
    cities = {1: ["1", "2", "2"], 2: ["3", "J"]}
    st = table(tops={1: [None, None, "5"]}, cities=cities)
    assert EX not in kinds(st)
    st = table(tops={1: [None, None, None]}, cities=cities)
    ex = of_kind(st, EX)
    pairs = sorted((R.SYMBOLS[a[4] & 7], R.SYMBOLS[a[5] & 7]) for a in ex)
    assert pairs == [("1", "3"), ("1", "J"), ("2", "3"), ("2", "J")]
    a = [a for a in ex if (a[4] & 7, a[5] & 7) == (SYM["2"], SYM["J"])][0]
    assert R.describe(a) == "P1 City-Exchange: 2 of P1 <-> J of P2"
    R.apply(st, a)
    assert R.city(st, 1) == ["1", "J", "2", None, None, None]
    assert R.city(st, 2) == ["3", "2", None, None, None, None]


def test_exchange_never_swaps_identical_disks_or_an_empty_side():
    st = table(tops={1: [None, None, None]}, cities={1: ["3"], 2: ["3/1", "3/2"]})
    assert [(a[4], a[5]) for a in of_kind(st, EX)] == [(8 + SYM["3"], 16 + SYM["3"])]


def test_power_ordering():
    opp = {2: ["4", None, "J"]}
    cities = {1: ["1"], 2: ["2/2"]}
    # with three empty tops no own disk is left to double with: no Urban-City-Transfer
    expected = {0: [], 1: [UF, UCT], 2: [UF, UCT, CF], 3: [UF, CF, EX]}
    for empty, want in expected.items():
        own = ["J", "J", "J"][:3 - empty] + [None] * empty
        st = table(tops={1: own, **opp}, cities=cities)
        got = [k for k in kinds(st) if k != CT]
        assert got == want, (empty, got)


# -- one action per turn, phases ---------------------------------------------------------

def test_one_action_per_turn_and_only_the_seat_to_play():
    st = table(tops={1: ["3", "3", None], 2: ["3", None, None]})
    assert R.legal_actions(st, 2) == []
    with pytest.raises(ValueError):
        R.apply(st, (UF, 2, 8 + 0, 16 + 1, 8 + SYM["3"], 0))   # not P2's turn
    R.apply(st, R.legal_actions(st, 1)[0])
    assert R.legal_actions(st, 1) == []
    for a in [None] + R.legal_actions(table(tops={1: ["3", "3", None]}), 1):
        with pytest.raises(ValueError):
            R.apply(st, a)
    R.next_turn(st)
    assert R.turn(st) == 2 and R.phase(st) == R.THROW and R.legal_actions(st, 2) == []
    with pytest.raises(ValueError):
        R.next_turn(st)


def test_a_stale_action_is_refused():
    st = table(tops={1: ["3", "3", "1"]}, cities={1: ["2"]})
    a = of_kind(st, CT)[0]
    forged = a[:4] + (a[4] + 8, 0)                       # same places, another disk
    with pytest.raises(ValueError):
        R.apply(st, forged)


# -- knock ------------------------------------------------------------------------------

def test_needs_knock_one_disk_from_complete():
    assert R.needs_knock(table(cities={1: ["1", "2", "3", "4", "J"]}), 1)
    assert not R.needs_knock(table(cities={1: ["1", "2", "3", "4", "4"]}), 1)
    assert not R.needs_knock(table(cities={1: ["1", "2", "3", "4", "J", "J"]}), 1)
    assert not R.needs_knock(table(cities={1: ["1", "2", "3", "4"]}), 1)


def test_throwing_without_the_required_knock_loses_the_turn():
    st = table(tops={1: ["1", "1", "1"]}, cities={1: ["1", "2", "3", "4", "J"]})
    st[2] = R.THROW
    assert R.throw(st, Script([5, 4, 4])) is False      # 5,5 would have been a double
    assert R.phase(st) == R.DONE and R.legal_actions(st, 1) == []
    assert R.urban(st, 1)[1][0] == "5"                   # the throw stands
    with pytest.raises(ValueError):
        R.apply(st, None)
    R.next_turn(st)
    assert R.turn(st) == 2


def test_knocking_keeps_the_turn_and_wins():
    st = table(tops={1: ["1", "1", "1"]}, cities={1: ["1", "2", "3", "4", "J"]})
    st[2] = R.THROW
    R.knock(st)
    assert R.knocked(st)
    assert R.throw(st, Script([4, 4, 0])) is True
    a = [a for a in of_kind(st, CT) if a[4] & 7 == SYM["5"]][0]
    R.apply(st, a)
    assert R.phase(st) == R.OVER and R.winner(st) == 1
    assert R.legal_actions(st, 1) == []
    with pytest.raises(ValueError):
        R.next_turn(st)
    with pytest.raises(ValueError):
        R.knock(st)


def test_an_unrequired_knock_is_harmless_and_knock_resets_each_turn():
    st = R.new_state(2)
    R.knock(st)
    assert R.throw(st, Script([0, 0, 0])) is True
    R.apply(st, None)
    R.next_turn(st)
    assert not R.knocked(st)


def test_throw_is_uniform_over_the_six_sides_empty_ones_too():
    st = table(tops={1: [None, "2", "3"]})
    st[2] = R.THROW
    R.throw(st, Script([0, 3, 5]))
    assert [die[0] for die in R.urban(st, 1)] == [None, "4", "J"]

    asked = []

    class Count:
        def randbelow(self, n):
            asked.append(n)
            return 0
    st[2] = R.THROW
    R.throw(st, Count())
    assert asked == [6, 6, 6]                            # one uniform draw per die


# -- start and end ----------------------------------------------------------------------

def test_throw_off_ties_rethrow_among_the_tied():
    st = R.new_state(3)
    # sides of a fresh die are 1,2,3,4,5,J; Joker counts 6
    rounds = R.throw_off(st, Script([5, 5, 5, 0, 0, 0, 5, 5, 5,    # 18, 3, 18: a tie
                                     0, 1, 0, 1, 1, 1]))            # P1 4, P3 6
    assert rounds == [[(1, 18, ["J", "J", "J"]), (2, 3, ["1", "1", "1"]),
                       (3, 18, ["J", "J", "J"])],
                      [(1, 4, ["1", "2", "1"]), (3, 6, ["2", "2", "2"])]]
    assert R.turn(st) == 3 and R.phase(st) == R.THROW
    assert [d[0] for d in R.urban(st, 2)] == ["1", "1", "1"]   # last tops stay up
    assert [d[0] for d in R.urban(st, 1)] == ["1", "2", "1"]
    R.throw(st, Rng(1))
    with pytest.raises(ValueError):
        R.throw_off(st, Rng(1))                          # only before the first turn


def test_throw_off_seeded_always_ends_with_one_starter():
    for seed in range(200):
        st = R.new_state(2 + seed % 3)
        rounds = R.throw_off(st, Rng(seed))
        last = rounds[-1]
        best = max(r[1] for r in last)
        assert [r[0] for r in last if r[1] == best] == [R.turn(st)]
        for prev, nxt in zip(rounds, rounds[1:]):
            top = max(r[1] for r in prev)
            assert [r[0] for r in nxt] == [r[0] for r in prev if r[1] == top]


def test_views_and_new_table():
    st = R.new_state(4)
    assert R.city(st, 3) == [None] * 6
    u = R.urban(st, 2)
    assert u == [["1", "2", "3", "4", "5", "J"]] * 3
    st[R.base(2) + R.TOPS + 1] = 4
    assert R.urban(st, 2)[1] == ["5", "1", "2", "3", "4", "J"]
    assert [R.owner(x) for x in R.urban_disks(st, 2)[1]] == [2] * 6
    with pytest.raises(ValueError):
        R.new_state(1)
    with pytest.raises(ValueError):
        R.new_state(5)


def test_completing_two_city_dice_at_once_the_actor_first_then_clockwise():
    cities = {1: ["1", "2", "3", "4", "5", "5"], 2: ["J", "1", "2", "3", "4", "J"]}
    for actor, want in ((3, 1), (2, 2), (1, 1)):
        st = table(n=3, turn=actor, tops={actor: [None, None, None]}, cities=cities)
        a = [a for a in of_kind(st, EX) if (a[4] & 7, a[5] & 7) == (SYM["5"], SYM["J"])][0]
        R.apply(st, a)
        assert R.winner(st) == want and R.phase(st) == R.OVER


def test_ranking_places_ties_and_the_winner_first():
    st = table(n=4, cities={1: ["1", "2"], 2: ["1", "1", "2", "3"], 3: ["J", "5"],
                            4: ["1", "2", "3", "4", "5", "J"]})
    assert R.ranking(st) == [(1, 4, 6), (2, 2, 3), (3, 1, 2), (3, 3, 2)]
    st[4] = 3                                            # a winner is first even if
    assert R.ranking(st)[0] == (1, 3, 2)                  # (impossibly) behind


def test_a_locked_table_ends_at_once():
    # both City dice full and no 1 on either: no disk can enter a City die any more
    cities = {1: ["4", "5", "4", "J", "J", "5"], 2: ["3", "J", "J", "2", "3", None]}
    st = table(turn=2, tops={2: ["2", "2", "1"]}, cities=cities)
    assert not R.locked(st)
    R.apply(st, (CT, 2, 16 + 0, 16 + 5, 16 + SYM["2"], 0))
    assert R.locked(st) and R.phase(st) == R.OVER and R.winner(st) == 0
    assert [r[0] for r in R.ranking(st)] == [1, 1]
    full = {1: ["1", "2", "3", "4", "5", "5"], 2: ["J", "J", "2", "3", "4", "5"]}
    assert not R.locked(table(cities=full))              # an exchange can still win


def test_turn_cap_ends_a_stalled_table():
    st = table(cities={1: ["1", "1"], 2: ["2", "2"]})
    st[5] = R.TURN_CAP - 2
    R.apply(st, None)
    R.next_turn(st)
    assert R.phase(st) == R.THROW
    R.throw(st, Rng(1))
    R.apply(st, None)
    R.next_turn(st)
    assert R.phase(st) == R.OVER and R.winner(st) == 0 and R.turns(st) == R.TURN_CAP
    assert R.ranking(st) == [(1, 1, 1), (1, 2, 1)]


# -- describe and menus -------------------------------------------------------------------

def test_describe_every_kind():
    assert R.describe(None) == "Pass"
    assert R.describe((CT, 2, 16, 16 + 3, 16 + 3, 0)) == "P2 City-Transfer: 4 to City"
    assert R.describe((CF, 3, 8 + 1, 16 + 0, 32 + 5, 0)) == "P3 City-Fill: J from P1 to P2"


# The menu's steps as the flow takes them (games.zap_city._open), from any list of actions.
among = M.among


def group(actions, prefix):
    return sorted(M.branch(among(actions, prefix), len(prefix)))


def walk(actions, prefix=()):
    prefix, firsts = M.descend(among(actions, prefix), prefix)
    return prefix, sorted(firsts)


def pick(actions, prefix):
    found = among(actions, prefix)
    assert len(prefix) == M.MENU_LEVELS and len(found) == 1
    return found[0]


def label(actions, prefix):
    return M.name(among(actions, prefix)[0], len(prefix) - 1)


def walk_all(actions):
    """Every leaf reached through walk/group/pick; checks each menu level's size."""
    leaves = []
    widths = []
    if not actions:
        return leaves, widths

    def visit(prefix):
        prefix, choices = walk(actions, prefix)
        if not choices:
            leaves.append(pick(actions, prefix))
            return
        widths.append(len(choices))
        for c in choices:
            text = label(actions, prefix + (c,))
            assert 0 < len(text) <= 20, text
            visit(prefix + (c,))
    visit(())
    return leaves, widths


def test_menu_levels_of_a_crowded_table():
    st = table(n=4, tops={1: [None, None, None], 2: ["1", "2", None], 3: ["J", None, "4"],
                          4: ["5", "5", "5"]},
               cities={1: ["1", "2", "3"], 2: ["4", "5", "J", "1", "2"],
                       3: ["1", "2", "3", "4", "5", "J"], 4: ["J", "J", "3", "5"]})
    acts = R.legal_actions(st, 1)
    assert len(acts) > 60
    leaves, widths = walk_all(acts)
    assert sorted(leaves) == sorted(acts) and max(widths) <= 8
    assert group(acts, ()) == [UF, CF, EX]
    assert label(acts, (EX,)) == "City-Exchange"
    assert label(acts, (EX, 2, 0, 4, 2)) == "3 (side 3)"
    st[R.base(1) + R.TOPS + 2] = 1                       # P1's third top: a 2
    acts = R.legal_actions(st, 1)
    leaves, widths = walk_all(acts)
    assert sorted(leaves) == sorted(acts) and max(widths) <= 8
    assert group(acts, ()) == [UF, UCT, CF]
    assert label(acts, (UF, 2)) == "from P2"
    assert label(acts, (UF, 1)) == "from P1 (own)"
    assert label(acts, (CF, 2, 4)) == "2 (side 5)"
    assert label(acts, (UF, 2, 1)) == "die 2: 2"


def test_walk_skips_single_choices():
    st = table(tops={1: ["3", "3", "1"]})
    acts = R.legal_actions(st, 1)
    prefix, choices = walk(acts)
    assert prefix == (CT, 1) and choices == [0, 1]       # which die's 3
    prefix, choices = walk(acts, prefix + (1,))
    assert choices == [] and pick(acts, prefix) == (CT, 1, 9, 8, 8 + SYM["3"], 0)


# -- random play: conservation, reference, menus, data -------------------------------------

def random_play(seed, turns, check):
    rng = Rng(seed)
    st = R.new_state(2 + seed % 3)
    R.throw_off(st, rng)
    moves = 0
    while R.phase(st) != R.OVER and R.turns(st) < turns:
        seat = R.turn(st)
        if R.needs_knock(st, seat) or rng.randbelow(8) == 0:
            R.knock(st)
        if R.throw(st, rng):
            acts = R.legal_actions(st, seat)
            check(st, seat, acts)
            a = acts[rng.randbelow(len(acts))] if acts and rng.randbelow(6) else None
            R.apply(st, a)
            moves += a is not None
            R.check(st)
        if R.phase(st) == R.DONE:
            R.next_turn(st)
    return st, moves


def test_random_play_conserves_disks_and_matches_the_reference():
    total = 0
    seen = set()
    for seed in range(48):
        def check(st, seat, acts):
            assert len(set(acts)) == len(acts)
            assert set(acts) == reference(st, seat)
            for a in acts:
                seen.add(a[0])
        _, moves = random_play(seed, 150, check)
        total += moves
    assert total >= 3000 and seen == {CT, UF, UCT, CF, EX}


def test_random_tables_menus_cover_every_action_and_apply_refuses_the_rest():
    rng = Rng(99)
    for seed in range(12):
        def check(st, seat, acts):
            leaves, widths = walk_all(acts)
            assert sorted(leaves) == sorted(acts) and (not widths or max(widths) <= 8)
            n = R.players(st)
            for _ in range(10):                          # random illegal tuples refused
                kind = rng.randbelow(5)
                src = (1 + rng.randbelow(n)) * 8 + rng.randbelow(6)
                dst = (1 + rng.randbelow(n)) * 8 + rng.randbelow(6)
                a = (kind, seat, src, dst, 8 + rng.randbelow(n * 8), 0)
                if a not in acts:
                    saved = list(st)
                    with pytest.raises(ValueError):
                        R.apply(st, a)
                    assert st == saved
        random_play(seed, 60, check)


def test_data_round_trip():
    for seed in range(10):
        st, _ = random_play(seed, 30, lambda *a: None)
        data = R.to_data(st)
        text = json.dumps(data)
        assert R.from_data(json.loads(text)) == st
        assert R.to_data(st) is not st and R.from_data(data) is not data
    good = R.to_data(st)
    bad = [None, [], [2] + good[1:], good[:-1], good[:1] + [True] + good[2:]]
    lost = list(good)
    lost[1 + R.base(1)] = 0 if lost[1 + R.base(1)] else 9        # a disk lost or added
    dup = list(good)
    i = 1 + R.base(1) + R.CITY
    dup[i] = dup[1 + R.base(2)] or 16
    bad += [lost, dup]
    for data in bad:
        with pytest.raises(ValueError):
            R.from_data(data)


# -- bots ---------------------------------------------------------------------------------

def bot_match(n, seed, bots):
    rng = Rng(seed)
    st = R.new_state(n)
    R.throw_off(st, rng)
    while R.phase(st) != R.OVER:
        seat = R.turn(st)
        if B.wants_knock(st, seat):
            R.knock(st)
        assert R.throw(st, rng), "a bot never loses a turn by not knocking"
        a = bots[(seat - 1) % len(bots)](st, seat, rng)
        assert a is None or a in R.legal_actions(st, seat)
        R.apply(st, a)
        if R.phase(st) == R.DONE:
            R.next_turn(st)
    return R.winner(st), R.turns(st)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_seeded_bot_matches_end_with_a_winner(n):
    lengths = []
    for bots in ((B.greedy,), (B.greedy, B.blocker), (B.blocker, B.greedy), (B.blocker,)):
        for seed in range(12):
            w, turns = bot_match(n, seed, bots)
            lengths.append(turns)
            if bots == (B.blocker,) and w == 0:
                assert turns == R.TURN_CAP                # blockers alone can stall
                continue
            assert 1 <= w <= n and turns < R.TURN_CAP, (bots, seed, turns)
    lengths.sort()
    assert lengths[len(lengths) // 2] <= 12 * n, lengths   # typically a few rounds


def test_same_seed_same_match():
    assert bot_match(3, 7, (B.greedy, B.blocker)) == bot_match(3, 7, (B.greedy, B.blocker))


def test_greedy_transfers_a_missing_symbol():
    st = table(tops={1: ["4", "4", "2"], 2: ["1", "3", "5"]}, cities={1: ["1", "2", "3"]})
    a = B.greedy(st, 1, Rng(1))
    assert a[0] == CT and a[4] & 7 == SYM["4"]


def test_greedy_steals_a_missing_symbol_and_passes_when_nothing_helps():
    st = table(tops={1: ["1", "1", None], 2: ["5", "1", "2"]}, cities={1: ["2", "3"]})
    a = B.greedy(st, 1, Rng(1))
    assert a[0] in (CT, UCT) and a[4] & 7 == SYM["1"]
    st = table(tops={1: ["1", "2", "3"], 2: ["5", "1", "2"]})
    assert B.greedy(st, 1, Rng(1)) is None


def test_blocker_takes_what_a_rival_nearly_completes():
    st = table(n=3, tops={1: [None, None, "2"]},
               cities={1: ["1"], 2: ["1", "2", "3", "4", "5"], 3: ["J"]})
    a = B.blocker(st, 1, Rng(3))
    assert a[0] == CF and a[2] >> 3 == 2


def test_bots_never_complete_a_rivals_city():
    st = table(n=3, tops={1: [None, None, None]},
               cities={1: ["1"], 2: ["1", "2", "3", "4", "5"], 3: ["J", "J"]})
    for bot in (B.greedy, B.blocker):
        a = bot(st, 1, Rng(1))
        R.perform(st, a)
        assert not R.complete(st, 2)
        R.undo(st, a)


def test_an_action_changes_only_the_seats_of_its_disks_ends():
    # the bots' search works out each seat's value once and, for an action, again only
    # for the seat it takes a disk from and the one it gives it to: every action of the
    # seeded matches' turns leaves every other seat's value, City mask and fullness,
    # and the table's lock, as they were
    seen = 0
    for seed in range(6):
        rng = Rng(seed)
        st = R.new_state(2 + seed % 3)
        R.throw_off(st, rng)
        while R.phase(st) != R.OVER:
            seat = R.turn(st)
            if B.wants_knock(st, seat):
                R.knock(st)
            R.throw(st, rng)
            before = B._seats(st)
            for a in R.legal_actions(st, seat):
                R.perform(st, a)
                after = B._seats(st)
                for q in range(1, R.players(st) + 1):
                    if q not in (a[2] >> 3, a[3] >> 3):
                        assert after[q] == before[q], (a, q)
                assert B._locked(after) == R.locked(st)
                R.undo(st, a)
                seen += 1
            assert B._seats(st) == before
            R.apply(st, B.greedy(st, seat, rng))
            if R.phase(st) == R.DONE:
                R.next_turn(st)
    assert seen > 500


def test_wants_knock_and_named_choice():
    st = table(cities={1: ["1", "2", "3", "4", "J"]})
    assert B.wants_knock(st, 1) and not B.wants_knock(st, 2)
    assert [n for n, _ in B.BOTS] == ["greedy", "blocker"]
    with pytest.raises(ValueError):
        B.choose(st, 1, Rng(1), "nobody")


# -- the same match under MicroPython -------------------------------------------------------

VM_MATCH = """
from referee.rng import Rng
from games import zap_city_rules as R, zap_city_bots as B
for n, seed in ((2, 1), (3, 2), (4, 3)):
    rng = Rng(seed)
    st = R.new_state(n)
    R.throw_off(st, rng)
    log = []
    while R.phase(st) != R.OVER:
        seat = R.turn(st)
        if B.wants_knock(st, seat):
            R.knock(st)
        if R.throw(st, rng):
            a = B.choose(st, seat, rng, "greedy" if seat % 2 else "blocker")
            log.append(R.describe(a))
            R.apply(st, a)
        if R.phase(st) == R.DONE:
            R.next_turn(st)
    print(n, R.winner(st), R.turns(st), R.to_data(st))
    print(log)
"""


def test_bot_match_is_the_same_under_micropython():
    compat.require_vm()
    cpy = compat.run_cpython(VM_MATCH)
    vm = compat.run_vm(VM_MATCH)
    assert cpy.returncode == 0, cpy.stderr
    assert vm.returncode == 0, compat.vm_to_repo_paths(vm.stderr)
    assert vm.stdout == cpy.stdout and cpy.stdout.count("\n") == 6
