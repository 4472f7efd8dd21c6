"""The fake machine's shared state: virtual clock, pin ownership, pin levels.

Every fake module (board, digitalio, rp2pio, keypad, ...) reads and writes the
one ``WORLD``. Time only moves when a test calls ``advance``; scheduled input
changes (a button pressed at t) are applied in time order and every listener
(the PIO state machine, keypad scanners) sees the clock pass each of them.

Levels: a pin's level is, in order of precedence, what an external part drives
(a pressed button pulls to 0), what the pin itself drives as an output, the
level of the pin a jumper connects it to, its pull (up = 1), else 0.
"""

import heapq

NS_PER_MS = 1000000
PULL_SETTLE_NS = 50000  # 50 us: an open line's pull-up reached (~1 m of wire, margin)


class World:
    def __init__(self, sysclk_hz=125000000, chip="RP2040"):
        self.now_ns = 0
        # supervisor.ticks_ms() = now_ms + offset (wraps at 2**29). CircuitPython starts
        # it at 2**29 - 65536 (supervisor/shared/tick.c), so it wraps ~65 s after boot:
        # every test runs with the firmware's start, wrap included.
        self.ticks_offset_ms = (1 << 29) - 65536
        self.sysclk_hz = sysclk_hz
        self.chip = chip
        self.claimed = {}  # gpio -> owner (a short description)
        self.external = {}  # gpio -> level driven from outside (buttons), absent = open
        self.outputs = {}  # gpio -> level the pin drives itself (DigitalInOut output)
        self.pulls = {}  # gpio -> "up" / "down"
        # gpio -> when digitalio set its pull: an open line takes PULL_SETTLE_NS to reach
        # the pulled level through the ~50 kOhm pull and the wire's capacitance; until
        # then it reads low (the worst case for an active-low button: "pressed")
        self.pull_since = {}
        self.jumpers = {}  # gpio -> gpio whose net it is wired to (GP9 <- GP22)
        self.listeners = []
        self.log = []  # (t_ns, what, detail) for assertions
        self._pending = []
        self._seq = 0
        self.neopixel_frames = []  # (t_ns, gpio, bytes)
        self.tones = []  # (t_ns, frequency, duty_cycle)
        self.state_machines = []
        self.displays = []
        self.display_buses = []

    # --- ownership -----------------------------------------------------------
    def claim(self, pin, owner):
        n = pin.number
        if n in self.claimed:
            raise ValueError(pin.name + " in use")
        self.claimed[n] = owner

    def release(self, pin):
        self.claimed.pop(pin.number, None)
        self.outputs.pop(pin.number, None)
        self.pulls.pop(pin.number, None)
        self.changed()

    # --- levels --------------------------------------------------------------
    def level(self, gpio, _seen=None):
        if gpio in self.external and self.external[gpio] is not None:
            return self.external[gpio]
        if gpio in self.outputs:
            return self.outputs[gpio]
        src = self.jumpers.get(gpio)
        if src is not None and (_seen is None or src not in _seen):
            return self.level(src, (_seen or set()) | {gpio})
        pull = self.pulls.get(gpio)
        if pull == "up" and self.now_ns - self.pull_since.get(gpio, -PULL_SETTLE_NS) < PULL_SETTLE_NS:
            return 0  # not charged up yet
        return 1 if pull == "up" else 0

    def drive(self, gpio, level):
        """Drive ``gpio`` from outside now (0/1), or None to let go."""
        self.external[gpio] = level
        self.changed()

    def set_output(self, gpio, level):
        self.outputs[gpio] = 1 if level else 0
        self.changed()

    def changed(self):
        for li in list(self.listeners):
            li._levels_changed(self.now_ns)

    # --- time ----------------------------------------------------------------
    def ticks_ms(self):
        return (self.now_ns // NS_PER_MS + self.ticks_offset_ms) & 0x1FFFFFFF

    def at(self, t_ns, gpio, level):
        """Schedule an external level change (a button) at ``t_ns``."""
        if t_ns < self.now_ns:
            raise ValueError("cannot schedule in the past")
        self._seq += 1
        heapq.heappush(self._pending, (t_ns, self._seq, gpio, level))

    def press(self, gpio, at_ns, hold_ns):
        """A button to GND on ``gpio``: pressed at ``at_ns`` for ``hold_ns``."""
        self.at(at_ns, gpio, 0)
        self.at(at_ns + hold_ns, gpio, None)

    def advance_to(self, t_ns):
        if t_ns < self.now_ns:
            raise ValueError("time runs forward")
        pending = self._pending
        while pending and pending[0][0] <= t_ns:
            t, _, gpio, level = heapq.heappop(pending)
            self._tick(t)
            self.external[gpio] = level
            self.changed()
        self._tick(t_ns)

    def advance(self, ms):
        self.advance_to(self.now_ns + int(ms * NS_PER_MS))

    def _tick(self, t_ns):
        self.now_ns = t_ns
        for li in list(self.listeners):
            li._time(t_ns)

    def clock(self):
        """The box clock in tests (time.monotonic_ns on the device)."""
        return self.now_ns


WORLD = World()


def reset(**kwargs):
    """A fresh world (each test gets its own)."""
    global WORLD
    WORLD = World(**kwargs)
    return WORLD


def world():
    return WORLD
