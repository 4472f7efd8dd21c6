"""AST guard: device code uses nothing CircuitPython lacks, and lib/referee and games
never touch the machine (the dependency rule). See docs/compat.md for the rules."""

import compat
import pytest

DEVICE_FILES = compat.device_files()
PORTABLE = set(compat.portable_files())


@pytest.mark.parametrize("path", DEVICE_FILES, ids=[compat.rel(p) for p in DEVICE_FILES])
def test_device_file_follows_the_rules(path):
    problems = compat.ast_violations(path, portable=path in PORTABLE)
    assert not problems, "CircuitPython rules broken (docs/compat.md):\n" + "\n".join(problems)


# --- the guard can fail: one bad module per rule -------------------------------------

BAD = {
    "dataclasses": ("forbidden-import", "from dataclasses import dataclass\n"),
    "enum": ("forbidden-import", "import enum\n"),
    "abc": ("forbidden-import", "from abc import ABC\n"),
    "typing-unguarded": ("forbidden-import", "from typing import List\n"),
    "typing-wrong-handler": ("forbidden-import",
                             "try:\n    from typing import List\nexcept NameError:\n    pass\n"),
    "functools": ("forbidden-import", "def f():\n    from functools import lru_cache\n"),
    "itertools": ("forbidden-import", "import itertools as it\n"),
    "random": ("forbidden-import", "import random\nrandom.shuffle([])\n"),
    "collections": ("forbidden-import", "from collections import Counter\n"),
    "dunder-import": ("forbidden-import", "m = __import__('random')\n"),
    "match": ("match", "def f(x):\n    match x:\n        case 1:\n            return 2\n"),
    "nested-f-string": ("nested-f-string", "x = 1\ns = f\"{f'{x}'}\"\n"),
    "removeprefix": ("missing-method", "s = 'p1'.removeprefix('p')\n"),
    "removesuffix": ("missing-method", "s = 'p1'.removesuffix('1')\n"),
    "bit_count": ("missing-method", "n = (5).bit_count()\n"),
    "ljust": ("missing-method", "s = 'a'.ljust(5)\n"),
    "math.comb": ("missing-math", "import math\nn = math.comb(6, 2)\n"),
    "math.perm": ("missing-math", "import math\nn = math.perm(6, 2)\n"),
    "math.isqrt": ("missing-math", "from math import isqrt\n"),
    "ModuleNotFoundError": ("missing-builtin",
                            "try:\n    import foo\nexcept ModuleNotFoundError:\n    pass\n"),
    "format-builtin": ("missing-builtin", "s = format(3, '>4')\n"),
    # the line that stopped the box at boot on CircuitPython 10.2.1 (lib/referee/screen.py)
    "native-base-init": ("base-init", "import displayio\nclass Text(displayio.Group):\n"
                         "    def __init__(self, scale=2):\n"
                         "        displayio.Group.__init__(self, scale=scale)\n"),
    "python-base-init": ("base-init", "class A:\n    def __init__(self):\n        pass\n"
                         "class B(A):\n    def __init__(self):\n        A.__init__(self)\n"),
}
MACHINE = ["board", "digitalio", "rp2pio", "neopixel", "microcontroller", "storage",
           "supervisor", "busio", "pwmio", "keypad", "fourwire", "busdisplay",
           "adafruit_st7789", "adafruit_ili9341", "hardware"]


@pytest.mark.parametrize("name", sorted(BAD))
def test_guard_rejects_bad_construct(tmp_path, name):
    rule, src = BAD[name]
    path = tmp_path / "bad.py"
    path.write_text(src)
    compile(src, str(path), "exec")  # CPython accepts every one of them
    problems = compat.ast_violations(path, portable=True)
    assert any("[%s]" % rule in p for p in problems), (name, problems)
    # the construct rules hold for code.py, boot.py and device hardware files too
    assert compat.ast_violations(path, portable=False) == problems
    assert all(p.startswith("%s:" % path) for p in problems), problems


