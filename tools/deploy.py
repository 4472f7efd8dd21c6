"""Copy Referee Box to a CircuitPython drive, with exactly the libraries it needs.

    python tools/deploy.py TARGET            copy to TARGET (e.g. /media/$USER/CIRCUITPY)
    python tools/deploy.py TARGET --dry-run  list what would be copied, with sizes
    python tools/deploy.py TARGET --mpy-cross PATH  copy, modules compiled to .mpy (less heap)

TARGET may be any folder (the tests deploy into a temporary one). What goes:

* ``code.py``, ``boot.py``, ``safemode.py`` (run by the firmware when it starts
  in safe mode: it resets out of it after a crash), ``settings.toml`` (an existing
  settings.toml on the target is kept unless ``--overwrite-settings``: it holds
  the table's choices);
* the folders ``games/`` and ``hardware/`` at the top level, the framework at
  ``lib/referee/`` (the PC side lives in ``pc/`` and stays behind; so does
  ``hardware/sim.py``, the simulated box's pinned name, an alias of ``pc/sim.py``);
* ``rules/<game>.txt``, the launcher's "How to play" pages, at the top level
  (``/rules``: the box reads them a page at a time);
* the Adafruit libraries into ``lib/``, taken from the pip packages installed
  here (so it works offline). They are found by scanning imports: every module
  the copied files import, and what those import in turn, that is neither part
  of the project nor built into CircuitPython. A package brings only the
  submodules that are imported, not the whole package. Imports inside ``try: ... except ImportError`` are optional
  (type hints) and are not followed.

With ``--mpy-cross PATH`` every module goes as ``.mpy`` bytecode compiled by
that executable instead of ``.py`` source: the project's modules and the
libraries alike, except ``code.py``, ``boot.py`` and ``safemode.py``
(CircuitPython runs those three by name, as source). The board then skips compiling at import, which keeps
less heap (docs/memory.md). They are compiled with ``-O3``: no line-number tables in the
bytecode (the box has no ``assert`` and reads no ``__debug__``, so nothing else changes); a
traceback on serial still names the file and the function, not the line. Measured on the
firmware at 1c18845 (against 7eec099): 3,760 B more free in Würfelblitz at seven players,
2,048 B at the launcher. PATH must be CircuitPython's own
mpy-cross for the board's major version (MicroPython's writes a different .mpy
format): when the target holds a ``boot_out.txt``, a compiler whose version
line does not name the same CircuitPython major version is refused. Everything
is compiled into a temporary folder first; if the compiler is missing or
rejects a file, nothing is written. A ``.py`` left on the target by an earlier
deploy next to a new ``.mpy`` is removed (the board would import the ``.py``).

With internet access, ``circup install -r requirements-device.txt`` installs
the same libraries (as .mpy, matched to the board's CircuitPython version).
"""

import argparse
import ast
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROJECT_PACKAGES = ("referee", "games", "hardware", "pc")  # pc: the PC side, imported by code.py on a PC only
# Modules CircuitPython 9/10 has built in on the RP2040/RP2350 (tilepalettemapper: 10 only,
# imported where it is optional; never copied; adafruit_pixelbuf
# is a C module in the firmware, which neopixel imports).
BUILTINS = frozenset(
    """
    adafruit_pixelbuf analogio array binascii bitmaptools board builtins busdisplay busio collections
    countio digitalio displayio epaperdisplay errno fontio fourwire framebufferio gc
    hashlib i2cdisplaybus io json keypad math microcontroller micropython msgpack
    neopixel_write os paralleldisplaybus pulseio pwmio random re rotaryio rp2pio rtc
    select storage struct supervisor sys terminalio tilepalettemapper time traceback usb_cdc usb_hid
    usb_midi vectorio watchdog zlib
    """.split()
)
# The libraries the box cannot run without (requirements-device.txt): both displays' drivers
# (REFEREE_DISPLAY picks one at boot, so a settings change needs no new deploy); the scan must find them.
REQUIRED = ("neopixel", "adafruit_st7789", "adafruit_ili9341")
TOP_FILES = ("code.py", "boot.py", "safemode.py")
# The one file of the box's folders that stays behind: the simulated box's pinned
# import name (hardware.sim), an alias of pc/sim.py.
PC_ALIAS = "hardware/sim.py"
SETTINGS = "settings.toml"
RULES = "rules"  # rules/<game>.txt: read a page at a time by referee.rules
# Files that stay source under --mpy-cross: CircuitPython runs these by name.
KEEP_SOURCE = TOP_FILES + (SETTINGS,)
COMPILE_TIMEOUT_S = 60


