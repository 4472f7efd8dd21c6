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
