"""Device boot: runs once at power-up or hard reset, before code.py.

* USB identity: the drive and serial port show up as "Referee Box".
* Storage: normally the computer owns the CIRCUITPY drive and the code cannot
  write files. Hold station button P1 (GP2) while plugging in or pressing reset
  to swap that: the code may then write the filesystem (e.g. a match log), and
  the computer sees CIRCUITPY read-only until the next reset without P1 held.
  Match saves (two CRC-checked slots, written between rounds and offered for
  resume at power-up) live in ``microcontroller.nvm`` and need neither.

Changes to boot.py take effect only after a hard reset (unplug, or the reset
button); a save does not re-run it.
"""

import board
import digitalio
import microcontroller
import storage
import supervisor

from hardware import pins

MANUFACTURER = "Referee Box project"
PRODUCT = "Referee Box"

identify = getattr(supervisor, "set_usb_identification", None)
if identify is not None:  # boards without native USB have no such function
    try:
        identify(MANUFACTURER, PRODUCT)
    except (NotImplementedError, RuntimeError):
        pass

p1 = digitalio.DigitalInOut(pins.pin(board, "P1"))
p1.switch_to_input(pull=digitalio.Pull.UP)
# The pull-up charges the wire to the button through ~50 kOhm: read only once it
# has (read at once, an open line can still read low, i.e. "held"). Two reads 5 ms
# apart must both say held: a bounce or a touch is not a request.
microcontroller.delay_us(2000)
held = not p1.value  # active-low: pressed reads False
microcontroller.delay_us(5000)
held = held and not p1.value
p1.deinit()  # code.py claims GP2 again for capture

if held:
    storage.remount("/", readonly=False)
    print("boot: P1 held, code may write CIRCUITPY; the computer sees it read-only")
else:
    print("boot: CIRCUITPY is writable from the computer (hold P1 at reset for code writes)")
