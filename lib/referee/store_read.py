# The reading half of referee.store: replaying the log (see referee/store.py). Loaded
# when the store is read (the launcher, a resume) and forgotten while a match runs,
# when only the writing half is needed. The functions take the Store as ``st``.

import json
import struct

from referee.store import CHANGE, DAMAGED, FORMAT, HEAD, NOTE, PAGE, crc

# the record's envelope (BaseGame.record()): a key present with another type is refused
_TYPES = (("game", str), ("players", int), ("bots", list), ("seed", int), ("options", dict),
          ("state", dict), ("version", int))


def _read(payload, p):
    # (varint, next position) at p; ValueError if cut short or too long
    v = 0
    s = 0
    while True:
        if p >= len(payload) or s > 21:
            raise ValueError("change cut short")
        c = payload[p]
        p += 1
        v |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return v, p


def apply(a, payload):
    """Bytes ``a`` changed by a change payload; ValueError if it does not fit ``a``."""
    out = bytearray()
    i = 0
    p = 0
    n = len(payload)
    while p < n:
        keep, p = _read(payload, p)
        if p >= n:
            raise ValueError("change cut short")
        c = payload[p]
        p += 1
        if c == 0xFF:
            drop, p = _read(payload, p)
            ins, p = _read(payload, p)
        else:
            drop = c >> 4
            ins = c & 15
        if i + keep + drop > len(a) or p + ins > n:
            raise ValueError("change does not fit")
        out += a[i:i + keep]
        i += keep + drop
        out += payload[p:p + ins]
        p += ins
    out += a[i:]
    return bytes(out)


def record(st, a, c, text, fmt=None):
    """(text, crc, end) of a record at ``a`` that checks out after ``text``/``c``, else
    None; ``fmt``: the format its kind byte must name (a later format: only its header
    is read)."""
    fmt = st.kind if fmt is None else fmt
    b = st.base
    head = bytes(st.mem[b + a:b + min(a + HEAD, st.size)])
    if len(head) < HEAD - 1:
        return None
    kind = head[0]
    if kind & 0x7F != fmt or (kind & CHANGE and text is None):
        return None
    n = head[1]
    h = 2
    if n & 0x80:
        n = (n & 0x7F) | head[2] << 7
        h = 3
    end = a + h + 4 + n
    if end > st.size or len(head) < h + 4:
        return None
    payload = bytes(st.mem[b + a + h + 4:b + end])
    k = crc(payload, crc(head[:h], c if kind & CHANGE else 0))
    if k != struct.unpack("<I", head[h:h + 4])[0]:
        return None
    if kind & CHANGE and fmt == st.kind:
        try:
            payload = apply(text, payload)
        except ValueError:
            return None
    return payload, k, end

def scan(st):
    """Replay the log: (the newest text or None, its record's CRC, where the next record
    goes). The store keeps what it is told (``Store.scan``); this module writes none of it."""
    text = None
    c = 0
    a = 0
    end = 0
    size = st.size
    while a < size:
        r = record(st, a, c, text)
        if r is None:  # torn, or the end: look for a record further on that checks out
            a = find(st, a + 1, c, text)
            if a < 0:
                break
            continue
        text, c, a = r
        end = a
    return text, c, max(end, used(st))

def find(st, a, c, text):
    """The address of the next record from ``a`` on that checks out after ``text``/``c``, else -1."""
    size = st.size
    while a < size:
        b = min(size, (a // PAGE + 1) * PAGE)
        m = bytes(st.mem[st.base + a:st.base + b])
        i = m.find(bytes((st.kind,)))
        k = m.find(bytes((st.kind | CHANGE,)))
        if i < 0 or 0 <= k < i:
            i = k
        if i < 0:
            a = b
            continue
        a += i
        if record(st, a, c, text) is not None:
            return a
        a += 1
    return -1

def used(st):
    """1 + the address of the last byte that is not 0xFF (0: blank)."""
    a = st.size
    while a > 0:
        b = a - PAGE if a % PAGE == 0 else a - a % PAGE
        k = len(bytes(st.mem[st.base + b:st.base + a]).rstrip(b"\xff"))
        if k:
            return b + k
        a = b
    return 0

def other(st):
    """The format number of another version's store at 0, else None."""
    head = bytes(st.mem[st.base:st.base + 4])
    if len(head) < 4:
        return None
    if head[:2] == b"RB" and (head[2] < 32 or head[2:4] == b"s1"):  # formats 1 and 2
        return head[2] if head[2] < 32 else 1
    # a later format keeps the record's header and CRC, and starts with a whole text:
    # its first record checks out (random bytes, another program's, do not)
    f = head[0]
    return f if FORMAT < f < 32 and record(st, 0, 0, None, f) is not None else None

def blank(st):
    """True if every byte reads 0xFF or every byte 0x00 (a new or wiped memory)."""
    n = used(st)
    a = 0
    while a < n:
        b = min(n, a + PAGE)
        if bytes(st.mem[st.base + a:st.base + b]) != bytes(b - a):
            return n == 0
        a = b
    return True

def damaged(st, why):
    """Nothing to resume but something was saved: ``why`` logged, and ``note`` set to
    say so on the screen."""
    st.log("saved match unreadable: " + why)
    st.note = DAMAGED

def load(st):
    """``Store.load``: the newest saved match as a dict, else None, with ``st.note`` set
    for the table; never raises."""
    st.note = None
    try:
        text = st.scan()
        if text is None:
            f = other(st)
            if f is not None:
                st.log("saved match refused: store format " + str(f) + ", this firmware reads " + str(FORMAT))
                st.note = NOTE
            elif not blank(st):
                damaged(st, "no record checks out")
            return None
        if not text:  # cleared
            return None
        d = json.loads(text)
        if type(d) is not dict:
            damaged(st, "not a match")
            return None
        for k, t in _TYPES:
            if k in d and type(d[k]) is not t:
                damaged(st, k + " is not " + t.__name__)
                return None
        return d
    except Exception:  # not JSON (a bug of an older build): never raise
        damaged(st, "not JSON")
        return None
    finally:
        if st.note is None:  # the memory's own word (the PC's file that cannot be written)
            st.note = getattr(st.mem, "problem", None)

