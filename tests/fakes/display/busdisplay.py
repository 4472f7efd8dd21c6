"""Stand-in for CircuitPython's built-in ``busdisplay.BusDisplay``.

The constructor takes the 9.x/10.x arguments (keyword-only after the bus and
init sequence) and sends the init sequence to the bus; ``refresh`` counts
frames; ``root_group`` takes a Group (or None).
"""

import displayio
import fakeworld


class BusDisplay:
    def __init__(
        self,
        display_bus,
        init_sequence,
        *,
        width,
        height,
        colstart=0,
        rowstart=0,
        rotation=0,
        color_depth=16,
        grayscale=False,
        pixels_in_byte_share_row=True,
        bytes_per_cell=1,
        reverse_pixels_in_byte=False,
        reverse_bytes_in_word=True,
        set_column_command=0x2A,
        set_row_command=0x2B,
        write_ram_command=0x2C,
        backlight_pin=None,
        brightness_command=None,
        brightness=1.0,
        single_byte_bounds=False,
        data_as_commands=False,
        auto_refresh=True,
        native_frames_per_second=60,
        backlight_on_high=True,
        SH1107_addressing=False,
    ):
        if rotation % 90:
            raise ValueError("Display rotation must be in 90 degree increments")
        seq = bytes(init_sequence)
        i = 0
        while i < len(seq):
            cmd = seq[i]
            n = seq[i + 1]
            delay = n & 0x80
            n &= 0x7F
            display_bus.send(cmd, seq[i + 2:i + 2 + n])
            i += 2 + n + (1 if delay else 0)
        self.width = width  # as the user sees it (after rotation)
        self.height = height
        self.rotation = rotation
        self.bus = display_bus
        self.auto_refresh = auto_refresh
        self.brightness = brightness
        self._root = None
        self.refreshes = 0
        self._released = False
        fakeworld.world().displays.append(self)

    @property
    def root_group(self):
        return self._root

    @root_group.setter
    def root_group(self, group):
        if group is not None and not isinstance(group, displayio.Group):
            raise TypeError("root_group must be a Group")
        self._root = group

    def refresh(self, *, target_frames_per_second=None, minimum_frames_per_second=0):
        if self._released:
            raise RuntimeError("display released")
        self.refreshes += 1
        return True
