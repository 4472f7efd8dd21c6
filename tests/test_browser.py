"""The box in a browser (web/, docs/browser.md), in a real headless Chromium.

The page is built by tools/web.py into a temporary folder, served on 127.0.0.1 and
driven over the DevTools protocol (tools/chromium.py): it loads and draws the
launcher pixel for pixel as the window does, every game starts with bots, a
reaction match and a turn game play to their end, keys choose a game and race,
two presses in one touch event tie, a reload offers Resume, the settings form
reaches the box, and the page starts offline once loaded.

Skipped when no Chromium is installed (Debian: ``apt-get install chromium``) or
when Node.js is missing (the page's MicroPython is the npm package of tests/mpvm);
with ``REFEREE_BROWSER_TESTS=required`` (CI: .ci/run installs Chromium) they fail
instead, so a broken install cannot pass unseen.
"""

import base64
import io
import json
import os
import re
import shutil
import sys
import time

import pytest

import games

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import chromium  # noqa: E402  (tools/chromium.py)

import web  # noqa: E402  (tools/web.py)

FIRST_SCREEN = "globalThis.referee && (referee.firstScreen !== null || !!referee.error)"


def missing(why):
    if os.environ.get("REFEREE_BROWSER_TESTS") == "required":
        pytest.fail(why + " (REFEREE_BROWSER_TESTS=required)", pytrace=False)
    pytest.skip(why)


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory):
    """The page, built by tools/web.py into a temporary folder."""
    if not os.path.isfile(os.path.join(web.MP_PACKAGE, "micropython.wasm")) and shutil.which("npm") is None:
        missing("no Node.js/npm: the page's MicroPython is the npm package of tests/mpvm")
    out = str(tmp_path_factory.mktemp("web"))
    web.build(out, log=lambda s: None)
    return out


@pytest.fixture(scope="module")
def site(site_dir):
    srv, url = web.server(site_dir)
    yield url
    srv.shutdown()


@pytest.fixture(scope="module")
def browser():
    if chromium.find() is None:
        missing("no Chromium: apt-get install chromium (or set CHROMIUM) to run the browser tests")
    with chromium.Chromium() as b:
        yield b


def loaded(page):
    page.wait(FIRST_SCREEN, timeout=60)
    assert page.eval("referee.error || ''") == ""
    return page.eval("referee.status()")


@pytest.fixture
def page(browser, site):
    """A fresh tab on the page, with nothing saved (no settings, no match)."""
    p = browser.open(site)
    p.wait(FIRST_SCREEN, timeout=60)
    p.eval("localStorage.clear()")
    p.reload()
    loaded(p)
    yield p
    p.close()


def status(page):
    return page.eval("referee.status()")


