"""The box on the real firmware: CircuitPython 10.2.1 on an emulated Pico (RP2040).

    python tools/firmware_check.py                   every game, a table, PNGs in build/firmware-check/
    python tools/firmware_check.py --games zilch,flyer --passes 2000
    python tools/firmware_check.py --panel ili9341   the larger panel's driver

It deploys this tree as the box gets it (``tools/deploy.py`` with CircuitPython's own
``mpy-cross``: every module as ``.mpy``), then boots it in an emulator of the RP2040 that
runs the real firmware (rp2040js; the interpreter, the heap, displayio, keypad, rp2pio and
the watchdog are CircuitPython's own C code). One fresh boot per row:

- **launcher**: ``Device()`` built (the launcher on the screen), 30 loop passes;
- **each game** at its largest table, every seat a bot, played for ``--passes`` loop
  passes (1,000) or to the end of the match, ``gc.collect()`` every 10 passes (outside
  the timed pass).

Per row it prints the launch (the game's modules loaded, its screen built and drawn: the
one long step before the match's first pass, timed apart), the free heap after
``gc.collect()`` (the launcher's, and a game's lowest),
the loop pass time (median, p99, longest, and what ran in the longest: the phase the game
was in and went to, and whether the firmware's own garbage collection ran inside it), and
any traceback or ``MemoryError``, and how many bytes a pass allocates (the mean) and in how
many timed passes the firmware collected garbage itself; a PNG of the screen at the end of
each row goes to the output folder. The ``gc.collect()`` every 10 passes keeps the firmware
from collecting inside a timed pass; ``--box-gc`` leaves it out, as on a box, where the
firmware collects whenever its heap fills, inside some pass. The exit status is 0 when every row ran without an error and within the
budgets (launcher >= 80 KiB free, every game >= 32 KiB; with ``--strict-time`` also no pass
over 50 ms and p99 under 20 ms), 1 otherwise, 3 when the files it needs are missing.

What it needs, from upstream sources, kept outside the repository (never committed):
the firmware ``.bin``/``.uf2`` for ``raspberry_pi_pico`` built from CircuitPython 10.2.1,
CircuitPython's ``mpy-cross`` from the same source tree, and rp2040js's ``demo/bootrom.ts``.
It looks for them in ``--firmware``/``--mpy-cross``/``--bootrom``, else ``EMU_FIRMWARE``,
``EMU_MPY_CROSS``, ``EMU_BOOTROM``, else ``~/.cache/referee-firmware/`` (``*.bin``/``*.uf2``,
``mpy-cross*``, ``bootrom.*``). The emulator runner is ``tools/emu/run.mjs`` (rp2040js, pinned
by its ``package.json``; its npm packages are installed on the first run), or ``--kit`` /
``EMU_KIT``. docs/firmware.md says how to build the three files.

Every figure comes from an emulated Pico, not silicon: the emulated clock is exact, but it
has no flash cache misses, so a real board may be slower (keep a margin).
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "lib")]

CACHE = os.environ.get("REFEREE_FIRMWARE_DIR") or os.path.join(os.path.expanduser("~"), ".cache",
                                                                 "referee-firmware")
LAUNCHER_MIN = 80 * 1024  # DESIGN budgets: free heap after gc.collect()
GAME_MIN = 32 * 1024
PASS_MAX_MS = 50  # the loop's goal: no pass over 50 ms, p99 under 20 ms
P99_MAX_MS = 20
# The probe's histogram of pass times (256 counts): 250 µs buckets up to 32 ms, then 8 ms
# buckets up to 1,056 ms; the last also holds every longer pass.
FINE_US = 250
FINE = 128
COARSE_US = 8000
BUCKETS = 256


def bucket_top_ms(k):
    """The upper edge (ms) of histogram bucket ``k``."""
    if k < FINE:
        return (k + 1) * FINE_US / 1000
    return (FINE * FINE_US + (k - FINE + 1) * COARSE_US) / 1000
TAG = "FWC "

# A latency run's person (only then in the probe: its code would take heap from the
# check's figures): Wurfelblitz's scripted person never rolls, a bot rolls in its place
# (a wrong answer keeps the roll with the bots; a roll of the person's would wait forever).
PERSON = """        if before == "wait" and getattr(g, "roller", 0) == 1:
            g.roller = 2
