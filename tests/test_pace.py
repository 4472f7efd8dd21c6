"""Paced screen changes (referee.pace): a change of most of the screen is drawn a part per
display refresh, so no loop pass redraws much of the panel (docs/firmware.md, "Loop pass
times"). The work is counted in pixels, not timed: deterministic."""

import pytest

import games
from hardware.sim import SimTable
from referee import pace, palette, screen
from referee.bands import Bands

pytestmark = pytest.mark.usefixtures("unpaced")  # (tests/conftest.py)


def tiles(t):
    g = t._grid
    return [g[c, r] for r in range(g.height) for c in range(g.width)]


def test_a_paced_text_is_drawn_a_few_cells_a_pass_and_ends_as_an_unpaced_one():
    want = screen.text("", 10, 10, 2, rows=2)
    want.text = "HELLO THERE\nSECOND LINE"
    t = screen.text("", 10, 10, 2, rows=2)
    pace.start()
    t.text = "HELLO THERE\nSECOND LINE"
    assert t.text == "HELLO THERE\nSECOND LINE"  # the game sees it at once
    assert t._grid.width == 1  # nothing drawn yet: the grid is as wide as the text drawn ("")
    cell = screen.CHAR_W * screen.CHAR_H * 4
    # the first pass makes the grid as wide as the text (a new grid: its whole area) ...
    assert pace.step(5 * cell) == (1 + 11) * 2 * cell
    assert t._grid.width == 11
    passes = 0
    while pace.pending():  # ... then 5 cells a pass
        assert pace.step(5 * cell) <= 5 * cell
        passes += 1
    assert passes == 5  # 20 cells (the spaces are blank already), in boxes of 5 cells at most
    assert tiles(t) == tiles(want)
    # a shorter text clears what the longer one left, a few cells at a time too
    t.text = "HI"
    want.text = "HI"
    t.text = "HEY"  # changed again before it was drawn: drawn once, the last text
    want.text = "HEY"
    while pace.pending():
        assert pace.step(3 * cell) <= 3 * cell
    assert tiles(t) == tiles(want)
    assert t._grid.width == 11  # a grid never narrows (a new one costs a redraw of both)


def test_a_text_grid_is_as_wide_as_its_widest_text():
    t = screen.centred("GO", 40, 4)
    assert t._grid.width == 2
    t.text = "P7 WINS"
    assert t._grid.width == 7
    t.text = "X" * 40
    assert t._grid.width == t._cols == screen.WIDTH // 24  # cut at cols
    assert screen.text("", 0, 0, 2, cols=5)._grid.width == 5  # as wide as told, from the start



def test_a_new_scale_is_drawn_hidden_then_only_as_wide_as_the_text():
    """Würfelblitz's middle text shows its title at scale 4 then the countdown's digit at
    scale 8: a 13-cell grid at scale 8 is the screen's width (a 0.4 s refresh on the
    firmware). Paced, the text is hidden at one turn (the box it leaves) and shown at the
    next at its new scale, its grid as narrow as its text (the box it takes)."""
    t = screen.text("", 160, 120, 4, anchor=(0.5, 0.5), cols=13)
    t.text = "Wurfelblitz"
    at = t.anchored_position
    pace.start()
    t.set_scale(8)
    t.text = "3"
    assert t.scale == 4 and not t.hidden  # nothing drawn yet
    t.set_scale(8)  # asked again before it is drawn: one change
    old_box = pace.area(t)
    assert pace.step(10, big=False) == 0 and not t.hidden  # a heavy pass: it waits
    assert pace.step() == old_box and t.hidden  # the old box, alone in its pass
    assert pace.pending()
    new_box = pace.step()
    assert not pace.pending() and not t.hidden and t.scale == 8
    assert t._grid.width == 1 and new_box == screen.CHAR_W * screen.CHAR_H * 64
    assert t.anchored_position == at and t.x == 160 - 24 and t.y == 120 - 48  # still centred there
    assert tiles(t) == [screen._tile("3")]
    pace.stop()
    t.set_scale(4)  # unpaced: at once, as narrow as the text too
    assert t.scale == 4 and t._grid.width == 1 and tiles(t) == [screen._tile("3")]
    t.text = "Round 2"
    assert t._grid.width == 7

