"""Fake of CircuitPython's ``displayio`` for the memory benchmark (VM only).

Each object keeps in the VM heap what the C object keeps on a Pico (``_cost``):
its state lives in one list ``_c``, padded to the board's size (a Group and a
small Palette in a few attributes, which is exactly their board size), so a
Python subclass (a label) has an attribute or four more where on the board it
has the C part.
Draws nothing: pixels written to a Bitmap are not kept (only ``fill``).

The same fakes stand in for the display modules in the compatibility checks'
VM (tests/compat.py, which mounts ``_vm_checks``): there they also keep the real
module's rule that a layer belongs to one group at most, in a map the memory
benchmark does without (it would weigh on the heap it measures).
"""

from _cost import GROUP, array_bytes, bitmap_bytes, bits_per_value, ceil16, palette_bytes, slots, tilegrid_bytes


def _setter(i, conv=None):
    if isinstance(i, str):  # an attribute
        def put(self, v):
            setattr(self, i, v)
    else:  # a slot of _c
        def put(self, v):
            self._c[i] = v if conv is None else conv(v)

    return put


def release_displays():
    pass


_owners = None  # {id(layer): group}: the compatibility checks' VM only
try:
    import _vm_checks  # noqa: F401

    _owners = {}
except ImportError:
    pass


def _take(group, layer):
    if _owners is not None:
        if id(layer) in _owners:
            raise ValueError("Layer already in a group")
        _owners[id(layer)] = group


def _free(layer):
    if _owners is not None:
        _owners.pop(id(layer), None)


def _prop(i):
    return property(lambda self: self._c[i], _setter(i))


class Group:
    # _l layers, _x, _y, _s = scale * 2 + hidden: four attributes keep exactly a
    # Group's 80 bytes (instance 16, a 4-slot map 32, the layers list 32)
    def __init__(self, *, scale=1, x=0, y=0):
        if scale < 1:
            raise ValueError("scale must be >= 1")
        self._l = []
        self._x = x
        self._y = y
        self._s = scale * 2
        pad = slots("Group", GROUP, 0)
        if pad:
            self._p = pad

    x = property(lambda self: self._x, _setter("_x"))
    y = property(lambda self: self._y, _setter("_y"))

    @property
    def scale(self):
        return self._s >> 1

    @scale.setter
    def scale(self, value):
        if value < 1:
            raise ValueError("scale must be >= 1")
        self._s = value * 2 + (self._s & 1)

    @property
    def hidden(self):
        return bool(self._s & 1)

    @hidden.setter
    def hidden(self, value):
        self._s = (self._s & ~1) | (1 if value else 0)

    def append(self, layer):
        _take(self, layer)
        self._l.append(layer)

    def insert(self, index, layer):
        _take(self, layer)
        self._l.insert(index, layer)

    def index(self, layer):
        return self._l.index(layer)

    def remove(self, layer):
        self._l.remove(layer)
        _free(layer)

    def pop(self, i=-1):
        layer = self._l.pop(i)
        _free(layer)
        return layer

    def sort(self, key=None, reverse=False):
        self._l.sort(key=key, reverse=reverse)

    def __len__(self):
        return len(self._l)

    def __bool__(self):
        return True

    def __getitem__(self, index):
        return self._l[index]

    def __setitem__(self, index, layer):
        _free(self._l[index])
        _take(self, layer)
        self._l[index] = layer

    def __delitem__(self, index):
        self.pop(index)

    def __iter__(self):
        return iter(self._l)

    def __contains__(self, layer):
        return layer in self._l


class Bitmap:
    # _c = [width, height, value_count, fill value]
    def __init__(self, width, height, value_count, *, _in_flash=False):
        if value_count < 1 or value_count > 65536:
            raise ValueError("value_count must be 1..65536")
        c = [None] * 4 if _in_flash else slots("Bitmap", bitmap_bytes(width, height, value_count), 4)
        c[0] = width
        c[1] = height
        c[2] = value_count
        c[3] = 0
        self._c = c

    width = property(lambda self: self._c[0])
    height = property(lambda self: self._c[1])
    bits_per_value = property(lambda self: bits_per_value(self._c[2]))

    def __getitem__(self, index):
        return self._c[3]

    def __setitem__(self, index, value):
        if not 0 <= value < self._c[2]:
            raise ValueError("value out of range")
        if type(index) is tuple and not (0 <= index[0] < self._c[0] and 0 <= index[1] < self._c[1]):
            raise IndexError("pixel out of range")

    def fill(self, value):
        self._c[3] = value

    def _fill_region(self, x1, y1, x2, y2, value):
        pass  # bitmaptools.fill_region, once it has checked the call: draws nothing

    def blit(self, x, y, source, **kwargs):
        pass

    def dirty(self, x1=0, y1=0, x2=-1, y2=-1):
        pass


