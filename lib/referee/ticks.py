"""Wrap-safe tick arithmetic and times in words (integer nanoseconds)."""

def ticks_diff(end, start, period):
    """Signed difference end - start of two counter values that wrap at ``period``
    (a power of two). Valid while the true difference is under period / 2."""
    half = period >> 1
    return ((end - start + half) & (period - 1)) - half


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
