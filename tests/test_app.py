"""The app loop: launcher with one button, pause, errors on screen, bad launches."""
import pytest
from test_wurfelblitz_flow import roll

from hardware.sim import SimTable
from referee.game import BaseGame

MS = 1000000


def test_launcher_starts_reaction_test_with_a_bot_seat_from_buttons():
    t = SimTable(players=3)
    t.advance(10)
    assert "Choose a game" in t.screen_text()
    t.hold(2)  # choose "Reaction test" (first item)
    assert "Players" in t.screen_text() and "3 players" in t.screen_text()
    t.tap(1)  # 4 players
    t.tap(1, count=1)  # 5 players
    t.hold(3)
    text = t.screen_text()
    assert "Start!" in text and "P5: human" in text
    t.tap(1)  # -> P1 seat
    t.tap(1)  # -> P2 seat
    t.hold(1)  # P2 becomes a bot
    assert "P2: bot" in t.screen_text()
    for _ in range(6):  # P3, P4, P5, Rounds, Back, wrap to Start!
        t.tap(1)
    t.hold(1)
    g = t.game
    assert g is not None and g.players == 5 and g.bots == (2,)
    assert t.app.mode == "game"


def test_rounds_option_cycles_in_the_launcher():
    t = SimTable(players=2)
    t.hold(1)
    t.hold(1)
    for _ in range(3):  # Start!, P1, P2 -> Rounds
        t.tap(1)
    assert "Rounds: 5" in t.screen_text()
    t.hold(1)
    assert "Rounds: 10" in t.screen_text()


def test_all_bots_is_refused_in_the_launcher():
    t = SimTable(players=2, settings={"REFEREE_BOTS": "1,2"})
    t.hold(1)
    t.hold(1)
    t.hold(1)  # Start! with both seats bots
    assert t.game is None
    assert "one seat must be human" in t.screen_text()


def test_bad_settings_message_is_on_the_launcher_screen():
    t = SimTable(players=2, settings={"REFEREE_TIE_WINDOW_MS": "lots"})
    t.advance(10)
    assert "REFEREE_TIE_WINDOW_MS" in t.screen_text()


def test_menu_button_pauses_and_resume_restarts_the_round():
    t = SimTable(players=2)
    g = t.start("reaction", rounds=3)
    t.advance(100)
    t.menu()
    t.advance(400)
    assert t.app.mode == "pause" and "Paused" in t.screen_text()
    t.hold(1)  # Resume
    assert t.app.mode == "game"
    assert g.round == 1


def test_the_pause_menus_code_is_loaded_only_while_a_table_pauses():
    # heap: a match nobody pauses holds neither the pause menu's code nor the menus'
    # (Wurfelblitz uses no menu; docs/memory.md)
    import sys

    t = SimTable(players=2)
    t.start("wurfelblitz")
    t.advance(100)
    assert "referee.pause" not in sys.modules and "referee.menu" not in sys.modules
    t.menu()
    t.advance(400)
    assert t.app.mode == "pause" and "referee.pause" in sys.modules
    t.hold(1)  # Resume: kept until the match ends (imported again at every pause, it
    assert t.app.mode == "game" and "referee.pause" in sys.modules  # grew the VM's heap)
    assert t.app._pause_menu is None and t.app._pause_view is None  # the menu's objects are not
    t.menu()
    t.advance(400)
    assert t.app.mode == "pause" and "Paused" in t.screen_text()
    t.tap(1)  # -> End game
    t.hold(1)
    t.hold(1)  # "No, resume"
    t.menu()
    t.advance(400)
    t.tap(1)
    t.hold(1)
    t.tap(1)  # -> "Yes, end it"
    t.hold(1)
    assert t.app.mode == "ended"
    t.hold(1)  # back to the games: the match's modules forgotten
    assert t.app.mode == "launcher" and "referee.pause" not in sys.modules


def test_pausing_in_the_dark_lights_the_menu_and_resume_replays_lit():
    t = SimTable(players=2)
    g = t.start("reaction", rounds=3)
    assert t.advance_until(lambda: not t.box.backlight, 10000)  # the stimulus is being drawn dark
    t.menu()
    t.advance(400)
    assert t.app.mode == "pause" and t.box.backlight
    assert "Paused" in t.screen_text()
    t.hold(1)  # Resume: a paused race is replayed, from a lit screen
    assert t.app.mode == "game" and t.box.backlight
    assert g.round == 1


def test_two_buttons_held_pause_and_end_game_returns_to_launcher():
    t = SimTable(players=2)
    t.start("reaction", rounds=3)
    t.advance(100)
    t.press(1, hold_ms=3300)
    t.press(2, at_ns=t.now + 250 * MS, hold_ms=3300)  # pressed together (within 0.3 s)
    t.advance(3000)
    assert t.app.mode == "game"  # not yet: 3 s from the second press
    t.advance(400)
    assert t.app.mode == "pause"
    t.tap(1)  # -> End game
    t.hold(1)
    assert t.app.mode == "pause" and "End the match?" in t.screen_text()  # asks first
    t.hold(1)  # "No, resume"
    assert t.app.mode == "game"
    t.menu()
    t.advance(300)
    t.tap(1)
    t.hold(1)  # End game
    t.tap(1)
    t.hold(1)  # Yes, end it
    assert t.app.mode == "ended" and t.game.over
    assert "Match ended" in t.screen_text()
    t.advance(5000)
    assert t.app.mode == "ended"  # the standings stay until someone holds
    t.hold(2)
    assert t.app.mode == "launcher" and t.game is None
    assert "Choose a game" in t.screen_text()


