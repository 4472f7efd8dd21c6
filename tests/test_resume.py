"""Match saves and resume through the app (docs/design.md) on the simulated box.

The app writes {"game", "players", "bots", "seed", "options", "state"} to the
box's store at each save point a game marks (Würfelblitz: a round has ended; Zilch:
a turn begins), clears it when the match ends or is ended from the pause menu, and
the launcher offers an unfinished match first. ``SimTable.reboot()`` is a power
cycle: a new App on the same box and store.
"""

import json

import pytest
from notice_helpers import read_notice
from zilch_helpers import pace

import games
from hardware.sim import SimTable
from referee.store import Store

ZILCH_FAST = dict(think_ms=6, roll_ms=4, show_ms=6)


def opt(game, key, name):
    """The value of option ``key`` that reads ``name`` in the launcher (e.g. "on")."""
    for o in games.load(game).OPTIONS:
        if o.key == key:
            return o.choices[list(o.names).index(name)]
    raise KeyError(key)


class Recorder(bytearray):
    """The sim's NVM, noting what the game was doing at each write."""

    def __init__(self, size=4096):
        super().__init__(b"\xff" * size)
        self.table = None
        self.writes = []  # (game phase's name, what the store then holds: a dict or None)

    def __setitem__(self, index, value):
        super().__setitem__(index, value)
        g = self.table.game if self.table is not None else None
        phase = getattr(g, "phase", None)
        self.writes.append((g.phase_name() if type(phase) is int else phase, Store(self).load()))


def zilch_table(players=4, seed=3, bots=None, **opts):
    t = SimTable(players=players, seed=seed)
    o = {"variant": opt("zilch", "variant", "5,000"), "challenge": opt("zilch", "challenge", "on"),
         "overtaking": opt("zilch", "overtaking", "on")}
    o.update(opts)
    g = t.start("zilch", bots=tuple(range(1, players + 1)) if bots is None else bots, seed=777, **o)
    pace(g, **ZILCH_FAST)
    return t, g


def wurfel_table(players=3, seed=4):
    t = SimTable(players=players, seed=seed)
    g = t.start("wurfelblitz", bots=tuple(range(1, players + 1)), seed=4242, bot_ms=900, bot_errors=300,
                whites=3, brainteaser=True, handicaps=(1, 2, 3)[:players])
    return t, g


def resume_from_launcher(t):
    """After a (re)boot: the launcher's first item is the saved match; hold to resume."""
    t.advance(20)
    assert t.app.mode == "launcher"
    text = t.screen_text()
    assert text.index("Resume") < text.index("Reaction test")
    assert t.app.launcher.menu.index == 0
    t.hold(1)
    assert t.app.mode == "game"
    return t.game


# --- a power cut mid-match -----------------------------------------------------------


def fresh_dice(t, g2, saved):
    """A resumed match deals from a fresh seed, logged (nobody sees dice they saw)."""
    assert "rng" not in saved  # the record holds no generator: nothing to deal the same dice from
    said = [m for m in t.box.logs if m.startswith("resumed ")]
    assert len(said) == 1 and "(match seed %d) with fresh seed " % saved["seed"] in said[0]
    fresh = int(said[0].rsplit(" ", 1)[1])
    assert fresh != saved["seed"]


def test_zilch_resumes_after_a_reboot_and_plays_on_with_fresh_dice():
    t, g = zilch_table()
    t.advance(1500)
    saved = t.app.store.load()
    assert saved["game"] == "zilch" and saved["state"]["turn_no"] > 5 and not g.over
    t.reboot()
    t.advance(20)
    assert "Resume Zilch (4p)" in t.screen_text()
    g2 = resume_from_launcher(t)
    assert g2 is not g and g2.bots == (1, 2, 3, 4) and g2.seed == 777
    assert g2.state() == saved["state"]  # scores, whose turn, challenges, options
    fresh_dice(t, g2, saved)
    pace(g2, **ZILCH_FAST)
    assert t.run_until_over(20 * 60 * 1000) and g2.winners
    assert g2.state()["turn_no"] > saved["state"]["turn_no"]


def test_wurfelblitz_resumes_after_a_reboot_and_plays_on_with_fresh_dice():
    t, g = wurfel_table()
    t.advance(30000)
    saved = t.app.store.load()
    assert saved["state"]["round"] >= 3 and not g.over
    t.reboot()
    g2 = resume_from_launcher(t)
    assert g2.state() == saved["state"]  # discs, supply, roller, round, options
    assert g2.phase_name() == "wait" and g2.options["handicaps"] == [1, 2, 3]
    fresh_dice(t, g2, saved)
    assert t.run_until_over(30 * 60 * 1000) and g2.winners
    assert g2.state()["round"] > saved["state"]["round"]


