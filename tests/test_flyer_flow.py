"""The Essen 2006 flyer game on the simulated box: set-up, a person's menus (from ->
markers -> to -> confirm, Back at each step, End turn), the payment shown before a
move, other seats' presses ignored, bots to the end, the table ending the game from
the pause menu, save and resume through a reboot, and the screens as PNG."""

import sys

import pytest
from notice_helpers import read_notice

import games
from games import flyer, flyer_screen
from games import flyer_bots as B
from games import flyer_rules as R
from hardware.sim import SimTable
from referee import rings
from referee.core import MS
from referee.game import resolve_options
from referee.rng import Rng
from referee.store import Store

THROW = ["red", "white", "white", "red", "purple", "blue"]


def table(players=4, bots=(), seed=7, fast=True, **opts):
    t = SimTable(players=players, seed=3)
    g = t.start("flyer", bots=bots, seed=seed, **opts)
    if fast:
        g.think_ns = 6 * MS
        g.roll_ns = 4 * MS
    return t, g


@pytest.fixture
def dice(monkeypatch):
    """``dice(g, throw, ...)``: the colour dice game ``g`` throws next, in order (then
    random). Patched on the rules module ``g`` runs with (a match's end unloads the
    game's modules, so the next match may run a fresh copy)."""
    queue = []

    def load(g, *throws):
        rules = sys.modules[type(g).__module__].R
        real = rules.roll
        if not queue:
            monkeypatch.setattr(rules, "roll", lambda rng: list(queue.pop(0)) if queue else real(rng))
        queue.extend(throws)

    return load


def wait_for(t, g, phases, max_ms=20000):
    assert t.advance_until(lambda: g.phase in phases, max_ms), (
        "phase %s never came (stuck in %s)" % ([flyer.Game.NAMES[p] for p in phases], g.phase_name()))


def values(g):
    return [v for _, v in g.menu.items]


def choose(t, g, value):
    """The active person taps to ``value`` and holds to choose it."""
    vals = values(g)
    assert value in vals, "%r not offered in %r" % (value, vals)
    steps = (vals.index(value) - g.menu.index) % len(vals)
    if steps:
        t.tap(g.player, steps)
    assert g.menu.current()[1] == value
    t.hold(g.player)


def begin(t, g, seat=1):
    """Leave the set-up screen (a person's hold) and wait for the first menu or bot."""
    assert g.phase == flyer.SETUP
    t.hold(seat)
    wait_for(t, g, (flyer.FROM, flyer.BOT))


def play_move(t, g, move):
    """Drive the menus to ``move`` = (from, to, mask) and confirm it."""
    wait_for(t, g, (flyer.FROM,))
    choose(t, g, move[0])
    while True:
        assert g.phase == flyer.MARKERS
        if (move[2], True) in values(g):
            choose(t, g, (move[2], True))
            break
        step = [v for v in values(g) if v != flyer.BACK and not v[1] and v[0] & ~move[2] == 0]
        choose(t, g, step[0])
    assert g.phase == flyer.TO
    choose(t, g, move)
    assert g.phase == flyer.CONFIRM
    choose(t, g, flyer.MOVE)


def framed(g):
    return [i for i in range(6) if not g.view.frames[i].hidden]


# --- the module and the pinned views ---------------------------------------------------


def test_registry_module_and_pinned_views():
    assert "flyer" in games.names()
    assert flyer.TITLE == "Flyer (Essen 2006)" and (flyer.MIN_PLAYERS, flyer.MAX_PLAYERS) == (2, 4)
    assert flyer.ADJACENT is R.ADJACENT and "home4" in flyer.ADJACENT["border"]
    assert {o.key for o in flyer.OPTIONS} == {"covered", "bot"}
    assert all(len(row) and flyer.OVER in row for row in flyer.Game.FLOW[:-1])
    t, g = table()
    assert g.stacks == {"centre": ["white", "yellow", "green", "blue", "purple", "red"]}
    assert g.values == R.values_from(g.throws)
    assert [g.values[c] for c in ("red", "purple", "blue", "green", "yellow", "white")] == sorted(g.throws)
    assert g.scores == [0, 0, 0, 0] and g.player == 4  # the last seat starts


