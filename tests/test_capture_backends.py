"""Three capture backends, one stream.

The same presses go to the simulated box (``hardware/sim.py``), to the PIO capture
program run cycle-accurately in pioemu (``hardware/pio_capture.py``, through the
harness in ``tools/bench_capture.py``) and to the keypad fallback
(``hardware/keypad_capture.py`` on the strict ``keypad`` fake, 1 ms scans). Each
must report the same ``(player, t_ns, pressed)`` edges within its precision, and
``Race`` must reach the same verdict from all three. docs/capture.md, "Three
backends, one stream", says what this proves and where the keypad differs.

A script is the physical truth: presses (start, hold, bounce train) and the
backlight (dark, reveal, off). Edges at the same ns are a tie, and within a tie
the order means nothing, so streams are compared sorted by (time, player).
"""

from fractions import Fraction

import fakes
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware import pio_capture as pc
from hardware.sim import SimTable
from referee.arbiter import Race
from referee.box import REVEAL
from tools.bench_capture import FIRST_SAMPLE, IDLE, Levels, emulate_capture

US = 1000
MS = 1000000
F125 = 125000000
F150 = 150000000
K = 1000  # the PIO runs a script 1000x compressed: 1 ms -> 1 us (125 cycles at 125 MHz)
LIT = 1 << pc.REVEAL_INDEX
SCAN_NS = MS  # keypad_capture.INTERVAL_S
POLL_FIRST_NS = 300 * US  # the box loop polls the keypad queue every 1.7 ms,
POLL_EVERY_NS = 1700 * US  # never in step with the 1 ms scans


