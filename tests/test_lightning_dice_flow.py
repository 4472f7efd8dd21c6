"""Lightning Dice on the simulated box: taps, claims and their arbitration, targets,
bot matches, saves and screens. Dice and cards are forced through the game's own
state (test-only helpers live here, not in games/)."""
import pytest

import games
import games.lightning_dice as ld
from games.lightning_dice_rules import DECK as RULES_DECK
from games.lightning_dice_rules import Card as RulesCard
from hardware.sim import SimTable
from referee import rings, sound
from referee.store import Store

MS = 1000000
US = 1000
PLAY = 2


def table(players=2, bots=(), seed=1, settings=None, loop_ms=2, **options):
    t = SimTable(players=players, seed=seed, settings=settings, loop_ms=loop_ms)
    t.box.sound.log = []
    g = t.start("lightning_dice", bots=bots, seed=seed, **options)
    return t, g


def to_play(t, g, card=None):
    """Advance to the next card's race (open at the captured reveal); ``card``: the
    spec it is forced to (the race is judged against game.card)."""
    assert t.advance_until(lambda: g.phase == PLAY and g.reveal_at is not None, 20000)
    if card is not None:
        g.card = type(g.card)(card)  # the running module's Card (the app may have reloaded it)
        g.view.card(card)
    return g.reveal_at


def force(t, g, p, dice):
    """Player p's dice become ``dice`` and go on screen (a roll: its row is drawn a few
    dice a pass, from the pass after it: seen once the last die is drawn)."""
    g.cur[p][:] = bytes(dice)
    g._keep(p)
    assert t.advance_until(lambda: not g.dirty and p not in g.drawing, 200)
    assert g.dice(p) == list(dice)


def claim(t, p, at=None, ms=600):
    return t.press(p, at_ns=at, hold_ms=ms)


def cues(t):
    return [c for _, c in t.box.sound.log]


class FixedRng:
    """Every die rolls ``face``."""

    def __init__(self, face):
        self.face = face

    def randbelow(self, n):
        return self.face - 1


# ----------------------------------------------------------------- module


def test_module_contract_pinned_names_and_registry():
    assert ld.TITLE == "Lightning Dice" and ld.MIN_PLAYERS == 2 and ld.MAX_PLAYERS == 6
    assert ld.Card is RulesCard and ld.DECK is RULES_DECK and len(ld.DECK) == 50
    names = games.names()
    assert names.index("lightning_dice") == names.index("wurfelblitz") + 1
    opts = {o.key: o for o in ld.OPTIONS}
    assert opts["target"].choices == (10, 20, 30) and opts["target"].default == 20
    assert opts["mode"].choices == ("standard", "quick") and opts["mode"].default == "standard"
    assert "normal" in opts["bot_level"].choices
    assert ld.Game.FLOW and len(ld.Game.FLOW) == len(ld.Game.NAMES)


def test_bad_options_and_tables_are_refused_with_words():
    with pytest.raises(ValueError, match="target"):
        table(target=25)
    with pytest.raises(ValueError, match="mode"):
        table(mode="fast")
    t = SimTable(players=7)
    with pytest.raises(ValueError, match="2-6 players"):
        t.start("lightning_dice")


def test_pinned_views_card_dice_scores():
    t, g = table(players=3)
    to_play(t, g)
    assert type(g.card).__name__ == "Card" and g.card.spec in [c.spec for c in ld.DECK]
    assert g.card.spec.split()[0] in t.screen_text()
    for p in (1, 2, 3):
        d = g.dice(p)
        assert type(d) is list and len(d) == 6 and all(1 <= v <= 6 for v in d)
    assert g.scores == [0, 0, 0]
    assert "lightning_dice" in t.box.logs[0] and "seed" in t.box.logs[0]


# ----------------------------------------------------------------- taps