def project_files(root=ROOT):
    """[(source path, path on the drive)] of the project's own files."""
    out = []
    for name in TOP_FILES + (SETTINGS,):
        if os.path.exists(os.path.join(root, name)):  # an older tree (bench_memory --tree) may lack one
            out.append((os.path.join(root, name), name))
    for src_dir, dst_dir in (("games", "games"), ("hardware", "hardware"), (os.path.join("lib", "referee"), "lib/referee")):
        base = os.path.join(root, src_dir)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for fn in sorted(filenames):
                if not fn.endswith(".py"):
                    continue
                src = os.path.join(dirpath, fn)
                rel = os.path.relpath(src, base).replace(os.sep, "/")
                if src_dir + "/" + rel == PC_ALIAS:
                    continue
                out.append((src, dst_dir + "/" + rel))
    rules = os.path.join(root, RULES)  # the launcher's "How to play" pages (referee.rules)
    if os.path.isdir(rules):
        for fn in sorted(os.listdir(rules)):
            if fn.endswith(".txt"):
                out.append((os.path.join(rules, fn), RULES + "/" + fn))
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


def device_pins(root=ROOT):
    """{library: version} pinned in requirements-device.txt."""
    pins = {}
    with open(os.path.join(root, "requirements-device.txt")) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if "==" in line:
                name, version = line.split("==")
                pins[name.strip()] = version.strip()
    return pins


def check_versions(root=ROOT):
    """SystemExit unless every pinned device library is installed here at its pin
    (deploy copies the installed files: they must be the versions the tests ran)."""
    from importlib import metadata

    wrong = []
    for name, version in sorted(device_pins(root).items()):
        dist = "adafruit-circuitpython-" + name.replace("adafruit_", "").replace("_", "-")
        try:
            have = metadata.version(dist)
        except metadata.PackageNotFoundError:
            have = "not installed"
        if have != version:
            wrong.append("%s %s (pinned %s)" % (dist, have, version))
    if wrong:
        raise SystemExit("device libraries not at their pinned versions: " + ", ".join(wrong)
                         + "\n(pip install -r requirements.txt installs the pinned ones)")


def plan(root=ROOT):
    """Everything to copy: [(host path, path on the drive, bytes)]."""
    check_versions(root)
    own = project_files(root)
    libs = library_files([src for src, _ in own if src.endswith(".py")])
    return [(src, dst, os.path.getsize(src)) for src, dst in own + libs]


def mpy_name(dst):
    """Path on the drive of the compiled module: lib/referee/app.py -> lib/referee/app.mpy."""
    return dst[:-3] + ".mpy"


def _compiler_failure(what, exe, err):
    return SystemExit("mpy-cross %s: %s\n%s" % (what, exe, err.strip() or "(no output)"))


def check_compiler(path):
    """(executable, version line) of the mpy-cross at ``path`` (a file, or a name
    on PATH). Raises SystemExit, with the compiler's own output, if it is
    missing or does not run."""
    exe = path
    if not os.path.isfile(exe):
        bare_name = os.path.basename(path) == path
        exe = shutil.which(path) if bare_name else None
        if exe is None:
            raise SystemExit("mpy-cross not found: %s\n(get CircuitPython's mpy-cross for the board's "
                             "version: hardware/README.md, \"Deploying the code\")" % path)
    if not os.access(exe, os.X_OK):
        raise SystemExit("mpy-cross is not executable: %s (chmod +x it)" % exe)
    try:
        r = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
    except (OSError, subprocess.SubprocessError) as e:
        raise _compiler_failure("does not run", exe, str(e))
    version = (r.stdout.strip() or r.stderr.strip()).splitlines()
    if r.returncode != 0 or not version:
        raise _compiler_failure("failed (exit %s) when asked for --version" % r.returncode, exe, r.stderr + r.stdout)
    return exe, version[0].strip()