"""

# The probe runs as code.py (the runner adds a prelude that waits for the serial host).
PROBE = r'''
import gc, time, array
GAME = %(game)r
PLAYERS = %(players)d
HUMANS = %(humans)d
PASSES = %(passes)d
LIMIT_NS = %(limit_ms)d * 1000000
from hardware import device
d = device.Device(%(getenv)s)
for _ in range(30):
    d.step()
gc.collect()
print("FWC launcher", gc.mem_free())
if GAME:
    t0 = time.monotonic_ns()
    d.app.launch(GAME, PLAYERS, bots=tuple(range(1 + HUMANS, PLAYERS + 1)), seed=1)
    print("FWC launch", (time.monotonic_ns() - t0) // 1000)
    gc.collect()
    low = gc.mem_free()
    hist = array.array("H", bytes(2 * %(buckets)d))
    # passes over LONG_US by phase change (before * 16 + after; +256 when the firmware
    # collected in it): counts and the longest, in arrays made now (no heap taken later);
    # the heap they take is the probe's, not the box's: added back to every free figure
    gc.collect()
    f = gc.mem_free()
    long_n = array.array("H", bytes(2 * 512))
    long_us = array.array("L", bytes(4 * 512))
    gc.collect()
    mine = f - gc.mem_free()
    low += mine
    worst = 0
    what = ""
    n = 0
    alloc = ngc = gc_us = 0
    start = time.monotonic_ns()
    while n < PASSES and time.monotonic_ns() - start < LIMIT_NS:
        g = d.app.game
        before = g.phase_name() if g is not None else None
        before_p = g.phase if g is not None else 0
%(person)s        # gc.mem_free() walks the whole heap (milliseconds a call): a latency run, where
        # the time between passes counts, does without it (and the " gc" mark)
        f0 = 0 if HUMANS else gc.mem_free()
        t0 = time.monotonic_ns()
        d.step()
        us = (time.monotonic_ns() - t0) // 1000
        f1 = 0 if HUMANS else gc.mem_free()
        n += 1
        if f1 > f0:  # the firmware collected inside the pass
            ngc += 1
            if us > gc_us:
                gc_us = us
        else:
            alloc += f0 - f1
        k = us // %(fine_us)d
        if k >= %(fine)d:
            k = %(fine)d + (us - %(fine)d * %(fine_us)d) // %(coarse_us)d
        hist[k if k < %(buckets)d else %(buckets)d - 1] += 1
        if us > %(long_us)d and g is not None and d.app.game is g:
            j = (before_p & 15) * 16 + (g.phase & 15) + (256 if f1 > f0 else 0)
            long_n[j] += 1
            if us > long_us[j]:
                long_us[j] = us
        if us > worst:
            g = d.app.game
            after = g.phase_name() if g is not None else None
            worst = us
            what = "%%s %%s->%%s%%s" %% (d.app.mode, before, after, " gc" if f1 > f0 else "")
        if n %% %(gc_every)d == 0:
            gc.collect()
            f = gc.mem_free() + mine
            if f < low:
                low = f
        if d.app.game is None or d.app.game.over or d.app.mode != "game":
            break
    gc.collect()
    f = gc.mem_free() + mine
    if f < low:
        low = f
    g = d.app.game
    print("FWC game", GAME, PLAYERS, n, (time.monotonic_ns() - start) // 1000000, low,
          worst, d.app.mode, 1 if (g is not None and g.over) else 0, what.replace(" ", "_"))
    print("FWC hist", " ".join(str(c) for c in hist))
    g = d.app.game
    for j in range(512):
        if long_n[j] and g is not None:
            print("FWC long", g.phase_name((j >> 4) & 15), g.phase_name(j & 15), j >> 8, long_n[j], long_us[j])
    print("FWC alloc", -1 if HUMANS else alloc, ngc, gc_us)
    print("FWC error", d.app.error if getattr(d.app, "error", None) else "-")
print("FWC DONE")
'''


# ------------------------------------------------------------------ the files it needs


def _first(pattern):
    found = sorted(glob.glob(os.path.join(CACHE, pattern)))
    return found[0] if found else None


def find_files(firmware=None, bootrom=None, mpy_cross=None, kit=None):
    """(firmware, bootrom, mpy_cross, kit) paths, or raise LookupError naming what is missing."""
    fw = firmware or os.environ.get("EMU_FIRMWARE") or _first("*.bin") or _first("*.uf2")
    rom = bootrom or os.environ.get("EMU_BOOTROM") or _first("bootrom.*")
    mpyx = mpy_cross or os.environ.get("EMU_MPY_CROSS") or _first("mpy-cross*")
    kit = kit or os.environ.get("EMU_KIT") or os.path.join(ROOT, "tools", "emu")
    missing = []
    if not (fw and os.path.isfile(fw)):
        missing.append("the firmware (.bin/.uf2; --firmware or EMU_FIRMWARE)")
    if not (rom and os.path.isfile(rom)):
        missing.append("the RP2040 bootrom (bootrom.ts; --bootrom or EMU_BOOTROM)")
    if not (mpyx and os.path.isfile(mpyx) and os.access(mpyx, os.X_OK)):
        missing.append("CircuitPython's mpy-cross (--mpy-cross or EMU_MPY_CROSS)")
    if not os.path.isfile(os.path.join(kit, "run.mjs")):
        missing.append("the emulator runner run.mjs (--kit or EMU_KIT)")
    if shutil.which("node") is None:
        missing.append("node (Node.js 18+)")
    if missing:
        raise LookupError("not found: " + "; ".join(missing) + " (looked in " + CACHE + " too)")
    return fw, rom, mpyx, kit


def ready_kit(kit):
    """The runner with its npm packages installed (once): in place, or in a copy in the
    cache when ``kit`` is read-only."""
    if os.access(kit, os.W_OK):
        if not os.path.isdir(os.path.join(kit, "node_modules", "rp2040js")):
            subprocess.run(["npm", "ci", "--silent", "--no-audit", "--no-fund"], cwd=kit, check=True,
                           stdout=subprocess.DEVNULL)
        return kit
    dst = os.path.join(CACHE, "emu-kit")
    lock = "package-lock.json"
    same = (os.path.isdir(os.path.join(dst, "node_modules", "rp2040js"))
            and _read(os.path.join(dst, lock)) == _read(os.path.join(kit, lock)))
    if not same:
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(kit, dst, ignore=shutil.ignore_patterns("node_modules"))
        for base, dirs, files in os.walk(dst):
            for name in dirs + files:
                os.chmod(os.path.join(base, name), 0o755 if name in dirs else 0o644)
        os.chmod(dst, 0o755)
        subprocess.run(["npm", "ci", "--silent", "--no-audit", "--no-fund"], cwd=dst, check=True,
                       stdout=subprocess.DEVNULL)
    # the tree's run.mjs may be newer than the copy's: keep the script files current
    for name in os.listdir(kit):
        src = os.path.join(kit, name)
        if os.path.isfile(src):
            shutil.copyfile(src, os.path.join(dst, name))
    return dst


def _read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def deploy(target, mpy_cross):
    """The tree as the box gets it, into ``target`` (tools/deploy.py --mpy-cross)."""
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "deploy.py"), target,
                        "--mpy-cross", mpy_cross], capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        raise RuntimeError("deploy failed: " + (r.stderr or r.stdout).strip()[-400:])


# ------------------------------------------------------------------ one boot


class Row:
    """One fresh boot's figures (``free`` is the launcher's or a game's lowest)."""

    def __init__(self, name, players):
        self.name = name
        self.players = players
        self.launcher = None
        self.low = None
        self.passes = 0
        self.emulated_ms = 0
        self.worst_us = 0
        self.what = ""
        self.mode = ""
        self.over = False
        self.hist = []
        self.error = ""
        self.png = ""
        self.neo_log = ""
        self.latencies_us = []  # press -> the winner's ring lit (--latency)
        self.alloc = -1  # bytes allocated in timed passes without a collection (-1: not measured)
        self.gcs = 0  # timed passes in which the firmware collected
        self.gc_us = 0  # the longest of them
        self.launch_us = 0  # the launch: the game's modules loaded, its screen built and drawn
        self.longs = []  # (before, after, collected, passes, longest µs): the passes over P99_MAX_MS

    def percentile_ms(self, q):
        """The pass time (ms, bucket's upper edge) below which ``q`` of the passes fall."""
        total = sum(self.hist)
        if not total:
            return 0.0
        need = q * total
        seen = 0
        for i, c in enumerate(self.hist):
            seen += c
            if seen >= need:
                return bucket_top_ms(i)
        return bucket_top_ms(BUCKETS - 1)

    def ok(self, strict_time=False):
        if self.error:
            return False
        if self.name == "launcher":
            return self.launcher is not None and self.launcher >= LAUNCHER_MIN
        if self.low is None or self.low < GAME_MIN or self.passes == 0:
            return False
        if strict_time and (self.worst_us > PASS_MAX_MS * 1000
                            or self.percentile_ms(0.99) > P99_MAX_MS):
            return False
        return True


