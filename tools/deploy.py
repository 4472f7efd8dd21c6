"""Copy Referee Box to a CircuitPython drive, with exactly the libraries it needs.

    python tools/deploy.py TARGET            copy to TARGET (e.g. /media/$USER/CIRCUITPY)
    python tools/deploy.py TARGET --dry-run  list what would be copied, with sizes

TARGET may be any folder (the tests deploy into a temporary one). What goes:

* ``code.py``, ``boot.py``, ``settings.toml`` (an existing settings.toml on the
  target is kept unless ``--overwrite-settings``: it holds the table's choices);
* ``games/`` and the device files of ``hardware/`` at the top level, the
  framework at ``lib/referee/`` (PC-only files such as ``hardware/sim.py``,
  ``hardware/pc_*.py`` stay behind);
* the Adafruit libraries into ``lib/``, taken from the pip packages installed
  here (so it works offline). They are found by scanning imports: every module
  the copied files import, and what those import in turn, that is neither part
  of the project nor built into CircuitPython. A package brings only the
  submodules that are imported (``adafruit_display_text/label.py``, not the
  whole package). Imports inside ``try: ... except ImportError`` are optional
  (type hints) and are not followed.

With internet access, ``circup install -r requirements-device.txt`` installs
the same libraries (as .mpy, matched to the board's CircuitPython version).
"""

import argparse
import ast
import importlib.util
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROJECT_PACKAGES = ("referee", "games", "hardware")
# Modules CircuitPython 9/10 has built in on the RP2040/RP2350 (never copied).
BUILTINS = frozenset(
    """
    analogio array binascii bitmaptools board builtins busdisplay busio collections
    countio digitalio displayio epaperdisplay errno fontio fourwire framebufferio gc
    hashlib i2cdisplaybus io json keypad math microcontroller micropython msgpack
    neopixel_write os paralleldisplaybus pulseio pwmio random re rotaryio rp2pio rtc
    select storage struct supervisor sys terminalio time traceback usb_cdc usb_hid
    usb_midi vectorio watchdog zlib
    """.split()
)
# The libraries the box cannot run without (DESIGN.md §10); the scan must find them.
REQUIRED = ("neopixel", "adafruit_pixelbuf", "adafruit_debouncer", "adafruit_ticks",
            "adafruit_display_text", "adafruit_st7789")
TOP_FILES = ("code.py", "boot.py")
SETTINGS = "settings.toml"


def is_pc_only(path):
    """hardware/sim.py, hardware/pc_*.py, hardware/window.py, or a file whose
    docstring starts "PC only" (the same rule as the compatibility checks)."""
    name = os.path.basename(path)
    if name in ("sim.py", "window.py") or name.startswith("pc_"):
        return True
    try:
        with open(path, encoding="utf-8") as f:
            doc = ast.get_docstring(ast.parse(f.read())) or ""
    except (OSError, SyntaxError, ValueError):
        return False
    return "PC only" in doc.strip().split("\n", 1)[0]


def project_files(root=ROOT):
    """[(source path, path on the drive)] of the project's own files."""
    out = []
    for name in TOP_FILES + (SETTINGS,):
        out.append((os.path.join(root, name), name))
    for src_dir, dst_dir in (("games", "games"), ("hardware", "hardware"), (os.path.join("lib", "referee"), "lib/referee")):
        base = os.path.join(root, src_dir)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for fn in sorted(filenames):
                if not fn.endswith(".py"):
                    continue
                src = os.path.join(dirpath, fn)
                if src_dir == "hardware" and is_pc_only(src):
                    continue
                rel = os.path.relpath(src, base).replace(os.sep, "/")
                out.append((src, dst_dir + "/" + rel))
    return out


def _optional(node, parents):
    """True if ``node`` sits in a try whose handler catches ImportError."""
    for p in parents:
        if isinstance(p, ast.Try):
            for h in p.handlers:
                names = []
                if h.type is None:
                    return True
                for t in h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]:
                    if isinstance(t, ast.Name):
                        names.append(t.id)
                if set(names) & {"ImportError", "Exception", "BaseException", "ModuleNotFoundError"}:
                    if node in _body_nodes(p.body):
                        return True
    return False


def _body_nodes(stmts):
    out = set()
    for s in stmts:
        for n in ast.walk(s):
            out.add(n)
    return out


