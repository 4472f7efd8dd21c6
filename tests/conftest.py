"""Test set-up: the repo root and lib/ on sys.path, SDL headless, one display at a time."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (ROOT, os.path.join(ROOT, "lib")):
    if p not in sys.path:
        sys.path.insert(0, p)
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# Blinka's displayio and vectorio classes follow CircuitPython's rules for native types
# (no Base.__init__ attribute, no new attributes on a native object): fakes/native_types.py.
from fakes import native_types  # noqa: E402

native_types.seal_display_modules()

# Text is drawn as tiles of the built-in font's sprite sheet, which Blinka's font
# lacks: give it one (as the simulator does) before any test builds a screen.
from pc import font as pc_font  # noqa: E402

pc_font.install()

from pc import tile_palette_mapper  # noqa: E402  (CircuitPython's, which Blinka lacks)

tile_palette_mapper.install()

import pytest  # noqa: E402


@pytest.fixture
def unpaced():
    """Stop ``referee.pace`` after the test (a test that paces leaves the screen unpaced)."""
    yield
    from referee import pace

    pace.stop()
