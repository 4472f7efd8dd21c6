# Match saves in a small non-volatile byte store: microcontroller.nvm (4 KiB) on
# the box, a bytearray in the simulator, a file in the PC window. Anything with
# len(), slice reads and same-length slice writes will do.
#
# On a Pico, nvm is one 4 KiB flash sector (CircuitPython 10,
# ports/raspberrypi/common-hal/nvm/ByteArray.c): a write into bytes that all read
# 0xFF only programs the 256-byte pages it touches (programming clears bits: the
# page's other bytes stay as they were); any other write erases the whole sector
# and programs it again. During that erase the sector holds nothing, so an erase
# must never happen while a match worth keeping is only there. The store is a log
# written from offset 0, one record after the other, each into erased bytes:
#
# * A record: a header of 6 or 7 bytes -- its kind (FORMAT: a whole text; FORMAT |
#   0x80: a change), the payload's length (a varint: 1 byte below 128, else 2), a
#   CRC32 (little-endian) over the kind, the length and the payload that continues
#   the CRC of the record before it (a whole text's starts from 0) -- then the
#   payload. A change only checks out after the records it was written after.
# * A whole text is the compact JSON of the match (a plain dict; length 0: cleared).
#   A change turns the text before it into the new one: hunks of bytes kept (a
#   varint), bytes dropped and inserted (one byte, dropped << 4 | inserted, when
#   both are below 15; else 0xFF and two varints), then the inserted bytes; the
#   rest of the text before is kept. A turn of Zilch at 7 players changes ~20 of its ~800 bytes, so a whole
#   match fits in the sector: tools/power_cut.py measures it for every game.
# * The first save of a new match (save(d, new=True)) starts on an erased sector:
#   if the sector is not blank, one write of the whole sector erases it, the record
#   first. A cut then loses the match that was there before (finished, or left
#   when the table chose a new game) and the save being written, nothing else.
#   Every later save appends; a cut loses at most the save being written. When
#   less than LOW bytes are left, the app saves once a round instead of at every
#   save point (BaseGame.round_saves()): a cut then loses at most the round in
#   progress. Only a match that still outgrows the sector erases it mid-match (the
#   whole text rewritten first): that is the one window left, measured by
#   tools/power_cut.py.
#
# load() (the reading half is referee.store_read) replays the log: it reads a header, then its payload, one record at a
# time; after a record that does not check out (a write cut short) it looks
# further on for a record that continues the chain (the next save after a cut is
# written behind the torn bytes). It returns the newest text as a dict, else None;
# bad bytes never raise. A store of another FORMAT is never read: load() logs it
# and sets `note` for the launcher (a later format is known by its first record,
# which keeps this header and CRC); nor an envelope (game, players, ... as
# BaseGame.record() writes it) with a wrong type. A store that is not blank
# (all 0xFF, or all 0x00) but holds nothing that checks out is damaged: logged,
# and `note` says so.

import json
import struct
import sys

from referee.core import finish

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

FORMAT = 3  # the store's record format; 1 was the two-slot "RBs1" store, 2 page-aligned whole texts
CHANGE = 0x80  # the kind bit of a change record
PAGE = 256
HEAD = 7  # the longest header
NOTE = "Saved match from another version: not resumed"
DAMAGED = "The saved match is damaged: it cannot be resumed"
SYNC = 6  # bytes that must match again to end a hunk of a change
LOW = 1024  # bytes left in the sector below which the app saves once a round (App._save)
REACH = 48  # how far (bytes dropped + inserted) a hunk looks for them
RUN = 32  # bytes of an equal run compared first, then twice as many (_run: the same change as byte by byte)
KEEP = 0x7E  # the kind of referee.keep's records (the last KEEP_BYTES); "~" is in no JSON the box writes
KEEP_BYTES = 256  # the last page of the memory, referee.keep's; the match saves get the rest


def crc(data, c=0):
    """CRC-32 of ``data`` as zlib computes it (``c``: the CRC so far); the loop is the fallback."""
    if crc32 is not None:
        return crc32(data, c) & 0xFFFFFFFF
    c ^= 0xFFFFFFFF
    for b in data:
        c ^= b
        for _ in range(8):
            c = (c >> 1) ^ (0xEDB88320 & -(c & 1))
    return c ^ 0xFFFFFFFF


