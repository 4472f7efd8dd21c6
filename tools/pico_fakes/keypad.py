"""Fake of CircuitPython's ``keypad`` for the memory benchmark (VM only): Keys
keeps what ``keypad.Keys`` keeps on the board (``_cost.keys_bytes``); no key is
ever pressed (the benchmark's players are bots)."""

from _cost import EVENT, keys_bytes, slots


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

    def get(self):
        return None

    def get_into(self, event):
        return False

    def clear(self):
        self.overflowed = False

    def __len__(self):
        return 0

    def __bool__(self):
        return False


class Keys:
    # _c = [events, key_count]
    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.020, max_events=64, debounce_threshold=1):
        c = slots("Keys", keys_bytes(len(pins), max_events), 2)
        c[0], c[1] = EventQueue(), len(pins)
        self._c = c

    events = property(lambda self: self._c[0])
    key_count = property(lambda self: self._c[1])

    def reset(self):
        pass

    def deinit(self):
        pass