def test_show_hide_and_a_banded_background_wait_their_turn():
    bg = Bands(palette.BG, 4)
    box = screen.rect(0, 0, 40, 40, palette.WARN)
    box.hidden = True
    pace.start()
    screen.set_shown(box)
    bg.set(palette.GOOD)
    assert box.hidden and pace.shown(box)
    band = screen.WIDTH * screen.HEIGHT // 4
    assert pace.step(1) == 1600  # the box first (one change at least, whatever the budget)
    assert not box.hidden
    drawn = []
    while pace.pending():
        drawn.append(pace.step(band))
    assert drawn == [band] * 4
    assert [b.hidden for b in bg] == [False] * 4
    assert [b.pixel_shader[0] for b in bg] == [palette.GOOD] * 4
    bg.set(palette.BG)
    pace.flush()
    assert [b.hidden for b in bg] == [True] * 4


def test_a_banded_background_is_one_change_in_the_queue():
    # (referee.bands: the reaction test's green screen)
    bg = Bands(palette.BG, 30)
    pace.start()
    bg.set(palette.GOOD)
    bg.set(palette.WARN)  # asked again before it is drawn: the same change
    assert len(pace._queue) == 1
    band = screen.WIDTH * 8
    assert pace.step(2 * band) == 2 * band  # two bands a step at that budget
    assert [b.pixel_shader[0] for b in bg[:3]] == [palette.WARN, palette.WARN, palette.BG]
    bg.set(palette.BG)  # changed again half way: every band looked at again
    drawn = []
    while pace.pending():
        drawn.append(pace.step(2 * band))
    assert drawn == [2 * band]  # only the two bands drawn in WARN are drawn again
    assert [b.hidden for b in bg] == [True] * 30
    assert [b.pixel_shader[0] for b in bg] == [palette.BG] * 30


def test_a_big_group_is_shown_and_hidden_a_layer_at_a_time():

    g = screen.displayio.Group()
    kids = [screen.rect(0, 40 * i, 100, 40, palette.WARN) for i in range(3)]
    kids[1].hidden = True  # the game's own: stays hidden
    for k in kids:
        g.append(k)
    g.hidden = True
    pace.start()
    screen.set_shown(g)
    assert pace.shown(g)
    drawn = []
    while pace.pending():
        drawn.append(pace.step(4000))
        if pace.pending():
            assert not g.hidden and sum(not k.hidden for k in kids) < 2  # part shown
    assert drawn == [4000, 4000]  # the group (its layers hidden first: nothing) and one, then one
    assert [k.hidden for k in kids] == [False, True, False]
    screen.set_shown(g, False)
    pace.step(4000)
    assert not g.hidden and [k.hidden for k in kids] == [True, True, False]
    assert not pace.shown(g)
    pace.flush()
    assert g.hidden and [k.hidden for k in kids] == [False, True, False]  # as the game left them


def test_unpaced_changes_are_made_at_once():
    t = screen.text("", 0, 0, 2)
    t.text = "AB"
    assert not t._todo and not pace.pending()
    assert t._grid[0, 0] != t._grid[1, 0] != t._blank


def test_a_paced_throw_draws_its_dice_a_few_a_pass_and_ends_as_an_unpaced_one():
    # a die's new look redraws it whole (its palette and its tile): six at once was one
    # refresh of 80-110 ms on the firmware (docs/firmware.md)
    from referee import die

    def looks(ds):
        return [(list(d._pal[i] for i in range(4)), d._grid[0]) for d in ds]

    want = [die.Die(i * 50, 30, 44) for i in range(6)]
    dice = [die.Die(i * 50, 30, 44) for i in range(6)]
    for i, d in enumerate(want):
        d.show(i + 1, palette.WHITE, border=palette.WARN if i == 2 else None)
    pace.start()
    for i, d in enumerate(dice):
        d.show(i + 1, palette.WHITE, border=palette.WARN if i == 2 else None)
    assert [d.face for d in dice] == [1, 2, 3, 4, 5, 6]  # the game sees the new faces at once
    assert all(d._grid[0] == 0 for d in dice)  # nothing drawn yet
    steps = []
    while pace.pending():
        steps.append(pace.step())
    assert steps == [44 * 44] * 6  # one die a pass (a die is more than FRAME_PX)
    assert looks(dice) == looks(want)
    dice[0].show(3)
    dice[0].show(4, palette.BAD)  # shown again before it was drawn: drawn once, the last look
    assert pace.step(1 << 20) == 44 * 44 and not pace.pending()
    dice[1].show(6)
    dice[2].show(6)
    assert pace.step(44 * 44 + 10) == 44 * 44  # the second does not fit what is left: it waits
    assert pace.step(10, big=False) == 0 and pace.pending()  # nor a step that takes no big change
    assert pace.step(10) == 44 * 44 and not pace.pending()  # alone in a step: drawn whatever it costs
    dice[1].show(2)
    dice[2].show(3, border=palette.WARN)
    pace.flush()
    pace.stop()
    want[0].show(4, palette.BAD)
    assert looks(dice) == looks(want)


