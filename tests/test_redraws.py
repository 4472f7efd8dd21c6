"""No redraw for nothing: on the firmware a TileGrid's tile, a layer's ``hidden`` and a
shape's size redraw their area whenever they are written, even with the value they hold
(tests/fakes/native_types.py), and a full redraw of the 320x240 panel costs the loop
hundreds of ms on a Pico (docs/firmware.md). A played match writes only what changes."""

import pytest
from fakes import native_types

import games
from hardware.sim import SimTable


@pytest.mark.parametrize("name", games.names())
def test_a_played_match_writes_only_what_changes(name):
    players = min(4, games.load(name).MAX_PLAYERS)
    t = SimTable(players=players, seed=3)
    del native_types.WASTED[:]
    if name == "selftest":
        t.start(name)
        for p in range(1, players + 1):
            t.advance(1500)
            t.tap(p)
    else:
        t.start(name, bots=tuple(range(1, players + 1)))
    t.advance(60000)
    wasted = {}
    for w in native_types.WASTED:
        wasted[w] = wasted.get(w, 0) + 1
    assert wasted == {}, wasted
