"""Menus (referee.menu) for every caller: a Back item, the chooser's colour, arrows
when items are hidden, text at scale 2; the launcher's Back between its pages."""
import displayio
import pytest

from hardware.sim import SimTable
from referee import pace, palette
from referee.menu import BACK, Menu, MenuView


def test_back_is_the_last_item_and_chooses_back():
    m = Menu("Pick", [("A", 1), ("B", 2)], back=True)
    assert m.items[-1] == ("Back", BACK)
    m.tap(3, 2)
    assert m.hold(3) == BACK
    assert Menu("Pick", [("A", 1)]).items == [("A", 1)]  # no Back unless asked


def bar_color(v):
    """The colour of a MenuView's bar (one rectangle, or the parts of a banded view's)."""
    bar = v._bar
    colors = {part.pixel_shader[0] for part in bar} if isinstance(bar, displayio.Group) else {bar.pixel_shader[0]}
    assert len(colors) == 1
    return colors.pop()


@pytest.mark.parametrize("bands", (False, True))
def test_highlight_takes_the_choosers_colour_and_ink(bands):
    v = MenuView(bands=bands)
    m = Menu("Pick", [("A", 1), ("B", 2)])
    v.show(m)
    assert bar_color(v) == palette.ACCENT  # nobody has pressed yet
    m.tap(4)
    v.show(m)
    assert bar_color(v) == palette.station(4)
    assert v.rows[1].color == palette.BLACK  # dark ink on P4's yellow
    owned = Menu("Yours", [("A", 1)], owner=6)
    v.show(owned)
    assert bar_color(v) == palette.station(6)


def steps_of_a_move(bands):
    # the pixels each pace step redraws when the bar moves a row down, a new player's
    pace.start()  # colour on it (the row leaving it and the row taking it recoloured)
    try:
        v = MenuView(rows=4, right=True, bands=bands)
        m = Menu("Turn", [("Roll 6 dice  50", 1), ("Bank it  350", 2), ("Set aside 1  100", 3)])
        v.show(m)
        pace.flush()
        m.tap(4)
        v.show(m)
        steps = []
        while pace.pending():
            steps.append(pace.step())
        top = v._bar[0].y + v._bar.y if bands else v._bar.y  # (banded: a bar in parts)
        assert top == v.y + v.pitch and v.rows[1].color == palette.BLACK and v.rows[0].color == palette.TEXT
        assert bar_color(v) == palette.station(4)
        return steps
    finally:
        pace.stop()


def test_a_banded_menu_moves_its_bar_and_recolours_rows_in_short_refreshes():
    # issue "The box never freezes": a row's new colour was one refresh of its whole box
    # (23 cells at scale 2: 6,624 px, ~40 ms on the firmware), the bar's move another
    plain = steps_of_a_move(False)
    banded = steps_of_a_move(True)
    assert max(plain) > 6000
    assert max(banded) <= 2400 and len(banded) > len(plain)  # (the bar's parts: at most 2,400 px)


def test_arrows_say_that_items_are_hidden_and_all_text_is_scale_2():
    v = MenuView(rows=3)
    m = Menu("Long", [(str(i), i) for i in range(5)])
    v.show(m)
    assert v._up.hidden and not v._down.hidden
    m.tap(1, 2)
    v.show(m)
    assert v._up.hidden and not v._down.hidden
    m.tap(1, 2)  # the last item: the first two are hidden
    v.show(m)
    assert not v._up.hidden and v._down.hidden
    short = Menu("Short", [("a", 1), ("b", 2)])
    v.show(short)
    assert v._up.hidden and v._down.hidden
    assert {lb.scale for lb in v.rows + [v.title, v.hint]} == {2}


@pytest.mark.parametrize("bands", (False, True))
def test_no_arrow_covers_the_highlighted_row(bands):
    # issue 25: the down arrow sat on the bar of the chosen row (the last one shown)
    for right in (False, True):
        v = MenuView(rows=3, right=right, bands=bands)
        m = Menu("Long", [("item %d  %d" % (i, i), i) for i in range(6)])
        for _ in range(6):
            v.show(m)
            bar = v._bar
            bar_end = bar.x + (bar[-1].x + bar[-1].width if isinstance(bar, displayio.Group) else bar.width)
            for arrow in (v._up, v._down):
                if not arrow.hidden:
                    assert arrow.x >= bar_end
            for lb in v.rows:
                assert lb.x + len(lb.text) * 12 <= bar_end
                if right and lb.text:  # the points right-aligned in the row's last cells
                    assert len(lb.text) == v.cols and lb.text.split()[-1].isdigit()
            m.tap(1)


def to_back(t):
    m = t.app.launcher.menu
    t.tap(1, (len(m.items) - 1 - m.index) % len(m.items))


def test_launcher_pages_have_back_to_the_previous_page():
    t = SimTable(players=3)
    t.advance(10)
    t.hold(1)  # Reaction test -> Players
    assert "Players" in t.screen_text() and t.app.launcher.menu.items[-1] == ("Back", BACK)
    to_back(t)
    assert "Back" in t.screen_text()
    t.hold(1)  # Back -> the games
    assert "Choose a game" in t.screen_text()
    t.hold(1)
    t.hold(1)  # 3 players -> the setup page
    launcher = t.app.launcher
    assert launcher.stage == "setup" and launcher.menu.items[-1][1] == BACK
    to_back(t)
    t.hold(1)  # Back -> Players, the number kept
    assert launcher.stage == "players" and launcher.menu.current()[1] == 3
