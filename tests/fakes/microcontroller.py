"""Strict fake of CircuitPython's ``microcontroller`` (RP2040 / RP2350).

``Pin`` objects cannot be made by user code (only ``board`` has them), ``nvm`` is
a fixed 4096-byte ``ByteArray`` (no resizing, slice writes must keep the
length) and ``watchdog`` is the one ``WatchDogTimer``.
"""

import fakeworld

_TOKEN = object()


class Pin:
    def __init__(self, *args, **kwargs):
        if not args or args[0] is not _TOKEN:
            raise TypeError("cannot create 'Pin' instances")
        self.number = args[1]
        self.name = args[2]

    def __repr__(self):
        return "board." + self.name

    def __hash__(self):
        return self.number


def _make_pin(number, name):
    return Pin(_TOKEN, number, name)


class Processor:
    @property
    def frequency(self):
        return fakeworld.world().sysclk_hz

    @property
    def temperature(self):
        return 27.0

    @property
    def uid(self):
        return bytearray(b"\x01\x02\x03\x04\x05\x06\x07\x08")


class ByteArray:
    """``microcontroller.nvm``: fixed size; every write is counted."""

    def __init__(self, size=4096):
        self._data = bytearray(b"\xff" * size)
        self.writes = 0
        self.write_times = []

    def __len__(self):
        return len(self._data)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return bytearray(self._data[index])
        return self._data[index]

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self._data))
            if step != 1:
                raise NotImplementedError("only slices with step=1 (aka None) are supported")
            value = bytes(value)
            if len(value) != stop - start:
                raise ValueError("Slice and value different lengths.")
            self._data[start:stop] = value
        else:
            if not isinstance(index, int):
                raise TypeError("index must be int")
            if not 0 <= value <= 255:
                raise ValueError("Array values should be single bytes.")
            self._data[index] = value
        self.writes += 1
        self.write_times.append(fakeworld.world().now_ns)

    def __iter__(self):
        return iter(bytes(self._data))

    def __setattr__(self, name, value):
        if name not in ("_data", "writes", "write_times"):
            raise AttributeError("'ByteArray' object has no attribute '" + name + "'")
        object.__setattr__(self, name, value)

    def append(self, value):  # pragma: no cover - the real one has no append
        raise AttributeError("'ByteArray' object has no attribute 'append'")


cpu = Processor()
nvm = ByteArray()

import watchdog as _watchdog  # noqa: E402  (the module holds the timer class)

watchdog = _watchdog._make_timer()


def reset():
    raise SystemExit("microcontroller.reset()")


def delay_us(delay):
    fakeworld.world().advance_to(fakeworld.world().now_ns + int(delay) * 1000)
