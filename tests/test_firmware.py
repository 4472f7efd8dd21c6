"""The tree on the real firmware: CircuitPython 10.2.1 on an emulated Pico (tools/firmware_check.py).

Runs where the firmware files are on the machine (docs/firmware.md: the firmware, the
RP2040 bootrom, CircuitPython's mpy-cross, the emulator runner); skipped, with the reason,
where they are not (CI has none). It takes minutes: ``pytest -m "not firmware"`` leaves it out.
"""

import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import firmware_check  # noqa: E402

try:
    FILES = firmware_check.find_files()
    MISSING = None
except LookupError as e:
    FILES = None
    MISSING = str(e)


@pytest.mark.firmware
@pytest.mark.skipif(FILES is None, reason="real firmware check skipped: %s" % MISSING)
def test_every_game_boots_and_fits_on_the_real_firmware(tmp_path):
    out = tmp_path / "check"
    # 300 loop passes a game: enough to boot, build and play every game at its largest
    # table (the peak of a match's first minutes); the tool's own default, 1,000 passes,
    # is the figure the docs quote (run it before a stop: docs/firmware.md)
    status = firmware_check.main(["--out", str(out), "--json", str(tmp_path / "rows.json"), "--passes", "300"])
    rows = json.load(open(tmp_path / "rows.json"))["rows"]
    for r in rows:
        assert not r["error"], r
        if r["name"] == "launcher":
            assert r["launcher"] >= firmware_check.LAUNCHER_MIN, r
        else:
            assert r["low"] >= firmware_check.GAME_MIN and r["passes"] >= 1, r
        # the screen at the end of the row: something drawn, not one colour (its size is
        # no test: a result half drawn by the pace, a few words on black, is under 1 KB)
        from PIL import Image

        with Image.open(r["png"]) as im:
            assert len(im.convert("RGB").getcolors(1 << 16) or [0, 0]) > 1, r
    assert [r["name"] for r in rows][1:] == __import__("games").names()
    assert status == 0


def test_the_table_parser_reads_the_probe_lines():
    # the probe's lines as the firmware prints them (this check needs no firmware)
    row = firmware_check.Row("zilch", 7)
    firmware_check.parse("FWC launcher 83168\nFWC launch 812345\nFWC game zilch 7 1000 12345 41440 23456 game 0 "
                         "game_3->4_gc\nFWC hist " + " ".join(["0"] * 20 + ["990", "10"] + ["0"] * 234)
                         + "\nFWC long end pre 0 7 23456\nFWC long pick next 1 3 21000"
                         + "\nFWC alloc 512000 3 61250\nFWC error -\nFWC DONE\n", row)
    assert (row.launcher, row.passes, row.low, row.worst_us, row.over) == (83168, 1000, 41440, 23456, False)
    assert row.longs == [("end", "pre", False, 7, 23456), ("pick", "next", True, 3, 21000)]
    assert (row.alloc, row.gcs, row.gc_us, row.launch_us) == (512000, 3, 61250, 812345)
    assert "| zilch | 7 | 812.3 | 1000 |" in firmware_check.table([row], "abc")
    assert row.what == "game 3->4 gc" and row.percentile_ms(0.5) == 5.25 and row.percentile_ms(0.995) == 5.5
    assert firmware_check.bucket_top_ms(127) == 32.0 and firmware_check.bucket_top_ms(128) == 40.0
    assert row.ok() and row.ok(strict_time=True)  # longest 23.5 ms <= 50, p99 5.5 ms <= 20
    row.worst_us = 60000
    assert row.ok() and not row.ok(strict_time=True)
    row.low = 30000
    assert not row.ok()  # under 32 KiB


def test_a_memory_error_on_the_board_is_the_row_s_error():
    row = firmware_check.Row("zilch", 7)
    firmware_check.parse("FWC launcher 83168\nTraceback (most recent call last):\n  File \"code.py\", "
                         "line 3, in <module>\nMemoryError: memory allocation failed, allocating 1024 bytes\n", row)
    assert row.error.startswith("MemoryError") and not row.ok()


def test_press_to_ring_is_read_from_the_runners_neopixel_log():
    # (no firmware needed) seat 1's ring at rest is its colour dimmed; a frame at full
    # colour after a race's press (100 ms after a reveal) is the winner's ring lit
    rest = ["#1e0000"] * 12 + ["#000000"] * 72
    lit = ["#ff0000"] * 12 + ["#000000"] * 72
    log = {"rises": [{"pin": 22, "at_ns": 1000000000}],
           "presses": [{"pin": 2, "down_ns": 1100000000, "up_ns": 1180000000},
                       {"pin": 2, "down_ns": 2600000000, "up_ns": 2680000000}],  # a tap to go on: not a race's
           "frames": [{"t0_ns": 900000000, "t1_ns": 902500000, "px": rest},
                      {"t0_ns": 1101000000, "t1_ns": 1103500000, "px": rest},
                      {"t0_ns": 1104000000, "t1_ns": 1106500000, "px": lit}]}
    assert firmware_check.latencies(log, 100000000) == [6500000]
    log["frames"][-1]["t1_ns"] += 2000000000  # not lit within 1 s of the press
    assert firmware_check.latencies(log, 100000000) == [None]
    # presses spread over a few ms after the reveal (firmware_check's --latency):
    # one 3 ms later still is a race's press, the tap 1.5 s later still is not
    log["frames"][-1]["t1_ns"] -= 2000000000 - 3000000
    log["presses"][0]["down_ns"] += 3000000
    assert firmware_check.latencies(log, 100000000) == []  # outside a spread of 0
    assert firmware_check.latencies(log, 100000000, 3330000) == [6500000]