def imports_of(path, package=None):
    """(required, optional): dotted module names ``path`` imports. ``package`` is
    the file's package, for relative imports."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    required, optional = set(), set()
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:
                parts = (package or "").split(".")
                base = parts[: len(parts) - node.level + 1] if node.level > 1 else parts
                mod = ".".join([p for p in base if p] + ([mod] if mod else []))
            names = [mod] + [mod + "." + a.name for a in node.names if a.name != "*"]
        else:
            continue
        chain, p = [], parents.get(node)
        while p is not None:
            chain.append(p)
            p = parents.get(p)
        bucket = optional if _optional(node, chain) else required
        bucket.update(n for n in names if n)
    return required, optional


def _locate(name, path=None):
    """Host file of module ``name`` (dotted) among the installed packages, or None.
    Never imports it (``neopixel`` cannot be imported on a PC)."""
    parts = name.split(".")
    spec = importlib.util.find_spec(parts[0]) if path is None else None
    if spec is None or spec.origin in (None, "built-in", "frozen"):
        return None
    if len(parts) == 1:
        return spec.origin
    if not spec.submodule_search_locations:
        return None  # "from module import name": a name, not a submodule
    base = list(spec.submodule_search_locations)[0]
    cand = os.path.join(base, *parts[1:])
    if os.path.isfile(cand + ".py"):
        return cand + ".py"
    if os.path.isfile(os.path.join(cand, "__init__.py")):
        return os.path.join(cand, "__init__.py")
    return None


def library_files(sources):
    """[(host path, path on the drive)] of the libraries the ``sources`` need.
    Raises SystemExit naming any import that is neither built in, nor the
    project's, nor installed here."""
    todo = []
    for src in sources:
        if src.endswith(".py"):
            req, _opt = imports_of(src)
            todo.extend(req)
    found = {}  # drive path -> host path
    missing = set()
    seen = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        top = name.split(".")[0]
        if top in BUILTINS or top in PROJECT_PACKAGES or top == "__future__":
            continue
        host = _locate(name)
        if host is None:
            if "." in name:
                continue  # "from pkg import Name": Name is no module; pkg itself is checked
            missing.add(name)
            continue
        if "." in name or os.path.basename(host) == "__init__.py":
            todo.append(top)  # a package needs its __init__
        pkg_dir = os.path.dirname(host) if os.path.basename(host) == "__init__.py" else None
        if "." in name or pkg_dir:
            parts = name.split(".")
            rel = "/".join(parts) + ("/__init__.py" if os.path.basename(host) == "__init__.py" else ".py")
        else:
            rel = name + ".py"
        if rel in found:
            continue
        found["lib/" + rel] = host
        package = name if os.path.basename(host) == "__init__.py" else name.rpartition(".")[0]
        req, _opt = imports_of(host, package)
        todo.extend(req)
    if missing:
        raise SystemExit(
            "not built into CircuitPython, not in the project and not installed here: "
            + ", ".join(sorted(missing))
            + "\n(pip install -r requirements.txt installs the device libraries too)"
        )
    absent = [r for r in REQUIRED if not any(d == "lib/" + r + ".py" or d.startswith("lib/" + r + "/") for d in found)]
    if absent:
        raise SystemExit("the scan did not reach the required libraries: " + ", ".join(absent))
    return sorted((host, dst) for dst, host in found.items())


def plan(root=ROOT):
    """Everything to copy: [(host path, path on the drive, bytes)]."""
    own = project_files(root)
    libs = library_files([src for src, _ in own])
    return [(src, dst, os.path.getsize(src)) for src, dst in own + libs]


def _kib(n):
    if n >= 10 * 1024 * 1024:
        return "%.1f MiB" % (n / 1048576.0)
    return "%.1f KiB" % (n / 1024.0)


def deploy(target, dry_run=False, overwrite_settings=False, out=print):
    files = plan()
    if not os.path.isdir(target):
        raise SystemExit("no such folder: " + target + " (is the CIRCUITPY drive mounted?)")
    keep_settings = os.path.exists(os.path.join(target, SETTINGS)) and not overwrite_settings
    total = 0
    count = 0
    out(("would copy to " if dry_run else "copying to ") + target + ":")
    for src, dst, size in files:
        if dst == SETTINGS and keep_settings:
            out("  %8s  %s (kept: the target has one; --overwrite-settings replaces it)" % ("-", dst))
            continue
        out("  %8d  %s" % (size, dst))
        total += size
        count += 1
        if not dry_run:
            path = os.path.join(target, *dst.split("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            shutil.copyfile(src, path)
    out("%d files, %d bytes (%s)" % (count, total, _kib(total)))
    try:
        free = shutil.disk_usage(target).free
        out("free on the target: %s" % _kib(free))
    except OSError:
        pass
    if not dry_run:
        try:
            os.sync()  # CircuitPython reads the drive as soon as the host writes it
        except AttributeError:
            pass
    return files


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python tools/deploy.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("target", help="the mounted CIRCUITPY drive, or any folder")
    ap.add_argument("--dry-run", action="store_true", help="list files and total size, copy nothing")
    ap.add_argument("--overwrite-settings", action="store_true", help="replace the target's settings.toml")
    args = ap.parse_args(argv)
    deploy(args.target, dry_run=args.dry_run, overwrite_settings=args.overwrite_settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
