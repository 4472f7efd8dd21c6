"""The first-boot self test: in the simulator, and on the real box built on fakes."""

from test_device import build, run, world  # noqa: F401  (the device fixture)

import games
from hardware.sim import SimTable

MS = 1000000


def _played(freqs, cue=(1047, 1319, 1568, 2093)):
    """``cue`` appears, in order and back to back, among the distinct notes played."""
    notes = [f for i, f in enumerate(freqs) if i == 0 or f != freqs[i - 1]]
    n = len(cue)
    return any(tuple(notes[i:i + n]) == tuple(cue) for i in range(len(notes) - n + 1))


def _lit(table, p):
    return any(any(c) for c in table.ring(p))


def _to_buttons(t):
    t.advance(3 * 700 + 1000 + 100)  # three rings, all rings, then the button test
    assert "Press P1" in t.screen_text()


def test_listed_in_the_launcher():
    assert ("selftest", "Self test") in games.titles()


def test_rings_light_one_after_another_then_all_white():
    t = SimTable(players=3)
    t.start("selftest")
    for p in (1, 2, 3):
        t.advance(100)
        assert "Ring P" + str(p) in t.screen_text()
        assert [_lit(t, q) for q in (1, 2, 3, 4)] == [q == p for q in (1, 2, 3, 4)]
        t.advance(600)
    t.advance(100)
    assert "All rings" in t.screen_text()
    whites = {t.ring(p)[0] for p in (1, 2, 3)}
    assert len(whites) == 1 and min(whites.pop()) > 0  # the same white on every ring
    assert not _lit(t, 4)


def test_buttons_in_turn_then_reveal_sound_and_menu():
    t = SimTable(players=3, settings={"REFEREE_MENU_BUTTON": "1"})
    t.start("selftest")
    _to_buttons(t)
    for p in (1, 2, 3):
        assert "Press P" + str(p) in t.screen_text()
        t.press(p)
        t.advance(200)
    t.advance(400)
    t.advance(300)
    assert "REVEAL: OK" in t.screen_text()
    t.advance(1300)
    assert _played([f for _, f in t.box.tones.log])
    assert "Tap MENU" in t.screen_text()
    t.menu()
    t.advance(400)
    assert t.app.mode == "pause"
    t.hold(1)  # Resume
    text = t.screen_text()
    assert t.game.over and "Done" in text
    assert "Buttons: 3/3 OK" in text and "MENU: OK" in text and "REVEAL: OK" in text
    t.hold(2)
    assert t.app.mode == "launcher"


def test_a_wrong_button_is_named_and_a_missing_one_can_be_skipped():
    t = SimTable(players=3, settings={"REFEREE_MENU_BUTTON": "0"})
    t.start("selftest")
    _to_buttons(t)
    t.press(1)
    t.advance(200)
    t.press(3)  # P2 was asked
    t.advance(200)
    assert "P3 pressed, P2 asked" in t.screen_text()
    t.hold(1)  # P2 is missing: skip it
    assert "Press P3" in t.screen_text()
    blink = {t.ring(2)[0]}
    t.advance(250)
    blink.add(t.ring(2)[0])
    assert (0, 0, 0) in blink and len(blink) == 2  # the skipped ring blinks
    t.press(3)
    t.advance(200)
    t.advance(2500)
    text = t.screen_text()
    assert t.game.over and "Check" in text
    assert "Buttons: 2/3, missing P2" in text and "wrong: P3 (asked P2)" in text
    assert "MENU" not in text  # no MENU button fitted, no MENU step


# --- on the real box (fakes of the machine modules) --------------------------------------


def _device_to_reveal(world, dev, players=2):  # noqa: F811
    dev.app.launch("selftest", players)
    run(world, dev, players * 700 + 1000 + 50, step_ms=5)
    assert "Press P1 " in dev.app.game.big.text + " "
    for p in range(1, players + 1):
        assert dev.app.game.lines[0].text == "station %d (GP%d)" % (p, p + 1)
        world.press(p + 1, at_ns=world.now_ns + MS, hold_ns=60 * MS)
        run(world, dev, 150, step_ms=5)
    run(world, dev, 700, step_ms=5)
    return dev.app.game


def test_on_the_device_the_reveal_is_checked_through_the_jumper(world):  # noqa: F811
    dev = build(world, {"REFEREE_MENU_BUTTON": "0"})
    game = _device_to_reveal(world, dev)
    assert game.ok == [1, 2]
    assert game.reveal_result == "REVEAL: OK (captured)"
    assert game.reveal_seen == [False, True]


def test_on_the_device_a_missing_jumper_fails_the_reveal_check(world):  # noqa: F811
    world.jumpers.clear()
    dev = build(world, {"REFEREE_MENU_BUTTON": "0"})
    game = _device_to_reveal(world, dev)
    assert game.reveal_result == "REVEAL: FAIL, no edge on GP9 (jumper?)"
    assert dev.box.reveal_fallbacks == 2


def test_with_keypad_capture_the_reveal_is_not_sensed(world):  # noqa: F811
    dev = build(world, {"REFEREE_MENU_BUTTON": "0", "REFEREE_CAPTURE": "keypad"})
    game = _device_to_reveal(world, dev)
    assert game.ok == [1, 2]
    assert game.reveal_result == "REVEAL: not sensed (keypad capture, ms precision)"


def test_on_the_device_the_piezo_sounds_the_cue(world):  # noqa: F811
    dev = build(world, {"REFEREE_MENU_BUTTON": "0"})
    _device_to_reveal(world, dev)
    run(world, dev, 1500, step_ms=5)
    assert _played([f for _, f, d in world.tones if d])
    assert world.tones[-1][2] == 0  # and silent after it
    assert dev.app.game.over


def test_the_launcher_asks_only_the_stations_fitted_then_starts():
    t = SimTable(players=4)
    t.advance(10)
    while "> Self test" not in t.screen_text() and t.app.launcher.menu.current()[1] != "selftest":
        t.tap(1)
    t.hold(1)
    text = t.screen_text()
    assert "Stations fitted" in text and "4 stations" in text and "players" not in text
    t.hold(1)  # 4 stations: no seats, no bots, no Start! to find
    assert t.game is not None and t.game.TITLE == "Self test" and t.game.players == 4
    assert t.game.bots == ()


def test_a_count_of_one_is_singular():
    t = SimTable(players=2)
    t.advance(10)
    t.hold(1)  # Reaction test: 1-7 players
    while t.app.launcher.menu.current()[1] != 1:
        t.tap(1)  # round to 1
    assert "1 player\n" in t.screen_text() + "\n" and "1 players" not in t.screen_text()


def test_every_game_reaches_its_count_menu():
    # the launcher reads COUNT_WORDS; a game's own names (Würfelblitz has a COUNT
    # phase) must not be taken for it
    for name in games.names():
        t = SimTable(players=2)
        t.advance(10)
        while t.app.launcher.menu.current()[1] != name:
            t.tap(1)
        t.hold(1)
        text = t.screen_text()
        assert ("Players" in text and " players" in text) or "Stations fitted" in text, name
