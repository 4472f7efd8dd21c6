"""Referee Box: the entry point on both worlds.

On CircuitPython this builds the real box and runs the app forever. On a PC
(CPython) ``python code.py`` opens the simulated box in a window, or with
``--demo`` plays a headless demo and writes PNG snapshots.
"""

import sys

if sys.implementation.name == "circuitpython":
    try:
        from hardware import device
    except Exception as e:  # a library missing from CIRCUITPY, or a file that does not load
        # (an .mpy of another CircuitPython version: ValueError): said on the screen,
        # on serial and by red rings, never a traceback
        from hardware import rescue

        rescue.run(e)
    device.main()
elif __name__ == "__main__":  # on a PC, importing this file (as pdb does with ``code``) runs nothing
    sys.path.insert(0, "lib")  # CIRCUITPY/lib is on the device's path already
    from pc import main as pc_main

    sys.exit(pc_main.main(sys.argv[1:]))
