# Match saves in a small non-volatile byte store: microcontroller.nvm (4 KiB) on
# the box, a bytearray in the simulator, a file in the PC window. Anything with
# len(), slice reads and same-length slice writes will do.
#
# On a Pico, nvm is one 4 KiB flash sector (CircuitPython 10,
# ports/raspberrypi/common-hal/nvm/ByteArray.c): a write into bytes that are all
# 0xFF only programs the 256-byte pages it touches; any other write erases the
# whole sector and programs it again, page 0 first. So the store is a log:
#
# * A record starts on a page boundary: a 14-byte header -- b"RB", the store's
#   FORMAT, 0, sequence number (u32), payload length (u16), CRC32 (u32) over the
#   header's first 10 bytes and the payload -- then the payload, compact JSON of a
#   plain dict (length 0: cleared). Little-endian.
# * A save goes, in one slice write, into erased pages after the newest record:
#   only those pages are programmed, so a cut leaves every earlier record intact
#   and loses at most the save being written.
# * When no erased run is left, the save is written at offset 0 with 0xFF up to
#   half the store (one write of `span` bytes): the sector is erased and the new
#   record is the first thing programmed. A cut from the start of the erase until
#   the record's pages are programmed (45-400 ms + 3-4 page programs on a Pico)
#   loses every save: measured by tools/power_cut.py, see docs/reliability.md.
#
# load() scans page starts, reads one header and then one record at a time in
# 256-byte slices (never the whole store), and returns the newest record whose
# length and CRC check out, else None; bad bytes never raise. A record of another
# FORMAT is never read: load() logs it and sets `note` for the launcher; nor one
# whose envelope (game, players, ... as BaseGame.record() writes it) has a wrong type.

import json
import struct
import sys

# binascii.crc32 is C on CircuitPython's RP2040/RP2350 builds (py/circuitpy_mpconfig.h:
# MICROPY_PY_BINASCII_CRC32 = CIRCUITPY_BINASCII && CIRCUITPY_ZLIB, both on in full
# builds) and on CPython. The MicroPython VM of the tests has only a frozen Python
# binascii (7 KB of heap): there, as on any build without it, the loop in crc() runs.
crc32 = None
if sys.implementation.name != "micropython":
    try:
        from binascii import crc32
    except ImportError:
        pass

FORMAT = 2  # the store's record format; 1 was the two-slot "RBs1" store
PAGE = 256
HEAD = 14
_FMT = "<2sBBIHI"
NOTE = "Saved match from another version: not resumed"
# the record's envelope (BaseGame.record()): a key present with another type is refused
_TYPES = (("game", str), ("players", int), ("bots", list), ("seed", int), ("options", dict),
          ("rng", list), ("state", dict), ("version", int))


def crc(data, c=0):
    # CRC-32 as zlib computes it (c: the CRC so far); the loop is the fallback
    if crc32 is not None:
        return crc32(data, c) & 0xFFFFFFFF
    c ^= 0xFFFFFFFF
    for b in data:
        c ^= b
        for _ in range(8):
            c = (c >> 1) ^ (0xEDB88320 & -(c & 1))
    return c ^ 0xFFFFFFFF


def _pages(n):
    return (HEAD + n + PAGE - 1) // PAGE


