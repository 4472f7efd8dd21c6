"""PC only: the environment the PC side sets before anything imports Blinka or pygame.

Blinka (under displayio and pixelbuf) detects the board it runs on and prints
"WARNING: GENERIC_X86 is not fully supported" on every PC. The simulator uses
none of its pins, so it names Blinka's own board-less target (the OS_AGNOSTIC
chip and board, made for this). pygame's banner is hidden too. An explicit
setting in the environment wins. Importing this module is all it takes.
"""

import os

os.environ.setdefault("BLINKA_FORCECHIP", "OS_AGNOSTIC")
os.environ.setdefault("BLINKA_FORCEBOARD", "OS_AGNOSTIC_BOARD")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
