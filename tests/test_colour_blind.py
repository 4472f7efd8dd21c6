"""Colour-blind players (REFEREE_COLOUR_CUES): the palette's pairs as protanopes and
deuteranopes see them, and the second cue for every pair they cannot tell apart.

The simulation is Machado, Oliveira & Fernandes 2009 ("A physiologically-based model
for simulation of color vision deficiency"), severity 1.0, applied to linear sRGB;
the distance is CIEDE2000 in CIELAB (D65). A pair at least ``APART`` apart is told
apart at a glance across a table; a pair below it must carry a second cue when the
setting is on: a letter on the dice (Würfelblitz), the seat number (stations).

The table (CIEDE2000: normal / protanope / deuteranope), pairs below 15 marked *:

    stations                               dice colours
    P1-P5  blue-purple    28 /  6*/  3*    orange-green  57 /  4*/ 11*
    P3-P4  green-yellow   37 / 12*/ 20     green-red     76 / 30 /  8*
    P2-P3  red-green      73 / 22 / 11*    orange-yellow 33 / 21 / 14*
    P6-P7  cyan-pink      65 / 17 / 12*    every other pair >= 15 for all three
    every other pair >= 15 for all three   (orange-red 25/25/16, yellow-green 34/17/23)

P3's green was 0x20D040 (P3-P4 protan 5, P2-P3 deutan 8); no vivid palette of seven
separates P1-P5 for both (purple loses its red): the seat number does.

Run as a script to see a PNG as a deuteranope (or protanope) would:
    python tests/test_colour_blind.py in.png out.png [deutan|protan]
"""

import math
import os
import sys

import pytest

if __name__ == "__main__":  # as a script: the repo's paths (conftest does it for pytest)
    _root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path[:0] = [_root, os.path.join(_root, "lib")]

from referee import marks, palette  # noqa: E402

APART = 15.0  # CIEDE2000 at or above which a pair is told apart without the cue

# Machado 2009, severity 1.0 (rows: R, G, B out of linear R, G, B in)
PROTAN = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998))
DEUTAN = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881))
NORMAL = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
VISIONS = (("normal", NORMAL), ("protan", PROTAN), ("deutan", DEUTAN))

# The pairs that rely on the second cue (below APART for a protanope or deuteranope).
STATION_CUE_PAIRS = {(1, 5), (3, 4), (2, 3), (6, 7)}
DICE_CUE_PAIRS = {("orange", "green"), ("green", "red"), ("orange", "yellow")}
WURFEL = ("orange", "blue", "black", "yellow", "green", "red", "white")  # dice and dots


def linear(v):
    v /= 255.0
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def simulate(color, m):
    """0xRRGGBB as a viewer with matrix ``m`` sees it: linear RGB 0..1."""
    lin = [linear(c) for c in palette.rgb(color)]
    return [min(1.0, max(0.0, m[i][0] * lin[0] + m[i][1] * lin[1] + m[i][2] * lin[2])) for i in range(3)]


