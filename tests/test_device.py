"""The real box built on strict fakes of the machine modules, with the real libraries.

``hardware.device`` is imported afresh against ``tests/fakes`` (board, digitalio,
rp2pio, keypad, microcontroller, watchdog, supervisor, storage, pwmio, busio,
fourwire, neopixel_write) while the Adafruit libraries are the real ones:
``adafruit_st7789`` on Blinka's ``busdisplay`` (it really renders and sends
pixels to the fake bus), ``neopixel`` + ``adafruit_pixelbuf``,
``adafruit_debouncer`` + ``adafruit_ticks`` (reading the fake
``supervisor.ticks_ms``), ``adafruit_display_text``. Time is the fake world's
virtual clock; buttons are levels the world drives on the pins.
"""

import os
import sys

import fakes
import pytest

from referee import shown

MS = 1000000
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class _NoSleep:
    """Blinka's BusDisplay sleeps through the init sequence; the fake panel needs no wait."""

    @staticmethod
    def sleep(s):
        pass

    @staticmethod
    def monotonic():
        return 0.0


def _release_blinka_displays():
    import displayio

    displayio.release_displays()
    pc = sys.modules.get("pc.display")
    if pc is not None:
        pc._display[0] = None  # the simulator makes a new one when it next renders


@pytest.fixture
def world(monkeypatch):
    _release_blinka_displays()
    import busdisplay

    monkeypatch.setattr(busdisplay, "time", _NoSleep)
    with fakes.machine() as w:
        w.jumpers[9] = 22  # the REVEAL jumper from the backlight GPIO
        yield w
    _release_blinka_displays()


def build(world, env=None, no_pio=False):
    if no_pio:
        sys.modules["rp2pio"] = None  # a board without PIO: `import rp2pio` fails
    from hardware import device

    env = dict(env or {})
    return device.Device(getenv=env.get, clock=world.clock)


def run(world, dev, ms, step_ms=2):
    end = world.now_ns + ms * MS
    while world.now_ns < end:
        world.advance_to(min(end, world.now_ns + step_ms * MS))
        dev.step()


def record_edges(dev):
    """Every edge the box hands the app from now on."""
    seen = []
    poll = dev.box.poll

    def recording():
        out = poll()
        seen.extend(out)
        return out

    dev.box.poll = recording
    return seen


# --- building the box ---------------------------------------------------------------


def test_pin_plan_is_sound_and_is_what_the_box_claims(world):
    from hardware import pins
    from pc import pin_plan

    assert pin_plan.check() == []
    assert [pins.gpio(r) for r in pins.CAPTURE] == list(range(2, 10))
    dev = build(world)
    owners = dict(world.claimed)
    assert {n for n in range(2, 10)} == {n for n, o in owners.items() if o == "rp2pio"}
    assert owners[pins.gpio("TFT_LITE")] == "digitalio"  # the backlight: a plain GPIO
    assert owners[pins.gpio("NEOPIXEL")] == "digitalio"  # neopixel's DigitalInOut
    assert owners[pins.gpio("PIEZO")] == "pwmio"
    assert owners[pins.gpio("MENU")] == "keypad"
    assert {owners[pins.gpio(r)] for r in ("TFT_CS", "TFT_DC", "TFT_RST")} == {"fourwire"}
    assert {owners[pins.gpio(r)] for r in ("TFT_SCK", "TFT_MOSI")} == {"busio.SPI"}
    planned = {pins.gpio(r[0]) for r in pin_plan.PINS}
    assert set(owners) == planned
    assert dev.box.capture_name == "pio"
    assert dev.box.precision_ns == 48  # one PIO sample at 125 MHz


def test_the_display_is_initialised_and_shows_the_launcher(world):
    dev = build(world)
    bus = dev.display._core._bus
    assert bus.commands[:6] == [0x01, 0x11, 0x3A, 0x36, 0x13, 0x29]  # ST7789 init: reset, wake, ..., on
    assert dev.display.width == 320 and dev.display.height == 240
    assert dev.display.root_group is dev.app.launcher.root
    assert bus.pixel_bytes >= 320 * 240 * 2  # a whole frame went out at build
    assert dev.display.auto_refresh is False  # the loop refreshes, at most ~30 fps
    run(world, dev, 100)  # (Blinka sends the labels' areas once more after a full frame)
    before = bus.pixel_bytes
    run(world, dev, 300)
    assert bus.pixel_bytes == before  # nothing changes on screen, nothing is sent
    dev.app.launcher.menu.tap(1)
    dev.app.launcher._draw()
    run(world, dev, 40)
    assert 0 < bus.pixel_bytes - before < 320 * 240 * 2  # only the changed rows


def test_rings_are_capped_and_written_through_neopixel(world):
    dev = build(world, {"REFEREE_BRIGHTNESS": "25", "REFEREE_PLAYERS": "3"})
    run(world, dev, 4)
    t, gpio, data = world.neopixel_frames[-1]
    assert gpio == 16 and len(data) == 7 * 12 * 3
    assert max(data) <= 255 * 25 // 100 + 1
    lit = [any(data[i:i + 36]) for i in range(0, len(data), 36)]
    assert lit == [True] * 7  # the launcher lights every station
    dev.app.launch("reaction", 3)
    run(world, dev, 4)
    data = world.neopixel_frames[-1][2]
    assert [any(data[i:i + 36]) for i in range(0, len(data), 36)] == [True] * 3 + [False] * 4


def test_a_write_sends_the_strip_only_up_to_the_last_ring_that_changed(world):
    # (hardware.device.Strip: seat 1's ring alone is 36 bytes, 0.36 ms at 800 kHz, not 2.5 ms;
    # the pixels after the last bit sent keep their colour)
    from referee import rings

    dev = build(world, {"REFEREE_PLAYERS": "3"})
    run(world, dev, 4)
    assert len(world.neopixel_frames[-1][2]) == 7 * 12 * 3  # the launcher: every ring
    r = dev.app.box.rings
    r.set(1, rings.SOLID, 0xFF0000)
    r.update(0)
    assert len(world.neopixel_frames[-1][2]) == 12 * 3
    r.set(3, rings.SOLID, 0x00FF00)
    r.update(0)
    data = world.neopixel_frames[-1][2]
    assert len(data) == 3 * 12 * 3 and any(data[:36]) and any(data[72:])  # ring 1 sent again as it is


