"""Fuzz the box: random press streams against every game and menu on the simulated box.

    python tools/fuzz.py --streams N --seed S [--game NAME] [--steps K] [--no-shrink] [--mode both] [--lockstep]

A *stream* is a list of events played on a fresh ``SimTable`` (``catch_errors=False``):
the launcher is navigated by presses to start the game (players, random bot seats and
options), then random events follow: human taps and holds (60-300 ms, 0.6-3 s),
inhuman presses (sub-ms, mashing), bounce and chatter, presses on stations not in
the game, MENU presses, the two-button pause chord, a button stuck down (from boot
or mid-game), lost capture words and reboots (the NVM survives; the launcher offers
the saved match, which the stream usually takes). ``--game menus`` fuzzes the
launcher itself (random presses from boot, no navigation).

After every event:

* no exception, ``app.mode != "error"``, ``app.error is None``;
* the game's scores are legal (``LEGAL`` below, one check per game);
* a save written during the event restores into an equal game: the NVM is copied
  to a fresh box, ``App.resume()`` there, and its ``state()`` equals the record's;
* a race never names a human winner who did not press in that round: each winner's
  judged press (``race.press_ns``) is a press edge that station really made (the
  table's ``press_log``) at or after the reveal. Checked before every
  ``race.reset()`` too, so a round cannot slip by between two events.

The tables run ``SimTable``'s ``events`` mode (a loop pass only when something can
happen); ``--mode steps`` runs a pass every 2 ms as the box does, ``--mode both`` plays
the same streams in each and prints streams per CPU second side by side.
``--lockstep`` plays every stream in both modes at once and compares, after every
event, what the tables show and keep (``seen``); a stream that differs is shrunk and
saved in ``tests/lockstep/``, which ``tests/test_sim_events.py`` replays so.

A failing stream is shrunk (delta debugging over its events: the smallest list that
still fails the same way) and saved as ``tests/regressions/<game>-<hash>.json``,
which ``tests/test_fuzz.py`` replays. Events are plain lists (JSON):

    ["p", station, hold_us, bounce, bounce_us, advance_ms]   a press (station 8 = MENU)
    ["c", a, b, gap_ms, hold_ms, advance_ms]                 two stations together
    ["l", words, advance_ms]                                 capture words lost
    ["r", advance_ms]                                        a power cycle
    ["a", ms]                                                time passes
"""

import argparse
import hashlib
import json
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (ROOT, os.path.join(ROOT, "lib")):
    if _p not in sys.path:
        sys.path.insert(0, _p)
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import games  # noqa: E402
from pc.sim import EVENTS, STATIONS, STEPS, SimTable  # noqa: E402
from referee.app import ERROR, GAME, LAUNCHER  # noqa: E402

NOTICE = getattr(sys.modules["referee.app"], "NOTICE", "notice")
from referee.core import MS  # noqa: E402
from referee.gestures import MENU  # noqa: E402
from referee.store import Store  # noqa: E402

REGRESSIONS = os.path.join(ROOT, "tests", "regressions")
LOCKSTEP = os.path.join(ROOT, "tests", "lockstep")  # streams that once played differently in the two modes
MENUS = "menus"  # the pseudo-game: the launcher alone
MODE = [EVENTS]  # the tables' SimTable mode (main's --mode sets it)
LOOP_MS = 2  # the simulated loop period (SimTable's default): edges keep their exact ns
# A stream's loop period, drawn per stream: the box's loop is not regular (a full
# display refresh is ~50 ms of SPI at 24 MHz); edges keep their exact times whatever it is.
LOOPS = (2, 5, 10, 10, 20, 20)
WAIT_LOOP_MS = 40  # the loop period while time passes with no press scripted ("a" events)


class Failure(Exception):
    """An invariant broke; ``kind`` names which (the shrinker keeps it)."""

    def __init__(self, kind, detail):
        super().__init__(kind + ": " + detail)
        self.kind = kind