def _major(text, name):
    m = re.search(name + r" (\d+)\.", text)
    return int(m.group(1)) if m else None


def check_firmware(target, version):
    """None if ``version`` (the compiler's) suits the CircuitPython in
    ``target``'s boot_out.txt, else why not. A folder without boot_out.txt is
    not a board: nothing to compare (None)."""
    firmware = firmware_line(target)
    if firmware is None:
        return None
    board = _major(firmware, "CircuitPython")
    if board is None:
        return None
    compiler = _major(version, "CircuitPython")
    if compiler == board:
        return None
    if compiler is None:
        return ("this mpy-cross is not CircuitPython's (%s); the board's boot_out.txt says \"%s\", and "
                "CircuitPython cannot load other .mpy formats" % (version, firmware))
    return ("this mpy-cross is for CircuitPython %d (%s) but the board's boot_out.txt says \"%s\": .mpy "
            "files must be compiled for the firmware's major version" % (compiler, version, firmware))


def compile_modules(pairs, exe, out_dir):
    """Compile [(host .py, path on the drive)] with the mpy-cross ``exe`` into
    ``out_dir``. Returns [(compiled file, drive path of the .mpy, bytes)].
    Raises SystemExit naming the file and showing the compiler's output if it
    rejects one (the caller writes nothing then)."""
    out = []
    for src, dst in pairs:
        mpy = mpy_name(dst)
        path = os.path.join(out_dir, *mpy.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        try:
            r = subprocess.run([exe, "-O3", "-o", path, "-s", dst, src], capture_output=True, text=True,
                               timeout=COMPILE_TIMEOUT_S)
        except (OSError, subprocess.SubprocessError) as e:
            raise _compiler_failure("does not run", exe, str(e))
        if r.returncode != 0 or not os.path.isfile(path):
            raise _compiler_failure("failed (exit %s) on %s" % (r.returncode, dst), exe, r.stderr + r.stdout)
        out.append((path, mpy, os.path.getsize(path)))
    return out


def _kib(n):
    if n >= 10 * 1024 * 1024:
        return "%.1f MiB" % (n / 1048576.0)
    return "%.1f KiB" % (n / 1024.0)


def firmware_line(target):
    """The first line of the drive's boot_out.txt ("Adafruit CircuitPython 10.2.1 on
    ...; Raspberry Pi Pico with rp2040"), or None for a folder that is no board."""
    try:
        with open(os.path.join(target, "boot_out.txt"), encoding="utf-8", errors="replace") as f:
            return f.readline().strip()
    except OSError:
        return None


def source_refusal(firmware):
    """Why ``.py`` sources must not go to this board, or None. A Pico (RP2040) has
    ~171 KB of heap: compiling the games there runs out of memory (MemoryError at
    import), so .mpy is the only path that starts every game."""
    if firmware and "rp2040" in firmware.lower():
        return ("this board is an RP2040 (\"%s\"): its heap cannot compile the games from .py "
                "(MemoryError). Deploy .mpy with --mpy-cross PATH (CircuitPython's mpy-cross for "
                "its version: hardware/README.md, \"Compiled to .mpy\"), or pass --source to copy "
                ".py anyway" % firmware)
    return None


def old_firmware_note(firmware):
    """A note for CircuitPython 9.2.0 and older 9.x: no background_read (the capture
    reads its FIFO in the loop instead; a slow loop can lose edges and void rounds)."""
    m = re.search(r"CircuitPython (\d+)\.(\d+)\.(\d+)", firmware or "")
    if m and (int(m.group(1)), int(m.group(2)), int(m.group(3))) < (9, 2, 1):
        return ("note: CircuitPython %s.%s.%s lacks rp2pio's background_read; 9.2.1 or later "
                "(10.x recommended) lets the capture never lose an edge to a slow loop" % m.groups())
    return None


def deploy(target, dry_run=False, overwrite_settings=False, mpy_cross=None, out=print, source=False):
    """Copy (or with ``dry_run`` list) everything to ``target``. With
    ``mpy_cross`` (the compiler's path) modules go compiled, see the module doc.
    ``source``: copy .py even to an RP2040 (refused otherwise).
    Returns [(host file, path on the drive, bytes)] as copied."""
    files = plan()
    if not os.path.isdir(target):
        raise SystemExit("no such folder: " + target + " (is the CIRCUITPY drive mounted?)")
    firmware = firmware_line(target)
    note = old_firmware_note(firmware)
    if note:
        out(note)
    if mpy_cross is None:
        refusal = None if source else source_refusal(firmware)
        if refusal:
            raise SystemExit("refused: " + refusal + "\n(nothing was written)")
        return _write(target, files, [], dry_run, overwrite_settings, out)
    exe, version = check_compiler(mpy_cross)
    problem = check_firmware(target, version)
    if problem:
        raise SystemExit("refused: " + problem + "\n(nothing was written)")
    out("compiling with %s: %s" % (exe, version))
    if "CircuitPython" not in version:
        out("note: not CircuitPython's mpy-cross; CircuitPython will refuse these .mpy files")
    keep, source = [], []
    for item in files:
        dst = item[1]
        (keep if dst in KEEP_SOURCE or not dst.endswith(".py") else source).append(item)
    with tempfile.TemporaryDirectory(prefix="referee-mpy-") as tmp:
        compiled = compile_modules([(src, dst) for src, dst, _ in source], exe, tmp)
        stale = [dst for _, dst, _ in source]  # a .py beside its .mpy would be imported instead
        written = _write(target, keep + compiled, stale, dry_run, overwrite_settings, out)
        out("compiled %d modules: %d bytes of source -> %d bytes of .mpy" % (
            len(compiled), sum(size for _, _, size in source), sum(size for _, _, size in compiled)))
    return written


def _write(target, files, stale, dry_run, overwrite_settings, out):
    """Copy ``files`` [(host, drive path, bytes)] to ``target``, then delete the
    ``stale`` drive paths that exist there."""
    keep_settings = os.path.exists(os.path.join(target, SETTINGS)) and not overwrite_settings
    total = 0
    count = 0
    out(("would copy to " if dry_run else "copying to ") + target + ":")
    written = []
    for src, dst, size in files:
        if dst == SETTINGS and keep_settings:
            out("  %8s  %s (kept: the target has one; --overwrite-settings replaces it)" % ("-", dst))
            with open(os.path.join(target, SETTINGS), encoding="utf-8", errors="replace") as f:
                if "CIRCUITPY_HEAP_START_SIZE" not in f.read():
                    out("            (it has no CIRCUITPY_HEAP_START_SIZE line: copy the one at the end of"
                        " this tree's settings.toml into it; docs/memory.md says why)")
            continue
        out("  %8d  %s" % (size, dst))
        total += size
        count += 1
        written.append((src, dst, size))
        if not dry_run:
            path = os.path.join(target, *dst.split("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            shutil.copyfile(src, path)
    for dst in stale:
        path = os.path.join(target, *dst.split("/"))
        if os.path.isfile(path):
            out("  %8s  %s (%s: the board would import it instead of the .mpy)" % (
                "-", dst, "would remove" if dry_run else "removed"))
            if not dry_run:
                os.remove(path)
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
    return written


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python tools/deploy.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("target", help="the mounted CIRCUITPY drive, or any folder")
    ap.add_argument("--dry-run", action="store_true", help="list files and total size, copy nothing")
    ap.add_argument("--overwrite-settings", action="store_true", help="replace the target's settings.toml")
    ap.add_argument("--mpy-cross", metavar="PATH",
                    help="CircuitPython's mpy-cross for the board's version: send modules as .mpy "
                         "(code.py, boot.py, safemode.py stay source)")
    ap.add_argument("--source", action="store_true",
                    help="copy .py sources even to an RP2040 Pico (refused there without it: "
                         "the board's heap cannot compile the games)")
    args = ap.parse_args(argv)
    deploy(args.target, dry_run=args.dry_run, overwrite_settings=args.overwrite_settings,
           mpy_cross=args.mpy_cross, source=args.source)
    return 0


if __name__ == "__main__":
    sys.exit(main())
