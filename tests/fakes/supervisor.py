"""Strict fake of CircuitPython's ``supervisor`` (9.x/10.x).

``ticks_ms()`` follows the fake world's clock (wrapping at 2**29 ms);
``runtime.autoreload`` records every change; ``set_usb_identification`` takes
the 9.x arguments and checks them; ``disable_autoreload`` is gone (removed in
CircuitPython 9), so code calling it fails here as it would there.
"""

import fakeworld


def ticks_ms():
    return fakeworld.world().ticks_ms()


class _Runtime:
    def __init__(self):
        self._autoreload = True
        self.autoreload_log = []  # (t_ns, value)
        self.serial_connected = True
        self.usb_connected = True
        self.serial_bytes_available = 0
        self.run_reason = "startup"

    @property
    def autoreload(self):
        return self._autoreload

    @autoreload.setter
    def autoreload(self, value):
        if not isinstance(value, bool):
            raise TypeError("autoreload must be a bool")
        self._autoreload = value
        self.autoreload_log.append((fakeworld.world().now_ns, value))


runtime = _Runtime()
usb_identification = {}


def set_usb_identification(manufacturer=None, product=None, vid=-1, pid=-1):
    for name, s in (("manufacturer", manufacturer), ("product", product)):
        if s is None:
            continue
        if not isinstance(s, (str, bytes, bytearray)):
            raise TypeError(name + " must be a str or buffer")
        raw = s.encode() if isinstance(s, str) else bytes(s)
        if len(raw) > 126 or any(b > 127 for b in raw):
            raise ValueError(name + " must be ASCII, at most 126 characters")
    for name, v in (("vid", vid), ("pid", pid)):
        if isinstance(v, bool) or not isinstance(v, int) or not -1 <= v <= 0xFFFF:
            raise ValueError(name + " must be -1-65535")
    usb_identification.update(manufacturer=manufacturer, product=product, vid=vid, pid=pid)


def reload():
    raise SystemExit("supervisor.reload()")
