"""How tall things are on the glass, in millimetres, on each display the box can have.

Every game is played at its largest table by bots in the simulated box; at the moments
that matter (a race open, a result, the scores, the end) the heights are read from the
display tree itself: a text's height is its glyph cell (12 px of the built-in font)
times its scale, a die's is its tile. The panels are all 320x240, so a pixel's height is
the active area's height over 240 rows:

- 2.0" ST7789 (the small box): 30.6 mm / 240 = 0.1275 mm
- 2.8" ILI9341: 43.2 mm / 240 = 0.18 mm
- 3.2" ILI9341 (recommended): 48.6 mm / 240 = 0.2025 mm

Goals on the recommended panel (players sit 0.5-1.2 m away): what every player races on
(the stimulus) at least 6 mm, any text a player reads at least 4 mm. docs/legibility.md
shows the table this file computes; ``python tests/test_physical_sizes.py`` prints it.
"""

import os
import sys

import displayio
import pytest

if __name__ == "__main__":
    ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sys.path[:0] = [ROOT, os.path.join(ROOT, "lib")]

import games  # noqa: E402
from hardware.sim import SimTable  # noqa: E402
from referee.screen import CHAR_H  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# (name, mm per pixel row): the active area's height / 240
PANELS = (
    ('2.0" ST7789', 30.6 / 240),
    ('2.8" ILI9341', 43.2 / 240),
    ('3.2" ILI9341', 48.6 / 240),
)
RECOMMENDED = '3.2" ILI9341'
GOAL_MM = {"race": 6.0, "read": 4.0}
MAKER_DETAILS = ("capture: ms precision",)  # what only a maker reads may stay small


def text_px(label):
    """The height of a text on the screen: its glyph cell times its scale."""
    return CHAR_H * label.scale  # (every such text sits in a group of scale 1)


def all_texts(group, scale=1, out=None):
    """Every visible, non-empty text under ``group`` as (text, px)."""
    out = [] if out is None else out
    if getattr(group, "hidden", False):
        return out
    s = scale * getattr(group, "scale", 1)
    if hasattr(group, "text") and hasattr(group, "anchored_position"):
        if group.text.strip():
            out.append((group.text, CHAR_H * s))
        return out
    if isinstance(group, displayio.Group):
        for item in group:
            all_texts(item, s, out)
    return out


