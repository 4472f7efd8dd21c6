"""Strict fake of CircuitPython's ``keypad`` (``Keys``, ``Event``, ``EventQueue``).

``Keys(pins, *, value_when_pressed, pull=True, interval=0.020, max_events=64,
debounce_threshold=1)``: pins must be free ``Pin`` objects (they are claimed);
``value_when_pressed`` is required and keyword-only. The fake scans the world's
pin levels at every ``interval`` boundary of the virtual clock and stamps each
event with ``supervisor.ticks_ms()`` at that scan, as the real background scan
does. A full queue drops the NEWEST event (the one that does not fit) and sets
``overflowed``, as CircuitPython's shared-module/keypad/EventQueue.c does.
"""

import fakeworld
import microcontroller


class Event:
    def __init__(self, key_number=0, pressed=True, timestamp=None):
        if isinstance(key_number, bool) or not isinstance(key_number, int) or key_number < 0:
            raise ValueError("key_number must be >= 0")
        self._key_number = key_number
        self._pressed = bool(pressed)
        self._timestamp = timestamp if timestamp is not None else fakeworld.world().ticks_ms()

    key_number = property(lambda self: self._key_number)
    pressed = property(lambda self: self._pressed)
    released = property(lambda self: not self._pressed)
    timestamp = property(lambda self: self._timestamp)

    def __eq__(self, other):
        return (
            isinstance(other, Event) and self._key_number == other._key_number and self._pressed == other._pressed
        )

    def __hash__(self):
        return hash((self._key_number, self._pressed))

    def __repr__(self):
        return "<Event: key_number {} {}>".format(self._key_number, "pressed" if self._pressed else "released")


class EventQueue:
    def __init__(self, max_events):
        self._events = []
        self._max = max_events
        self._overflowed = False

    def _put(self, key, pressed, ts):
        if len(self._events) >= self._max:
            self._overflowed = True  # the new event is lost; the queued ones stay
            return
        self._events.append((key, pressed, ts))

    def get(self):
        if not self._events:
            return None
        k, p, ts = self._events.pop(0)
        return Event(k, p, ts)

    def get_into(self, event):
        if not isinstance(event, Event):
            raise TypeError("event must be of type Event")
        if not self._events:
            return False
        k, p, ts = self._events.pop(0)
        event._key_number = k
        event._pressed = p
        event._timestamp = ts
        return True

    def clear(self):
        self._events = []
        self._overflowed = False

    @property
    def overflowed(self):
        return self._overflowed

    def __len__(self):
        return len(self._events)

    def __bool__(self):
        return bool(self._events)


class Keys:
    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.020, max_events=64, debounce_threshold=1):
        w = fakeworld.world()
        pins = list(pins)
        if isinstance(interval, bool) or not isinstance(interval, (int, float)) or interval < 0:
            raise ValueError("interval must be >= 0")
        if isinstance(max_events, bool) or not isinstance(max_events, int) or max_events < 1:
            raise ValueError("max_events must be >= 1")
        if not isinstance(debounce_threshold, int) or not 1 <= debounce_threshold <= 127:
            raise ValueError("debounce_threshold must be 1-127")
        for p in pins:
            if not isinstance(p, microcontroller.Pin):
                raise TypeError("pin must be of type Pin, not " + type(p).__name__)
            if p.number in w.claimed:
                raise ValueError(p.name + " in use")
        for p in pins:
            w.claimed[p.number] = "keypad"
            if pull:
                w.pulls[p.number] = "down" if value_when_pressed else "up"
        self._world = w
        self._pins = pins
        self._vwp = bool(value_when_pressed)
        self._interval_ns = max(1, int(round(interval * 1e9)))
        self._events = EventQueue(max_events)
        self._state = [False] * len(pins)  # assume all released at start
        self._next_scan = w.now_ns + self._interval_ns
        self._deinited = False
        self.interval = interval
        w.listeners.append(self)

    def _levels_changed(self, t):
        pass  # keys are only seen at scans

    def _time(self, t):
        if self._deinited:
            return
        w = self._world
        while self._next_scan <= t:
            # levels are constant between world changes, so "now" is right for this scan
            saved = w.now_ns
            w.now_ns = self._next_scan
            ts = w.ticks_ms()
            w.now_ns = saved
            for i, p in enumerate(self._pins):
                down = bool(w.level(p.number)) == self._vwp
                if down != self._state[i]:
                    self._state[i] = down
                    self._events._put(i, down, ts)
            self._next_scan += self._interval_ns

    @property
    def events(self):
        self._check()
        return self._events

    @property
    def key_count(self):
        self._check()
        return len(self._pins)

    def _check(self):
        if self._deinited:
            raise ValueError("Object has been deinitialized.")

    def reset(self):
        self._check()
        self._state = [False] * len(self._pins)

    def deinit(self):
        if not self._deinited:
            for p in self._pins:
                self._world.claimed.pop(p.number, None)
                self._world.pulls.pop(p.number, None)
            if self in self._world.listeners:
                self._world.listeners.remove(self)
        self._deinited = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()
