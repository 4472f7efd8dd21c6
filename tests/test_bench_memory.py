"""The memory benchmark's model (tools/bench_memory.py, tools/pico_fakes).

Pure parts on CPython; the fakes' allocation model in the MicroPython VM (skipped
without node, like the other VM checks): every fake C object keeps in the VM heap
what device-memory.md measured on a Pico. Figures, not timings.
"""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import bench_memory  # noqa: E402
import compat  # noqa: E402


def _load(name):
    # tools/pico_fakes holds fakes named like CircuitPython's modules (busio, displayio,
    # ...): never put that folder on this process's path, load one pure file alone
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, os.path.join(ROOT, "tools", "pico_fakes", name + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_cost = _load("_cost")
_person = _load("_person")


def test_board_sizes_follow_the_table():
    # device-memory.md, "What things cost on the board"
    assert _cost.bitmap_bytes(320, 240, 2) == 9664
    assert _cost.bitmap_bytes(24, 24, 16) == 336
    assert _cost.bitmap_bytes(144, 24, 8) == 1776
    assert _cost.palette_bytes(2) == 48
    assert _cost.palette_bytes(16) == 304
    assert [_cost.tilegrid_bytes(n) for n in (1, 6, 42)] == [96, 112, 144]
    assert _cost.keys_bytes(8, 64) == 656
    assert _cost.pixelbuf_bytes(84, 3, 1.0) + _cost.DIGITALINOUT + 48 == 384
    assert (_cost.GROUP, _cost.SHAPE, _cost.ST7789) == (80, 96, 8224)


def test_pure_parts():
    assert bench_memory.module_of("lib/referee/app.py") == "referee.app"
    assert bench_memory.module_of("hardware/__init__.py") == "hardware"
    assert bench_memory.module_of("lib/adafruit_display_text/label.py") == "adafruit_display_text.label"
    files, settings = bench_memory.device_files(ROOT)
    assert settings.endswith("settings.toml")
    assert "lib/referee/app.py" in files and "hardware/device.py" in files
    assert not [d for d in files if "adafruit_pixelbuf" in d or d in ("code.py", "boot.py")]
    steps = bench_memory.import_steps({"referee.app", "hardware.device", "referee.text"})
    rows = [r for r, _code, _b in steps]
    assert rows == ["C modules", "referee.app", "hardware.device"]  # rows of absent modules skipped
    res = {"free": {"code": 100, "built": -5, "peak": -9}}
    assert bench_memory.stage_verdict(res) == "built"
    res["free"].update(built=5, peak=4)
    assert bench_memory.stage_verdict(res) is None


def test_code_factor_is_the_table_rows_over_the_vm():
    b = bench_memory
    board = sum(bb for row, _m, bb in b.DEVICE_IMPORTS if row != "C modules")
    assert board == b.BOARD_ROWS == 77552
    # pools aside on both sides: the board's 160-, 320- and 640-entry pools
    # (at ef87b19 the VM counts 424 run-time qstrs at its baseline, 1,110 after the rows)
    assert b.BOARD_ROW_POOLS == b.board_pool_bytes(1110 - 424 + b.BOARD_QSTRS) - b.board_pool_bytes(b.BOARD_QSTRS)
    assert b.BOARD_ROW_POOLS == b.board_pool_bytes(1260) - b.board_pool_bytes(140)
    assert b.CODE_FACTOR == round((b.BOARD_ROWS - b.BOARD_ROW_POOLS) / (b.VM_ROWS - b.VM_ROW_POOLS), 3)


def test_board_qstr_pools_double():
    b = bench_memory
    assert b.board_pool_bytes(0) == 0
    assert b.board_pool_bytes(1) == b.board_pool_bytes(20) == 144  # 24 + 6 x 20, in 16-byte blocks
    assert b.board_pool_bytes(21) == 144 + 272  # the next pool has 40 entries
    one_more = b.board_pool_bytes(1261) - b.board_pool_bytes(1260)
    assert one_more == (24 + 6 * 1280 + 15) // 16 * 16  # the 1,261st qstr costs a 1,280-entry pool


@pytest.fixture(scope="module")
def costs():
    compat.require_vm()
    import importlib.util

    neopixel = importlib.util.find_spec("neopixel").origin
    exprs = {
        "st7789": "_M['busdisplay'].BusDisplay(None, b'', width=320, height=240, rotation=90)",
        "group": "_M['displayio'].Group()",
        "group3": "_M['displayio'].Group(scale=3)",
        "palette2": "_M['displayio'].Palette(2)",
        "palette16": "_M['displayio'].Palette(16)",
        "bitmap": "_M['displayio'].Bitmap(320, 240, 2)",
        "sheet": "_M['displayio'].Bitmap(144, 24, 8)",
        "tile1": "_M['displayio'].TileGrid(_M['terminalio'].FONT.bitmap, pixel_shader=None, tile_width=6,"
                 " tile_height=12)",
        "tiles42": "_M['displayio'].TileGrid(_M['terminalio'].FONT.bitmap, pixel_shader=None, width=6, height=7,"
                   " tile_width=6, tile_height=12)",
        "circle": "_M['vectorio'].Circle(pixel_shader=None, radius=3)",
        "keys": "_M['keypad'].Keys([_M['board'].GP2] * 8, value_when_pressed=False)",
        "neopixel": "__import__('neopixel').NeoPixel(_M['board'].GP16, 84, auto_write=False)",
        "nvm": "_M['microcontroller'].nvm[0:4096]",
        "font": "_M['terminalio'].FONT.bitmap",  # in flash: already there, nothing more
    }
    got = bench_memory.object_costs(list(exprs.values()), {"/lib/neopixel.py": neopixel})
    return {k: got[e] for k, e in exprs.items()}


@pytest.mark.parametrize("name,board", [
    ("st7789", 8224), ("group", 80), ("group3", 80), ("palette2", 48), ("palette16", 304), ("bitmap", 9664),
    ("sheet", 1776), ("tile1", 96), ("tiles42", 144), ("circle", 96), ("keys", 656), ("nvm", 4112),
])
def test_fakes_keep_the_board_size(costs, name, board):
    assert abs(costs[name] - board) <= 0.05 * board, (name, costs[name], board)


def test_neopixel_and_font(costs):
    # its DigitalInOut cannot be a 16-byte Python object: up to 64 B over
    assert 384 <= costs["neopixel"] <= 384 + 64
    assert costs["font"] == 0


def test_tilegrid_text_api():
    compat.require_vm()
    script = (
        "import sys\nsys.path.insert(0, '/fakes')\n"
        "import displayio, terminalio\n"
        "p = displayio.Palette(2)\np.make_transparent(0)\np[1] = 0xFFFFFF\n"
        "g = displayio.TileGrid(terminalio.FONT.bitmap, pixel_shader=p, width=4, height=2, tile_width=6,"
        " tile_height=12)\n"
        "t = terminalio.FONT.get_glyph(ord('A')).tile_index\n"
        "g[1, 1] = t\ng[0] = t + 1\n"
        "grp = displayio.Group(scale=3)\ngrp.append(g)\n"
        "print(g[5], g[0, 0], g[5] == t, p.is_transparent(0), len(grp), grp.scale, grp[0] is g)\n"
    )
    r = compat.run_vm(script, extra_trees=[("/fakes", bench_memory.FAKES_DIR)])
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["33", "34", "True", "True", "1", "3", "True"]


def test_the_person_answers_what_the_self_test_asks():
    assert _person.answer("game", "Press P3") == (3, _person.TAP_MS)
    assert _person.answer("game", "Tap MENU") == (_person.MENU, _person.TAP_MS)
    # the other way through the MENU step, as the screen offers: hold a station
    assert _person.answer("game", "Tap MENU", hold_menu=True) == (1, _person.HOLD_MS)
    assert _person.answer("pause", "") == (1, _person.HOLD_MS)  # "Resume" is chosen: a hold picks it
    assert _person.answer("game", "Ring P2") is None and _person.answer("launcher", "Press P3") is None
    p = _person.Person()
    assert p.look("game", "Press P5", 1000) is None  # reads it first
    assert p.look("game", "Press P5", 1000 + _person.REACT_MS) == (5, 1000 + _person.REACT_MS, _person.TAP_MS)
    assert p.look("game", "Press P5", 1500) is None  # answered; waits before trying again
    again = 1000 + _person.REACT_MS + _person.TAP_MS + _person.RETRY_MS
    assert p.look("game", "Press P5", again) == (5, again, _person.TAP_MS)  # a press the box did not take
    assert p.presses == 2


def test_check_compares_both_readings_and_both_ways():
    b = bench_memory
    # device-memory.md's imports stage and its own rows disagree: both are shown
    assert b.rows_total_free() == b.PICO_FREE - 77552 - 200 == 93208
    stages = {key: board for _l, key, board, _f in b.DEVICE_STAGES}

    def run(peak, waiting=None):
        free = {"code": peak + 9000, "built": peak + 8000, "peak": peak}
        if waiting is not None:
            free["waiting"] = waiting
        return {"free": free}

    first = {"rows": [], "free": {"imports": 93000, "launcher": stages["launcher"]}}
    by_game = {"selftest": run(30000), "reaction": run(20000, stages["reaction"])}
    ok = {label.split(" (")[0]: good for label, _board, _pred, _diff, good in b.check_table(first, by_game)}
    assert ok["all framework imports"] is True  # +1 % on the rows' total, +12 % on the stage figure
    assert ok["launcher shown"] is True and ok["reaction test 7p, before its first result"] is True
    assert ok["self test, peak"] is False  # 30,000 against 40,192: off, and no other way measured
    table = b.check_table(first, by_game, {"selftest": run(41000)})
    assert [good for label, _b, _p, _d, good in table if label.startswith("self test")] == [True]
    table = b.check_table(first, by_game, {"selftest": run(50000)})  # both ways off: off
    assert [good for label, _b, _p, _d, good in table if label.startswith("self test")] == [False]
    first["free"]["imports"] = 70000  # off on both readings
    assert [good for label, _b, _p, _d, good in b.check_table(first, by_game) if "imports" in label] == [False]
    notes = b.check_notes(by_game, first, {"selftest": run(41000)})
    assert any("10,058 B" in n for n in notes) and any("hold a station" in n for n in notes)


def test_waiting_figure_and_qstr_line():
    # the peak before the first result: the result's sample and later ones do not count
    assert bench_memory.waiting_figure(100, [120, 90, 300, 80], ["ready", "armed", "result", "ready"]) == 120
    assert bench_memory.waiting_figure(100, [300], ["result"]) == 100
    line = "qstr pool: n_pool=3, n_qstr=412, n_str_data_bytes=5120, n_total_bytes=9876"
    assert bench_memory.qstr_pool(line) == (412, 9876, 9876 - 5120)


def test_the_person_plays_the_self_test_through_the_wires():
    # the VM run: the person's presses go through the fake wiring into the capture
    # state machine's ring and the box's own decoder; the self test reaches its end
    compat.require_vm()
    tree = bench_memory.ROOT
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        mounts, modules, _version, settings = bench_memory.compile_tree(tree, tmp)
        res = bench_memory.measure((mounts, modules, settings), "selftest", 30)
        # the other way through the MENU step: a station held, no pause menu built
        held = bench_memory.measure((mounts, modules, settings), "selftest", 30, hold=True)
    assert not res["errors"] and not res["app_error"] and not res["device_errors"]
    assert res["game_over"] and res["presses"] >= 8 and res["capture_lost"] == 0
    names = [n for n, _free in res["screens"]]
    assert "buttons" in names and "pause" in names and "done" in names
    assert held["game_over"] and not held["errors"] and not held["app_error"]
    assert "pause" not in [n for n, _free in held["screens"]] and "done" in [n for n, _free in held["screens"]]
