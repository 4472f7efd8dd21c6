"""The real box: a Raspberry Pi Pico / Pico 2 running CircuitPython 9.2+ / 10.x.

``main()`` (called by code.py on the device) builds every driver from the pin
plan in ``hardware/pins.py``, wraps them in a ``DeviceBox`` and runs the app
loop forever: capture -> app -> display refresh -> watchdog.

* Presses: the PIO capture state machine (``hardware/pio_capture.py``) samples
  the seven stations and the REVEAL line together every 48 ns; on a board
  without ``rp2pio``, or with ``REFEREE_CAPTURE = "keypad"``, ``keypad.Keys``
  does it with millisecond precision (``hardware/keypad_capture.py``).
* Display: the 2.8" or 3.2" ILI9341 breakout (recommended: the same 320x240
  pixels, 1.4-1.6 times as tall on the glass) or the 2.0" ST7789, chosen by
  ``REFEREE_DISPLAY``; only the chosen panel's driver is imported (``hardware.bring_up``).
* Reveal: the display's backlight is a plain GPIO (GP22) wired to the display's
  Lite pin and jumpered to GP9, so the capture sees the light go on in the same
  sample stream as the buttons. Before the light goes on, the display is
  refreshed, so the stimulus is on the glass first.
* Rings: one NeoPixel strip of 7 x 12 pixels through a 74AHCT125, brightness
  capped by ``REFEREE_BRIGHTNESS`` (power budget).
* Piezo: PWM with a variable frequency; silence is duty cycle 0.
* Store: ``microcontroller.nvm`` (4 KiB).
* Faults: bad settings fall back to defaults with a message on screen; the
  watchdog (5 s, reset mode) is fed by the loop; an exception is logged to
  serial and shown on screen, and the loop goes on; autoreload is off while a
  match runs, so saving a file to CIRCUITPY cannot restart the box mid-game.
* A fresh start after every match: back at the launcher, the box reloads its
  code (``supervisor.reload()``, about a second). Interned strings (every name of
  every module loaded) are never freed and the heap fragments, so without it each
  game would start with less room than the one before; with it every game starts
  on the heap it has right after boot, the one the memory budget is measured on.
  The settings notice is not shown again after such a reload (it was seen), and the
  session's wins are kept (``referee.keep``; any other start, a power-up, clears them).

``build()`` takes the clock and ``getenv`` as arguments so tests run the whole
box on fakes of the machine modules and a virtual clock.
"""

import gc
import os
import time

import microcontroller
import neopixel
import pwmio
import supervisor
from neopixel_write import neopixel_write

from hardware import pins
from referee import screen
from referee.app import GAME, LAUNCHER, PAUSE
from referee.box import REVEAL, Box
from referee.core import const, forget
from referee.gestures import MENU
from referee.rng import seed_from_bytes

STATIONS = const(7)
WATCHDOG_S = const(5)  # RP2 allows up to 8 s
FRAME_NS = const(33000000)  # refresh the display at most ~30 times a second
REVEAL_WAIT_NS = const(20000000)  # a backlight edge must come back through capture within this
# The panel shows new pixels at its next panel scan (~60 Hz): after refresh() the
# light waits one frame, so the stimulus is on the glass when the light reveals it
# and no reaction time is inflated by a frame still being drawn.
PANEL_FRAME_NS = const(35000000)
# A light asked for while paced changes wait (referee.pace) waits for them to be drawn a
# part a pass, as every change is, not drawn at once in one long pass; but no longer than
# this: then the rest is drawn at once (Lightning Dice's deal, six seats' dice and a card,
# took longer than 0.5 s paced on the firmware: the rest at once was a 160-220 ms pass).
LIGHT_WAIT_NS = const(1500000000)
# A paced pass's aim, its work and its refresh together (the goal: p99 under 20 ms on the
# firmware, and a pass's own overhead, the pace step's Python, the capture and the rings,
# is 3-6 ms there): a pace step gets what the pass's work left of PASS_NS, at about PX_NS
# a pixel redrawn (a text over a layer: 10 µs measured in Würfelblitz), at least MIN_PX
# (the screen catches up even while a bot thinks every pass), at most pace.FRAME_PX.
# A pixel's cost depends on the layers under it (ZAP City's board: 15-21 µs): the device
# learns it from each paced refresh of at least LEARN_PX (learn_px), within PX_NS_MIN..
# PX_NS_MAX, quick to rise and slow to fall.
PASS_NS = const(12000000)
PX_NS = const(10000)
PX_NS_MIN = const(5000)
PX_NS_MAX = const(40000)
LEARN_PX = const(200)
MIN_PX = const(300)
HOLD = const(2)