def lab(lin):
    r, g, b = lin
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(lab1, lab2):
    L1, a1, b1 = lab1
    L2, a2, b2 = lab2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar ** 7 / (cbar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp, dcp = L2 - L1, c2p - c1p
    dhp = 0.0
    if c1p * c2p:
        dhp = h2p - h1p
        if dhp > 180:
            dhp -= 360
        elif dhp < -180:
            dhp += 360
    dHp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    lbar, cbarp = (L1 + L2) / 2, (c1p + c2p) / 2
    if not c1p * c2p:
        hbar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbar = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hbar = (h1p + h2p + 360) / 2
    else:
        hbar = (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hbar - 30)) + 0.24 * math.cos(math.radians(2 * hbar))
         + 0.32 * math.cos(math.radians(3 * hbar + 6)) - 0.20 * math.cos(math.radians(4 * hbar - 63)))
    dtheta = 30 * math.exp(-(((hbar - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbarp ** 7 / (cbarp ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc = 1 + 0.045 * cbarp
    sh = 1 + 0.015 * cbarp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dHp / sh) ** 2 + rt * (dcp / sc) * (dHp / sh))


def distances(c1, c2):
    """{"normal": dE, "protan": dE, "deutan": dE} between two 0xRRGGBB colours."""
    return {name: ciede2000(lab(simulate(c1, m)), lab(simulate(c2, m))) for name, m in VISIONS}


def pair_table(named):
    """[(a, b, distances)] for every pair of ``named`` ((key, colour), ...)."""
    out = []
    for i in range(len(named)):
        for j in range(i + 1, len(named)):
            out.append((named[i][0], named[j][0], distances(named[i][1], named[j][1])))
    return out


def _close(table):
    return {(a, b) for a, b, d in table if min(d["protan"], d["deutan"]) < APART}


# --- the reference values: the maths itself ------------------------------------------
def test_ciede2000_matches_sharma_2005_reference_pairs():
    # Sharma, Wu & Dalal 2005, table 1: pairs 1, 7, 17, 25
    for l1, l2, want in (((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
                         ((50, 0, 0), (50, -1, 2), 2.3669),
                         ((50, 2.5, 0), (73, 25, -18), 27.1492),
                         ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644)):
        assert abs(ciede2000(l1, l2) - want) < 1e-3


def test_simulation_keeps_greys_and_maps_red_and_green_together():
    for grey in (0x000000, 0x808080, 0xFFFFFF):
        for _, m in VISIONS:
            s = simulate(grey, m)
            assert max(s) - min(s) < 0.01
    # the textbook confusion: pure red and a matched green collapse for a deuteranope
    assert distances(0xFF0000, 0x00FF00)["normal"] > 80
    assert distances(0xE01010, 0x10B030)["deutan"] < APART


# --- the palette ---------------------------------------------------------------------
def test_every_pair_is_apart_for_normal_vision():
    stations = [(p, palette.station(p)) for p in range(1, 8)]
    dice = [(c, palette.DICE[c]) for c in WURFEL]
    for a, b, d in pair_table(stations) + pair_table(dice):
        assert d["normal"] >= APART, (a, b, d)


def test_station_pairs_a_colour_blind_player_cannot_tell_apart_are_the_documented_ones():
    table = pair_table([(p, palette.station(p)) for p in range(1, 8)])
    assert _close(table) == STATION_CUE_PAIRS, sorted(_close(table))


def test_dice_pairs_a_colour_blind_player_cannot_tell_apart_are_the_documented_ones():
    table = pair_table([(c, palette.DICE[c]) for c in WURFEL])
    assert _close(table) == DICE_CUE_PAIRS, sorted(_close(table))


def test_every_colour_has_its_own_letter_and_the_die_can_draw_it():
    letters = [marks.COLOURS[c] for c in palette.DICE]
    assert len(set(letters)) == len(letters) and len(marks.COLOURS) == len(palette.DICE)
    assert marks.COLOURS["black"] == "K" and marks.COLOURS["blue"] == "B"
    for ch in letters:
        assert ch in marks.LETTERS


# --- the cues on screen --------------------------------------------------------------
def _wurfelblitz(players, cues):
    from hardware.sim import SimTable

    t = SimTable(players=players, seed=5, settings={"REFEREE_COLOUR_CUES": "1" if cues else "0"})
    g = t.start("wurfelblitz", whites=3, colour_cues=cues)
    t.advance(100)
    return t, g


THROW = [("orange", 3), ("blue", "black"), ("black", 2), ("yellow", 6), ("green", "red"), ("red", 5),
         ("white", "black"), ("white", "green"), ("white", "orange")]


def test_wurfelblitz_letters_on_every_dot_and_every_coloured_die_with_cues_on():
    from games import wurfelblitz_rules as rules

    t, g = _wurfelblitz(7, True)
    g.throw = THROW
    g.answer = rules.score(THROW)
    g._show_answer(["P3: right +1"], palette.GOOD)
    for i, (colour, face) in enumerate(THROW):
        die = g.view.dice[i]
        want = marks.COLOURS[face] if type(face) is str else marks.COLOURS[colour]
        assert die.mark == want, (i, colour, face, die.mark)
    # the dot colours (which decide what is blocked) are named in words
    said = t.screen_text()
    for colour in rules.blocked(THROW):
        assert colour in said
    # every dice pair that relies on the cue has different letters
    for a, b in DICE_CUE_PAIRS:
        assert marks.COLOURS[a] != marks.COLOURS[b]


def test_wurfelblitz_without_cues_builds_no_marks():
    t, g = _wurfelblitz(7, False)
    g.view.show_throw(THROW)
    for die in g.view.dice:
        assert not hasattr(die, "mark")
    assert "P1" not in t.screen_text()  # seven seats: "B0" over "W0", colours only


def test_the_launcher_option_starts_on_the_setting():
    from hardware.sim import SimTable

    for value, shown in (("1", "on"), ("0", "off")):
        t = SimTable(players=2, settings={"REFEREE_GAME": "wurfelblitz", "REFEREE_COLOUR_CUES": value})
        t.hold(1)
        t.hold(1)
        items = [text for text, _ in t.app.launcher.menu.items]
        assert "Colour letters: " + shown in items


@pytest.mark.parametrize("name,players", [("wurfelblitz", 7), ("lightning_dice", 6), ("zilch", 7),
                                          ("zap_city", 4)])
def test_every_seat_shown_by_colour_also_shows_its_number_with_cues_on(name, players):
    # (Reaction's per-seat lines start with the seat already: race_text.reaction_line)
    from hardware.sim import SimTable

    t = SimTable(players=players, seed=2, settings={"REFEREE_COLOUR_CUES": "1"})
    opts = {"colour_cues": True} if name == "wurfelblitz" else {}
    t.start(name, **opts)
    t.advance(3000)
    said = t.screen_text()
    for p in range(1, players + 1):
        assert "P%d" % p in said, (name, p, said)


def test_a_menu_names_the_seat_whose_colour_it_shows():
    from hardware.sim import SimTable

    t = SimTable(players=7, settings={"REFEREE_COLOUR_CUES": "1"})
    t.tap(5)
    assert t.app.launcher.view.title.text.startswith("P5: ")
    t = SimTable(players=7)
    t.tap(5)
    assert not t.app.launcher.view.title.text.startswith("P5")


# --- a picture as a colour-blind player sees it --------------------------------------
def simulate_surface(surface, m):
    """A pygame Surface as a viewer with matrix ``m`` sees it (numpy + surfarray)."""
    import numpy as np
    import pygame

    rgb = pygame.surfarray.array3d(surface).astype(np.float64) / 255.0
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    out = np.clip(lin @ np.array(m).T, 0.0, 1.0)
    srgb = np.where(out <= 0.0031308, out * 12.92, 1.055 * out ** (1 / 2.4) - 0.055)
    return pygame.surfarray.make_surface((srgb * 255.0 + 0.5).astype(np.uint8))


def test_a_screen_through_the_simulation_keeps_its_letters():
    import pygame

    from pc import display as pc_display

    t, g = _wurfelblitz(7, True)
    g.view.show_mid("")
    g.view.show_throw(THROW)
    surf = pc_display.render(t.box.root, True)
    seen = simulate_surface(surf, DEUTAN)
    assert seen.get_size() == (320, 240)
    # the letter inside the white die's black dot: white ink on black, in either vision
    die = g.view.dice[6]
    x0 = die.group.x + die._mark.x
    y0 = die.group.y + die._mark.y
    patch = pygame.surfarray.array3d(seen)[x0:x0 + 10, y0:y0 + 14].astype(int).sum(axis=2)
    assert patch.max() > 600 and patch.min() < 150


if __name__ == "__main__":
    import pygame

    src, dst = sys.argv[1], sys.argv[2]
    kind = sys.argv[3] if len(sys.argv) > 3 else "deutan"
    pygame.image.save(simulate_surface(pygame.image.load(src), PROTAN if kind == "protan" else DEUTAN), dst)
    print(dst)


def test_ink_is_the_higher_contrast_of_black_and_white_and_one_ink_for_every_seat():
    # WCAG 2's relative luminance and contrast ratio, computed exactly here; the box's
    # ink_for approximates it in small integers. One ink for all seats' colours: a header
    # text keeps its ink from seat to seat (a new ink redraws its whole box on the box)
    from referee import palette, screen

    def lum(c):
        def lin(v):
            v /= 255
            return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

        r, g, b = palette.rgb(c)
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)

    colours = [palette.PANEL, palette.DIM, palette.GOOD, palette.BAD, palette.WARN, palette.ACCENT,
               palette.WHITE, palette.BLACK, *palette.STATIONS, *palette.DICE.values()]
    for c in colours:
        y = lum(c)
        black = (y + 0.05) / 0.05 > 1.05 / (y + 0.05)
        assert screen.ink_for(c) == (palette.BLACK if black else palette.WHITE), hex(c)
    assert {screen.ink_for(palette.station(p)) for p in range(1, 8)} == {palette.BLACK}