def ceil_div(a, b):
    return -(-a // b)


# --- scripts -------------------------------------------------------------------------


class Press:
    def __init__(self, player, at_ns, hold_ms, bounce=0, bounce_us=300):
        self.player = player
        self.at_ns = at_ns
        self.hold_ms = hold_ms
        self.bounce = bounce
        self.bounce_us = bounce_us

    @property
    def settled_ns(self):
        """Last closing of the contact's bounce train (= at_ns without bounce)."""
        return self.at_ns + 2 * self.bounce * self.bounce_us * US

    def edges(self):
        """The physical edges: first contact, ``bounce`` open/close pairs
        ``bounce_us`` apart, release after ``hold_ms``, the same train before the
        contact finally opens (SimTable.press's documented bounce)."""
        p, a, step = self.player, self.at_ns, self.bounce_us * US
        out = [(p, a, True)]
        for i in range(self.bounce):
            out += [(p, a + (2 * i + 1) * step, False), (p, a + (2 * i + 2) * step, True)]
        up = a + self.hold_ms * MS
        for i in range(self.bounce):
            out += [(p, up + 2 * i * step, False), (p, up + (2 * i + 1) * step, True)]
        out.append((p, up + 2 * self.bounce * step, False))
        return out


class Tap:
    """A bare contact ``down_us`` long: no hold, no bounce (a glitch if < 1 ms)."""

    def __init__(self, player, at_ns, down_us):
        self.player = player
        self.at_ns = self.settled_ns = at_ns
        self.down_ns = down_us * US

    def edges(self):
        return [(self.player, self.at_ns, True), (self.player, self.at_ns + self.down_ns, False)]


class Script:
    """Presses and backlight changes ``[(t_ns, on), ...]``. At t = 0 the screen is
    lit (the launcher lights it) and every station is up."""

    def __init__(self, players, presses, light):
        self.players = players
        self.presses = presses
        self.light = sorted(light)

    def truth(self):
        edges = [(REVEAL, t, on) for t, on in self.light]
        for pr in self.presses:
            edges += pr.edges()
        return norm(edges)

    @property
    def reveal_ns(self):
        return [t for t, on in self.light if on][0]

    @property
    def end_ns(self):
        return self.truth()[-1][1] + 3 * MS  # every backend has seen the last edge by then


def norm(edges):
    return sorted(edges, key=lambda e: (e[1], e[0], e[2]))


def seq(edges):
    """The order of a stream: (player, pressed), ties in player order."""
    return [(p, pressed) for p, _, pressed in norm(edges)]


def levels_at(truth, t_ns):
    """The 8 capture inputs just before ``t_ns`` (bit i = input i; stations active-low)."""
    v = IDLE | LIT
    for p, t, pressed in truth:
        if t >= t_ns:
            break
        if p == REVEAL:
            v = (v | LIT) if pressed else (v & ~LIT)
        else:
            bit = 1 << (p - 1)
            v = (v & ~bit) if pressed else (v | bit)
    return v


# --- backend 1: the simulated box ----------------------------------------------------


def run_sim(script):
    """Drive a SimTable through the script; every edge its box.poll() returned.
    Presses are scheduled with ``press``; bare taps are live ``key`` edges and
    backlight changes ``box.reveal``, each made at its exact ns (the sim captures
    the light 1 ns after the clock reading it is switched at, as the box does:
    so it is switched 1 ns before). The app's loop is switched off (the launcher
    is not under test): the box is polled here."""
    table = SimTable(players=script.players)
    table.app.step = lambda: None
    assert table.box.poll() == [(REVEAL, 1, True)]  # the launcher lit the screen at t = 0
    live = [(t, REVEAL, on) for t, on in script.light]
    for pr in script.presses:
        if isinstance(pr, Tap):
            live += [(t, p, down) for p, t, down in pr.edges()]
        else:
            table.press(pr.player, at_ns=pr.at_ns, hold_ms=pr.hold_ms, bounce=pr.bounce, bounce_us=pr.bounce_us)
    got = []

    def advance_to(t_ns):
        table.advance(Fraction(t_ns - table.now, MS))
        assert table.now == t_ns
        got.extend(table.box.poll())

    for t, p, on in sorted(live):
        if p == REVEAL:
            advance_to(t - 1)
            table.box.reveal(on)
        else:
            advance_to(t)
            table.key(p, on)
    advance_to(script.end_ns)
    return got


# --- backend 2: the PIO program in pioemu --------------------------------------------


class WordFifo:
    """The read side of rp2pio.StateMachine over a list of emulated FIFO words."""

    def __init__(self, words):
        self.words = list(words)
        self.rxstall = False

    @property
    def in_waiting(self):
        return min(8, len(self.words))

    def readinto(self, buf, start=0, end=None):
        end = len(buf) if end is None else end
        for i in range(start, end):
            buf[i] = self.words.pop(0)


def pio_cycle(t_ns, start_ns, f, k):
    """First PIO clock at or after the (k-times compressed) instant of ``t_ns``."""
    return FIRST_SAMPLE + ceil_div((t_ns - start_ns) * f, k * 1000000000)


def run_pio(truth, f, k=K, start_ns=0, end_ns=None):
    """Run OPCODES on the truth's pin levels from ``start_ns`` (sample 0) to
    ``end_ns``, time compressed ``k`` times. Returns the reader's box edges
    (times in PIO ns after sample 0) and the exact prediction: each edge at the
    first sample at or after its clock."""
    if end_ns is None:
        end_ns = truth[-1][1] + MS
    window = [e for e in truth if start_ns < e[1] < end_ns]
    changes = []
    expected = []
    dec = pc.Decoder(f)
    for p, t, pressed in window:
        cycle = pio_cycle(t, start_ns, f, k)
        if p == REVEAL:
            changes.append((cycle, pc.REVEAL_INDEX, 1 if pressed else 0))
        else:
            changes.append((cycle, p - 1, 0 if pressed else 1))
        sample = ceil_div(cycle - FIRST_SAMPLE, pc.CYCLES_PER_SAMPLE)
        expected.append((p, dec.t_ns(sample), pressed))
    cycles = pio_cycle(end_ns, start_ns, f, k) + 2 * pc.EVENT_SAMPLES * pc.CYCLES_PER_SAMPLE
    words, final = emulate_capture(Levels(changes, levels_at(truth, start_ns)), cycles)
    assert final.clock == cycles  # pioemu ran every cycle asked (emulate_capture raises too)
    cap = pc.PioCapture(WordFifo(words), stations=7, sysclk_hz=f, mode="fifo")
    edges = []
    while cap.sm.words:
        cap.poll(edges)
    assert cap.lost == 0
    assert cap.levels == levels_at(truth, end_ns)
    return edges, expected


def pio_on_sim_base(edges, k=K, start_ns=0):
    return [(p, start_ns + t * k, pressed) for p, t, pressed in edges]


# --- backend 3: the keypad fallback on the strict fakes -------------------------------


def poll_times(end_ns):
    return list(range(POLL_FIRST_NS, end_ns, POLL_EVERY_NS)) + [end_ns]


def run_keypad(script):
    """Keys on GP2.. scanned every 1 ms by the fake, drained by KeypadCapture at
    every loop poll. The backlight edges are stamped by the CPU when the box
    switches the light, as DeviceBox does on a keypad box (nothing senses GP9)."""
    truth = script.truth()
    with fakes.machine() as world:
        import board
        import keypad
        import supervisor

        from hardware import pins
        from hardware.keypad_capture import INTERVAL_S, KeypadCapture

        assert INTERVAL_S * 1000000000 == SCAN_NS
        stations = pins.STATIONS[: script.players]
        keys = keypad.Keys(
            [pins.pin(board, r) for r in stations], value_when_pressed=False, pull=True, interval=INTERVAL_S
        )
        cap = KeypadCapture(keys, range(1, script.players + 1), supervisor.ticks_ms, world.clock, keypad.Event())
        for p, t, pressed in truth:
            if p != REVEAL:
                world.at(t, pins.gpio(stations[p - 1]), 0 if pressed else None)  # None: let go, pulled up
        out = []
        for n in poll_times(script.end_ns):
            world.advance_to(n)
            cap.poll(out)
        assert cap.lost == 0
    return out + [e for e in truth if e[0] == REVEAL]


def keypad_model(script):
    """What the keypad must report: the levels sampled at every 1 ms scan (a
    change at the very instant of a scan is seen by the next one), an edge for
    each level that differs from the last scan, stamped with the scan's ms and
    converted at the first poll after it: scan ms + the poll's sub-ms phase."""
    truth = script.truth()
    polls = poll_times(script.end_ns)
    down = [False] * (script.players + 1)
    out = []
    for scan in range(SCAN_NS, script.end_ns + 1, SCAN_NS):
        v = levels_at(truth, scan)
        poll = [n for n in polls if n >= scan][0]
        for p in range(1, script.players + 1):
            now = not (v >> (p - 1)) & 1
            if now != down[p]:
                down[p] = now
                out.append((p, scan + poll % MS, now))
    return out + [e for e in truth if e[0] == REVEAL]


# --- the verdict ---------------------------------------------------------------------


def verdict(edges, players, settle_ns=None):
    """Race from a capture stream: the backlight going dark arms the race, going
    on reveals it."""
    race = Race(players)
    for p, t, pressed in edges:
        if p == REVEAL:
            if pressed:
                race.reveal(t)
            else:
                race.arm(t)
        else:
            race.edge(p, t, pressed)
    if settle_ns is not None:
        race.settle(settle_ns)
    return race


def judged(race):
    return {
        "winners": race.winners(),
        "order": [p for p, _ in race.order()],
        "false_starts": race.false_starts(),
        "stuck": race.stuck(),
        "pending": race.pending(),
    }


def check_all(script, f=F125):
    """Every assertion of 'one stream' for a script whose presses are apart enough
    for ms capture: each first contact >= 1 ms after the previous press's last
    bounce closing, false starts >= 2 ms before the reveal. Returns the streams."""
    truth = script.truth()
    end = script.end_ns

    # 1. the sim: exactly the script, to the ns
    sim = run_sim(script)
    assert norm(sim) == truth
    assert [t for _, t, _ in sim] == sorted(t for _, t, _ in sim)  # polled in time order

    # 2. the PIO: the same edges, each at the first sample after it (< one sample late)
    pio, expected = run_pio(truth, f)
    assert norm(pio) == norm(expected)
    assert [t for _, t, _ in pio] == sorted(t for _, t, _ in pio)
    assert seq(pio) == seq(sim)
    period = pc.Decoder(f).t_ns(1)
    for (_, t_sim, _), (_, t_pio, _) in zip(norm(sim), norm(pio)):
        assert 0 <= t_pio * K - t_sim < period * K
    pio_sim = pio_on_sim_base(pio)

    # 3. the keypad: the levels at the 1 ms scans, stamped in ms
    kp = run_keypad(script)
    assert norm(kp) == norm(keypad_model(script))
    for p, t, pressed in kp:
        if p == REVEAL:
            continue
        scan = t // MS * MS
        last = [e for e in truth if e[0] == p and e[1] < scan][-1]  # the level the scan saw
        assert last[2] == pressed
        assert 0 < scan - last[1] <= SCAN_NS  # seen by the next scan
        assert 0 <= t - scan < MS  # plus the poll's sub-ms phase: < 2 ms late in all

    # 4. one verdict
    races = [verdict(s, script.players, end) for s in (sim, pio_sim, kp)]
    j_sim, j_pio, j_kp = [judged(r) for r in races]
    assert j_sim == j_pio == j_kp
    assert j_sim["pending"] == []
    r_sim, r_pio, r_kp = races
    for pr in script.presses:
        p = pr.player
        if r_sim.press_ns(p) != pr.at_ns:
            continue  # not the press that judged p
        rt = r_sim.reaction(p)
        assert rt == pr.at_ns - script.reveal_ns  # exact
        assert abs(r_pio.reaction(p) - rt) < period * K  # both ends within a sample
        assert 0 < r_kp.reaction(p) - rt < 2 * MS + (pr.settled_ns - pr.at_ns)
    return sim, pio, kp, races


# --- the named script ----------------------------------------------------------------

R = 20 * MS
SCRIPT = Script(
    4,
    [
        Press(3, 9100 * US, 15),  # false start, held through the reveal
        Press(2, R + 31450 * US, 40, bounce=2, bounce_us=300),  # first: bounces hidden by the scans
        Press(1, R + 33800 * US, 30, bounce=1, bounce_us=300),  # 1.15 ms after P2 settles
        Press(4, R + 35700 * US, 20, bounce=2, bounce_us=400),  # scans catch its bounces
        Press(4, R + 60300 * US, 6),  # a second press changes nothing
    ],
    [(2 * MS, False), (R, True), (100 * MS, False)],
)


def test_script_is_within_the_pio_cycle_budget():
    cycles = pio_cycle(SCRIPT.truth()[-1][1] + MS, 0, F125, K)
    assert 10000 < cycles < 20000
    edges = [e[1] for e in SCRIPT.truth()]
    assert min(b - a for a, b in zip(edges, edges[1:])) >= 250 * US  # 31 PIO cycles compressed


def test_three_backends_one_stream():
    sim, pio, kp, races = check_all(SCRIPT)
    assert judged(races[0]) == {
        "winners": [2],
        "order": [2, 1, 4],
        "false_starts": [3],
        "stuck": [],
        "pending": [],
    }
    # Sim and PIO report every bounce (4 edges per open/close pair and press).
    # The keypad reports what its 1 ms scans saw: P1's and P2's bounces fall
    # between two scans and vanish; P4's 400 us opens are caught by a scan, so
    # its first press reads down-up-down and its release up-down-up.
    clean = norm(
        [(pr.player, pr.at_ns, True) for pr in SCRIPT.presses]
        + [(pr.player, pr.at_ns + pr.hold_ms * MS, False) for pr in SCRIPT.presses]
        + [(REVEAL, t, on) for t, on in SCRIPT.light]
    )
    assert len(seq(sim)) == len(clean) + 4 * (2 + 1 + 2)
    assert [e for e in seq(kp) if e[0] != 4] == [e for e in seq(clean) if e[0] != 4]
    p4 = [(t // MS, pressed) for p, t, pressed in norm(kp) if p == 4]
    assert p4 == [(56, True), (57, False), (58, True), (76, False), (77, True), (78, False), (81, True), (87, False)]
    # P2 touched at 51.45 ms; the 52 ms scan found it open, the 53 ms scan closed
    assert [t // MS for p, t, _ in norm(kp) if p == 2] == [53, 93]
    assert races[0].margin_ns() == 2350 * US
    # the keypad's margin: scans 53 and 54 ms, drained at polls 53.0 and 54.7 ms
    assert races[2].margin_ns() == 1700 * US


def test_pio_at_150_mhz_too():
    check_all(SCRIPT, F150)


# --- 300 us apart: ordered by sim and PIO, a tie on the keypad ---------------------------


def near_script(p1_ns, reaction_us=80):
    """P1 and P2 press 300 us apart, P1 ``reaction_us`` after the reveal (the
    reaction itself does not matter to capture), held 50 ms."""
    reveal = p1_ns - reaction_us * US
    return Script(2, [Press(1, p1_ns, 50), Press(2, p1_ns + 300 * US, 50)], [(30 * MS, False), (reveal, True)])


def test_300_us_apart_is_ordered_by_sim_and_pio_but_one_keypad_scan_ties_it():
    script = near_script(40100 * US)  # presses at 40.1 and 40.4 ms: both before the 41 ms scan
    truth = script.truth()
    end = script.end_ns
    sim = run_sim(script)
    r_sim = verdict(sim, 2, end)
    assert r_sim.winners() == [1] and r_sim.margin_ns() == 300 * US

    # the PIO at full speed (not compressed): 40.000 .. 40.420 ms = 52,500 cycles
    start, stop = 40000 * US, 40420 * US
    pio, expected = run_pio(truth, F125, k=1, start_ns=start, end_ns=stop)
    assert norm(pio) == norm(expected)
    pio = pio_on_sim_base(pio, k=1, start_ns=start)
    window = [e for e in sim if start < e[1] < stop]
    assert seq(pio) == seq(window) == [(REVEAL, True), (1, True), (2, True)]
    for (_, t_sim, _), (_, t_pio, _) in zip(norm(window), norm(pio)):
        assert 0 <= t_pio - t_sim < 48
    r_pio = verdict(pio, 2)  # no releases in the window: the holds are trusted
    assert r_pio.winners() == [1]
    assert abs(r_pio.margin_ns() - 300 * US) < 48
    assert abs(r_pio.reaction(1) - 80 * US) < 48

    kp = run_keypad(script)
    presses = [e for e in norm(kp) if e[0] != REVEAL and e[2]]
    assert [p for p, _, _ in presses] == [1, 2]
    assert presses[0][1] == presses[1][1]  # the same scan stamp (41 ms): the same t_ns
    assert presses[0][1] // MS == 41
    r_kp = verdict(kp, 2, end)
    assert r_kp.winners() == [1, 2]  # a tie: ms precision
    assert r_kp.margin_ns() is None
    assert r_kp.reaction(1) == r_kp.reaction(2)


def test_300_us_apart_across_a_scan_is_ordered_by_a_whole_ms():
    # 40.8 and 41.1 ms: the 41 ms scan falls between them. The reveal is 0.5 ms
    # before, so that compressed 1000x it stays out of the PIO's blind time.
    script = near_script(40800 * US, reaction_us=500)
    end = script.end_ns
    r_sim = verdict(run_sim(script), 2, end)
    r_kp = verdict(run_keypad(script), 2, end)
    assert r_sim.winners() == r_kp.winners() == [1]
    assert r_sim.margin_ns() == 300 * US
    # scans 41 and 42 ms, drained by the polls at 41.1 and 42.8 ms: 0.3 ms reads 1.7 ms
    assert r_kp.margin_ns() == 1700 * US
    r_pio = verdict(pio_on_sim_base(run_pio(script.truth(), F125)[0]), 2, end)  # compressed
    assert r_pio.winners() == [1] and abs(r_pio.margin_ns() - 300 * US) < 48 * K


# --- where the keypad's verdict differs (and why) ------------------------------------------


def verdicts(script, f=F125):
    end = script.end_ns
    sim = run_sim(script)
    assert norm(sim) == script.truth()
    pio, expected = run_pio(script.truth(), f)
    assert norm(pio) == norm(expected)
    return [verdict(s, script.players, end) for s in (sim, pio_on_sim_base(pio), run_keypad(script))]


def test_a_bounce_train_longer_than_a_scan_can_reorder_keypad_presses():
    # P1 touches at 39.5 ms and bounces open 39.9-40.3 and 40.7-41.1 ms: the 40 and
    # 41 ms scans both see it open, the 42 ms scan closed. P2 presses cleanly at
    # 40.5 ms, 1 ms after P1's first contact but before P1 settled (41.1 ms).
    script = Script(
        2,
        [Press(1, 39500 * US, 20, bounce=2, bounce_us=400), Press(2, 40500 * US, 20)],
        [(30 * MS, False), (35 * MS, True)],
    )
    r_sim, r_pio, r_kp = verdicts(script)
    assert r_sim.winners() == r_pio.winners() == [1]  # timed at the first contact
    assert r_sim.margin_ns() == MS
    assert r_kp.winners() == [2]  # the keypad saw P2 at 41 ms, P1 at 42 ms
    assert r_kp.press_ns(2) // MS == 41 and r_kp.press_ns(1) // MS == 42


def test_a_sub_ms_contact_is_a_glitch_unless_a_keypad_scan_catches_it():
    def tap(tap_ns):
        # P1 touches for 0.4 ms (a glitch: < 1 ms), P2 presses properly 2 ms later
        return Script(2, [Tap(1, tap_ns, 400), Press(2, tap_ns + 2 * MS, 20)], [(30 * MS, False), (35 * MS, True)])

    for tap_ns, kp_down_ns in (
        (50100 * US, None),  # 50.1-50.5 ms: between two scans, the keypad never sees it
        (50800 * US, 700 * US),  # scans 51 (down) and 52 (up), polled at 51.3 and 53.0 ms
        (51800 * US, MS),  # scans 52 (down) and 53 (up), both drained by the 53.0 ms poll
    ):
        r_sim, r_pio, r_kp = verdicts(tap(tap_ns))
        assert r_sim.winners() == r_pio.winners() == [2]
        assert r_sim.status(1) == r_pio.status(1) == "none"  # shorter than glitch_ns: ignored
        if kp_down_ns is None or kp_down_ns < r_kp.glitch_ns:
            assert r_kp.winners() == [2]
        else:
            # what the keypad measured as a 1 ms press counts, and wins
            assert r_kp.winners() == [1] and r_kp.press_ns(1) == 52 * MS


# --- property: random scripts --------------------------------------------------------------

U = 250 * US  # every scripted instant is on a 250 us grid: >= 31 PIO cycles apart compressed


@st.composite
def scripts(draw):
    players = draw(st.integers(2, 4))
    offset = draw(st.sampled_from([0, 37 * US]))  # on or off the keypad's scan instants
    dark = 2 * MS + offset
    count = draw(st.integers(2, 7))
    reveal_at = draw(st.integers(0, count))  # presses before it are false starts
    presses = []
    free = {}  # player -> when their last press has fully let go
    prev = None
    cursor = dark + MS  # earliest next first contact
    reveal = None
    for i in range(count + 1):
        if i == reveal_at:
            reveal = cursor + MS + draw(st.integers(0, 8)) * U  # >= 2 ms after every settle
            cursor = reveal + draw(st.integers(0, 8)) * U
            prev = None  # no tie across the reveal
        if i == count:
            break
        if prev is not None and draw(st.integers(0, 3)) == 0:
            # a tie: the same instant and the same bounce, so the same levels at every scan
            at, bounce, bounce_us = prev.at_ns, prev.bounce, prev.bounce_us
        else:
            at = cursor + draw(st.integers(0, 16)) * U
            bounce, bounce_us = draw(st.integers(0, 3)), draw(st.sampled_from([250, 500, 750]))
        up = [p for p in range(1, players + 1) if free.get(p, 0) + MS <= at]
        if not up:
            continue  # every button is still down
        press = Press(draw(st.sampled_from(up)), at, draw(st.integers(5, 12)), bounce, bounce_us)
        presses.append(press)
        free[press.player] = press.edges()[-1][1]
        prev = press
        cursor = max(cursor, press.settled_ns + MS)
    last = max([pr.edges()[-1][1] for pr in presses] + [reveal])
    light = [(dark, False), (reveal, True), (last + MS, False)]
    return Script(players, presses, light), draw(st.sampled_from([F125, F150]))


@settings(max_examples=20, derandomize=True, deadline=None)
@given(scripts())
def test_random_scripts_one_stream(case):
    script, f = case
    check_all(script, f)