def test_bad_settings_fall_back_with_messages_on_screen(world):

    dev = build(world, {"REFEREE_PLAYERS": "9", "REFEREE_ROTATION": "45", "REFEREE_SOUND": "maybe"})
    msgs = dev.settings.messages
    assert len(msgs) == 3
    assert dev.settings["players"] == 4 and dev.settings["sound"] is True
    assert dev.display.rotation == 90
    seen = []
    for page in range(3):  # every message on the screen, a page each, at scale 2
        text = shown.screen_text(dev.display.root_group)
        assert "Settings " + str(page + 1) + "/3" in text
        seen.append(text)
        assert dev.app.notice.body.scale == 2
        world.press(2, at_ns=world.now_ns + MS, hold_ns=80 * MS)  # P1 taps: next
        run(world, dev, 400, step_ms=5)
    assert "REFEREE_PLAYERS" in seen[0] and "REFEREE_SOUND" in seen[1] and "REFEREE_ROTATION" in seen[2]
    assert "using 4" in seen[0] and "serial" not in " ".join(seen)
    assert dev.app.mode == "launcher"
    assert "Bad settings: defaults" in shown.screen_text(dev.display.root_group)


def test_one_bad_setting_is_shown_as_is(world):

    dev = build(world, {"REFEREE_ROTATION": "45"})
    text = shown.screen_text(dev.display.root_group)
    assert "Settings\n" in text and "1/" not in text
    assert "REFEREE_ROTATION=\"45\": must be 90, 270; using 90" in text.replace("\n", " ")
    dev = None


def test_rotation_setting(world):
    dev = build(world, {"REFEREE_ROTATION": "270"})
    assert dev.display.rotation == 270 and dev.display.width == 320


# --- capture --------------------------------------------------------------------------


def test_a_press_becomes_an_edge_timed_by_the_pio_sample(world):
    dev = build(world)
    seen = record_edges(dev)
    run(world, dev, 10)
    sm = world.state_machines[0]
    t_press = world.now_ns + 3 * MS + 17  # P3 = GP4
    world.press(4, at_ns=t_press, hold_ns=90 * MS)
    run(world, dev, 200)
    presses = [e for e in seen if e[0] == 3]
    assert len(presses) == 2
    (p, t_down, down), (_, t_up, up) = presses
    assert down is True and up is False
    assert 0 <= t_down - t_press < 48  # within one 48 ns sample, never before the press
    assert 0 <= t_up - (t_press + 90 * MS) < 48
    assert sm.pushed >= 3 and sm.dropped == 0
    assert dev.box.lost == 0


def test_fake_words_decode_with_pio_capture_decode(world):
    """The fake state machine's encoder (written from the documented format) and the
    project's decoder agree, wrap words included."""
    import board
    import rp2pio  # noqa: F401

    from hardware import pio_capture

    sm = pio_capture.make_state_machine(board.GP2)
    world.press(3, at_ns=30 * MS, hold_ns=100 * MS)  # P2, across two 50 ms counter wraps
    world.advance(200)
    words = []
    buf = __import__("array").array("I", [0])
    while sm.in_waiting:
        sm.readinto(buf)
        words.append(buf[0])
    edges = pio_capture.decode(words, 125000000)
    assert [(i, lvl) for i, _, lvl in edges] == [(1, 0), (1, 1)]
    assert 0 <= edges[0][1] - 30 * MS < 48 and 0 <= edges[1][1] - 130 * MS < 48
    assert len(words) == 1 + 2 + 3  # word 0, two edges, three wraps (each 2**20 * 48 ns)


def test_the_reveal_comes_back_through_the_jumper(world):
    dev = build(world)
    seen = record_edges(dev)
    run(world, dev, 10)
    dev.box.reveal(False)
    t_off = world.now_ns
    run(world, dev, 50)
    dev.box.reveal(True)
    t_on = world.now_ns
    run(world, dev, 50)
    reveal = [e for e in seen if e[0] == 0]
    assert [e[2] for e in reveal] == [False, True]
    # dark at once; the light one panel frame after the refresh that drew the stimulus
    # (the next loop pass's), so the stimulus is on the glass when it is lit (no
    # reaction time inflated)
    from hardware.device import PANEL_FRAME_NS

    assert 0 <= reveal[0][1] - t_off < 48
    assert 0 <= reveal[1][1] - (t_on + PANEL_FRAME_NS) < 4 * MS + 48
    assert dev.box.reveal_fallbacks == 0


def test_the_light_waits_one_panel_frame_after_the_refresh(world):
    dev = build(world)
    refreshed = []
    real = dev.display.refresh
    dev.display.refresh = lambda *a, **k: (refreshed.append(world.now_ns), real(*a, **k))[1]
    run(world, dev, 10)
    dev.box.reveal(False)
    run(world, dev, 50)
    from hardware import pins

    lite = pins.gpio("TFT_LITE")
    assert not world.level(lite)
    del refreshed[:]
    dev.box.reveal(True)
    assert not refreshed  # asked for: the next pass draws and sends what waits
    run(world, dev, 2)
    assert refreshed and not world.level(lite)  # drawn, still dark
    run(world, dev, 30)
    assert not world.level(lite)
    run(world, dev, 10)
    assert world.level(lite)  # lit 35 ms after the refresh
    dev.box.reveal(False)
    dev.box.reveal(True)
    dev.box.reveal(False)  # off again before the frame passed: it never lights
    run(world, dev, 50)
    assert not world.level(lite)


class Stuck:
    """A paced change that is drawn only by a flush (a whole screen's budget)."""

    _todo = False

    def _draw(self, budget_px, first=True):
        self._todo = budget_px < 1 << 30
        return 0 if not self._todo else budget_px


