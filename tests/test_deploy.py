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
    "lib/adafruit_pixelbuf.py",
    "lib/adafruit_debouncer.py",
    "lib/adafruit_ticks.py",
    "lib/adafruit_st7789.py",
    "lib/adafruit_display_text/__init__.py",
    "lib/adafruit_display_text/label.py",
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
    for path in ("code.py", "boot.py", "settings.toml", "hardware/device.py", "hardware/pio_capture.py",
                 "lib/referee/app.py", "games/__init__.py"):
        assert path in listed
    assert LIBS <= set(listed)
    total = [ln for ln in lines if ln.endswith(")") and " files, " in ln][0]
    assert total.startswith("%d files, %d bytes" % (len(listed), sum(listed.values())))
    assert listed["code.py"] == os.path.getsize(os.path.join(ROOT, "code.py"))
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
files = {n: getattr(m, "__file__", None) for n, m in sys.modules.items()}
print("@@" + json.dumps({"games": names, "files": files, "capture": d.box.capture_name}))
""" % {"path": fakes.bare_path(str(tmp_path), str(tmp_path / "lib"))}
    p = subprocess.run([sys.executable, "-S", "-c", script], capture_output=True, text=True,
                       cwd=str(tmp_path), timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    out = json.loads([ln for ln in p.stdout.splitlines() if ln.startswith("@@")][0][2:])
    assert out["capture"] == "pio"
    assert {"reaction", "selftest"} <= set(out["games"])
    import sysconfig

    stdlib = sysconfig.get_paths()["stdlib"]
    allowed = (str(tmp_path), fakes.HERE, stdlib)
    stray = {n: f for n, f in out["files"].items() if f and not f.startswith(allowed)}
    assert stray == {}
    site = [f for f in out["files"].values() if f and "site-packages" in f]
    assert site == []
    from_copy = {n for n, f in out["files"].items() if f and f.startswith(str(tmp_path))}
    assert {"hardware.device", "neopixel", "adafruit_st7789", "adafruit_display_text.label",
            "adafruit_debouncer", "adafruit_ticks", "adafruit_pixelbuf", "referee.app"} <= from_copy


def test_settings_on_the_target_are_kept_unless_asked(tmp_path):
    (tmp_path / "settings.toml").write_text('REFEREE_PLAYERS = "6"\n')
    r = _tool(str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert "kept" in r.stdout
    assert (tmp_path / "settings.toml").read_text() == 'REFEREE_PLAYERS = "6"\n'
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
        "from adafruit_display_text import label\n"
        "import adafruit_st7789, adafruit_debouncer\n"
    )
    got = {d for _, d in deploy.library_files([str(ok)])}
    assert got == LIBS


def test_imports_of_resolves_relative_imports(tmp_path):
    f = tmp_path / "mod.py"
    f.write_text("from . import sibling\nfrom .sub import thing\nimport os\n")
    req, opt = deploy.imports_of(str(f), package="pkg")
    assert {"pkg", "pkg.sibling", "pkg.sub", "pkg.sub.thing", "os"} <= req and opt == set()


def test_requirements_device_names_the_libraries_deploy_copies():
    with open(os.path.join(ROOT, "requirements-device.txt")) as f:
        names = {ln.strip() for ln in f if ln.strip() and not ln.startswith("#")}
    assert names == {"adafruit_debouncer", "adafruit_ticks", "adafruit_display_text", "adafruit_st7789",
                     "neopixel"}
    copied = {d.split("/")[1].split(".")[0] for _, d, _ in deploy.plan()
              if d.startswith("lib/") and not d.startswith("lib/referee/")}
    assert copied == names | {"adafruit_pixelbuf"}  # neopixel's own dependency