@pytest.mark.parametrize("name", ["zilch", "wurfelblitz"])
def test_every_save_of_a_match_restores_into_a_fresh_game(name):
    mem = Recorder()
    t = SimTable(players=3, seed=8, store=mem)
    mem.table = t
    if name == "zilch":
        g = t.start("zilch", bots=(1, 2, 3), seed=99, variant=opt("zilch", "variant", "5,000"),
                    challenge=opt("zilch", "challenge", "on"), overtaking=opt("zilch", "overtaking", "on"))
        pace(g, **ZILCH_FAST)
    else:
        g = t.start("wurfelblitz", bots=(1, 2, 3), seed=99, bot_ms=900, handicap=2)
    assert t.run_until_over(30 * 60 * 1000)
    saves = [w[1] for w in mem.writes if w[1] is not None]
    assert len(saves) >= 10 and mem.writes[-1][1] is None  # cleared when it ended
    if name == "zilch":  # the variant state was saved along the way
        assert any(s["state"]["final_by"] for s in saves)
        assert any(any(c[0] for c in s["state"]["challenges"]) for s in saves)
    for s in saves:
        fresh = SimTable(players=3, seed=1)
        Store(fresh.box.store).save(s)
        fresh.reboot()
        assert fresh.app.resume().state() == s["state"]


def test_a_zilch_tie_break_survives_a_save_and_resume():
    t, g = zilch_table(players=3, bots=())
    s = g.state()
    s["totals"] = [0, 5100, 5100, 4000]
    s["on_board"] = [False, True, True, True]
    s["final_by"], s["queue"], s["previous"], s["tiebreak"] = 1, [1], 3, 1
    s["challenges"][2] = [True, False]
    s["challenge_count"][2] = 1
    s["turn"]["player"] = 2
    g.restore(s, t.now)
    t.advance(10)
    assert t.app.store.load()["state"] == g.state()  # restore() ended in a save point
    t.reboot()
    g2 = resume_from_launcher(t)
    assert g2.state() == g.state()
    assert (g2.player, g2.queue, g2.tiebreak, g2.final_by) == (2, [1], 1, 1)
    assert "TIE-BREAK" in t.screen_text()


def test_saves_are_written_only_between_rounds_never_with_a_race_armed():
    mem = Recorder()
    t = SimTable(players=3, seed=8, store=mem)
    mem.table = t
    t.start("wurfelblitz", bots=(1, 2, 3), seed=5, bot_ms=900)
    assert t.run_until_over(30 * 60 * 1000)
    phases = [w[0] for w in mem.writes]
    assert phases and set(phases[:-1]) == {"wait"} and phases[-1] == "over"


# --- what is offered, and what is not ------------------------------------------------


def test_a_finished_match_is_not_offered():
    t, g = zilch_table(players=2)
    assert t.run_until_over(20 * 60 * 1000)
    t.advance(10)
    assert t.app.store.load() is None
    t.hold(1)
    t.hold(1)  # past the session's wins
    assert t.app.mode == "launcher" and "Resume" not in t.screen_text()
    t.reboot()
    t.advance(20)
    assert "Resume" not in t.screen_text()


def test_ending_a_match_from_the_pause_menu_forgets_it():
    t, g = zilch_table(players=2, bots=(2,))
    t.advance(2000)
    assert t.app.store.load() is not None
    t.menu()
    t.advance(300)
    t.tap(1)  # Resume -> End game
    t.hold(1)
    t.tap(1)  # No, resume -> Yes, end it
    t.hold(1)
    assert t.app.mode == "ended" and t.app.store.load() is None
    t.hold(1)
    assert t.app.mode == "launcher" and t.app.store.load() is None
    assert "Resume" not in t.screen_text()


def test_a_match_that_never_saves_leaves_another_matchs_save_alone():
    t, g = zilch_table(players=2, bots=(2,))
    t.advance(2000)
    saved = t.app.store.load()
    assert saved is not None
    r = t.start("reaction", rounds=3)  # played to the end: it saves nothing...
    for _ in range(3):
        assert t.advance_until(lambda: r.phase_name() == "result", 20000)
        t.tap(1)  # on past the result
    assert r.over and r.saves == 0
    t.advance(10)
    assert t.app.store.load() == saved  # ...and clears nothing
    t.start("reaction", rounds=3)  # ended from the pause menu: the same
    t.advance(100)
    t.menu()
    t.advance(400)  # the tap is seen 250 ms after its release
    t.tap(1)
    t.hold(1)
    t.tap(1)
    t.hold(1)  # yes, end it
    assert t.app.mode == "ended" and t.app.store.load() == saved
    t.hold(1)
    assert t.app.mode == "launcher" and t.app.store.load() == saved
    assert "Resume Zilch" in t.screen_text()