# --- per-game legality ------------------------------------------------------------


def _reaction(g):
    rounds = g.options.get("rounds", 5)
    if not 0 <= g.round <= rounds + 1:
        return "round %r of %r" % (g.round, rounds)
    for p in range(1, g.players + 1):
        if not 0 <= g.wins[p] <= max(g.round, 0):
            return "P%d wins %r after round %r" % (p, g.wins[p], g.round)
    return None


def _wurfelblitz(g):
    discs = g.discs[1:]
    whites = blacks = 0
    for i, d in enumerate(discs):
        if not (0 <= d.white < d.handicap and 0 <= d.black <= 3):
            return "P%d discs %r" % (i + 1, d)
        whites += d.white
        blacks += d.black
    s = g.supply
    if s.white < 0 or s.black < 0 or s.white_owed < 0 or s.black_owed < 0:
        return "supply %r" % (s.to_list(),)
    if s.white - s.white_owed + whites != s.white_total:
        return "white discs not conserved: %r, players hold %d" % (s.to_list(), whites)
    if s.black - s.black_owed + blacks != s.black_total:
        return "black discs not conserved: %r, players hold %d" % (s.to_list(), blacks)
    if sum(1 for d in discs if d.black >= 3) > 1:
        return "two champions: %r" % (discs,)
    return None


def _lightning_dice(g):
    if any(s < 0 for s in g.scores):
        return "scores %r" % (g.scores,)
    return None


def _zilch(g):
    if any(t < 0 or t % 50 for t in g.totals):
        return "totals %r" % (g.totals,)
    return None


def _zap_city(g):
    from games import zap_city_rules

    try:
        zap_city_rules.from_data(zap_city_rules.to_data(list(g.st)))  # disks conserved, fields in range
    except ValueError as e:
        return str(e)
    return None


def _flyer(g):
    from games import flyer_rules

    st = getattr(g, "st", None)
    if st is None:
        return None
    try:  # six markers, each once; scores = the values of the markers home; turn in range
        flyer_rules.from_data(flyer_rules.to_data(st))
    except ValueError as e:
        return str(e)
    return None


LEGAL = {"reaction": _reaction, "wurfelblitz": _wurfelblitz, "lightning_dice": _lightning_dice,
         "zilch": _zilch, "zap_city": _zap_city, "flyer": _flyer}


# --- one stream ------------------------------------------------------------------------


