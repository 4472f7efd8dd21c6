"""PIO press capture: every station and the REVEAL line, timed to one PIO sample.

One state machine samples GP2..GP9 (stations P1..P7 and REVEAL) with a single
``in pins, 8`` every 6 system clocks (48 ns at 125 MHz, 40 ns at 150 MHz) and
pushes one 32-bit word to the RX FIFO whenever the sampled levels differ from the
last pushed ones. The word carries the new levels and a sample counter, so the
time of an edge comes from the counter, never from when the CPU read it.
docs/capture.md explains the program, the word format and the proofs.

Word format (bit 31 .. 0)::

    [seq:3][0][count:20][levels:8]

* ``levels``: bit i = input i; 0..6 = stations P1..P7 (GP2..GP8, active-low,
  pulled up: 0 = pressed), 7 = REVEAL (GP9, 1 = backlight on).
* ``count``: a 20-bit sample counter counting down from 0xFFFFF. The sample
  whose levels were pushed is sample ``wraps * 2**20 + (0xFFFFF - count)``;
  sample 0 is the first one, its word is always pushed.
* bit 28 is always 0 (so ``MARK`` = 1 << 28 can pre-fill a buffer as "empty").
* ``seq``: counts down by one per pushed word (mod 8), starting at 0; a gap
  means words were dropped (RX FIFO full), the round must be voided.

Paths, in PIO cycles (one instruction = one cycle, no stalls, no delays):

* idle loop: 6 cycles per sample, X decremented once.
* change (or counter wrap): the loop's first 5 cycles + a 13-cycle event path
  = 18 cycles = exactly 3 samples, and X is decremented 3 times. Time is
  therefore ``6 * sample_index`` cycles after sample 0 on every path.

The counter wrap is made visible by the comparison itself: X holds
``[levels:8][0000][count:20]`` and the freshly built word Y has four zero
bits in the same place, so a borrow out of the count field makes X and Y differ
and forces a word on the very next sample. Hence between two consecutive words
there is at most one wrap, and a wrap happened exactly when the count did not
go down.

Device code: no rp2pio/board import at module import (``make_state_machine``
imports rp2pio when called). Runs under CPython and MicroPython.
"""

from array import array

from referee.core import const

INPUTS = const(8)  # GP2..GP8 stations P1..P7, GP9 REVEAL
REVEAL_INDEX = const(7)
CYCLES_PER_SAMPLE = const(6)
EVENT_SAMPLES = const(3)  # an event path costs this many samples (2 not taken)
COUNT_SHIFT = const(8)
COUNT_BITS = const(20)
COUNT_TOP = const(0xFFFFF)  # first sample's count; counts down
SEQ_SHIFT = const(29)
SEQ_MASK = const(7)
MARK = const(0x10000000)  # bit 28: never set in a pushed word
PIN_MASK = const(0xFF)
STATION_PULLUPS = const(0x7F)  # relative to GP2: pull-ups on the 7 stations only
# REVEAL (GP9) is driven through the jumper from the backlight GPIO; without the
# jumper it would float and read noise as reveals: a pull-down keeps it "dark".
REVEAL_PULLDOWN = const(0x80)

SOURCE = """
.program referee_capture
; X = [ref levels:8][guard 0000][count:20]; OSR = word sequence number.
    mov x, ~null          ; guard field 1111: the first sample always differs
    mov osr, null         ; seq of the first word = 0
.wrap_target
loop:                     ; 6 cycles per sample
    in x, 20              ; ISR (shift right): count field
    in null, 4            ; guard field = 0000
    in pins, 8            ; THE SAMPLE: GP2..GP9 at once -> [levels][0000][count]
    mov y, isr
    jmp x!=y changed      ; a level changed, or a borrow dirtied X's guard field
    jmp x-- loop          ; count down (if X was 0 the wrap falls into loop too)
.wrap
changed:                  ; 13 cycles: with the 5 above = 3 whole samples
    in isr, 21            ; rotate right 21: [0][count][levels][000]
    in osr, 3             ; -> [seq:3][0][count:20][levels:8]
    push noblock          ; never stalls; a full RX FIFO drops it (seq shows it)
    mov x, y              ; new reference levels, count of this sample
    mov y, osr
    jmp y-- seq_done      ; seq -= 1 (either way to the next instruction)
seq_done:
    mov osr, y
    jmp x-- dec2          ; X -= 3: the 3 samples this path costs
dec2:
    jmp x-- dec3
dec3:
    jmp x-- pad           ; a borrow here also leaves the guard field dirty
pad:
    nop
    nop
    jmp loop
"""

