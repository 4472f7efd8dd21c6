"""What a CircuitPython C object keeps on the board, paid for in the VM heap.

Every fake of a C object holds its state in one list, padded so that the fake,
Python overhead included, keeps in the MicroPython VM the bytes the real C object
keeps on a Pico (the formulas below, from device-memory.md's table of objects
measured one by one on CircuitPython 10.2.1). The Python overhead of each fake
(instance, attribute map, its state list) is
measured in the VM at the start of every run (the benchmark builds sixteen of
each kind with ``PAD[0] = False`` and keeps ``FIXED``); then the fake's one state
list ``_c`` gets as many more slots as make up the difference. A fake that is
already bigger in the VM than on the board (a 16-byte DigitalInOut cannot be a
Python object) is counted in ``OVER``.

Heap sizes in the VM and on the board round to 16-byte blocks alike (both are
32-bit MicroPython heaps).
"""

PAD = [True]  # False while calibrating: lists of exactly their state slots
FIXED = {}  # kind -> VM bytes of the fake with no padding, minus its variable parts
OVER = {}  # kind -> [objects built over their board size, bytes over in all]
CAL_EXTRA = {}  # kind -> ``extra`` of the object built while calibrating


def ceil16(n):
    return (n + 15) & ~15


def array_bytes(nbytes):
    """What a bytearray/array of ``nbytes`` of data keeps (header block + data)."""
    return 16 + ceil16(nbytes) if nbytes > 0 else 16


def slots(kind, device_bytes, base, extra=0):
    """The state list ``_c`` of a fake of ``kind``: ``base`` slots (None), longer
    by as many slots as make the fake keep ``device_bytes`` in the VM. ``extra``:
    what the fake's variable-size parts (a tiles bytearray, ...) keep now."""
    if not PAD[0]:
        CAL_EXTRA[kind] = extra
        return [None] * base if base else None
    e = device_bytes - FIXED.get(kind, 0) - extra
    if e < 0:
        o = OVER.setdefault(kind, [0, 0])
        o[0] += 1
        o[1] -= e
        e = 0
    if not base:  # a fake that keeps its state in attributes: a tuple of the padding, or None
        return (None,) * ((e - 8) // 4) if e >= 16 else None
    return [None] * ((ceil16(4 * base) + e) // 4 if e else base)


# --- what each C object keeps on the board (bytes), device-memory.md last table ---


def bits_per_value(value_count):
    bits = 1
    while (1 << bits) < value_count:
        bits += 1
    p = 1
    while p < bits:
        p *= 2
    return p


def bitmap_bytes(width, height, value_count):
    # rows of 32-bit words: Bitmap(24,24,16) 336, (144,24,8) 1,776, (320,240,2) 9,664
    data = 4 * ((width * bits_per_value(value_count) + 31) // 32) * height
    return 48 + ceil16(data) + (16 if data >= 8192 else 0)


def palette_bytes(n):
    # Palette(2) 48, Palette(16) 304
    return ceil16(12 + 18 * n)


def tilegrid_bytes(tiles, wide=False):
    # 1 tile 96 (kept inside the object), 6 tiles 112, 42 tiles 144
    if tiles <= 1:
        return 96
    return 96 + ceil16(tiles * (2 if wide else 1))


GROUP = 80
MAPPER = 32  # tilepalettemapper.TilePaletteMapper, unbound (its mappings: tilepalettemapper.py)
SHAPE = 96  # vectorio.Rectangle / Circle
ST7789 = 8224  # adafruit_st7789.ST7789(bus, 320, 240, rotation=90): the display object
FOURWIRE = 0  # kept in static storage
# Not in the table (not measured on the board): sizes of the C structs, rounded up.
SPI = 48
DIGITALINOUT = 16
PWMOUT = 32
STATEMACHINE = 256
EVENT = 16


def keys_bytes(pins, max_events):
    # keypad.Keys(8 pins, max_events=64) 656: the split between the pins and the
    # event queue (6 bytes an event) is an estimate; the sum is the measured figure
    return 176 + ceil16(12 * pins) + ceil16(6 * max_events)


def pixelbuf_bytes(n, bpp, brightness):
    # NeoPixel(GP16, 84) 384 = this (320) + its DigitalInOut (16) + the Python
    # NeoPixel instance (48); below full brightness a second buffer holds the
    # colours before scaling
    b = 64 + ceil16(n * bpp)
    if brightness < 1.0:
        b += ceil16(n * bpp)
    return b