def test_taps_at_8_per_second_all_roll_even_when_they_bounce():
    t, g = table(players=2)
    to_play(t, g, "six 1s")
    rolls = []
    real = g._roll
    g._roll = lambda p: (rolls.append((p, t.now)), real(p))
    start = t.now
    for i in range(16):
        t.press(1, at_ns=start + i * 125 * MS, hold_ms=60, bounce=2 if i % 2 else 0)
    t.advance(16 * 125 + 100)
    assert [p for p, _ in rolls] == [1] * 16
    assert g.scores == [0, 0] and "wrong" not in t.screen_text()  # no tap read as a claim
    # each roll happened at its release edge (its loop pass), not at a gesture later
    for i, (_, at) in enumerate(rolls):
        assert 0 <= at - (start + i * 125 * MS + 60 * MS) < 3 * MS


def test_a_tap_keeps_kept_dice_and_rolls_the_free_ones():
    t, g = table(players=2)
    to_play(t, g, "three 5s")
    force(t, g, 1, [5, 5, 2, 3, 4, 6])
    assert g.kept[1] == 0b000011
    g.rng = FixedRng(1)
    t.press(1, hold_ms=60)
    t.advance(100)
    assert g.dice(1) == [5, 5, 1, 1, 1, 1]


# ----------------------------------------------------------------- claims


def test_two_claims_1us_apart_the_earlier_wins_and_the_margin_shows():
    t, g = table(players=2)
    to_play(t, g, "no 6s")
    force(t, g, 1, [1, 2, 3, 4, 5, 1])
    force(t, g, 2, [2, 2, 3, 4, 5, 1])
    at = t.now + 10 * MS
    claim(t, 2, at)
    claim(t, 1, at + 1 * US)
    t.advance(700)
    assert g.scores == [0, 2] and g.phase == 0
    assert "P2 GOT IT! +2" in t.screen_text()
    assert "P2 first by 1.000 us" in t.screen_text()
    assert sound.RIGHT in cues(t)


def test_claims_inside_the_tie_window_all_who_met_score():
    t, g = table(players=3, settings={"REFEREE_TIE_WINDOW_MS": 10})
    to_play(t, g, "no 6s")
    g.scores[2] = 3
    force(t, g, 1, [1, 2, 3, 4, 5, 1])
    force(t, g, 2, [2, 2, 3, 4, 5, 1])
    force(t, g, 3, [6, 2, 3, 4, 5, 1])  # does not meet: a false claim
    at = t.now + 10 * MS
    claim(t, 1, at + 4 * MS)
    claim(t, 2, at)
    claim(t, 3, at + 2 * MS)
    t.advance(800)
    assert g.scores == [2, 2, 1]
    assert "P1 P2 GOT IT! +2" in t.screen_text() and "P1 P2 tie" in t.screen_text()


def test_a_claim_outside_the_tie_window_loses_and_is_shown_as_the_margin():
    t, g = table(players=2, settings={"REFEREE_TIE_WINDOW_MS": 10})
    to_play(t, g, "no 6s")
    force(t, g, 1, [1, 2, 3, 4, 5, 1])
    force(t, g, 2, [2, 2, 3, 4, 5, 1])
    at = t.now + 10 * MS
    claim(t, 1, at)
    claim(t, 2, at + 12 * MS)
    t.advance(800)
    assert g.scores == [2, 0]
    assert "P1 first by 12.000 ms" in t.screen_text()


def test_a_claim_before_the_card_is_lit_is_a_false_start_out_of_that_card():
    t, g = table(players=2)
    assert t.advance_until(lambda: g.phase == 1, 20000)  # dark: the card is being drawn
    claim(t, 1, t.now + 50 * MS)
    to_play(t, g, "no 6s")
    t.advance(600)
    assert "P1 false start: out" in t.screen_text() and g.race.false_starts() == [1]
    assert sound.FALSE_START in cues(t)
    force(t, g, 1, [1, 2, 3, 4, 5, 1])  # P1 meets the card now: still out of it
    claim(t, 1)
    t.advance(600)
    assert "P1 is out of this card" in t.screen_text() and g.scores == [0, 0] and g.phase == PLAY
    force(t, g, 2, [2, 2, 3, 4, 5, 1])
    claim(t, 2)
    t.advance(600)
    assert g.scores == [0, 2]


