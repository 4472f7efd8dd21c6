"""PC only: ``hardware.sim`` is the simulated box's pinned name (outside tests import
``hardware.sim.SimTable``); the module is ``pc/sim.py``, with the rest of the PC side.
Importing this name gives that module itself, so both names are one module. Never
imported on the box."""

import sys

from pc import sim

sys.modules[__name__] = sim