def test_a_light_asked_for_while_paced_changes_wait_comes_once_they_are_drawn_a_part_a_pass(world):
    # The stimulus is drawn as every change in a match is, a part a pass (referee.pace),
    # not at once in one long pass; the collection before the light is a pass of its own;
    # the light one panel frame after the last part was sent.
    from hardware import pins
    from hardware.device import LIGHT_WAIT_NS, PANEL_FRAME_NS
    from referee import pace, screen

    dev = build(world)
    run(world, dev, 10)
    dev.box.reveal(False)
    run(world, dev, 10)
    lite = pins.gpio("TFT_LITE")
    group = dev.display.root_group
    words = [screen.text("", 4, 4 + 20 * i, 2) for i in range(8)]
    for w in words:
        group.append(w)
    steps = []
    real_step = pace.step
    flushed = []
    real_flush = pace.flush
    pace.step = lambda *a: steps.append(real_step(*a)) or steps[-1]
    pace.flush = lambda: (flushed.append(world.now_ns), real_flush())
    try:
        pace.start()
        for i, w in enumerate(words):
            w.text = "STIMULUS %d" % i
        dev.box.reveal(True)
        t_ask = world.now_ns
        lit_at = None
        while lit_at is None and world.now_ns - t_ask < 400 * MS:
            run(world, dev, 2)
            if world.level(lite):
                lit_at = world.now_ns
        assert lit_at is not None and not flushed
        word = 10 * screen.CHAR_W * 2 * screen.CHAR_H * 2  # one text's whole box
        assert len(steps) >= 8 and max(steps) <= 2 * word  # a part a pass (a grid widened: its box, twice)
        assert not pace.pending() and [w.text for w in words] == ["STIMULUS %d" % i for i in range(8)]
        assert lit_at - t_ask >= PANEL_FRAME_NS + len(steps) * 2 * MS  # after the parts, a frame
        # changes made after the light was asked for do not hold it back (a bot's note,
        # a score): lit once what was asked before it is drawn, nothing flushed
        dev.box.reveal(False)
        run(world, dev, 10)
        for i, w in enumerate(words):
            w.text = "AGAIN %d" % i
        dev.box.reveal(True)
        t_ask = world.now_ns
        k = 0
        while not world.level(lite) and world.now_ns - t_ask < LIGHT_WAIT_NS + 200 * MS:
            k += 1
            words[k % 8].text = "CHANGING %d" % k
            run(world, dev, 2)
        assert world.level(lite) and not flushed and world.now_ns - t_ask < LIGHT_WAIT_NS // 2
        assert pace.pending()  # the later changes still wait their turn
        # a change before the light that is never done drawing: after LIGHT_WAIT_NS all is
        # drawn at once, and lit
        dev.box.reveal(False)
        run(world, dev, 10)
        real_flush()
        stuck = Stuck()
        screen.draw_later(stuck)
        dev.box.reveal(True)
        t_ask = world.now_ns
        while not world.level(lite) and world.now_ns - t_ask < LIGHT_WAIT_NS + 200 * MS:
            run(world, dev, 2)
        assert world.level(lite) and len(flushed) == 1 and not stuck._todo
        assert LIGHT_WAIT_NS <= flushed[0] - t_ask < LIGHT_WAIT_NS + 4 * MS
    finally:
        pace.step = real_step
        pace.flush = real_flush
        pace.stop()


def test_a_new_screen_is_drawn_in_the_pass_that_built_it(world):
    # a launch loads the game, builds its screen and draws it in one step (timed apart by
    # tools/firmware_check.py): the match's first pass does not redraw the whole panel
    dev = build(world)
    run(world, dev, 10)
    drawn = []
    real = dev.display.refresh
    dev.display.refresh = lambda *a, **k: (drawn.append(dev.display.root_group), real(*a, **k))[1]
    game = dev.app.launch("reaction", 2)
    assert drawn and drawn[-1] is game.root is dev.display.root_group


def test_without_the_jumper_the_box_times_the_reveal_itself_and_says_so(world, capsys):
    world.jumpers.clear()
    dev = build(world)
    seen = record_edges(dev)
    run(world, dev, 10)
    dev.box.reveal(False)
    t_off = world.now_ns
    run(world, dev, 50)
    assert [e for e in seen if e[0] == 0] == [(0, t_off, False)]
    assert dev.box.reveal_fallbacks == 1
    assert "is the jumper from GP22 fitted?" in capsys.readouterr().out


def test_a_reaction_round_is_judged_from_captured_times(world):
    dev = build(world, {"REFEREE_PLAYERS": "2"})
    seen = record_edges(dev)
    game = dev.app.launch("reaction", 2, options={"rounds": 3})
    while game.phase_name() != "open":
        run(world, dev, 2)
    run(world, dev, 40)  # the light comes on one panel frame after the refresh
    reveal = [e for e in seen if e[0] == 0 and e[2]][-1][1]
    world.press(2, at_ns=reveal + 200 * MS + 5, hold_ns=80 * MS)  # P1 (GP2) after 200 ms
    world.press(3, at_ns=reveal + 230 * MS, hold_ns=80 * MS)  # P2 after 230 ms
    run(world, dev, 300)
    assert game.phase_name() == "result"
    assert game.race.winners() == [1]
    order = game.race.order()
    assert order[0][0] == 1 and 200 * MS <= order[0][1] < 200 * MS + 48 + 5
    assert order[1][0] == 2 and 230 * MS <= order[1][1] < 230 * MS + 48
    assert game.wins[1:] == [1, 0]


def test_without_the_jumper_a_press_before_the_dark_phase_is_no_false_start(world):
    # the dark edge comes back 20 ms late (CPU-timed fallback); the race must not
    # judge a press made while the screen still said GET READY as a false start
    from referee import rings

    world.jumpers.clear()
    dev = build(world, {"REFEREE_PLAYERS": "2"})
    game = dev.app.launch("reaction", 2, options={"rounds": 3})
    run(world, dev, 4)
    assert game.phase_name() == "ready"
    world.press(2, at_ns=game.until - 300 * MS, hold_ns=100 * MS)  # P1, let go before dark
    while game.phase_name() != "dark":
        run(world, dev, 2)
    run(world, dev, 40)  # past the 20 ms fallback
    assert dev.box.reveal_fallbacks >= 1
    assert game.race.false_starts() == [] and game.flagged == []
    assert dev.box.rings.mode(1) != rings.BLINK


def test_fifo_overflow_voids_the_round(world):
    world.background_read = False  # a build without background_read: an 8-word FIFO
    dev = build(world, {"REFEREE_PLAYERS": "2"})
    cap = dev.box.capture
    assert cap.mode == "fifo"
    game = dev.app.launch("reaction", 2)
    while game.phase_name() != "open":
        run(world, dev, 2)
    t = world.now_ns + MS
    for i in range(8):  # a bouncing switch: 16 edges within 0.4 ms
        world.at(t + i * 50000, 2, 0)
        world.at(t + i * 50000 + 25000, 2, None)
    world.advance(5)  # the loop is busy: nobody drains the FIFO
    run(world, dev, 10)
    assert world.state_machines[0].dropped > 0
    assert game.race.is_void
    assert game.view.big.text == "VOID"


