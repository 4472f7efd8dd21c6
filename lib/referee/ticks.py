"""Wrap-safe tick helpers and time-unit conversions (integer nanoseconds)."""

from referee.core import const

NS_PER_US = const(1000)
NS_PER_MS = const(1000000)


def ms(n):
    """Milliseconds to nanoseconds."""
    return n * NS_PER_MS


def ticks_diff(end, start, period):
    """Signed difference end - start of two counter values that wrap at ``period``
    (a power of two). Valid while the true difference is under period / 2."""
    half = period >> 1
    return ((end - start + half) & (period - 1)) - half


def ticks_add(ticks, delta, period):
    return (ticks + delta) & (period - 1)


def ticks_less(a, b, period):
    return ticks_diff(a, b, period) < 0


class Extender:
    """Extends a wrapping counter (``bits`` wide, counting up) to a monotonic int.

    Call ``extend(raw)`` at least once per half period; each call returns the raw
    value with the wraps seen so far added above it.
    """

    def __init__(self, bits):
        self.period = 1 << bits
        self._last = None
        self._base = 0

    def extend(self, raw):
        if self._last is not None and raw < self._last:
            self._base += self.period
        self._last = raw
        return self._base + raw


def format_ms(t_ns, places=3):
    """``1204000`` ns -> ``"1.204"`` (ms), using integers only."""
    neg = t_ns < 0
    if neg:
        t_ns = -t_ns
    scale = 10 ** (6 - places)
    v = (t_ns + scale // 2) // scale
    whole = v // (10 ** places)
    frac = v % (10 ** places)
    s = str(whole)
    if places:
        f = str(frac)
        s += "." + "0" * (places - len(f)) + f
    return "-" + s if neg else s