def _varint(out, n):
    while n > 0x7F:
        out.append(0x80 | (n & 0x7F))
        n >>= 7
    out.append(n)


def _hunk(out, keep, drop, ins):
    # a hunk's counts: keep as a varint, then drop and insert in one byte when both
    # are below 15 (drop << 4 | insert), else 0xFF and two varints
    _varint(out, keep)
    if drop < 15 and ins < 15:
        out.append(drop << 4 | ins)
    else:
        out.append(0xFF)
        _varint(out, drop)
        _varint(out, ins)


def _run(a, i, b, j, na, nb):
    # The length of the equal run at a[i:] and b[j:], found with slice compares (C on the
    # firmware): RUN bytes, then twice as many each time while they match, then halves to
    # its exact end. A loop byte by byte was 50-150 of a Zilch save's bytes at ~10 µs each
    # (7-13 ms of a save on the firmware), and RUN bytes at a time ZAP City's 13-15 ms.
    n = min(na - i, nb - j)
    k = 0  # a[i:i + k] == b[j:j + k]
    r = RUN
    while k + r <= n and a[i + k:i + k + r] == b[j + k:j + k + r]:
        k += r
        r += r
    top = k + r if k + r < n else n  # the run ends at or before top
    while k < top:
        m = (k + top + 1) // 2
        if a[i + k:i + m] == b[j + k:j + m]:
            k = m
        else:
            top = m - 1
    return k


def change(a, b):
    """The change payload that turns bytes ``a`` into bytes ``b`` (greedy hunks)."""
    return finish(changing(a, b))


def changing(a, b):
    """``change`` a hunk at a time: a generator that yields after each hunk and returns
    the payload (a save's change of ZAP City's ~480 B was 24-26 ms of one pass on the
    firmware, ~3 ms a hunk: ``Store.saving`` runs it a hunk a loop pass)."""
    out = bytearray()
    i = j = 0
    na = len(a)
    nb = len(b)
    while True:
        k = _run(a, i, b, j, na, nb)
        i += k
        j += k
        if i >= na and j >= nb:  # the rest is kept: said by saying nothing
            return bytes(out)
        if i >= na or j >= nb:  # one side used up: drop or insert the rest
            _hunk(out, k, na - i, nb - j)
            out += b[j:]
            return bytes(out)
        # The nearest x dropped, y inserted (the least x + y, up to REACH; of those the
        # least x) after which SYNC bytes match again, or the same short tail. For each
        # x, bytes.find (in C) gives the least y; x stops growing once it alone is more
        # than the best found. (A walk of every (x, y) in that order, each a slice
        # compare, took 40-150 ms of a save on the firmware.)
        x = y = -1
        best = REACH + 1
        dx = 0
        while dx < best:
            p = i + dx
            top = j + min(REACH, best - 1) - dx  # the last q worth trying
            if top >= j:
                if p + SYNC <= na:
                    q = b.find(a[p:p + SYNC], j, top + SYNC)
                else:  # a's short tail: b's must be the same, as long
                    q = nb - na + p
                    if q < j or q > top or a[p:] != b[q:]:
                        q = -1
                if q >= 0:
                    x = dx
                    y = q - j
                    best = x + y
            dx += 1
        if x < 0:
            _hunk(out, k, na - i, nb - j)
            out += b[j:]
            return bytes(out)
        _hunk(out, k, x, y)
        out += b[j:j + y]
        i += x
        j += y
        yield


def _head(kind, n):
    # a header's kind and length bytes (its CRC follows)
    return bytes((kind, n)) if n < 0x80 else bytes((kind, 0x80 | (n & 0x7F), n >> 7))


