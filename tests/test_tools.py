"""The tools in tools/ run as the README and their docstrings give them: from any
working directory, with --help answered by a usage text (nothing run, nothing
written), and the benchmarks' tables as they say they are."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = sorted(f for f in os.listdir(os.path.join(ROOT, "tools")) if f.endswith(".py"))


@pytest.mark.parametrize("tool", TOOLS)
def test_every_tool_answers_help_from_anywhere_and_writes_nothing(tool, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", tool), "--help"], cwd=str(tmp_path),
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Traceback" not in r.stderr and r.stdout.startswith("usage: "), r.stdout + r.stderr
    assert os.listdir(tmp_path) == []  # e.g. no PNG named "--help"


def _tool(name):
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        return __import__(name)
    finally:
        sys.path.remove(os.path.join(ROOT, "tools"))


def test_bench_matches_takes_each_figure_s_own_median_and_fits_every_title():
    b = _tool("bench_matches")
    runs = [(0.5, 100.0, True, 1000), (0.1, 300.0, True, 900), (0.3, 200.0, False, 400)]  # cpu, virtual, over, loops
    cpu, virt, rate, done, n = b.summary(runs)
    # the median cpu is seed 3's, the median virtual time seed 1's: each column its own
    assert (cpu, virt, done, n) == (0.3, 200.0, 2, 3)
    assert rate == sorted([1000 / 0.5, 900 / 0.1, 400 / 0.3])[1]
    assert b.median([4, 1, 3, 2]) == 2.5
    titles = ["Reaction test", "Flyer (Essen 2006)"]
    w = b.width(titles)
    head = b.head(w)
    for title in titles:
        line = b.line(w, title, (0.051, 23.2, 227262.0, 5, 5))
        # every column ends where its heading ends
        assert line.index("0.051") + 5 == head.index("cpu s") + 5
        assert line.index("23.2") + 4 == head.index("virtual s") + 9
        assert line.index("227262") + 6 == head.index("loops/cpu s") + 11


def test_bench_memory_check_measures_the_commit_its_figures_are_for(tmp_path):
    b = _tool("bench_memory")
    why = b.export_commit(ROOT, b.CHECKED_AT, str(tmp_path))
    if why and "git cannot" in why and not os.path.isdir(os.path.join(ROOT, ".git")) and not os.path.isfile(
            os.path.join(ROOT, ".git")):
        pytest.skip("no git history here: " + why)
    assert why == ""
    assert os.path.isfile(os.path.join(tmp_path, "code.py")) and os.path.isdir(os.path.join(tmp_path, "lib", "referee"))
    # the tree at that commit still has adafruit_display_text's labels: the firmware's figures are for it
    assert "adafruit_display_text" in open(os.path.join(tmp_path, "lib", "referee", "screen.py")).read()
    assert b.export_commit(ROOT, "0" * 40, str(tmp_path / "none"))  # no such commit: a reason, no traceback


def test_bench_memory_help_names_only_files_of_the_repository():
    import re

    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "bench_memory.py"), "--help"],
                       capture_output=True, text=True, timeout=120)
    text = r.stdout
    assert "--check" in text and "ef87b19" in text and "device-memory" not in text
    for name in re.findall(r"[\w./-]+\.(?:md|py|mjs)\b", text):
        assert os.path.exists(os.path.join(ROOT, name)), name
