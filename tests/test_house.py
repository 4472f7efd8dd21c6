"""The house rules that no single module can check: shared helpers are defined
once (referee.core), and the device tree carries no test-only code."""
import re
from pathlib import Path

import compat

ROOT = Path(__file__).resolve().parent.parent


def device_sources():
    return [p for p in compat.device_files() if not compat.is_pc_only(p)]


def test_const_ms_and_seat_label_are_defined_once():
    found = {"const": [], "MS": [], "seat label": []}
    for p in device_sources():
        src = p.read_text(encoding="utf-8")
        where = compat.rel(p)
        if re.search(r"^\s*def const\(", src, re.M):
            found["const"].append(where)
        if re.search(r"^_?MS = ", src, re.M):
            found["MS"].append(where)
        if '"P" + str(' in src:
            found["seat label"].append(where)
    assert found == {"const": ["lib/referee/core.py"], "MS": ["lib/referee/core.py"],
                     "seat label": ["lib/referee/core.py"]}



def test_no_test_only_helpers_on_the_box():
    # forcing dice, pacing bots and building games from a state belong to tests/
    banned = ("def pace(", "def load_dice(", "def from_state(", "class Extender")
    hits = [(compat.rel(p), b) for p in device_sources() for b in banned
            if b in p.read_text(encoding="utf-8")]
    assert hits == []
