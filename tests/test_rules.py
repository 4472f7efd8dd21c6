"""How to play on the box (referee.rules): the rules/<game>.txt pages, read a page at a
time from the launcher's players page; a missing or garbled file says so."""
import os
import sys

import pytest
from test_legibility import small_texts

import games
from hardware.sim import SimTable
from referee import rules

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES = os.path.join(ROOT, "rules")


@pytest.mark.parametrize("name", games.names())
def test_every_game_ships_pages_that_fit_the_screen(name):
    path = os.path.join(RULES, name + ".txt")
    data = open(path, "rb").read()
    assert all(b == 10 or 32 <= b < 127 for b in data), "plain ASCII only (the terminal font)"
    pages = data.decode().split("\n---\n")
    assert 2 <= len(pages) <= 5, "a few screens"
    for page in pages:
        lines = page.strip("\n").split("\n")
        assert len(lines) <= rules.ROWS and max(len(ln) for ln in lines) <= rules.COLS, page
    with open(path, "rb") as f:
        starts, size = rules._pages(f)
    assert len(starts) == len(pages) and size == len(data)


def open_rules(t, game_index):
    """From the launcher: choose the game, then "How to play" on the players page."""
    t.advance(10)
    t.tap(1, count=game_index) if game_index else None
    t.hold(1)
    while t.app.launcher.menu.current()[0] != "How to play":
        t.tap(1)
    assert "How to play" in t.screen_text()
    t.hold(1)


def test_how_to_play_turns_pages_with_a_tap_and_goes_back_with_a_hold():
    t = SimTable(players=2)
    open_rules(t, 3)  # Zilch
    text = t.screen_text()
    assert text.startswith("Zilch 1/4") and "Throw six dice" in text and "tap: next  hold: back" in text
    assert small_texts(t.box.root) == []
    t.save_png(os.path.join(os.environ.get("TMPDIR", "/tmp"), "rules_zilch.png"))
    t.tap(1)
    assert t.screen_text().startswith("Zilch 2/4") and "three 1s = 1000" in t.screen_text()
    t.tap(1, count=2)
    assert t.screen_text().startswith("Zilch 4/4") and "tap: first  hold: back" in t.screen_text()
    t.tap(1)
    assert t.screen_text().startswith("Zilch 1/4")
    t.hold(1)
    assert "Players" in t.screen_text() and t.app.launcher.menu.current()[0] == "2 players"
    assert "referee.rules" not in sys.modules  # forgotten once closed
    t.hold(1)  # the players page works as before: 2 players chosen
    assert "Start!" in t.screen_text()


def test_a_missing_rules_file_gives_a_clear_page(tmp_path):
    t = SimTable(players=2)
    t.advance(10)
    t.app.launcher.rules_dir = str(tmp_path)  # (the box's rules_dir, as the app gave it)
    open_rules(t, 1)
    text = t.screen_text()
    assert "No rules on this box" in text and "wurfelblitz.txt" in text and "hold: back" in text
    assert small_texts(t.box.root) == []
    t.tap(1)  # nothing to turn
    t.hold(1)
    assert t.screen_text().startswith("Players") and t.app.mode == "launcher"


@pytest.mark.parametrize("data, why", [
    (b"ok\n---\n" + "\u00e9t\u00e9".encode() + b"\n", "not plain text"),
    (b"one\n---\n" + b"x\n" * 9, "more than 7 lines"),
    (b"y" * 40 + b"\n", "longer than 26"),
    (b"z\n" * 2000, "too long"),
    (b"\n---\n" * 30, "more than 20 pages"),
    (bytes(range(256)) * 4, "cannot be read"),
], ids=["utf8", "lines", "wide", "long", "pages", "noise"])
def test_a_garbled_rules_file_says_so_and_raises_nothing(tmp_path, data, why):
    (tmp_path / "zilch.txt").write_bytes(data)
    r = rules.Rules(str(tmp_path), "zilch", "Zilch")
    for _ in range(3):
        r.next()
    text = " ".join((r.title.text, r.body.text, r.hint.text)).replace("\n", " ")
    assert "cannot be read" in text and why.split()[-1] in text and "hold: back" in text, text


def test_a_page_is_one_seek_and_one_bounded_read(monkeypatch):
    reads = []

    class Spy:
        def __init__(self, path, mode):
            self.f = open(path, mode)

        def __enter__(self):
            return self

        def __exit__(self, *a):
            self.f.close()

        def seek(self, n):
            reads.append(("seek", n))
            self.f.seek(n)

        def read(self, n):
            reads.append(("read", n))
            return self.f.read(n)

    monkeypatch.setattr(rules, "open", Spy, raising=False)
    r = rules.Rules(RULES, "flyer", "Flyer")
    reads.clear()
    r.next()
    assert [k for k, _ in reads] == ["seek", "read"] and reads[0][1] == r.starts[1]
    assert 0 < reads[1][1] <= rules.PAGE_MAX


def test_no_rules_code_is_loaded_while_a_match_runs():
    t = SimTable(players=2)
    open_rules(t, 0)
    assert "referee.rules" in sys.modules
    t.hold(1)
    t.hold(1)  # 2 players
    t.hold(1)  # Start!
    assert t.game is not None and "referee.rules" not in sys.modules and "referee.keep" not in sys.modules
