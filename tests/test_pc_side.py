"""The PC side: the window's picture, its randomness and sound, the entry point."""
from hardware.sim import SimTable
from pc import display as pc_display

MS = 1000000


def _colours(surf, box=None):
    x0, y0, w, h = box or (0, 0, surf.get_width(), surf.get_height())
    return {tuple(surf.get_at((x, y)))[:3] for x in range(x0, x0 + w, 2) for y in range(y0, y0 + h, 2)}


def test_a_dark_phase_frame_shows_nothing_of_the_stimulus():
    t = SimTable(players=2, seed=10)
    g = t.start("reaction", rounds=3)
    assert t.advance_until(lambda: g.phase_name() == "dark")
    assert "GO!" in t.drawn_text() and not t.box.backlight  # drawn, unlit
    dark = pc_display.render(t.box.root, t.box.backlight)
    # the "GO!" area (and the whole panel) is one colour: the panel's off colour
    assert _colours(dark) == {(0, 0, 0)}
    assert t.advance_until(lambda: g.phase_name() == "open" and t.box.backlight)
    lit = pc_display.render(t.box.root, t.box.backlight)
    assert len(_colours(lit, (60, 70, 200, 96))) >= 2  # lit: the stimulus shows


def test_the_dark_wurfelblitz_throw_is_not_readable_either():
    t = SimTable(players=2, seed=2)
    t.start("wurfelblitz", bots=(2,))
    assert t.advance_until(lambda: not t.box.backlight, 30000)
    assert _colours(pc_display.render(t.box.root, t.box.backlight)) == {(0, 0, 0)}


# --- settings on the PC: one checker, every message on the screen ------------------


def _window(tmp_path, settings, notes=(), seed=5):
    from pc import window as pc_window

    logs = []
    table = pc_window.make_table(settings, seed=seed, save_path=str(tmp_path / "nvm.bin"), notes=notes,
                                 log=logs.append)
    table.advance(10)
    return table, logs



def test_a_frame_looked_at_is_the_whole_tree_drawn_afresh():
    # The window's frame redraws only when something in the tree says it changed: the
    # event-driven simulator writes a moved, shown or hidden shape's fields at once and
    # its screen area when the screen is looked at (pc.sim.LazyDraw), so every frame
    # looked at must be the frame of the whole tree drawn from nothing. ZAP City's panel
    # moves and hides rows of shapes at every action, its menu's bar is a dozen shapes.
    import pygame

    t = SimTable(players=4, seed=5)
    t.start("zap_city", bots=(1, 2, 3, 4))
    d = pc_display.display()
    frames = 0
    while not t.game.over and frames < 24:
        t.advance(700)
        t.flush_screen()
        drawn = pygame.image.tobytes(pc_display.render(t.box.root), "RGB")
        d.root_group = None  # (a new root: the whole tree drawn again)
        whole = pygame.image.tobytes(pc_display.render(t.box.root), "RGB")
        assert drawn == whole, (frames, t.now)
        frames += 1
    assert frames == 24


def test_the_window_survives_any_players_value_and_seats_the_default(tmp_path):
    for raw, seats in (("banana", 4), ("4.5", 4), ("9", 4), ("0", 4), ("1", 4), ("3", 3), ("", 4)):
        t, logs = _window(tmp_path, {"REFEREE_PLAYERS": raw})
        assert t.players == seats, raw
        if seats == 4 and raw != "":
            text = t.screen_text().replace("\n", " ")
            assert "REFEREE_PLAYERS" in text and "using 4" in text and "Traceback" not in text
            assert any("using 4" in line for line in logs)