def test_set_up_screen_shows_throws_values_and_stack_until_a_person_starts():
    t, g = table(bots=(2, 3))
    t.advance(5000)
    assert g.phase == flyer.SETUP  # stays until a person starts
    text = t.screen_text()
    assert "Throws " + " ".join(str(x) for x in g.throws) in text and "P4 starts" in text
    for v in g.values.values():
        assert "\n" + str(v) + "\n" in "\n" + text + "\n"
    marks = g.view.marks  # the stack in the centre, bottom to top
    ys = [marks[c].y for c in R.COLOURS]
    assert ys == sorted(ys, reverse=True) and len(set(m.x for m in marks.values())) == 1
    t.hold(2)  # a bot's seat (nobody sits there): ignored
    assert g.phase == flyer.SETUP
    t.hold(1)
    assert g.phase in (flyer.ROLL, flyer.FROM)


def test_two_people_get_bots_on_the_other_homebases():
    t, g = table(players=2)
    assert g.players == 4 and g.bots == (3, 4) and len(g.scores) == 4
    begin(t, g)
    wait_for(t, g, (flyer.FROM,))
    assert g.player == 1 and g.st.turns == 1  # the bot in seat 4 has played the first turn


def test_bad_options_are_refused_and_odd_values_read_safely():
    t = SimTable(players=4)
    with pytest.raises(ValueError, match="bot"):
        t.start("flyer", bot="clever")
    with pytest.raises(ValueError, match="players"):
        SimTable(players=5).start("flyer")
    # options are resolved once, by the app: a choice's name (an older save's "on") reads
    # as the choice; a value that is none of them is refused there, never guessed at
    opts = resolve_options(flyer.OPTIONS, {"covered": "on"})
    g = flyer.Game(t.box, 4, (2,), 1, opts)
    assert g.covered is True and g.bot_kind == "greedy"
    with pytest.raises(ValueError, match="bot"):
        resolve_options(flyer.OPTIONS, {"bot": "nonsense"})


# --- a person's turn -----------------------------------------------------------------


def test_menus_from_markers_to_confirm_with_back_at_each_step(dice):
    t, g = table()
    dice(g, THROW)
    begin(t, g, 4)
    assert g.player == 4 and g.phase == flyer.FROM
    assert values(g) == [R.END, "centre"] and g.menu.current()[1] == "centre"
    assert len(g.menu.items) <= 8
    choose(t, g, "centre")
    assert g.phase == flyer.MARKERS and values(g)[-1] == flyer.BACK
    choose(t, g, flyer.BACK)
    assert g.phase == flyer.FROM
    choose(t, g, "centre")
    move = ("centre", "red", R.bit("red"))
    choose(t, g, (R.bit("red"), False))  # the picker: + red
    assert g.phase == flyer.MARKERS and (R.bit("red"), True) in values(g)
    choose(t, g, (R.bit("red"), True))
    assert g.phase == flyer.TO and move in values(g) and len(values(g)) <= 8
    choose(t, g, flyer.BACK)
    assert g.phase == flyer.MARKERS
    choose(t, g, (R.bit("red"), False))
    choose(t, g, (R.bit("red"), True))
    choose(t, g, move)
    assert g.phase == flyer.CONFIRM and "red centre to red" in t.screen_text()
    choose(t, g, flyer.BACK)
    assert g.phase == flyer.TO
    choose(t, g, move)
    choose(t, g, flyer.MOVE)
    assert g.phase == flyer.FROM
    assert g.stacks["red"] == ["red"] and g.stacks["centre"][-1] == "purple"
    assert g.dice == [None, "white", "white", None, "purple", "blue"]
    assert "P4: red to red" in t.screen_text()  # the last move stays on screen
    choose(t, g, R.END)
    wait_for(t, g, (flyer.FROM,))
    assert g.player == 1 and g.st.turns == 1


