"""What the box keeps between matches (referee.keep): Play again, the session's wins,
the launcher's light and sound; the last page of the NVM beside the match saves."""
from test_app import end_from_the_menu
from test_legibility import small_texts

from hardware.sim import SimTable
from referee import keep, launcher
from referee.store import KEEP, KEEP_BYTES, Store

MS = 1000000


def win_reaction(t, rounds=3):
    """A reaction test the bot on seat 2 wins (the human only taps on): over."""
    g = t.start("reaction", bots=(2,), rounds=rounds)
    for _ in range(rounds):
        assert t.advance_until(lambda: g.phase_name() == "result", 20000)
        t.tap(1)
    assert g.over and g.winners == [2]
    return g


def kept_record(t):
    return keep.load(keep.open_store(t.box.store, print))


def first_item(t):
    return t.screen_text().split("\n")[1]


# --- Play again ------------------------------------------------------------------------
def test_play_again_offers_the_same_table_after_the_fresh_start():
    t = SimTable(players=2, seed=11)
    win_reaction(t)
    t.hold(1)  # the session's wins
    t.hold(1)
    assert t.app.mode == "launcher"
    t.fresh_start()  # the device reloads its code after every match
    t.advance(10)
    assert first_item(t) == "Again: 2p Reaction test"
    assert kept_record(t)["t"] == ["reaction", 2, [2], {"rounds": 3}]
    t.hold(1)  # the first item, already current
    g = t.game
    assert g is not None and (g.players, g.bots, g.options["rounds"]) == (2, (2,), 3)


def test_play_again_after_a_match_ended_from_the_pause_menu():
    t = SimTable(players=3, seed=2)
    t.start("zilch", bots=(3,), variant=5000)
    t.advance(100)
    end_from_the_menu(t)
    t.hold(1)
    t.fresh_start()
    t.advance(10)
    assert first_item(t) == "Play again: 3p Zilch"
    t.hold(1)
    assert t.game.players == 3 and t.game.bots == (3,) and t.game.rules.target == 5000


def test_resume_comes_before_play_again():
    t = SimTable(players=2, seed=5)
    win_reaction(t)
    t.hold(1)
    t.hold(1)
    g = t.start("zilch", bots=(2,))
    assert t.advance_until(lambda: t.app._owns, 60000)  # a save of the running match
    t.reboot()  # a power cut mid-match
    t.advance(10)
    lines = t.screen_text().split("\n")
    assert lines[1].startswith("Resume Zilch") and lines[2] == "Again: 2p Reaction test"
    assert g is not None


def test_a_damaged_or_strange_keep_record_offers_no_play_again_and_says_nothing_wrong():
    for damage in ("flip", "noise", "shape"):
        t = SimTable(players=2, seed=11)
        st = keep.open_store(t.box.store, print)
        st.save({"t": ["reaction", 2, [2], {"rounds": 3}], "w": [1, 0, 0, 0, 0, 0, 0], "l": 40, "s": 1})
        n = len(t.box.store)
        if damage == "flip":
            t.box.store[n - KEEP_BYTES + 9] ^= 0x20  # one flipped bit in the record
        elif damage == "noise":
            t.box.store[n - KEEP_BYTES:n] = bytes((i * 37 + 11) % 256 for i in range(KEEP_BYTES))
        else:  # a record that checks out, with every field of the wrong shape
            st.save({"t": "zilch", "w": [1, 2], "l": 500, "s": -1})
        t.reboot()
        t.advance(10)
        text = t.screen_text()
        assert t.app.mode == "launcher" and "again" not in text.lower(), damage
        assert "Choose a game" in text and "Wins" not in text
        assert t.app.kept == {"w": [0] * 7}
        assert t.box.pixels.brightness == 0.25 and t.box.sound.level == 3  # the settings'


def test_a_table_this_build_refuses_is_dropped_with_a_word():
    t = SimTable(players=2, seed=11)
    keep.open_store(t.box.store, print).save({"t": ["reaction", 2, [], {"rounds": 999}], "w": [0] * 7})
    t.reboot()
    t.advance(10)
    assert first_item(t) == "Again: 2p Reaction test"
    t.hold(1)
    assert t.game is None and t.app.mode == "launcher"
    assert "cannot play that again" in t.screen_text()
    assert "again" not in first_item(t).lower() and "t" not in kept_record(t)


def test_the_match_saves_and_the_kept_record_share_the_nvm_without_touching_each_other():
    mem = bytearray(b"\xff" * 4096)
    st = Store(mem, size=4096 - KEEP_BYTES)
    big = {"game": "zilch", "state": {"x": "y" * 3000}}
    assert st.save(big, True)
    assert bytes(mem[4096 - KEEP_BYTES:]) == b"\xff" * KEEP_BYTES  # the match never writes the last page
    k = keep.open_store(mem, print)
    assert k.kind == KEEP and k.save({"w": [3, 0, 0, 0, 0, 0, 0]})
    assert Store(mem, size=4096 - KEEP_BYTES).load() == big
    assert keep.load(k)["w"][0] == 3
    # a store read over the whole memory (an older build's) finds no match in the kept page
    whole = bytearray(b"\xff" * 4096)
    keep.open_store(whole, print).save({"w": [1] * 7})
    assert Store(whole).load() is None


