"""Test-only hooks for Zilch (kept off the box): fast pacing and loaded dice."""
from referee import dice
from referee.core import MS


def pace(g, think_ms=None, roll_ms=None, show_ms=None):
    """Change a game's bot think time, tumble and result pause (tests use short ones)."""
    if think_ms is not None:
        g.think_ns = think_ms * MS
    if roll_ms is not None:
        g.roll_ns = roll_ms * MS
    if show_ms is not None:
        g.show_ns = show_ms * MS


def load_dice(g, *rolls):
    """Queue rolls the box will throw next instead of random ones: each is cut to the
    number of free dice and topped up from the game's generator."""
    queue = g.__dict__.get("_loaded")
    if queue is None:
        queue = g._loaded = []
        real = g.deal

        def deal(n):
            if not queue:
                return real(n)
            faces = queue.pop(0)[:n]
            while len(faces) < n:
                faces.append(dice.roll_die(g.rng))
            return faces

        g.deal = deal
    queue.extend(list(r) for r in rolls)
