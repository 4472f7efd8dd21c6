"""The box in a browser: build the static page, serve it, measure it.

    python tools/web.py serve [--port 8000]   build into build/web, serve it on 127.0.0.1
    python tools/web.py build [DIR]           build into DIR (default build/web)
    python tools/web.py measure [--runtime micropython|pyodide] [--runs N]
                                              load size, time to first screen and loop pass
                                              time in headless Chromium (tools/chromium.py)
    python tools/web.py compare --pyodide DIR MicroPython and Pyodide side by side (DIR: the
                                              npm package pyodide, e.g. node_modules/pyodide)
    python tools/web.py shots [DIR]           a screenshot of every game (default docs/img)

The folder is static files only -- put it on any static host. What goes in:

* the page (web/index.html, web/box.js, web/sw.js: offline once loaded);
* MicroPython's WebAssembly port, the npm package the VM tests use (tests/mpvm, one
  pin for both: ``npm ci --prefix tests/mpvm``, which this tool runs when it is missing);
* py.json: every file of lib/referee and games exactly as in the tree, the browser's
  displayio, vectorio, terminalio and box (web/*.py), ``bitmaptools`` (the fake the
  MicroPython VM and the bare interpreter use too: tools/pico_fakes/bitmaptools.py,
  writing through web/displayio.py's bitmaps), and ``web_font.py``, the box's 6x12
  font generated here from the one the window draws (pc/font.py).

No rule or flow is in JavaScript: docs/browser.md.
"""

import argparse
import functools
import hashlib
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "lib")]

WEB = os.path.join(ROOT, "web")
DEFAULT_DIR = os.path.join(ROOT, "build", "web")
MPVM = os.path.join(ROOT, "tests", "mpvm")
BITMAPTOOLS = os.path.join(ROOT, "tools", "pico_fakes", "bitmaptools.py")
MP_PACKAGE = os.path.join(MPVM, "node_modules", "@micropython", "micropython-webassembly-pyscript")
MP_FILES = ("micropython.mjs", "micropython.wasm")
PAGE_FILES = ("index.html", "box.js")
MARK = ".referee-web"  # a build folder has it: only such a folder is emptied by a build
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".zip": "application/zip"}


def micropython_package():
    """The MicroPython WebAssembly package's folder, installed with npm if missing."""
    if not os.path.isfile(os.path.join(MP_PACKAGE, MP_FILES[1])):
        npm = shutil.which("npm")
        if npm is None:
            raise SystemExit("MicroPython's WebAssembly package is missing and npm is not installed: "
                             "install Node.js 18+ and run  npm ci --prefix tests/mpvm")
        print("installing MicroPython's WebAssembly package: npm ci --prefix tests/mpvm", flush=True)
        subprocess.run([npm, "ci", "--prefix", MPVM], check=True)
    return MP_PACKAGE


def font_module():
    """``web_font.py``: the box's font sheet (tile i = code point 32 + i, 6x12), packed
    8 pixels a byte row by row, from the sprite sheet the window draws with."""
    from pc import env as pc_env  # noqa: F401  (before Blinka)
    from pc import font as pc_font

    pc_font.install()
    import terminalio

    bm = terminalio.FONT.bitmap
    count = pc_font.LAST - pc_font.FIRST + 1
    w = pc_font.W * count
    row = (w + 7) // 8
    bits = bytearray(row * pc_font.H)
    for y in range(pc_font.H):
        for x in range(w):
            if bm[x, y]:
                bits[y * row + (x >> 3)] |= 0x80 >> (x & 7)
    lines = ['"""The box\'s font for the page: written by tools/web.py from pc/font.py; do not edit."""',
             "", "W = %d" % pc_font.W, "H = %d" % pc_font.H, "FIRST = %d" % pc_font.FIRST, "COUNT = %d" % count,
             "BITS = bytes.fromhex(", ]
    hexed = bits.hex()
    for i in range(0, len(hexed), 96):
        lines.append('    "%s"' % hexed[i:i + 96])
    lines.append(")")
    return "\n".join(lines) + "\n"


def python_files():
    """{path in the VM: source}: /lib/referee/*, /games/*, the browser's modules in /lib
    (web/*.py, the fakes' bitmaptools, the font)."""
    files = {}
    for vm_dir, host_dir in (("/lib/referee", os.path.join(ROOT, "lib", "referee")), ("/games", os.path.join(ROOT, "games")),
                             ("/lib", WEB)):
        for name in sorted(os.listdir(host_dir)):
            if name.endswith(".py"):
                with open(os.path.join(host_dir, name), encoding="utf-8") as f:
                    files[vm_dir + "/" + name] = f.read()
    with open(BITMAPTOOLS, encoding="utf-8") as f:  # the fakes' one copy of the firmware's checks
        files["/lib/bitmaptools.py"] = f.read()
    files["/lib/web_font.py"] = font_module()
    return files