def test_every_bad_setting_is_paged_on_the_window_then_the_launcher(tmp_path):
    bad = {"REFEREE_PLAYERS": "banana", "REFEREE_SOUND": "loud", "REFEREE_ROTATION": "180",
           "REFEREE_GAME": "chess", "REFEREE_BRIGHTNESS": "4.5"}
    t, _ = _window(tmp_path, bad)
    seen = ""
    pages = 0
    while t.app.mode == "notice":
        text = t.screen_text()
        assert "Settings" in text and "see serial" not in text
        seen += text.replace("\n", " ") + " "
        pages += 1
        t.tap(1)
        assert pages < 20
    assert pages >= len(bad)
    for key in bad:
        assert key in seen
    assert "Choose a game" in t.screen_text()


def test_a_broken_settings_toml_is_on_the_window(tmp_path):
    from pc import main as pc_main

    path = tmp_path / "settings.toml"
    path.write_text('REFEREE_PLAYERS = "3"\nREFEREE_SOUND = on\n')
    values, notes = pc_main.read_settings_toml(str(path))
    assert values == {} and len(notes) == 1
    t, _ = _window(tmp_path, values, notes)
    text = t.screen_text().replace("\n", " ")
    assert "settings.toml cannot be read at line 2" in text and "TOMLDecodeError" not in text


def test_settings_toml_that_is_odd_but_readable_on_the_box_is_read_as_the_box_reads_it(tmp_path):
    from pc import main as pc_main

    path = tmp_path / "settings.toml"
    # a key set twice: CircuitPython's getenv takes the first; the parser refused the whole file
    path.write_text('REFEREE_PLAYERS = "3"\nREFEREE_SOUND = "0"\n# later\nREFEREE_PLAYERS = "5"\n')
    values, notes = pc_main.read_settings_toml(str(path))
    assert values == {"REFEREE_PLAYERS": "3", "REFEREE_SOUND": "0"}
    assert notes == ["settings.toml line 4 sets REFEREE_PLAYERS again: the first value is used, as on the box; "
                     "delete one of them"]
    # a byte-order mark: getenv reads it as part of the first line's key, so that line is lost there
    path.write_bytes(b"\xef\xbb\xbfREFEREE_PLAYERS = \"3\"\nREFEREE_SOUND = \"0\"\n")
    values, notes = pc_main.read_settings_toml(str(path))
    assert values == {"REFEREE_SOUND": "0"} and len(notes) == 1
    assert "byte-order mark" in notes[0] and "REFEREE_PLAYERS takes its default" in notes[0]
    assert "quote" not in notes[0]
    path.write_bytes(b"\xef\xbb\xbf# Referee Box settings\nREFEREE_PLAYERS = \"3\"\n")  # nothing lost: no note
    assert pc_main.read_settings_toml(str(path)) == ({"REFEREE_PLAYERS": "3"}, [])
    t, _ = _window(tmp_path, {"REFEREE_SOUND": "0"}, ["settings.toml line 4 sets REFEREE_PLAYERS again: the first "
                                                       "value is used, as on the box; delete one of them"])
    assert "sets REFEREE_PLAYERS" in t.screen_text().replace("\n", " ")


def test_settings_toml_that_cannot_be_read_is_said_never_a_traceback(tmp_path, capsys):
    from pc import main as pc_main

    folder = tmp_path / "settings.toml"
    folder.mkdir()  # a folder of that name
    values, notes = pc_main.read_settings_toml(str(folder))
    assert values == {} and notes == ["settings.toml cannot be read (it is a folder); every setting takes its default"]
    path = tmp_path / "deep.toml"
    path.write_text('REFEREE_PLAYERS = "3"\nREFEREE_BOTS = ' + "[" * 500 + "\n")  # RecursionError in tomllib
    values, notes = pc_main.read_settings_toml(str(path))
    assert values == {} and len(notes) == 1 and "cannot be read" in notes[0] and "nested" in notes[0]
    path.write_bytes(b'REFEREE_PLAYERS = "\xff"\n')  # not UTF-8
    values, notes = pc_main.read_settings_toml(str(path))
    assert values == {} and notes[0].startswith("settings.toml cannot be read")
    assert "Traceback" not in capsys.readouterr().out