# adafruit_pioasm.assemble(SOURCE), the same array("H"); tests prove they are equal.
OPCODES = array("H", (
    0xA02B, 0xA0E3, 0x4034, 0x4064, 0x4008, 0xA046, 0x00A8,
    0x0042, 0x40D5, 0x40E3, 0x8000, 0xA022, 0xA047, 0x008E,
    0xA0E2, 0x0050, 0x0051, 0x0052, 0xA042, 0xA042, 0x0002,
))

# rp2pio.StateMachine keywords (first_in_pin and frequency are given at run time);
# every key of adafruit_pioasm.Program(SOURCE).pio_kwargs is here with its value.
PIO_KWARGS = {
    "sideset_enable": False,  # no side-set (pioasm: 0)
    "in_pin_count": INPUTS,  # `in pins, 8` may not read more than in_pin_count
    "pull_in_pin_up": STATION_PULLUPS,  # mask relative to first_in_pin; not REVEAL (driven)
    "pull_in_pin_down": REVEAL_PULLDOWN,  # REVEAL reads dark when the jumper is missing
    "in_shift_right": True,  # `in` shifts right: the rotation in the event path needs it
    "auto_push": False,  # only the explicit `push noblock`
    "push_threshold": 32,
    "wrap_target": 2,
    "wrap": 7,
}