def test_a_stalled_ring_counts_as_a_loss_and_voids_the_round(world):
    # Ring mode (background_read): while the DMA is held up (the board erases flash
    # with interrupts off during an NVM save), words pile up in the 8-deep FIFO and
    # the overflow sets rxstall: the capture counts it as lost and clears the flag.
    dev = build(world, {"REFEREE_PLAYERS": "2"})
    cap = dev.box.capture
    assert cap.mode == "ring"
    game = dev.app.launch("reaction", 2)
    while game.phase_name() != "open":
        run(world, dev, 2)
    world.dma_stalled = True
    t = world.now_ns + MS
    for i in range(8):  # a bouncing switch: 16 edges within 0.4 ms
        world.at(t + i * 50000, 2, 0)
        world.at(t + i * 50000 + 25000, 2, None)
    world.advance(5)
    world.dma_stalled = False
    run(world, dev, 10)
    sm = world.state_machines[0]
    assert sm.dropped > 0 and cap.overflows >= 1 and not sm.rxstall
    assert game.race.is_void and game.view.big.text == "VOID"


def test_reveal_line_is_pulled_down_so_a_missing_jumper_reads_dark(world):
    from hardware import pins

    build(world)
    assert world.pulls[pins.gpio("REVEAL")] == "down"
    assert all(world.pulls[pins.gpio(r)] == "up" for r in pins.STATIONS)


def test_lost_wrap_words_do_not_shift_later_times(world):
    # FIFO mode (no background_read): the loop stalls for 560 ms, 11 counter-wrap words
    # come and 3 find the 8-word FIFO full. The decoder cannot count wraps it never
    # saw; the capture re-anchors on the box clock, so later presses are on time.
    world.background_read = False
    dev = build(world)
    seen = record_edges(dev)
    run(world, dev, 10)
    world.advance(560)  # nobody drains the FIFO
    run(world, dev, 20)
    sm = world.state_machines[0]
    assert sm.dropped == 3 and dev.box.capture.overflows == 1
    t_press = world.now_ns + 5 * MS + 123
    world.press(3, at_ns=t_press, hold_ns=60 * MS)  # P2 = GP3
    run(world, dev, 400)  # across more wraps
    p2 = [e for e in seen if e[0] == 2]
    assert [e[2] for e in p2] == [True, False]
    assert 0 <= p2[0][1] - t_press < 48 and 0 <= p2[1][1] - (t_press + 60 * MS) < 48
    assert sm.dropped == 3 and dev.box.capture.lost == 1 + 3  # the flag and the sequence gap


def test_ring_mode_keeps_every_word_through_a_busy_loop(world):
    dev = build(world)
    cap = dev.box.capture
    assert cap.mode == "ring"  # background_read (recent builds) into a DMA ring
    seen = record_edges(dev)
    t = world.now_ns + MS
    for i in range(20):
        world.at(t + i * 50000, 2, 0)
        world.at(t + i * 50000 + 25000, 2, None)
    world.advance(5)
    run(world, dev, 10)
    assert len([e for e in seen if e[0] == 1]) == 40 and dev.box.lost == 0


def test_menu_button_edges_come_from_keypad(world):
    from referee.gestures import MENU

    dev = build(world)
    seen = record_edges(dev)
    world.press(14, at_ns=world.now_ns + 5 * MS, hold_ns=100 * MS)
    run(world, dev, 200)
    assert [(p, down) for p, _, down in seen if p == MENU] == [(MENU, True), (MENU, False)]


def test_no_menu_button_leaves_gp14_free(world):
    build(world, {"REFEREE_MENU_BUTTON": "0"})
    assert 14 not in world.claimed


# --- the keypad fallback -------------------------------------------------------------


def test_keypad_capture_when_chosen(world):
    dev = build(world, {"REFEREE_CAPTURE": "keypad"})
    assert dev.box.capture_name == "keypad" and dev.box.precision_ns == MS
    assert {world.claimed[n] for n in list(range(2, 9)) + [14]} == {"keypad"}
    assert 9 not in world.claimed  # nothing senses the REVEAL line
    seen = record_edges(dev)
    run(world, dev, 10)
    world.press(5, at_ns=world.now_ns + 2 * MS + 300000, hold_ns=50 * MS)  # P4
    dev.box.reveal(False)
    t_off = world.now_ns
    run(world, dev, 100)
    assert (0, t_off, False) in seen  # the box times the reveal itself
    p4 = [e for e in seen if e[0] == 4]
    assert [e[1] % MS for e in p4] == [0, 0]  # whole milliseconds
    assert p4[0][2] is True and p4[1][2] is False


def test_a_board_without_pio_falls_back_to_keypad(world):
    dev = build(world, {"REFEREE_CAPTURE": "pio"}, no_pio=True)
    assert dev.box.capture_name == "keypad"
    assert any("no PIO" in m for m in dev.settings.messages)


def test_the_launcher_of_a_keypad_box_says_ms_precision(world):

    dev = build(world, {"REFEREE_CAPTURE": "keypad"})
    assert "ms precision (keypad)" in shown.screen_text(dev.display.root_group)


def test_the_launcher_of_a_pio_box_says_nothing_of_precision(world):

    dev = build(world, {"REFEREE_CAPTURE": "pio"})
    assert dev.box.capture_name == "pio"
    assert "Choose a game" in shown.screen_text(dev.display.root_group)
    assert "precision" not in shown.screen_text(dev.display.root_group)


def test_keypad_reaction_round_says_ms_precision(world):

    dev = build(world, {"REFEREE_CAPTURE": "keypad"})
    dev.app.launch("reaction", 2)
    run(world, dev, 10)
    assert "keypad capture: ms precision" in shown.screen_text(dev.app.game.root)


# --- faults, watchdog, autoreload ---------------------------------------------------------


