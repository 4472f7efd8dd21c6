# Match saves in a small non-volatile byte store: microcontroller.nvm (4 KiB) on
# the box, a bytearray in the simulator, a file in the PC window. Anything with
# len(), slice reads and same-length slice writes will do.
#
# Two slots, one per half of the store. A slot is a 16-byte header -- magic, CRC32,
# sequence number, payload length (little-endian) -- then the payload, JSON of a
# plain dict. The CRC covers the sequence number, the length and the payload, so a
# header torn halfway cannot pass an older payload off as the newest save. A save goes, in one slice write, to the slot
# that does not hold the newest valid record, with the next sequence number: where
# the store rewrites only the bytes written (the simulator, the PC file), a write
# cut off halfway leaves the previous save loadable. On the Pico boards nvm is one
# flash sector that each such write erases whole, so a power cut in that erase can
# lose both slots (then nothing is offered, never a wrong match; see the build
# guide, "Saves and resume"). load() returns the
# newest record whose length and CRC check out, else None; bad bytes never raise.
# clear() writes an empty record, so an older save cannot come back.

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

_MAGIC = b"RBs1"
_HEAD = 16
_FORMAT = "<4sIII"


def crc(data):
    # CRC-32 as zlib computes it; the loop is the fallback
    if crc32 is not None:
        return crc32(data) & 0xFFFFFFFF
    c = 0xFFFFFFFF
    for b in data:
        c ^= b
        for _ in range(8):
            c = (c >> 1) ^ (0xEDB88320 & -(c & 1))
    return c ^ 0xFFFFFFFF


class Store:
    def __init__(self, mem, log=print):
        self.mem = mem
        self.half = len(mem) // 2
        self.room = self.half - _HEAD  # payload bytes a slot holds
        self.log = log

    def _newest(self):
        # (seq, slot, payload) of the newest valid record, or None
        best = None
        for slot in (0, 1):
            a = slot * self.half
            head = bytes(self.mem[a:a + _HEAD])
            magic, c, seq, n = struct.unpack(_FORMAT, head)
            if magic != _MAGIC or n > self.room:
                continue
            data = bytes(self.mem[a + _HEAD:a + _HEAD + n])
            if crc(head[8:] + data) == c and (best is None or seq > best[0]):
                best = (seq, slot, data)
        return best

    def load(self):
        try:
            d = json.loads(self._newest()[2])
            return d if type(d) is dict else None
        except Exception:  # nothing saved (None[2]), cleared (b""), not JSON
            return None

    def save(self, d):
        # d: a plain dict (None: clear). False, with a message, if it does not fit.
        data = b"" if d is None else json.dumps(d).encode()
        if len(data) > self.room:
            self.log("save refused: " + str(len(data)) + " bytes, a slot holds " + str(self.room))
            return False
        best = self._newest()
        seq, slot = (best[0] + 1, 1 - best[1]) if best else (1, 0)
        body = struct.pack("<II", seq & 0xFFFFFFFF, len(data)) + data
        a = slot * self.half
        self.mem[a:a + 8 + len(body)] = _MAGIC + struct.pack("<I", crc(body)) + body
        return True

    def clear(self):
        best = self._newest()
        if best and best[2]:  # something to forget: one write, else none (flash wear)
            self.save(None)