# --- the session's wins ----------------------------------------------------------------
def test_wins_show_at_the_match_end_and_the_launcher_and_survive_the_fresh_start():
    t = SimTable(players=2, seed=11)
    win_reaction(t)
    t.hold(1)
    text = t.screen_text()
    assert t.app.mode == "over" and "P2 wins" in text and "Wins since switched on" in text
    assert "P1  0" in text and "P2  1  +1" in text
    assert small_texts(t.box.root) == []
    t.hold(1)
    assert "Wins: P2 1" in t.screen_text()
    t.fresh_start()
    t.advance(10)
    assert "Wins: P2 1" in t.screen_text()
    win_reaction(t)
    t.hold(1)
    assert "P2  2  +1" in t.screen_text()
    t.hold(1)
    t.fresh_start()
    t.advance(10)
    assert "Wins: P2 2" in t.screen_text()


def test_a_power_up_starts_a_new_session():
    t = SimTable(players=2, seed=11)
    win_reaction(t)
    t.hold(1)
    t.hold(1)
    t.reboot()  # switched off and on
    t.advance(10)
    assert "Wins" not in t.screen_text() and kept_record(t)["w"] == [0] * 7
    assert first_item(t) == "Again: 2p Reaction test"  # the last table stays


def test_an_abandoned_match_adds_no_win():
    t = SimTable(players=2, seed=11)
    t.start("reaction", bots=(2,), rounds=3)
    t.advance(100)
    end_from_the_menu(t)
    t.hold(1)
    assert t.app.kept["w"] == [0] * 7 and "Wins" not in t.screen_text()


def test_the_wins_can_be_cleared_from_the_launcher():
    t = SimTable(players=2, seed=11)
    win_reaction(t)
    t.hold(1)
    t.hold(1)
    open_box_page(t)
    assert "Clear the wins" in t.screen_text()
    t.tap(1, count=2)
    t.hold(1)
    assert kept_record(t)["w"] == [0] * 7 and "Clear the wins" not in t.screen_text()


# --- light and sound -------------------------------------------------------------------
def open_box_page(t):
    t.advance(10)
    lines = t.screen_text().split("\n")
    n = 0
    while t.app.launcher.menu.current()[0] != "Sound and light":
        t.tap(1)
        n += 1
        assert n < 15, lines
    assert "Sound and light" in t.screen_text()  # the last item, in view
    t.hold(1)
    assert t.screen_text().startswith("Sound and light")


def test_light_and_sound_from_the_launcher_are_kept_and_applied():
    t = SimTable(players=2, seed=11, settings={"REFEREE_BRIGHTNESS": "25"})
    open_box_page(t)
    assert "Rings: 25%" in t.screen_text() and "Sound: high" in t.screen_text()
    t.hold(1)  # Rings: the next step
    assert "Rings: 40%" in t.screen_text() and abs(t.box.pixels.brightness - 0.40) < 1e-9
    t.tap(1)
    t.hold(1)  # Sound: off (after high, round to the first)
    assert "Sound: off" in t.screen_text() and not t.box.sound.enabled
    t.hold(1)  # low
    assert "Sound: low" in t.screen_text() and t.box.sound.level == 1 and t.box.tones.level == 1
    assert small_texts(t.box.root) == []
    t.reboot()  # kept over a power cycle: the settings stay the defaults, the choice wins
    t.advance(10)
    assert abs(t.box.pixels.brightness - 0.40) < 1e-9 and t.box.sound.level == 1
    rec = kept_record(t)
    assert rec["l"] == 40 and rec["s"] == 1
    assert bytes(t.box.store[:4096 - KEEP_BYTES]) == b"\xff" * (4096 - KEEP_BYTES)  # no match save touched


def test_the_settings_give_the_default_light_and_sound():
    t = SimTable(players=2, seed=11, settings={"REFEREE_BRIGHTNESS": "10", "REFEREE_SOUND": "0"})
    t.advance(10)
    assert abs(t.box.pixels.brightness - 0.10) < 1e-9 and not t.box.sound.enabled
    open_box_page(t)
    assert "Rings: 10%" in t.screen_text() and "Sound: off" in t.screen_text()


def test_light_steps_wrap_round():
    k = {"w": [0] * 7, "l": 60}
    assert keep.light(k, {}) == 60
    assert keep.clean({"l": 0})["w"] == [0] * 7 and "l" not in keep.clean({"l": 0})
    assert keep.clean({"l": 100})["l"] == 100 and "s" not in keep.clean({"s": 4})


# --- the launcher's notes, at scale 2 ---------------------------------------------------
def test_the_bad_settings_note_is_at_scale_2_in_place_of_the_wins():
    t = SimTable(players=2, settings={"REFEREE_TIE_WINDOW_MS": "lots"})
    t.advance(10)
    while t.app.mode == "notice":
        t.tap(1)
    assert "Bad settings: defaults" in t.screen_text()
    assert small_texts(t.box.root) == []


def test_the_wins_line_fits_the_screen_most_wins_first():
    assert launcher.wins_line([0] * 7) == ""
    line = launcher.wins_line([3, 1, 0, 2, 0, 5, 1])
    assert line == "Wins: P6 5  P1 3  P4 2" and len(line) <= 25
    assert launcher.wins_line([9999] * 7).count("P") == 2  # whole entries only, never cut mid-way
