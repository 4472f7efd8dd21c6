"""Strict fake of CircuitPython's ``pwmio.PWMOut``.

``PWMOut(pin, *, duty_cycle=0, frequency=500, variable_frequency=False)``:
16-bit duty cycle, frequency > 0, and ``frequency`` may only be changed when
``variable_frequency`` is True. Every change of what the pin sounds like goes
to the world's ``tones`` as (t_ns, frequency, duty_cycle).
"""

import fakeworld
from digitalio import check_pin


class PWMOut:
    def __init__(self, pin, *, duty_cycle=0, frequency=500, variable_frequency=False):
        check_pin(pin)
        for name, v in (("duty_cycle", duty_cycle), ("frequency", frequency)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError("can't convert " + type(v).__name__ + " to int (" + name + ")")
        if not 0 <= duty_cycle <= 0xFFFF:
            raise ValueError("duty_cycle must be 0-65535")
        if frequency <= 0 or frequency > fakeworld.world().sysclk_hz // 2:
            raise ValueError("Invalid PWM frequency")
        w = fakeworld.world()
        w.claim(pin, "pwmio")
        self._pin = pin
        self._duty = duty_cycle
        self._freq = frequency
        self._variable = bool(variable_frequency)
        self._deinited = False
        self._log()

    def _log(self):
        w = fakeworld.world()
        w.tones.append((w.now_ns, self._freq, self._duty))

    def _check(self):
        if self._deinited:
            raise ValueError("Object has been deinitialized.")

    def deinit(self):
        if not self._deinited:
            fakeworld.world().release(self._pin)
        self._deinited = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    @property
    def duty_cycle(self):
        self._check()
        return self._duty

    @duty_cycle.setter
    def duty_cycle(self, value):
        self._check()
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError("duty_cycle must be an int")
        if not 0 <= value <= 0xFFFF:
            raise ValueError("duty_cycle must be 0-65535")
        self._duty = value
        self._log()

    @property
    def frequency(self):
        self._check()
        return self._freq

    @frequency.setter
    def frequency(self, value):
        self._check()
        if not self._variable:
            raise AttributeError("PWM frequency not writable when variable_frequency is False.")
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError("frequency must be an int")
        if value <= 0 or value > fakeworld.world().sysclk_hz // 2:
            raise ValueError("Invalid PWM frequency")
        self._freq = value
        self._log()