class Run:
    """A table playing one stream, checking the invariants after every event."""

    def __init__(self, players, seed, settings, check_saves=True, loop_ms=LOOP_MS):
        self.loop_ms = loop_ms
        self.players = players
        self.seed = seed
        self.settings = settings
        self.check_saves = check_saves
        self.t = SimTable(players=players, seed=seed, settings=settings, catch_errors=False, loop_ms=loop_ms,
                          mode=MODE[0])
        self.presses = set()  # (station, t_ns) of every press edge scripted so far
        self._logged = 0
        self._nvm = bytes(self.t.box.store)
        self._race = None
        self.saves_checked = 0
        self.races_checked = 0

    # events
    def play(self, ev):
        t = self.t
        k = ev[0]
        if k == "p":
            t.press(ev[1], hold_ms=ev[2] / 1000, bounce=ev[3], bounce_us=ev[4])
            t.advance(ev[5])
        elif k == "c":
            t.press(ev[1], hold_ms=ev[4])
            t.press(ev[2], at_ns=t.now + ev[3] * MS, hold_ms=ev[4])
            t.advance(ev[5])
        elif k == "l":
            t.lose_capture(ev[1])
            t.advance(ev[2])
        elif k == "r":
            t.reboot()
            self._race = None
            t.advance(ev[1])
        elif k == "a":  # nothing pressed: a coarser loop (a slow refresh) while bots play
            loop = t.loop_ns
            t.loop_ns = max(loop, WAIT_LOOP_MS * MS)
            t.advance(ev[1])
            t.loop_ns = loop
        else:
            raise ValueError("unknown event %r" % (ev,))
        self.check()

    # invariants
    def check(self):
        t = self.t
        app = t.app
        if app.mode == ERROR or app.error is not None:
            raise Failure("error screen", str(app.error))
        g = app.game
        if g is not None and app.mode != LAUNCHER:
            legal = LEGAL.get(app._name)
            bad = legal(g) if legal else None
            if bad:
                raise Failure("illegal " + app._name, bad)
            race = getattr(g, "race", None)
            if race is not None:
                if race is not self._race:
                    self._hook(race, g)
                self.check_race(race, g)
        if self.check_saves:
            nvm = bytes(t.box.store)
            if nvm != self._nvm:
                self._nvm = nvm
                self.check_save(nvm)

    def _hook(self, race, g):
        self._race = race
        reset = race.reset
        run = self

        def checked_reset():
            run.check_race(race, g)
            reset()

        race.reset = checked_reset

    def check_race(self, race, g):
        winners = race.winners()
        if not winners:
            return
        log = self.t.press_log  # (also called mid-event, by race.reset: read the log now)
        for i in range(self._logged, len(log)):
            at, p, down = log[i]
            if down:
                self.presses.add((p, at))
        self._logged = len(log)
        self.races_checked += 1
        reveal = race._reveal
        for p in winners:
            if p in g.bots:
                continue
            at = race.press_ns(p)
            if at is None or (p, at) not in self.presses:
                raise Failure("phantom winner", "P%d named at %r, never pressed then" % (p, at))
            if at < reveal:
                raise Failure("early winner", "P%d pressed at %d before the reveal at %d" % (p, at, reveal))

    def check_save(self, nvm):
        rec = Store(bytearray(nvm), lambda m: None).load()
        if rec is None:
            return
        self.saves_checked += 1
        fresh = SimTable(players=self.players, seed=self.seed + 1, settings=self.settings, catch_errors=False,
                         store=bytearray(nvm), mode=MODE[0])
        g = fresh.resume()
        if g is None or fresh.app.mode != GAME:
            raise Failure("save does not restore", "%s: %s" % (rec.get("game"), fresh.box.logs[-1:]))
        got = g.state()
        if json.loads(json.dumps(got)) != rec["state"]:
            raise Failure("restored game differs", "%s saved %r restored %r" % (rec["game"], rec["state"], got))


def replay(case, check_saves=True):
    """Play a stream (a dict as saved in tests/regressions); raises on a failure.
    Returns the Run."""
    run = Run(case["players"], case["seed"], case["settings"], check_saves, case.get("loop_ms", LOOP_MS))
    run.check()
    for ev in case["events"]:
        run.play(ev)
    return run


def seen(t):
    """What a table shows and keeps after an event: the app's mode, the screen's text
    and light, the rings, the log, the tones and the match's record."""
    app = t.app
    g = app.game
    rec = json.dumps(g.record(app._name), sort_keys=True) if g is not None and app.mode != LAUNCHER else None
    return {"mode": app.mode, "screen": t.screen_text(), "backlight": t.box.backlight,
            "rings": [t.ring(p) for p in range(1, STATIONS + 1)], "logs": list(t.box.logs),
            "tones": list(t.box.tones.log), "record": rec}


def lockstep(case):
    """Play a stream event-driven and with 2 ms stepping side by side; raises
    ``Failure("modes differ")`` at the first event after which the two tables differ
    (``seen``). Returns how many events were compared."""
    runs = []
    for mode in (EVENTS, STEPS):
        MODE[0] = mode
        runs.append(Run(case["players"], case["seed"], case["settings"], False, case.get("loop_ms", LOOP_MS)))
    MODE[0] = EVENTS
    fast, slow = runs
    n = 0
    for ev in case["events"]:
        fast.play(ev)
        slow.play(ev)
        n += 1
        a = seen(fast.t)
        b = seen(slow.t)
        for key in a:
            if a[key] != b[key]:
                raise Failure("modes differ", "after event %d %r: %s %r (events) vs %r (steps)"
                              % (n, ev, key, str(a[key])[:160], str(b[key])[:160]))
    return n


