"""The PC window's NVM is a file (hardware/pc_store.py): saves survive a restart of
``python code.py``; the headless demo never touches it."""

import os

from zilch_helpers import pace

from hardware import pc_store
from hardware.sim import SimTable
from referee.store import Store


def test_a_new_file_reads_as_erased_flash_and_writes_go_through(tmp_path):
    path = str(tmp_path / "nvm.bin")
    nvm = pc_store.FileNvm(path)
    assert len(nvm) == 4096 and bytes(nvm[0:8]) == b"\xff" * 8 and not os.path.exists(path)
    Store(nvm).save({"game": "zilch", "players": 2})
    assert os.path.getsize(path) == 4096 and not os.path.exists(path + ".tmp")
    assert Store(pc_store.FileNvm(path)).load() == {"game": "zilch", "players": 2}  # next run


def test_the_size_is_fixed(tmp_path):
    nvm = pc_store.FileNvm(str(tmp_path / "nvm.bin"))
    try:
        nvm[0:4] = b"ab"
    except ValueError:
        pass
    else:
        raise AssertionError("a shorter slice write was accepted")
    assert len(nvm) == 4096 and bytes(nvm[0:4]) == b"\xff" * 4


def test_a_match_in_the_window_is_offered_after_a_restart(tmp_path):
    path = str(tmp_path / "nvm.bin")
    t = SimTable(players=2, seed=3, store=pc_store.FileNvm(path))
    g = t.start("zilch", bots=(1, 2), seed=5)
    pace(g, think_ms=6, roll_ms=4, show_ms=6)
    t.advance(300)
    assert not g.over
    t2 = SimTable(players=2, seed=3, store=pc_store.FileNvm(path))  # python code.py again
    t2.advance(20)
    assert "Resume Zilch (2p)" in t2.screen_text()


def test_the_demo_does_not_touch_the_save_file(tmp_path, monkeypatch):
    from hardware import pc_demo

    path = tmp_path / "nvm.bin"
    monkeypatch.setattr(pc_store, "DEFAULT_PATH", str(path))
    monkeypatch.setenv("HOME", str(tmp_path))
    assert pc_demo.run(str(tmp_path / "out"), {"REFEREE_PLAYERS": "2"}, only="zilch") == 0
    assert not path.exists() and not [p for p in os.listdir(tmp_path) if "nvm" in p]