def test_a_false_starter_may_still_take_a_bonus_or_thunder_on_six_that_meet_the_card():
    # out of the card after a false start, then six of a number that also meets the
    # card: the card is gone for them, so the six count as a Bonus or a Thunder (the
    # claim used to be refused as "out of this card" and the dice stayed frozen)
    t, g = table(players=3)
    assert t.advance_until(lambda: g.phase == 1, 20000)  # dark: the card is being drawn
    claim(t, 1, t.now + 50 * MS)
    to_play(t, g, "three of a kind")
    t.advance(600)
    assert "P1 false start: out" in t.screen_text() and (g.out >> 1) & 1
    force(t, g, 1, [1] * 6)  # six of their own number: meets "three of a kind" too
    assert g.card.matches(g.dice(1)) and g.kept[1] == 63  # all kept: frozen until claimed
    claim(t, 1)
    t.advance(700)
    assert "P1 BONUS! +1" in t.screen_text() and g.scores == [1, 0, 0] and g.phase == PLAY
    assert g.dice(1) != [1] * 6 or g.kept[1] != 63  # a fresh hand: the dice roll again
    g.scores[1] = 3
    force(t, g, 1, [2] * 6)  # six of P2's number, meeting the card as well
    claim(t, 1)
    t.advance(700)
    assert "P1 THUNDER P2 -1" in t.screen_text() and g.scores == [1, 2, 0] and g.phase == PLAY
    force(t, g, 1, [4, 4, 4, 1, 2, 3])  # meets the card, no six: still out of it
    claim(t, 1)
    t.advance(700)
    assert "P1 is out of this card" in t.screen_text() and g.scores == [1, 2, 0]
    force(t, g, 3, [5, 5, 5, 1, 2, 3])  # the others still race for the card
    claim(t, 3)
    t.advance(700)
    assert g.scores == [1, 2, 2] and "P3 GOT IT! +2" in t.screen_text()


def test_everyone_out_voids_the_card():
    t, g = table(players=2)
    assert t.advance_until(lambda: g.phase == 1, 20000)
    claim(t, 1, t.now + 50 * MS)
    claim(t, 2, t.now + 60 * MS)
    to_play(t, g)
    t.advance(600)
    assert g.phase == 0 and "No one" in t.screen_text() and g.scores == [0, 0]


def test_a_false_claim_costs_two_never_below_zero():
    t, g = table(players=2)
    to_play(t, g, "no 6s")
    force(t, g, 1, [6, 2, 3, 4, 5, 1])
    g.scores[0] = 1
    claim(t, 1)
    t.advance(700)
    assert g.scores == [0, 0] and "P1 wrong claim -2" in t.screen_text() and g.phase == PLAY
    g.scores[0] = 5
    claim(t, 1)
    t.advance(700)
    assert g.scores == [3, 0]
    assert sound.LOCKOUT in cues(t) and t.ring(1)  # the ring blinks red
    assert g.box.rings.mode(1) == rings.BLINK


def test_thunder_on_a_player_at_zero_stays_zero_and_hits_one_above():
    t, g = table(players=3)
    to_play(t, g, "three 1s")
    force(t, g, 1, [2] * 6)
    claim(t, 1)
    t.advance(700)
    assert g.scores == [0, 0, 0] and "P1 THUNDER P2 -1" in t.screen_text() and g.phase == PLAY
    assert g.targets[1] == 0
    g.scores[2] = 3
    force(t, g, 1, [3] * 6)
    claim(t, 1)
    t.advance(700)
    assert g.scores == [0, 0, 2]


def test_six_of_a_number_nobody_has_is_a_false_claim():
    t, g = table(players=2)
    to_play(t, g, "no 5s")
    g.scores[0] = 4
    force(t, g, 1, [5] * 6)
    claim(t, 1)
    t.advance(700)
    assert g.scores == [2, 0]