def test_the_paying_dice_are_framed_before_the_move_is_confirmed(dice):
    t, g = table()
    dice(g, ["red", "white", "white", "red", "red", "blue"])
    begin(t, g, 4)
    play_move(t, g, ("centre", "red", R.bit("red")))  # pays dice 0 and 3
    assert g.dice == [None, "white", "white", None, "red", "blue"]
    choose(t, g, "red")
    choose(t, g, (R.bit("red"), True))
    assert g.phase == flyer.TO
    for _ in range(len(g.menu.items)):  # each destination shows its own payment
        text, move = g.menu.current()
        want = [] if move == flyer.BACK else sorted(R.payment(g.st, move, g.dice))
        assert framed(g) == want, text
        t.tap(4)
    border = ("red", "border", R.bit("red"))
    choose(t, g, border)
    assert g.phase == flyer.CONFIRM and framed(g) == [1, 4]
    assert "pay 2 dice" in t.screen_text() and "red red to border" in t.screen_text()
    assert g.stacks["red"] == ["red"]  # nothing paid or moved yet
    choose(t, g, flyer.MOVE)
    assert g.stacks["border"] == ["red"] and g.dice == [None, None, "white", None, None, "blue"]
    assert framed(g) == []


def test_presses_of_other_seats_are_ignored(dice):
    t, g = table()
    dice(g, THROW)
    begin(t, g, 4)
    index = g.menu.index
    for p in (1, 2, 3):
        t.tap(p)
        t.hold(p)
        t.press(p, hold_ms=30, bounce=4)  # a bouncing button
        t.advance(500)
    assert g.phase == flyer.FROM and g.player == 4 and g.menu.index == index
    assert g.stacks == {"centre": list(R.COLOURS)}


def test_end_turn_is_always_offered_even_without_a_payable_move(dice):
    t, g = table()
    dice(g, ["white"] * 6)  # no ring space can be paid for: nothing leaves the centre
    begin(t, g, 4)
    assert values(g) == [R.END] and "No move left" in t.screen_text()
    choose(t, g, R.END)
    wait_for(t, g, (flyer.FROM,))
    assert g.player == 1 and values(g)[0] == R.END


# --- scoring, rings, bots -----------------------------------------------------------------


def test_scoring_flashes_the_homebase_owner_and_the_active_ring_pulses(dice):
    t, g = table()
    dice(g, ["white", "red", "blue", "blue", "green", "green"])
    g.st.stacks = {"centre": ["white", "yellow", "green", "blue", "purple"], "border": ["red"]}
    begin(t, g, 4)
    assert t.box.rings.mode(4) == rings.PULSE
    play_move(t, g, ("border", "home4", R.bit("red")))
    assert g.scores == [0, 0, 0, g.values["red"]] and g.stacks["home4"] == ["red"]
    assert t.box.rings.mode(4) == rings.FLASH
    assert "P4 " + str(g.values["red"]) in t.screen_text()
    t.advance(1600)
    assert t.box.rings.mode(4) == rings.PULSE


@pytest.mark.parametrize("kind,covered", [("greedy", False), ("spoiler", True)])
def test_all_bot_tables_play_to_the_end(kind, covered):
    t, g = table(bots=(1, 2, 3, 4), bot=kind, covered=covered)
    assert t.run_until_over(30 * 60 * 1000)
    assert g.over and g.phase == flyer.OVER
    assert g.winners == R.winners(g.st)
    for p in range(4):
        assert g.scores[p] == sum(g.values[c] for c in g.stacks.get(R.HOMES[p], ()))
    assert R.markers_home(g.st) == 6 or g.st.turns >= g.st.cap
    text = t.screen_text()
    assert ("wins!" in text) if len(g.winners) == 1 else ("Tie: " in text)
    for p in range(1, 5):
        assert "P%d %d" % (p, g.scores[p - 1]) in text
    for w in g.winners:
        assert t.box.rings.mode(w) == rings.FLASH


def test_one_person_against_three_bots_scripted_to_the_end():
    t, g = table(bots=(2, 3, 4))
    begin(t, g, 1)
    rng = Rng(99)
    moves = 0
    for _ in range(200):
        wait_for(t, g, (flyer.FROM, flyer.OVER), 60000)
        if g.over:
            break
        assert g.player == 1
        m = B.greedy(g.st, 1, g.dice, False, rng)
        if m is None:
            choose(t, g, R.END)
        else:
            before = g.scores[0]
            play_move(t, g, m)
            moves += 1
            assert g.scores[0] >= before
    assert g.over and moves > 0
    assert g.winners == R.winners(g.st)
    assert sum(g.scores) == sum(g.values[c] for h in R.HOMES for c in g.stacks.get(h, ()))