def advance_until_over(page, max_s):
    """Play on in box time, 5 s a call, until the match is over."""
    for _ in range(max_s // 5):
        st = status(page)
        if st["over"] or st["error"]:
            return st
        page.eval("referee.advance(5000)")
    return status(page)


def hold(page, code, ms=800):
    page.key(code, True)
    time.sleep(ms / 1000)
    page.key(code, False)
    time.sleep(0.35)  # the gesture is told after its release


def screen_pixels(page):
    import pygame

    png = page.eval("referee.screenPng()")
    return pygame.image.load(io.BytesIO(base64.b64decode(png.split(",", 1)[1])))


def window_pixels(table):
    from pc import display as pc_display

    table.flush_screen()  # the simulator draws a pass's screen changes when it is looked at
    return pc_display.render(table.box.root)


def differences(a, b):
    """How many of the 320x240 pixels of two pygame surfaces differ."""
    import numpy
    import pygame

    assert a.get_size() == b.get_size() == (320, 240)
    pa, pb = (numpy.frombuffer(pygame.image.tobytes(s, "RGB"), numpy.uint8).reshape(-1, 3) for s in (a, b))
    return int((pa != pb).any(axis=1).sum())


def browser_table(players=4):
    """A simulated box that says what the browser's box says about its capture."""
    from hardware.sim import SimTable
    from referee.core import MS

    t = SimTable(players=players)
    t.box.capture_name = "browser"
    t.box.precision_ns = MS
    t.app.back_to_launcher()
    return t


def test_the_page_carries_the_game_files_unchanged(site_dir):
    # the page runs the tree's own lib/referee and games: no second copy of a rule
    with open(os.path.join(site_dir, "py.json"), encoding="utf-8") as f:
        files = json.load(f)
    for vm_dir, host in (("/lib/referee/", "lib/referee"), ("/games/", "games")):
        names = sorted(n for n in os.listdir(os.path.join(ROOT, host)) if n.endswith(".py"))
        assert sorted(p[len(vm_dir):] for p in files if p.startswith(vm_dir)) == names
        for n in names:
            with open(os.path.join(ROOT, host, n), encoding="utf-8") as f:
                assert files[vm_dir + n] == f.read(), host + "/" + n


def test_the_page_draws_the_launcher_pixel_for_pixel_as_the_window(page):
    st = status(page)
    assert st["mode"] == "launcher" and st["lit"]
    assert "Choose a game" in st["text"]
    assert "ms precision (browser)" in st["text"]  # honest timing, said before any game
    assert differences(screen_pixels(page), window_pixels(browser_table())) == 0


@pytest.mark.parametrize("name", ["zilch", "zap_city", "flyer"])
def test_a_turn_games_first_screen_is_the_windows(page, name):
    # the same seed and seats: the same dice, drawn the same, pixel for pixel
    before = page.eval("referee.frames")
    page.eval("referee.launch(%s, 3, [], 12345)" % json.dumps(name))
    # two frames after the launch (Zilch draws a turn's menu in the pass after its screen)
    page.wait("referee.frames > %d && referee.status().mode === 'game'" % (before + 2))
    time.sleep(0.2)  # the next frame draws it
    t = browser_table(3)
    t.start(name, seed=12345)
    t.advance(2)
    assert differences(screen_pixels(page), window_pixels(t)) == 0


def test_every_game_starts_with_bots(page, tmp_path):
    for name in games.names():
        module = games.load(name)
        players = max(module.MIN_PLAYERS, min(4, module.MAX_PLAYERS))
        bots = list(range(1, players + 1)) if getattr(module, "BOTS_CAN_PLAY", True) else []
        page.eval("referee.launch(%s, %d, %s)" % (json.dumps(name), players, json.dumps(bots)))
        page.eval("referee.advance(3000)")
        time.sleep(0.1)
        st = status(page)
        assert st["error"] is None, (name, st["error"])
        assert st["mode"] == "game" and st["game"] == name and st["players"] == players, (name, st)
        page.screenshot(str(tmp_path / (name + ".png")))
    games.unload()


def test_a_reaction_match_with_bots_plays_to_its_end(page):
    page.eval("referee.launch('reaction', 3, [1, 2, 3])")
    st = advance_until_over(page, 300)
    assert st["over"] and st["error"] is None and st["winners"], st
    assert re.search(r"best \d+ ms", st["text"]) and "." not in st["text"], st  # whole ms: the browser's precision


def test_a_turn_game_with_bots_plays_to_its_end(page):
    page.eval("referee.launch('flyer', 4, [1, 2, 3, 4])")
    st = advance_until_over(page, 600)
    assert st["over"] and st["error"] is None and st["winners"], st
    assert page.eval("referee.tones.length") > 0  # the piezo's cues went to Web Audio


def test_keys_choose_a_game_and_race_on_event_times(page):
    page.eval("localStorage.setItem('referee-box-settings', JSON.stringify({REFEREE_PLAYERS: '2'}))")
    page.reload()
    loaded(page)
    for _ in range(3):  # the reaction test, 2 players, Start!
        hold(page, "Digit1")
    st = status(page)
    assert st["mode"] == "game" and st["game"] == "reaction" and st["players"] == 2
    page.wait("referee.status().text.includes('GO!')", timeout=20)
    page.key("Digit2", True)
    time.sleep(0.05)
    page.key("Digit1", True)
    time.sleep(0.1)
    page.key("Digit2", False)
    page.key("Digit1", False)
    st = page.wait("(s => s.text.includes('first by') && s)(referee.status())", timeout=10)
    assert "P2 first by" in st["text"] and " ms" in st["text"]
    assert ".0" not in st["text"]  # whole ms: the browser's precision


def test_two_presses_in_one_touch_event_are_a_tie(page):
    page.eval("referee.launch('reaction', 2, [])")
    page.wait("referee.status().text.includes('GO!')", timeout=20)
    # one touchstart carrying both fingers (as a tablet reports two seats landing in
    # the same instant): both presses have that event's time
    page.eval("""(() => {
        const canvas = document.getElementById('table');
        const at = (z, id) => new Touch({identifier: id, target: canvas,
            clientX: z.x + z.w / 2, clientY: z.y + z.h / 2});
        const zs = referee.zones();
        const both = [at(zs.find(z => z.seat === 1), 11), at(zs.find(z => z.seat === 2), 12)];
        const ev = (type, changed, now) => new TouchEvent(type, {changedTouches: changed, touches: now,
            targetTouches: now, bubbles: true, cancelable: true});
        canvas.dispatchEvent(ev('touchstart', both, both));
        setTimeout(() => canvas.dispatchEvent(ev('touchend', both, [])), 80);
    })()""")
    st = page.wait("(s => /tie|first by/.test(s.text) && s)(referee.status())", timeout=10)
    assert "P1 P2 tie" in st["text"]


def test_touch_zones_are_where_the_seats_are(page):
    # real touches through the browser's input pipeline: seat 2's zone, then seat 1's
    page.eval("referee.launch('reaction', 2, [])")
    page.wait("referee.status().text.includes('GO!')", timeout=20)
    zones = {z["seat"]: z for z in page.eval("referee.zones()")}
    assert set(zones) == {1, 2}

    def centre(z, i):
        return (z["x"] + z["w"] / 2, z["y"] + z["h"] / 2, i)

    page.touch("touchStart", [centre(zones[2], 1)])
    time.sleep(0.03)
    page.touch("touchStart", [centre(zones[2], 1), centre(zones[1], 2)])
    page.touch("touchEnd", [])
    st = page.wait("(s => /tie|first by/.test(s.text) && s)(referee.status())", timeout=10)
    assert "P2 first by" in st["text"]


def test_a_reload_offers_resume(page):
    page.eval("referee.launch('zilch', 2, [1, 2])")
    saved = "(localStorage.getItem('referee-box-nvm') || '').length === 8192"  # 4 KiB, in hex
    for _ in range(20):  # on to the first save (a turn)
        if page.eval(saved):
            break
        page.eval("referee.advance(500)")
    assert page.eval(saved)
    page.reload()
    st = loaded(page)
    assert st["mode"] == "launcher"
    assert "Resume Zilch (2p)" in st["text"]
    hold(page, "Digit1")  # the first item: resume
    st = status(page)
    assert st["mode"] == "game" and st["game"] == "zilch" and st["error"] is None


def test_the_settings_form_restarts_the_box_with_its_values(page):
    page.eval("document.getElementById('open-settings').click()")
    assert page.eval("document.getElementById('settings').open")
    names = page.eval("[...document.querySelectorAll('#fields [name]')].map(e => e.name)")
    assert "REFEREE_PLAYERS" in names and "REFEREE_TIE_WINDOW_MS" in names and len(names) >= 14
    page.eval("""(() => {
        const f = document.getElementById('settings-form');
        f.elements.REFEREE_BOTS.value = '9';
        f.elements.REFEREE_PLAYERS.value = '3';
        document.getElementById('settings').close('apply');
    })()""")
    page.wait("referee.status().mode === 'notice'")
    st = status(page)
    assert "REFEREE_BOTS" in st["text"].replace("\n", "")  # the box's own message, on its screen
    assert json.loads(page.eval("localStorage.getItem('referee-box-settings')"))["REFEREE_PLAYERS"] == "3"


def test_the_page_starts_offline_once_loaded(page):
    page.wait("navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready.then(() => true)",
              timeout=20)
    page.wait("caches.keys().then(k => Promise.all(k.map(n => caches.open(n).then(c => c.keys()))))"
              ".then(l => l.flat().length >= 6)", timeout=20)
    page.send("Network.enable")
    page.send("Network.emulateNetworkConditions",
              {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        page.reload()
        st = loaded(page)
        assert st["mode"] == "launcher"
    finally:
        page.send("Network.emulateNetworkConditions",
                  {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
