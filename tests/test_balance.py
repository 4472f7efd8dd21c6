"""The balance lab (tools/balance.py): its figures and its command line, on a few matches.
The figures of real runs (thousands of matches) are in docs/balance.md, not here."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import balance  # noqa: E402

sys.path.remove(os.path.join(ROOT, "tools"))


def test_wilson_interval_matches_the_textbook_figures():
    lo, hi = balance.wilson(5, 10)
    assert round(lo, 4) == 0.2366 and round(hi, 4) == 0.7634
    lo, hi = balance.wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    lo, hi = balance.wilson(1070, 2000)  # 53.5 %: about +-2.2 points at 2,000 matches
    assert 0.513 < lo < 0.514 and 0.556 < hi < 0.557
    assert balance.wilson(0, 0) == (0.0, 1.0)


def test_levels_fill_the_seats_and_rotate_one_seat_a_match():
    assert balance.seat_levels(None, 3, 0, True) is None
    assert balance.seat_levels(("easy", "hard"), 3, 0, False) == ("easy", "hard", "easy")
    assert balance.seat_levels(("easy", "hard"), 2, 1, True) == ("hard", "easy")
    assert [balance.seat_levels(("a", "b", "c"), 3, i, True) for i in range(3)] == [
        ("a", "b", "c"), ("c", "a", "b"), ("b", "c", "a")]


def test_a_run_is_the_same_by_seed_whatever_the_processes():
    one = balance.run("reaction", 4, 2, seed=7, jobs=1)
    two = balance.run("reaction", 4, 2, seed=7, jobs=2)
    assert one == two
    assert [r["seed"] for r in one] == [7, 8, 9, 10]
    assert all(r["over"] and r["winners"] and r["minutes"] > 0 for r in one)
    other = balance.run("reaction", 4, 2, seed=8, jobs=1)
    assert other[:3] == one[1:]  # match i plays seed S + i


def test_levels_reach_the_bots_of_their_seats():
    # Lightning Dice: an easy bot against a hard one, seats swapped every match
    results = balance.run("lightning_dice", 4, 2, levels=("easy", "hard"), rotate=True, seed=3,
                          options=(("target", 10),))
    assert [r["levels"] for r in results] == [("easy", "hard"), ("hard", "easy")] * 2
    fig = balance.report(results, 2)
    by = {lv: (k, m) for lv, k, m, _lo, _hi in fig["levels"]}
    assert by["easy"][1] == by["hard"][1] == 4
    assert by["hard"][0] > by["easy"][0]  # the hard bot wins more
    # Wurfelblitz takes them as its per-seat options: a fast bot beats a slow one
    results = balance.run("wurfelblitz", 2, 2, levels=("slow", "fast"), rotate=True, seed=1)
    fig = balance.report(results, 2)
    by = {lv: k for lv, k, _m, _lo, _hi in fig["levels"]}
    assert by["fast"] == 2 and by["slow"] == 0


def test_the_report_counts_wins_ties_and_length():
    results = [
        {"seed": 1, "levels": None, "over": True, "winners": [1], "turns": 10, "minutes": 2.0},
        {"seed": 2, "levels": None, "over": True, "winners": [2], "turns": 20, "minutes": 4.0},
        {"seed": 3, "levels": None, "over": True, "winners": [1, 2], "turns": 30, "minutes": 6.0},
        {"seed": 4, "levels": None, "over": False, "winners": [], "turns": 99, "minutes": 240.0},
    ]
    fig = balance.report(results, 2)
    assert fig["matches"] == 4 and fig["finished"] == 3 and fig["ties"] == 1
    assert [(s, k, n) for s, k, n, _lo, _hi in fig["seats"]] == [(1, 1, 3), (2, 1, 3)]
    assert fig["turns"] == [10, 10, 10, 20, 30, 30, 30]  # min, 10 %, 25 %, median, 75 %, 90 %, max (nearest rank)
    lines = balance.text(fig, 2, "Test")
    assert any(line.startswith("P1 ") and "33.3 %" in line for line in lines)
    assert any("ties 1" in line and "unfinished 1" in line for line in lines)


def test_the_command_prints_the_figures_and_its_own_command(capsys):
    assert balance.main(["reaction", "--matches", "3", "--players", "3", "--jobs", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Reaction test: 3 matches, 3 players, 3 finished" in out
    assert "fair 33.3 %" in out and "P3 " in out
    assert "command: python tools/balance.py reaction --matches 3" in out


def test_the_progress_bar_goes_to_stderr(capsys):
    balance.main(["reaction", "--matches", "2", "--players", "2", "--jobs", "1"])
    cap = capsys.readouterr()
    assert "2/2" in cap.err and "[" in cap.err and "2/2" not in cap.out


@pytest.mark.parametrize("argv, says", [
    (["nogame"], "no game 'nogame'"),
    (["zilch", "--players", "9"], "Zilch is for 2-7 players"),
    (["zilch", "--levels", "genius"], "no bot level genius in Zilch: cautious, expected"),
    (["reaction", "--levels", "fast"], "have no levels per seat"),
    (["zilch", "--rotate"], "--rotate moves --levels"),
    (["zilch", "--option", "variant"], "KEY=VALUE"),
    (["zilch", "--option", "variant=12"], "option variant: 12 is not one of"),
    (["zilch", "--option", "colour=red"], "unknown option: colour"),
    (["zilch", "--matches", "0"], "must be 1 or more"),
])
def test_wrong_arguments_are_said_in_words(capsys, argv, says):
    with pytest.raises(SystemExit) as e:
        balance.main(argv + ["--quiet"])
    assert e.value.code == 2
    assert says in capsys.readouterr().err


def test_the_charts_are_written_and_the_lab_runs_without_matplotlib(tmp_path, capsys, monkeypatch):
    pytest.importorskip("matplotlib")  # pinned in requirements-dev.txt
    folder = str(tmp_path / "png")
    assert balance.main(["zap_city", "--matches", "2", "--levels", "greedy,blocker", "--rotate", "--jobs", "1",
                         "--quiet", "--png", folder]) == 0
    assert sorted(os.listdir(folder)) == ["length.png", "levels.png", "seats.png"]
    with open(os.path.join(folder, "seats.png"), "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    capsys.readouterr()
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # not installed
    assert balance.main(["reaction", "--matches", "2", "--jobs", "1", "--quiet"]) == 0
    assert balance.main(["reaction", "--matches", "2", "--jobs", "1", "--quiet", "--png", folder]) == 2
    assert "--png needs matplotlib" in capsys.readouterr().err
