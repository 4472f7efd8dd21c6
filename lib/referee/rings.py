"""Ring patterns over one chained NeoPixel strip (12 pixels per station).

A game sets a *mode* per ring; ``update(now_ns)`` renders every ring from the
current time and writes the strip only when a pixel changed.
"""

from referee import palette
from referee.core import const

OFF = const(0)
SOLID = const(1)  # steady colour
PULSE = const(2)  # breathing: whose turn it is
FLASH = const(3)  # fast on/off: winner
BLINK = const(4)  # slower on/off: false start / lockout
COUNT = const(5)  # ``arg`` pixels lit in colour, the rest in ``color2`` (discs, timers)
PIXELS = const(6)  # explicit list of colours in ``arg``

PER_RING = const(12)
_PULSE_NS = const(1200000000)
_FLASH_NS = const(100000000)
_BLINK_NS = const(250000000)
_PULSE_STEPS = const(12)


class Rings:
    """The rings of ``stations`` stations on the strip ``pixels``, ``per_ring`` pixels
    each in station order: a mode per ring (module doc), written by ``update``."""

    def __init__(self, pixels, stations, per_ring=PER_RING):
        self.pixels = pixels
        self.stations = stations
        self.per_ring = per_ring
        self._modes = [(OFF, 0, 0, 0, 0)] * (stations + 1)  # index 0 unused
        self._shown = [None] * (stations * per_ring)
        self._stale = [True] * (stations + 1)  # rings set since the last update
        self._dirty = True  # some ring is stale
        self._still = False  # no ring animates: nothing to do until the next set()
        self._upto = hasattr(pixels, "upto")  # a strip that can send only its first pixels

    def set(self, player, mode, color=0, arg=0, color2=0, now_ns=0):
        """Set ring ``player`` (1-based). ``now_ns`` starts the pattern's phase."""
        if 1 <= player <= self.stations:
            self._modes[player] = (mode, color, arg, color2, now_ns)
            self._stale[player] = self._dirty = True

    def mode(self, player):
        """The mode of ring ``player`` (OFF, SOLID, PULSE, ...)."""
        return self._modes[player][0]

    def all(self, mode, color=0, now_ns=0):
        """Every ring in ``mode`` and ``color``, the pattern's phase starting at ``now_ns``."""
        for p in range(1, self.stations + 1):
            self.set(p, mode, color, now_ns=now_ns)

    def rest(self, players, now_ns=0):
        """Each seated station in its own colour, dimmed; the others off."""
        for p in range(1, self.stations + 1):
            if p <= players:
                self.set(p, SOLID, palette.scale(palette.station(p), 60), now_ns=now_ns)
            else:
                self.set(p, OFF)

    def _uniform(self, mode, color, phase):
        """The one colour of a ring whose pixels are all alike, at ``phase``."""
        if mode == SOLID:
            return color
        if mode == PULSE:
            k = phase % _PULSE_NS
            half = _PULSE_NS // 2
            tri = k if k < half else _PULSE_NS - k  # 0..half
            step = tri * _PULSE_STEPS // half  # a few brightness steps: few strip writes
            return palette.scale(color, 40 + 215 * step // _PULSE_STEPS)
        if mode == FLASH:
            return color if (phase // _FLASH_NS) % 2 == 0 else 0
        if mode == BLINK:
            return color if (phase // _BLINK_NS) % 2 == 0 else 0
        return 0

    def update(self, now_ns):
        """Render all rings at ``now_ns``; returns True if the strip was written."""
        if self._still and not self._dirty:
            return False
        changed = False
        still = True
        per = self.per_ring
        px = self.pixels
        shown = self._shown
        stale = self._stale
        for p in range(1, self.stations + 1):
            mode, color, arg, color2, since = self._modes[p]
            new = stale[p]
            stale[p] = False
            if mode in (SOLID, OFF, COUNT, PIXELS):
                if not new:
                    continue  # a still ring not set since: as it was written
            else:
                still = False
            base = (p - 1) * per
            if mode == COUNT:  # each ring built as a list and written as one slice: a
                n = min(max(arg, 0), per)  # loop over its pixels in Python was ~0.4 ms a ring
                row = [color] * n + [color2] * (per - n)
            elif mode == PIXELS:
                row = list(arg[:per])
                row += [0] * (per - len(row))
            else:
                c = self._uniform(mode, color, now_ns - since)
                if shown[base] == c and shown[base + per - 1] == c and not new:
                    continue  # unchanged since the last write (uniform modes write whole rings)
                row = [c] * per
            if shown[base:base + per] != row:
                shown[base:base + per] = row
                px[base:base + per] = row
                changed = p
        self._dirty = False
        self._still = still
        if changed:
            if self._upto:  # the strip sent only as far as the last ring written
                px.upto = changed * per
            px.show()
        return bool(changed)

    def colors(self, player):
        """The colours last written for ring ``player`` as ints."""
        base = (player - 1) * self.per_ring
        return [c or 0 for c in self._shown[base:base + self.per_ring]]
