"""Stand-in for ``adafruit_display_text.bitmap_label`` in the MicroPython VM (tests only)."""

from adafruit_display_text import LabelBase


class Label(LabelBase):
    pass
