"""referee.store: two CRC-checked slots over a small non-volatile byte store.

Every bad store (empty, erased, zeroed, garbage, torn write, flipped byte) loads as
None or as the older good save, never raises; a save that does not fit is refused
without touching either slot. The same module runs under the MicroPython VM.
"""

import json
import struct
import zlib

import compat
import pytest

from referee import store
from referee.store import Store

MATCH = {"game": "zilch", "players": 4, "bots": [2, 3], "seed": 2 ** 100 + 7,
         "options": {"variant": "5000"}, "state": {"totals": [0, 350, 0, 1200, 50], "queue": []}}


def flash(size=4096):
    """The strict fake of microcontroller.nvm: the Pico's flash sector, with power cuts."""
    import fakes

    with fakes.machine():
        import microcontroller

        return microcontroller, microcontroller.ByteArray(size)


def clone(mc, nvm):
    c = mc.ByteArray(len(nvm))
    c._data[:] = nvm._data
    return c


def heads(mem):
    """(address, seq, length) of every record header with our magic and format."""
    out = []
    for a in range(0, len(mem), store.PAGE):
        magic, fmt, _, seq, n, _ = struct.unpack(store._FMT, bytes(mem[a:a + store.HEAD]))
        if magic == b"RB" and fmt == store.FORMAT:
            out.append((a, seq, n))
    return out


def match(i, pad=0):
    return dict(MATCH, seed=i, state={"totals": [i] * 5, "pad": "p" * pad})


def test_crc_is_zlibs_crc32_with_and_without_binascii(monkeypatch):
    samples = [b"", b"a", b"123456789", bytes(range(256)), json.dumps(MATCH).encode()]
    for data in samples:
        assert store.crc(data) == zlib.crc32(data)
        assert store.crc(data[7:], store.crc(data[:7])) == zlib.crc32(data)  # in slices
    monkeypatch.setattr(store, "crc32", None)  # a build without binascii.crc32: the loop
    for data in samples:
        assert store.crc(data) == zlib.crc32(data)
        assert store.crc(data[7:], store.crc(data[:7])) == zlib.crc32(data)
    assert store.crc(b"123456789") == 0xCBF43926  # the CRC-32 check value


def test_the_record_layout_is_as_documented():
    mem = bytearray(b"\xff" * 1024)
    Store(mem).save({"a": 1, "b": [2, 3]})
    payload = b'{"a":1,"b":[2,3]}'  # compact JSON
    head = struct.pack("<2sBBIH", b"RB", 2, 0, 1, len(payload))
    assert bytes(mem[:14 + len(payload)]) == head + struct.pack("<I", zlib.crc32(head + payload)) + payload
    assert bytes(mem[14 + len(payload):]) == b"\xff" * (1024 - 14 - len(payload))


def test_saves_append_on_page_boundaries_each_one_write_of_programs_only():
    mc, nvm = flash()
    s = Store(nvm)
    assert s.load() is None  # a new chip's NVM is erased (0xFF)
    for i in range(1, 5):  # 4 pages each: the sector holds 4 before an erase
        assert s.save(match(i, 800))
        assert Store(nvm).load() == match(i, 800)  # a fresh Store (after a reboot) reads it
        assert nvm.writes == i and nvm.erases == 0 and nvm.programs == 4 * i
    assert [(a, q) for a, q, _ in heads(nvm)] == [(0, 1), (1024, 2), (2048, 3), (3072, 4)]


def test_when_the_sector_is_full_the_save_erases_and_is_programmed_first():
    mc, nvm = flash()
    s = Store(nvm)
    for i in range(1, 5):
        s.save(match(i, 800))
    s.save(match(5, 800))  # no erased run left: one write of 2 KiB from 0
    assert nvm.writes == 5 and nvm.erases == 1 and nvm.programs == 16 + 16
    assert heads(nvm)[0][:2] == (0, 5) and s.load() == match(5, 800)
    assert bytes(nvm[1024:2048]) == b"\xff" * 1024  # the first half is free again...
    assert [q for a, q, _ in heads(nvm) if a >= 2048] == [3, 4]  # ...the second keeps older saves
    s.save(match(6, 800))  # into the erased pages: no erase
    assert nvm.erases == 1 and heads(nvm)[1][:2] == (1024, 6) and s.load() == match(6, 800)
    s.save(match(7, 800))
    assert nvm.erases == 2 and heads(nvm)[0][:2] == (0, 7) and s.load() == match(7, 800)


