"""Tick helpers, time formatting and settings validation."""
from referee.core import MS
from referee.settings import SPEC, Settings
from referee.ticks import format_ms, ticks_diff


def test_ticks_diff_across_wrap():
    period = 1 << 29
    assert ticks_diff(5, period - 3, period) == 8
    assert ticks_diff(period - 3, 5, period) == -8


def test_format_ms_integer_rounding():
    assert format_ms(1204000) == "1.204"
    assert format_ms(1204499) == "1.204"
    assert format_ms(1204500) == "1.205"
    assert format_ms(253 * MS) == "253.000"
    assert format_ms(-2 * MS - 500000, 1) == "-2.5"
    assert format_ms(999999, 0) == "1"


def env(**kw):
    return {"REFEREE_" + k.upper(): v for k, v in kw.items()}.get


def test_defaults_without_settings():
    s = Settings(None)
    for name, kind, default, *_ in SPEC:
        assert s[name] == (() if kind == "seats" else default)
    assert s.messages == []


def test_valid_strings_and_ints_are_parsed():
    s = Settings(env(players="6", tie_window_ms=10, sound="off", answer="TAP", bots="2, 3,3"))
    assert s["players"] == 6 and s["tie_window_ms"] == 10
    assert s["sound"] is False and s["answer"] == "tap"
    assert s["bots"] == (2, 3)
    assert s.messages == []


def test_bad_values_fall_back_with_a_message_each():
    s = Settings(env(players="9", brightness="bright", answer="shout", bots="1,12", sound="maybe", whites=True))
    assert s["players"] == 4 and s["brightness"] == 25 and s["answer"] == "call"
    assert s["bots"] == () and s["sound"] is True and s["whites"] == 2
    text = "\n".join(s.messages)
    for key in ('REFEREE_PLAYERS="9"', "REFEREE_BRIGHTNESS", "REFEREE_ANSWER", "REFEREE_BOTS", "REFEREE_SOUND", "REFEREE_WHITES"):
        assert key in text
    assert 'REFEREE_PLAYERS="9": must be 2-7; using 4' in text


def test_every_setting_is_documented_in_settings_toml():
    import os

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "settings.toml")) as f:
        toml = f.read()
    for name, *_ in SPEC:
        assert "REFEREE_" + name.upper() + " =" in toml


def test_a_line_getenv_cannot_parse_is_a_message_not_a_crash():
    # CircuitPython's os.getenv raises ValueError on a malformed settings.toml line
    def getenv(key):
        if key == "REFEREE_PLAYERS":
            raise ValueError("Invalid byte 'f'")
        return {"REFEREE_WHITES": "3"}.get(key)

    s = Settings(getenv)
    assert s["players"] == 4 and s["whites"] == 3
    assert s.messages == ["settings.toml: a line cannot be read; defaults used for REFEREE_PLAYERS"]


def test_the_game_must_be_one_the_box_has():
    import games

    assert Settings(env(game=" Zilch "), games.names())["game"] == "zilch"
    s = Settings(env(game="lightning"), games.names())
    assert s["game"] == "reaction"
    assert 'REFEREE_GAME="lightning"' in s.messages[0]
    for name in games.names():
        assert name in s.messages[0]


def test_settings_hand_games_only_values_their_options_accept():
    # a setting that shares its key with a game option must not be silently
    # replaced by the option's default in the launcher
    import games

    for name, kind, default, low, _high, _doc in SPEC:
        for game in games.names():
            for opt in games.load(game).OPTIONS:
                if opt.key != name:
                    continue
                assert opt.accepts(default), (game, name)
                if kind in ("pick", "choice"):
                    assert set(low) <= set(opt.choices), (game, name, low, opt.choices)
    assert Settings(env(limit_s="25"))["limit_s"] == 30
    assert 'REFEREE_LIMIT_S="25"' in Settings(env(limit_s="25")).messages[0]