def test_lightning_dice_draws_a_few_dice_a_pass_outside_the_queue_and_counts_them():
    # Lightning Dice draws a roll or a hand itself, a few dice a pass (draw_dice), each
    # die a grid of its own (only the dice that changed are redrawn); the pixels it
    # writes ask for a refresh in their pass and are counted in that pass's step
    from games import lightning_dice_screen as lds

    v = lds.View(6)
    tiles = lambda p: [v.grids[p][i][0] for i in range(6)]  # noqa: E731
    tile = lds._TILE * lds._TILE
    v.dice(2, [1, 1, 1, 1, 1, 2], 0)  # a new screen: at once
    assert tiles(2) == [0, 0, 0, 0, 0, 1]
    pace.start()
    v.set_dice(1, [6, 5, 4, 3, 2, 1], 0b000011)
    assert tiles(1) == [0] * 6 and not pace.pending()  # nothing drawn, nothing asked
    assert not v.draw_dice(1, 2 * tile) and tiles(1) == [11, 10, 0, 0, 0, 0]  # in die order
    assert pace.pending()
    title = screen.text("x", 0, 0, 2, palette.TEXT)
    title.text = "a title"  # queued: waits while the dice took the step's budget
    assert pace.step(2 * tile) == 2 * tile and title.text == "a title" and pace.pending()
    assert not v.draw_dice(1, 2 * tile) and tiles(1) == [11, 10, 3, 2, 0, 0]
    assert v.draw_dice(1, 2 * tile) and tiles(1) == [11, 10, 3, 2, 1, 0]  # the sixth holds its tile
    assert v.draw_dice(1, 2 * tile)  # nothing left: done at once
    v.set_dice(1, [1, 5, 4, 3, 2, 2], 0)
    assert not v.draw_dice(1, 0) and tiles(1) == [0, 10, 3, 2, 1, 0]  # one die at least
    assert v.draw_dice(1, 4 * tile) and tiles(1) == [0, 4, 3, 2, 1, 1]
    while pace.pending():
        pace.step()
    assert not pace.pending()


def test_a_shape_s_new_colour_waits_its_turn_and_keeps_its_visibility():
    # a shape's colour redraws it whole: paced, each recolour is its own turn, and a
    # shape recoloured twice before its turn is drawn once, in the last colour
    a = screen.rect(0, 0, 40, 40, palette.WHITE)
    b = screen.rect(50, 0, 40, 40, palette.WHITE)
    b.hidden = True
    pace.start()
    screen.set_color(a, palette.BAD)
    screen.set_color(a, palette.WARN)
    screen.set_color(b, palette.BAD)
    assert a.pixel_shader[0] == palette.WHITE and pace.pending()
    assert pace.step(1) == 1600  # one shape a step
    assert a.pixel_shader[0] == palette.WARN and not a.hidden
    pace.step(1)
    assert b.pixel_shader[0] == palette.BAD and b.hidden and not pace.pending()
    screen.set_color(a, palette.WARN)  # already its colour: nothing to draw
    assert not pace.pending()