@pytest.mark.parametrize("pad", [0, 200, 700, 900, 1900])
def test_a_cut_at_any_step_of_any_write_loses_at_most_the_save_in_progress_outside_the_erase(pad):
    """Every step of every write (the erase, each page program), cut before it and
    halfway through it: the load is the save being written or the one before. Only
    a cut in the erase or before the new record's pages are all programmed loses
    more, and then everything (None), never an older or a wrong save."""
    mc, nvm = flash()
    saved = [None]
    erasing = 0
    for i in range(1, 24):
        d = None if i == 8 else match(i, pad)  # a clear in the middle
        before = clone(mc, nvm)
        s0, e0 = nvm.steps, nvm.erases
        Store(nvm).save(d)
        steps = nvm.steps - s0
        pages = store._pages(len(json.dumps(d, separators=(",", ":"))) if d else 0)
        lost = set()
        for k in range(steps):
            for partial in (None, 1, 2):
                mem = clone(mc, before)
                mem.cut(k, partial)
                with pytest.raises(mc.PowerCut):
                    Store(mem, log=lambda m: None).save(d)
                got = Store(mem, log=lambda m: None).load()
                if got == d or got == saved[-1]:
                    continue
                assert got is None, (i, k, partial, got)
                lost.add(k)
        if nvm.erases > e0 and saved[-1] is not None and d is not None:  # the window: the erase (cut halfway), the record's pages
            erasing += 1
            assert lost == set(range(pages + 1)), (i, sorted(lost))
        else:
            assert lost == set(), (i, sorted(lost))
        saved.append(d)
        assert Store(nvm).load() == d
    assert erasing >= (1 if pad == 0 else 2)


def test_a_flipped_byte_anywhere_loads_the_newest_or_else_the_older():
    mem = bytearray(b"\xff" * 2048)
    s = Store(mem)
    s.save(match(1))
    s.save(match(2))
    (a1, _, n1), (a2, _, n2) = heads(mem)
    assert (a1, a2) == (0, 256)
    good = bytes(mem)
    for i in range(a2 + 256 + 16):
        for v in (0x01, 0x80, 0xFF, 0x5A):
            mem[:] = good
            mem[i] ^= v
            got = Store(mem, lambda m: None).load()
            assert got == (match(1) if a2 <= i < a2 + 14 + n2 else match(2)), (i, v)
            mem[:] = good
            mem[i] = v  # set, not flipped
            got = Store(mem, lambda m: None).load()
            assert got in (match(1), match(2)), (i, v)


def test_a_save_truncated_at_every_length_loads_the_older_one():
    mem = bytearray(b"\xff" * 2048)
    s = Store(mem)
    s.save(match(1))
    a = len(bytes(mem).rstrip(b"\xff"))
    a = (a + 255) // 256 * 256
    good = bytes(mem)
    s.save(match(2))
    rec = bytes(mem[a:a + 256 * 2]).rstrip(b"\xff")
    for n in range(len(rec)):
        mem[:] = good
        mem[a:a + n] = rec[:n]
        assert Store(mem).load() == match(1), n
        mem[a + n:a + len(rec)] = b"\x00" * (len(rec) - n)  # the rest zeroed instead of erased
        assert Store(mem).load() == match(1), n


@pytest.mark.parametrize("fill", [0x00, 0xFF, 0x52])
def test_blank_stores_load_as_none(fill):
    assert Store(bytearray([fill] * 4096)).load() is None
    assert Store(bytearray([fill] * 1024)).load() is None


def test_garbage_never_raises():
    from referee.rng import Rng

    rng = Rng(5)
    for _ in range(200):
        mem = bytearray(rng.next_u32() & 0xFF for _ in range(1024))
        for a in range(0, 1024, 256):
            if rng.randbelow(2):  # half of the pages with our magic and a plausible length
                mem[a:a + 4] = b"RB\x02\x00"
                mem[a + 8:a + 10] = struct.pack("<H", rng.randbelow(1200))
        assert Store(mem, log=lambda m: None).load() is None


