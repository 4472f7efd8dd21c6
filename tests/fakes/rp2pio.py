"""Strict fake of CircuitPython's ``rp2pio.StateMachine``.

Construction follows the CircuitPython 9/10 binding: ``program`` and
``frequency`` positional (or by name), everything else keyword-only; the same
range checks (program 2..64 bytes, thresholds 1..32, wrap/wrap_target inside
the program, frequency not above the system clock); every pin must be free
(digitalio, busio, pwmio and keypad pins are never shared with a PIO); the
program is inspected as the real constructor does (``in pins, n`` needs
``first_in_pin`` and ``n <= in_pin_count``, an ``in`` needs a push, ...).

Running: this fake does not execute PIO code (the capture program itself runs
cycle-accurately in pioemu in the pio_capture tests). It models the *capture
program's contract* on the fake world's pin levels: one sample of all input
pins every 6 system clocks, a word pushed on every change (the event path costs
3 samples) and on every 2**20-sample counter wrap, word format
``[seq:3][0][count:20][levels:8]``, an 8-deep RX FIFO (joined: no TX use) that
drops words when full and sets ``rxstall``. With ``background_read(loop=buf)``
(recent builds; ``world.background_read = False`` removes it) words go straight
into the ring, as DMA does. The encoder
below is written from the documented format, independently of the decoder.
"""

from array import array

import fakeworld
import microcontroller

TOTAL_GPIO = 30
CYCLES_PER_SAMPLE = 6
EVENT_SAMPLES = 3
COUNT_BITS = 20
COUNT_TOP = (1 << COUNT_BITS) - 1
FIFO_DEPTH_JOINED = 8
FIFO_DEPTH = 4
_NEWER = ("background_read", "stop_background_read", "reading", "pending_read", "last_read")