# --- making streams -------------------------------------------------------------------


def _tap(rng, n=1, station=None):
    """Events: ``n`` quick taps (one series), then the gap that reports them."""
    evs = []
    s = station or rng.randint(1, STATIONS)
    for i in range(n):
        evs.append(["p", s, rng.randint(60, 90) * 1000, 0, 300, 130 if i < n - 1 else 400])
    return evs


def _hold(rng, station=None):
    hold = rng.randint(700, 900)
    return [["p", station or rng.randint(1, STATIONS), hold * 1000, 0, 300, hold + 300]]


class Maker:
    """Makes one stream while playing it (navigation reads the launcher's state;
    the stream saved is only the events)."""

    def __init__(self, name, rng, steps):
        self.name = name
        self.rng = rng
        self.steps = steps

    def case(self, players, seed, settings, loop_ms):
        return {"game": self.name, "players": players, "seed": seed, "settings": settings, "loop_ms": loop_ms,
                "events": []}

    def make(self, seed):
        """Play a new stream; returns (case, run, error or None)."""
        rng = self.rng
        name = self.name
        if name == MENUS:
            players = rng.randint(2, STATIONS)
        else:
            mod = games.load(name)
            players = rng.randint(mod.MIN_PLAYERS, min(mod.MAX_PLAYERS, STATIONS))
        settings = {}
        if rng.random() < 0.5:
            settings["REFEREE_TIE_WINDOW_MS"] = rng.choice((0, 5, 50))
            settings["REFEREE_MIN_REACTION_MS"] = rng.choice((0, 100, 200))
            settings["REFEREE_LIMIT_S"] = rng.choice((5, 30))
        loop_ms = rng.choice(LOOPS)
        case = self.case(players, seed, settings, loop_ms)
        run = None
        try:
            run = Run(players, seed, settings, loop_ms=loop_ms)
            run.check()
            if rng.random() < 0.05:  # a button stuck down from boot
                self._emit(run, case, ["p", rng.randint(1, STATIONS), rng.randint(5, 120) * 1000000, 0, 300, 10])
            if name != MENUS:
                self._start(run, case)
            n = 0
            while n < self.steps:
                for ev in self._random(run, players):
                    self._emit(run, case, ev)
                    n += 1
        except Exception as e:  # noqa: BLE001  (every exception is a finding)
            return case, run, e
        return case, run, None

    def _emit(self, run, case, ev):
        case["events"].append(ev)
        run.play(ev)

    def _start(self, run, case):
        """Press through the launcher to start ``self.name`` (bots and options random).
        Reads the launcher before each step: a button stuck from boot may have moved it."""
        rng = self.rng
        app = run.t.app
        toggles = rng.choice((0, 0, 1, 2, 3))
        for _ in range(12):
            if app.mode == NOTICE:  # settings messages first (e.g. a 1-seat table's REFEREE_PLAYERS)
                for ev in _hold(rng):
                    self._emit(run, case, ev)
                continue
            if app.mode != LAUNCHER:
                break
            la = app.launcher
            menu = la.menu
            values = [v for _, v in menu.items]
            if la.stage == "game":
                target = values.index(self.name)
            elif la.stage == "players":
                target = values.index(run.players) if run.players in values else 0
            elif la.said and ("seat", 1) in values and 1 in la.bots:  # one seat must be human
                target = values.index(("seat", 1))
            elif toggles:  # a seat (bot/human) or an option, not Start! nor Back
                toggles -= 1
                target = rng.randint(1, len(values) - 2)
            else:
                target = 0  # Start!
            for ev in self._to(menu.index, target, len(values)) + _hold(rng):
                self._emit(run, case, ev)
        if app.mode != GAME:
            raise RuntimeError("fuzz: the launcher did not start %s (mode %s)" % (self.name, app.mode))

    def _to(self, index, target, size):
        n = (target - index) % size
        return _tap(self.rng, n) if n else []

    def _random(self, run, players):
        """The next few events: mostly play, sometimes hostile."""
        rng = self.rng
        app = run.t.app
        if self.name != MENUS and app.mode == LAUNCHER and rng.random() < 0.5:
            if app.launcher.saved and app.launcher.menu.index == 0 and app.launcher.stage == "game":
                return _hold(rng)  # resume the saved match
            if app.launcher.stage == "game" and rng.random() < 0.3:
                menu = app.launcher.menu
                target = [v for _, v in menu.items].index(self.name)
                return self._to(menu.index, target, len(menu.items)) + _hold(rng)
        seat = rng.randint(1, players)
        r = rng.random()
        adv = int(rng.expovariate(1 / 400.0))
        if r < 0.30:  # a human tap
            return [["p", seat, rng.randint(60, 300) * 1000, 0, 300, adv]]
        if r < 0.40:  # a hold
            return [["p", seat, rng.randint(600, 3000) * 1000, 0, 300, adv + 500]]
        if r < 0.48:  # inhuman: sub-ms contacts, a few ms apart
            return [["p", seat, rng.randint(1, 999), 0, 300, rng.randint(0, 3)] for _ in range(rng.randint(1, 6))]
        if r < 0.56:  # mashing: fast taps of several stations
            return [["p", rng.randint(1, STATIONS), rng.randint(5, 60) * 1000, 0, 300, rng.randint(0, 40)]
                    for _ in range(rng.randint(3, 15))]
        if r < 0.64:  # bounce and chatter
            return [["p", seat, rng.randint(30, 900) * 1000, rng.randint(1, 8), rng.choice((20, 300, 2000, 9000)), adv]]
        if r < 0.69:  # a station not in the game (or any station in the launcher)
            return [["p", rng.randint(min(players + 1, STATIONS), STATIONS), rng.randint(60, 900) * 1000, 0, 300, adv]]
        if r < 0.75:  # MENU
            return [["p", MENU, rng.choice((80, 150, 800)) * 1000, rng.choice((0, 0, 3)), 300, adv + 300]]
        if r < 0.78:  # the pause chord
            a = rng.randint(1, players)
            b = rng.randint(1, players)
            return [["c", a, b, rng.randint(0, 400), rng.randint(3000, 4500), 4700]]
        if r < 0.80:  # stuck down for a while
            return [["p", seat, rng.randint(5, 90) * 1000000, 0, 300, adv]]
        if r < 0.83:
            return [["l", rng.randint(1, 3), adv]]
        if r < 0.85:
            return [["r", rng.randint(0, 300)]]
        if r < 0.93:  # time passes: bots play
            return [["a", rng.randint(1000, 6000)]]
        if r < 0.94:  # a long wait: time limits run out
            return [["a", rng.randint(6000, 35000)]]
        return [["a", adv]]