def test_ending_shows_the_games_standings_in_each_players_colour():
    from referee import palette

    t = SimTable(players=3)
    g = t.start("reaction", rounds=3)
    g.standings = lambda: [(2, "P2  2 wins"), (1, "P1  1 win"), (3, "P3  0 wins")]
    t.menu()
    t.advance(300)
    t.tap(1)
    t.hold(1)
    t.tap(1)
    t.hold(1)
    text = t.screen_text()
    assert text.index("P2  2 wins") < text.index("P1  1 win") < text.index("P3  0 wins")
    shown = {item.text: item.color for item in t.box.root if hasattr(item, "anchored_position")}
    assert shown["P2  2 wins"] == palette.station(2) and shown["P3  0 wins"] == palette.station(3)


def test_a_held_button_of_a_seat_nobody_plays_makes_no_pause_chord():
    t = SimTable(players=4)
    t.start("reaction", rounds=3)
    t.advance(100)
    t.press(6, hold_ms=6000)  # station 6 is not a seat at a 4-player table
    t.press(1, hold_ms=3500)
    t.advance(4000)
    assert t.app.mode == "game"


def test_buttons_pressed_apart_make_no_pause_chord():
    t = SimTable(players=3)
    t.start("reaction", rounds=3)
    t.advance(100)
    t.press(3, hold_ms=6000)  # resting on a button...
    t.press(1, at_ns=t.now + 1000 * MS, hold_ms=4000)  # ...while another is held long
    t.advance(5500)
    assert t.app.mode == "game"


def test_tied_wurfelblitz_answerers_holding_said_it_do_not_pause():
    t = SimTable(players=3, seed=2)
    g = t.start("wurfelblitz")
    r = roll(t, g)
    t.press(1, at_ns=r + 600 * MS)
    t.press(2, at_ns=r + 600 * MS)
    assert t.advance_until(lambda: g.phase_name() == "confirm")
    t.press(1, hold_ms=2300)  # both hold "said it", long and together
    t.press(2, hold_ms=2300)
    t.advance(2600)
    assert t.app.mode == "game"
    assert g.discs[1].white == 1 and g.discs[2].white == 1


class Boom(BaseGame):
    def tick(self, now_ns):
        raise RuntimeError("dice fell off the table")


def test_a_crashing_game_shows_an_error_screen_and_the_box_lives_on(monkeypatch):
    import games.reaction

    t = SimTable(players=2, catch_errors=True)
    monkeypatch.setattr(games.reaction, "Game", Boom)
    t.start("reaction")
    t.advance(20)
    assert t.app.mode == "error"
    assert "RuntimeError: dice fell off the table" in t.screen_text()
    assert any("dice fell off" in line for line in t.box.logs)
    t.hold(1)
    assert t.app.mode == "launcher"


def test_tests_see_game_errors_directly(monkeypatch):
    import games.reaction

    t = SimTable(players=2)
    monkeypatch.setattr(games.reaction, "Game", Boom)
    t.start("reaction")
    with pytest.raises(RuntimeError):
        t.advance(20)


def test_bad_launch_arguments_are_refused_with_clear_messages():
    t = SimTable(players=2)
    with pytest.raises(ValueError, match="unknown game"):
        t.start("chess")
    with pytest.raises(ValueError, match="bot seat 3"):
        t.start("reaction", bots=(3,))
    with pytest.raises(ValueError, match="rounds"):
        t.start("reaction", rounds=4)
    with pytest.raises(ValueError, match="unknown option"):
        t.start("reaction", colour="red")


def test_game_over_then_hold_returns_to_launcher():
    t = SimTable(players=2, seed=11)
    g = t.start("reaction", bots=(2,), rounds=3)
    assert not t.run_until_over(2000)
    # the human never races, only taps on past each result: the bot wins every round
    for _ in range(3):
        assert t.advance_until(lambda: g.phase_name() == "result", 20000)
        t.tap(1)
    assert g.over
    assert g.winners == [2]
    t.hold(1)  # the session's wins first (referee.keep), then the launcher
    assert t.app.mode == "over" and "P2 wins" in t.screen_text()
    t.hold(1)
    assert t.app.mode == "launcher"