# The piezo's duty cycle per sound level (off, low, mid, high): a square wave is
# loudest at half duty; a narrower pulse is quieter.
DUTY = (0, 0x0600, 0x2000, 0x8000)


def step_px(work_ns, most, px_ns=PX_NS):
    """The pixels a pace step may redraw after ``work_ns`` of the pass's own work
    (``PASS_NS``) at ``px_ns`` a pixel, between ``MIN_PX`` and ``most``."""
    px = (PASS_NS - work_ns) // px_ns
    return most if px > most else MIN_PX if px < MIN_PX else px


def learn_px(px_ns, refresh_ns, px):
    """A pixel's cost after a refresh of ``refresh_ns`` that drew ``px`` pixels (a pace
    step's estimate): three quarters of the new figure when it is higher, a quarter when
    lower, within ``PX_NS_MIN``..``PX_NS_MAX``; unchanged below ``LEARN_PX`` pixels."""
    if px < LEARN_PX:
        return px_ns
    seen = refresh_ns // px
    px_ns = (px_ns + 3 * seen) // 4 if seen > px_ns else (3 * px_ns + seen) // 4
    return PX_NS_MAX if px_ns > PX_NS_MAX else PX_NS_MIN if px_ns < PX_NS_MIN else px_ns


class Strip(neopixel.NeoPixel):
    """The rings' NeoPixel strip: ``show`` sends its first ``upto`` pixels (0: all), as
    far as the last ring that changed (``referee.rings`` sets it). A WS2812 keeps the
    first 24 bits it receives and passes the rest on down the chain; after the pause
    that latches them, the pixels past the last bit sent keep their colour. All 84
    pixels take 2.5 ms to send at 800 kHz; seat 1's ring alone 0.36 ms."""

    upto = 0

    def _transmit(self, buffer):
        n = self.upto * self.bpp
        neopixel_write(self.pin, memoryview(buffer)[:n] if 0 < n < len(buffer) else buffer)


class Piezo:
    """``tone(freq)``: a square wave at ``freq`` Hz, 0 = silence (duty 0)."""

    def __init__(self, pin):
        self.pwm = pwmio.PWMOut(pin, duty_cycle=0, frequency=440, variable_frequency=True)
        self.level = 3  # the launcher's sound level 1..3 (referee.keep): the duty cycle

    def tone(self, freq):
        if freq <= 0:
            self.pwm.duty_cycle = 0
        else:
            self.pwm.frequency = int(freq)
            self.pwm.duty_cycle = DUTY[min(3, max(0, self.level))]


