"""Piezo cues as data, played without blocking.

``Sound(driver)`` needs a driver with ``tone(freq_hz)`` (0 = silent). The app calls
``update(now_ns)`` every loop; a cue is a tuple of (freq_hz, ms) notes.
"""

COUNT = ((880, 120),)
GO = ((1760, 250),)
FALSE_START = ((220, 150), (0, 60), (220, 150), (0, 60), (220, 300))
LOCKOUT = ((330, 200), (0, 50), (220, 300))
RIGHT = ((1320, 90), (1760, 140))
WIN = ((1047, 120), (1319, 120), (1568, 120), (2093, 400))
CLICK = ((2000, 15),)
ERROR = ((200, 500),)


class Sound:
    """Plays cues (module doc) on ``driver``; ``enabled`` False: silent (a cue is
    still recorded when ``log`` is a list); ``level``: the loudness (``set_level``)."""

    def __init__(self, driver, enabled=True):
        self.driver = driver
        self.enabled = enabled
        self.level = 3 if enabled else 0
        self._cue = ()
        self._i = 0
        self._until = 0
        self.log = None  # a list to record (t_ns, cue) in tests and demos

    def set_level(self, level):
        """The loudness 0 (off) .. 3 (full): a driver with a ``level`` (the piezo's
        duty cycle) takes it; 0 silences every cue."""
        self.level = level
        self.enabled = level > 0
        if hasattr(self.driver, "level"):
            self.driver.level = level

    def play(self, cue, now_ns):
        """Start ``cue`` at ``now_ns``, cutting off any cue still playing."""
        if self.log is not None:
            self.log.append((now_ns, cue))
        if not self.enabled:
            return
        self._cue = cue
        self._i = -1
        self._until = now_ns

    def update(self, now_ns):
        """The next note once the current one has lasted its ms; silence after the last."""
        if self._i >= len(self._cue) or now_ns < self._until:
            return
        self._i += 1
        if self._i >= len(self._cue):
            self.driver.tone(0)
            return
        freq, dur = self._cue[self._i]
        self.driver.tone(freq)
        self._until = now_ns + dur * 1000000

    if __debug__:  # the simulator's (it skips idle time); the box never asks: its -O3 .mpy leaves this out
        def next_at(self, now_ns):
            """When ``update`` next changes the tone (ns), None when silent."""
            return self._until if self._i < len(self._cue) else None

    @property
    def busy(self):
        """True while a cue is playing."""
        return self._i < len(self._cue)