def parse(serial, row):
    """Fill ``row`` from the probe's serial lines; a traceback or MemoryError is its error."""
    for line in serial.splitlines():
        if line.startswith(TAG + "launcher "):
            row.launcher = int(line.split()[2])
        elif line.startswith(TAG + "game "):
            p = line.split()
            row.passes, row.emulated_ms, row.low, row.worst_us = (int(p[4]), int(p[5]),
                                                                  int(p[6]), int(p[7]))
            row.mode, row.over = p[8], p[9] == "1"
            row.what = p[10].replace("_", " ") if len(p) > 10 else ""
        elif line.startswith(TAG + "launch "):
            row.launch_us = int(line.split()[2])
        elif line.startswith(TAG + "alloc "):
            row.alloc, row.gcs, row.gc_us = (int(v) for v in line.split()[2:5])
        elif line.startswith(TAG + "hist "):
            row.hist = [int(c) for c in line.split()[2:]]
        elif line.startswith(TAG + "long "):
            p = line.split()
            row.longs.append((p[2], p[3], p[4] == "1", int(p[5]), int(p[6])))
        elif line.startswith(TAG + "error ") and line[len(TAG) + 6:].strip() != "-":
            row.error = line[len(TAG) + 6:].strip()
    m = re.search(r"(Traceback \(most recent call last\):.*?\n\w*Error[^\n]*|MemoryError[^\n]*"
                  r"|safe mode[^\n]*)", serial, re.S)
    if m and not row.error:
        row.error = m.group(1).strip().splitlines()[-1]
    if "FWC DONE" not in serial and not row.error:
        row.error = "the probe did not finish (see the serial log)"


