"""referee.store: two CRC-checked slots over a small non-volatile byte store.

Every bad store (empty, erased, zeroed, garbage, torn write, flipped byte) loads as
None or as the older good save, never raises; a save that does not fit is refused
without touching either slot. The same module runs under the MicroPython VM.
"""

import json
import struct
import zlib

import pytest

import compat
from referee import store
from referee.store import Store

MATCH = {"game": "zilch", "players": 4, "bots": [2, 3], "seed": 2 ** 100 + 7,
         "options": {"variant": "5000"}, "state": {"totals": [0, 350, 0, 1200, 50], "queue": []}}


class Nvm:
    """A store that counts slice writes and can be cut off partway through one
    (a power cut): only the first ``cut_after`` bytes of the next write land."""

    def __init__(self, size=4096, fill=0xFF):
        self.data = bytearray([fill] * size)
        self.writes = []  # (start, length) of each write
        self.cut_after = None

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        return self.data[index]

    def __setitem__(self, index, value):
        start, stop, step = index.indices(len(self.data))
        assert step == 1 and len(value) == stop - start  # what microcontroller.nvm demands
        self.writes.append((start, stop - start))
        if self.cut_after is not None:
            n, self.cut_after = self.cut_after, None
            self.data[start:start + n] = value[:n]
            raise OSError("power cut")
        self.data[index] = value


def slot_of(mem):
    """The slot (0/1) the last write went to."""
    return mem.writes[-1][0] // (len(mem) // 2)


def test_crc_is_zlibs_crc32_with_and_without_binascii(monkeypatch):
    samples = [b"", b"a", b"123456789", bytes(range(256)), json.dumps(MATCH).encode()]
    for data in samples:
        assert store.crc(data) == zlib.crc32(data)
    monkeypatch.setattr(store, "crc32", None)  # a build without binascii.crc32: the loop
    for data in samples:
        assert store.crc(data) == zlib.crc32(data)
    assert store.crc(b"123456789") == 0xCBF43926  # the CRC-32 check value


def test_round_trip_and_each_save_is_one_write_to_the_other_slot():
    mem = Nvm()
    s = Store(mem)
    assert s.load() is None
    assert s.save(MATCH)
    assert Store(mem).load() == MATCH  # a fresh Store (after a reboot) reads it back
    assert len(mem.writes) == 1 and slot_of(mem) == 0
    second = dict(MATCH, seed=2)
    s.save(second)
    assert len(mem.writes) == 2 and slot_of(mem) == 1
    assert s.load() == second
    s.save(MATCH)
    assert slot_of(mem) == 0 and s.load() == MATCH


def test_the_newer_slot_wins_by_sequence_number_not_by_position():
    mem = Nvm()
    s = Store(mem)
    for seed in range(5):  # slot 0 ends up newest (seq 5), slot 1 holds seq 4
        s.save(dict(MATCH, seed=seed))
    assert slot_of(mem) == 0 and s.load()["seed"] == 4
    seqs = [struct.unpack("<4sIII", bytes(mem.data[a:a + 16]))[2] for a in (0, 2048)]
    assert seqs == [5, 4]


@pytest.mark.parametrize("cut", [0, 4, 5, 8, 12, 16, 40, 200])
def test_a_write_cut_off_partway_leaves_the_older_save(cut):
    mem = Nvm()
    s = Store(mem)
    s.save(dict(MATCH, seed=1))
    s.save(dict(MATCH, seed=2))  # slot 1, newest
    s.save(dict(MATCH, seed=3))  # slot 0
    mem.cut_after = cut
    with pytest.raises(OSError):
        s.save(dict(MATCH, seed=4, state={"totals": [9] * 40}))  # to slot 1: torn
    assert Store(mem).load()["seed"] == 3
    Store(mem).save(dict(MATCH, seed=5))  # the next save overwrites the torn slot, not the good one
    assert slot_of(mem) == 1 and Store(mem).load()["seed"] == 5