class Store:
    """Match saves in the byte store ``mem`` (the comment at the top): ``load`` the
    newest, ``save`` one, ``clear``. ``log``: where problems are said (print);
    ``kind``: the records' kind byte (FORMAT: the match's, KEEP: referee.keep's);
    ``base``, ``size``: the part of ``mem`` this store uses (default: all of it)."""

    def __init__(self, mem, log=print, kind=FORMAT, base=0, size=None):
        self.mem = mem
        self.kind = kind
        self.base = base
        self.size = len(mem) - base if size is None else size
        self.room = self.size - HEAD  # the largest payload
        self.log = log
        # set by load(): what the table should be told (said once, at scale 2, by the
        # app): a save of another version refused (NOTE), a damaged one (DAMAGED), or
        # the memory's own ``problem`` (the PC's file that cannot be written)
        self.note = None
        self._text = None  # the newest text (bytes; b"": cleared), its record's CRC, where the next record goes
        self._crc = 0
        self._tail = -1  # -1: not read yet

    # --- reading: referee.store_read, loaded when the store is read (at the launcher,
    # on a resume) and forgotten while a match runs (App.launch) --------------------
    def scan(self):
        """Replay the log (referee.store_read): remember the newest text, its CRC and
        where the next record goes; return the text (None: nothing readable; b"": cleared)."""
        from referee import store_read

        self._text, self._crc, self._tail = store_read.scan(self)
        return self._text

    def _used(self):
        from referee import store_read

        return store_read.used(self)

    def load(self):
        """The newest saved match as a dict, else None; ``note`` then says what the table
        should be told, if anything. Bad bytes never raise (referee.store_read)."""
        from referee import store_read

        return store_read.load(self)

    # --- writing ---------------------------------------------------------------
    def save(self, d, new=False):
        """Save ``d``, a plain dict (None: clear); True once written. ``new``: the first
        save of a new match (it starts on an erased sector). False, with a message, if
        it does not fit."""
        return finish(self.saving(d, new))

    def saving(self, d, new=False):
        """``save`` in steps: a generator that yields after the text is made and after
        each hunk of its change, and returns what ``save`` does. Nothing is written
        before its last step (the app runs a step a loop pass: a save of ZAP City was
        one pass of ~29 ms on the firmware); one dropped before then writes nothing."""
        data = b"" if d is None else json.dumps(d, separators=(",", ":")).encode()
        d = None  # (the record's dict is not kept through the steps: its text is)
        if len(data) > self.room:
            self.log("save refused: " + str(len(data)) + " bytes, the store takes " + str(self.room))
            return False
        if self._tail < 0:
            self.scan()
        text = self._text
        if text == data and not new:  # saved already
            return True
        yield  # (the text made: its change, or its write, at the next step)
        if text is not None and not new and data and text:
            payload = yield from changing(text, data)
            if len(payload) < len(data):
                if self._append(_head(self.kind | CHANGE, len(payload)), payload, self._crc, data):
                    return True
        head = _head(self.kind, len(data))
        if not new and self._append(head, data, 0, data):
            return True
        if new and self._tail == 0:
            return self._append(head, data, 0, data)
        # a new match, or no room left: one write of the whole sector erases it; the record first
        k = crc(data, crc(head))
        buf = bytearray(self.size)
        h = len(head)
        buf[:h] = head
        buf[h:h + 4] = struct.pack("<I", k)
        buf[h + 4:h + 4 + len(data)] = data
        i = end = h + 4 + len(data)
        while i < self.size:  # the rest erased: one page of 0xFF at a time
            j = min(self.size, (i // PAGE + 1) * PAGE)
            buf[i:j] = b"\xff" * (j - i)
            i = j
        self.mem[self.base:self.base + self.size] = buf
        self._text = data
        self._crc = k
        self._tail = end
        return True

    def _append(self, head, payload, c, text):
        # the record after the newest, into erased bytes: programmed, nothing erased
        a = self._tail
        n = len(head) + 4 + len(payload)
        if a + n > self.size or not self._erased(a, n):
            return False
        k = crc(payload, crc(head, c))
        self.mem[self.base + a:self.base + a + n] = head + struct.pack("<I", k) + payload
        self._text = text
        self._crc = k
        self._tail = a + n
        return True

    def _erased(self, a, n):
        # True if the n bytes at a all read 0xFF (one page at a time)
        a += self.base
        while n > 0:
            k = min(n, PAGE - a % PAGE)
            if bytes(self.mem[a:a + k]) != b"\xff" * k:
                return False
            a += k
            n -= k
        return True

    def left(self):
        """Bytes left for records after the newest."""
        if self._tail < 0:
            self.scan()
        return self.size - self._tail

    def clear(self):
        """Forget the saved match: one write if something is saved, else none (flash wear)."""
        if self._tail < 0:
            self.scan()
        if self._text:  # something to forget: one write, else none (flash wear)
            self.save(None)