def test_watchdog_runs_in_reset_mode_and_every_step_feeds_it(world):
    import microcontroller
    from watchdog import WatchDogMode

    dev = build(world)
    wd = microcontroller.watchdog
    assert wd.mode is WatchDogMode.RESET and 0 < wd.timeout <= 8
    feeds = wd.feeds
    run(world, dev, 3000, step_ms=10)
    assert wd.feeds - feeds == 300 and wd.bites == 0
    world.advance(wd.timeout * 1000 + 1)  # a loop stuck longer than the timeout...
    dev.step()
    assert wd.bites == 1  # ...would have reset the board


def test_stop_leaves_the_watchdog_off_for_the_repl(world):
    import microcontroller
    import supervisor

    dev = build(world)
    dev.stop()
    assert microcontroller.watchdog.mode is None and supervisor.runtime.autoreload is True


def test_autoreload_is_off_only_during_a_match(world):
    import supervisor

    dev = build(world, {"REFEREE_PLAYERS": "2"})
    run(world, dev, 10)
    assert supervisor.runtime.autoreload is True
    dev.app.launch("reaction", 2)
    run(world, dev, 10)
    assert supervisor.runtime.autoreload is False
    dev.app._pause(world.now_ns)  # paused is still a match
    run(world, dev, 10)
    assert supervisor.runtime.autoreload is False
    dev.app.back_to_launcher()
    with pytest.raises(supervisor.ReloadException):  # the fresh start after a match
        run(world, dev, 10)
    world = fakes.restart(world)
    dev = build(world, {"REFEREE_PLAYERS": "2"})  # code.py again
    run(world, dev, 10)
    assert supervisor.runtime.autoreload is True
    assert [v for _, v in supervisor.runtime.autoreload_log] == [True, False, True]


def test_after_every_match_the_box_starts_afresh(world, capsys):
    # interned strings are never freed and the heap fragments: back at the launcher
    # after a match the code reloads, so every game starts on the heap of a fresh boot
    import supervisor

    env = {"REFEREE_PLAYERS": "2", "REFEREE_LIMIT_S": "banana"}  # a settings message
    dev = build(world, env)
    assert dev.app.mode == "notice" and supervisor.runtime.run_reason == supervisor.RunReason.STARTUP
    # the serial console says the box is up, and with how much heap (gc.mem_free is the
    # firmware's; CPython's gc has none: "?")
    assert "launcher ready: ? B free" in capsys.readouterr().out
    dev.app.notice = None
    dev.app._show_launcher()
    run(world, dev, 50)
    assert supervisor.runtime.reloads == 0  # the launcher alone: no reload
    dev.app.launch("reaction", 2, bots=(1, 2), seed=3)
    for _ in range(120):
        run(world, dev, 1000)
        if dev.app.game.over:
            break
    run(world, dev, 1000)
    assert dev.app.game.over and supervisor.runtime.reloads == 0  # results stay up
    dev.app.back_to_launcher()  # a hold on the result screen
    with pytest.raises(supervisor.ReloadException):
        dev.step()
    assert supervisor.runtime.reloads == 1 and "match over: fresh start" in capsys.readouterr().out
    world = fakes.restart(world)
    dev2 = build(world, env)  # the next run of code.py: straight to the launcher
    assert supervisor.runtime.run_reason == supervisor.RunReason.SUPERVISOR_RELOAD
    assert dev2.app.mode == "launcher" and dev2.app.launcher is not None
    run(world, dev2, 50)
    assert supervisor.runtime.reloads == 1


def test_a_reload_does_not_pass_an_except_exception(world):
    # the firmware's ReloadException is a BaseException: the loop's guard lets it go
    import supervisor

    assert not issubclass(supervisor.ReloadException, Exception)
    dev = build(world, {"REFEREE_PLAYERS": "2"})
    dev.app.launch("reaction", 2)
    run(world, dev, 10)
    dev.app._pause(world.now_ns)
    dev.app._pause_choice("end!", world.now_ns)  # ended from the pause menu
    assert dev.app.mode == "ended"
    run(world, dev, 10)
    dev.app.back_to_launcher()
    with pytest.raises(supervisor.ReloadException):
        run(world, dev, 10)
    assert dev.errors == 0


def test_an_exception_in_the_loop_is_shown_logged_and_survived(world, capsys):

    dev = build(world)
    calls = []
    real = dev.app.step

    def broken():
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("sensor on fire")
        return real()

    dev.app.step = broken
    import microcontroller

    feeds = microcontroller.watchdog.feeds
    run(world, dev, 20)
    assert dev.errors == 1 and dev.app.mode == "error"
    assert "RuntimeError: sensor on fire" in shown.screen_text(dev.display.root_group)
    assert "sensor on fire" in capsys.readouterr().err + capsys.readouterr().out
    assert microcontroller.watchdog.feeds - feeds == len(calls)


def test_game_errors_use_the_apps_error_screen_and_log_the_traceback(world, capsys):
    dev = build(world, {"REFEREE_PLAYERS": "2"})
    game = dev.app.launch("reaction", 2)

    def boom(now):
        raise ValueError("bad rule")

    game.tick = boom
    capsys.readouterr()
    run(world, dev, 10)
    assert dev.app.mode == "error" and dev.errors == 0  # the app caught it
    assert dev.display.root_group is dev.app._error_root
    serial = capsys.readouterr()
    serial = serial.err + serial.out
    assert "Traceback" in serial and "in boom" in serial and "ValueError: bad rule" in serial


# --- sound, seed, store ----------------------------------------------------------------------


def test_piezo_plays_cues_and_silence_is_duty_zero(world):
    from referee import sound

    dev = build(world)
    world.tones.clear()
    dev.box.sound.play(sound.COUNT, world.now_ns)
    run(world, dev, 300)
    assert (880, 0x8000) in [(f, d) for _, f, d in world.tones]
    assert world.tones[-1][2] == 0  # silent at the end
    assert all(f > 0 for _, f, _ in world.tones)


def test_sound_off_setting(world):
    from referee import sound

    dev = build(world, {"REFEREE_SOUND": "0"})
    world.tones.clear()
    dev.box.sound.play(sound.WIN, world.now_ns)
    run(world, dev, 100)
    assert world.tones == []


def test_seed_comes_from_urandom_and_is_logged(world, monkeypatch, capsys):
    from referee.rng import seed_from_bytes

    dev = build(world)
    raw = bytes(range(1, 17))
    monkeypatch.setattr(os, "urandom", lambda n: raw[:n])
    seed = dev.box.new_seed()
    assert seed == seed_from_bytes(raw)
    assert "seed " + str(seed) in capsys.readouterr().out