def record(payload, seq=1, fmt=2):
    head = struct.pack("<2sBBIH", b"RB", fmt, 0, seq, len(payload))
    return head + struct.pack("<I", zlib.crc32(head + payload)) + payload


def test_a_valid_crc_over_something_that_is_not_a_good_record_is_none():
    bad = [b"[1, 2]", b"not json", b"\xff\xfe", b"", b"null", b"{\"game\": 5}", b"{\"players\": \"4\"}",
           b"{\"state\": []}", b"{\"bots\": 3}", b"{\"seed\": 1.5}", b"{\"options\": null}", b"{\"rng\": {}}",
           b"{\"version\": \"2\"}", b"{\"players\": true}"]
    for payload in bad:
        mem = bytearray(b"\xff" * 1024)
        rec = record(payload)
        mem[0:len(rec)] = rec
        logs = []
        assert Store(mem, logs.append).load() is None, payload
    for payload in bad:  # the newest is bad: the older one is not brought back
        mem = bytearray(b"\xff" * 1024)
        Store(mem).save(MATCH)
        rec = record(payload, seq=2)
        mem[256 * 2:256 * 2 + len(rec)] = rec
        assert Store(mem, lambda m: None).load() is None, payload


def test_a_length_beyond_the_store_is_not_read():
    mem = bytearray(b"\xff" * 1024)
    mem[0:14] = struct.pack("<2sBBIHI", b"RB", 2, 0, 1, 600, 0)  # 600 > 512 - 14
    assert Store(mem).load() is None


def test_a_save_of_another_format_is_refused_logged_and_noted():
    for old in (b"RBs1" + bytes(12) + b"{}",  # the two-slot store of format 1
                record(json.dumps(MATCH).encode(), seq=3, fmt=3)):  # a later one
        mem = bytearray(b"\xff" * 4096)
        mem[0:len(old)] = old
        logs = []
        s = Store(mem, logs.append)
        assert s.load() is None and s.note == store.NOTE == "Saved match from another version: not resumed"
        assert logs and "store format" in logs[0] and "reads 2" in logs[0]
        assert s.save(MATCH)  # a new match's save replaces it
        assert s.load() == MATCH and s.note is None
    assert heads(mem)[0][1] == 4  # newer than the later format's seq 3


def test_a_payload_too_big_is_refused_logged_and_writes_nothing():
    mc, nvm = flash()
    logs = []
    s = Store(nvm, logs.append)
    s.save(match(1))
    s.save(match(2))
    before = bytes(nvm)
    assert s.room == 2048 - 14
    assert s.save(dict(MATCH, state={"blob": "x" * 2100})) is False
    assert bytes(nvm) == before and nvm.writes == 2
    assert logs and "save refused" in logs[0] and "2034" in logs[0]
    assert s.load() == match(2)
    exact = dict(MATCH)
    exact["pad"] = ""
    exact["pad"] = "y" * (s.room - len(json.dumps(exact, separators=(",", ":")).encode()))  # exactly full
    assert s.save(exact) and s.load() == exact
    assert s.save(match(3)) and s.load() == match(3)


def test_clear_forgets_every_save_and_writes_only_when_there_is_something():
    mc, nvm = flash()
    s = Store(nvm)
    s.clear()
    assert nvm.writes == 0  # nothing saved: no flash wear
    s.save(match(1))
    s.save(match(2))
    s.clear()
    assert nvm.writes == 3 and s.load() is None  # no older save comes back
    s.clear()
    assert nvm.writes == 3
    s.save(match(3))
    assert s.load() == match(3)


def test_reads_are_slices_of_at_most_a_page():
    class Spy(bytearray):
        biggest = 0

        def __getitem__(self, index):
            if isinstance(index, slice):
                Spy.biggest = max(Spy.biggest, len(range(*index.indices(len(self)))))
            return bytearray.__getitem__(self, index)

    mem = Spy(b"\xff" * 4096)
    s = Store(mem)
    for i in range(9):
        s.save(match(i, 800))
    Spy.biggest = 0
    assert s.load() == match(8, 800)
    assert Spy.biggest == len(json.dumps(match(8, 800), separators=(",", ":")))  # the payload for json
    Spy.biggest = 0
    Store(mem).save(match(9, 800))
    assert Spy.biggest <= 256