def _empty(out):
    if os.path.isdir(out) and os.listdir(out):
        if not os.path.exists(os.path.join(out, MARK)):
            raise SystemExit(out + " is not empty and is no build of this tool: not touching it")
        shutil.rmtree(out)
    os.makedirs(out, exist_ok=True)


def build(out=DEFAULT_DIR, pyodide=None, log=print):
    """Build the page into ``out``; with ``pyodide`` (the npm package's folder) the
    page can also run on Pyodide (``?py=pyodide``), for the comparison. Returns
    {file: bytes} of what the page loads."""
    package = micropython_package()
    out = os.path.abspath(out)
    _empty(out)
    with open(os.path.join(out, "py.json"), "w", encoding="utf-8") as f:
        json.dump(python_files(), f, separators=(",", ":"))
    for name in PAGE_FILES:
        shutil.copy(os.path.join(WEB, name), os.path.join(out, name))
    for name in MP_FILES:
        shutil.copy(os.path.join(package, name), os.path.join(out, name))
    if pyodide:
        os.makedirs(os.path.join(out, "pyodide"))
        for name in PYODIDE_FILES:
            shutil.copy(os.path.join(pyodide, name), os.path.join(out, "pyodide", name))
    listed = sorted(os.path.relpath(os.path.join(d, n), out).replace(os.sep, "/")
                    for d, _, names in os.walk(out) for n in names if n != MARK)
    digest = hashlib.sha256()
    for name in listed:
        with open(os.path.join(out, name), "rb") as f:
            digest.update(name.encode() + b"\0" + f.read())
    with open(os.path.join(WEB, "sw.js"), encoding="utf-8") as f:
        sw = f.read()
    files = ["./"] + [n for n in listed if not n.startswith("pyodide/")]
    sw = sw.replace('"@VERSION@"', json.dumps(digest.hexdigest()[:16])).replace('["@FILES@"]', json.dumps(files))
    with open(os.path.join(out, "sw.js"), "w", encoding="utf-8") as f:
        f.write(sw)
    open(os.path.join(out, MARK), "w").close()
    sizes = {n: os.path.getsize(os.path.join(out, n)) for n in listed + ["sw.js"] if not n.startswith("pyodide/")}
    log("built %s: %d files, %.0f KB" % (out, len(sizes), sum(sizes.values()) / 1024))
    return sizes


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES)

    def log_message(self, *args):
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()


def server(folder, port=0):
    """An HTTP server for ``folder`` on 127.0.0.1 (port 0: any free one), serving
    in a thread. Returns (server, url); ``server.shutdown()`` stops it."""
    handler = functools.partial(_Handler, directory=folder)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, "http://127.0.0.1:%d/" % srv.server_address[1]


