"""The PC window's NVM is a file (pc/store.py): saves survive a restart of
``python code.py``; the headless demo never touches it."""

import os

from notice_helpers import read_notice
from zilch_helpers import pace

from hardware.sim import SimTable
from pc import store as pc_store
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
    from pc import demo as pc_demo

    path = tmp_path / "nvm.bin"
    monkeypatch.setattr(pc_store, "DEFAULT_PATH", str(path))
    monkeypatch.setenv("HOME", str(tmp_path))
    assert pc_demo.run(str(tmp_path / "out"), {"REFEREE_PLAYERS": "2"}, only="zilch") == 0
    assert not path.exists() and not [p for p in os.listdir(tmp_path) if "nvm" in p]


def _window(path, logs):
    from pc import window as pc_window

    t = pc_window.make_table({}, seed=5, save_path=str(path), log=logs.append)
    t.advance(20)
    return t


def _play_a_while(t):
    g = t.start("zilch", bots=(1, 2, 3, 4), seed=5)
    pace(g, think_ms=6, roll_ms=4, show_ms=6)
    t.advance(1500)
    assert not g.over and g.saves > 1


def test_a_file_that_is_no_save_of_the_box_is_said_and_left_alone(tmp_path):
    import hashlib

    path = tmp_path / "big.bin"
    path.write_bytes(os.urandom(10 * 1024 * 1024))  # 10 MB of noise: not "another version"
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    logs = []
    t = _window(path, logs)
    text = read_notice(t)
    assert "is not a save file of the box (10,485,760 bytes)" in text and "another version" not in text
    assert any("not a save file" in m for m in logs)  # and on the console
    _play_a_while(t)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before  # never written over
    assert not os.path.exists(str(path) + ".tmp")


def test_a_save_file_that_cannot_be_written_is_said_and_the_session_still_saves(tmp_path):
    path = tmp_path / "no" / "such" / "dir" / "x"  # python code.py --save /no/such/dir/x
    logs = []
    t = _window(path, logs)
    assert "its folder does not exist" in read_notice(t)
    assert t.app.mode == "launcher"
    _play_a_while(t)  # no error, no pause: the saves stay in memory
    assert t.app.mode == "game" and not any("save failed" in m for m in t.box.logs)
    t.reboot()  # a new App on the same memory (as after an error): the saves are there
    t.advance(20)
    assert "its folder does not exist" in read_notice(t)
    assert "Resume Zilch (4p)" in t.screen_text()
    assert not os.path.exists(tmp_path / "no")
    folder = tmp_path / "a-folder"
    folder.mkdir()
    t = _window(folder, [])
    assert "it is a folder" in read_notice(t)


def test_a_damaged_save_file_is_said_once(tmp_path):
    path = tmp_path / "nvm.bin"
    t = _window(path, [])
    _play_a_while(t)
    data = bytearray(path.read_bytes())
    data[12] ^= 0x01  # one flipped byte of the match's first record
    path.write_bytes(bytes(data))
    t = _window(path, [])
    assert "The saved match is damaged: it cannot be resumed" in read_notice(t)
    assert "Resume" not in t.screen_text()
    t = _window(path, [])  # the next python code.py: said once, not at every start
    assert t.app.mode == "launcher"