VM_SCRIPT = """
import json
from referee import store
from referee.store import Store

mem = bytearray(b"\\xff" * 4096)
s = Store(mem)
print("empty", s.load())
m = {"game": "zilch", "players": 3, "seed": 2 ** 100 + 7, "bots": [1], "state": {"t": [0, 50, -1], "f": False}}
for seed in (1, 2, 3):
    m["n"] = seed
    s.save(m)
d = Store(mem).load()
print("loaded", d["n"], d["seed"], d["state"]["t"], d["state"]["f"], d["bots"])
print("crc", store.crc(b"123456789"), store.crc(bytes(range(256))))
mem[512 + 20] ^= 1  # the newest record (pages 0, 1, 2: one each)
print("older", Store(mem).load()["n"])
print("big", s.save({"x": "y" * 3000}))
s.clear()
print("cleared", s.load())
for fill in (0, 255):
    print("blank", Store(bytearray([fill] * 1024)).load())
print("crc32 builtin", store.crc32 is not None)
store.crc32 = None  # the pure-Python loop, on this interpreter's ints
print("fallback", store.crc(b"123456789"), store.crc(bytes(range(256))))
"""


def test_the_store_runs_the_same_under_micropython():
    compat.require_vm()
    vm = compat.run_vm(VM_SCRIPT)
    assert vm.returncode == 0, vm.stderr
    py = compat.run_cpython(VM_SCRIPT)
    assert py.returncode == 0, py.stderr
    strip = lambda out: [line for line in out.splitlines() if not line.startswith("crc32 builtin")]
    assert strip(vm.stdout) == strip(py.stdout)
    assert "crc32 builtin False" in vm.stdout  # the loop ran there (no 7 KB frozen binascii)
    assert "loaded 3 1267650600228229401496703205383 [0, 50, -1] False [1]" in vm.stdout
    assert "fallback 3421780262 688229491" in vm.stdout
    assert "crc 3421780262 " in vm.stdout and "older 2" in vm.stdout and "big False" in vm.stdout
    print(vm.stdout)


# --- through the app: the launcher says so ----------------------------------------------


def test_the_launcher_says_a_save_of_another_store_format_is_not_resumed():
    from hardware.sim import SimTable

    t = SimTable(players=2, seed=3)
    old = b"RBs1" + bytes(12) + b'{"game": "zilch", "players": 2}'  # the two-slot store's record
    t.box.store[0:len(old)] = old
    t.reboot()
    t.advance(20)
    text = t.screen_text()
    assert "Saved match from another version: not resumed" in text and "Resume" not in text
    assert any("saved match refused: store format 115, this firmware reads 2" in m for m in t.box.logs)


def test_a_save_of_another_game_version_is_not_resumed(monkeypatch):
    from hardware.sim import SimTable

    t = SimTable(players=2, seed=3)
    g = t.start("zilch", bots=(1, 2), seed=5)
    from zilch_helpers import pace

    pace(g, think_ms=6, roll_ms=4, show_ms=6)
    t.advance(300)
    assert "version" not in t.app.store.load()  # a game without VERSION writes none
    import games

    real_load = games.load

    def updated(name):  # the firmware was updated: every game loaded from now on is VERSION 2
        module = real_load(name)
        monkeypatch.setattr(module.Game, "VERSION", 2)  # undone after the test, module cached or not
        return module

    monkeypatch.setattr(games, "load", updated)
    t.reboot()
    t.advance(20)
    t.hold(1)  # Resume Zilch
    text = t.screen_text()
    assert t.app.mode == "launcher" and "Saved match from another version" in text and "Resume" not in text
    assert any("saved by version None, this is 2" in m for m in t.box.logs)
    g = t.start("zilch", bots=(1, 2), seed=6)  # a save of this version records it, and resumes
    pace(g, think_ms=6, roll_ms=4, show_ms=6)
    t.advance(300)
    assert t.app.store.load()["version"] == 2
    t.reboot()
    t.advance(20)
    t.hold(1)
    assert t.app.mode == "game" and t.game.VERSION == 2
