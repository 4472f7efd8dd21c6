"""Fake of CircuitPython's ``rp2pio`` for the memory benchmark (VM only): a
StateMachine keeps its C object's size (``_cost.STATEMACHINE``, an estimate).

It runs the capture program's contract (hardware/pio_capture.py, docs/capture.md)
on the fake wiring (``_wire``): one sample of the input pins every 6 system clocks,
a word ``[seq:3][0][count:20][levels:8]`` pushed for sample 0, on every change of
the pins and at every 2**20-sample counter wrap; with ``background_read(loop=ring)``
the words go into the ring as the DMA puts them there. So a person's press and the
backlight (GP22, jumpered to GP9) come back through the real decoder, and the
decoder's state is what it is on the board. Without a ring (FIFO mode) the words
are dropped: the benchmark's box always has ``background_read``.
"""

import time

import _wire
from _cost import STATEMACHINE, slots

_SAMPLE_CYCLES = 6
_COUNT_BITS = 20
_COUNT_TOP = 0xFFFFF
_EVENT_SAMPLES = 3  # the event path's samples: the next comparison is this much later
# _c = [frequency, ring, first gpio, pins, seq, levels, next wrap (periods), ring index,
#       t0 (ns), ns per sample, last word's period, last word's sample in it]
_FREQ, _RING, _FIRST, _PINS, _SEQ, _LEVELS, _WRAP, _RI, _T0, _NS, _LASTK, _LASTS = range(12)


class StateMachine:
    def __init__(self, program, frequency, *, first_in_pin=None, in_pin_count=1, pull_in_pin_up=0, **kwargs):
        c = slots("StateMachine", STATEMACHINE, 12)
        c[_FREQ] = frequency or 125000000
        c[_FIRST] = first_in_pin.number if first_in_pin is not None else None
        c[_PINS] = in_pin_count
        c[_SEQ] = 0
        c[_WRAP] = 1
        c[_RI] = 0
        c[_T0] = time.NOW[0]
        c[_NS] = _SAMPLE_CYCLES * 1000000000 // c[_FREQ]
        c[_LASTK] = None
        self._c = c
        if c[_FIRST] is not None:
            for i in range(in_pin_count):
                if (pull_in_pin_up >> i) & 1:
                    _wire.PULL[c[_FIRST] + i] = 1

    frequency = property(lambda self: self._c[_FREQ])
    in_waiting = 0
    rxstall = False

    # --- the capture program, on the wiring ---------------------------------------
    def _levels(self):
        c = self._c
        v = 0
        for i in range(c[_PINS]):
            if _wire.level(c[_FIRST] + i):
                v |= 1 << i
        return v

    def _push(self, k, s, levels):
        c = self._c
        ring = c[_RING]
        if ring is not None:
            ring[c[_RI]] = ((c[_SEQ] & 7) << 29) | ((_COUNT_TOP - s) << 8) | levels
            c[_RI] = (c[_RI] + 1) % len(ring)
        c[_SEQ] = (c[_SEQ] - 1) & 7
        c[_LEVELS] = levels
        c[_LASTK], c[_LASTS] = k, s

    def _time(self, t_ns):
        # every counter wrap up to t_ns pushes a word (sample 0 of each period)
        c = self._c
        if c[_LASTK] is None:
            return  # not started (background_read not called yet)
        period = c[_NS] << _COUNT_BITS
        while c[_T0] + c[_WRAP] * period <= t_ns:
            k = c[_WRAP]
            c[_WRAP] = k + 1
            if c[_LASTK] == k:
                continue  # a change word in this period's first samples carried the wrap
            self._push(k, 0, c[_LEVELS])

    def _change(self, t_ns):
        c = self._c
        if c[_LASTK] is None:
            return
        levels = self._levels()
        if levels == c[_LEVELS]:
            return
        s = (t_ns - c[_T0]) // c[_NS]
        k, s = s >> _COUNT_BITS, s & _COUNT_TOP
        if k == c[_LASTK] and s < c[_LASTS] + _EVENT_SAMPLES:
            s = c[_LASTS] + _EVENT_SAMPLES  # the program is still in its event path
        self._push(k, s, levels)

    # --- the API --------------------------------------------------------------------
    def background_read(self, once=None, *, loop=None, loop2=None, swap=False):
        c = self._c
        c[_RING] = loop  # the C object holds the ring buffer
        if loop is not None and c[_LASTK] is None and c[_FIRST] is not None:
            # capturing from now on (an object only weighed joins no wire): word 0 has
            # waited in the FIFO since the start, the DMA takes it first
            self._push(0, 0, self._levels())
            self._time(time.NOW[0])
            _wire.listen(self)

    def readinto(self, buffer, *, start=0, end=None, swap=False):
        pass

    def clear_rxfifo(self):
        pass

    def deinit(self):
        pass