# What one pass may draw while a match is paced: FRAME_PX, or one change bigger than it (a
# Text's new colour or a grid made wider redraws the text whole; a shape shows whole).
# The figures are what the games meet (pixels, an estimate: referee.pace.area); a screen
# change that needs more in one pass fails here. ZAP City's two-row result text grows to
# 20 cells once a match (a new grid, drawn whole).
PASS_PX = {"zap_city": 25000}
DEFAULT_PASS_PX = 16000


@pytest.mark.parametrize("name", games.names())
def test_a_paced_match_draws_a_bounded_area_each_pass(name):
    mod = games.load(name)
    players = mod.MAX_PLAYERS
    t = SimTable(players=players, seed=3)
    if name == "selftest":
        t.start(name)
    else:
        t.start(name, bots=tuple(range(1, players + 1)))
    pace.start()
    t.advance(60000)
    budget = PASS_PX.get(name, DEFAULT_PASS_PX)
    assert t.paced, "nothing was paced"
    assert max(t.paced) <= budget, sorted(t.paced)[-10:]


def test_a_cells_tile_is_the_fonts_own_without_asking_it_for_ascii():
    # screen._tile computes printable ASCII's tile (the firmware's get_glyph makes a new
    # Glyph object on every call); it must be the tile the font itself names
    import terminalio

    font = terminalio.FONT
    for o in range(32, 127):
        assert screen._tile(chr(o)) == font.get_glyph(o).tile_index, chr(o)
    assert screen._tile("\u00fc") == font.get_glyph(63).tile_index  # not in the font: "?"


def test_a_bar_changes_colour_a_part_at_a_time():
    from referee.bar import bar

    b = bar(0, 0, screen.WIDTH, 24, palette.PANEL, parts=4)
    assert [(r.x, r.width) for r in b] == [(0, 80), (80, 80), (160, 80), (240, 80)]  # no gap
    pace.start()
    screen.set_color(b, palette.GOOD)
    drawn = []
    while pace.pending():
        drawn.append(pace.step(1))
    assert drawn == [80 * 24] * 4  # one part a step, not the whole bar in one
    assert [r.pixel_shader[0] for r in b] == [palette.GOOD] * 4
    screen.set_color(b, palette.GOOD)  # asked again for the colour it has: nothing waits
    assert not pace.pending()
    pace.stop()
    screen.set_color(b, palette.WARN)  # unpaced: at once
    assert [r.pixel_shader[0] for r in b] == [palette.WARN] * 4


def test_a_bar_is_shown_hidden_and_moved_a_part_at_a_time_never_as_a_group():
    # CircuitPython's Group.c: a group's hidden written marks the box of every layer in
    # it for the next refresh (its hidden layers' too); a group's y, all of them moved.
    # A bar in parts (a menu's) hidden or moved as a group was 83 ms of one refresh.
    from referee.bar import bar

    b = bar(0, 40, 240, 24, palette.ACCENT, parts=4)
    pace.start()
    screen.set_shown(b, False)
    screen.move(b, 28)  # as if the group's y were 28: its parts at 40 + 28
    assert pace.shown(b) and not pace.shown(b[0])  # the group stays shown; the parts wait
    drawn = []
    while pace.pending():
        drawn.append(pace.step(1))
    assert max(drawn) == 60 * 24 and sum(drawn) == 4 * 60 * 24  # a part at its turn
    # a part that stays hidden is not moved: the firmware redraws the box a shape leaves
    # and the one it takes whenever its y is written, hidden or not (VectorShape.c)
    assert [(r.hidden, r.y) for r in b] == [(True, 40)] * 4 and not b.hidden and b.y == 0
    screen.set_shown(b)
    screen.move(b, 0)  # where the parts still are: only shown
    drawn.clear()
    while pace.pending():
        drawn.append(pace.step(1))
    assert drawn == [60 * 24] * 4 and [(r.hidden, r.y) for r in b] == [(False, 40)] * 4
    screen.move(b, 28)  # shown: hidden where it is, then moved and shown at its turn
    drawn.clear()
    while pace.pending():
        drawn.append(pace.step(1))
    # each part: its box hidden, then the box it leaves again and the one it takes
    assert drawn == [60 * 24, 2 * 60 * 24] * 4
    assert [(r.hidden, r.y) for r in b] == [(False, 68)] * 4
    screen.set_shown(b, False)
    screen.move(b, 0)  # hidden before its turn: stays where it is
    screen.set_shown(b)  # and shown again, moved: the move's turn counts both boxes
    drawn.clear()
    while pace.pending():
        drawn.append(pace.step(1))
    assert sum(drawn) == 4 * 60 * 24 + 4 * 2 * 60 * 24 and [(r.hidden, r.y) for r in b] == [(False, 40)] * 4
    assert not b.hidden and b.y == 0
    pace.stop()