def test_a_flipped_payload_byte_fails_the_crc_and_the_older_slot_loads():
    mem = Nvm()
    s = Store(mem)
    s.save(dict(MATCH, seed=1))
    s.save(dict(MATCH, seed=2))
    mem.data[2048 + 16 + 10] ^= 0x01  # slot 1 (newest): one bit of its payload
    assert s.load()["seed"] == 1
    mem.data[16 + 3] ^= 0x40  # slot 0 too: nothing left
    assert s.load() is None


@pytest.mark.parametrize("fill", [0x00, 0xFF])
def test_blank_stores_load_as_none(fill):
    assert Store(Nvm(fill=fill)).load() is None
    assert Store(bytearray([fill] * 1024)).load() is None


def test_garbage_never_raises():
    from referee.rng import Rng

    rng = Rng(5)
    for _ in range(200):
        mem = bytearray(rng.next_u32() & 0xFF for _ in range(1024))
        if rng.randbelow(2):  # half of them with our magic and a plausible length
            mem[0:4] = b"RBs1"
            mem[12:16] = struct.pack("<I", rng.randbelow(600))
        assert Store(mem).load() is None


def record(payload, seq=1):
    body = struct.pack("<II", seq, len(payload)) + payload
    return b"RBs1" + struct.pack("<I", zlib.crc32(body)) + body


def test_the_record_layout_is_as_documented():
    mem = bytearray(1024)
    Store(mem).save({"a": 1})
    assert bytes(mem[:16 + 8]) == record(b'{"a": 1}')


def test_valid_crc_over_something_that_is_not_a_dict_is_none():
    for payload in (b"[1, 2]", b"not json", b"\xff\xfe"):
        mem = bytearray(1024)
        rec = record(payload)
        mem[0:len(rec)] = rec
        assert Store(mem).load() is None


def test_a_length_beyond_the_slot_is_not_read():
    mem = bytearray(1024)
    mem[0:16] = struct.pack("<4sIII", b"RBs1", 0, 1, 600)  # 600 > 512 - 16
    assert Store(mem).load() is None


def test_a_payload_too_big_is_refused_logged_and_writes_nothing():
    mem = Nvm()
    logs = []
    s = Store(mem, logs.append)
    s.save(dict(MATCH, seed=1))
    s.save(dict(MATCH, seed=2))
    before = bytes(mem.data)
    assert s.room == 2048 - 16
    assert s.save(dict(MATCH, state={"blob": "x" * 2100})) is False
    assert bytes(mem.data) == before and len(mem.writes) == 2
    assert logs and "save refused" in logs[0] and "2032" in logs[0]
    assert s.load()["seed"] == 2
    exact = dict(MATCH)
    exact["pad"] = ""
    exact["pad"] = "y" * (s.room - len(json.dumps(exact).encode()))  # exactly a full slot
    assert s.save(exact) and s.load() == exact


def test_clear_forgets_both_slots_and_writes_only_when_there_is_something():
    mem = Nvm()
    s = Store(mem)
    s.clear()
    assert mem.writes == []  # nothing saved: no flash wear
    s.save(dict(MATCH, seed=1))
    s.save(dict(MATCH, seed=2))
    s.clear()
    assert len(mem.writes) == 3 and s.load() is None  # the older slot does not come back
    s.clear()
    assert len(mem.writes) == 3
    s.save(dict(MATCH, seed=3))
    assert s.load()["seed"] == 3


def test_the_strict_nvm_fake_accepts_the_writes():
    import fakes

    with fakes.machine():
        import microcontroller

        s = Store(microcontroller.nvm)
        assert s.load() is None  # a new chip's NVM is erased (0xFF)
        s.save(MATCH)
        s.save(dict(MATCH, seed=3))
        assert microcontroller.nvm.writes == 2
        assert Store(microcontroller.nvm).load()["seed"] == 3


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
mem[20] ^= 1
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