class Palette:
    # Up to 2 colours: attributes _a, _b and the transparency mask _m (a Palette(2)
    # keeps 48 bytes, as on the board); more: _m and a padded list _c of colours.
    def __init__(self, color_count, *, dither=False):
        self._m = 0
        if color_count <= 2:
            self._a = 0
            if color_count == 2:
                self._b = 0
            pad = slots("Palette" + str(color_count), palette_bytes(color_count), 0)
            if pad:
                self._c = pad
        else:
            c = slots("PaletteN", palette_bytes(color_count), color_count, ceil16(4 * color_count))
            for i in range(color_count):
                c[i] = 0
            self._c = c
            self._n = color_count

    dither = False

    def __len__(self):
        try:
            return self._n
        except AttributeError:
            return 2 if hasattr(self, "_b") else 1

    def _i(self, index):
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("palette index out of range")
        return index

    def __setitem__(self, index, color):
        if isinstance(color, (bytes, bytearray, tuple, list)):
            color = (color[0] << 16) | (color[1] << 8) | color[2]
        if not 0 <= color <= 0xFFFFFF:
            raise ValueError("color must be 0x000000..0xFFFFFF")
        i = self._i(index)
        if hasattr(self, "_n"):
            self._c[i] = color
        elif i == 0:
            self._a = color
        else:
            self._b = color

    def __getitem__(self, index):
        i = self._i(index)
        if hasattr(self, "_n"):
            return self._c[i]
        return self._a if i == 0 else self._b

    def make_transparent(self, index):
        self._m |= 1 << self._i(index)

    def make_opaque(self, index):
        self._m &= ~(1 << self._i(index))

    def is_transparent(self, index):
        return bool(self._m & (1 << self._i(index)))


class ColorConverter:
    def __init__(self, *, input_colorspace=None, dither=False):
        self.dither = dither

    def convert(self, color):
        return color


class TileGrid:
    # _c = [tile (one) or tiles (bytearray/array), bitmap, pixel_shader, x, y,
    #       hidden | flip_x << 1 | flip_y << 2 | transpose_xy << 3,
    #       width | height << 12, tile_width | tile_height << 12]
    def __init__(self, bitmap, *, pixel_shader, width=1, height=1, tile_width=None, tile_height=None,
                 default_tile=0, x=0, y=0):
        tw = bitmap.width if tile_width is None else tile_width
        th = bitmap.height if tile_height is None else tile_height
        if tw < 1 or th < 1 or bitmap.width % tw or bitmap.height % th:
            raise ValueError("Tile width must exactly divide bitmap width")
        n = width * height
        wide = (bitmap.width // tw) * (bitmap.height // th) > 256
        if n > 1:
            tiles = bytearray(n) if not wide else __import__("array").array("H", bytes(2 * n))
            for i in range(n):
                tiles[i] = default_tile
            extra = array_bytes(n * (2 if wide else 1))
        else:
            tiles = default_tile
            extra = 0
        c = slots("TileGrid", tilegrid_bytes(n, wide), 8, extra)
        c[0] = tiles
        c[1] = bitmap
        c[2] = pixel_shader
        c[3] = x
        c[4] = y
        c[5] = 0
        c[6] = width | height << 12
        c[7] = tw | th << 12
        self._c = c
        bind = getattr(pixel_shader, "_bind", None)  # a tilepalettemapper's mappings
        if bind is not None:
            bind(width, height)

    bitmap = _prop(1)
    pixel_shader = _prop(2)
    x = _prop(3)
    y = _prop(4)
    width = property(lambda self: self._c[6] & 0xFFF)
    height = property(lambda self: self._c[6] >> 12)
    tile_width = property(lambda self: self._c[7] & 0xFFF)
    tile_height = property(lambda self: self._c[7] >> 12)

    def _flag(bit):
        def get(self):
            return bool(self._c[5] & bit)

        def put(self, v):
            self._c[5] = (self._c[5] & ~bit) | (bit if v else 0)

        return property(get, put)

    hidden = _flag(1)
    flip_x = _flag(2)
    flip_y = _flag(4)
    transpose_xy = _flag(8)
    del _flag

    def _index(self, index):
        w = self._c[6] & 0xFFF
        h = self._c[6] >> 12
        if isinstance(index, tuple):
            x, y = index
            if not (0 <= x < w and 0 <= y < h):
                raise IndexError("Tile index out of bounds")
            return y * w + x
        if not 0 <= index < w * h:
            raise IndexError("Tile index out of bounds")
        return index

    def __getitem__(self, index):
        i = self._index(index)
        t = self._c[0]
        return t if isinstance(t, int) else t[i]

    def __setitem__(self, index, tile):
        i = self._index(index)
        if isinstance(self._c[0], int):
            self._c[0] = tile
        else:
            self._c[0][i] = tile