def test_a_move_is_a_hide_then_a_show_at_the_new_place():
    bar = screen.rect(0, 40, 200, 26, palette.ACCENT)
    pace.start()
    screen.move(bar, 68)
    assert bar.y == 40 and not bar.hidden and pace.shown(bar)
    assert pace.step(1) == 200 * 26 and bar.hidden and bar.y == 40  # the box it leaves
    # the box it takes, and the one it left again (the firmware's shapes redraw both)
    assert pace.step(1) == 2 * 200 * 26 and not bar.hidden and bar.y == 68
    assert not pace.pending()
    screen.move(bar, 68)  # where it is: nothing to draw
    assert not pace.pending()
    screen.move(bar, 40)
    screen.move(bar, 40)  # where it will be: asked once
    assert len(pace._queue) == 2
    pace.flush()
    screen.set_shown(bar, False)
    pace.flush()
    screen.move(bar, 96)  # hidden: moved at its turn
    screen.set_shown(bar)  # ... and shown there: the same turn (both boxes redrawn)
    assert len(pace._queue) == 1 and pace.step(1) == 2 * 200 * 26
    assert bar.y == 96 and not bar.hidden
    screen.move(bar, 40)
    screen.set_color(bar, palette.WARN)  # a colour asked after the move comes with it
    assert pace.step(1) == 200 * 26 and bar.hidden and bar.pixel_shader[0] == palette.ACCENT
    pace.step(1)
    assert bar.y == 40 and not bar.hidden and bar.pixel_shader[0] == palette.WARN
    pace.stop()
    screen.move(bar, 12)  # unpaced: at once
    assert bar.y == 12 and not bar.hidden


def test_an_inked_text_shown_or_hidden_redraws_its_glyph_cells_a_few_a_step():
    # an inked (or veiled) text is never hidden by set_shown: its glyphs are blanked, or
    # drawn again, a few cells a step (its box shown whole was one refresh of 6,624 px:
    # 30-40 ms on the firmware); the game sees it hidden or shown at once
    t = screen.text("Bank it", 0, 0, 2, palette.TEXT, (0.0, 0.0), 23, inked=True)
    pace.start()
    screen.set_shown(t, False)
    assert not pace.shown(t) and t.text == "Bank it"
    steps = []
    while pace.pending():
        steps.append(pace.step())
    cell = screen.CHAR_W * screen.CHAR_H * 4
    assert not t.hidden and all(t._grid[c, 0] == t._blank for c in range(23))
    assert sum(steps) == 6 * cell and max(steps) <= pace.FRAME_PX  # six glyphs ("Bank it"), not 23 cells
    screen.set_shown(t, True)
    assert pace.shown(t)
    steps = []
    while pace.pending():
        steps.append(pace.step())
    assert sum(steps) == 6 * cell and not t.hidden
    assert "".join(chr(t._grid[c, 0] + 32) for c in range(7)) == "Bank it"
    t.hidden = True  # hidden by other means: shown again as a layer, its text drawn
    screen.set_shown(t, True)
    pace.flush()
    assert not t.hidden and pace.shown(t)


