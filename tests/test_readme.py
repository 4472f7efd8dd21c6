"""The README's two set-up commands stay true, and CI runs the test one."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def readme_commands():
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    block = text.split("```sh\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip()]


def test_readme_starts_with_exactly_two_commands():
    with open(os.path.join(ROOT, "README.md")) as f:
        head = f.read().split("```sh", 1)[0]
    assert head.strip() == "# Referee Box"  # nothing before the commands but the title
    cmds = readme_commands()
    assert len(cmds) == 2
    assert cmds[0].endswith("python code.py")
    assert "pytest" in cmds[1]


def test_ci_runs_the_readme_test_command_verbatim():
    with open(os.path.join(ROOT, ".ci", "run")) as f:
        ci = [line.strip() for line in f if not line.lstrip().startswith("#")]
    assert readme_commands()[1] in ci


def test_every_requirement_is_pinned():
    for name in ("requirements.txt", "requirements-dev.txt"):
        with open(os.path.join(ROOT, name)) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith(("#", "-r")):
                    assert "==" in line, name + ": " + line + " is not pinned"


def test_layout_exists():
    for path in ("code.py", "boot.py", "settings.toml", "lib/referee", "games/__init__.py", "hardware", "tests"):
        assert os.path.exists(os.path.join(ROOT, path)), path


def test_the_readme_lists_the_five_games_and_the_bench_figures():
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    for game in ("Würfelblitz", "Lightning Dice", "Zilch", "ZAP City", "Essen 2006 flyer game"):
        assert "**" + game in text or game in text.split("The five games", 1)[1][:1500], game
    figures = text.split("tools/bench_matches.py", 1)[1][:1500]
    assert "at commit" in figures.lower() and "cpu s" in figures
    assert "python tools/bench_matches.py" in figures  # how to reproduce


def test_no_file_points_outside_the_repository_for_design_or_rulings():
    import re

    bad = []
    for top in ("README.md", "settings.toml", "requirements.txt", "code.py", "boot.py"):
        paths = [os.path.join(ROOT, top)]
        for folder in ("docs", "lib", "games", "hardware", "tests", "tools"):
            for dirpath, dirs, files in os.walk(os.path.join(ROOT, folder)):
                dirs[:] = [d for d in dirs if d not in ("node_modules", "__pycache__")]
                paths += [os.path.join(dirpath, f) for f in files if f.endswith((".py", ".md", ".toml", ".txt"))]
        break
    for p in paths + [os.path.join(ROOT, t) for t in ("README.md", "settings.toml", "requirements.txt")]:
        with open(p, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if re.search(r"\b(DESIGN|RULES)\.md|\bDESIGN (§|\d)", line) and "test_readme.py" not in p:
                    bad.append(os.path.relpath(p, ROOT) + ":" + str(n))
    assert bad == []
    for doc in ("docs/design.md", "docs/rulings.md"):
        assert os.path.exists(os.path.join(ROOT, doc))


def test_every_file_a_doc_names_is_in_the_repository():
    import glob
    import re

    on_the_board = ("boot_out.txt", "safemode.txt")  # written by CircuitPython on CIRCUITPY
    docs = ["README.md", "hardware/README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(
        os.path.join(ROOT, "docs", "*.md")))
    missing = []
    for doc in docs:
        with open(os.path.join(ROOT, doc), encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                for name in re.findall(r"`([\w./-]+\.(?:py|md|mjs|toml|txt|png|json))`", line):
                    if name.startswith("/") or name in on_the_board:
                        continue
                    here = os.path.join(ROOT, os.path.dirname(doc), name)
                    if not (os.path.exists(os.path.join(ROOT, name)) or os.path.exists(here)):
                        missing.append("%s:%d %s" % (doc, n, name))
    assert missing == []


def test_settings_toml_and_the_build_guide_offer_what_the_box_accepts():
    import re

    import games
    from referee.settings import SPEC

    with open(os.path.join(ROOT, "settings.toml"), encoding="utf-8") as f:
        text = f.read()
    comment = text[:text.index("REFEREE_GAME =")].rsplit("\n\n", 1)[1]
    assert [n for n in games.names() if n not in re.findall(r"\w+", comment)] == []
    rotations = [row[3] for row in SPEC if row[0] == "rotation"][0]
    with open(os.path.join(ROOT, "hardware", "README.md"), encoding="utf-8") as f:
        guide = f.read()
    said = guide[guide.index('only: `REFEREE_ROTATION = "90"`'):][:300]
    offered = said[said.index("(") + 1:said.index(";")]  # "(90 or 270; ..."
    assert sorted(int(d) for d in re.findall(r"\d+", offered)) == sorted(rotations)
    assert "0/90/180/270" not in guide


def test_the_build_guide_speaks_to_makers_about_memory_and_links_the_figures():
    with open(os.path.join(ROOT, "hardware", "README.md"), encoding="utf-8") as f:
        guide = f.read()
    section = guide[guide.index("\n## Memory\n"):]
    section = section[:section.index("\n## ", 5)]
    assert "(../docs/memory.md)" in section and len(section.split("\n")) < 15
    assert "CODE_FACTOR" not in section and "qstr" not in section.lower()
    with open(os.path.join(ROOT, "docs", "memory.md"), encoding="utf-8") as f:
        memory = f.read()
    assert "bench_memory.py" in memory and "ef87b19" in memory


def test_the_readme_shows_each_game_on_the_box():
    import games

    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    for name in games.names():
        if name == "selftest":  # a check of the wiring, not a game to show
            continue
        path = "docs/img/game_" + name + ".png"
        assert "](" + path + ")" in text, path
        with open(os.path.join(ROOT, path), "rb") as f:
            head = f.read(24)
        assert head[:8] == b"\x89PNG\r\n\x1a\n", path
        w, h = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
        assert (w, h) == (320, 240), (path, w, h)  # the box's screen, not the window
