"""Faults on the real box's code, on the strict fakes (tests/fakes): a hung loop bites
the watchdog and, after the reset, the match is offered and resumes; settings.toml
with every key wrong at once; a library missing from CIRCUITPY."""

import os
import sys

import pytest
from test_device import ROOT, build, run, world  # noqa: F401  (the fixture)

from referee import shown

MS = 1000000


def test_a_hung_loop_bites_the_watchdog_and_the_match_resumes_after_the_reset(monkeypatch):
    import busdisplay
    import fakes
    from test_device import _NoSleep, _release_blinka_displays

    _release_blinka_displays()
    monkeypatch.setattr(busdisplay, "time", _NoSleep)
    with fakes.machine() as w:
        w.jumpers[9] = 22
        import microcontroller

        from hardware import pins

        dev = build(w, {"REFEREE_PLAYERS": "2"})
        game = dev.app.launch("zilch", 2, (2,))  # P1 a person: the match waits for them
        from zilch_helpers import pace

        pace(game, think_ms=6, roll_ms=4, show_ms=6)
        run(w, dev, 50)
        wd = microcontroller.watchdog
        assert wd.bites == 0 and wd.timeout == 5
        saved = dev.app.store.load()
        assert saved is not None and saved["game"] == "zilch"

        def hung(now):  # a loop that never comes back in time (6 s > the 5 s timeout)
            w.advance_to(w.now_ns + 6000 * MS)

        game.tick = hung
        dev.step()
        assert wd.bites == 1  # the board resets here

        w2 = fakes.restart(w)
        dev2 = build(w2, {"REFEREE_PLAYERS": "2"})  # code.py runs again

        assert wd.mode is not None and wd.bites == 1
        assert "Resume Zilch (2p)" in shown.screen_text(dev2.display.root_group)
        gpio = pins.gpio("P1")
        w2.press(gpio, w2.now_ns + 10 * MS, 900 * MS)  # hold: choose "Resume"
        run(w2, dev2, 1300)
        g2 = dev2.app.game
        assert dev2.app.mode == "game" and g2 is not None and g2.seed == saved["seed"]
        assert g2.state() == saved["state"] and wd.bites == 1
    _release_blinka_displays()


# every key of settings.toml wrong at once (each as CircuitPython's getenv may give it)
BAD = {
    "REFEREE_PLAYERS": "nine",
    "REFEREE_BOTS": "1,x",
    "REFEREE_GAME": "chess",
    "REFEREE_TIE_WINDOW_MS": "-3",
    "REFEREE_MIN_REACTION_MS": "9999",
    "REFEREE_BRIGHTNESS": "0",
    "REFEREE_SOUND": "loud",
    "REFEREE_ANSWER": "shout",
    "REFEREE_WHITES": "7",
    "REFEREE_LIMIT_S": "11",
    "REFEREE_CAPTURE": "usb",
    "REFEREE_MENU_BUTTON": "maybe",
    "REFEREE_ROTATION": "45",
    "REFEREE_COLOUR_CUES": "sometimes",
    "REFEREE_DISPLAY": "oled",
    "REFEREE_SPI_MHZ": "fast",
}


def test_settings_with_every_key_wrong_use_the_defaults_and_say_each(world, capsys):  # noqa: F811
    from referee import settings

    assert sorted(BAD) == sorted("REFEREE_" + s[0].upper() for s in settings.SPEC)
    dev = build(world, BAD)
    msgs = dev.settings.messages
    assert len(msgs) == len(BAD)
    for key in BAD:
        assert sum(1 for m in msgs if m.startswith(key + "=")) == 1, key
    defaults = {s[0]: (() if s[1] == "seats" else s[2]) for s in settings.SPEC}
    assert dev.settings.values == defaults
    serial = capsys.readouterr().out
    for key in BAD:
        assert key in serial  # each message on serial
    # the notice screen first, page by page (a tap on P1 turns the page), every message
    from hardware import pins

    gpio = pins.gpio("P1")
    seen = ""
    for _ in range(40):
        if dev.app.mode != "notice":
            break
        seen += shown.screen_text(dev.display.root_group) + "\n"
        world.press(gpio, world.now_ns + 10 * MS, 80 * MS)
        run(world, dev, 450)
    for key in BAD:
        assert key in seen, key
    assert dev.app.mode == "launcher"
    assert "Bad settings: defaults" in shown.screen_text(dev.display.root_group)
    run(world, dev, 200)
    dev.app.launch("reaction", 4)
    run(world, dev, 3000)
    assert dev.errors == 0 and dev.app.mode == "game"


