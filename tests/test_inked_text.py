"""Inked texts (``screen.Text(..., inked=True)``): a new colour, paced, is drawn a few
glyph cells a pace step through a ``tilepalettemapper.TilePaletteMapper``, blank cells
never; an inked text ends as a plain one would (the same cells, the same colour).
Counted in pixels, not timed: deterministic."""

import pytest

from referee import pace, palette, screen

pytestmark = pytest.mark.usefixtures("unpaced")  # (tests/conftest.py)


def cells(t):
    g = t._grid
    return [g[c, r] for r in range(g.height) for c in range(g.width)]


def BandText(s, x, y, scale, color, anchor, cols):
    return screen.text(s, x, y, scale, color, anchor, cols, inked=True)


def inks(t):
    """Each cell's ink colour (its slot's colour in the palette; None: not mapped yet)."""
    return [t._pal[s] if s else None for s in t._ink]


def glyph_inks(t):
    g = t._grid
    blank = t._blank
    return set(inks(t)[i] for i in range(len(t._ink)) if g[i % g.width, i // g.width] != blank)


def drain():
    steps = []
    while pace.pending():
        steps.append(pace.step())
    return steps


def test_a_new_colour_is_drawn_a_few_glyph_cells_a_step_and_ends_as_a_plain_text():
    plain = screen.Text("", 160, 36, 4, palette.TEXT, (0.5, 0.0), 13)
    t = BandText("", 160, 36, 4, palette.TEXT, (0.5, 0.0), 13)
    for x in (plain, t):
        x.text = "GET READY"
    pace.start()
    for x in (plain, t):
        x.text = "P3 WINS"
        x.color = palette.station(3)
    assert t.color == palette.station(3)  # the game sees it at once
    steps = drain()
    cell = screen.CHAR_W * screen.CHAR_H * 16  # one cell at scale 4 (1,152 px: in 1,500 px no two)
    assert steps[0] == 13 * cell  # the plain text: its whole box, blank cells too
    assert max(steps[1:]) <= cell and len(steps) >= 7
    assert cells(t) == cells(plain) and t.x == plain.x and t.y == plain.y
    assert glyph_inks(t) == {palette.station(3)}


def test_only_glyph_cells_are_redrawn_for_a_colour():
    t = BandText("AB", 0, 0, 2, palette.TEXT, (0.0, 0.0), 23)
    pace.start()
    t.color = palette.BAD
    steps = drain()
    assert sum(steps) == 2 * screen.CHAR_W * screen.CHAR_H * 4  # two cells, not 23
    ink = t._ink
    assert ink[0] == ink[1] == t._slot != ink[2]  # the blank cells are not moved (not redrawn)


def test_a_blank_cell_takes_the_colour_when_a_glyph_is_drawn_in_it():
    t = BandText("AB", 0, 0, 2, palette.TEXT, (0.0, 0.0), 23)
    pace.start()
    t.color = palette.BAD
    drain()
    t.text = "AB" + " " * 18 + "XY"
    drain()
    assert glyph_inks(t) == {palette.BAD} and t.color == palette.BAD


def test_a_colour_changed_again_during_a_walk_ends_in_the_last_colour():
    t = BandText("HELLO WORLD", 0, 0, 4, palette.TEXT, (0.0, 0.0), 13)
    pace.start()
    t.color = palette.BAD
    pace.step()
    pace.step()  # part of the walk done
    assert len(glyph_inks(t)) == 2
    t.color = palette.GOOD
    t.text = "HELLO THERE"
    t.color = palette.WARN
    drain()
    assert glyph_inks(t) == {palette.WARN} and t.color == palette.WARN
    assert t._pal[3 - t._slot] in (palette.TEXT, palette.BAD)  # the other slot: unused


def test_a_new_scale_keeps_the_colour_and_the_text():
    t = BandText("P2 WINS", 160, 36, 4, palette.TEXT, (0.5, 0.0), 13)
    pace.start()
    t.color = palette.station(2)
    pace.step()
    t.set_scale(2)
    drain()
    assert t.scale == 2 and t.text == "P2 WINS" and glyph_inks(t) == {palette.station(2)}
    assert "".join(chr(c + 32) for c in cells(t)).strip() == "P2 WINS"


def test_a_mapping_is_a_list_as_the_firmware_reads_it():
    t = BandText("A", 0, 0, 2, palette.TEXT, (0.0, 0.0), 4)
    with pytest.raises((TypeError, ValueError)):
        t._map[0] = (0, 2)  # the firmware misreads a tuple
    with pytest.raises(ValueError):
        t._map[0] = [0, 3]  # no slot 3
    assert screen._INK[1] == [0, 1] and screen._INK[2] == [0, 2]


def test_without_a_mapper_the_colour_is_drawn_whole(monkeypatch):
    # CircuitPython 9 has no tilepalettemapper (the box runs on 9.2+): an inked text is then
    # a text whose new colour redraws its box in one step, as a plain Text's (still veiled)
    monkeypatch.setattr(screen, "TilePaletteMapper", None)
    t = BandText("P3 WINS", 160, 36, 4, palette.TEXT, (0.5, 0.0), 13)
    assert t._map is None and t._grid.pixel_shader is t._pal
    pace.start()
    t.color = palette.BAD
    t.text = "P4 WINS"
    assert t.color == palette.BAD
    steps = drain()
    assert steps[0] >= pace.area(t) and t._pal[1] == palette.BAD and t.color == palette.BAD
    assert "".join(chr(c + 32) for c in cells(t)).strip() == "P4 WINS"
    screen.set_shown(t, False)
    drain()
    assert all(c == t._blank for c in cells(t)) and not t.hidden


def test_a_texts_blank_is_the_fonts_space():
    # (a class default: the space's tile, as the font numbers it)
    assert screen.Text._blank == screen._tile(" ")