class DeviceBox(Box):
    """The box a game gets on the device (see ``referee.box.Box``)."""

    def __init__(self, pixels, piezo, display, lite, capture, menu, clock, settings, capture_name):
        super().__init__(STATIONS, pixels, piezo, store=microcontroller.nvm, sound=settings["sound"])
        self.display = display
        self.capture = capture
        self.menu = menu
        self.capture_name = capture_name
        self.precision_ns = capture.precision_ns
        self.pin_names = {}
        for i, role in enumerate(pins.STATIONS):
            self.pin_names[i + 1] = pins.name(role)
        self.pin_names[REVEAL] = pins.name("REVEAL")
        self.pin_names[MENU] = pins.name("MENU")
        self._lite = lite
        self._lite_on = bool(lite.value)
        self._clock = clock
        self._edges = []
        self._lost_seen = 0
        self._synth = []  # reveal edges made by the box itself (keypad capture, fallback)
        self._reveal_wait = None  # (t_ns, on): a backlight change not yet seen by capture
        self._light_at = None  # when the light goes on (one panel frame after the refresh);
        # minus the time it was asked for while the stimulus is not drawn yet
        self._light_mark = None  # referee.pace's mark after the stimulus (while paced)
        self.reveal_fallbacks = 0  # backlight changes the capture never saw (GP9 jumper?)

    def now_ns(self):
        return self._clock()

    def poll(self):
        out = self._edges
        del out[:]
        la = self._light_at
        if la is not None and 0 < la <= self._clock():
            self._light_at = None
            self._switch(True)
        cap = self.capture
        if cap is not None:
            cap.poll(out)
            lost = cap.lost
            if lost > self._lost_seen:
                self.lost += lost - self._lost_seen
                self._lost_seen = lost
        wait = self._reveal_wait
        if wait is not None:
            for e in out:
                if e[0] == REVEAL and e[2] == wait[1]:
                    self._reveal_wait = wait = None
                    break
        if wait is not None and self._clock() - wait[0] > REVEAL_WAIT_NS:
            # The light changed but GP9 never did: time it from the CPU instead.
            self._reveal_wait = None
            self.reveal_fallbacks += 1
            if self.reveal_fallbacks == 1:
                self.log("REVEAL not seen on " + pins.name("REVEAL") + ": is the jumper from " + pins.name("TFT_LITE") + " fitted?")
            out.append((REVEAL, wait[0], wait[1]))
        if self._synth:
            out.extend(self._synth)
            del self._synth[:]
        if self.menu is not None:
            self.menu.poll(out)
            if self.menu.lost:
                self.lost += self.menu.lost
                self.menu.lost = 0
        return out

    def set_backlight(self, on):
        on = bool(on)
        if on and self._light_at is not None:
            return  # already on its way
        if on == self._lite_on:
            self._light_at = None  # off again before the light came on
            return  # no change of light, no edge
        if on:  # lit once the stimulus is drawn (step: _lit_soon)
            self._light_at = -self._clock()  # (minus the time it was asked for)
            # paced: lit once the changes asked for before the light are drawn (later
            # ones, a bot's note or a score, do not hold it back)
            self._light_mark = screen.paced.mark() if screen.paced is not None else None
            return
        self._light_at = None
        self._switch(False)

    def stimulus_drawn(self):
        """True once the changes asked for before the light (its mark) are drawn."""
        m = self._light_mark
        return m is None or screen.paced is None or screen.paced.reached(m)

    def _lit_soon(self):
        # Every change of the stimulus is drawn (referee.pace); sent to the panel now, and
        # the light one panel frame later; the race starts with no garbage, so no
        # collection (10-20 ms) falls in its first passes.
        self.display.refresh()
        gc.collect()
        self._light_at = self._clock() + PANEL_FRAME_NS

    def _switch(self, on):
        self._lite.value = on
        self._lite_on = on
        t = self._clock()
        if self.capture_name == "pio":
            self._reveal_wait = (t, on)
        else:
            self._synth.append((REVEAL, t, on))  # keypad: nothing senses GP9

    def show(self, group):
        # A new screen is drawn whole at once, in the pass that built it (a launch, which
        # loads the game's modules in that pass too), not in the next one.
        self.display.root_group = group
        self.display.refresh()
        # A new root's first refresh draws the whole panel without asking its layers what
        # changed, so a shape whose palette was written since it was made (every one) is
        # redrawn at the next refresh (CircuitPython's display core and VectorShape.c):
        # in the same pass, not as the match's first (Zilch: 125 ms, a refresh of nothing
        # after it 0.4 ms; measured on the firmware).
        self.display.refresh()

    def log_exception(self, e):
        _log_exception(e)

    def new_seed(self):
        seed = seed_from_bytes(os.urandom(16))
        self.log("seed " + str(seed))
        return seed


def _log_exception(e):
    try:
        import traceback

        traceback.print_exception(e)
    except (ImportError, TypeError):
        print("error:", repr(e))


