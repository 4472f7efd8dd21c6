"""Strict fake of CircuitPython's ``digitalio``.

``DigitalInOut(pin)`` takes one positional ``Pin`` and claims it (a claimed pin
is ``ValueError: GPn in use``); setting ``value`` on an input, ``pull`` on an
output or anything after ``deinit`` fails as on the device. Output levels go to
the fake world, where jumpers and other inputs see them.
"""

import fakeworld
import microcontroller


class _Enum:
    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return self._name


class Direction:
    INPUT = _Enum("digitalio.Direction.INPUT")
    OUTPUT = _Enum("digitalio.Direction.OUTPUT")


class Pull:
    UP = _Enum("digitalio.Pull.UP")
    DOWN = _Enum("digitalio.Pull.DOWN")


class DriveMode:
    PUSH_PULL = _Enum("digitalio.DriveMode.PUSH_PULL")
    OPEN_DRAIN = _Enum("digitalio.DriveMode.OPEN_DRAIN")


def check_pin(pin, what="pin"):
    if not isinstance(pin, microcontroller.Pin):
        raise TypeError(what + " must be of type Pin, not " + type(pin).__name__)
    return pin


class DigitalInOut:
    def __init__(self, *args, **kwargs):
        if kwargs:
            raise TypeError("function doesn't take keyword arguments")
        if len(args) != 1:
            raise TypeError("function takes 1 positional arguments but " + str(len(args)) + " were given")
        pin = check_pin(args[0])
        fakeworld.world().claim(pin, "digitalio")
        self._pin = pin
        self._direction = Direction.INPUT
        self._pull = None
        self._drive_mode = DriveMode.PUSH_PULL
        self._deinited = False
        self.writes = 0

    def _check(self):
        if self._deinited:
            raise ValueError("Object has been deinitialized.")

    def deinit(self):
        if not self._deinited:
            fakeworld.world().release(self._pin)
        self._deinited = True

    def deinited(self):
        return self._deinited

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    def switch_to_output(self, value=False, drive_mode=DriveMode.PUSH_PULL):
        self._check()
        if drive_mode not in (DriveMode.PUSH_PULL, DriveMode.OPEN_DRAIN):
            raise TypeError("drive_mode must be of type DriveMode")
        self._direction = Direction.OUTPUT
        self._pull = None
        self._drive_mode = drive_mode
        fakeworld.world().pulls.pop(self._pin.number, None)
        self._write(value)

    def switch_to_input(self, pull=None):
        self._check()
        self._direction = Direction.INPUT
        fakeworld.world().outputs.pop(self._pin.number, None)
        self._set_pull(pull)
        fakeworld.world().changed()

    def _set_pull(self, pull):
        if pull not in (None, Pull.UP, Pull.DOWN):
            raise TypeError("pull must be of type Pull or None")
        self._pull = pull
        pulls = fakeworld.world().pulls
        if pull is None:
            pulls.pop(self._pin.number, None)
        else:
            w = fakeworld.world()
            w.pull_since[self._pin.number] = w.now_ns
            pulls[self._pin.number] = "up" if pull is Pull.UP else "down"

    def _write(self, value):
        self.writes += 1
        w = fakeworld.world()
        w.set_output(self._pin.number, 1 if value else 0)
        w.log.append((w.now_ns, "gpio", (self._pin.number, 1 if value else 0)))

    @property
    def direction(self):
        self._check()
        return self._direction

    @direction.setter
    def direction(self, value):
        self._check()
        if value is Direction.OUTPUT:
            self.switch_to_output()
        elif value is Direction.INPUT:
            self.switch_to_input()
        else:
            raise TypeError("direction must be of type Direction")

    @property
    def value(self):
        self._check()
        return bool(fakeworld.world().level(self._pin.number))

    @value.setter
    def value(self, value):
        self._check()
        if self._direction is Direction.INPUT:
            raise AttributeError("Cannot set value when direction is input.")
        self._write(value)

    @property
    def pull(self):
        self._check()
        if self._direction is Direction.OUTPUT:
            raise AttributeError("Pull not used when direction is output.")
        return self._pull

    @pull.setter
    def pull(self, value):
        self._check()
        if self._direction is Direction.OUTPUT:
            raise AttributeError("Pull not used when direction is output.")
        self._set_pull(value)
        fakeworld.world().changed()

    @property
    def drive_mode(self):
        self._check()
        if self._direction is Direction.INPUT:
            raise AttributeError("Drive mode not used when direction is input.")
        return self._drive_mode