def test_a_bot_move_shows_its_payment_first_and_takes_about_0_7_s(dice):
    t, g = table(bots=(4,), fast=False)
    dice(g, THROW)
    t.hold(1)
    wait_for(t, g, (flyer.BOT,))
    start = t.now
    t.advance_until(lambda: g.move is not None)
    assert g._due == g.move  # framed at the next pass (a bot's step and its screen: a pass each)
    t.advance_until(lambda: g._due is None)
    shown = t.now
    assert framed(g) == sorted(R.payment(g.st, g.move, g.dice))
    assert R.describe(g.move) in t.screen_text()
    before = sum(len(s) for s in g.stacks.values() if s)
    t.advance_until(lambda: g.move is None)
    assert 300 * MS <= shown - start <= 400 * MS and 600 * MS <= t.now - start <= 800 * MS
    assert before == 6 and "centre" in g.stacks and g.dice.count(None) >= 2


# --- the end from the pause menu, save and resume -----------------------------------------


def test_ending_from_the_pause_menu_shows_the_standings(dice):
    t, g = table(bots=(1, 2, 3))
    g.st.stacks = {"centre": ["white", "yellow", "green", "blue", "purple"], "border": ["red"]}
    dice(g, ["white", "red", "blue", "blue", "green", "green"])
    begin(t, g, 4)
    play_move(t, g, ("border", "home4", R.bit("red")))
    t.menu()
    t.advance(500)
    assert t.app.mode == "pause"
    t.tap(4)  # -> End game
    t.hold(4)
    t.tap(4)  # -> Yes, end it
    t.hold(4)
    assert t.app.mode == "ended" and g.over and g.winners == [4] and g.how == "Ended by the table"
    text = t.screen_text()
    assert "Match ended" in text
    lines = text.split("\n")
    first = lines.index("P4  %d pts: red" % g.values["red"])
    assert [ln[:2] for ln in lines[first:first + 4]] == ["P4", "P1", "P2", "P3"]
    assert g.standings()[0] == (4, "P4  %d pts: red" % g.values["red"])
    t.advance(3000)
    assert t.app.mode == "ended"  # the standings stay until a hold
    t.hold(2)
    assert t.app.mode == "launcher" and t.app.store.load() is None


def test_the_final_screen_shows_each_base_and_the_winner(dice):
    t, g = table(bots=(1, 2, 3))
    dice(g, ["white", "white", "white", "red", "blue", "green"])
    g.st.stacks = {"home1": ["yellow"], "home2": ["green", "blue"], "home3": ["purple"],
                   "border": ["red", "white"]}
    g.st.scores = [g.values["yellow"], g.values["green"] + g.values["blue"], g.values["purple"], 0]
    begin(t, g, 4)
    play_move(t, g, ("border", "home4", R.bit("red") | R.bit("white")))
    assert g.over and g.how == "All markers home" and g.winners == R.winners(g.st)
    text = t.screen_text()
    assert "All markers home" in text
    for p in range(1, 5):
        assert "P%d %d" % (p, g.scores[p - 1]) in text
    x, y = g.view.marks["white"].x, g.view.marks["white"].y  # the markers home are drawn there
    hx, hy = flyer_screen.home_box(4)
    assert hx <= x < hx + flyer_screen.HOME_W and hy <= y < hy + flyer_screen.HOME_H


def test_save_and_resume_through_a_reboot():
    t, g = table(bots=(2, 3, 4), seed=11)
    begin(t, g, 1)
    # the person ends turns until the bots have moved markers about
    for _ in range(3):
        wait_for(t, g, (flyer.FROM,), 60000)
        choose(t, g, R.END)
    wait_for(t, g, (flyer.FROM,), 60000)
    saved = t.app.store.load()
    assert saved["game"] == "flyer" and saved["players"] == 4 and saved["bots"] == [2, 3, 4]
    assert saved["state"]["turn"] == 1 and saved["state"]["stacks"] == {k: v for k, v in g.stacks.items() if v}
    stacks, values, scores, turns = dict(g.stacks), dict(g.values), list(g.scores), g.st.turns
    t.reboot()
    t.advance(20)
    text = t.screen_text()
    assert text.index("Resume Flyer") < text.index("Reaction test")
    t.hold(1)
    g2 = t.game
    assert g2 is not g and t.app.mode == "game"
    assert g2.stacks == stacks and g2.values == values and g2.scores == scores
    assert g2.player == 1 and g2.st.turns == turns and g2.bots == (2, 3, 4)
    wait_for(t, g2, (flyer.FROM,))
    assert g2.dice is not None


