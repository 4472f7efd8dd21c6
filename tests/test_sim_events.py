"""The event-driven simulator ends every match as 2 ms stepping does.

``SimTable(mode="events")`` (the default) runs a loop pass only when something can
happen; ``mode="steps"`` runs one every 2 ms of virtual time, as the box's loop. For
every game and 50 seeds each, both play the same seeded all-bot match and must end in
the same state: the game's own attributes (scores, winners, the race and its ns
times, the dice generator's state, the flow's phase and timers), the saved match,
the log, every tone with its time, the screen's text and the rings.

In the default run each match stops after ``SHORT_MS`` of play (the same moment in
both modes: the state mid-match is compared) and ``FULL_SEEDS`` seeds play to the
end. ``REFEREE_LONG=1`` plays all 50 seeds of every game to the end (minutes; run it
when next_at changes: ``REFEREE_LONG=1 python -m pytest tests/test_sim_events.py``).

People's presses too: streams made as tools/fuzz.py makes them (taps, holds, chords,
MENU, bounce, lost capture, reboots) are played in both modes side by side, compared
after every event (``fuzz.lockstep``), and so is every stream saved in tests/lockstep/
(each once played differently: ``python tools/fuzz.py --lockstep`` finds and saves them).
"""

import glob
import json
import os
import random
import sys

import pytest

import games
from hardware.sim import EVENTS, STEPS, SimTable

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
import fuzz  # noqa: E402

SEEDS = range(1, 51)
SHORT_MS = 12000  # the default run's matches: this much play, then the state is compared
FULL_SEEDS = range(1, 3)  # the default run's seeds played to the end
MATCH_MS = 4 * 3600 * 1000
LONG = bool(os.environ.get("REFEREE_LONG"))
GAMES = [name for name in games.names() if name != "selftest"]
_SKIP = ("root", "view", "box", "settings", "brain", "menu")  # drawn or shared, not the match's state
# When the loop last looked, not what happened: a game's last tick time, a race's latest
# settle time and its cached verdict's flags differ with the passes run, by design.
# What is shown, not the match: a tumble's faces and turns (Zilch, the flyer game); work
# done ahead: Zilch's set-asides of the roll worked out while the dice tumble
# (``next_look_at``: not run unless looked at).
_LOOKED = ("now", "_known", "_dirty", "_waits", "_tumble", "_spin", "_turns", "_frame", "_steps",
           "_found")


