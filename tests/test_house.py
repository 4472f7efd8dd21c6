"""The house rules that no single module can check: shared helpers are defined
once (referee.core), and the device tree carries no test-only code."""
import ast
import re
import textwrap
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



def test_presses_are_decoded_in_one_place():
    # the games count taps and claims with referee.gestures.Press: no bounce rule of their own
    found = []
    for p in device_sources():
        where = compat.rel(p)
        if where.startswith(("games/", "lib/referee/")) and where != "lib/referee/gestures.py":
            if re.search(r"BOUNCE|_TAP_MIN|_TAP_JOIN|class \w*Tap", p.read_text(encoding="utf-8")):
                found.append(where)
    assert found == []


def optimised_away(src):
    """What ``mpy-cross -O3`` (tools/deploy.py) drops from a module: its asserts and the
    branches on ``__debug__``."""
    tree = ast.parse(src)
    return [n.lineno for n in ast.walk(tree)
            if isinstance(n, ast.Assert) or (isinstance(n, ast.Name) and n.id == "__debug__")]


def test_nothing_on_the_box_is_optimised_away_by_the_deploy():
    # the box's .mpy drop asserts: a check the box relies on must be an if, not an assert
    hits = [(compat.rel(p), optimised_away(p.read_text(encoding="utf-8"))) for p in compat.device_files()]
    assert [h for h in hits if h[1]] == []
    assert optimised_away("def f(x):\n    assert x > 0\n    if __debug__:\n        pass\n") == [2, 3]


def test_no_test_only_helpers_on_the_box():
    # forcing dice, pacing bots and building games from a state belong to tests/
    banned = ("def pace(", "def load_dice(", "def from_state(", "class Extender")
    hits = [(compat.rel(p), b) for p in device_sources() for b in banned
            if b in p.read_text(encoding="utf-8")]
    assert hits == []


def undocumented(src):
    """The public classes, functions and methods of public classes in ``src`` that have
    no docstring, as "name" or "Class.method" (a property's setter and deleter share
    its getter's docstring)."""
    missing = []
    for node in ast.parse(src).body:
        if not isinstance(node, (ast.FunctionDef, ast.ClassDef)) or node.name.startswith("_"):
            continue
        if ast.get_docstring(node) is None:
            missing.append(node.name)
        if not isinstance(node, ast.ClassDef):
            continue
        for m in node.body:
            if not isinstance(m, ast.FunctionDef) or m.name.startswith("_"):
                continue
            if any(isinstance(d, ast.Attribute) and d.attr in ("setter", "deleter")
                   for d in m.decorator_list):
                continue
            if ast.get_docstring(m) is None:
                missing.append(node.name + "." + m.name)
    return missing


def test_every_public_name_of_the_framework_has_a_docstring():
    # lib/referee is what every game is written against: each public class, function
    # and method says what it does (docstrings cost the box nothing: docs/design.md,
    # "Memory")
    found = {}
    for p in sorted((ROOT / "lib" / "referee").glob("*.py")):
        missing = undocumented(p.read_text(encoding="utf-8"))
        if missing:
            found[compat.rel(p)] = missing
    assert found == {}


def test_the_docstring_rule_catches_a_missing_one():
    src = textwrap.dedent('''
        def told():
            """Told."""
        def bare():
            return 1
        def _private():
            return 2
        class Bare:
            def __init__(self):
                self._x = 0
            def method(self):
                return 3
            def _helper(self):
                return 4
            @property
            def x(self):
                return self._x
            @x.setter
            def x(self, v):
                self._x = v
        class _Hidden:
            def method(self):
                return 5
        ''')
    assert undocumented(src) == ["bare", "Bare", "Bare.method", "Bare.x"]