def test_the_store_is_nvm(world):
    import microcontroller

    dev = build(world)
    assert dev.box.store is microcontroller.nvm and len(dev.box.store) == 4096


def test_a_match_is_saved_to_nvm_one_write_a_turn_and_offered_after_a_reset(world, monkeypatch):
    import microcontroller

    from referee.app import App

    dev = build(world, {"REFEREE_PLAYERS": "2"})
    nvm = microcontroller.nvm
    assert nvm.writes == 0
    monkeypatch.setattr(os, "urandom", lambda n: bytes(range(200, 200 + n)))
    game = dev.app.launch("zilch", 2, (1, 2))  # seeded from os.urandom(16): a 128-bit seed
    from zilch_helpers import pace

    pace(game, think_ms=6, roll_ms=4, show_ms=6)
    run(world, dev, 300)
    assert not game.over and game.saves >= 3
    assert nvm.writes == game.saves  # one slice write per save point, nothing else
    saved = dev.app.store.load()
    assert saved["seed"] == game.seed > 2 ** 64 and saved["state"]["turn_no"] == game.turn_no
    import games

    app = App(dev.box, dev.app.settings, games)  # what code.py builds after a reset
    assert "Resume Zilch (2p)" in shown.screen_text(app.launcher.root)
    g2 = app.resume()
    assert g2.seed == game.seed and g2.state() == saved["state"]


def test_a_save_is_written_in_passes_of_its_own_that_draw_nothing(world):
    # a step a pass (its text, then a hunk of its change each: ZAP City's save in one pass
    # was 29 ms on the firmware); the game does not tick in them either (a turn's menu
    # drawn with a save was a 23 ms pass)
    dev = build(world, {"REFEREE_PLAYERS": "4"})
    game = dev.app.launch("zap_city", 4, (1, 2, 3, 4), seed=3)
    from zilch_helpers import pace

    pace(game, think_ms=6, roll_ms=4, show_ms=6)
    passes = []  # (saving, refreshes, game saves seen, ticks, store written) in each pass
    refreshes = [0]
    ticks = [0]
    refresh, tick = dev.display.refresh, game.tick
    store = dev.app.store

    def ticking(now_ns):
        ticks[0] += 1
        return tick(now_ns)

    def refreshing(*a, **k):
        refreshes[0] += 1
        return refresh(*a, **k)

    part = game.draw_part

    def drawing(now_ns):  # a part of the screen in place of the tick (BaseGame.due)
        ticks[0] += 1
        return part(now_ns)

    game.tick = ticking
    game.draw_part = drawing
    dev.display.refresh = refreshing
    end = world.now_ns + 3000 * MS
    while world.now_ns < end:
        world.advance_to(world.now_ns + 2 * MS)
        r, s, k, tail = refreshes[0], game.saves, ticks[0], store._tail
        dev.step()
        passes.append((dev.app.saving, refreshes[0] - r, game.saves - s, ticks[0] - k, store._tail != tail))
    saving = [i for i, p in enumerate(passes) if p[0]]
    runs = [i for i in saving if i - 1 not in saving]  # each save's first pass
    assert len(runs) >= 3 and len(saving) > len(runs)  # saves of several steps
    assert all(passes[i][1] == 0 and passes[i][3] == 0 for i in saving)  # nothing drawn, no tick
    assert all(passes[i - 1][2] for i in runs[1:])  # the pass before reached the save point
    written = [i for i, p in enumerate(passes) if p[4]]
    assert written and all(i in saving and i + 1 not in saving for i in written)  # at its last step
    assert all(p[3] == 1 for i, p in enumerate(passes) if i not in saving)  # (else a tick or a part a pass)
    assert sum(p[1] for p in passes) > 100  # (the screen is drawn in the other passes)


# --- boot.py ------------------------------------------------------------------------------------


def _run_boot():
    path = os.path.join(ROOT, "boot.py")
    with open(path) as f:
        code = compile(f.read(), path, "exec")
    exec(code, {"__name__": "__main__"})


def test_boot_names_the_usb_device_and_leaves_the_drive_to_the_pc(world):
    import storage
    import supervisor

    _run_boot()
    assert supervisor.usb_identification["product"] == "Referee Box"
    assert storage.calls == []
    assert world.claimed == {}  # P1 released again for code.py


def test_boot_waits_for_the_pull_up_before_reading_p1(world):
    # an open line reads low until the pull-up has charged it: reading P1 at once
    # would take a button nobody holds for "held" and lock the drive from the computer
    import storage

    t0 = world.now_ns
    _run_boot()
    assert storage.calls == []
    assert world.now_ns - t0 >= 2000000  # it waited (the fake's delay_us advances the clock)


def test_holding_p1_at_boot_lets_code_write_the_filesystem(world):
    import storage

    world.drive(2, 0)  # P1 held down
    _run_boot()
    assert storage.calls == [("/", False, False)]


# --- the strict fakes refuse what CircuitPython refuses ----------------------------------------