class Decoder:
    """Decodes FIFO words into edges, keeping state across batches.

    Each edge is ``(input_index, t_ns, level)``: index 0..6 = stations P1..P7,
    7 = REVEAL; ``level`` is the raw pin level (stations are active-low:
    pressed = 0; REVEAL 1 = backlight on); ``t_ns`` counts from sample 0 (plus
    ``t0_ns``), monotonic across counter wraps. Inputs that changed in the same
    sample get the same ``t_ns``: a tie. The order of tuples within one ``t_ns``
    means nothing (it is not a ranking).

    The first word gives the initial levels (``levels``) and no edges.
    ``lost`` counts words known to be missing (a lower bound): sequence gaps,
    impossible words, a level word with no change. Any loss makes the times
    after it unreliable: void the round. Lost wrap words would also leave the
    wrap count short for good (each one 2**20 samples, 50 ms at 125 MHz): after
    a loss, ``anchor(now_ns, out)`` re-counts the wraps from the box clock.
    """

    def __init__(self, sysclk_hz, t0_ns=0):
        if sysclk_hz <= 0:
            raise ValueError("sysclk_hz must be positive")
        self.sysclk_hz = sysclk_hz
        self.t0_ns = t0_ns
        num = CYCLES_PER_SAMPLE * 1000000000
        # Exact ns per sample when the clock divides evenly (125 and 150 MHz do).
        self._ns_per_sample = num // sysclk_hz if num % sysclk_hz == 0 else 0
        self._num = num
        self.levels = None  # current input levels (bit i = input i), None before word 0
        self.lost = 0
        self.words = 0
        self.sample = -1  # sample index of the last word
        self._count = None
        self._wraps = 0
        self._seq = 0
        self.resync = False  # words were lost before the next word: mark it
        self.mark = None  # index in ``out`` of the first edge after a loss, to anchor

    def t_ns(self, sample):
        """Time of a sample index, in ns after sample 0 (plus t0_ns)."""
        if self._ns_per_sample:
            return self.t0_ns + sample * self._ns_per_sample
        return self.t0_ns + sample * self._num // self.sysclk_hz

    def emit(self, out, index, t_ns, level):
        out.append((index, t_ns, level))

    def feed(self, words, out=None):
        """Decode an iterable of words; append edges to ``out`` (returned)."""
        if out is None:
            out = []
        for w in words:
            self.feed_word(w, out)
        return out

    def feed_word(self, w, out):
        self.words += 1
        lost = self.lost
        if w & MARK:
            self.lost += 1  # not a word the program can push
            self.resync = True
            return
        seq = (w >> SEQ_SHIFT) & SEQ_MASK
        count = (w >> COUNT_SHIFT) & COUNT_TOP
        levels = w & PIN_MASK
        first = self._count is None
        gap = ((self._seq - seq) if first else (self._seq - 1 - seq)) & SEQ_MASK
        self._seq = seq
        self.lost += gap
        if first:
            if count != COUNT_TOP:
                self.lost += 1  # word 0 is missing: the time base is unknown
        elif count >= self._count:
            # The count did not go down: exactly one wrap, and this word is the
            # first sample after it, so its count is within EVENT_SAMPLES of the top.
            self._wraps += 1
            if count <= COUNT_TOP - EVENT_SAMPLES:
                self.lost += 1
        elif levels == self.levels and not gap:
            self.lost += 1  # no change, no wrap: the words between went missing
        if self.lost != lost or self.resync:
            self.resync = False
            if self.mark is None:
                self.mark = len(out)
        self._count = count
        sample = (self._wraps << COUNT_BITS) + (COUNT_TOP - count)
        self.sample = sample
        old = self.levels
        self.levels = levels
        if first:
            return
        diff = old ^ levels
        if not diff:
            return
        t = self.t_ns(sample)
        i = 0
        while diff:
            if diff & 1:
                self.emit(out, i, t, (levels >> i) & 1)
            diff >>= 1
            i += 1


    def anchor(self, now_ns, out):
        """After a loss (``mark`` set): re-count the wraps so that the last word's
        sample lies in the counter period ending 1/8 period after ``now_ns`` (the
        box clock read after the words were drained). The last word of a drain
        is under one period old, since the program pushes a word every period,
        as long as nothing was dropped after it. Edges in ``out`` from ``mark``
        on move by the same whole periods."""
        m = self.mark
        self.mark = None
        if m is None:
            return
        now = (now_ns - self.t0_ns) * self.sysclk_hz // self._num + (1 << (COUNT_BITS - 3))
        k = (now - self.sample) >> COUNT_BITS
        if k:
            self._wraps += k
            self.sample += k << COUNT_BITS
            d = self.t_ns(k << COUNT_BITS) - self.t0_ns
            for i in range(m, len(out)):
                e = out[i]
                out[i] = (e[0], e[1] + d, e[2])


def decode(words, sysclk_hz):
    """``[(input_index, t_ns, level), ...]`` from raw FIFO words (from word 0 on).

    input_index 0..6 = stations P1..P7, 7 = REVEAL. ``level`` is the raw pin
    level: buttons are active-low (pressed = 0), REVEAL is 1 when the backlight
    is on. Edges in the same sample share ``t_ns`` (a tie, never ordered by pin).
    """
    return Decoder(sysclk_hz).feed(words)


class _EdgeDecoder(Decoder):
    """Decoder emitting box edges ``(player, t_ns, pressed)`` directly."""

    def __init__(self, sysclk_hz, stations, t0_ns):
        super().__init__(sysclk_hz, t0_ns)
        self.stations = stations

    def emit(self, out, index, t_ns, level):
        if index == REVEAL_INDEX:
            out.append((0, t_ns, level == 1))
        elif index < self.stations:
            out.append((index + 1, t_ns, level == 0))


def make_state_machine(first_pin, frequency=0, **overrides):
    """Start the capture state machine on ``first_pin`` (board.GP2) .. +7 (GP9).

    Imports ``rp2pio`` only when called. GP9 must be free: rp2pio claims every
    input pin and gives it to the PIO, so the backlight cannot be driven on GP9
    itself; drive it from its own GPIO and jumper that GPIO to GP9
    (docs/capture.md). ``frequency=0`` runs the PIO at the system clock.
    """
    import rp2pio  # device only

    kwargs = dict(PIO_KWARGS)
    kwargs.update(overrides)
    return rp2pio.StateMachine(OPCODES, frequency, first_in_pin=first_pin, **kwargs)


BURST_READS = const(8)  # FIFO batches read per poll, at most


