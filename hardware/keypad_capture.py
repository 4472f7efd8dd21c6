"""Press capture with ``keypad.Keys``: for boards without PIO, and the MENU button.

``keypad`` scans the pins in the background every ``interval`` seconds and
stamps each event with ``supervisor.ticks_ms()``: **millisecond precision**.
A box using it for the stations says so (``PRECISION_NS``); the UI shows "ms
precision" and rounds reaction times to whole milliseconds.

The conversion from an event to a box edge is a pure function
(``event_time_ns``/``to_edge``), tested on the PC; ``KeypadCapture`` only drains
the queue without allocating an event per poll.
"""

from referee.core import MS, const
from referee.ticks import ticks_diff

TICKS_PERIOD = const(0x20000000)  # supervisor.ticks_ms wraps at 2**29 ms (6.2 days)
PRECISION_NS = const(1000000)  # one millisecond
INTERVAL_S = 0.001  # scan every 1 ms: the best keypad can do


def event_time_ns(event_ms, now_ms, now_ns):
    """Box time (ns) of an event stamped ``event_ms`` (a ``ticks_ms`` value),
    given that ``ticks_ms()`` read ``now_ms`` when the box clock read ``now_ns``.
    Correct across the 2**29 wrap while the event is under 3 days old."""
    return now_ns - ticks_diff(now_ms, event_ms, TICKS_PERIOD) * MS


def to_edge(key_number, pressed, event_ms, players, now_ms, now_ns):
    """``(player, t_ns, pressed)`` for a keypad event, or None for a key that
    maps to no player. ``players[key_number]`` is the box input of that key."""
    if key_number < 0 or key_number >= len(players):
        return None
    return (players[key_number], event_time_ns(event_ms, now_ms, now_ns), bool(pressed))


class KeypadCapture:
    """Drains a ``keypad.Keys`` event queue into box edges.

    ``players``: box input per key number (1..7 stations, 8 = MENU).
    ``ticks_ms``: ``supervisor.ticks_ms``; ``now_ns``: the box clock.
    ``event``: a ``keypad.Event`` reused for every ``get_into`` (no allocation).
    ``lost`` counts queue overflows (events were dropped: void the round).
    A full queue drops the NEWEST events, a release among them: so on overflow
    every key believed down is released (an edge now) and the scanner is reset,
    which reports the keys still down as fresh presses: no phantom hold.
    """

    precision_ns = PRECISION_NS

    def __init__(self, keys, players, ticks_ms, now_ns, event):
        self.keys = keys
        self.players = tuple(players)
        self._ticks_ms = ticks_ms
        self._now_ns = now_ns
        self._event = event
        self._down = 0  # bit k: key k is down as far as the events said
        self.lost = 0

    def poll(self, out):
        """Append this poll's edges to ``out`` (oldest first) and return it."""
        events = self.keys.events
        ev = self._event
        start = len(out)
        players = self.players
        n = len(players)
        while events.get_into(ev):
            k = ev.key_number
            if 0 <= k < n:
                out.append((k, ev.timestamp, ev.pressed))
                if ev.pressed:
                    self._down |= 1 << k
                else:
                    self._down &= ~(1 << k)
        if events.overflowed:
            self.lost += 1
            events.clear()  # the only way to reset the flag; the queue is empty anyway
            now_ms = self._ticks_ms()
            for k in range(n):
                if self._down & (1 << k):
                    out.append((k, now_ms, False))
            self._down = 0
            self.keys.reset()
        if len(out) > start:
            # Read both clocks after draining, so every event is in the past.
            now_ms = self._ticks_ms()
            now_ns = self._now_ns()
            for i in range(start, len(out)):
                k, ms, pressed = out[i]
                out[i] = to_edge(k, pressed, ms, players, now_ms, now_ns)
        return out

    def deinit(self):
        self.keys.deinit()