def test_a_save_of_a_game_that_is_not_deployed_is_dropped(monkeypatch):
    import games

    t, g = zilch_table()
    t.advance(2000)
    t.reboot()
    t.advance(20)
    real = games.load

    def missing(name):
        if name == "zilch":
            raise ImportError("no module named 'games.zilch'")
        return real(name)

    monkeypatch.setattr(games, "load", missing)
    t.hold(1)  # Resume Zilch
    assert t.app.store.load() is None
    assert "The saved match could not be resumed, so it was dropped" in read_notice(t)  # the table is told
    assert t.app.mode == "launcher"
    assert any("saved match does not restore" in m and "ImportError" in m for m in t.box.logs)


def test_a_corrupted_save_is_not_offered_and_the_older_one_is():
    t, g = zilch_table()
    t.advance(1500)
    mem = t.box.store
    s = t.app.store
    end = len(bytes(mem).rstrip(b"\xff"))
    mem[end - 1] ^= 0x20  # one bit of the newest record (a change)
    older = s.load()
    assert older is not None and older["state"]["turn_no"] < t.game.turn_no
    t.reboot()
    g2 = resume_from_launcher(t)
    assert g2.state() == older["state"]
    mem[20] ^= 0x20  # and the match's first record (its whole text): nothing before it to offer
    t.reboot()
    t.advance(20)
    assert "The saved match is damaged: it cannot be resumed" in read_notice(t)  # said, not silently gone
    assert "Resume" not in t.screen_text()
    t.hold(1)  # the first item is a game again
    assert t.app.launcher.stage == "players"


def test_a_damaged_save_is_said_once_at_scale_two_then_forgotten():
    t = SimTable(players=2, seed=3)
    t.app.store.save({"game": "zilch", "players": 2, "bots": [], "seed": 5, "options": {}, "state": {}}, True)
    t.box.store[12] ^= 0x01  # one flipped bit
    t.reboot()
    t.advance(20)
    assert "The saved match is damaged: it cannot be resumed" in read_notice(t)
    assert t.app.mode == "launcher" and "Resume" not in t.screen_text()
    t.start("reaction", rounds=3)  # a match that never saves, then the launcher again: not said again
    t.app.back_to_launcher()
    t.advance(20)
    assert t.app.mode == "launcher"
    t.reboot()  # nor at the next power-up (the box restarts its code after every match)
    t.advance(20)
    assert t.app.mode == "launcher" and t.app.store.load() is None and t.app.store.note is None
    assert any("saved match unreadable" in m for m in t.box.logs)


def test_a_failed_save_pauses_the_match_once_and_says_so():
    from test_legibility import small_texts

    t, g = zilch_table()

    def full(d, new=False):
        yield  # (the app writes a save a step a pass: store.Store.saving)
        raise OSError(28, "No space left on device")

    t.app.store.saving = full
    assert t.advance_until(lambda: t.app.mode == "pause", 20000)
    text = t.screen_text()
    assert "Saving failed" in text and "Play on, unsaved" in text and "End game" in text
    assert small_texts(t.box.root) == []
    turn = g.turn_no
    t.hold(1)  # play on
    assert t.app.mode == "game"
    t.advance(3000)  # more saves fail: the match goes on, the log says each
    assert t.app.mode == "game" and g.turn_no > turn + 1
    assert sum(1 for m in t.box.logs if m.startswith("save failed: OSError")) > 1


def test_a_save_that_does_not_restore_is_dropped_with_a_message():
    t, g = zilch_table()
    t.advance(2000)
    bad = t.app.store.load()
    del bad["state"]["totals"]  # e.g. written by an older firmware
    t.app.store.save(bad)
    t.reboot()
    t.advance(20)
    assert "Resume Zilch" in t.screen_text()
    t.hold(1)
    assert t.game is None and "could not be resumed" in read_notice(t)
    assert t.app.mode == "launcher"
    assert "Resume" not in t.screen_text() and t.app.store.load() is None
    assert any("saved match does not restore" in m and "KeyError" in m for m in t.box.logs)


def test_an_error_in_a_game_offers_resume_from_the_last_save():
    t = SimTable(players=3, seed=8, catch_errors=True)
    g = t.start("zilch", bots=(1, 2, 3), seed=31, variant=opt("zilch", "variant", "5,000"))
    pace(g, **ZILCH_FAST)
    t.advance(1500)
    t.advance_until(lambda: not t.app._save_due)  # a save point's save is written
    saved = t.app.store.load()

    def boom(now):
        raise RuntimeError("a die rolled off the table")

    g.tick = boom
    t.advance(20)
    assert t.app.mode == "error"
    assert "hold any button: menu\n(resume: the last save)" in t.screen_text()
    assert t.app._error_hint.scale == 2  # what the table does next is read from the seats
    assert t.app.store.load() == saved  # the error wrote nothing
    t.hold(1)
    g2 = resume_from_launcher(t)
    assert g2.state() == saved["state"]
    pace(g2, **ZILCH_FAST)
    assert t.run_until_over(20 * 60 * 1000) and g2.winners