class PioCapture:
    """Drains the capture FIFO and yields box edges ``(player, t_ns, pressed)``.

    player 1..stations for the stations (pressed = level 0), 0 for REVEAL
    (pressed = backlight on). Call ``poll()`` every loop. ``lost`` counts words
    known lost since start (decoder gaps plus RX FIFO overflows the hardware
    flagged): when it grows during a round, void the round.

    Modes: ``"ring"`` lets ``sm.background_read`` (DMA, recent CircuitPython)
    copy every word into a ring pre-filled with ``MARK``, so a slow loop cannot
    overflow the FIFO; ``"fifo"`` reads ``in_waiting`` words with ``readinto``
    (8 deep with the joined RX FIFO). ``"auto"`` picks ring when available.
    ``t0_ns`` is added to every time: the box clock read right after the SM
    started, so no edge is stamped before it happened. ``clock`` (the box clock,
    ``time.monotonic_ns``) lets a poll after lost words re-anchor the time base
    (``Decoder.anchor``); without it, lost wrap words shift all later times.
    """

    def __init__(self, sm, stations=7, sysclk_hz=None, t0_ns=0, mode="auto", ring_words=256, clock=None):
        if sysclk_hz is None:
            sysclk_hz = sm.frequency
        self.sm = sm
        self.decoder = _EdgeDecoder(sysclk_hz, stations, t0_ns)
        self.clock = clock
        self.overflows = 0  # RX FIFO overflows flagged by the hardware (rxstall)
        self._lost_taken = 0
        if mode == "auto":
            mode = "ring" if hasattr(sm, "background_read") else "fifo"
        if mode not in ("ring", "fifo"):
            raise ValueError("mode must be auto, ring or fifo")
        self.mode = mode
        self._ri = 0
        if mode == "ring":
            self._buf = array("I", [MARK] * ring_words)
            sm.background_read(loop=self._buf)
        else:
            self._buf = array("I", [0] * 8)

    @property
    def lost(self):
        return self.decoder.lost + self.overflows

    def take_lost(self):
        """Words lost since the last call (for ``Box.lost``)."""
        n = self.lost - self._lost_taken
        self._lost_taken += n
        return n

    @property
    def levels(self):
        """Last known levels of the 8 inputs (bit i = input i), None before word 0."""
        return self.decoder.levels

    def poll(self, out=None):
        """Edges captured since the last poll (appended to ``out`` if given)."""
        if out is None:
            out = []
        if self.mode == "ring":
            self._drain_ring(out)
        else:
            self._drain_fifo(out)
        dec = self.decoder
        if dec.mark is not None and self.clock is not None:
            dec.anchor(self.clock(), out)
        return out

    def _dropped(self):
        # Words were dropped after the ones just read: the last word read may be
        # old, so anchor at the next word instead.
        self.overflows += 1
        self.decoder.mark = None
        self.decoder.resync = True

    def _drain_ring(self, out):
        buf = self._buf
        n = len(buf)
        i = self._ri
        dec = self.decoder
        taken = 0
        while taken < n:
            w = buf[i]
            if w == MARK:
                break
            buf[i] = MARK
            dec.feed_word(w, out)
            i += 1
            if i == n:
                i = 0
            taken += 1
        if taken == n:
            self._dropped()  # a whole ring in one poll: DMA may have lapped us
        self._ri = i
        self._check_stall()

    def _check_stall(self):
        # The RX FIFO overflowed: a push found it full (FIFO mode: a slow loop; ring
        # mode: the DMA was held up, e.g. while an NVM save erased flash with
        # interrupts off). The words are gone: count it as a loss, and clear the flag
        # (clear_rxfifo() clears it; in ring mode the DMA has the words already).
        if getattr(self.sm, "rxstall", False):
            self._dropped()
            self.sm.clear_rxfifo()

    def _drain_fifo(self, out):
        sm = self.sm
        buf = self._buf
        dec = self.decoder
        for _ in range(BURST_READS):
            n = sm.in_waiting
            if not n:
                break
            if n > len(buf):
                n = len(buf)
            sm.readinto(buf, end=n)
            for k in range(n):
                dec.feed_word(buf[k], out)
        self._check_stall()