def test_fakes_reject_what_the_real_bindings_reject(world):
    from array import array

    import board
    import busio
    import digitalio
    import keypad
    import microcontroller
    import pwmio
    import rp2pio

    from hardware import pio_capture

    prog = array("H", pio_capture.OPCODES)
    with pytest.raises(TypeError):
        rp2pio.StateMachine(prog, 0, board.GP2)  # first_in_pin is keyword-only
    with pytest.raises(TypeError):
        rp2pio.StateMachine(prog, 0, first_in_pin=board.GP2, in_pins=8)  # no such keyword
    with pytest.raises(ValueError, match="shifts in more bits than pin count"):
        rp2pio.StateMachine(prog, 0, first_in_pin=board.GP2, in_pin_count=7)
    with pytest.raises(ValueError, match="Missing first_in_pin"):
        rp2pio.StateMachine(prog, 0)
    with pytest.raises(ValueError, match="push_threshold"):
        rp2pio.StateMachine(prog, 0, first_in_pin=board.GP2, in_pin_count=8, push_threshold=33)
    with pytest.raises(ValueError, match="frequency"):
        rp2pio.StateMachine(prog, 200000000, first_in_pin=board.GP2, in_pin_count=8)
    with pytest.raises(ValueError, match="wrap"):
        rp2pio.StateMachine(prog, 0, first_in_pin=board.GP2, in_pin_count=8, wrap=len(prog))
    lite = digitalio.DigitalInOut(board.GP9)
    with pytest.raises(ValueError, match="GP9 in use"):  # the reason for the jumper
        pio_capture.make_state_machine(board.GP2)
    with pytest.raises(AttributeError):
        lite.value = True  # still an input
    lite.deinit()
    with pytest.raises(TypeError):
        digitalio.DigitalInOut(pin=board.GP9)
    with pytest.raises(TypeError):
        keypad.Keys([board.GP2], False)  # value_when_pressed is keyword-only
    with pytest.raises(TypeError):
        keypad.Keys([board.GP2])  # and required
    pwm = pwmio.PWMOut(board.GP15)
    with pytest.raises(AttributeError):
        pwm.frequency = 1000  # not variable_frequency
    with pytest.raises(ValueError):
        pwm.duty_cycle = 70000
    with pytest.raises(ValueError, match="Invalid pins"):
        busio.SPI(board.GP18, MOSI=board.GP11)  # SPI0 clock, SPI1 data
    with pytest.raises(ValueError):
        microcontroller.watchdog.timeout = 9
    feeds = microcontroller.watchdog.feeds
    microcontroller.watchdog.feed()  # not running yet: a no-op on the board, no error
    assert microcontroller.watchdog.feeds == feeds
    with pytest.raises(ValueError):
        microcontroller.nvm[0:4] = b"\x00\x01"
    with pytest.raises(TypeError):
        microcontroller.Pin(3)
    with pytest.raises(AttributeError):
        board.GP25  # the Pico's LED pin is board.LED
    import supervisor

    assert not hasattr(supervisor, "disable_autoreload")  # gone in CircuitPython 9


def test_the_build_guide_wiring_table_is_the_pin_plan():
    from pc import pin_plan

    with open(os.path.join(ROOT, "hardware", "README.md"), encoding="utf-8") as f:
        rows = [ln.split("|")[1:4] for ln in f if ln.startswith("| ") and ln.count("|") >= 5]
    table = {r[0].strip(): (r[1].strip(), r[2].strip()) for r in rows}
    for role, gp, header, _ in pin_plan.PINS:
        assert table.get(role) == (gp, str(header)), role
    assert os.path.exists(os.path.join(ROOT, "hardware", "wiring.png"))


@pytest.mark.parametrize("setting, hz", [(None, 62500000), ("31", 31250000), ("24", 24000000), ("99", 62500000)])
def test_the_display_spi_clock_follows_the_setting(world, setting, hz):
    # 62.5 MHz halves a whole-screen redraw's transfer (docs/firmware.md); 31/24 for long wires
    env = {"REFEREE_PLAYERS": "2"}
    if setting:
        env["REFEREE_SPI_MHZ"] = setting
    dev = build(world, env)
    assert dev.display.bus._frequency == hz
    if setting == "99":  # a bad value: the default, and a message for the table
        assert any("SPI" in m or "spi" in m for m in dev.settings.messages)


# --- the two displays: the 2.8"/3.2" ILI9341 (recommended) and the 2.0" ST7789 ----------

ILI9341_INIT = [0x01, 0xEF, 0xCF, 0xED, 0xE8, 0xCB, 0xF7, 0xEA, 0xC0, 0xC1, 0xC5, 0xC7, 0x37, 0x3A]


@pytest.mark.parametrize("setting, rotation, driver, displayio_rotation", [
    (None, "90", "ST7789", 90),  # a settings.toml from before the setting: the box it was built for
    ("st7789", "270", "ST7789", 270),
    ("ili9341", "90", "ILI9341", 0),  # its controller turns landscape itself (MADCTL MV)
    ("ILI9341 ", "270", "ILI9341", 180),
    ("ili9431", "90", "ST7789", 90),  # a typo: the default, and a message for the table
])
def test_the_display_driver_follows_the_setting(world, setting, rotation, driver, displayio_rotation):
    env = {"REFEREE_ROTATION": rotation}
    if setting is not None:
        env["REFEREE_DISPLAY"] = setting
    dev = build(world, env)
    assert type(dev.display).__name__ == driver and dev.panel == driver.lower()
    assert dev.display.rotation == displayio_rotation
    assert dev.display.width == 320 and dev.display.height == 240  # every layout stays
    commands = dev.display._core._bus.commands
    if driver == "ILI9341":
        assert commands[:len(ILI9341_INIT)] == ILI9341_INIT  # the ILI9341's own power-up
        assert 0x21 not in commands[:30]  # no inversion: that is the ST7789's IPS glass
    else:
        assert commands[:6] == [0x01, 0x11, 0x3A, 0x36, 0x13, 0x29]
    bad = [m for m in dev.settings.messages if "REFEREE_DISPLAY" in m]
    if setting == "ili9431":

        assert bad == ['REFEREE_DISPLAY="ili9431": must be ili9341 or st7789; using st7789']
        assert dev.app.mode == "notice" and "REFEREE_DISPLAY" in shown.screen_text(dev.display.root_group)
    else:
        assert bad == [] and dev.display.root_group is dev.app.launcher.root


def test_a_missing_display_library_is_said_on_the_screen_of_that_display(world, monkeypatch):
    # only the chosen panel's library is imported; without it main() hands the
    # ImportError to the rescue screen, drawn with that panel's own init sequence
    import adafruit_ili9341

    from hardware import device, rescue

    assert rescue.INIT_ILI9341 == adafruit_ili9341._INIT_SEQUENCE + b"\x36\x01\x38"
    calls = []
    monkeypatch.setitem(sys.modules, "adafruit_ili9341", None)
    monkeypatch.setattr(rescue, "run", lambda e: calls.append(e))
    monkeypatch.setattr(device.os, "getenv", {"REFEREE_DISPLAY": "ili9341"}.get)
    with pytest.raises(ImportError):
        device.main()
    assert len(calls) == 1 and rescue.missing(calls[0]) == "adafruit_ili9341"
    monkeypatch.undo()
    display = rescue.show(rescue.what(calls[0]), getenv={"REFEREE_DISPLAY": "ili9341"}.get)
    assert display.rotation == 0 and display._core._bus.commands[:len(ILI9341_INIT)] == ILI9341_INIT


