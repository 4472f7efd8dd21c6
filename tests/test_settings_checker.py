"""referee.settings is the one checker of settings, on the PC and the device: every
bad value gets its default and a message a player can read on the screen."""
import os
import string

from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

import games
from referee import notice
from referee.settings import SPEC, Settings, said, toml_problem

KEYS = ["REFEREE_" + s[0].upper() for s in SPEC]
PYTHON = ("Error", "invalid literal", "int()", "Traceback", "base 10", "object", "<class")


def readable(msg, key, raw=""):
    # ``raw``: the value the message quotes back (a value "Error" is the player's own word)
    assert key in msg
    assert all(ch in string.printable and ch not in "\t\r\n\x0b\x0c" for ch in msg), msg
    for word in PYTHON:
        assert word not in msg or word in raw, msg
    pages = notice.pages([msg])
    assert pages and all(len(p) <= notice.ROWS for p in pages)
    assert all(len(line) <= notice.COLS for p in pages for line in p)  # nothing cut


def default_of(kind, default):
    return () if kind == "seats" else default


def legal(name, kind, low, high, value):
    if kind == "int":
        return isinstance(value, int) and low <= value <= high
    if kind in ("pick", "choice"):
        return value in low
    if kind == "game":
        return value in games.names()
    if kind == "bool":
        return value in (True, False)
    return all(1 <= v <= 7 for v in value)


bad = st.one_of(
    st.text(max_size=40),
    st.integers(min_value=-10 ** 12, max_value=10 ** 12),
    st.floats(allow_nan=True),
    st.booleans(),
    st.sampled_from(["banana", "4.5", "", " ", "1e3", "0x10", "1_0", "٣", "+", "-", "9" * 5000,
                     "2,,3", "a,b", "1;2", "yes please", "[1, 2]", "0", "180", "7.0", "\u00e9\u00e8"]),
)


@hsettings(max_examples=400, deadline=None)
@given(st.sampled_from(SPEC), bad)
def test_every_key_any_value_gives_a_legal_value_or_the_default_and_a_readable_message(spec, raw):
    name, kind, default, low, high, _ = spec
    key = "REFEREE_" + name.upper()
    s = Settings({key: raw}.get, games.names())
    value = s[name]
    assert legal(name, kind, low, high, value), (key, raw, value)
    if s.messages:
        assert len(s.messages) == 1
        assert value == default_of(kind, default)
        readable(s.messages[0], key, raw)
        assert s.messages[0].endswith("; using " + said(kind, default_of(kind, default)))


def test_the_crashers_of_the_pc_side_are_plain_messages():
    for raw in ("banana", "4.5", "", "9", "0", "1"):
        s = Settings({"REFEREE_PLAYERS": raw}.get, games.names())
        assert s["players"] == 4
        assert s.messages and s.messages[0].endswith("using 4"), raw


def test_rotation_takes_only_the_two_landscape_ones():
    for ok in ("90", "270", 270):
        assert Settings({"REFEREE_ROTATION": ok}.get)["rotation"] == int(ok)
    for no in ("0", "180", 0, 180, "45"):
        s = Settings({"REFEREE_ROTATION": no}.get)
        assert s["rotation"] == 90 and "must be 90, 270; using 90" in s.messages[0]


def test_settings_toml_says_why_only_90_and_270():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "settings.toml")) as f:
        toml = f.read()
    rot = toml[toml.index("# Display rotation"):]
    assert "0 or 180" in rot and "garble" in rot


def test_a_getenv_that_raises_for_every_key_is_one_message():
    def getenv(key):
        raise ValueError("Invalid byte 'f'")

    s = Settings(getenv)
    assert len(s.messages) == 1 and "Invalid" not in s.messages[0]
    assert all(k in s.messages[0] for k in KEYS)
    for p in notice.pages(s.messages):
        assert all(len(line) <= notice.COLS for line in p)


def test_a_typo_key_is_named_where_the_keys_can_be_listed():
    env = {"REFEREE_PLAYER": "3", "OTHER": "x"}
    s = Settings(env.get, games.names(), keys=env.keys())
    assert s.messages == ["REFEREE_PLAYER is not a setting (a typo?): ignored"]


def test_a_broken_toml_file_is_one_message_without_python_text():
    import tomllib

    try:
        tomllib.loads('REFEREE_PLAYERS = "4"\nREFEREE_SOUND = \n')
    except tomllib.TOMLDecodeError as e:
        msg = toml_problem(str(e))
    assert msg.startswith("settings.toml cannot be read at line 2")
    readable(msg, "settings.toml")


def test_wrap_breaks_at_spaces_and_cuts_only_overlong_words():
    assert notice.wrap("aaa bbb ccc", 7) == ["aaa bbb", "ccc"]
    assert notice.wrap("x" * 10, 4) == ["xxxx", "xxxx", "xx"]
    assert notice.pages(["a b c d e f g h"], cols=1, rows=3) == [["a", "b", "c"], ["d", "e", "f"], ["g", "h"]]


def test_the_notice_is_forgotten_once_read():
    import sys

    from hardware.sim import SimTable

    t = SimTable(players=2, settings={"REFEREE_SOUND": "loud"})
    t.advance(10)
    assert t.app.mode == "notice" and "referee.notice" in sys.modules
    t.tap(1)
    assert t.app.mode == "launcher" and "referee.notice" not in sys.modules