@pytest.mark.parametrize("module", MACHINE)
def test_dependency_rule(tmp_path, module):
    path = tmp_path / "bad.py"
    for src, line in (("import %s\n" % module, 1),
                      ("x = 1\nfrom %s import thing\n" % module, 2),
                      ("def f():\n    import %s.sub as s\n" % module, 2)):
        path.write_text(src)
        problems = compat.ast_violations(path, portable=True)
        assert problems == [
            "%s:%d: [dependency-rule] imports %s: lib/referee and games never touch the "
            "machine (only hardware/, code.py and boot.py do)"
            % (path, line, module + (".sub" if ".sub" in src else ""))], problems
        # hardware/, code.py and boot.py may touch the machine
        assert compat.ast_violations(path, portable=False) == []


def test_failure_message_names_file_line_and_rule(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text("import board\n\n\nimport random\n")
    assert compat.ast_violations(path, portable=True) == [
        "%s:1: [dependency-rule] imports board: lib/referee and games never touch the "
        "machine (only hardware/, code.py and boot.py do)" % path,
        "%s:4: [forbidden-import] imports random: use referee.rng (CircuitPython's "
        "random differs from CPython's)" % path,
    ]


GOOD = """
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

try:
    from typing import List, Optional  # annotations only
except ImportError:
    pass

try:
    import typing
except (ImportError, AttributeError):
    typing = None

import math
from referee import rng
from referee.arbiter import Race

N = const(6)
W = 4


def f(xs, format="x"):
    ascii = [y for x in xs if (y := x * 2)]
    s = f"{N!r:>{W}} {xs[0]:04d} {'text'}"
    t = "{:>5}".format(N)
    return math.sqrt(4), sorted(xs, key=lambda v: -v), s, t, format, ascii, " x ".strip()


class Thing:
    def removeprefix_like(self):
        return self
"""


def test_guard_accepts_good_module(tmp_path):
    path = tmp_path / "good.py"
    path.write_text(GOOD)
    assert compat.ast_violations(path, portable=True) == []


def test_the_box_folders_hold_only_box_code():
    # the PC side is in pc/; in the box's folders only the pinned alias hardware/sim.py is PC-only
    box = [compat.rel(p) for p in compat.device_files()]
    assert all(w.split("/")[0] in ("lib", "games", "hardware", "code.py", "boot.py", "safemode.py") for w in box)
    assert compat.PC_ALIAS not in box and compat.is_pc_only(compat.ROOT / compat.PC_ALIAS)
    assert all(compat.is_pc_only(p) for p in (compat.ROOT / "pc").glob("*.py"))
    said_pc = [w for w in box if "PC only" in compat.first_docstring_line(compat.ROOT / w)]
    assert said_pc == [], "PC code in the box's folders: move it to pc/"


def test_lib_never_imports_games():
    # lib/ is the framework below the games: the entry points pass the registry in
    inside = compat.ROOT / "lib" / "referee" / "app.py"
    for src in ("import games\n", "from games import zilch\n", "def f():\n    import games.zilch\n"):
        problems = compat.ast_violations(inside, portable=True, source=src)
        assert len(problems) == 1 and "[dependency-rule]" in problems[0] and "never imports games" in problems[0]
    # a game may import a sibling, and hardware/ may import the registry
    assert compat.ast_violations(compat.ROOT / "games" / "zilch.py", portable=True, source="import games\n") == []
    assert compat.ast_violations(compat.ROOT / "hardware" / "device.py", portable=False, source="import games\n") == []


def test_guard_allows_super_init(tmp_path):
    path = tmp_path / "good.py"
    path.write_text("import displayio\nclass Text(displayio.Group):\n"
                    "    def __init__(self, scale=2):\n        super().__init__(scale=scale)\n")
    assert compat.ast_violations(path, portable=True) == []