# How the emulator shows each panel's glass upright for REFEREE_ROTATION = 90: the ST7789's
# picture is turned by displayio (rotation 90); the ILI9341's driver writes landscape into a
# portrait controller (MADCTL MV) whose glass runs its columns mirrored (upright needs MX).
PANEL_VIEW = {"st7789": ("--rotation", "90"), "ili9341": ("--rotation", "90", "--mirror-x")}


def panel_of_settings(root=ROOT):
    """The display settings.toml names (REFEREE_DISPLAY), "st7789" when it names none
    (the box's own default)."""
    try:
        with open(os.path.join(root, "settings.toml"), encoding="utf-8") as f:
            for line in f:
                m = re.match(r'\s*REFEREE_DISPLAY\s*=\s*"([^"]*)"', line)
                if m and m.group(1).strip().lower() in PANEL_VIEW:
                    return m.group(1).strip().lower()
    except OSError:
        pass
    return "st7789"


def boot(files, fs, row, out, passes, limit_ms, getenv, view=PANEL_VIEW["st7789"], presses=(), box_gc=False):
    """One fresh boot of the deployed tree running the probe for ``row`` (``view``: how
    the emulator shows the panel). ``presses``: the runner's ``--press`` values (seat 1
    is then a person, not a bot), and the NeoPixel frames are logged to ``row.neo_log``.
    ``box_gc``: no ``gc.collect()`` between passes (the firmware collects when its heap
    fills, inside a pass, as on a box)."""
    fw, rom, _mpyx, kit = files
    work = tempfile.mkdtemp(prefix="fwcheck-")
    probe = os.path.join(work, "probe.py")
    game = "" if row.name == "launcher" else row.name
    with open(probe, "w") as f:
        f.write(PROBE % {"game": game, "players": row.players, "passes": passes,
                         "limit_ms": limit_ms, "buckets": BUCKETS, "fine_us": FINE_US,
                         "fine": FINE, "coarse_us": COARSE_US, "humans": 1 if presses else 0,
                         "person": PERSON if presses else "",
                         "gc_every": 1000000 if presses or box_gc else 10, "long_us": P99_MAX_MS * 1000,
                         "getenv": getenv})
    row.png = os.path.join(out, row.name + ".png")
    log = os.path.join(out, row.name + ".serial.txt")
    cmd = ["node", os.path.join(kit, "run.mjs"), "--firmware", fw, "--bootrom", rom, "--fs", fs,
           "--code", probe, "--wire", "GP22:GP9"] + list(view) + ["--until", "FWC DONE",
           "--timeout", str(limit_ms + 30000), "--wall-timeout", "1500", "--quiet",
           "--log", log, "--screen", row.png + "@exit", "--report", os.path.join(work, "r.json")]
    for p in presses:
        cmd += ["--press", p]
    if presses:
        row.neo_log = os.path.join(out, row.name + ".neopixel.json")
        cmd += ["--neopixel-log", row.neo_log]
    p = subprocess.run(cmd, capture_output=True, text=True)
    serial = _read(log)
    serial = serial.decode("utf-8", "replace") if serial else ""
    parse(serial, row)
    if p.returncode not in (0, 1) and not row.error:
        row.error = "emulator status %d: %s" % (p.returncode, (p.stderr or "").strip()[-200:])
    shutil.rmtree(work, ignore_errors=True)
    return row