def test_a_settings_line_getenv_cannot_parse_is_said_too(world, capsys):  # noqa: F811
    def getenv(key):
        if key == "REFEREE_SOUND":
            raise ValueError("Invalid byte 0xff")
        return BAD.get(key) if key == "REFEREE_ROTATION" else None

    from hardware import device

    dev = device.Device(getenv=getenv, clock=world.clock)
    assert any("cannot be read" in m and "REFEREE_SOUND" in m for m in dev.settings.messages)
    assert dev.settings["sound"] is True and dev.settings["rotation"] == 90
    run(world, dev, 50)
    assert dev.errors == 0


def test_a_game_module_missing_from_the_drive_is_named_in_the_launcher(world, monkeypatch):  # noqa: F811

    dev = build(world)
    monkeypatch.setitem(sys.modules, "games.zap_city", None)  # import fails: not deployed
    la = dev.app.launcher
    values = [v for _, v in la.menu.items]
    la.menu.index = values.index("zap_city")
    from referee.gestures import HOLD

    dev.app._route(1, HOLD, 0, world.now_ns)
    run(world, dev, 50)
    text = shown.screen_text(dev.display.root_group)
    assert "not installed: zap_city" in text and dev.app.mode == "launcher" and dev.errors == 0


@pytest.mark.parametrize("missing", ["adafruit_st7789", "neopixel", "referee.app"])
def test_a_missing_library_is_named_on_serial_and_the_rings_blink(world, monkeypatch, capsys, missing):  # noqa: F811
    # code.py on a board without the library: no traceback, the name on serial, the
    # rings blink red (neopixel_write is built into the firmware)
    monkeypatch.setitem(sys.modules, missing, None)  # not on CIRCUITPY: import fails
    for m in [m for m in sys.modules if m.startswith("hardware.device")]:
        monkeypatch.delitem(sys.modules, m)
    from hardware import rescue

    calls = []
    monkeypatch.setattr(rescue, "run", lambda e: calls.append(e))
    import hardware

    monkeypatch.delattr(hardware, "device", raising=False)
    with open(os.path.join(ROOT, "code.py")) as f:
        src = f.read()
    assert 'sys.implementation.name == "circuitpython"' in src
    code = compile(src.replace('sys.implementation.name == "circuitpython"', "True"), "code.py", "exec")
    # rescue.run never returns on the board; here it does: code.py goes on to a name it
    # never bound (a library hardware.device imports: neopixel, for its Strip), or (a
    # driver's library, imported when the box is built: hardware.bring_up) main re-raises
    with pytest.raises(ImportError if missing == "adafruit_st7789" else NameError):
        exec(code, {"__name__": "__main__"})
    assert len(calls) == 1 and rescue.missing(calls[0]) == missing
    monkeypatch.undo()
    from hardware import rescue as r2

    r2.run(ImportError("no module named '%s'" % missing), blinks=3, sleep=lambda s: world.advance_to(
        world.now_ns + int(s * 1e9)))
    out = capsys.readouterr().out
    assert ("missing library: " + missing) in out and "tools/deploy.py" in out and "blinked 3" in out
    frames = [f for f in world.neopixel_frames if f[1] == 16]
    assert len(frames) == 6 and frames[0][2] == rescue.RED * 84 and not any(frames[1][2])


