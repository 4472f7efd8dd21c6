"""The linter: ruff, pinned in requirements-dev.txt, with the project's rules in
pyproject.toml (pycodestyle, pyflakes, import order, bugbear, and no function of box
code over complexity 15), over the whole tree."""
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_tree_passes_ruff():
    exe = shutil.which("ruff", path=os.path.dirname(sys.executable)) or shutil.which("ruff")
    assert exe, "ruff is not installed: pip install -r requirements-dev.txt"
    r = subprocess.run([exe, "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]


def test_the_rules_are_the_projects():
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    assert 'select = ["E", "F", "W", "I", "B", "C901"]' in text
    assert "max-complexity = 15" in text
    for part in ("lib/", "games/", "hardware/"):  # box code is never let off the complexity rule
        for line in text.splitlines():
            assert not (line.startswith('"' + part) and "C901" in line), line
    with open(os.path.join(ROOT, "requirements-dev.txt"), encoding="utf-8") as f:
        assert any(ln.strip().startswith("ruff==") for ln in f)