# ------------------------------------------------------------------ press -> ring


SEAT1_PIN = 2  # GP2: station 1 (hardware/pins.py)
# the k-th race's press comes (k mod 10) * this later still: the presses fall at ten
# points of the loop's passes (a pass in a race is ~3-4 ms), not always at the same one
LATENCY_STEP_MS = 0.37
REVEAL_OUT = 22  # GP22: the backlight; its rise is a race's reveal
PER_RING = 12


def _level(hexes):
    # the brightest channel of ring 1 (pixels 0..11) in a frame's colours
    return max(max(int(h[1:3], 16), int(h[3:5], 16), int(h[5:7], 16)) for h in hexes[:PER_RING])


def latencies(log, after_ns, spread_ns=0):
    """From a runner's ``--neopixel-log`` (frames with times, scripted presses): for every
    press of station 1 made ``after_ns`` (to ``after_ns + spread_ns``) after a reveal (a
    race's press), the ns from its edge to the end of the first NeoPixel frame (the strip
    latches at the end of a frame) that lights ring 1 at 90 % of the brightest it ever was
    in the log (a resting ring is the seat's colour dimmed to 60/255; a winner's is the
    full colour), or None when no frame did within 1 s."""
    out = []
    frames = log.get("frames", [])
    full = max([_level(f["px"]) for f in frames if f["px"]] or [0])
    for press in log.get("presses", []):
        if press.get("pin") != SEAT1_PIN:
            continue
        t = press["down_ns"]
        if not any(-1000000 < t - r["at_ns"] - after_ns < spread_ns + 1000000 for r in log.get("rises", [])):
            continue  # a tap to go on, not a race's press
        lit = None
        for f in frames:
            if f["t1_ns"] >= t and f["px"] and _level(f["px"]) * 10 >= full * 9 and f["t1_ns"] - t < 10 ** 9:
                lit = f["t1_ns"] - t
                break
        out.append(lit)
    return out


