"""Strict fake of CircuitPython's ``watchdog`` as the RP2040/RP2350 port has it.

The timer is ``microcontroller.watchdog`` (no constructor). On the RP2 port the
timeout is at most 8 s, RAISE mode is not implemented, and ``feed()`` while
the timer is not running does nothing (shared-bindings/watchdog/WatchDogTimer.c
returns early when the mode is None: no error on the device either). The fake also records a *bite*: a feed that
came later than ``timeout`` after the previous one (the real board would have
reset).
"""

import fakeworld


class WatchDogMode:
    RAISE = object()
    RESET = object()


class WatchDogTimeout(Exception):
    pass


_TOKEN = object()


class WatchDogTimer:
    def __init__(self, *args, **kwargs):
        if not args or args[0] is not _TOKEN:
            raise TypeError("cannot create 'WatchDogTimer' instances")
        self._timeout = 0.0
        self._mode = None
        self.feeds = 0
        self.bites = 0
        self.last_feed_ns = None

    @property
    def timeout(self):
        return self._timeout

    @timeout.setter
    def timeout(self, value):
        value = float(value)
        if value <= 0:
            raise ValueError("watchdog timeout must be greater than 0")
        if int(value) > 8:
            raise ValueError("timeout must be <= 8")
        self._timeout = value

    @property
    def mode(self):
        return self._mode

    @mode.setter
    def mode(self, value):
        if value is not None and value not in (WatchDogMode.RAISE, WatchDogMode.RESET):
            raise TypeError("mode must be a WatchDogMode or None")
        if value is WatchDogMode.RAISE:
            raise NotImplementedError()
        if value is WatchDogMode.RESET and self._timeout <= 0:
            # watchdog_enable(0): the board would reset at once
            raise AssertionError("fake: RESET mode with no timeout resets the board immediately")
        self._mode = value
        if value is not None:
            self.last_feed_ns = fakeworld.world().now_ns

    def feed(self):
        if self._mode is None:
            return  # not running: a no-op, as on the board
        now = fakeworld.world().now_ns
        if self.last_feed_ns is not None and now - self.last_feed_ns > self._timeout * 1e9:
            self.bites += 1
        self.last_feed_ns = now
        self.feeds += 1

    def deinit(self):
        self._mode = None


def _make_timer():
    return WatchDogTimer(_TOKEN)
