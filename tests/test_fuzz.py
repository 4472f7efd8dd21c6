"""The fuzz in the test suite: seeded press streams against every game and the menus
(tools/fuzz.py: timing, bounce, chords, MENU, foreign stations, stuck buttons, lost
capture, reboots; invariants after every event), and every shrunk failing stream
saved under tests/regressions/ replayed (each was a bug: it must not fail again).

The seeds and counts are fixed: the same streams every run (1,600 in total)."""

import glob
import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import fuzz  # noqa: E402

import games  # noqa: E402

STREAMS = 200  # per game
STEPS = 15  # random events per stream, after the launcher started the game
SEED = 2024

REGRESSIONS = sorted(glob.glob(os.path.join(ROOT, "tests", "regressions", "*.json")))


@pytest.mark.parametrize("name", games.names() + [fuzz.MENUS])
def test_random_streams_break_no_invariant(name):
    fig = fuzz.fuzz(name, STREAMS, SEED, STEPS, save=False)
    assert fig["found"] == [] and fig["failures"] == 0
    assert fig["streams"] == STREAMS and fig["steps"] >= STREAMS * STEPS


def replay_saved(folder):
    """Replay every stream saved in ``folder``; raises at the first that fails.
    Returns how many were replayed."""
    n = 0
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        with open(path) as f:
            case = json.load(f)
        fuzz.replay(case)  # raises (fuzz.Failure or the game's exception) if it fails again
        n += 1
    return n


def test_every_saved_regression_replays_clean():
    # each file was a failing stream, shrunk; the bug it found stays fixed
    assert replay_saved(os.path.join(ROOT, "tests", "regressions")) == len(REGRESSIONS)


def test_a_bug_is_found_shrunk_saved_and_replayed(tmp_path, monkeypatch):
    # end to end: a fault injected in the house (chatter on station 3 crashes the
    # gestures) is found by random streams, shrunk to a few events, saved, and the
    # saved stream fails while the fault is there and replays clean once it is gone
    from referee import gestures

    edge = gestures.Gestures._edge

    def faulty(self, p, t, pressed):
        if p == 3 and pressed and self._count[p] and t - self._keys.up[p] < gestures.BOUNCE_NS:
            raise RuntimeError("injected: chatter on P3")
        edge(self, p, t, pressed)

    monkeypatch.setattr(gestures.Gestures, "_edge", faulty)
    fig = fuzz.fuzz("reaction", 40, 7, 15, shrink_s=60, folder=str(tmp_path))
    assert fig["failures"] >= 1
    sig, path = fig["found"][0]
    assert sig.startswith("RuntimeError: injected") and os.path.dirname(path) == str(tmp_path)
    with open(path) as f:
        saved = json.load(f)
    assert saved["failure"] == sig and 1 <= len(saved["events"]) <= 4
    with pytest.raises(RuntimeError, match="injected"):
        replay_saved(str(tmp_path))
    monkeypatch.setattr(gestures.Gestures, "_edge", edge)
    assert replay_saved(str(tmp_path)) == len(fig["found"])


def test_the_checks_catch_what_they_claim():
    # the invariants are not vacuous: a phantom winner, an illegal score, a save that
    # restores differently and the error screen are each reported
    case = {"game": "reaction", "players": 2, "seed": 5, "settings": {}, "events": []}
    run = fuzz.replay(case)
    t = run.t
    t.start("reaction", seed=9)
    g = t.game
    run.check()
    race = g.race
    race.arm(t.now)
    race.reveal(t.now + 1000)
    race.edge(2, t.now + 5000000, True)  # a press nobody made on the box
    race.settle(t.now + 100000000)
    with pytest.raises(fuzz.Failure, match="phantom winner"):
        run.check_race(race, g)
    race.reset = type(race).reset.__get__(race)
    race.reset()
    g.wins[1] = 99
    with pytest.raises(fuzz.Failure, match="illegal reaction"):
        run.check()
    g.wins[1] = 0
    t.app.error = "boom"
    with pytest.raises(fuzz.Failure, match="error screen"):
        run.check()


def test_a_failing_stream_is_shrunk_and_saved(tmp_path, monkeypatch):
    # a failure that needs two events of twenty (in order): ddmin keeps just those two
    a = ["p", 2, 777000, 0, 300, 10]
    b = ["l", 1, 10]
    events = [["a", 5]] * 9 + [a] + [["p", 1, 80000, 0, 300, 100]] * 5 + [b] + [["a", 7]] * 4
    case = {"game": "reaction", "players": 2, "seed": 1, "settings": {}, "loop_ms": 10, "events": events}
    play = fuzz.Run.play

    def failing(self, ev):
        play(self, ev)
        self.seen = getattr(self, "seen", []) + [ev]
        if ev == b and a in self.seen:
            raise fuzz.Failure("test", "a then b")

    monkeypatch.setattr(fuzz.Run, "play", failing)
    assert fuzz.fails(case, "test")
    small = fuzz.shrink(case, "test", budget_s=60)
    assert small["events"] == [a, b]
    path = fuzz.save_regression(small, "test", folder=str(tmp_path))
    with open(path) as f:
        saved = json.load(f)
    assert saved["events"] == [a, b] and saved["failure"] == "test" and saved["loop_ms"] == 10
    assert os.path.basename(path).startswith("reaction-")
