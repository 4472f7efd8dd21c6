"""Strict fake of CircuitPython's ``microcontroller`` (RP2040 / RP2350).

``Pin`` objects cannot be made by user code (only ``board`` has them), ``nvm`` is
a fixed 4096-byte ``ByteArray`` (no resizing, slice writes must keep the
length) that writes like the RP2040's flash sector, with power cuts on demand
(``ByteArray``), and ``watchdog`` is the one ``WatchDogTimer``.
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


PAGE = 256  # FLASH_PAGE_SIZE
SECTOR = 4096  # FLASH_SECTOR_SIZE: the whole nvm on RP2040 / RP2350 (CIRCUITPY_INTERNAL_NVM_SIZE)


class PowerCut(Exception):
    """The power failed during an nvm write (raised by an armed ``ByteArray.cut``)."""


class ByteArray:
    """``microcontroller.nvm`` on RP2040 / RP2350: one 4 KiB flash sector, written
    as CircuitPython 10.2 does it (ports/raspberrypi/common-hal/nvm/ByteArray.c,
    ``common_hal_nvm_bytearray_set_bytes``):

    * if the bytes written over all read 0xFF, each 256-byte page the write
      touches is programmed (``write_page``: the page is read, the new bytes laid
      over it, the page programmed; flash programming only clears bits, so the
      other bytes of the page do not change);
    * else the sector is read into a buffer, the new bytes laid over it, the
      sector erased (all 0xFF) and programmed page by page, page 0 first
      (``erase_and_write_sector``, interrupts off).

    Each erase and each page program is one *step* (``steps`` counts them all,
    ``erases`` and ``programs`` each kind). ``cut(after, partial)`` arms a power
    cut: ``after`` more steps complete, then, with ``partial``, the next step is
    cut halfway (an erase leaves each bit it had to set either set or not, a
    program each bit it had to clear either cleared or not: ``partial`` seeds the
    choice), and the write raises ``PowerCut``. ``plan(index, value)`` says how
    many steps a write would take, without writing. Reads are plain copies.
    """

    def __init__(self, size=SECTOR):
        self._data = bytearray(b"\xff" * size)
        self.writes = 0
        self.write_times = []
        self.steps = 0
        self.erases = 0
        self.programs = 0
        self._cut = None

    def __len__(self):
        return len(self._data)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return bytearray(self._data[index])
        return self._data[index]

    def _range(self, index, value):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self._data))
            if step != 1:
                raise NotImplementedError("only slices with step=1 (aka None) are supported")
            value = bytes(value)
            if len(value) != stop - start:
                raise ValueError("Slice and value different lengths.")
            return start, value
        if not isinstance(index, int):
            raise TypeError("index must be int")
        if not 0 <= value <= 255:
            raise ValueError("Array values should be single bytes.")
        if index < 0:
            index += len(self._data)
        if not 0 <= index < len(self._data):
            raise IndexError("bytearray index out of range")
        return index, bytes([value])

    def _ops(self, start, value):
        """The steps of one write: ("erase",) or ("program", page address, 256 bytes)."""
        old = self._data
        if all(b == 0xFF for b in old[start:start + len(value)]):
            ops = []
            a = start
            end = start + len(value)
            while a < end:
                page = a - a % PAGE
                stop = min(end, page + PAGE)
                buf = bytearray(old[page:page + PAGE])
                buf[a - page:stop - page] = value[a - start:stop - start]
                ops.append(("program", page, bytes(buf)))
                a = stop
            return ops
        buf = bytearray(old)
        buf[start:start + len(value)] = value
        ops = [("erase",)]
        for page in range(0, len(buf), PAGE):
            ops.append(("program", page, bytes(buf[page:page + PAGE])))
        return ops

    def plan(self, index, value):
        """How many steps (erase, page programs) writing ``value`` at ``index`` takes."""
        return len(self._ops(*self._range(index, value)))

    def cut(self, after, partial=None):
        """Arm a power cut: ``after`` more steps complete, then (``partial``: a seed)
        the next one is cut halfway, and the write raises PowerCut."""
        self._cut = (after, partial)

    def _step(self, op, rng=None):
        data = self._data
        if op[0] == "erase":
            for i in range(len(data)):
                data[i] = 0xFF if rng is None else data[i] | rng.getrandbits(8)
            self.erases += rng is None
        else:
            _, page, buf = op
            for i, b in enumerate(buf):
                clear = data[page + i] & ~b  # the bits this program clears
                if rng is not None:
                    clear &= rng.getrandbits(8)
                data[page + i] &= ~clear & 0xFF
            self.programs += rng is None
        self.steps += rng is None

    def __setitem__(self, index, value):
        start, value = self._range(index, value)
        ops = self._ops(start, value)
        self.writes += 1
        self.write_times.append(fakeworld.world().now_ns)
        cut, self._cut = self._cut, None
        for k, op in enumerate(ops):
            if cut is not None and k == cut[0]:
                if cut[1] is not None:
                    import random

                    self._step(op, random.Random(cut[1]))
                raise PowerCut("power cut after " + str(k) + " of " + str(len(ops)) + " steps")
            self._step(op)
        if cut is not None:  # armed beyond this write: it stays armed for the next
            self._cut = (cut[0] - len(ops), cut[1])

    def __iter__(self):
        return iter(bytes(self._data))

    def __setattr__(self, name, value):
        if name not in ("_data", "writes", "write_times", "steps", "erases", "programs", "_cut"):
            raise AttributeError("'ByteArray' object has no attribute '" + name + "'")
        object.__setattr__(self, name, value)

    def append(self, value):  # pragma: no cover - the real one has no append
        raise AttributeError("'ByteArray' object has no attribute 'append'")


cpu = Processor()
nvm = ByteArray()

import watchdog as _watchdog  # noqa: E402  (the module holds the timer class)

watchdog = _watchdog._make_timer()


resets = 0  # calls of reset(), for the tests (the real one never returns)


def reset():
    global resets
    resets += 1
    raise SystemExit("microcontroller.reset()")


def delay_us(delay):
    fakeworld.world().advance_to(fakeworld.world().now_ns + int(delay) * 1000)