@pytest.mark.parametrize("game,players", [("zap_city", 4), ("zilch", 3), ("wurfelblitz", 4)])
def test_the_queue_index_always_names_each_layers_last_change(game, players, monkeypatch):
    # pace keeps id(layer) -> the layer's last change in the queue (a scan of the queue
    # was ~45 µs an item on the firmware): after every step and every change asked for, it
    # is what a scan of the queue finds, and empty with the queue
    def scanned():
        last = {}
        for e in pace._queue:
            if type(e) in (list, tuple):
                last[id(e[0])] = e
        return last

    checks = [0]

    def check():
        got = pace._last
        assert set(got) == set(scanned()) and all(got[i] is e for i, e in scanned().items())
        checks[0] += 1

    real_step, real_later, real_move = pace.step, pace.later, pace.move

    def step(budget_px=pace.FRAME_PX):
        n = real_step(budget_px)
        check()
        return n

    def later(layer, show, color):
        real_later(layer, show, color)
        check()

    def move(layer, y, x=None):
        real_move(layer, y, x)
        check()

    monkeypatch.setattr(pace, "step", step)
    monkeypatch.setattr(pace, "later", later)
    monkeypatch.setattr(pace, "move", move)
    t = SimTable(players=players, seed=3)
    t.start(game, bots=tuple(range(1, players + 1)))
    pace.start()
    try:
        t.advance(90000)
    finally:
        pace.stop()
    assert checks[0] > 500 and not pace._queue and not pace._last


def test_a_big_group_hidden_a_layer_at_a_time_is_hidden_until_its_turn_ends():
    g = screen.displayio.Group()
    for i in range(4):
        g.append(screen.text("A" * 20, 0, 20 * i, 2, palette.TEXT, cols=20))
    assert pace.area(g) > 1500  # a big group
    pace.start()
    screen.set_shown(g, False)
    steps = 0
    while pace.pending():
        assert not pace.shown(g)  # asked hidden: hidden to the game at once, and after
        pace.step(1)
        steps += 1
    assert steps > len(g) and g.hidden and not pace.shown(g) and not pace._last
    screen.set_shown(g)
    assert pace.shown(g) and g.hidden
    pace.stop()
    assert not g.hidden


