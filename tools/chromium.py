"""Headless Chromium driven over the DevTools protocol, with nothing but the standard library.

Chromium is started with ``--remote-debugging-pipe``: it reads protocol commands
(JSON, each ended by a NUL byte) on its file descriptor 3 and answers on 4, so
no WebSocket client and no driver package are needed -- only a Chromium
(Debian: ``apt-get install chromium``). Used by tests/test_browser.py and
``python tools/web.py measure``.

    with Chromium() as b:
        page = b.open("http://127.0.0.1:8000/")
        page.wait("globalThis.referee && referee.firstScreen !== null")
        page.eval("referee.status()")
"""

import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find():
    """The Chromium executable ($CHROMIUM, else the first of CANDIDATES on PATH), or None."""
    exe = os.environ.get("CHROMIUM")
    if exe:
        return exe if shutil.which(exe) else None
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


class ProtocolError(RuntimeError):
    pass


class Chromium:
    def __init__(self, exe=None, width=960, height=720, timeout=60):
        self.exe = exe or find()
        if self.exe is None:
            raise FileNotFoundError("no Chromium found (apt-get install chromium, or set CHROMIUM)")
        self.timeout = timeout
        self.size = (width, height)
        self._profile = tempfile.mkdtemp(prefix="referee-chromium-")
        cmd_r, self._cmd_w = os.pipe()
        self._out_r, out_w = os.pipe()

        def fds():  # in the child: the pipes become its fds 3 and 4
            a, b = os.dup(cmd_r), os.dup(out_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self._log = open(os.path.join(self._profile, "chromium.log"), "wb")
        self.proc = subprocess.Popen(
            [self.exe, "--headless", "--no-sandbox", "--remote-debugging-pipe", "--user-data-dir=" + self._profile,
             "--no-first-run", "--no-default-browser-check", "--disable-gpu", "--disable-dev-shm-usage",
             "--disable-extensions", "--mute-audio", "--autoplay-policy=no-user-gesture-required",
             "--window-size=%d,%d" % (width, height), "about:blank"],
            stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log, close_fds=False, preexec_fn=fds)
        os.close(cmd_r)
        os.close(out_w)
        self._buf = b""
        self._id = 0
        self.events = []  # (method, params, sessionId) of every event received

    # --- the protocol --------------------------------------------------------
    def send(self, method, params=None, session=None, timeout=None):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._cmd_w, json.dumps(msg).encode() + b"\0")
        reply = self._read(lambda m: m.get("id") == self._id, timeout)
        if "error" in reply:
            raise ProtocolError(method + ": " + json.dumps(reply["error"]))
        return reply.get("result", {})

    def _read(self, want, timeout=None):
        end = time.monotonic() + (timeout or self.timeout)
        while True:
            while b"\0" in self._buf:
                raw, self._buf = self._buf.split(b"\0", 1)
                msg = json.loads(raw)
                if "method" in msg and "id" not in msg:
                    self.events.append((msg["method"], msg.get("params", {}), msg.get("sessionId")))
                if want(msg):
                    return msg
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("Chromium did not answer in time")
            ready, _, _ = select.select([self._out_r], [], [], left)
            if ready:
                chunk = os.read(self._out_r, 1 << 20)
                if not chunk:
                    raise ProtocolError("Chromium closed the pipe (exit %s): see %s" % (self.proc.poll(), self._log.name))
                self._buf += chunk

    def wait_event(self, method, session=None, timeout=None):
        for i, (m, params, s) in enumerate(self.events):
            if m == method and (session is None or s == session):
                del self.events[i]
                return params
        msg = self._read(lambda m: m.get("method") == method and (session is None or m.get("sessionId") == session), timeout)
        self.events.remove((msg["method"], msg.get("params", {}), msg.get("sessionId")))
        return msg.get("params", {})

    def open(self, url):
        """A new tab at ``url`` (loaded), as a ``Page``."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session, target)
        page.send("Page.enable")
        page.send("Runtime.enable")
        page.send("Emulation.setDeviceMetricsOverride",
                  {"width": self.size[0], "height": self.size[1], "deviceScaleFactor": 1, "mobile": False})
        page.goto(url)
        return page

    def close(self):
        if self.proc.poll() is None:
            try:
                self.send("Browser.close", timeout=10)
            except (OSError, TimeoutError, ProtocolError):
                pass
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for fd in (self._cmd_w, self._out_r):
            try:
                os.close(fd)
            except OSError:
                pass
        self._log.close()
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Page:
    def __init__(self, browser, session, target):
        self.browser = browser
        self.session = session
        self.target = target

    def close(self):
        self.browser.send("Target.closeTarget", {"targetId": self.target})

    def send(self, method, params=None, timeout=None):
        return self.browser.send(method, params, self.session, timeout)

    def goto(self, url):
        self.send("Page.navigate", {"url": url})
        self.browser.wait_event("Page.loadEventFired", self.session)

    def reload(self, ignore_cache=False):
        """Reload and wait for the load event (``ignore_cache``: a hard reload, which
        also goes past a service worker)."""
        self.send("Page.reload", {"ignoreCache": ignore_cache})
        self.browser.wait_event("Page.loadEventFired", self.session)

    def eval(self, expression, timeout=None):
        """The value of a JavaScript expression (promises awaited), as JSON gives it."""
        r = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True},
                      timeout)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise ProtocolError("JavaScript: " + d.get("exception", {}).get("description", d.get("text", "")))
        return r.get("result", {}).get("value")

    def wait(self, expression, timeout=30, poll=0.05):
        """Poll until ``expression`` is truthy; returns its value. TimeoutError otherwise."""
        end = time.monotonic() + timeout
        while True:
            value = self.eval(expression)
            if value:
                return value
            if time.monotonic() > end:
                raise TimeoutError("still false after %ss: %s" % (timeout, expression))
            time.sleep(poll)

    def key(self, code, down):
        """Key ``code`` ("Digit3", "KeyM") down or up, as a keyboard sends it."""
        key = code[-1].lower() if code.startswith(("Digit", "Key")) else code
        self.send("Input.dispatchKeyEvent", {"type": "keyDown" if down else "keyUp", "code": code, "key": key,
                                             "windowsVirtualKeyCode": ord(key.upper())})

    def touch(self, kind, points):
        """One touch event: ``kind`` "touchStart" / "touchEnd" / "touchMove" with
        ``points`` [(x, y, id), ...] in CSS pixels (all in the one event)."""
        pts = [{"x": x, "y": y, "id": i, "radiusX": 4, "radiusY": 4, "force": 1} for x, y, i in points]
        self.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": pts})

    def screenshot(self, path, clip=None):
        params = {"format": "png"}
        if clip:
            params["clip"] = dict(clip, scale=1)
        data = self.send("Page.captureScreenshot", params)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        return path


def main(argv=None):
    """``python tools/chromium.py URL PNG``: a screenshot of a page, to try the driver."""
    import argparse

    ap = argparse.ArgumentParser(description="Headless Chromium over the DevTools pipe: a page's screenshot.")
    ap.add_argument("url", help="the page, e.g. http://127.0.0.1:8000/ (python tools/web.py serve)")
    ap.add_argument("png", help="where the screenshot goes")
    a = ap.parse_args(argv)
    if find() is None:
        print("chromium not found (Debian: apt-get install chromium)")
        return 3
    with Chromium() as b:
        page = b.open(a.url)
        time.sleep(2)
        page.screenshot(a.png)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
