"""The portable modules under a MicroPython 1.27 VM (WebAssembly, run by node).

(a) every module of lib/referee and games imports there; (b) referee.rng gives the
same numbers as on CPython; (c) the seeded scenario tests/mpvm/scenario.py prints the
same on both; (d) the heap each import keeps is reported. Display C modules are
fakes (tools/pico_fakes, the memory benchmark's); see docs/compat.md. Skipped only when node is missing;
with node but without `npm ci --prefix tests/mpvm` they fail.
"""

import importlib.util
import textwrap

import compat
import pytest

MODULES = compat.portable_modules()
RNG_FILE = compat.ROOT / "lib" / "referee" / "rng.py"


@pytest.fixture(scope="session")
def vm_imports():
    """One node launch: every portable module imported from a clean sys.modules, with
    its outcome and the heap it keeps."""
    compat.require_vm()
    return compat.vm_import_report(MODULES, isolated=True)


@pytest.mark.parametrize("module", MODULES)
def test_imports_under_micropython(vm_imports, module):
    result = vm_imports[module]
    assert result["ok"], "%s does not import under MicroPython 1.27:\n%s" % (
        module, result["traceback"])


def test_heap_report(vm_imports):
    """(d) Heap kept by each import, the modules it imports included (display C
    modules not counted). Printed (see it with ``pytest -s`` or ``-rP``), not asserted
    against a budget: the benchmark does that with ``compat.measure_heap``."""
    if not MODULES:
        pytest.skip("no portable modules yet")
    rows = [(m, r["heap"]) for m, r in vm_imports.items() if r["ok"]]
    assert rows and all(isinstance(h, int) and h >= 0 for _, h in rows)
    print("\nMicroPython VM heap kept by each import (bytes, deps included):")
    for m, h in sorted(rows, key=lambda row: -row[1]):
        print("  %-32s %7d" % (m, h))


# --------------------------------------------------------------- (b) the PRNG

RNG_SEEDS = (0, 1, 2, 42, 6, 0xDEADBEEF, 2**32, 2**64 + 7, 2**127 + 12345)


def rng_script(modules):
    """Prints, per module, the numbers its ``Rng`` gives for RNG_SEEDS."""
    parts = []
    for i, module in enumerate(modules):
        parts.append(textwrap.dedent("""
            print("@@", %(module)r)
            try:
                from %(module)s import Rng as R%(i)d
                for seed in SEEDS:
                    r = R%(i)d(seed)
                    print("seed", seed)
                    print("u32", [r.next_u32() for _ in range(200)])
                    print("d6", [r.randbelow(6) for _ in range(200)])
                    print("big", [r.randbelow(1000003) for _ in range(200)])
                    print("randint", [r.randint(-3, 3) for _ in range(50)])
                    xs = list(range(20))
                    r.shuffle(xs)
                    print("shuffle", xs)
            except Exception as e:
                print("ERROR", type(e).__name__)
            """) % {"module": module, "i": i})
    return "SEEDS = %r\n" % (RNG_SEEDS,) + "".join(parts)


def split_sections(text):
    out = {}
    name = None
    for line in text.splitlines():
        if line.startswith("@@ "):
            name = line[3:].strip("'\"")
            out[name] = []
        elif name is not None:
            out[name].append(line)
    return out


def both_interpreters(script, lib_dir=None):
    """(CPython output, VM output); ``lib_dir`` is mounted on both import paths."""
    cpy = compat.run_cpython(script, extra_paths=[lib_dir] if lib_dir else ())
    assert cpy.returncode == 0, cpy.stderr
    vm = compat.run_vm(script, extra_trees=[("/lib", lib_dir)] if lib_dir else None)
    assert vm.returncode == 0, vm.stderr
    return cpy.stdout, vm.stdout


def first_difference(a, b):
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return "line %d:\n  CPython:     %s\n  MicroPython: %s" % (i + 1, x[:300], y[:300])
    return "CPython printed %d lines, MicroPython %d" % (len(la), len(lb))


def test_rng_same_numbers_on_micropython():
    if not RNG_FILE.exists():
        pytest.skip("lib/referee/rng.py does not exist yet")
    compat.require_vm()
    cpy, vm = both_interpreters(rng_script(["referee.rng"]))
    assert "ERROR" not in cpy and cpy.count("\nshuffle ") == len(RNG_SEEDS), cpy[:500]
    assert cpy == vm, "referee.rng differs on MicroPython: " + first_difference(cpy, vm)