def test_a_groups_area_walk_stops_past_the_most_it_is_asked_about():
    g = screen.displayio.Group(scale=2)
    for i in range(4):
        g.append(screen.text("A" * 20, 0, 20 * i, 2, palette.TEXT, cols=20))
    whole = pace.area(g)
    one = pace.area(g[0]) * 4  # a layer's, at the group's scale
    assert whole == 4 * one
    assert pace.area(g, whole) == whole  # not past the most: the whole walk
    short = pace.area(g, one // 2)
    assert one // 2 < short < whole  # past it after the first layer: the walk stopped


def test_a_part_drawn_text_goes_on_from_the_cell_it_stopped_at_and_a_new_text_starts_again():
    t = screen.text("", 0, 0, 2, palette.TEXT, cols=20, rows=2)
    pace.start()
    try:
        t.text = "ABCDEFGHIJ\nKLMNOPQRST"
        cell = screen.CHAR_W * screen.CHAR_H * 4
        t._draw(3 * cell)  # three cells a call
        assert t._from == 3 and t._todo
        t._draw(3 * cell)
        assert t._from == 6
        t.text = "XYZ"  # a new text: from the first cell again
        assert t._from == 0
        while t._todo:
            t._draw(3 * cell)
        assert [t._grid[c, 0] for c in range(3)] == [ord(ch) - 32 for ch in "XYZ"]
        assert all(t._grid[c, 1] == t._blank for c in range(20)) and t._from == -1
        t.color = palette.WARN  # a colour alone: no cell looked at again
        scans = []
        t._cells = lambda *a: scans.append(a)  # (an instance attribute: this text only)
        t._draw(1 << 30)
        del t._cells
        assert not scans and t._from == -1 and not t._todo and t._pal[1] == palette.WARN
        t.text = "XYZW"
        assert t._from == 0
    finally:
        pace.flush()
        pace.stop()


def test_a_mark_is_reached_once_the_changes_before_it_are_drawn_not_the_later_ones():
    a = screen.text("", 0, 0, 2, palette.TEXT, cols=20)
    b = screen.text("", 0, 40, 2, palette.TEXT, cols=20)
    pace.start()
    try:
        a.text = "BEFORE THE MARK"
        m = pace.mark()
        b.text = "AFTER THE MARK"
        cell = screen.CHAR_W * screen.CHAR_H * 4
        steps = 0
        while not pace.reached(m):
            pace.step(3 * cell)
            steps += 1
        assert steps >= 5 and not a._todo and b._todo and pace.pending()
        a.text = "AGAIN"  # made again after the mark was reached: after b
        assert pace._queue.index(b) < pace._queue.index(a)
    finally:
        pace.flush()
        pace.stop()


def test_a_mark_after_a_big_group_is_reached_once_its_every_layer_is_drawn():
    g = screen.displayio.Group()
    for i in range(4):
        g.append(screen.text("A" * 20, 0, 20 * i, 2, palette.TEXT, cols=20))
    g.hidden = True
    pace.start()
    try:
        screen.set_shown(g)
        m = pace.mark()
        later = screen.text("", 0, 200, 2, palette.TEXT, cols=4)
        later.text = "LATE"
        steps = 0
        while not pace.reached(m):
            assert not steps or any(k.hidden for k in g)  # not reached while a layer waits
            pace.step(1)
            steps += 1
        assert steps >= len(g) and not any(k.hidden for k in g) and later._todo
    finally:
        pace.flush()
        pace.stop()


def test_zilch_s_header_and_scores_asked_again_as_drawn_check_nothing(monkeypatch):
    # a turn's every change asks for the header and the scores: what is drawn already
    # costs no check of each bar part and score row (~80 calls, ~4 ms on the firmware)
    import displayio

    from games import zilch_screen
    from games.zilch_screen import View

    v = View(displayio.Group(), 7)
    pace.start()
    try:
        totals = [0] * 8
        v.header("P2 to play", "this turn 0", palette.station(2))
        v.scores(totals, 2)
        pace.flush()
        asked = []
        for name in ("set_bar", "set_shown", "ink_for"):
            real = getattr(screen, name)
            monkeypatch.setattr(zilch_screen.screen, name, lambda *a, _r=real, _n=name: asked.append(_n) or _r(*a))
        v.header("P2 to play", "this turn 0", palette.station(2))
        v.scores(list(totals), 2)
        assert asked == [] and not pace.pending()
        totals[3] = 550  # the same list, a total changed in it: drawn
        v.scores(totals, 2)
        assert pace.pending()
        pace.flush()
        assert v.score_rows[2].text == "P3 550"
        v.header("P2 to play", "this turn 50", palette.station(2))
        assert pace.pending()
        pace.flush()
        assert v.head_points.text == "this turn 50"
    finally:
        pace.stop()


def test_an_inked_recolour_counts_the_box_around_its_cells_and_leaves_new_cells_to_the_next_step():
    # the firmware redraws the box around a grid's changed cells, blanks between them too:
    # a menu row's points column and its first glyphs recoloured in one step were counted
    # as their glyphs alone (1,152 px) and redrawn as the whole row (53 ms refreshes)
    t = screen.text("", 0, 0, 2, palette.TEXT, cols=16, inked=True)
    assert t._map is not None  # (inked: its cells move to a new colour a few a step)
    cell = screen.CHAR_W * screen.CHAR_H * 4
    pace.start()
    try:
        t.text = "1           +200"  # glyphs at column 0 and columns 12-15
        pace.flush()
        t.color = palette.WARN
        assert pace.step(100 * cell) == 16 * cell  # the box from column 0 to 15, not 5 glyphs
        assert not pace.pending()
        t.color = palette.TEXT
        t.text = "5           +50"  # a new colour and new cells: the colour's box first,
        first = pace.step(100 * cell)  # the cells at the next step (in one: the box of both)
        assert first == 16 * cell and pace.pending()
        assert pace.step(100 * cell) > 0 and not pace.pending()
        assert t.text == "5           +50" and t.color == palette.TEXT
    finally:
        pace.stop()


def test_a_polygon_counts_the_box_of_its_points():
    # a menu's arrow (15 x 9) was counted as an eighth of the screen (9,600 px): the device
    # learnt a pixel's cost from that refresh ~70 times too low, and the passes after drew
    # far more than their budget
    import vectorio

    from referee import menu

    arrow = menu._arrow(10, 20, True)
    assert pace.area(arrow) == 15 * 9
    tri = vectorio.Polygon(pixel_shader=screen.solid(0xFFFFFF), points=[(2, 3), (12, 3), (7, 30)], x=0, y=0)
    assert pace.area(tri) == 11 * 28
