"""Stand-in for CircuitPython's built-in ``displayio`` core objects.

Signatures as in CircuitPython 9/10; a layer can be in one group only; colours
are 24-bit ints. ``release_displays`` releases the fake world's display buses.
"""

import fakeworld


def _int(name, v):
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError("can't convert " + type(v).__name__ + " to int (" + name + ")")
    return v


class _Layer:
    def _init_layer(self, x, y):
        # underscored: subclasses (adafruit_display_text's labels) override the properties
        self._x = _int("x", x)
        self._y = _int("y", y)
        self._hidden = False
        self._in_group = None

    x = property(lambda self: self._x, lambda self, v: setattr(self, "_x", _int("x", v)))
    y = property(lambda self: self._y, lambda self, v: setattr(self, "_y", _int("y", v)))
    hidden = property(lambda self: self._hidden, lambda self, v: setattr(self, "_hidden", bool(v)))


class Group(_Layer):
    def __init__(self, *, scale=1, x=0, y=0):
        if _int("scale", scale) < 1:
            raise ValueError("scale must be >= 1")
        self._init_layer(x, y)
        self._scale = scale
        self._layers = []

    @property
    def scale(self):
        return self._scale

    @scale.setter
    def scale(self, value):
        if _int("scale", value) < 1:
            raise ValueError("scale must be >= 1")
        self._scale = value

    def _adopt(self, layer):
        if not isinstance(layer, _Layer):
            raise TypeError("Layer must be a Group or TileGrid subclass")
        if layer._in_group is not None:
            raise ValueError("Layer already in a group")
        layer._in_group = self

    def append(self, layer):
        self._adopt(layer)
        self._layers.append(layer)

    def insert(self, index, layer):
        self._adopt(layer)
        self._layers.insert(index, layer)

    def remove(self, layer):
        self._layers.remove(layer)
        layer._in_group = None

    def pop(self, i=-1):
        layer = self._layers.pop(i)
        layer._in_group = None
        return layer

    def index(self, layer):
        return self._layers.index(layer)

    def __len__(self):
        return len(self._layers)

    def __getitem__(self, i):
        return self._layers[i]

    def __setitem__(self, i, layer):
        old = self._layers[i]
        self._adopt(layer)
        old._in_group = None
        self._layers[i] = layer

    def __delitem__(self, i):
        self.pop(i)

    def __iter__(self):
        return iter(list(self._layers))

    def __contains__(self, layer):
        return layer in self._layers

    def sort(self, key=None, reverse=False):
        self._layers.sort(key=key, reverse=reverse)


class Bitmap:
    def __init__(self, width, height, value_count):
        _int("width", width)
        _int("height", height)
        if not 1 <= _int("value_count", value_count) <= 65536:
            raise ValueError("value_count must be 1-65536")
        self.width = width
        self.height = height
        self._max = value_count
        self._data = bytearray(width * height) if value_count <= 256 else [0] * (width * height)

    def _index(self, key):
        if isinstance(key, tuple):
            x, y = key
            if not (0 <= x < self.width and 0 <= y < self.height):
                raise IndexError("pixel coordinates out of bounds")
            return y * self.width + x
        return key

    def __getitem__(self, key):
        return self._data[self._index(key)]

    def __setitem__(self, key, value):
        if not 0 <= value < self._max:
            raise ValueError("value out of range of target")
        self._data[self._index(key)] = value

    def fill(self, value):
        for i in range(len(self._data)):
            self._data[i] = value

    @property
    def bits_per_value(self):
        bits = 1  # the firmware's: 1, 2, 4, 8 bits, then a byte more at a time
        while (self._max - 1) >> bits:
            bits = bits * 2 if bits < 8 else bits + 8
        return bits

    def _fill_region(self, x1, y1, x2, y2, value):
        # bitmaptools.fill_region (bitmaptools.py), once it has checked the call
        run = [value] * (x2 - x1)
        for y in range(y1 * self.width, y2 * self.width, self.width):
            self._data[y + x1:y + x2] = run


class Palette:
    def __init__(self, color_count, *, dither=False):
        if not 1 <= _int("color_count", color_count) <= 65536:
            raise ValueError("color_count must be 1-65536")
        self._colors = [0] * color_count
        self._transparent = [False] * color_count
        self.dither = dither

    def __len__(self):
        return len(self._colors)

    def __getitem__(self, i):
        return self._colors[i]

    def __setitem__(self, i, color):
        if isinstance(color, (tuple, list)):
            r, g, b = color
            color = (r << 16) | (g << 8) | b
        if isinstance(color, bool) or not isinstance(color, int) or not 0 <= color <= 0xFFFFFF:
            raise ValueError("color must be between 0x000000 and 0xffffff")
        self._colors[i] = color

    def make_transparent(self, i):
        self._transparent[i] = True

    def make_opaque(self, i):
        self._transparent[i] = False

    def is_transparent(self, i):
        return self._transparent[i]


class ColorConverter:
    def __init__(self, *, input_colorspace=None, dither=False):
        self.dither = dither


class TileGrid(_Layer):
    def __init__(
        self, bitmap, *, pixel_shader, width=1, height=1, tile_width=None, tile_height=None, default_tile=0, x=0, y=0
    ):
        if not isinstance(pixel_shader, (Palette, ColorConverter)):
            raise TypeError("unsupported pixel_shader type")
        self._init_layer(x, y)
        self.bitmap = bitmap
        self.pixel_shader = pixel_shader
        self.width = _int("width", width)
        self.height = _int("height", height)
        self.tile_width = bitmap.width if tile_width is None else _int("tile_width", tile_width)
        self.tile_height = bitmap.height if tile_height is None else _int("tile_height", tile_height)
        if bitmap.width % self.tile_width or bitmap.height % self.tile_height:
            raise ValueError("Tile width must exactly divide bitmap width")
        self._tiles = [default_tile] * (width * height)
        self.flip_x = False
        self.flip_y = False
        self.transpose_xy = False
        bind = getattr(pixel_shader, "_bind", None)  # a tilepalettemapper's
        if bind is not None:
            bind(self)

    def __getitem__(self, i):
        if isinstance(i, tuple):
            i = i[1] * self.width + i[0]
        return self._tiles[i]

    def __setitem__(self, i, tile):
        if isinstance(i, tuple):
            i = i[1] * self.width + i[0]
        self._tiles[i] = tile


def release_displays():
    w = fakeworld.world()
    for d in w.displays:
        d._released = True
    del w.displays[:]
    for bus in w.display_buses:
        bus.deinit()
    del w.display_buses[:]


# CircuitPython's rules for native types (no __init__ attribute, no new attributes)
import native_types  # noqa: E402

native_types.seal_module(__import__(__name__), native_types.NATIVE["displayio"])

CIRCUITPYTHON_TERMINAL = Group()