# Generators that look fine on CPython but give other numbers on the device.
BAD_RNGS = {
    # masks with sys.maxsize: 2**63-1 on CPython, 2**31-1 on MicroPython (and the device)
    "bad_maxsize": """
        import sys
        class Rng:
            def __init__(self, seed):
                self.s = (seed * 2654435761 + 1) & sys.maxsize
            def next_u32(self):
                self.s = (self.s * 6364136223846793005 + 1442695040888963407) & sys.maxsize
                return (self.s >> 7) & 0xFFFFFFFF
            def randbelow(self, n):
                return self.next_u32() % n
            def randint(self, a, b):
                return a + self.randbelow(b - a + 1)
            def shuffle(self, items):
                for i in range(len(items) - 1, 0, -1):
                    j = self.randbelow(i + 1)
                    items[i], items[j] = items[j], items[i]
        """,
    # a correct generator whose shuffle iterates a set: set order differs
    "bad_set_order": """
        class Rng:
            def __init__(self, seed):
                self.x = (seed & 0xFFFFFFFF) or 1
            def next_u32(self):
                x = self.x
                x ^= (x << 13) & 0xFFFFFFFF
                x ^= x >> 17
                x ^= (x << 5) & 0xFFFFFFFF
                self.x = x
                return x
            def randbelow(self, n):
                return self.next_u32() % n
            def randint(self, a, b):
                return a + self.randbelow(b - a + 1)
            def shuffle(self, items):
                keyed = set((self.randbelow(1000) << 8) | i for i in range(len(items)))
                items[:] = [items[k & 0xFF] for k in keyed]
        """,
    # wraps the random module: CPython's Mersenne Twister is not on the device
    "bad_random": """
        import random
        class Rng:
            def __init__(self, seed):
                self.r = random.Random(seed)
            def next_u32(self):
                return self.r.getrandbits(32)
            def randbelow(self, n):
                return self.r.randrange(n)
            def randint(self, a, b):
                return self.r.randint(a, b)
            def shuffle(self, items):
                self.r.shuffle(items)
        """,
}


def test_rng_check_catches_bad_generators(tmp_path):
    compat.require_vm()
    for name, src in BAD_RNGS.items():
        (tmp_path / (name + ".py")).write_text(textwrap.dedent(src))
    cpy, vm = both_interpreters(rng_script(sorted(BAD_RNGS)), lib_dir=tmp_path)
    cpy_parts, vm_parts = split_sections(cpy), split_sections(vm)
    assert sorted(cpy_parts) == sorted(vm_parts) == sorted(BAD_RNGS)
    for name in BAD_RNGS:
        assert "ERROR" not in "\n".join(cpy_parts[name]), (name, cpy_parts[name][:3])
        assert cpy_parts[name] != vm_parts[name], name + " was not caught"
    # the set-order generator draws the same numbers; only its shuffles differ
    same = [a == b for a, b in zip(cpy_parts["bad_set_order"], vm_parts["bad_set_order"])]
    assert all(same[i] for i, line in enumerate(cpy_parts["bad_set_order"])
               if not line.startswith("shuffle"))


# --------------------------------------------------------------- (c) the scenario


def test_scenario_same_output_on_micropython():
    if not compat.SCENARIO.exists():
        pytest.skip("tests/mpvm/scenario.py does not exist yet")
    compat.require_vm()
    script = compat.SCENARIO.read_text(encoding="utf-8")
    cpy, vm = both_interpreters(script)
    assert cpy.strip(), "the scenario printed nothing"
    assert cpy == vm, "the scenario differs on MicroPython: " + first_difference(cpy, vm)
    # A part that raises prints "error <Type>" on both sides and would still compare
    # equal: every part must run, and no part may be absent any more.
    broken = [line for line in cpy.splitlines() if line.startswith(("error", "absent"))]
    assert not broken, "scenario parts did not run: " + "; ".join(broken)
    assert "all-bot matches through the app" in cpy and "NOT OVER" not in cpy


# --------------------------------------------------------------- the check can fail