def test_bonus_then_the_card_on_the_same_hand():
    t, g = table(players=2)
    to_play(t, g, "no 1s")
    g.targets[1] = 1
    force(t, g, 1, [1] * 6)  # six of their own number: not the card
    claim(t, 1)
    t.advance(700)
    assert g.scores == [1, 0] and "P1 BONUS! +1" in t.screen_text() and g.phase == PLAY
    assert g.targets[1] == 0  # back to the card, a fresh hand
    force(t, g, 1, [2, 3, 4, 5, 6, 2])
    claim(t, 1)
    t.advance(700)
    assert g.scores == [3, 0] and "P1 GOT IT! +2" in t.screen_text()


def test_a_hold_is_judged_on_the_dice_at_its_edge_not_at_recognition():
    t, g = table(players=2)
    to_play(t, g, "no 6s")
    force(t, g, 1, [1, 2, 3, 4, 5, 1])  # meets the card at the edge
    edge = claim(t, 1)
    t.advance(100)
    force(t, g, 1, [6] * 6)  # a roll lands before the hold is recognised
    t.advance(600)
    assert g.scores == [2, 0] and g.race.press_ns(1) == edge


def test_a_tap_and_a_claim_in_one_loop_pass_judge_the_dice_then_on_screen():
    t, g = table(players=2, loop_ms=25)  # a slow loop: 25 ms between passes
    to_play(t, g, "no 1s")
    g.scores[0] = 4
    force(t, g, 1, [1] * 5 + [2])  # on screen: does not meet "no 1s"
    g.rng = FixedRng(3)  # the tap's roll makes the dice meet it (all 3s)
    at = t.now + 1 * MS
    t.press(1, at_ns=at, hold_ms=9)  # a tap: rolls at its release (longer than the 8 ms bounce rule)
    t.press(1, at_ns=at + 19 * MS, hold_ms=600)  # claims 10 ms later, in the same pass
    t.advance(800)
    assert g.dice(1) == [3] * 5 + [2]
    assert g.scores == [2, 0], "judged on the new dice, which were not yet on screen"


def test_a_roll_goes_on_screen_a_few_dice_a_pass_and_counts_once_all_are_drawn():
    # a tap's roll is drawn from the next pass, a few dice a pass, in passes without a
    # roll; claims pressed before the last die is drawn are judged on the dice before
    t, g = table(players=2)
    to_play(t, g, "no 1s")
    force(t, g, 1, [1] * 6)
    g.rng = FixedRng(3)  # every die rolls a 3: all six change (no 1 is kept on "no 1s")
    g._roll(1)
    assert g.cur[1] == bytearray([3] * 6) and g.dice(1) == [1] * 6
    tile = lambda i: g.view.grids[1][i][0]  # noqa: E731
    shown = [tile(i) for i in range(6)]
    t.advance(2)  # the pass after the roll: queued, nothing drawn
    assert g.drawing == [1] and [tile(i) for i in range(6)] == shown
    k = ld._DICE_PX // (26 * 26)  # dice a pass
    assert 1 <= k < 6
    for n in range(k, 6, k):  # n dice drawn; the row is not yet seen
        t.advance(2)
        now = [tile(i) for i in range(6)]
        assert now[n:] == shown[n:] and all(now[i] != shown[i] for i in range(n))
        assert g.dice(1) == [1] * 6 and g.drawing == [1]
    t.advance(2)
    assert g.dice(1) == [3] * 6 and g.drawing == [] and g.seen_at[1] == t.now
    assert g.before[1] == bytearray([1] * 6)


def test_a_claim_pressed_while_a_roll_is_drawn_is_judged_on_the_dice_before():
    t, g = table(players=2)
    to_play(t, g, "no 1s")
    g.scores[0] = 4
    force(t, g, 1, [1] * 5 + [2])  # on screen: does not meet "no 1s"
    g.rng = FixedRng(3)
    g._roll(1)  # all 3s: meets the card once drawn
    t.advance(4)  # half drawn
    assert g.drawing == [1]
    t.press(1, at_ns=t.now, hold_ms=600)  # pressed on the dice of before
    t.advance(800)
    assert g.dice(1) == [3] * 5 + [2] or g.dice(1) == [3] * 6
    assert g.scores == [2, 0], "a wrong claim: the new dice were not all on screen"