def test_the_demo_survives_bad_players_and_plays_four_seats(tmp_path, monkeypatch, capsys):
    from pc import demo as pc_demo

    played = []
    real = pc_demo._play

    def spy(name, players, *a):
        played.append(players)
        return real(name, players, *a)

    monkeypatch.setattr(pc_demo, "_play", spy)
    for raw in ("banana", "4.5", "9"):
        assert pc_demo.run(str(tmp_path / "out"), {"REFEREE_PLAYERS": raw}, only="reaction") == 0
    assert played == [4] * 6  # two passes a match
    out = capsys.readouterr().out
    assert out.count("using 4") == 3


# --- randomness ------------------------------------------------------------------------


def test_the_window_seeds_from_urandom_and_logs_it(tmp_path, monkeypatch):
    import os

    from pc import window as pc_window

    seeds = []
    for fill in (b"\x01", b"\x02"):
        monkeypatch.setattr(os, "urandom", lambda n, fill=fill: fill * n)
        t, logs = _window(tmp_path, {}, seed=None)
        seeds.append(t.seed)
        assert logs[0].startswith("window seed " + str(t.seed))
    assert seeds[0] != seeds[1] and 1667030799 not in seeds and 1 not in seeds
    assert pc_window.window_seed(42) == 42  # --seed replays


def test_the_demo_prints_the_seed_that_replays_its_match(tmp_path, capsys, monkeypatch):
    from pc import demo as pc_demo
    from pc import main as pc_main

    seeds = []
    real = pc_demo._play

    def spy(*a):
        table, game, n = real(*a)
        seeds.append(game.seed)
        return table, game, n

    monkeypatch.setattr(pc_demo, "_play", spy)
    assert pc_main.main(["--demo", str(tmp_path / "d"), "--game", "reaction"]) == 0
    out = capsys.readouterr().out
    assert seeds == [1, 1] and "seed 1\n" in out and "seed 1667030799" not in out  # the README's "seed 1"
    assert pc_main.main(["--demo", str(tmp_path / "d"), "--game", "reaction", "--seed", "7"]) == 0
    assert seeds[2:] == [7, 7] and "seed 7\n" in capsys.readouterr().out


def test_the_demo_stays_seeded(tmp_path, capsys):
    from pc import main as pc_main

    runs = []
    for _ in range(2):
        assert pc_main.main(["--demo", str(tmp_path / "d"), "--game", "reaction"]) == 0
        runs.append(capsys.readouterr().out)
    assert runs[0] == runs[1] and "seed" in runs[0]


# --- the entry point -------------------------------------------------------------------


def _code_py(*args, env=None):
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    e = {k: v for k, v in os.environ.items() if not k.startswith(("BLINKA_", "PYGAME_HIDE"))}
    e.update(env or {})
    return subprocess.run([sys.executable, os.path.join(root, "code.py")] + list(args), capture_output=True,
                          text=True, cwd="/", env=e, timeout=300)


def test_an_unknown_game_lists_the_games_and_fails():
    import games

    r = _code_py("--demo", "/tmp/referee-demo-none", "--game", "chess")
    assert r.returncode != 0
    assert "chess" in r.stderr and all(name in r.stderr for name in games.names())