BAD_MODULES = {
    # (source, what MicroPython says) -- every one imports fine on CPython
    "vm_bad_removeprefix": ("NAME = 'p1'.removeprefix('p')\n", "AttributeError"),
    "vm_bad_bit_count": ("ONES = (255).bit_count()\n", "AttributeError"),
    "vm_bad_lru_cache": ("from functools import lru_cache\n\n\n@lru_cache(None)\n"
                         "def f(x):\n    return x\n", "ImportError"),
    "vm_bad_nested_fstring": ("X = 3\nS = f\"{f'{X}'}\"\n", "TypeError"),
    "vm_bad_ljust": ("S = 'P1'.ljust(6)\n", "AttributeError"),
    "vm_bad_dict_order": ("D = {}\nfor k in ('bots', 'players', 'seed', 'tie_window'):\n"
                          "    D[k] = 1\nassert list(D) == ['bots', 'players', 'seed', "
                          "'tie_window'], list(D)\n", "AssertionError"),
}


def test_vm_rejects_modules_cpython_accepts(tmp_path):
    compat.require_vm()
    for name, (src, _) in BAD_MODULES.items():
        path = tmp_path / (name + ".py")
        path.write_text(src)
        spec = importlib.util.spec_from_file_location(name, path)
        spec.loader.exec_module(importlib.util.module_from_spec(spec))  # CPython: fine
    (tmp_path / "vm_good.py").write_text("from referee import rng\nX = rng.Rng(1).randbelow(6)\n"
                                         if RNG_FILE.exists() else "X = 1\n")
    report = compat.vm_import_report(sorted(BAD_MODULES) + ["vm_good"],
                                     extra_trees=[("/lib", tmp_path)])
    assert report["vm_good"]["ok"], report["vm_good"]["traceback"]
    for name, (_, error) in BAD_MODULES.items():
        assert not report[name]["ok"], name + " imported under MicroPython"
        assert error in report[name]["traceback"], (name, report[name]["traceback"])
        assert ('File "lib/%s.py", line' % name) in report[name]["traceback"]


def test_vm_displayio_keeps_the_real_modules_cheap_rules():
    # the VM's displayio is the memory benchmark's fake (tools/pico_fakes), with the
    # checks the tests mount: a layer in two groups, a pixel off the bitmap, a colour
    # index out of range all fail as on the board
    script = """
import displayio
g, h, t = displayio.Group(), displayio.Group(), displayio.Group()
g.append(t)
for bad in (lambda: h.append(t), lambda: displayio.Bitmap(4, 4, 2).__setitem__((4, 0), 1),
            lambda: displayio.Bitmap(4, 4, 2).__setitem__((0, 0), 2)):
    try:
        bad()
        print("accepted")
    except (ValueError, IndexError) as e:
        print("refused", e)
g.remove(t)
h.append(t)
print("moved")
"""
    r = compat.run_vm(script)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:4] == ["refused Layer already in a group", "refused pixel out of range",
                                        "refused value out of range", "moved"], r.stdout


def test_vm_driver_reports_exceptions_and_output():
    compat.require_vm()
    ok = compat.run_vm("import sys\nprint(sys.implementation.name, sys.path[:2])\n")
    assert ok.returncode == 0 and ok.stdout == "micropython ['/lib', '/']\n", ok
    bad = compat.run_vm("def f():\n    raise ValueError('boom')\n\nprint('before')\nf()\n")
    assert bad.returncode == 1 and bad.stdout == "before\n"
    assert "line 5" in bad.stderr and "ValueError: boom" in bad.stderr, bad.stderr
    absent = compat.run_vm("import random\n")
    assert absent.returncode == 1 and "ImportError" in absent.stderr, absent.stderr


def test_missing_node_skips_and_missing_package_fails(monkeypatch, tmp_path):
    monkeypatch.setattr(compat, "node_path", lambda: None)
    kind, reason = compat.vm_problem()
    assert kind == "skip" and "node" in reason
    monkeypatch.setattr(compat, "node_path", lambda: "/usr/bin/node")
    monkeypatch.setattr(compat, "VM_PACKAGE", tmp_path / "nowhere")
    kind, reason = compat.vm_problem()
    assert kind == "fail" and "npm ci --prefix tests/mpvm" in reason
    with pytest.raises(pytest.fail.Exception, match="npm ci --prefix tests/mpvm"):
        compat.require_vm()


def test_measure_heap_helper():
    """The benchmark's helper: bytes kept per import, in a fresh VM."""
    compat.require_vm()
    modules = [m for m in ("referee", "referee.rng") if m in MODULES]
    if not modules:
        pytest.skip("no referee modules yet")
    heap = compat.measure_heap(modules)
    assert list(heap) == modules and all(isinstance(h, int) and h >= 0 for h in heap.values())
    if "referee.rng" in heap:
        assert heap["referee.rng"] > 0