def test_people_s_rolls_are_drawn_before_bots_and_bots_wait_for_the_screen():
    t, g = table(players=4, bots=(3, 4), seed=5)
    to_play(t, g, "no 1s")
    t.advance_until(lambda: not g.drawing and not g.dirty, 200)
    g.tap_at[3] = g.tap_at[4] = 0  # both bots are due to tap
    g.rng = FixedRng(3)
    for b in (3, 4):
        g.cur[b][:] = bytes([1] * 6)
        g.kept[b] = 0
        g.dirty |= 1 << b
    t.advance(2)  # bot rolls (forced) queued, a bot's own roll waits for them
    assert g.drawing == [3, 4]
    g.cur[1][:] = bytes([1] * 6)
    g._keep(1)  # a person's roll: after the row being drawn, before the other bots'
    t.advance(2)
    assert g.drawing == [3, 1, 4]
    assert t.advance_until(lambda: not g.drawing, 100)
    # each bot looked at its dice once they were drawn, and taps again from then
    assert g.tap_at[3] > g.seen_at[3] and g.tap_at[4] > g.seen_at[4]


def test_a_button_held_from_before_the_card_never_claims():
    t, g = table(players=2)
    assert t.advance_until(lambda: g.phase == 0 and t.now > 1000 * MS, 20000)
    t.press(1, hold_ms=9000)  # pressed between cards, held through the deal
    to_play(t, g, "no 6s")
    force(t, g, 1, [1, 2, 3, 4, 5, 1])
    t.advance(2000)
    assert g.scores == [0, 0] and g.race.false_starts() == []


def test_quick_game_first_to_meet_takes_the_card_false_claims_put_you_out():
    t, g = table(players=2, mode="quick")
    to_play(t, g, "no 1s")
    force(t, g, 1, [1] * 6)  # a Bonus hand does not count in the quick game
    claim(t, 1)
    t.advance(700)
    assert g.scores == [0, 0] and "P1 wrong: out" in t.screen_text()
    force(t, g, 1, [2] * 6)
    claim(t, 1)
    t.advance(700)
    assert g.scores == [0, 0] and g.phase == PLAY
    force(t, g, 2, [2] * 6)
    claim(t, 2)
    t.advance(700)
    assert g.scores == [0, 1] and "P2 TAKES IT" in t.screen_text()


# ----------------------------------------------------------------- targets


def test_taps_between_cards_cycle_the_target_shown_beside_the_dice_and_on_the_ring():
    t, g = table(players=3)
    t.advance(50)
    seen = []
    for _ in range(5):
        seen.append((g.targets[1], t.screen_text().split("\n")[3:6]))
        t.press(1, hold_ms=60)
        t.advance(150)
    assert [s[0] for s in seen] == [0, 1, 2, 3, 0]
    rows = [s[1] for s in seen]
    assert "card" in rows[0] and "Bonus" in rows[1] and "Th P2" in rows[2] and "Th P3" in rows[3]
    assert t.ring(1)[0] == t.ring(1)[11] != (0, 0, 0)
    # the target steers the keep policy in the next card
    to_play(t, g)
    assert g.targets[1] == 1
    assert all(((g.kept[1] >> i) & 1) == (g.cur[1][i] == 1) for i in range(6)) or g.kept[1] == 63


def test_quick_game_has_no_targets():
    t, g = table(players=2, mode="quick")
    t.advance(50)
    t.press(1, hold_ms=60)
    t.advance(200)
    assert g.targets[1] == 0