def test_listing_games_imports_none_and_a_finished_game_is_unloaded():
    import sys

    import games

    games.unload()
    t = SimTable(players=2, seed=12)
    t.advance(10)
    assert "Wurfelblitz" in t.screen_text() and "Zilch" in t.screen_text()
    assert not [m for m in sys.modules if m.startswith("games.")]
    g = t.start("reaction", bots=(2,), rounds=3)
    assert "games.reaction" in sys.modules
    for _ in range(3):
        assert t.advance_until(lambda: g.phase_name() == "result", 20000)
        t.tap(1)  # on past the result
    assert g.over
    t.hold(1)
    t.hold(1)  # past the session's wins
    assert t.app.mode == "launcher"
    assert not [m for m in sys.modules if m.startswith("games.")]


def test_a_game_missing_from_the_device_is_named_not_fatal(monkeypatch):
    import games

    monkeypatch.setattr(games, "REGISTRY", games.REGISTRY + (("ghost", "Ghost Game", "games.nowhere"),))
    t = SimTable(players=2)
    for _ in range(len(games.REGISTRY) - 1):
        t.tap(1)
    assert "Ghost Game" in t.screen_text()
    t.hold(1)
    assert "not installed" in t.screen_text()
    assert t.app.mode == "launcher"


def end_from_the_menu(t):
    """End the match on the simulated box ``t`` from the pause menu (End game, Yes)."""
    t.menu()
    t.advance(1000)
    assert t.app.mode == "pause"
    t.tap(1)
    t.hold(1)  # End game
    t.tap(1)
    t.hold(1)  # Yes, end it
    assert t.app.mode == "ended" and t.game.over


@pytest.mark.parametrize("name", [n for n in __import__("games").names()])
def test_ending_any_game_from_the_menu_shows_its_standings(name):
    # every game of the registry has its own standings() (BaseGame's raises): ended from
    # the pause menu after some play, the screen ranks every seat, never "no standings"
    import games

    players = min(3, games.load(name).MAX_PLAYERS)
    t = SimTable(players=players, seed=4)
    if name == "selftest":
        t.start(name)
    else:
        t.start(name, bots=tuple(range(2, players + 1)))
    t.advance(20000)
    assert t.app.mode == "game", (t.app.mode, t.app.error)
    end_from_the_menu(t)
    text = t.screen_text()
    assert "Match ended" in text and "no standings" not in text and "error" not in text.lower()
    seats_shown = [p for p in range(1, players + 1) if ("P%d " % p) in text]
    assert seats_shown == list(range(1, players + 1)) or name == "selftest", text
    assert type(t.game).standings is not BaseGame.standings


def test_zilch_ended_from_the_menu_ranks_the_banked_points():
    t = SimTable(players=4, seed=2)
    t.start("zilch", bots=(2, 3, 4))
    t.advance(500)
    t.game.totals[1:] = [5700, 3500, 1850, 5050]
    end_from_the_menu(t)
    rows = [ln.strip() for ln in t.screen_text().split("\n") if "points" in ln]
    assert rows == ["1. P1  5700 points", "2. P4  5050 points", "3. P2  3500 points",
                    "4. P3  1850 points"], rows


def test_ranked_shares_places_on_ties():
    g = BaseGame.__new__(BaseGame)
    g.players = 4
    score = {1: 3, 2: 5, 3: 5, 4: 1}
    assert g.ranked(lambda p: -score[p]) == [(1, 2), (1, 3), (3, 1), (4, 4)]
    with pytest.raises(NotImplementedError):
        g.standings()


def test_options_are_resolved_once_by_the_app_and_older_saves_read():
    import glob
    import os

    from games import zilch
    from referee.game import resolve_options

    # a save of an older version wrote switches as "on"/"off" and the variant as text
    o = resolve_options(zilch.OPTIONS, {"pyramiding": "on", "challenge": "off", "variant": "10000"})
    assert o["pyramiding"] is True and o["challenge"] is False and o["variant"] == 10000
    assert o["hint"] is False and o["bot"] == "expected"  # the defaults fill the rest
    with pytest.raises(ValueError, match="pyramiding"):
        resolve_options(zilch.OPTIONS, {"pyramiding": "maybe"})
    # no game resolves or coerces its options again
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for path in glob.glob(os.path.join(root, "games", "*.py")):
        src = open(path, encoding="utf-8").read()
        assert "resolve_options(" not in src and 'in (True, "on")' not in src, path


@pytest.mark.parametrize("name", [n for n in __import__("games").names()])
def test_every_game_declares_the_whole_contract(name):
    # BaseGame's contract (docs/design.md, "Adding a game"): a version of its saves, its
    # own standings, state() and restore() together, phases with their FLOW table
    import games

    g = games.load(name).Game
    # (the base the game was built on: loading a game may import referee.game afresh,
    # so this module's BaseGame is not always the same class object)
    base = [c for c in g.__mro__ if c.__name__ == "BaseGame"][0]
    assert isinstance(g.VERSION, int) and not isinstance(g.VERSION, bool)
    assert g.standings is not base.standings
    assert g.FLOW and len(g.FLOW) == len(g.NAMES), "phases: const ints with a FLOW table"
    if g.state is not base.state and name != "selftest":  # a game that saves can be resumed
        assert g.restore is not base.restore
    # (the self test keeps a state for the match's record only: it never saves, and
    # BaseGame.restore says it does not resume)
