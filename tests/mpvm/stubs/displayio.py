"""Stand-in for CircuitPython's ``displayio`` inside the MicroPython VM (tests only).

It keeps the object tree and the attributes the portable screen code sets, and checks
what the real module checks cheaply (a layer is in one group at most, indexes in range);
it draws nothing. Rendering is tested on CPython with the real Blinka displayio.
"""


def release_displays():
    pass


class _Layer:
    """x, y, hidden, and the one-group-at-most rule of every displayio layer."""

    _owner = None

    def __init__(self, x=0, y=0):
        self.x = x
        self.y = y
        self.hidden = False


class Group(_Layer):
    def __init__(self, *, scale=1, x=0, y=0):
        super().__init__(x, y)
        if scale < 1:
            raise ValueError("scale must be >= 1")
        self.scale = scale
        self._layers = []

    def _take(self, layer):
        if getattr(layer, "_owner", None) is not None:
            raise ValueError("Layer already in a group")
        layer._owner = self

    def append(self, layer):
        self._take(layer)
        self._layers.append(layer)

    def insert(self, index, layer):
        self._take(layer)
        self._layers.insert(index, layer)

    def index(self, layer):
        return self._layers.index(layer)

    def remove(self, layer):
        self._layers.remove(layer)
        layer._owner = None

    def pop(self, i=-1):
        layer = self._layers.pop(i)
        layer._owner = None
        return layer

    def sort(self, key=None, reverse=False):
        self._layers.sort(key=key, reverse=reverse)

    def __len__(self):
        return len(self._layers)

    def __bool__(self):
        return True

    def __getitem__(self, index):
        return self._layers[index]

    def __setitem__(self, index, layer):
        old = self._layers[index]
        if layer is not old:
            self._take(layer)
            old._owner = None
        self._layers[index] = layer

    def __delitem__(self, index):
        self.pop(index)

    def __iter__(self):
        return iter(self._layers)

    def __contains__(self, layer):
        return layer in self._layers


class Palette:
    def __init__(self, color_count, *, dither=False):
        self._colors = [0] * color_count
        self._transparent = [False] * color_count
        self.dither = dither

    def __len__(self):
        return len(self._colors)

    def __setitem__(self, index, color):
        if isinstance(color, (bytes, bytearray, tuple, list)):
            color = (color[0] << 16) | (color[1] << 8) | color[2]
        if not 0 <= color <= 0xFFFFFF:
            raise ValueError("color must be 0x000000..0xFFFFFF")
        self._colors[index] = color

    def __getitem__(self, index):
        return self._colors[index]

    def make_transparent(self, index):
        self._transparent[index] = True

    def make_opaque(self, index):
        self._transparent[index] = False

    def is_transparent(self, index):
        return self._transparent[index]


class Bitmap:
    def __init__(self, width, height, value_count):
        if value_count < 1 or value_count > 65536:
            raise ValueError("value_count must be 1..65536")
        self.width = width
        self.height = height
        self._max = value_count - 1
        self._data = bytearray(width * height) if value_count <= 256 else [0] * (width * height)

    def _offset(self, index):
        if isinstance(index, tuple):
            x, y = index
            if not (0 <= x < self.width and 0 <= y < self.height):
                raise IndexError("pixel out of range")
            return y * self.width + x
        return index

    def __getitem__(self, index):
        return self._data[self._offset(index)]

    def __setitem__(self, index, value):
        if not 0 <= value <= self._max:
            raise ValueError("value out of range")
        self._data[self._offset(index)] = value

    def fill(self, value):
        for i in range(len(self._data)):
            self._data[i] = value

    def dirty(self, x1=0, y1=0, x2=-1, y2=-1):
        pass


class ColorConverter:
    def __init__(self, *, input_colorspace=None, dither=False):
        self.dither = dither

    def convert(self, color):
        return color


class TileGrid(_Layer):
    def __init__(self, bitmap, *, pixel_shader, width=1, height=1, tile_width=None,
                 tile_height=None, default_tile=0, x=0, y=0):
        super().__init__(x, y)
        self.bitmap = bitmap
        self.pixel_shader = pixel_shader
        self.width = width
        self.height = height
        self.tile_width = bitmap.width if tile_width is None else tile_width
        self.tile_height = bitmap.height if tile_height is None else tile_height
        self.flip_x = False
        self.flip_y = False
        self.transpose_xy = False
        self._tiles = [default_tile] * (width * height)

    def __getitem__(self, index):
        if isinstance(index, tuple):
            index = index[1] * self.width + index[0]
        return self._tiles[index]

    def __setitem__(self, index, tile):
        if isinstance(index, tuple):
            index = index[1] * self.width + index[0]
        self._tiles[index] = tile
