"""Fake of CircuitPython's ``keypad`` for the memory benchmark (VM only): Keys
keeps what ``keypad.Keys`` keeps on the board (``_cost.keys_bytes``). Its keys are
on the fake wiring (``_wire``): a change of a key's level is an event, stamped
with ``supervisor.ticks_ms`` of that moment (the 1-20 ms scan interval is not
modelled). Only the benchmark's person presses keys (the bots play in their games)."""

import _wire
from _cost import EVENT, keys_bytes, slots

_QUEUED = 8  # events waiting at most in the fake's queue (kept in the preallocated list)


class Event:
    # _c = [key_number, pressed, timestamp]
    def __init__(self, key_number=0, pressed=True, timestamp=None):
        c = slots("Event", EVENT, 3)
        c[0], c[1], c[2] = key_number, pressed, timestamp or 0
        self._c = c

    key_number = property(lambda self: self._c[0])
    pressed = property(lambda self: self._c[1])
    released = property(lambda self: not self._c[1])
    timestamp = property(lambda self: self._c[2])


class EventQueue:
    def __init__(self):
        self.overflowed = False
        self._q = [0] * (3 * _QUEUED)  # (key, pressed, ticks_ms) each, oldest first
        self._n = 0

    def _put(self, key, pressed, ms):
        n = self._n
        if n >= _QUEUED:
            self.overflowed = True
            return
        q = self._q
        q[3 * n], q[3 * n + 1], q[3 * n + 2] = key, pressed, ms
        self._n = n + 1

    def get(self):
        return None

    def get_into(self, event):
        if not self._n:
            return False
        q = self._q
        c = event._c
        c[0], c[1], c[2] = q[0], q[1], q[2]
        for i in range(3, 3 * self._n):
            q[i - 3] = q[i]
        self._n -= 1
        return True

    def clear(self):
        self._n = 0
        self.overflowed = False

    def __len__(self):
        return self._n

    def __bool__(self):
        return self._n > 0


class Keys:
    # _c = [events, key_count, gpios, pressed level, state bits]
    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.020, max_events=64, debounce_threshold=1):
        c = slots("Keys", keys_bytes(len(pins), max_events), 5)
        c[0], c[1] = EventQueue(), len(pins)
        c[2] = tuple(p.number for p in pins)
        c[3] = 1 if value_when_pressed else 0
        c[4] = 0
        self._c = c
        self._wired = False
        if pull and not value_when_pressed:
            for g in c[2]:
                _wire.PULL[g] = 1

    @property
    def events(self):
        if not self._wired:  # scanning from the first read on (an object only weighed joins no wire)
            self._wired = True
            _wire.listen(self)
        return self._c[0]

    key_count = property(lambda self: self._c[1])

    def _time(self, t_ns):
        pass

    def _change(self, t_ns):
        c = self._c
        for k in range(c[1]):
            down = _wire.level(c[2][k]) == c[3]
            if down != bool(c[4] & (1 << k)):
                c[4] ^= 1 << k
                c[0]._put(k, down, (t_ns // 1000000) & 0x3FFFFFFF)

    def reset(self):
        self._c[4] = 0

    def deinit(self):
        pass