def test_a_match_is_paced_from_its_first_pass_and_its_screen_drawn_in_the_launch(world):
    # the launch's pass refreshes its new screen twice (the second draws every shape whose
    # palette was written, 125 ms in Zilch on the firmware), and the match's first tick
    # already queues its changes (drawn in one refresh, they were another 126 ms)
    from referee import pace, screen

    dev = build(world)
    run(world, dev, 3)
    refreshed = []
    real = dev.display.refresh
    dev.display.refresh = lambda *a, **k: (refreshed.append(world.now_ns), real(*a, **k))[1]
    dev.app.launch("zilch", 3, bots=(1, 2, 3), seed=1)
    assert len(refreshed) == 2 and screen.paced is None
    queued = []
    real_tick = dev.app.game.tick

    def tick(now_ns):
        real_tick(now_ns)
        queued.append(screen.paced is pace)

    dev.app.game.tick = tick
    run(world, dev, 1)
    assert queued == [True]
    screen.paced.stop()


def test_a_pace_step_gets_what_the_pass_work_left_of_its_aim(world):
    # issue "The box never freezes": a pass is its work and its refresh together; a pass
    # whose game work took most of PASS_NS redraws less, one with none the most
    from hardware.device import MIN_PX, PASS_NS, PX_NS, step_px
    from referee import pace, screen

    top = min(pace.FRAME_PX, PASS_NS // PX_NS)
    assert step_px(0, pace.FRAME_PX) == top and step_px(0, 100 * PASS_NS) == PASS_NS // PX_NS
    assert step_px(PASS_NS - 500 * PX_NS, pace.FRAME_PX) == 500 > MIN_PX
    assert step_px(PASS_NS, pace.FRAME_PX) == MIN_PX == step_px(10 * PASS_NS, pace.FRAME_PX)
    dev = build(world)
    run(world, dev, 10)
    group = dev.display.root_group
    words = [screen.text("", 4, 4 + 20 * i, 2, cols=20) for i in range(8)]
    for w in words:
        group.append(w)
    budgets = []
    real_step = pace.step
    real_app_step = dev.app.step
    work = [0]

    def app_step():
        real_app_step()
        world.advance(work[0])  # the pass's own work, in virtual time

    drawn = [0]

    def step(budget_px=pace.FRAME_PX, big=True):
        budgets.append(budget_px)
        drawn[0] = real_step(budget_px, big)
        return drawn[0]

    real_refresh = dev.display.refresh

    def refresh(*a, **k):
        world.advance_to(world.now_ns + drawn[0] * px_ns[0])  # the firmware's time a pixel
        drawn[0] = 0
        return real_refresh(*a, **k)

    px_ns = [PX_NS]
    pace.step = step
    dev.app.step = app_step
    dev.display.refresh = refresh
    try:
        pace.start()
        for ms, want in ((0, top), (6, (PASS_NS - 6 * MS) // PX_NS), (16, MIN_PX)):
            work[0] = ms
            for w in words:
                w.text = "WORD %d %d" % (ms, id(w) % 97)
            budgets.clear()
            run(world, dev, 2)
            assert budgets and budgets[0] == want
            pace.flush()
        # a refresh that costs twice the pixel cost assumed: learned within a few passes,
        # and the steps shrink to fit the pass's aim
        px_ns[0] = 2 * PX_NS
        work[0] = 0
        for i in range(6):
            for w in words:
                w.text = "AGAIN %d %d" % (i, id(w) % 97)
            run(world, dev, 2)
            pace.flush()
        assert 2 * PX_NS - PX_NS // 10 < dev.px_ns <= 2 * PX_NS
        budgets.clear()
        for w in words:
            w.text = "LAST %d" % (id(w) % 97)
        run(world, dev, 2)
        assert budgets[0] == PASS_NS // dev.px_ns < top
    finally:
        pace.step = real_step
        dev.app.step = real_app_step
        dev.display.refresh = real_refresh
        pace.stop()


def test_a_heavy_pass_leaves_a_big_change_to_a_lighter_one_a_few_passes_at_most(world):
    # a whole-box recolour (43 ms on the firmware) after 9 ms of a bot's work was a 52 ms
    # pass: a pass whose work left only MIN_PX draws no change bigger than that, up to
    # HOLD passes in a row; a light pass draws it at once
    from hardware.device import HOLD, MIN_PX
    from referee import pace, palette, screen

    dev = build(world)
    run(world, dev, 10)
    word = screen.text("WAIT", 4, 4, 3, palette.TEXT, cols=10)
    dev.display.root_group.append(word)
    box = pace.area(word)
    assert box > MIN_PX
    work = [0]
    real_app_step = dev.app.step
    real_step = pace.step
    drawn = []

    def app_step():
        real_app_step()
        world.advance(work[0])

    def step(budget_px=pace.FRAME_PX, big=True):
        drawn.append(real_step(budget_px, big))
        return drawn[-1]

    dev.app.step = app_step
    pace.step = step
    try:
        pace.start()
        for ms, want in ((16, [0] * HOLD + [box]), (0, [box])):
            work[0] = ms * MS
            word.color = palette.WARN if word.color != palette.WARN else palette.GOOD
            drawn.clear()
            while pace.pending():
                run(world, dev, 1)
            assert drawn == want, (ms, drawn)
    finally:
        dev.app.step = real_app_step
        pace.step = real_step
        pace.stop()


def test_a_pixels_cost_is_learned_quick_to_rise_slow_to_fall_and_within_bounds(world):
    from hardware.device import LEARN_PX, PX_NS, PX_NS_MAX, PX_NS_MIN, learn_px

    assert learn_px(PX_NS, 10**9, LEARN_PX - 1) == PX_NS  # too few pixels to say
    assert learn_px(PX_NS, 1000 * 2 * PX_NS, 1000) == PX_NS + 3 * PX_NS // 4  # rises by 3/4
    assert learn_px(2 * PX_NS, 1000 * PX_NS, 1000) == 2 * PX_NS - PX_NS // 4  # falls by 1/4
    assert learn_px(PX_NS, 10**12, 1000) == PX_NS_MAX
    assert learn_px(PX_NS_MIN, 0, 1000) == PX_NS_MIN