# ----------------------------------------------------------------- matches


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("mode", ["standard", "quick"])
def test_seeded_bot_matches_reach_a_winner(players, mode):
    t, g = table(players=players, bots=tuple(range(1, players + 1)), seed=100 + players, mode=mode,
                 bot_level=("easy", "normal", "hard")[players % 3])
    assert t.run_until_over(30 * 60 * 1000)
    s = g.scores
    assert g.winners and all(s[w - 1] == max(s) for w in g.winners)
    assert g.winners == [p for p in range(1, players + 1) if s[p - 1] == max(s)]
    if mode == "standard":
        assert max(s) >= 20 and min(s) >= 0
    else:
        assert g.pos == 50 and sum(s) <= 50
    assert "WIN" in t.screen_text()


@pytest.mark.parametrize("players, level", [(2, "easy"), (4, "hard")])
def test_bots_claim_at_nanosecond_resolution_so_two_bots_never_share_an_edge(players, level):
    # bots used to claim a whole number of milliseconds after a moment they shared (the
    # reveal, or the loop pass that rolled their dice), so two of them could press in the
    # same nanosecond: with no tie window both took the card, and a quick game handed
    # out more cards than the deck holds. Their delays are now drawn to the nanosecond.
    t, g = table(players=players, bots=tuple(range(1, players + 1)), seed=1, mode="quick", bot_level=level)
    edges, shared = [], []
    real_claim, real_taken = g._claim, g._taken
    g._claim = lambda p, at, now: (edges.append(at), real_claim(p, at, now))
    g._taken = lambda who, now: (len(who) > 1 and shared.append(who), real_taken(who, now))
    assert t.run_until_over(30 * 60 * 1000)
    assert not shared and sum(g.scores) <= 50, (shared, g.scores)
    assert len(set(edges)) == len(edges) > 50
    assert sum(1 for e in edges if e % MS) > len(edges) * 9 // 10  # not on whole ms


@pytest.mark.parametrize("level, lo, hi", [("easy", 600, 1200), ("normal", 400, 800), ("hard", 250, 450)])
def test_bot_delays_are_drawn_to_the_nanosecond_within_their_level(level, lo, hi):
    from games.lightning_dice_bots import Bot
    from referee.rng import Rng

    rng = Rng(5)
    b = Bot(level)
    seen = [b.see_ns(rng) for _ in range(200)]
    assert lo * MS <= min(seen) and max(seen) <= hi * MS and len(set(seen)) == 200
    assert sum(1 for s in seen if s % MS) >= 190
    taps = [b.tap_ns(rng) for _ in range(200)]
    assert sum(1 for s in taps if s % MS) >= 190

def test_a_bot_claims_on_the_card_or_on_six_of_its_own_or_its_targets_number():
    # a bot that looks at its dice holds (a claim at hold_at) when they meet the card,
    # or are six of its own number (Bonus) or of the seat it aims at (Thunder), and
    # taps again otherwise (hard bots never claim wrongly); the quick game has no Bonus
    for quick, dice, target, claims in (
        (False, (2, 2, 2, 2, 2, 2), 0, True),  # six of its own number (seat 2)
        (False, (3, 3, 3, 3, 3, 3), 3, True),  # six of its target's (Thunder on P3)
        (False, (3, 3, 3, 3, 3, 3), 0, False),  # six of another's, aiming at the card
        (False, (2, 2, 2, 2, 2, 5), 0, False),  # five of its own
        (False, (1, 2, 3, 4, 5, 6), 0, True),  # the card met
        (True, (2, 2, 2, 2, 2, 2), 0, False),  # quick game: six of its own is nothing
    ):
        t, g = table(players=3, bots=(2,), bot_level="hard", mode="quick" if quick else "standard")
        to_play(t, g, "straight")
        g.targets[2] = target
        g.cur[2][:] = bytes(dice)
        g._bot_look(2, t.now)
        assert (g.hold_at[2] >= 0) == claims, (quick, dice, target)


def test_one_person_against_bots_and_the_same_seed_plays_the_same_match():
    out = []
    for _ in range(2):
        t, g = table(players=4, bots=(2, 3, 4), seed=7, target=10)
        assert t.run_until_over(20 * 60 * 1000)
        out.append((g.scores, g.winners, t.now))
    assert out[0] == out[1] and out[0][0][0] == 0