# ------------------------------------------------------------------ the table


def rows_for(names):
    import games

    rows = [Row("launcher", 0)]
    for name in names:
        rows.append(Row(name, games.load(name).MAX_PLAYERS))
    return rows


def table(rows, commit):
    kib = lambda b: "-" if b is None else "{:,} B ({:.1f} KiB)".format(b, b / 1024)  # noqa: E731
    out = ["Real firmware: CircuitPython 10.2.1, raspberry_pi_pico, emulated RP2040 (rp2040js), "
           "tree " + commit, "",
           "| stage | players | launch ms | passes | emulated s | free after gc.collect() | median <= ms | "
           "p99 <= ms | longest ms | in the longest | result |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if r.name == "launcher":
            out.append("| launcher | - | - | 30 | - | %s | - | - | - | - | %s |"
                       % (kib(r.launcher), "OK" if r.ok() else "FAIL " + (r.error or "< 80 KiB")))
            continue
        result = "OK" if r.ok() else "FAIL " + (r.error or "< 32 KiB")
        end = " (match over)" if r.over else ""
        out.append("| %s | %d | %.1f | %d%s | %.1f | %s lowest | %.2f | %.2f | %.1f | %s | %s |"
                   % (r.name, r.players, r.launch_us / 1000, r.passes, end, r.emulated_ms / 1000, kib(r.low),
                      r.percentile_ms(0.5), r.percentile_ms(0.99), r.worst_us / 1000,
                      r.what or "-", result))
    return "\n".join(out)


def commit_of_tree():
    try:
        sha = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                             text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True).stdout.strip()
        return sha + ("+changes" if dirty else "")
    except OSError:
        return "?"


