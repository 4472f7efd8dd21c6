"""The turn games' base (referee.turns): bots think in slices, one slice a loop pass, then
show their choice, then play it. Work per pass is counted, not timed."""

import pytest

from hardware.sim import SimTable
from referee import turns
from referee.core import MS


def test_slices_and_finish():
    def search():
        yield
        yield
        return "move"

    s = search()
    assert turns.slice_of(s) == (False, None)
    assert turns.slice_of(s) == (False, None)
    assert turns.slice_of(s) == (True, "move")
    assert turns.finish(search()) == "move"


class _Probe(turns.TurnGame):
    TITLE = "probe"
    FLOW = ((0,),)

    def __init__(self, box):
        super().__init__(box, 2, (2,))
        self.player = 2
        self.seen = []

    def standings(self):
        return []

    def bot_show(self, choice, now):
        self.seen.append(("show", choice, now))

    def bot_act(self, choice, now):
        self.seen.append(("act", choice, now))


def test_a_bot_step_thinks_shows_then_plays_and_a_pause_moves_it():
    t = SimTable(players=2)
    g = _Probe(t.box)
    g.think_ns = 100 * MS

    def search():
        for _ in range(3):
            yield
        return "b"

    g.think(0, search())
    now = 0
    for _ in range(3):  # three slices: still thinking
        now += 10 * MS
        g.bot_tick(now)
    assert g.thinking() and g.bot_shown() is None and g.seen == []
    now += 10 * MS  # 40 ms: the search is done, but half the think time has not passed
    g.bot_tick(now)
    assert g.seen == [] and g.bot_shown() is None
    g.resumed(now, 1000 * MS)  # a pause of 1 s: the step goes on where it stopped
    g.bot_tick(now + 20 * MS)
    assert g.seen == []
    g.bot_tick(now + 1010 * MS)  # 50 ms of the step's own time: shown
    assert g.seen == [("show", "b", now + 1010 * MS)] and g.bot_shown() == "b"
    g.bot_tick(now + 1059 * MS)
    assert len(g.seen) == 1
    g.bot_tick(now + 1060 * MS)  # half a think time after it was shown: played
    assert g.seen[-1] == ("act", "b", now + 1060 * MS) and not g.thinking()
    g.think(0, "plain")  # a decision already made is shown and played the same way
    g.bot_tick(50 * MS)
    g.bot_tick(100 * MS)
    assert g.seen[-2:] == [("show", "plain", 50 * MS), ("act", "plain", 100 * MS)]


def _count(monkeypatch, module, name):
    calls = [0]
    real = getattr(module, name)

    def counting(*a, **k):
        calls[0] += 1
        return real(*a, **k)

    monkeypatch.setattr(module, name, counting)
    return calls


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_zap_city_bot_weighs_at_most_a_slice_of_moves_a_pass(seed, monkeypatch):
    t = SimTable(players=4, seed=seed)
    g = t.start("zap_city", bots=(1, 2, 3, 4))
    brain = g.brain
    calls = _count(monkeypatch, brain, "perform")
    real_step = t.app.step
    most = [0]
    passes = [0]

    def step():
        before = calls[0]
        real_step()
        most[0] = max(most[0], calls[0] - before)
        passes[0] += 1

    t.app.step = step
    assert t.run_until_over(3000000) and g.winners
    assert calls[0] > 0  # the bots weighed moves ...
    assert most[0] <= brain.SLICE  # ... never more than a slice of them in one pass


def test_a_flyer_bot_tries_at_most_a_slice_of_moves_a_pass(monkeypatch):
    t = SimTable(players=4, seed=5)
    g = t.start("flyer", bots=(1, 2, 3, 4))
    brain = g.brain
    tried = _count(monkeypatch, brain, "_weigh")  # a move tried, at any depth of the search
    real_step = t.app.step
    most = [0]

    def step():
        before = tried[0]
        real_step()
        most[0] = max(most[0], tried[0] - before)

    t.app.step = step
    assert t.run_until_over(3000000)
    # the bots searched, in slices: SLICE moves counted, and at most one move more at
    # each depth above the leaves, begun before the slice's count ran out
    assert tried[0] > 10 * brain.SLICE
    assert brain.SLICE <= most[0] <= brain.SLICE + brain.DEPTH - 1


def test_a_flyer_bot_searches_a_copy_and_leaves_the_game_as_it_was():
    from games import flyer_bots
    from games import flyer_rules as R
    from referee.rng import Rng

    state, _ = R.setup(Rng(3), 4)
    before = R.to_data(state)
    dice = R.roll(Rng(4))
    s = flyer_bots.search("greedy", state, 1, dice, False, Rng(5))
    while True:  # between any two slices the game's state is whole
        done, choice = turns.slice_of(s)
        assert R.to_data(state) == before
        if done:
            break
    assert choice == flyer_bots.greedy(state, 1, list(dice), False, Rng(5))