# ----------------------------------------------------------------- saves


def test_save_and_resume_round_trip_at_card_boundaries():
    t, g = table(players=3, bots=(1, 2, 3), seed=9)
    assert t.advance_until(lambda: g.saves >= 3, 120000)
    assert t.advance_until(lambda: not t.app._save_due, 100)  # written, a step a pass
    saved = Store(t.box.store).load()
    assert saved["game"] == "lightning_dice" and saved["state"] == g.state()
    st = saved["state"]
    assert sorted(st) == ["deck", "pos", "scores", "targets"]
    t.reboot()
    t.advance(20)
    assert "Resume" in t.screen_text()
    t.hold(1)
    g2 = t.game
    assert g2 is not g and g2.scores == st["scores"] and g2.deck == st["deck"] and g2.pos == st["pos"]
    assert any("fresh seed" in m for m in t.box.logs)
    assert t.run_until_over(30 * 60 * 1000) and g2.winners


def test_damaged_saves_are_refused_with_a_message():
    t, g = table(players=2)
    good = g.state()
    for bad in ({}, dict(good, scores=[1]), dict(good, scores=[-1, 0]), dict(good, targets=[0, 7]),
                dict(good, deck=[0] * 50), dict(good, pos=99), dict(good, scores="xx")):
        with pytest.raises(ValueError, match="saved Lightning Dice"):
            g.restore(bad, t.now)


# ----------------------------------------------------------------- faults


def test_a_pause_during_a_card_voids_it_and_deals_it_again():
    t, g = table(players=2)
    to_play(t, g)
    spec = g.card.spec
    pos = g.pos
    t.menu()
    t.advance(200)
    t.menu()  # Resume is the first item: a hold chooses it
    t.press(8, hold_ms=800)
    t.advance(1000)
    if t.app.mode == "pause":
        t.press(1, hold_ms=800)
        t.advance(1000)
    assert t.app.mode == "game" and g.pos == pos - 1 and "Card void" in t.screen_text()
    to_play(t, g)
    assert g.card.spec == spec


def test_standings_for_a_match_ended_from_the_pause_menu():
    t, g = table(players=3, mode="quick")
    g.scores[:] = [2, 5, 2]
    assert g.standings() == [(2, "P2  5 cards"), (1, "P1  2 cards"), (3, "P3  2 cards")]


def test_lost_capture_voids_the_card():
    t, g = table(players=2)
    to_play(t, g)
    t.lose_capture()
    t.advance(10)
    assert g.phase == 0 and "capture lost" in t.screen_text() and t.box.backlight


# ----------------------------------------------------------------- screens


def test_screens_render_to_png(tmp_path):
    t, g = table(players=6, bots=(2, 3, 4, 5, 6), seed=3)
    t.advance(100)
    paths = [t.save_png(str(tmp_path / "intro.png"))]
    to_play(t, g, "three 1s and three 6s")
    t.advance(400)
    text = t.screen_text()
    assert "three 1s\nand three 6s" in text  # wrapped at " and "
    paths.append(t.save_png(str(tmp_path / "card.png")))
    assert t.advance_until(lambda: g.phase == 0, 60000)
    paths.append(t.save_png(str(tmp_path / "result.png")))
    assert t.run_until_over(30 * 60 * 1000)
    paths.append(t.save_png(str(tmp_path / "winner.png")))
    assert "WIN" in t.screen_text() and "hold: menu" in t.screen_text()
    for p in paths:
        assert (tmp_path / p).stat().st_size > 2000
    # every text a player reads is at least scale 2
    import displayio

    from referee import screen

    def scales(group, out):
        for i in range(len(group)):
            item = group[i]
            if isinstance(item, screen.Text):
                if item.text and not item.hidden:
                    out.append(item.scale)
            elif isinstance(item, displayio.Group) and not item.hidden:
                scales(item, out)
        return out

    found = scales(g.root, [])
    assert len(found) >= 10 and min(found) >= 2
