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
    # (events, steps) per seed, each (cpu, virtual, over, passes)
    pairs = [((0.05, 100.0, True, 300), (0.5, 100.0, True, 50000)),
             ((0.01, 300.0, True, 900), (0.4, 300.0, True, 150000)),
             ((0.03, 200.0, True, 600), (0.3, 200.0, False, 100000))]
    ecpu, scpu, ratio, epass, spass, virt, done, n = b.summary(pairs)
    # the median events cpu is seed 3's, the median steps cpu seed 2's: each column its own
    assert (ecpu, scpu, epass, spass, virt, done, n) == (0.03, 0.4, 600, 100000, 200.0, 2, 3)
    assert ratio == sorted([0.5 / 0.05, 0.4 / 0.01, 0.3 / 0.03])[1]  # each seed's own ratio, then the median
    assert b.median([4, 1, 3, 2]) == 2.5
    titles = ["Reaction test", "Flyer (Essen 2006)"]
    w = b.width(titles)
    head = b.head(w)
    for title in titles:
        line = b.line(w, title, (0.004, 0.051, 12.75, 61, 19300, 23.2, 5, 5))
        # every column ends where its heading ends
        assert line.index("0.004") + 5 == head.index("events cpu s") + 12
        assert line.index("0.051") + 5 == head.index("steps cpu s") + 11
        assert line.index("13x") + 3 == head.index("ratio") + 5
        assert line.index("19300") + 5 == head.index("steps passes") + 12
        assert line.index("23.2") + 4 == head.index("virtual s") + 9


def test_bench_matches_parts_account_for_the_whole_match_and_leave_nothing_wrapped():
    b = _tool("bench_matches")
    from referee import app, turns

    real = (app.App.step, app.App._guard, app.App._save_pass, turns.slice_of)
    split, total = b.parts("zap_city", 2, 1)
    assert list(split) == list(b.PARTS) and total > 0
    assert all(split[k] > 0 for k in b.PARTS)  # a turn game: a start, passes, a search, saves
    assert abs(sum(split.values()) - total) < 1e-6  # the simulator's share is the rest
    assert (app.App.step, app.App._guard, app.App._save_pass, turns.slice_of) == real


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