def test_a_bad_flag_names_the_flag_and_exits_2_never_a_traceback(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("mine")
    for args, said in ((["--scale", "-2"], "--scale"), (["--scale", "0"], "--scale"), (["--scale", "x"], "--scale"),
                       (["--players", "99"], "--players"), (["--players", "1"], "--players"),
                       (["--seed", "-1"], "--seed"), (["--demo", str(afile)], "a file, not a folder"),
                       (["--demo", str(afile / "sub")], "cannot write there")):
        r = _code_py(*args)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert said in r.stderr and "Traceback" not in r.stderr + r.stdout, (args, r.stderr)
        assert "REFEREE_PLAYERS" not in r.stderr  # the flag, not the settings key it stands in for
    assert afile.read_text() == "mine"


def test_a_pc_run_prints_no_board_warnings_or_banners(tmp_path):
    r = _code_py("--demo", str(tmp_path), "--game", "selftest")
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "GENERIC_X86" not in out and "not fully supported" not in out and "pygame community" not in out
    assert "Self test" in out and "needs people" in out
    assert "wrote 1 PNG snapshot to" in out  # one, not "1 ... snapshots"


# --- sound -------------------------------------------------------------------------------


def test_square_wave_periods_and_level():
    from pc import sound as pc_sound

    w = pc_sound.square(1000, rate=22050)
    period = round(22050 / 1000)
    assert len(w) % period == 0 and len(w) >= period
    assert set(w) == {int(32767 * pc_sound.VOLUME), -int(32767 * pc_sound.VOLUME)}
    assert list(w[:period]).count(w[0]) == period // 2  # half high, half low


def test_the_speaker_plays_each_tone_until_the_next_and_stops_at_zero():
    from pc import sound as pc_sound

    events = []

    class Chan:
        def __init__(self, f):
            self.f = f

        def stop(self):
            events.append(("stop", self.f))

    class Snd:
        def __init__(self, buffer):
            self.n = len(buffer)

        def play(self, loops=0):
            events.append(("play", self.n, loops))
            return Chan(self.n)

    class Mixer:
        Sound = Snd

    spk = pc_sound.Speaker(Mixer)
    spk.tone(1047)
    spk.tone(1047)  # the same note goes on
    spk.tone(1319)
    spk.tone(0)
    assert [e[0] for e in events] == ["play", "stop", "play", "stop"]
    assert all(e[2] == -1 for e in events if e[0] == "play")


def test_the_window_is_silent_without_audio_and_does_not_crash(monkeypatch):
    from pc import sound as pc_sound

    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    assert pc_sound.speaker() is None
    monkeypatch.delenv("SDL_AUDIODRIVER")
    import pygame

    def broken(**kw):
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "init", broken)
    said = []
    assert pc_sound.speaker(log=said.append) is None
    assert "silent" in said[0]


def test_a_pc_without_sound_gets_one_line_of_ours_not_alsas(tmp_path):
    # ALSA's library prints its own lines to stderr when the sound device cannot be
    # opened; a card that does not exist makes it do so on any Linux PC
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    script = ("import sys; sys.path[:0] = [%r, %r]\nfrom pc import env as pc_env, sound as pc_sound\n"
              "print('speaker', pc_sound.speaker())\nprint('stderr still works', file=sys.stderr)\n"
              % (root, os.path.join(root, "lib")))
    env = dict(os.environ, SDL_AUDIODRIVER="alsa", AUDIODEV="hw:CARD=nosuchcard")
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120,
                       cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "ALSA lib" not in r.stderr and r.stderr == "stderr still works\n", r.stderr
    assert "speaker None" in r.stdout and r.stdout.count("no sound") == 1


def test_the_box_cues_reach_the_speaker():
    heard = []
    t = SimTable(players=2)
    t.box.tones.out = heard.append
    g = t.start("reaction", rounds=3)
    assert t.advance_until(lambda: g.phase_name() == "result", 20000)
    t.advance(1000)
    assert heard and heard == [f for _, f in t.box.tones.log]
    assert heard[-1] == 0  # and silent after the cue


def test_ring_labels_dim_past_the_match_s_seats_not_the_settings():
    # issue 25: a 2-seat match on a box set for 4 left seats 3 and 4 lit as if seated
    from hardware.sim import SimTable as Table
    from pc.view import seats_in_play

    t = Table(players=4, seed=1)
    assert seats_in_play(t) == 4
    t.app.launch("reaction", 2)
    assert seats_in_play(t) == 2