def main(argv=None):
    import games

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--firmware")
    ap.add_argument("--bootrom")
    ap.add_argument("--mpy-cross", dest="mpy_cross")
    ap.add_argument("--kit", help="the emulator runner's folder (run.mjs, package.json)")
    ap.add_argument("--games", default=",".join(games.names()),
                    help="comma-separated game names (default: all); 'none' = the launcher only")
    ap.add_argument("--passes", type=int, default=1000, help="loop passes per game (default 1000)")
    ap.add_argument("--limit-s", type=int, default=90,
                    help="emulated seconds per game at most (default 90)")
    ap.add_argument("--panel", choices=("st7789", "ili9341"), default=None,
                    help="REFEREE_DISPLAY for the boot (default: settings.toml's, else st7789)")
    ap.add_argument("--jobs", type=int, default=2, help="boots at once (default 2)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "firmware-check"))
    ap.add_argument("--json", help="also write the rows as JSON to this file")
    ap.add_argument("--strict-time", action="store_true",
                    help="also fail on a pass over 50 ms or a p99 over 20 ms")
    ap.add_argument("--latency", type=float, metavar="MS", default=None,
                    help="seat 1 is a person who presses MS ms after every reveal (the backlight "
                         "on GP22 rising; the k-th race's press (k mod 10) * %g ms later still, so "
                         "the presses fall at ten points of the loop's passes) and again 1.5 s later "
                         "(a tap to go on; in Wurfelblitz a wrong answer, and a bot rolls in its "
                         "place): the table adds the times from those presses to the winner's ring "
                         "lit (goal < 10 ms)" % LATENCY_STEP_MS)
    ap.add_argument("--box-gc", action="store_true",
                    help="no gc.collect() between timed passes: the firmware collects when its heap "
                         "fills, inside a pass, as on a box (the pass times include it; the free heap "
                         "is then read once, after the match)")
    a = ap.parse_args(argv)
    names = [] if a.games == "none" else [n.strip() for n in a.games.split(",") if n.strip()]
    for n in names:
        if n not in games.names():
            ap.error("unknown game %r (games: %s)" % (n, ", ".join(games.names())))
    if a.passes < 1 or a.limit_s < 1 or a.jobs < 1:
        ap.error("--passes, --limit-s and --jobs must be >= 1")
    try:
        files = find_files(a.firmware, a.bootrom, a.mpy_cross, a.kit)
    except LookupError as e:
        print("firmware check: " + str(e), file=sys.stderr)
        return 3
    fw, rom, mpyx, kit = files
    files = (fw, rom, mpyx, ready_kit(kit))
    os.makedirs(a.out, exist_ok=True)
    commit = commit_of_tree()
    fs = tempfile.mkdtemp(prefix="fwcheck-fs-")
    try:
        deploy(fs, mpyx)
        getenv = ""
        if a.panel:
            getenv = ("getenv=lambda k, d=None: %r if k == 'REFEREE_DISPLAY' else "
                      "__import__('os').getenv(k, d)" % a.panel)
        panel = a.panel or panel_of_settings()
        rows = rows_for(names)
        print("firmware check: %s; display %s; %d boots, %d at once" % (commit, panel, len(rows), a.jobs),
              flush=True)
        with ThreadPoolExecutor(max_workers=a.jobs) as pool:
            presses = ()
            if a.latency is not None:
                presses = ("GP%d@GP%d+%gms~%gms:80ms" % (SEAT1_PIN, REVEAL_OUT, a.latency, LATENCY_STEP_MS),
                           "GP%d@GP%d+%gms:80ms" % (SEAT1_PIN, REVEAL_OUT, a.latency + 1500))
            done = pool.map(lambda r: boot(files, fs, r, a.out, a.passes, a.limit_s * 1000, getenv, PANEL_VIEW[panel],
                                           presses if r.name != "launcher" else (), a.box_gc),
                            rows)
            for r in done:
                print("  %-15s %s" % (r.name, "ok" if r.ok() else "FAIL " + r.error), flush=True)
    finally:
        shutil.rmtree(fs, ignore_errors=True)
    print()
    print(table(rows, commit))
    for r in rows:
        if r.neo_log and os.path.isfile(r.neo_log):
            with open(r.neo_log) as f:
                r.latencies_us = [None if v is None else v // 1000 for v in latencies(
                    json.load(f), int(a.latency * 1e6), int(9 * LATENCY_STEP_MS * 1e6))]
            got = sorted(v for v in r.latencies_us if v is not None)
            print("%s: press -> winner's ring lit (ms, every press of seat 1): %s%s" % (
                r.name, ", ".join("-" if v is None else "%.2f" % (v / 1000) for v in r.latencies_us),
                "; %d readings, median %.2f, longest %.2f" % (len(got), got[len(got) // 2] / 1000, got[-1] / 1000)
                if got else ""))
    for r in rows:
        if r.longs:
            print("%s: passes over %d ms by phase change: %s" % (r.name, P99_MAX_MS, ", ".join(
                "%s->%s%s %d (longest %.1f ms)" % (b, a, " with a collection" if c else "", n, us / 1000)
                for b, a, c, n, us in sorted(r.longs, key=lambda x: -x[3]))))
    for r in rows:
        if r.name != "launcher" and r.passes:
            if r.alloc < 0:
                print("%s: allocation and collections not measured (a latency run reads no heap)" % r.name)
                continue
            print("%s: %d B allocated a pass (mean of the passes without a collection); the firmware "
                  "collected in %d timed passes%s" % (
                      r.name, r.alloc // max(1, r.passes - r.gcs), r.gcs,
                      " (longest %.1f ms)" % (r.gc_us / 1000) if r.gcs else ""))
    print()
    print("PNGs and serial logs: " + a.out)
    print("Figures from an emulated Pico (exact emulated clock, no flash cache misses), not silicon.")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"commit": commit, "rows": [dict(vars(r), p50_ms=r.percentile_ms(0.5),
                                                       p99_ms=r.percentile_ms(0.99))
                                                  for r in rows]}, f, indent=1)
    return 0 if all(r.ok(a.strict_time) for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
