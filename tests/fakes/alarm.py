"""Strict fake of CircuitPython's ``alarm`` as the RP2040 port has it: only
``sleep_memory`` (what ``safemode.py`` counts its resets in) and ``wake_alarm``.

``sleep_memory`` is the one ``SleepMemory`` (no constructor), 256 bytes on the
RP2040 (CircuitPython 10.x, ports/raspberrypi/common-hal/alarm/SleepMemory.h
``SLEEP_MEMORY_LENGTH``). Indexing follows shared-bindings/alarm/SleepMemory.c
``alarm_sleep_memory_subscr``: an int index (negative counts from the end) reads
or writes one byte, values 0-255; a slice with step 1 reads a ``bytearray`` and
takes a bytes-like value of the same length; no deletion, no resizing.

The bytes live in RAM the firmware never initialises (``.uninitialized``):
they survive ``microcontroller.reset()`` and the watchdog's reset, and are zeroed
at power-up (``alarm_sleep_memory_reset`` finds no valid guard word). In the fakes
a reset keeps this module and its bytes; ``_power_up()`` models a power cycle.
(The RP2350 port has no ``alarm`` module in 10.x: ports/raspberrypi/mpconfigport.mk
``CIRCUITPY_ALARM = 0``; put ``None`` in ``sys.modules["alarm"]`` to model it.)
"""

_TOKEN = object()
LENGTH = 256  # SLEEP_MEMORY_LENGTH on the RP2040


class SleepMemory:
    def __init__(self, *args, **kwargs):
        if not args or args[0] is not _TOKEN:
            raise TypeError("cannot create 'SleepMemory' instances")
        self._data = bytearray(LENGTH)

    def __len__(self):
        return len(self._data)

    def __bool__(self):
        return len(self._data) != 0

    def _slice(self, index):
        start, stop, step = index.indices(len(self._data))
        if step != 1:
            raise NotImplementedError("only slices with step=1 (aka None) are supported")
        return start, max(start, stop)

    def _index(self, index):
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError("SleepMemory indices must be integers, not " + type(index).__name__)
        if index < 0:
            index += len(self._data)
        if not 0 <= index < len(self._data):
            raise IndexError("SleepMemory index out of range")
        return index

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop = self._slice(index)
            return bytearray(self._data[start:stop])
        return self._data[self._index(index)]

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            start, stop = self._slice(index)
            if not isinstance(value, (bytes, bytearray, memoryview)):
                raise NotImplementedError("array/bytes required on right side")
            value = bytes(value)
            if len(value) != stop - start:
                raise ValueError("Slice and value different lengths.")
            self._data[start:stop] = value
            return
        index = self._index(index)
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError("can't convert " + type(value).__name__ + " to int")
        if not 0 <= value <= 255:
            raise ValueError("bytes must be 0-255")
        self._data[index] = value

    def __delitem__(self, index):
        raise TypeError("'SleepMemory' object doesn't support item deletion")

    def __setattr__(self, name, value):
        if name != "_data":
            raise AttributeError("'SleepMemory' object has no attribute '" + name + "'")
        object.__setattr__(self, name, value)


sleep_memory = SleepMemory(_TOKEN)
wake_alarm = None


def _power_up():
    """A power cycle: the RAM lost its bytes, and the firmware zeroes them."""
    sleep_memory._data = bytearray(LENGTH)
