"""Strict fake of ``board`` for a Raspberry Pi Pico / Pico 2.

Only the pins the Pico header has: GP0..GP22, GP26..GP28 (GP23..GP25 are
wired on the board: SMPS_MODE, VBUS_SENSE, LED). Any other name is an
AttributeError, as on the device.
"""

from microcontroller import _make_pin

board_id = "raspberry_pi_pico"

for _n in list(range(0, 23)) + [26, 27, 28]:
    globals()["GP" + str(_n)] = _make_pin(_n, "GP" + str(_n))
SMPS_MODE = _make_pin(23, "SMPS_MODE")
VBUS_SENSE = _make_pin(24, "VBUS_SENSE")
LED = _make_pin(25, "LED")
A0 = GP26  # noqa: F821
A1 = GP27  # noqa: F821
A2 = GP28  # noqa: F821
VOLTAGE_MONITOR = _make_pin(29, "VOLTAGE_MONITOR")
A3 = VOLTAGE_MONITOR
del _n
