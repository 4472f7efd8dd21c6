"""The box a game receives: what every backend (device, PC simulation) provides.

Backends subclass ``Box`` and implement ``now_ns``, ``poll``, ``set_backlight``
and ``show``. Edges are ``(player, t_ns, pressed)``: player 1..7 is a station,
``REVEAL`` (0) is the backlight line (pressed = lit), ``gestures.MENU`` the MENU
button. ``t_ns`` is on the box's one monotonic time base.
"""

from referee.rings import Rings
from referee.sound import Sound

REVEAL = 0


class Box:
    """The box a game receives (module doc): ``stations`` (1..7), ``pixels`` (the
    rings' NeoPixel strip), ``tone_driver`` (the piezo: ``tone(freq_hz)``), ``store``
    (the match saves' byte store; None: no saves) and ``sound`` (False: silent)."""

    # What the capture backend can resolve, for honest displays ("ms precision").
    precision_ns = 1
    capture_name = "sim"
    # Where the launcher's "How to play" pages are (rules/<game>.txt, referee.rules).
    rules_dir = "/rules"

    def __init__(self, stations, pixels, tone_driver, store=None, sound=True):
        self.stations = stations
        self.pixels = pixels
        self.rings = Rings(pixels, stations)
        self.sound = Sound(tone_driver, sound)
        self.store = store
        self.backlight = True
        self.lost = 0  # capture words lost since last taken

    # --- to implement -----------------------------------------------------
    def now_ns(self):
        """The time on the box's one monotonic time base, in integer ns."""
        raise NotImplementedError

    def poll(self):
        """Edges captured since the last poll, oldest first."""
        raise NotImplementedError

    def set_backlight(self, on):
        """Switch the backlight (the REVEAL line): ``on`` = lit. Games call ``reveal``."""
        raise NotImplementedError

    def show(self, group):
        """Put the displayio ``group`` on the screen."""
        raise NotImplementedError

    def new_seed(self):
        """A fresh seed for a match's dice (the device's comes from ``os.urandom``)."""
        raise NotImplementedError

    # --- shared -------------------------------------------------------------
    def reveal(self, on):
        """Backlight on = the stimulus becomes visible. The edge comes back
        through ``poll`` with its captured time: that is the race's reveal."""
        self.backlight = on
        self.set_backlight(on)

    def take_lost(self):
        """Capture words lost since the last call (the count starts again at 0)."""
        n = self.lost
        self.lost = 0
        return n

    def log(self, msg):
        """A line for the log (printed: the serial console on the device)."""
        print(msg)

    def log_exception(self, e):
        """A game raised ``e``: the device prints its traceback to serial."""