class Device:
    """The whole box: drivers, ``DeviceBox``, ``App`` and the loop body ``step``."""

    def __init__(self, getenv=None, clock=None):
        self.clock = clock or time.monotonic_ns
        from hardware import bring_up  # boot-only code: forgotten once the box is up

        bring_up.build(self, getenv or os.getenv)  # settings, display, box, app, watchdog
        forget("hardware.bring_up")
        self._played = False  # a match ran since boot: back at the launcher, start afresh
        self._autoreload = None
        self.errors = 0
        self.display.refresh()
        self._frame_at = self.clock()
        self.px_ns = PX_NS  # a redrawn pixel's cost, learned (learn_px)
        self._held = 0  # passes in a row whose big change waited (step)
        # the maker at the serial console, and any tool, know the box came up
        self.box.log("launcher ready: " + _free() + " B free")

    def in_match(self):
        return self.app.game is not None and self.app.mode in (GAME, PAUSE)

    def step(self):
        """One pass of the loop: never blocks for long, feeds the watchdog."""
        try:
            # In a match a change of the screen is drawn a part a pass (referee.pace),
            # each refresh short; otherwise the display is refreshed at most every FRAME_NS.
            # Paced from the match's first pass on (the launch's pass drew its screen
            # whole): the first tick's changes unpaced were one refresh of 126 ms (Zilch).
            if screen.paced is None and self.app.game is not None:
                from referee import pace  # loaded with a match: the launcher's heap is tight

                pace.start()
            begun = self.clock()
            paced = screen.paced
            la = self.box._light_at
            lit = la is not None and la < 0 and paced is not None and self.box.stimulus_drawn()
            if lit:
                # the light asked for and its stimulus drawn by the last pass: this pass
                # is the light's alone (its refresh and the collection before the race,
                # ~17 ms); the app's step waits for the next (after a tick's work the two
                # were passes of 20-60 ms on the firmware). Presses are captured meanwhile.
                self.box._lit_soon()
            else:
                self.app.step()
            now = self.clock()
            paced = screen.paced
            la = self.box._light_at
            asked = la is not None and la < 0  # a light asked for, not yet lit
            if lit:
                pass  # nothing more in the light's pass
            elif self.app.saving:
                pass  # a pass that began with a save draws nothing: the next one does
            elif (paced is not None and paced.pending()) or now - self._frame_at >= FRAME_NS:
                if paced is not None:
                    if asked and now + la >= LIGHT_WAIT_NS:
                        paced.flush()  # the stimulus keeps changing: drawn at once, lit
                        self.box._lit_soon()
                    # a pass whose own work took most of it draws no change bigger than
                    # its budget: that waits for a lighter pass, HOLD passes at most (a
                    # 43 ms recolour after 9 ms of a bot's work was a 52 ms pass)
                    budget = step_px(now - begun, paced.FRAME_PX, self.px_ns)
                    big = budget > MIN_PX or self._held >= HOLD
                    self._held = 0 if big else self._held + 1
                    px = paced.step(budget, big)
                    self.display.refresh()
                    self.px_ns = learn_px(self.px_ns, self.clock() - now, px)
                else:
                    self.display.refresh()
                self._frame_at = now
            elif asked and paced is None:
                self.box._lit_soon()  # unpaced: the stimulus is all drawn (paced: above)
        except Exception as e:  # the app guards games; this catches the rest
            self.errors += 1
            _log_exception(e)
            try:
                self.app.show_error(e)
                self.display.refresh()
            except Exception as e2:  # the screen itself is broken: serial only
                _log_exception(e2)
        if self.app.game is not None:
            self._played = True
        elif self._played and self.app.mode == LAUNCHER:
            if screen.paced is not None:  # what waits is drawn and the match's screen let
                screen.paced.stop()  # go (where a reload keeps the modules: a soak's VM)
            self.fresh_start()
        want = not self.in_match()
        if want != self._autoreload:
            supervisor.runtime.autoreload = want
            self._autoreload = want
        self.watchdog.feed()

    def fresh_start(self):
        """Reload the code after a match (see the module doc): the next game gets the
        heap the box has right after boot. Raises the firmware's ReloadException."""
        self._played = False
        self.box.log("match over: fresh start (" + _free() + " B free before it)")
        supervisor.reload()

    def stop(self):
        """Leave the loop cleanly (Ctrl-C at the serial console): no watchdog reset."""
        self.watchdog.mode = None
        supervisor.runtime.autoreload = True


def _free():
    """The free heap after ``gc.collect()``, as text ("?" where ``gc`` cannot say)."""
    gc.collect()
    free = getattr(gc, "mem_free", None)  # CircuitPython's
    return str(free()) if free else "?"


def main():
    try:
        device = Device()
    except ImportError as e:  # the chosen display's library is not on CIRCUITPY
        from hardware import rescue

        rescue.run(e)  # says so on the screen, on serial and by the rings; never returns
        raise
    try:
        while True:
            device.step()
    except KeyboardInterrupt:
        device.stop()
        raise
