"""The PC side: the window's picture, its randomness and sound, the entry point."""
from hardware import pc_display
from hardware.sim import SimTable

MS = 1000000


def _colours(surf, box=None):
    x0, y0, w, h = box or (0, 0, surf.get_width(), surf.get_height())
    return {tuple(surf.get_at((x, y)))[:3] for x in range(x0, x0 + w, 2) for y in range(y0, y0 + h, 2)}


def test_a_dark_phase_frame_shows_nothing_of_the_stimulus():
    t = SimTable(players=2, seed=10)
    g = t.start("reaction", rounds=3)
    assert t.advance_until(lambda: g.phase == "dark")
    assert "GO!" in t.drawn_text() and not t.box.backlight  # drawn, unlit
    dark = pc_display.render(t.box.root, t.box.backlight)
    # the "GO!" area (and the whole panel) is one colour: the panel's off colour
    assert _colours(dark) == {(0, 0, 0)}
    assert t.advance_until(lambda: g.phase == "open" and t.box.backlight)
    lit = pc_display.render(t.box.root, t.box.backlight)
    assert len(_colours(lit, (60, 70, 200, 96))) >= 2  # lit: the stimulus shows


def test_the_dark_wurfelblitz_throw_is_not_readable_either():
    t = SimTable(players=2, seed=2)
    g = t.start("wurfelblitz", bots=(2,))
    assert t.advance_until(lambda: not t.box.backlight, 30000)
    assert _colours(pc_display.render(t.box.root, t.box.backlight)) == {(0, 0, 0)}
