"""The simulated box: scripted presses, bounce trains, gestures on virtual time,
rings through PixelBuf, screen text and PNGs."""
import pygame
import pytest

from hardware.sim import KEY_MIN_MS, SimTable
from referee import palette
from referee.arbiter import GLITCH_NS
from referee.box import REVEAL
from referee.gestures import CHORD, HOLD, TAP, Gestures

MS = 1000000


def record_gestures(table):
    seen = []
    real = table.app._route

    def spy(player, kind, count, now):
        seen.append((player, kind, count))
        return real(player, kind, count, now)

    table.app._route = spy
    return seen


def spy_poll(table):
    """Record every edge the app polls from the simulated capture."""
    got = []
    real_poll = table.box.poll

    def poll():
        edges = real_poll()
        got.extend(edges)
        return edges

    table.box.poll = poll
    return got


def test_press_makes_exact_edges_with_bounce():
    t = SimTable(players=2)
    got = spy_poll(t)
    t.press(1, at_ns=10 * MS + 123, hold_ms=100, bounce=2, bounce_us=300)
    t.advance(200)
    mine = [e for e in got if e[0] == 1]
    assert mine[0] == (1, 10 * MS + 123, True)
    assert len(mine) == 2 + 4 * 2  # press, 2 bounce pairs in, 2 bounce pairs out, release
    assert [e[1] for e in mine] == sorted(e[1] for e in mine)
    assert mine[-1][2] is False


def test_cannot_press_in_the_past_or_a_missing_station():
    t = SimTable(players=2)
    t.advance(10)
    with pytest.raises(ValueError):
        t.press(1, at_ns=0)
    with pytest.raises(ValueError):
        t.press(9)


def test_tap_double_tap_and_hold_on_virtual_time():
    t = SimTable(players=3)
    seen = record_gestures(t)
    t.tap(1)
    t.tap(2, count=2)
    t.hold(3)
    assert (1, TAP, 1) in seen
    assert (2, TAP, 2) in seen
    assert (3, HOLD, 0) in seen
    assert not any(k == HOLD for p, k, c in seen if p in (1, 2))


def test_bouncy_tap_is_still_one_tap():
    t = SimTable(players=2)
    seen = record_gestures(t)
    t.press(1, hold_ms=90, bounce=3, bounce_us=400)
    t.advance(600)
    assert [g for g in seen if g[0] == 1] == [(1, TAP, 1)]


def test_a_window_key_pressed_and_released_in_one_frame_is_still_a_tap():
    # the window reads key down and up from one batch of events: same instant
    t = SimTable(players=2)
    seen = record_gestures(t)
    got = spy_poll(t)
    t.advance(10)
    t.key(1, True, min_ms=KEY_MIN_MS)
    t.key(1, False, min_ms=KEY_MIN_MS)
    t.advance(500)
    assert [g for g in seen if g[0] == 1] == [(1, TAP, 1)]
    mine = [e for e in got if e[0] == 1]
    assert mine[1][1] - mine[0][1] == KEY_MIN_MS * MS > 2 * GLITCH_NS
    t.key(2, True, min_ms=KEY_MIN_MS)
    t.advance(300)
    t.key(2, False, min_ms=KEY_MIN_MS)  # a real hold keeps its own length
    t.advance(500)
    assert [e for e in got if e[0] == 2][-1][1] == t.now - 500 * MS


def test_two_buttons_pressed_together_and_held_three_seconds_is_a_chord():
    g = Gestures(4)
    g.edge(1, 0, True)
    g.edge(2, 5 * MS, True)
    assert not any(k == CHORD for _, k, _ in g.update(2500 * MS))  # 2.5 s: ordinary play
    assert (0, CHORD, 2) in list(g.update(3006 * MS))
    assert not any(k == CHORD for _, k, _ in g.update(3100 * MS))  # once only


def test_no_chord_from_buttons_pressed_apart_or_off_the_table():
    g = Gestures(7)
    g.seats = 4  # a 4-player game
    g.edge(6, 0, True)  # a station nobody sits at
    g.edge(1, 0, True)
    assert not any(k == CHORD for _, k, _ in g.update(5000 * MS))
    g.edge(2, 5400 * MS, True)  # 5.4 s after P1: not "together"
    assert not any(k == CHORD for _, k, _ in g.update(9000 * MS))
    g.edge(1, 9100 * MS, False)
    g.edge(1, 9200 * MS, True)  # P1 again: P2 went down 3.8 s before, still no chord
    g.edge(3, 9400 * MS, True)  # P3 0.2 s after P1's new press: a chord
    assert not any(k == CHORD for _, k, _ in g.update(12300 * MS))
    assert (0, CHORD, 3) in list(g.update(12400 * MS))
    g.edge(3, 12500 * MS, False)  # a release ends it; the two still down start none
    assert not any(k == CHORD for _, k, _ in g.update(20000 * MS))