def _int(name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("can't convert " + type(value).__name__ + " to int (" + name + ")")
    return value


def _range(name, value, lo, hi):
    _int(name, value)
    if value < lo or value > hi:
        raise ValueError(name + " must be " + str(lo) + "-" + str(hi))
    return value


def _pin_or_none(name, pin):
    if pin is not None and not isinstance(pin, microcontroller.Pin):
        raise TypeError(name + " must be of type Pin, not " + type(pin).__name__)
    return pin


def _halfwords(name, buf):
    if buf is None:
        return []
    mv = memoryview(buf)
    if mv.nbytes % 2:
        raise ValueError(("Program" if name == "program" else "Init program") + " size invalid")
    return list(memoryview(bytes(mv)).cast("H"))


def encode(seq, sample, levels):
    """One capture word: [seq:3][0][count:20][levels:8]."""
    count = COUNT_TOP - (sample & COUNT_TOP)
    return ((seq & 7) << 29) | (count << 8) | (levels & 0xFF)


class StateMachine:
    def __init__(
        self,
        program,
        frequency,
        *,
        pio_version=0,
        may_exec=None,
        init=None,
        first_out_pin=None,
        out_pin_count=1,
        initial_out_pin_state=0,
        initial_out_pin_direction=0xFFFFFFFF,
        first_in_pin=None,
        in_pin_count=1,
        pull_in_pin_up=0,
        pull_in_pin_down=0,
        first_set_pin=None,
        set_pin_count=1,
        initial_set_pin_state=0,
        initial_set_pin_direction=0x1F,
        first_sideset_pin=None,
        sideset_pin_count=1,
        sideset_pindirs=False,
        initial_sideset_pin_state=0,
        initial_sideset_pin_direction=0x1F,
        sideset_enable=False,
        jmp_pin=None,
        jmp_pin_pull=None,
        exclusive_pin_use=True,
        auto_pull=False,
        pull_threshold=32,
        out_shift_right=True,
        wait_for_txstall=True,
        auto_push=False,
        push_threshold=32,
        in_shift_right=True,
        user_interruptible=True,
        wrap_target=0,
        wrap=-1,
        offset=-1,
        fifo_type="auto",
        mov_status_type="txfifo",
        mov_status_n=0,
    ):
        w = fakeworld.world()
        self._world = w
        prog = _halfwords("program", program)
        if not 1 <= len(prog) <= 32:
            raise ValueError("program length must be 2-64")
        init_prog = _halfwords("init", init)
        if len(init_prog) > 32:
            raise ValueError("init length must be 0-64")
        may = _halfwords("may_exec", may_exec)
        frequency = _int("frequency", frequency)
        for name, pin in (
            ("first_out_pin", first_out_pin),
            ("first_in_pin", first_in_pin),
            ("first_set_pin", first_set_pin),
            ("first_sideset_pin", first_sideset_pin),
            ("jmp_pin", jmp_pin),
        ):
            _pin_or_none(name, pin)
        if _int("out_pin_count", out_pin_count) < 1:
            raise ValueError("out_pin_count must be >= 1")
        if _int("in_pin_count", in_pin_count) < 1:
            raise ValueError("in_pin_count must be >= 1")
        _range("set_pin_count", set_pin_count, 1, 5)
        _range("sideset_pin_count", sideset_pin_count, 1, 5)
        _range("pull_threshold", pull_threshold, 1, 32)
        _range("push_threshold", push_threshold, 1, 32)
        for name, v in (
            ("initial_out_pin_state", initial_out_pin_state),
            ("initial_out_pin_direction", initial_out_pin_direction),
            ("pull_in_pin_up", pull_in_pin_up),
            ("pull_in_pin_down", pull_in_pin_down),
            ("initial_set_pin_state", initial_set_pin_state),
            ("initial_set_pin_direction", initial_set_pin_direction),
            ("initial_sideset_pin_state", initial_sideset_pin_state),
            ("initial_sideset_pin_direction", initial_sideset_pin_direction),
            ("offset", offset),
            ("pio_version", pio_version),
        ):
            _int(name, v)
        if pio_version > (1 if w.chip == "RP2350" else 0):
            raise ValueError("pio_version must be <= " + ("1" if w.chip == "RP2350" else "0"))

        # Pins: all must be free (never shared with other peripherals).
        pins = []
        for first, count in (
            (first_out_pin, out_pin_count),
            (first_in_pin, in_pin_count),
            (first_set_pin, set_pin_count),
            (first_sideset_pin, sideset_pin_count),
            (jmp_pin, 1),
        ):
            if first is None:
                continue
            for i in range(count):
                n = first.number + i
                if n >= TOTAL_GPIO:
                    raise ValueError("Pin count too large")
                if n in w.claimed and (exclusive_pin_use or w.claimed[n] != "rp2pio"):
                    raise ValueError("GP" + str(n) + " in use")
                if n not in pins:
                    pins.append(n)

        # Inspect the program as the constructor does.
        state = {"in_loaded": False, "in_used": False, "out_loaded": False, "out_used": False, "rx": False, "tx": False}
        for what, code in (("program", prog), ("init", init_prog), ("may_exec", may)):
            for i, ins in enumerate(code):
                self._consider(
                    state, what, i, ins, first_in_pin, in_pin_count, first_out_pin, out_pin_count,
                    first_set_pin, jmp_pin, auto_push, auto_pull, pins,
                )
        if state["in_used"] and not state["in_loaded"]:
            raise ValueError("Program does IN without loading ISR")
        if state["out_used"] and not state["out_loaded"]:
            raise ValueError("Program does OUT without loading OSR")

        if wrap < -1 or wrap > len(prog) - 1:
            raise ValueError("wrap must be -1-" + str(len(prog) - 1))
        if wrap_target < 0 or wrap_target > len(prog) - 1:
            raise ValueError("wrap_target must be 0-" + str(len(prog) - 1))
        if frequency == 0:
            frequency = w.sysclk_hz
        div256 = -((-w.sysclk_hz * 256) // frequency)
        if frequency > w.sysclk_hz or div256 // 256 > 0x10000:
            raise ValueError("frequency out of range")
        self._frequency = w.sysclk_hz * 256 // div256

        for n in pins:
            w.claimed[n] = "rp2pio"
        self._pins = pins
        if first_in_pin is not None:
            for i in range(in_pin_count):
                if (pull_in_pin_up >> i) & 1:
                    w.pulls[first_in_pin.number + i] = "up"
                elif (pull_in_pin_down >> i) & 1:
                    w.pulls[first_in_pin.number + i] = "down"
        self.program = prog
        self.kwargs = {
            "first_in_pin": first_in_pin,
            "in_pin_count": in_pin_count,
            "pull_in_pin_up": pull_in_pin_up,
            "in_shift_right": in_shift_right,
            "auto_push": auto_push,
            "push_threshold": push_threshold,
            "wrap_target": wrap_target,
            "wrap": wrap,
        }
        self._first_in = first_in_pin.number if first_in_pin is not None else None
        self._in_count = in_pin_count
        self._fifo = []
        self._depth = FIFO_DEPTH_JOINED if not state["tx"] else FIFO_DEPTH
        self._rxstall = False
        self._deinited = False
        self._running = True
        self._ring = None
        self._ring_i = 0
        self.pushed = 0
        self.dropped = 0
        # the capture model
        self._t_start = w.now_ns
        self._seq = 0
        self._last_levels = None
        self._next_cmp = 0
        self._pending = 0  # sample 0 always pushes
        self._next_wrap = 1 << COUNT_BITS
        w.state_machines.append(self)
        w.listeners.append(self)

    def __getattribute__(self, name):
        if name in _NEWER and not fakeworld.world().__dict__.get("background_read", True):
            raise AttributeError("'StateMachine' object has no attribute '" + name + "'")
        return object.__getattribute__(self, name)

    @staticmethod
    def _consider(state, what, i, ins, first_in, in_count, first_out, out_count, first_set, jmp_pin, auto_push, auto_pull, pins):
        kind = ins & 0xE000
        where = what + "[" + str(i) + "]"
        if kind == 0x8000:  # push / pull
            if ins & 0x0080:
                state["tx"] = True
                state["out_loaded"] = True
            else:
                state["rx"] = True
                state["in_loaded"] = True
        elif kind == 0x0000:  # jmp
            if (ins & 0x00E0) >> 5 == 6 and jmp_pin is None:
                raise ValueError("Missing jmp_pin. " + where + " jumps on pin")
        elif kind == 0x2000:  # wait
            source = (ins & 0x0060) >> 5
            index = ins & 0x1F
            if source == 0 and index not in pins:
                raise ValueError(where + " uses extra pin")
            if source == 1:
                if first_in is None:
                    raise ValueError("Missing first_in_pin. " + where + " waits based on pin")
                if index >= in_count:
                    raise ValueError(where + " waits on input outside of count")
        elif kind == 0x4000:  # in
            source = (ins & 0x00E0) >> 5
            bits = ins & 0x1F or 32
            if source == 0:
                if first_in is None:
                    raise ValueError("Missing first_in_pin. " + where + " shifts in from pin(s)")
                if bits > in_count:
                    raise ValueError(where + " shifts in more bits than pin count")
            if auto_push:
                state["in_loaded"] = True
                state["rx"] = True
            state["in_used"] = True
        elif kind == 0x6000:  # out
            dest = (ins & 0x00E0) >> 5
            bits = ins & 0x1F or 32
            if dest in (0, 4):
                if first_out is None:
                    raise ValueError("Missing first_out_pin. " + where + " shifts out to pin(s)")
                if bits > out_count:
                    raise ValueError(where + " shifts out more bits than pin count")
            if auto_pull:
                state["out_loaded"] = True
                state["tx"] = True
            state["out_used"] = True
        elif kind == 0xE000:  # set
            dest = (ins & 0x00E0) >> 5
            if dest in (0, 4) and first_set is None:
                raise ValueError("Missing first_set_pin. " + where + " sets pin(s)")
        elif kind == 0xA000:  # mov
            dest = (ins & 0x00E0) >> 5
            source = ins & 0x07
            if dest == 0 and first_out is None:
                raise ValueError("Missing first_out_pin. " + where + " writes pin(s)")
            if source == 0 and first_in is None:
                raise ValueError("Missing first_in_pin. " + where + " reads pin(s)")
            if dest == 6:
                state["in_loaded"] = True
            elif dest == 7:
                state["out_loaded"] = True

    # --- the capture model ----------------------------------------------------
    def _levels(self):
        w = self._world
        v = 0
        for i in range(self._in_count):
            if w.level(self._first_in + i):
                v |= 1 << i
        return v

    def _sample_time(self, s):
        return self._t_start + s * CYCLES_PER_SAMPLE * 1000000000 // self._world.sysclk_hz

    def _ceil_sample(self, t):
        num = (t - self._t_start) * self._world.sysclk_hz
        return -((-num) // (CYCLES_PER_SAMPLE * 1000000000))

    def _levels_changed(self, t):
        if self._deinited or not self._running or self._first_in is None:
            return
        self._time(t)
        if self._pending is None and self._levels() != self._last_levels:
            self._pending = max(self._ceil_sample(t), self._next_cmp)

    def _time(self, t):
        if self._deinited or not self._running or self._first_in is None:
            return
        while True:
            wrap_at = max(self._next_wrap, self._next_cmp)
            s = wrap_at if self._pending is None else min(self._pending, wrap_at)
            if self._sample_time(s) > t:
                return
            levels = self._levels()
            wrapped = s >= self._next_wrap
            self._pending = None
            if levels == self._last_levels and not wrapped:
                continue  # the change was undone before the SM looked
            if wrapped:
                self._next_wrap += 1 << COUNT_BITS
            self._push(encode(self._seq, s, levels))
            self._seq = (self._seq - 1) & 7
            self._last_levels = levels
            self._next_cmp = s + EVENT_SAMPLES

    def _push(self, word):
        self.pushed += 1
        # world.dma_stalled: the DMA behind background_read is held up (the board's
        # flash erase runs with interrupts off): words pile up in the 8-deep FIFO
        if self._ring is not None and not fakeworld.world().__dict__.get("dma_stalled", False):
            self._ring[self._ring_i] = word
            self._ring_i = (self._ring_i + 1) % len(self._ring)
            return
        if len(self._fifo) >= self._depth:
            self.dropped += 1
            self._rxstall = True
            return
        self._fifo.append(word)

    # --- the API ----------------------------------------------------------------
    def _check(self):
        if self._deinited:
            raise ValueError("Object has been deinitialized.")

    def deinit(self):
        if not self._deinited:
            w = self._world
            for n in self._pins:
                w.claimed.pop(n, None)
                w.pulls.pop(n, None)
            if self in w.listeners:
                w.listeners.remove(self)
        self._deinited = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    @property
    def frequency(self):
        self._check()
        return self._frequency

    @property
    def in_waiting(self):
        self._check()
        return len(self._fifo)

    @property
    def rxstall(self):
        self._check()
        return self._rxstall

    @property
    def txstall(self):
        self._check()
        return False

    def clear_rxfifo(self):
        self._fifo = []
        self._rxstall = False

    def clear_txstall(self):
        pass

    def stop(self):
        self._check()
        self._running = False

    def restart(self):
        self._check()
        self._running = True

    def run(self, instructions):
        self._check()
        _halfwords("program", instructions)

    def readinto(self, buffer, *, start=0, end=None, swap=False):
        self._check()
        mv = memoryview(buffer)
        if mv.itemsize > 4:
            raise ValueError("Buffer elements must be 4 bytes long or less")
        n = len(mv)
        end = n if end is None else min(end, n)
        want = max(0, end - start)
        if want == 0:
            return
        if want > len(self._fifo):
            raise AssertionError(
                "fake: readinto of " + str(want) + " words with " + str(len(self._fifo)) + " in the FIFO would block"
            )
        mask = (1 << (8 * mv.itemsize)) - 1
        for i in range(want):
            word = self._fifo.pop(0)
            # in_shift_right: a narrow read takes the upper bits
            if mv.itemsize < 4:
                word >>= 32 - 8 * mv.itemsize
            buffer[start + i] = word & mask

    def write(self, buffer, *, start=0, end=None, swap=False):
        self._check()
        raise AssertionError("fake: the capture state machine has no TX FIFO use")

    def background_read(self, once=None, *, loop=None, loop2=None, swap=False):
        self._check()
        if once is not None or loop2 is not None:
            raise AssertionError("fake: only background_read(loop=...) is modelled")
        if loop is None:
            self._ring = None
            return
        mv = memoryview(loop)
        if mv.itemsize != 4:
            raise AssertionError("fake: the capture ring must hold 32-bit words")
        # Words already in the FIFO are read first by the DMA.
        self._ring = loop
        self._ring_i = 0
        for word in self._fifo:
            self._push(word)
        self._fifo = []

    def stop_background_read(self):
        self._ring = None

    @property
    def reading(self):
        return self._ring is not None

    @property
    def pending_read(self):
        return 0

    @property
    def last_read(self):
        return array("I")


def _levels_for_test(sm):  # pragma: no cover - debugging aid
    return sm._levels()