def test_games_without_restore_are_never_saved():
    t = SimTable(players=2, seed=3)
    g = t.start("reaction", bots=(2,), rounds=3)
    for _ in range(3):
        assert t.advance_until(lambda: g.phase_name() == "result", 20000)
        t.tap(1)  # on past the result
    assert g.over and g.saves == 0
    assert t.box.store == bytearray(b"\xff" * 4096)  # untouched


# --- the same under MicroPython ---------------------------------------------------------

VM_MATCH = r"""
import games
from referee.app import App
from referee.box import Box
from referee.settings import Settings

NOW = [0]
EDGES = []
LOGS = []


class HeadBox(Box):
    def now_ns(self):
        return NOW[0]

    def poll(self):
        e = EDGES[:]
        del EDGES[:]
        return e

    def set_backlight(self, on):
        EDGES.append((0, NOW[0], bool(on)))

    def show(self, group):
        self.root = group

    def new_seed(self):
        return 2 ** 100 + 3

    def log(self, msg):
        LOGS.append(msg)


class Px:
    def __setitem__(self, i, c):
        pass

    def show(self):
        pass


class Tn:
    def tone(self, f):
        pass


box = HeadBox(7, Px(), Tn(), store=bytearray(b"\xff" * 4096))
for name, players, options, steps in (("zilch", 3, {"variant": 5000, "challenge": True}, 400),
                                      ("wurfelblitz", 3, {"bot_ms": 900, "whites": 3}, 12000)):
    app = App(box, Settings(None), games, catch_errors=False)
    game = app.launch(name, players, (1, 2, 3), options=options)
    if name == "zilch":
        game.think_ns, game.roll_ns, game.show_ns = 6000000, 4000000, 6000000
    for _ in range(steps):
        NOW[0] += 2000000
        app.step()
    saved = app.store.load()
    print(name, game.saves > 1, game.over, saved is not None and saved["seed"] == game.seed)
    app2 = App(box, Settings(None), games, catch_errors=False)  # a reset
    print("offered", app2.launcher.menu.items[0][0])
    g2 = app2.resume()
    print("same state", g2.state() == saved["state"], g2.rng._s != game.rng._s, "rng" in saved)
print("logs", [m for m in LOGS if not m.startswith(("match ", "resumed "))])
print("resumed", [m.split(" (")[0] for m in LOGS if m.startswith("resumed ")])
"""


def test_saves_and_resume_work_the_same_under_micropython():
    import compat

    compat.require_vm()
    vm = compat.run_vm(VM_MATCH)
    assert vm.returncode == 0, vm.stderr
    py = compat.run_cpython(VM_MATCH)
    assert py.returncode == 0, py.stderr
    assert vm.stdout == py.stdout
    assert "zilch True False True\noffered Resume Zilch (3p)\nsame state True True False\n" in vm.stdout
    assert "wurfelblitz True False True\noffered Resume Wurfelblitz (3p)\nsame state True True False\n" in vm.stdout
    assert "logs []\nresumed ['resumed zilch', 'resumed wurfelblitz']" in vm.stdout


# --- a long match: once the store runs low, a save once a round --------------------------


@pytest.mark.parametrize("name, players", [("zilch", 7), ("zap_city", 4), ("flyer", 4), ("wurfelblitz", 3)])
def test_when_the_store_runs_low_the_match_saves_once_a_round(monkeypatch, name, players):
    import referee.app

    t = SimTable(players=players, seed=5)
    written = []
    saving = t.app.store.saving

    def recording(d, new=False):  # (the app writes a save a step a pass)
        written.append(t.game.saves)
        states.append(d and d["state"])
        return saving(d, new)

    states = []

    t.app.store.saving = recording
    g = t.start(name, bots=tuple(range(1, players + 1)), seed=55)
    pace(g, think_ms=6, roll_ms=4, show_ms=6)
    assert t.advance_until(lambda: g.saves >= 3, 120000)
    monkeypatch.setattr(referee.app, "LOW", 4096)  # from now on the sector counts as low
    start = len(written)
    assert t.advance_until(lambda: g.saves >= 3 + 2 * g.round_saves(), 600000)
    t.advance_until(lambda: not t.app._save_due)  # (written from the next pass's start)
    per_round = g.round_saves()
    assert per_round == (players if name != "wurfelblitz" else 1)
    steps = [b - a for a, b in zip(written[start - 1:], written[start:])]
    assert steps and all(s == per_round for s in steps), steps  # one save a round, no more, no less
    assert g.saves - per_round < written[-1] <= g.saves
    t.reboot()  # a cut now: the match resumes from the last save, at most one round back
    g2 = resume_from_launcher(t)
    assert json.loads(json.dumps(g2.state())) == states[-1]
