"""Legible from across a table: no text a player reads is drawn at scale 1 (a 6x12
px glyph), on any screen of any game, menu or notice. Each game is played by bots
(one seat a person where the game needs one) and every frame's text is checked."""
import pytest
from test_physical_sizes import MAKER_DETAILS, all_texts

import games
from hardware.sim import SimTable
from referee.screen import CHAR_H


def small_texts(group):
    """The texts under ``group`` a player reads at scale 1 (only a maker's details may
    be: test_physical_sizes.MAKER_DETAILS), found by the same walk as the sizes'."""
    return [text for text, px in all_texts(group)
            if px < 2 * CHAR_H and not any(m in text for m in MAKER_DETAILS)]


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