def plain(v, depth=0):
    """``v`` as plain data for comparison: objects as their attributes (a few levels)."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple)):
        return [plain(x, depth + 1) for x in v]
    if isinstance(v, dict):
        return sorted((repr(k), plain(x, depth + 1)) for k, x in v.items())
    if isinstance(v, (bytes, bytearray)):
        return v.hex()
    if depth < 4 and hasattr(v, "__dict__") and type(v).__module__.split(".")[0] in ("games", "referee"):
        keep = [(k, x) for k, x in sorted(vars(v).items()) if k not in _SKIP and k not in _LOOKED]
        return [type(v).__name__] + [(k, plain(x, depth + 1)) for k, x in keep]
    return type(v).__name__


def players_for(name, seed):
    """2..4 seats (within the game's range), changing with the seed."""
    mod = games.load(name)
    lo = max(mod.MIN_PLAYERS, 2)
    hi = min(mod.MAX_PLAYERS, 4)
    return lo + seed % (hi - lo + 1)


def outcome(name, seed, mode, ms):
    """Everything a match leaves, after ``ms`` of play or at its end (``ms`` None)."""
    players = players_for(name, seed)
    t = SimTable(players=players, seed=seed, mode=mode)
    t.start(name, bots=tuple(range(1, players + 1)))
    if ms is None:
        assert t.run_until_over(MATCH_MS), (name, seed, mode, "did not finish")
    else:
        t.advance(ms)
    g = t.game
    return {
        "now": t.now,
        "over": g.over,
        "winners": list(g.winners),
        "game": plain(g),
        "record": json.dumps(g.record(name), sort_keys=True),
        "store": bytes(t.box.store).hex(),
        "logs": list(t.box.logs),
        "tones": list(t.box.tones.log),
        "screen": t.drawn_text(),
        "backlight": t.box.backlight,
        "rings": [t.ring(p) for p in range(1, 8)],
    }, t.passes


def check(name, seed, ms):
    fast, fast_passes = outcome(name, seed, EVENTS, ms)
    slow, slow_passes = outcome(name, seed, STEPS, ms)
    for key in slow:
        assert fast[key] == slow[key], (name, seed, key)
    assert fast_passes < slow_passes  # idle passes were skipped
    return fast


@pytest.mark.parametrize("name", GAMES)
def test_every_seed_plays_the_same_in_both_modes(name):
    for seed in SEEDS:
        check(name, seed, None if LONG else SHORT_MS)


@pytest.mark.parametrize("name", GAMES)
def test_whole_matches_end_the_same_in_both_modes(name):
    for seed in FULL_SEEDS:
        out = check(name, seed, None)
        assert out["over"] and out["winners"]


def test_the_check_sees_a_difference():
    # a game whose next_at waits too long (here: never) is caught by the comparison
    from games import zilch

    real = zilch.Game.next_at
    zilch.Game.next_at = lambda self, now_ns: None
    try:
        with pytest.raises(AssertionError):
            check("zilch", 1, SHORT_MS)
    finally:
        zilch.Game.next_at = real


def test_a_pass_runs_only_when_something_can_happen():
    t = SimTable(players=2, seed=3)
    t.advance(5000)  # the launcher: the backlight's edge comes back, then nothing to do
    assert t.passes == 1 and t.now == 5000 * 1000000
    t.advance(60000)
    assert t.passes == 1
    t.press(1, hold_ms=60)  # a tap: its press, its release, then the tap's gap
    t.advance(1000)
    assert t.passes == 4
    s = SimTable(players=2, seed=3, mode=STEPS)
    s.advance(100)
    assert s.passes == 50


def test_a_bad_mode_is_refused():
    with pytest.raises(ValueError, match="events"):
        SimTable(mode="fast")


def test_gestures_name_their_next_threshold():
    from pc.sim import gestures_next_at
    from referee.core import MS
    from referee.gestures import HOLD_MS, TAP_GAP_MS, Gestures

    g = Gestures(4)
    assert gestures_next_at(g, 0) is None  # nothing pending
    g.edge(2, 100 * MS, True)
    assert gestures_next_at(g, 100 * MS) == (100 + HOLD_MS) * MS  # a hold, if it stays down
    g.edge(2, 160 * MS, False)
    assert gestures_next_at(g, 160 * MS) == (160 + TAP_GAP_MS) * MS  # the tap, once the gap has passed
    assert g.update((160 + TAP_GAP_MS) * MS)
    assert gestures_next_at(g, (160 + TAP_GAP_MS) * MS) is None


def test_a_race_names_when_its_verdict_can_change():
    from referee.arbiter import Race
    from referee.core import MS

    r = Race(2, glitch_ns=MS)
    assert r.next_at() == 0  # before the first settle: at once
    r.arm(0)
    r.reveal(1000 * MS)
    r.settle(1100 * MS)
    assert r.next_at() is None  # nobody pressed: time changes nothing
    r.press(1, 1200 * MS)
    r.settle(1200 * MS)
    assert r.pending() == [1] and r.next_at() == 1201 * MS  # down glitch_ns: a valid press
    r.settle(1201 * MS)
    assert r.winners() == [1]


# --- people's presses: fuzz streams played in both modes side by side ---------------

STREAMS = 10  # per game (and the menus), made as the fuzz makes them
STREAM_STEPS = 25
LOCKSTEP = sorted(glob.glob(os.path.join(fuzz.LOCKSTEP, "*.json")))


@pytest.mark.parametrize("name", games.names() + [fuzz.MENUS])
def test_peoples_streams_play_the_same_in_both_modes(name):
    # taps, holds, chords, MENU, bounce, lost capture, reboots: after every event both
    # tables show and keep the same (the screen's text, the rings, the log, the tones,
    # the match's record)
    maker = fuzz.Maker(name, random.Random("lockstep/" + name), STREAM_STEPS)
    for i in range(STREAMS):
        case, _, err = maker.make(i)
        assert err is None, err
        assert fuzz.lockstep(case) == len(case["events"]) >= STREAM_STEPS


@pytest.mark.parametrize("path", LOCKSTEP, ids=[os.path.basename(p) for p in LOCKSTEP])
def test_a_stream_that_once_differed_plays_the_same(path):
    with open(path) as f:
        fuzz.lockstep(json.load(f))


def test_lockstep_sees_a_difference():
    # a game whose next_at waits too long (here: Wurfelblitz's, never) is caught after the
    # first event at which its table shows or keeps anything else
    from games import wurfelblitz

    path = [p for p in LOCKSTEP if "wurfelblitz" in p][0]
    with open(path) as f:
        case = json.load(f)
    real = wurfelblitz.Game.next_at
    wurfelblitz.Game.next_at = lambda self, now_ns: None
    try:
        with pytest.raises(fuzz.Failure, match="modes differ: after event"):
            fuzz.lockstep(case)
    finally:
        wurfelblitz.Game.next_at = real