def test_a_corrupt_save_is_dropped_with_a_message():
    t, g = table(bots=(2, 3, 4))
    begin(t, g, 1)
    rec = g.record("flyer")
    rec["state"]["stacks"]["centre"] = ["red", "red"]
    Store(t.box.store).save(rec)
    t.reboot()
    t.advance(20)
    t.hold(1)
    assert t.game is None and "could not be resumed" in read_notice(t)  # the message, on the screen
    assert t.app.mode == "launcher"
    assert any("does not restore" in m for m in t.box.logs)
    g2 = flyer.Game(t.box, 4, (2, 3, 4), 1, resolve_options(flyer.OPTIONS, {}))
    with pytest.raises(ValueError):
        g2.restore({"players": 3}, 0)


# --- screens ------------------------------------------------------------------------------


def test_screens_render_to_png(tmp_path, dice):
    import pygame

    t, g = table(bots=(2, 3))
    dice(g, THROW)
    shots = {}
    t.advance(20)
    shots["setup"] = t.save_png(str(tmp_path / "flyer_setup.png"), rings=False)
    t.hold(4)
    wait_for(t, g, (flyer.FROM,))
    shots["turn"] = t.save_png(str(tmp_path / "flyer_turn.png"), rings=False)
    play_move(t, g, ("centre", "red", R.bit("red")))
    choose(t, g, "centre")
    choose(t, g, [v for v in values(g) if v != flyer.BACK][0])
    if g.phase == flyer.MARKERS:
        choose(t, g, [v for v in values(g) if v != flyer.BACK and v[1]][0])
    assert g.phase == flyer.TO and framed(g)
    shots["pay"] = t.save_png(str(tmp_path / "flyer_pay.png"), rings=False)
    t.menu()
    t.advance(500)
    t.tap(1)
    t.hold(1)
    t.tap(1)
    t.hold(1)
    assert t.app.mode == "ended"
    shots["ended"] = t.save_png(str(tmp_path / "flyer_ended.png"), rings=False)
    t.box.show(g.root)  # the game's own final screen, as after all markers home
    shots["final"] = t.save_png(str(tmp_path / "flyer_final.png"), rings=False)
    for name, path in shots.items():
        img = pygame.image.load(path)
        assert img.get_size() == (320, 240), name
        colours = {img.get_at((x, y))[:3] for x in range(0, 320, 7) for y in range(0, 240, 7)}
        assert len(colours) > (4 if name == "ended" else 8), name


def test_the_screen_reads_from_a_seat_header_apart_winner_big_stacks_lined():
    # issue 25: "P1 to playtap=next hold=ok" ran together, "P2 wins!" was header-sized,
    # markers were 4-5 px bars with no line between neighbours
    t, g = table(bots=(2, 3, 4))
    v = g.view
    assert flyer_screen.MARK_STEP - flyer_screen.MARK_H >= 2  # a black line between neighbours
    centre = v.pads["centre"]
    tops = [v.marks[c].y for c in R.COLOURS]  # the set-up: all six on the centre
    assert min(tops) > v.pads["red"][1] + flyer_screen.PAD_H  # six stacked clear the red pad
    assert max(tops) + flyer_screen.MARK_H < centre[1]
    begin(t, g, 1)
    wait_for(t, g, (flyer.FROM,))
    head_end = v.head.x + len(v.head.text) * 12
    assert v.head.text == "P1 plays" and v.hint.text == flyer.HINT
    # the hint is right-aligned in its grid (a Text's grid never moves: issue 29)
    hint_left = v.hint.x + (v.hint._grid.width - len(v.hint.text)) * 12 * v.hint.scale // 2
    assert not v.hint_bg.hidden and head_end + 8 <= v.hint_bg.x <= hint_left - 4
    assert v.hint.x + v.hint._grid.width * 12 <= 320
    t2, g2 = table(bots=(1, 2, 3, 4))
    assert t2.run_until_over(30 * 60 * 1000)
    w = g2.winners
    v2 = g2.view
    assert v2.win_top.scale >= 3 and v2.win_top.text == ("P%d" % w[0] if len(w) == 1 else "Tie:")
    assert all(d.hidden for d in v2.dice)
    assert "hold: menu" in t2.screen_text()