def _rescue_lines(root):
    """(text, scale, x, y, width, height) of each line of the rescue screen, read back
    from its tiles through the built-in font."""
    import terminalio

    font = terminalio.FONT
    char = {}
    for c in range(32, 127):
        g = font.get_glyph(c)
        if g is not None:
            char.setdefault(g.tile_index, chr(c))
    out = []
    for group in list(root)[1:]:  # [0]: the background
        grid = group[0]
        text = "".join(char.get(grid[i, 0], "?") for i in range(grid.width))
        s = group.scale
        out.append((text, s, group.x, group.y, 6 * s * grid.width, 12 * s))
    return out


@pytest.mark.parametrize("missing", ["adafruit_st7789", "adafruit_display_text", "referee",
                                     "a_library_with_a_very_long_name_indeed_more_than_two_lines"])
def test_a_missing_library_is_named_on_the_screen_big(world, capsys, missing):  # noqa: F811
    # the screen a player sees: built from firmware modules only, every line at scale
    # 2 or more, inside 320x240, the name in full (or cut, marked, when very long)
    from hardware import rescue

    display = rescue.run(ImportError("no module named '%s'" % missing), blinks=1, sleep=lambda s: None,
                         getenv={"REFEREE_ROTATION": "270"}.get)
    assert display is not None and display.rotation == 270
    lines = _rescue_lines(display.root_group)
    texts = [t for t, *_ in lines]
    assert texts[:3] == ["Referee Box", "cannot start:", "missing library"]
    assert texts[-3:] == ["copy it to", "CIRCUITPY/lib:", "tools/deploy.py"]
    name = "".join(texts[3:-3])
    if len(missing) <= 2 * 26:
        assert name == missing
    else:
        assert name.endswith("..") and missing.startswith(name[:-2]) and len(texts) == 8
    for text, scale, x, y, w, h in lines:
        assert scale >= 2 and 0 <= x and x + w <= 320 and 0 <= y and y + h <= 240, (text, x, y, w, h)
    assert all(a[3] + a[5] <= b[3] for a, b in zip(lines, lines[1:]))  # no line over another
    assert world.level(pins_gpio("TFT_LITE")) == 1  # the backlight is on
    assert "missing library: " + missing in capsys.readouterr().out


@pytest.mark.parametrize("error,problem", [
    (ValueError("incompatible .mpy file"), "old .mpy files"),
    (SyntaxError("invalid syntax"), "a file does not load"),
])
def test_a_file_that_does_not_load_is_said_on_the_screen_too(world, capsys, error, problem):  # noqa: F811
    # code.py hands every exception of the import to rescue (not only ImportError): an
    # .mpy of another CircuitPython raises ValueError; the screen says so, no traceback
    from hardware import rescue

    display = rescue.run(error, blinks=1, sleep=lambda s: None)
    texts = [t for t, *_ in _rescue_lines(display.root_group)]
    assert texts[:3] == ["Referee Box", "cannot start:", problem]
    assert texts[-3:] == ["copy the files", "again:", "tools/deploy.py"]
    assert str(error) in "".join(texts[3:-3]) and problem in capsys.readouterr().out
    with open(os.path.join(ROOT, "code.py")) as f:
        assert "except Exception as e:" in f.read()  # not only ImportError


def pins_gpio(role):
    from hardware import pins

    return pins.gpio(role)


def test_without_a_screen_the_rescue_still_blinks_and_says_it(world, monkeypatch, capsys):  # noqa: F811
    # building the display fails (here: the SPI pins are taken): serial and rings
    import busio

    from hardware import rescue

    def broken(*a, **k):
        raise ValueError("GP18 in use")

    monkeypatch.setattr(busio, "SPI", broken)
    assert rescue.run(ImportError("no module named 'neopixel'"), blinks=2, sleep=lambda s: None) is None
    out = capsys.readouterr().out
    assert "rescue: no screen" in out and "missing library: neopixel" in out and "blinked 2" in out
    frames = [f for f in world.neopixel_frames if f[1] == 16]
    assert len(frames) == 4 and frames[0][2] == rescue.RED * 84