def test_a_chord_begun_before_a_reset_does_not_pause_what_follows():
    g = Gestures(4)
    g.edge(1, 0, True)
    g.edge(2, 5 * MS, True)
    g.reset()  # a screen change (a match starts) with both still down
    assert not any(k == CHORD for _, k, _ in g.update(3100 * MS))
    g.edge(3, 3200 * MS, True)  # a third button joins the two held ones: no new chord either
    assert not any(k == CHORD for _, k, _ in g.update(7000 * MS))


def test_the_pause_chord_begun_at_the_launcher_does_not_pause_the_match_it_starts():
    t = SimTable(players=2, seed=3)
    t.advance(20)
    t.press(1, hold_ms=6000)  # two players hold their buttons at the launcher...
    t.press(2, at_ns=t.now + 100 * MS, hold_ms=6000)
    t.advance(1000)
    g = t.start("reaction", rounds=3)  # ...and a match starts within 3 s
    t.advance(4000)
    assert t.app.mode == "game" and t.game is g
    t.advance(2000)  # released; a chord made in the match still pauses it
    t.press(1, hold_ms=3500)
    t.press(2, at_ns=t.now + 100 * MS, hold_ms=3500)
    t.advance(3500)
    assert t.app.mode == "pause"


def test_reveal_edge_comes_back_through_capture_with_its_time():
    t = SimTable(players=2)
    got = spy_poll(t)
    t.advance(4)
    t.box.reveal(False)
    when = t.now + 1  # the light switches after the loop pass read its clock
    t.advance(4)
    assert (REVEAL, when, False) in got
    assert t.box.backlight is False
    assert t.screen_text() == ""  # nothing is visible with the backlight off


def _reaction_round(press_at=None):
    """A reaction test round: (game, the reveal's captured time); ``press_at``:
    P1 presses at that time (scheduled before the match starts)."""
    t = SimTable(players=2, seed=4)
    got = spy_poll(t)
    if press_at is not None:
        t.press(1, at_ns=press_at, hold_ms=100)
    g = t.start("reaction", seed=9, rounds=3)
    assert t.advance_until(lambda: g.phase_name() == "open", 20000)
    t.advance(200)
    reveal = [e[1] for e in got if e[0] == REVEAL and e[2]]
    return g, reveal[-1]


def test_a_press_at_the_reveal_nanosecond_is_valid_in_the_simulator_too():
    # docs/arbitration.md: a press at the reveal instant (reaction 0) is not early. The
    # game settles the race at its loop time before it switches the light on; on the
    # box the light's edge is captured after that, and so it is in the simulator
    _, reveal = _reaction_round()
    g, again = _reaction_round(press_at=reveal)
    assert again == reveal  # the same match up to the reveal
    assert g.race.false_starts() == [] and g.race.reaction(1) == 0
    assert g.race.status(1) == "valid" and g.race.winners() == [1]
    g, _ = _reaction_round(press_at=reveal - 1)  # a nanosecond before the light: early
    assert g.race.false_starts() == [1]


def test_rings_are_recorded_through_pixelbuf_with_the_brightness_cap():
    t = SimTable(players=2, settings={"REFEREE_BRIGHTNESS": "50"})
    t.box.rings.set(1, 1, 0xFF0000)  # SOLID red
    t.advance(4)
    assert t.ring(1) == [(127, 0, 0)] * 12 or t.ring(1) == [(128, 0, 0)] * 12
    assert t.box.pixels.frames >= 1


def test_a_ring_set_renders_only_that_ring():
    """On the box every pixel written and every ring rendered is time in the pass that
    lights a race's winner: an update after one ring's ``set`` touches that ring only."""
    from referee import rings

    class Strip(list):
        writes = 0

        def __setitem__(self, i, c):
            Strip.writes += len(c) if isinstance(i, slice) else 1  # pixels written
            list.__setitem__(self, i, c)

        def show(self):
            pass

    px = Strip([0] * 7 * 12)
    r = rings.Rings(px, 7)
    r.rest(7)
    r.set(3, rings.PULSE, 0x00FF00)
    assert r.update(0) and Strip.writes == 84
    Strip.writes = 0
    rendered = []
    uniform = r._uniform
    r._uniform = lambda mode, color, phase: rendered.append(color) or uniform(mode, color, phase)
    r.set(1, rings.FLASH, 0xFF0000, now_ns=10)
    assert r.update(10) and Strip.writes == 12  # ring 1's pixels, nothing else written
    assert rendered == [0xFF0000, 0x00FF00]  # ring 1 and the pulsing ring 3: the still rings not at all
    assert r.colors(1) == [0xFF0000] * 12 and r.colors(2) == [palette.scale(palette.station(2), 60)] * 12