def run_until(t, cond, ms=120000, step=50):
    for _ in range(ms // step):
        if cond():
            return True
        t.advance(step)
    return cond()


def _bots(players):
    return tuple(range(1, players + 1))


# --- what each game's players race on or must read, at its largest table -------------------
# Each returns [(what, goal, px)]; goal "race" (the stimulus everyone races on) or "read".


def reaction():
    from games import reaction as R

    t = SimTable(players=7, seed=3)
    g = t.start("reaction", bots=_bots(7))
    out = []
    assert run_until(t, lambda: g.phase == R.OPEN and t.box.backlight)
    out.append(("GO!", "race", text_px(g.view.go_text)))
    assert run_until(t, lambda: g.phase == R.RESULT)
    out.append(("the result (P3 WINS)", "read", text_px(g.view.big)))
    out.append(("the margin (P3 first by ...)", "read", text_px(g.view.head)))
    out.append(("7 seats' times", "read", min(text_px(lb) for lb in g.view.lines)))
    assert t.run_until_over(300000)
    out.append(("wins at the end", "read", min(text_px(lb) for lb in g.view.lines)))
    out.append(("hold a button: menu", "read", text_px(g.view.foot)))
    return out


def wurfelblitz():
    from games import wurfelblitz as W

    t = SimTable(players=7, seed=3)
    g = t.start("wurfelblitz", bots=_bots(7))
    v = g.view
    assert run_until(t, lambda: g.phase == W.OPEN and t.box.backlight)
    out = [("the throw (each die)", "race", min(d.size for d in v.dice))]
    out.append(("header: whose roll, GO!", "read", text_px(v.top_right)))
    out.append(("discs per seat (the scores)", "read", min(text_px(v.seats[p]) for p in range(1, 8))))
    assert run_until(t, lambda: g.phase in (W.CALL, W.CONFIRM, W.ENTRY) and v.big.text)
    out.append(("who answers / the answer", "read", text_px(v.big)))
    return out


def lightning_dice():
    from games import lightning_dice as L

    n = L.MAX_PLAYERS  # 6
    t = SimTable(players=n, seed=3)
    g = t.start("lightning_dice", bots=_bots(n))
    v = g.view
    assert run_until(t, lambda: g.phase == L._PLAY and t.box.backlight and v.a.text)
    out = [("the card", "race", text_px(v.a))]
    out.append(("each player's six dice", "read", min(v.die_px(p) for p in range(1, n + 1))))
    out.append(("scores", "read", min(text_px(v.scores[p]) for p in range(1, n + 1))))
    out.append(("targets", "read", min(text_px(v.targets[p]) for p in range(1, n + 1))))
    return out


def _turn_game(name, players):
    t = SimTable(players=players, seed=3)
    g = t.start(name, bots=_bots(players))
    smallest = {}
    for _ in range(400):
        t.advance(250)
        if t.box.backlight:
            for text, px in all_texts(t.box.root):
                if not any(m in text for m in MAKER_DETAILS):
                    smallest[text] = px
        if g.over:
            break
    t.advance(600)
    ending = [px for text, px in all_texts(t.box.root)]
    return smallest, min(ending)


def turn_games():
    out = []
    for name, label in (("zilch", "Zilch"), ("zap_city", "ZAP City"), ("flyer", "Flyer")):
        module = games.load(name)
        texts, end = _turn_game(name, module.MAX_PLAYERS)
        out.append((label + ": every text in a match (turn, scores, moves)", "read", min(texts.values())))
        out.append((label + ": the end screen", "read", end))
    return out


SCENARIOS = (
    ("Reaction test", reaction),
    ("Würfelblitz", wurfelblitz),
    ("Lightning Dice", lightning_dice),
    ("Turn games", turn_games),
)


def rows():
    """[(game, what, goal, px)] for every scenario."""
    out = []
    for game, scenario in SCENARIOS:
        for what, goal, px in scenario():
            out.append((game, what, goal, px))
    return out


def mm(px, panel):
    return px * dict(PANELS)[panel]


def table(measured):
    """The markdown table of docs/legibility.md."""
    head = "| game | what | goal | px | " + " | ".join(p + " mm" for p, _ in PANELS) + " |"
    lines = [head, "|" + "---|" * (4 + len(PANELS))]
    for game, what, goal, px in measured:
        cells = []
        for panel, _ in PANELS:
            v = mm(px, panel)
            cells.append("%.1f%s" % (v, "" if v >= GOAL_MM[goal] else " (under)"))
        lines.append("| %s | %s | %s %d mm | %d | %s |" % (game, what, goal, GOAL_MM[goal], px, " | ".join(cells)))
    return "\n".join(lines)


@pytest.fixture(scope="module")
def measured():
    return rows()


def test_every_thing_meets_its_goal_on_the_recommended_panel(measured):
    short = [(g, w, round(mm(px, RECOMMENDED), 2), GOAL_MM[goal]) for g, w, goal, px in measured
             if mm(px, RECOMMENDED) < GOAL_MM[goal]]
    assert short == []


def test_the_stimulus_is_the_largest_thing_and_the_small_panel_is_said_to_miss(measured):
    # the numbers can fail: the 2.0" panel misses the text goal, as the docs say
    assert any(mm(px, '2.0" ST7789') < GOAL_MM[goal] for _, _, goal, px in measured)
    race = [px for _, _, goal, px in measured if goal == "race"]
    assert len(race) == 3 and min(race) >= 6.0 / dict(PANELS)[RECOMMENDED]


def test_the_docs_show_this_table(measured):
    with open(os.path.join(ROOT, "docs", "legibility.md"), encoding="utf-8") as f:
        doc = f.read()
    assert table(measured) in doc, "docs/legibility.md: paste `python tests/test_physical_sizes.py`"


if __name__ == "__main__":
    print(table(rows()))