class Store:
    def __init__(self, mem, log=print):
        self.mem = mem
        self.size = len(mem) - len(mem) % PAGE
        self.span = self.size // 2  # bytes one erasing write covers (2 KiB on a Pico)
        self.room = self.span - HEAD  # the largest payload
        self.log = log
        self.note = None  # set by load(): a save of another version was refused
        self.other = None  # set by _newest(): (format, seq) of another version's newest header

    def _erased(self, a, n):
        # True if the n bytes at a all read 0xFF (one page at a time)
        while n > 0:
            k = min(n, PAGE)
            if bytes(self.mem[a:a + k]) != b"\xff" * k:
                return False
            a += k
            n -= k
        return True

    def _check(self, a, head):
        # the payload length of a valid record at a, else -1 (read in page slices)
        magic, fmt, _, seq, n, c = struct.unpack(_FMT, head)
        if magic != b"RB" or fmt != FORMAT or a + HEAD + n > self.size or n > self.room:
            return -1
        k = crc(head[:10])
        i = a + HEAD
        end = i + n
        while i < end:
            j = min(end, (i // PAGE + 1) * PAGE)
            k = crc(bytes(self.mem[i:j]), k)
            i = j
        return n if k == c else -1

    def _newest(self):
        # (seq, address, payload length) of the newest valid record, or None
        best = None
        self.other = None
        a = 0
        while a + HEAD <= self.size:
            head = bytes(self.mem[a:a + HEAD])
            n = self._check(a, head)
            if n < 0:
                # another format's header: a future one keeps b"RB", the format
                # byte (< 32: never in JSON text) and the u32 seq at 4; 1 was b"RBs1"
                # (unless it is ours with a damaged format byte)
                f = head[2]
                if head[:2] == b"RB" and f != FORMAT and (f < 32 or head[2:4] == b"s1") \
                        and self._check(a, head[:2] + bytes((FORMAT,)) + head[3:]) < 0:
                    seq = struct.unpack("<I", head[4:8])[0] if f < 32 else 0
                    if self.other is None or seq > self.other[1]:
                        self.other = (f, seq)
                a += PAGE
                continue
            seq = struct.unpack("<I", head[4:8])[0]
            if best is None or seq > best[0]:
                best = (seq, a, n)
            a += _pages(n) * PAGE
        return best

    def load(self):
        self.note = None
        try:
            best = self._newest()
            o = self.other
            if o is not None and (best is None or o[1] > best[0]):
                self.log("saved match refused: store format " + str(o[0]) + ", this firmware reads " + str(FORMAT))
                self.note = NOTE
                return None
            if best is None or best[2] == 0:  # nothing saved, or cleared
                return None
            a = best[1] + HEAD
            d = json.loads(bytes(self.mem[a:a + best[2]]))
            if type(d) is not dict:
                return None
            for k, t in _TYPES:
                if k in d and type(d[k]) is not t:
                    self.log("saved match refused: " + k + " is not " + t.__name__)
                    return None
            return d
        except Exception:  # not JSON (a bug of an older build): never raise
            return None

    def save(self, d):
        # d: a plain dict (None: clear). False, with a message, if it does not fit.
        data = b"" if d is None else json.dumps(d, separators=(",", ":")).encode()
        n = len(data)
        if n > self.room:
            self.log("save refused: " + str(n) + " bytes, the store takes " + str(self.room))
            return False
        best = self._newest()
        seq = min(max(best[0] if best else 0, self.other[1] if self.other else 0) + 1, 0xFFFFFFFF)
        head = struct.pack("<2sBBIH", b"RB", FORMAT, 0, seq, n)
        head += struct.pack("<I", crc(data, crc(head)))
        need = _pages(n) * PAGE
        a = best[1] + _pages(best[2]) * PAGE if best else 0
        while a + need <= self.size:  # the first erased run after the newest record
            if self._erased(a, need):
                self.mem[a:a + HEAD + n] = head + data  # pages programmed, nothing erased
                return True
            a += PAGE
        # no room: one write from 0 erases the sector; the record is programmed first
        buf = bytearray(self.span)
        buf[:HEAD] = head
        buf[HEAD:HEAD + n] = data
        data = None
        i = HEAD + n
        while i < self.span:  # the rest erased: one page of 0xFF at a time
            j = min(self.span, (i // PAGE + 1) * PAGE)
            buf[i:j] = b"\xff" * (j - i)
            i = j
        self.mem[0:self.span] = buf
        return True

    def clear(self):
        best = self._newest()
        if best and best[2]:  # something to forget: one write, else none (flash wear)
            self.save(None)