def test_launcher_text_and_png(tmp_path):
    t = SimTable(players=4)
    t.advance(10)
    text = t.screen_text()
    assert "Choose a game" in text and "Reaction test" in text
    path = t.save_png(str(tmp_path / "launcher.png"))
    img = pygame.image.load(path)
    assert img.get_width() >= 320 and img.get_height() >= 240
    # the screen area is not blank: the title is drawn in the warning colour
    colours = {tuple(img.get_at((x, y)))[:3] for x in range(16, 336, 4) for y in range(16, 60, 2)}
    assert len(colours) > 2


def feed(g, events):
    """Feed (ms, player, pressed) edges; return gestures seen at each ms step."""
    seen = []
    t = 0
    for at_ms, p, pressed in events:
        while t < at_ms:
            t += 1
            seen.extend((t,) + x for x in g.update(t * MS))
        g.edge(p, at_ms * MS, pressed)
    for _ in range(1500):
        t += 1
        seen.extend((t,) + x for x in g.update(t * MS))
    return seen


def test_gestures_are_timed_by_edge_times_not_by_the_loop():
    g = Gestures(2)
    # a tap whose edges both arrive in one late loop pass still counts from its press
    g.edge(1, 10 * MS, True)
    g.edge(1, 90 * MS, False)
    assert g.update(200 * MS) == []
    assert g.update(340 * MS) == [(1, TAP, 1)]  # 250 ms after the release edge
    # a hold whose release arrives before any loop pass saw it held is still a hold
    g.edge(2, 400 * MS, True)
    g.edge(2, 1100 * MS, False)
    assert g.update(1101 * MS) == [(2, HOLD, 0)]
    assert g.update(2000 * MS) == []


def test_gestures_double_tap_then_hold_and_chatter():
    g = Gestures(1)
    seen = feed(g, [(10, 1, True), (12, 1, False), (13, 1, True), (80, 1, False),  # chatter in
                    (81, 1, True), (83, 1, False),  # chatter out
                    (200, 1, True), (260, 1, False)])
    assert [x[1:] for x in seen] == [(1, TAP, 2)]
    g = Gestures(1)
    seen = feed(g, [(10, 1, True), (70, 1, False), (150, 1, True)])
    assert [x[1:] for x in seen] == [(1, HOLD, 1)] and seen[0][0] == 750
    g = Gestures(1)
    seen = feed(g, [(10, 1, True), (13, 1, False)])  # a 3 ms contact is no press
    assert seen == []


def test_one_press_decoder_one_bounce_rule():
    from referee.gestures import BOUNCE_NS, DOWN, NOTHING, SHORT, UP, Presses

    k = Presses(2)
    assert k.edge(1, 10 * MS, True) == DOWN and k.at[1] == 10 * MS and k.on(1)
    assert k.edge(1, 11 * MS, True) == NOTHING  # a repeated level (an edge lost between)
    assert k.edge(1, 12 * MS, False) == SHORT and not k.on(1)  # 2 ms: too short to be a press...
    assert k.edge(1, 13 * MS, True) == DOWN and k.at[1] == 10 * MS  # ...but chatter resumes it from its first edge
    assert k.edge(1, 80 * MS, False) == UP and k.up[1] - k.at[1] == 70 * MS
    assert k.edge(1, 81 * MS, True) == NOTHING and not k.on(1)  # chatter of the release: the press stays ended
    assert k.edge(1, 83 * MS, False) == NOTHING
    assert k.edge(1, 83 * MS + BOUNCE_NS, True) == DOWN and k.at[1] == 83 * MS + BOUNCE_NS  # a new press
    assert k.edge(1, 84 * MS + BOUNCE_NS, False) == SHORT
    assert k.edge(1, 100 * MS + BOUNCE_NS, True) == DOWN and k.at[1] == 100 * MS + BOUNCE_NS  # the short one was nothing
    assert k.down == [False, True] and k.at[0] < 0  # each button its own


def test_reset_swallows_a_press_that_is_down():
    g = Gestures(1)
    g.edge(1, 10 * MS, True)
    g.reset()
    assert g.update(900 * MS) == []  # no hold from the press the screen change swallowed
    g.edge(1, 950 * MS, False)
    assert g.update(1300 * MS) == []
    g.edge(1, 1400 * MS, True)
    g.edge(1, 1460 * MS, False)
    assert g.update(1800 * MS) == [(1, TAP, 1)]


def test_gestures_need_no_adafruit_debouncer():
    import referee.gestures

    src = open(referee.gestures.__file__).read()
    assert "adafruit_debouncer" not in src and "adafruit_ticks" not in src
