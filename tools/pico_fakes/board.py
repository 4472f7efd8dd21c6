"""Fake of ``board`` for a Raspberry Pi Pico (memory benchmark, VM only): the
header's pins GP0..GP22, GP26..GP28 (static on the board)."""

from microcontroller import Pin

board_id = "raspberry_pi_pico"
for _n in list(range(0, 23)) + [26, 27, 28]:
    globals()["GP" + str(_n)] = Pin(_n, "GP" + str(_n))
LED = Pin(25, "LED")
SMPS_MODE = Pin(23, "SMPS_MODE")
VBUS_SENSE = Pin(24, "VBUS_SENSE")
VOLTAGE_MONITOR = Pin(29, "VOLTAGE_MONITOR")
A0 = GP26  # noqa: F821
A1 = GP27  # noqa: F821
A2 = GP28  # noqa: F821
A3 = VOLTAGE_MONITOR
del _n
