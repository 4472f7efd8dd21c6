"""Fake of CircuitPython's ``microcontroller`` for the memory benchmark (VM only):
``Pin``, ``nvm`` (4 KiB in flash: slices are copied into the heap, as on the
board), ``watchdog`` (static on the board), ``cpu``."""


class Pin:
    def __init__(self, number, name):
        self.number = number
        self.name = name

    def __repr__(self):
        return "board." + self.name


class _Nvm:
    def __init__(self, size):
        self._b = bytearray(size)  # flash on the board: made before the baseline

    def __len__(self):
        return len(self._b)

    def __getitem__(self, index):
        return self._b[index]  # a slice is a new bytearray, as on the board

    def __setitem__(self, index, value):
        self._b[index] = value


nvm = _Nvm(4096)


class _WatchDog:
    timeout = 0
    mode = None

    def feed(self):
        pass

    def deinit(self):
        self.mode = None


watchdog = _WatchDog()


class _Cpu:
    frequency = 125000000
    temperature = 27.0
    voltage = 3.3
    uid = b"\x00" * 8


cpu = _Cpu()
cpus = (cpu,)


def reset():
    raise SystemExit("microcontroller.reset()")


def on_next_reset(mode):
    pass


class RunMode:
    NORMAL = 0
    SAFE_MODE = 1
    UF2 = 2
    BOOTLOADER = 3