def _serve(args):
    build(args.dir)
    srv, url = server(args.dir, args.port)
    print("serving " + args.dir + " at " + url + "  (Ctrl+C stops)", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        srv.shutdown()
    return 0


# ---------------------------------------------------------------- measuring


def measure_once(browser, url, runtime):
    """One fresh load: bytes fetched, time to first screen, and the loop pass time
    (the launcher for 2 s, a 4-bot Zilch match for 3 s in real time), then the
    VM's speed: 20 s of that match played at once (10,000 passes, no drawing)."""
    import time

    page = browser.open(url + ("?py=pyodide" if runtime == "pyodide" else ""))
    page.wait("globalThis.referee && (referee.firstScreen !== null || referee.error)", timeout=120)
    err = page.eval("referee.error || ''")
    if err:
        raise RuntimeError(err)
    time.sleep(2)
    idle = page.eval("referee.stats()")
    page.eval("referee.launch('zilch', 4, [1, 2, 3, 4]); referee.clearStats()")
    time.sleep(3)
    play = page.eval("referee.stats()")
    fast = page.eval("(() => { const t = performance.now(); referee.advance(20000); return performance.now() - t; })()")
    page.close()
    return {"bytes": idle["bytes"], "first": idle["firstScreenMs"], "idle": idle["pass"]["p50"],
            "play": play["pass"]["p50"], "play95": play["pass"]["p95"], "playmax": play["pass"]["max"],
            "raster": play["raster"]["p50"] or idle["raster"]["p50"], "fast_us": fast * 1000 / 10000}


def measure(runtime="micropython", runs=3, pyodide=None, log=print):
    """The figures of ``runs`` loads of a fresh build, each in a new browser with an
    empty cache (medians), as a dict."""
    import statistics
    import tempfile

    import chromium

    out = tempfile.mkdtemp(prefix="referee-web-")
    try:
        build(out, pyodide=pyodide, log=lambda s: None)
        srv, url = server(out)
        results = []
        try:
            for _ in range(runs):  # a fresh browser each time: nothing cached
                with chromium.Chromium() as browser:
                    results.append(measure_once(browser, url, runtime))
        finally:
            srv.shutdown()
    finally:
        shutil.rmtree(out, ignore_errors=True)

    def med(key):
        return statistics.median(r[key] for r in results)

    row = {"runtime": runtime, "runs": runs, "load_kb": round(med("bytes") / 1024),
           "first_screen_ms": round(med("first")), "pass_launcher_ms": round(med("idle"), 2),
           "pass_zilch_ms": round(med("play"), 2), "pass_zilch_p95_ms": round(med("play95"), 2),
           "pass_zilch_max_ms": round(med("playmax"), 2), "raster_ms": round(med("raster"), 2),
           "bot_pass_us": round(med("fast_us"))}
    log(json.dumps(row))
    return row


# (game, players, ms the bots play first, then on until the lit screen says this)
SHOTS = (("reaction", 4, 0, "first by"), ("wurfelblitz", 4, 6000, "GO"), ("lightning_dice", 3, 9000, ""),
         ("zilch", 4, 9000, ""), ("zap_city", 3, 9000, ""), ("flyer", 4, 9000, ""), ("selftest", 4, 0, ""))


def shots(folder, log=print):
    """A screenshot of the page with each game running (bots in every seat but the
    self test's) into ``folder`` as browser_<game>.png, 960x720 CSS pixels."""
    import tempfile

    import chromium

    os.makedirs(folder, exist_ok=True)
    out = tempfile.mkdtemp(prefix="referee-web-")
    try:
        build(out, log=lambda s: None)
        srv, url = server(out)
        try:
            with chromium.Chromium(width=960, height=720) as browser:
                for name, players, ms, says in SHOTS:
                    page = browser.open(url)
                    page.wait("globalThis.referee && referee.firstScreen !== null", timeout=120)
                    bots = [] if name == "selftest" else list(range(1, players + 1))
                    page.eval("referee.launch(%s, %d, %s, 7)" % (json.dumps(name), players, json.dumps(bots)))
                    if ms:
                        page.eval("referee.advance(%d)" % ms)
                    for _ in range(300):  # on to a lit screen (a race's dice are drawn in the dark first)
                        if page.eval("(s => s.lit && s.text.includes(%s))(referee.status())" % json.dumps(says)):
                            break
                        page.eval("referee.advance(100)")
                    page.eval("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
                    path = os.path.join(folder, "browser_%s.png" % name)
                    page.screenshot(path)
                    page.close()
                    log(path)
        finally:
            srv.shutdown()
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python tools/web.py", description="Referee Box in a browser")
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="build the static page into DIR")
    b.add_argument("dir", nargs="?", default=DEFAULT_DIR)
    s = sub.add_parser("serve", help="build into build/web and serve it on 127.0.0.1")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--dir", default=DEFAULT_DIR, help=argparse.SUPPRESS)
    m = sub.add_parser("measure", help="load size, time to first screen, loop pass time (headless Chromium)")
    m.add_argument("--runtime", choices=("micropython", "pyodide"), default="micropython")
    m.add_argument("--pyodide", metavar="DIR", help="the npm package pyodide's folder (for --runtime pyodide)")
    m.add_argument("--runs", type=int, default=3)
    sh = sub.add_parser("shots", help="a screenshot of every game on the page into DIR")
    sh.add_argument("dir", nargs="?", default=os.path.join(ROOT, "docs", "img"))
    c = sub.add_parser("compare", help="MicroPython and Pyodide side by side")
    c.add_argument("--pyodide", metavar="DIR", required=True)
    c.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    if args.cmd == "build":
        build(args.dir)
        return 0
    if args.cmd == "serve":
        return _serve(args)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    if args.cmd == "measure":
        measure(args.runtime, args.runs, args.pyodide)
        return 0
    if args.cmd == "shots":
        shots(args.dir)
        return 0
    for runtime in ("micropython", "pyodide"):
        measure(runtime, args.runs, args.pyodide)
    return 0


if __name__ == "__main__":
    sys.exit(main())
