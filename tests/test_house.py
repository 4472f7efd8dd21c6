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


# The simulator's methods (pc/sim.py asks them when a loop pass can next change anything;
# the box's loop runs every pass and never asks): a class may keep them in an
# ``if __debug__:`` of their own, which the box's -O3 .mpy leaves out (heap it never uses)
SIM_ONLY = ("next_at", "next_look_at", "bot_next_at")


def sim_only_blocks(tree):
    """The ``if __debug__:`` statements of ``tree``'s classes that hold only ``SIM_ONLY``
    methods (nothing else, no else branch)."""
    return [s for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for s in c.body
            if isinstance(s, ast.If) and isinstance(s.test, ast.Name) and s.test.id == "__debug__" and not s.orelse
            and all(isinstance(f, ast.FunctionDef) and f.name in SIM_ONLY for f in s.body)]


def optimised_away(src):
    """What ``mpy-cross -O3`` (tools/deploy.py) drops from a module that the box could
    run: its asserts and the branches on ``__debug__``, but for the simulator's methods
    kept apart (``sim_only_blocks``)."""
    tree = ast.parse(src)
    kept = {id(b.test) for b in sim_only_blocks(tree)}
    return [n.lineno for n in ast.walk(tree)
            if isinstance(n, ast.Assert) or (isinstance(n, ast.Name) and n.id == "__debug__" and id(n) not in kept)]


def test_nothing_on_the_box_is_optimised_away_by_the_deploy():
    # the box's .mpy drop asserts: a check the box relies on must be an if, not an assert
    hits = [(compat.rel(p), optimised_away(p.read_text(encoding="utf-8"))) for p in compat.device_files()]
    assert [h for h in hits if h[1]] == []
    assert optimised_away("def f(x):\n    assert x > 0\n    if __debug__:\n        pass\n") == [2, 3]
    sim = "class G:\n    if __debug__:\n        def next_at(self, t):\n            return t\n"
    assert optimised_away(sim) == []
    assert optimised_away(sim.replace("next_at", "tick")) == [2]  # a method the box runs: not so


def calls_to_sim_only(src):
    """The lines of ``src`` that call a ``SIM_ONLY`` method outside ``sim_only_blocks``."""
    tree = ast.parse(src)
    inside = {id(n) for b in sim_only_blocks(tree) for n in ast.walk(b)}
    return [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr in SIM_ONLY and id(n) not in inside]


def test_the_box_never_calls_the_simulators_methods():
    # what the -O3 .mpy leaves out is called only from within what it leaves out (the
    # defaults of BaseGame stay: a game without its own answers "the next pass")
    calls = [(compat.rel(p), calls_to_sim_only(p.read_text(encoding="utf-8"))) for p in device_sources()]
    assert [c for c in calls if c[1]] == []
    blocks = [compat.rel(p) for p in device_sources() if sim_only_blocks(ast.parse(p.read_text(encoding="utf-8")))]
    assert "games/wurfelblitz.py" in blocks and "lib/referee/arbiter.py" in blocks
    src = ("class G:\n    if __debug__:\n        def next_at(self, t):\n            return self.race.next_at()\n"
           "    def tick(self, t):\n        return self.race.next_at()\n")
    assert calls_to_sim_only(src) == [6]


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
