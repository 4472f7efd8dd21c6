"""Legible from across a table: no text a player reads is drawn at scale 1 (a 6x12
px glyph), on any screen of any game, menu or notice. Each game is played by bots
(one seat a person where the game needs one) and every frame's text is checked."""
import displayio
import pytest

import games
from hardware.sim import SimTable

# What only a maker reads may stay small (DESIGN: "scale 1 only for a maker's details").
MAKER_DETAILS = ("capture: ms precision",)


def small_texts(group, scale=1, out=None):
    out = [] if out is None else out
    if getattr(group, "hidden", False):
        return out
    s = scale * getattr(group, "scale", 1)
    if hasattr(group, "text") and hasattr(group, "anchored_position"):
        if group.text.strip() and s < 2 and not any(m in group.text for m in MAKER_DETAILS):
            out.append(group.text)
        return out
    if isinstance(group, displayio.Group):
        for item in group:
            small_texts(item, s, out)
    return out


def check(t, seen):
    root = t.box.root
    if root is not None and t.box.backlight:
        for text in small_texts(root):
            seen.add(text)


@pytest.mark.parametrize("name", [n for n in games.names()])
def test_no_scale_one_text_in_a_played_match(name):
    module = games.load(name)
    players = max(module.MIN_PLAYERS, min(4, module.MAX_PLAYERS))
    t = SimTable(players=players, seed=3)
    seen = set()
    check(t, seen)  # the launcher
    bots = tuple(range(1, players + 1)) if getattr(module, "BOTS_CAN_PLAY", True) else ()
    t.start(name, bots=bots)
    for _ in range(120):
        t.advance(250)
        check(t, seen)
        if t.game is not None and t.game.over:
            break
    t.menu()
    t.advance(600)
    check(t, seen)  # the pause menu
    t.tap(1)
    t.hold(1)
    check(t, seen)  # "End the match?"
    assert seen == set(), "scale-1 text a player reads: %r" % sorted(seen)
