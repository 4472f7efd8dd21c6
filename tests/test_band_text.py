"""Texts whose colour changes a band of columns at a time (referee.band_text): a new
colour, paced, is drawn in steps of one band, each within the band's pixels, and a
banded text ends as a plain one would (the same cells, the same colour). Counted in
pixels, not timed: deterministic."""

import pytest

from referee import band_text, pace, palette, screen
from referee.band_text import BandText

pytestmark = pytest.mark.usefixtures("unpaced")  # (tests/conftest.py)


def cells(t):
    g = t._grid
    return [g[c, r] for r in range(g.height) for c in range(g.width)]


def band_colors(t):
    return [p[1] for p in t._pals]


def test_a_band_is_at_most_its_pixels_and_there_are_no_more_bands_than_that_needs():
    for scale, cols in ((2, 23), (2, 16), (4, 13), (2, 26)):
        t = BandText("", 0, 0, scale, palette.TEXT, (0.0, 0.0), cols)
        widths = [g.width for g in t._grid.grids]
        cell = screen.CHAR_W * screen.CHAR_H * scale * scale
        assert sum(widths) == cols and max(widths) * cell <= band_text._BAND_PX
        assert len(widths) == -(-cols * cell // band_text._BAND_PX)  # (heap: a grid and a palette a band)


def test_a_new_colour_is_drawn_a_band_a_step_and_ends_as_a_plain_text():
    plain = screen.Text("", 160, 36, 4, palette.TEXT, (0.5, 0.0), 13)
    t = BandText("", 160, 36, 4, palette.TEXT, (0.5, 0.0), 13)
    for x in (plain, t):
        x.text = "GET READY"
    pace.start()
    for x in (plain, t):
        x.text = "P3 WINS"
        x.color = palette.station(3)
    assert t.color == palette.station(3)  # the game sees it at once
    steps = []
    while pace.pending():
        steps.append(pace.step())
    band = 2 * screen.CHAR_W * screen.CHAR_H * 16  # two cells at scale 4
    assert steps[0] == 13 * screen.CHAR_W * screen.CHAR_H * 16  # the plain text: its whole box
    assert max(steps[1:]) <= band and len(steps) >= 6
    assert cells(t) == cells(plain) and t.x == plain.x and t.y == plain.y
    # every band with a glyph has the colour; the blank ones at the edges kept the old
    colours = band_colors(t)
    for i in range(len(t._grid.grids)):
        if not t._grid.is_blank(i):
            assert colours[i] == palette.station(3)


def test_a_blank_band_takes_the_colour_when_a_glyph_is_drawn_in_it():
    t = BandText("AB", 0, 0, 2, palette.TEXT, (0.0, 0.0), 23)
    pace.start()
    t.color = palette.BAD
    while pace.pending():
        pace.step()
    assert band_colors(t)[0] == palette.BAD and band_colors(t)[2] == palette.TEXT  # blank: left
    t.text = "AB" + " " * 18 + "XY"
    pace.flush()
    assert band_colors(t)[2] == palette.BAD and t.color == palette.BAD


def test_a_banded_text_keeps_its_scale():
    t = BandText("", 0, 0, 2, palette.TEXT, (0.0, 0.0), 10)
    t.set_scale(2)
    with pytest.raises(ValueError):
        t.set_scale(3)