# --- shrinking ---------------------------------------------------------------------


def signature(e):
    if isinstance(e, Failure):
        return e.kind
    return type(e).__name__ + ": " + str(e).split("\n")[0][:60]


def fails(case, sig):
    try:
        replay(case)
    except Exception as e:  # noqa: BLE001
        return signature(e) == sig
    return False


def differs(case, sig):
    """``fails`` for ``lockstep``: the two modes differ (``sig``: "modes differ")."""
    try:
        lockstep(case)
    except Failure as e:
        return e.kind == sig
    return False


def shrink(case, sig, budget_s=120, still=fails):
    """ddmin over the events: the smallest list (1-minimal within the budget) that
    still fails with ``sig`` (``still``: ``fails``, or ``differs``)."""
    events = list(case["events"])
    end = time.monotonic() + budget_s

    def test(evs):
        c = dict(case)
        c["events"] = evs
        return still(c, sig)

    n = 2
    while len(events) >= 2 and time.monotonic() < end:
        chunk = max(1, len(events) // n)
        reduced = False
        for i in range(0, len(events), chunk):
            rest = events[:i] + events[i + chunk:]
            if rest and test(rest):
                events = rest
                n = max(n - 1, 2)
                reduced = True
                break
            if time.monotonic() > end:
                break
        if not reduced:
            if chunk == 1:
                break
            n = min(len(events), n * 2)
    # the tail after the failing event never matters: cut it
    c = dict(case)
    c["events"] = events
    return c


def save_regression(case, sig, folder=REGRESSIONS):
    os.makedirs(folder, exist_ok=True)
    body = json.dumps(case["events"], separators=(",", ":"))
    h = hashlib.sha1((case["game"] + str(case["players"]) + str(case["seed"]) + body).encode()).hexdigest()[:10]
    path = os.path.join(folder, "%s-%s.json" % (case["game"], h))
    data = dict(case)
    data["failure"] = sig
    with open(path, "w") as f:
        f.write("{\n")
        for key in ("game", "players", "seed", "settings", "loop_ms", "failure"):
            f.write("  %s: %s,\n" % (json.dumps(key), json.dumps(data[key])))
        f.write('  "events": [\n')
        f.write(",\n".join("    " + json.dumps(ev) for ev in data["events"]))
        f.write("\n  ]\n}\n")
    return path


# --- the CLI -------------------------------------------------------------------------


def fuzz(name, streams, seed, steps, shrink_s=120, save=True, out=None, folder=REGRESSIONS):
    """Play ``streams`` streams against ``name``; returns a dict of figures. A failing
    stream is shrunk and saved in ``folder`` (with ``save``)."""
    rng = random.Random("%s/%d" % (name, seed))
    maker = Maker(name, rng, steps)
    fig = {"game": name, "streams": 0, "steps": 0, "failures": 0, "saves": 0, "races": 0, "found": []}
    t0 = time.perf_counter()
    c0 = time.process_time()
    for i in range(streams):
        case, run, err = maker.make(seed * 1000003 + i)
        fig["streams"] += 1
        fig["steps"] += len(case["events"])
        if run is not None:
            fig["saves"] += run.saves_checked
            fig["races"] += run.races_checked
        if err is not None:
            fig["failures"] += 1
            sig = signature(err)
            if out:
                out("  %s stream %d: %s" % (name, i, str(err)[:200]))
            path = None
            if save:
                small = shrink(case, sig, shrink_s)
                path = save_regression(small, sig, folder)
                if out:
                    out("    shrunk %d -> %d events: %s" % (len(case["events"]), len(small["events"]), path))
            fig["found"].append((sig, path))
    fig["seconds"] = time.perf_counter() - t0
    fig["cpu"] = time.process_time() - c0
    fig["virtual_s"] = None
    return fig


def _job(a):
    name, streams, seed, steps, save = a
    return fuzz(name, streams, seed, steps, save=save, out=print)


def _parallel(name, args):
    from multiprocessing import Pool

    n = args.jobs
    parts = [(name, args.streams // n + (1 if j < args.streams % n else 0), args.seed * 100 + j, args.steps,
              not args.no_shrink) for j in range(n)]
    t0 = time.perf_counter()
    with Pool(n) as pool:
        figs = pool.map(_job, parts)
    fig = dict(figs[0])
    for f in figs[1:]:
        for k in ("streams", "steps", "failures", "saves", "races"):
            fig[k] += f[k]
        fig["found"] += f["found"]
    fig["seconds"] = time.perf_counter() - t0
    return fig


def _names(args):
    # the games named with --game, else every game and the menus
    return args.game or (games.names() + [MENUS])


def _lockstep(args):
    """Streams made as the fuzz makes them, each played in both modes side by side."""
    bad = 0
    for name in _names(args):
        maker = Maker(name, random.Random("%s/%d" % (name, args.seed)), args.steps)
        for i in range(args.streams):
            case, _, err = maker.make(args.seed * 1000003 + i)
            if err is None:
                try:
                    lockstep(case)
                except Failure as e:
                    err = e
            if err is not None:  # (a stream that broke an invariant while it was made, too)
                bad += 1
                print("  %s stream %d: %s" % (name, i, str(err)[:300]))
                if isinstance(err, Failure) and err.kind == "modes differ" and not args.no_shrink:
                    print("    saved: " + save_regression(shrink(case, err.kind, still=differs), err.kind, LOCKSTEP))
        print("%-15s %d streams played in both modes" % (name, args.streams), flush=True)
    return 1 if bad else 0


def _both(args):
    """The same streams with 2 ms stepping, then event-driven: streams per CPU second."""
    names = _names(args)
    print("%-15s %8s %14s %15s %6s" % ("game", "streams", "steps str/cpu s", "events str/cpu s", "ratio"))
    bad = 0
    for name in names:
        rates = []
        for mode in (STEPS, EVENTS):
            MODE[0] = mode
            fig = fuzz(name, args.streams, args.seed, args.steps, save=False)
            bad += fig["failures"]
            rates.append(fig["streams"] / fig["cpu"] if fig["cpu"] else 0)
        MODE[0] = EVENTS
        print("%-15s %8d %14.1f %15.1f %5.1fx" % (name, args.streams, rates[0], rates[1],
                                                  rates[1] / rates[0] if rates[0] else 0), flush=True)
    return 1 if bad else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--streams", type=int, default=200, help="streams per game")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", action="append", help="a game name, or 'menus' (default: every game and the menus)")
    ap.add_argument("--steps", type=int, default=30, help="random events per stream (after starting the game)")
    ap.add_argument("--no-shrink", action="store_true", help="report failures without shrinking or saving them")
    ap.add_argument("--markdown", action="store_true", help="print the table as markdown")
    ap.add_argument("--jobs", type=int, default=1, help="processes per game (job j plays seed S*100+j)")
    ap.add_argument("--mode", choices=(EVENTS, STEPS, "both"), default=EVENTS,
                    help="the simulator's loop: events (default), steps (every 2 ms), both side by side")
    ap.add_argument("--lockstep", action="store_true",
                    help="play each stream in both modes side by side; a difference is shrunk into tests/lockstep")
    args = ap.parse_args(argv)
    if args.lockstep:
        return _lockstep(args)
    if args.mode == "both":
        return _both(args)
    MODE[0] = args.mode
    names = _names(args)
    rows = []
    bad = 0
    for name in names:
        if args.jobs > 1:
            fig = _parallel(name, args)
        else:
            fig = fuzz(name, args.streams, args.seed, args.steps, save=not args.no_shrink, out=print)
        bad += fig["failures"]
        rows.append(fig)
        rate = fig["streams"] / fig["seconds"] if fig["seconds"] else 0
        print("%-15s streams %6d  steps %8d  %7.1f streams/s  saves %5d  races %5d  failures %d  (100k: %.0f min)"
              % (name, fig["streams"], fig["steps"], rate, fig["saves"], fig["races"], fig["failures"],
                 100000 / rate / 60 if rate else 0), flush=True)
    if args.markdown:
        print()
        print("| game | streams | steps | streams/s | saves restored | races judged | failures | 100,000 streams |")
        print("|---|---|---|---|---|---|---|---|")
        for f in rows:
            rate = f["streams"] / f["seconds"]
            print("| %s | %d | %d | %.1f | %d | %d | %d | %.0f min |" % (f["game"], f["streams"], f["steps"], rate,
                  f["saves"], f["races"], f["failures"], 100000 / rate / 60))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
