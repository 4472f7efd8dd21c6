"""Browser only: ``displayio`` for the page (web/index.html), under MicroPython in WebAssembly.

The screens of lib/referee and games build their groups here exactly as on the box
(CircuitPython's displayio) and in the window (Blinka's). ``scene(root)`` walks the
tree and writes it as a flat list of draw commands -- rectangles, circles, polygons
and tile grids over bitmaps -- that web/box.js rasterises into the 320x240
framebuffer and blits to the canvas. JavaScript draws a screen in about a
millisecond; the same work in the VM's Python would take about ten times that
(measured: docs/browser.md). A bitmap's pixels stay in the Python heap: a tile
grid's command gives their address, and JavaScript reads them there.

``changes()`` counts every change to any object, so the page redraws only after one.
Only what the project's screens use is here (a ``Palette`` shader, bitmaps of up to
256 values).
"""

import array

from web_mem import address

_changed = [0]

RECT = 1
CIRCLE = 2
POLYGON = 3
TILES = 4
CLEAR = -1  # a transparent colour in a command


def changes():
    """How many changes the display objects have had: a new value means redraw."""
    return _changed[0]


def changed():
    _changed[0] += 1


def release_displays():
    pass


def _kept(name):
    # a property kept in ``_name``; setting it is a change
    key = "_" + name

    def get(self):
        return getattr(self, key)

    def put(self, value):
        setattr(self, key, value)
        _changed[0] += 1

    return property(get, put)


class Layer:
    """What a group holds: a position, ``hidden``, and at most one group."""

    x = _kept("x")
    y = _kept("y")
    hidden = _kept("hidden")

    def __init__(self, x, y):
        self._x = x
        self._y = y
        self._hidden = False
        self.in_group = None
        changed()


class Group(Layer):
    scale = _kept("scale")

    def __init__(self, *, scale=1, x=0, y=0):
        super().__init__(x, y)
        if scale < 1:
            raise ValueError("scale must be >= 1")
        self._scale = scale
        self._items = []

    def _adopt(self, layer):
        if layer.in_group is not None:
            raise ValueError("Layer already in a group")
        layer.in_group = self
        changed()

    def append(self, layer):
        self._adopt(layer)
        self._items.append(layer)

    def insert(self, index, layer):
        self._adopt(layer)
        self._items.insert(index, layer)

    def remove(self, layer):
        self._items.remove(layer)
        layer.in_group = None
        changed()

    def pop(self, index=-1):
        layer = self._items.pop(index)
        layer.in_group = None
        changed()
        return layer

    def index(self, layer):
        return self._items.index(layer)

    def __len__(self):
        return len(self._items)

    def __bool__(self):
        return True

    def __iter__(self):
        return iter(self._items)

    def __contains__(self, layer):
        return layer in self._items

    def __getitem__(self, index):
        return self._items[index]

    def __setitem__(self, index, layer):
        old = self._items[index]
        if layer is not old:
            self._adopt(layer)
            old.in_group = None
        self._items[index] = layer

    def __delitem__(self, index):
        self.pop(index)


class Palette:
    def __init__(self, color_count, *, dither=False):
        self._rgb = [0] * color_count
        self._clear = [False] * color_count
        self.dither = dither
        changed()

    def __len__(self):
        return len(self._rgb)

    def __getitem__(self, index):
        return self._rgb[index]

    def __setitem__(self, index, color):
        if not isinstance(color, int):  # (r, g, b) or bytes
            color = color[0] << 16 | color[1] << 8 | color[2]
        if color < 0 or color > 0xFFFFFF:
            raise ValueError("color must be 0x000000..0xFFFFFF")
        self._rgb[index] = color
        changed()

    def make_transparent(self, index):
        self._clear[index] = True
        changed()

    def make_opaque(self, index):
        self._clear[index] = False
        changed()

    def is_transparent(self, index):
        return self._clear[index]

    def colors(self):
        """The colours as a command gives them (CLEAR where transparent)."""
        return [CLEAR if k else c for c, k in zip(self._rgb, self._clear)]


class Bitmap:
    """One byte a pixel, row by row, in the Python heap (the page reads it there)."""

    def __init__(self, width, height, value_count):
        if not 1 <= value_count <= 256:
            raise ValueError("the browser's Bitmap holds 1..256 values")
        self.width = width
        self.height = height
        self._top = value_count - 1
        self.data = bytearray(width * height)
        changed()

    def _at(self, index):
        if isinstance(index, tuple):
            x, y = index
            if x < 0 or y < 0 or x >= self.width or y >= self.height:
                raise IndexError("pixel out of range")
            return y * self.width + x
        return index

    def __getitem__(self, index):
        return self.data[self._at(index)]

    def __setitem__(self, index, value):
        if value < 0 or value > self._top:
            raise ValueError("value out of range")
        self.data[self._at(index)] = value
        _changed[0] += 1

    def fill(self, value):
        self.data[:] = bytes((value,)) * len(self.data)
        changed()

    @property
    def bits_per_value(self):
        """As the firmware's: 1, 2, 4 or 8 (what ``bitmaptools.fill_region`` checks a value against)."""
        bits = 1
        while self._top >> bits:
            bits *= 2
        return bits

    def _fill_region(self, x1, y1, x2, y2, value):
        # bitmaptools.fill_region (tools/pico_fakes/bitmaptools.py), once it has checked the call
        run = bytes((value,)) * (x2 - x1)
        w = self.width
        for row in range(y1 * w, y2 * w, w):
            self.data[row + x1:row + x2] = run
        changed()

    def dirty(self, x1=0, y1=0, x2=-1, y2=-1):
        changed()


class TileGrid(Layer):
    bitmap = _kept("bitmap")
    pixel_shader = _kept("pixel_shader")

    def __init__(self, bitmap, *, pixel_shader, width=1, height=1, tile_width=None, tile_height=None,
                 default_tile=0, x=0, y=0):
        super().__init__(x, y)
        self._bitmap = bitmap
        self._pixel_shader = pixel_shader
        self.width = width
        self.height = height
        self.tile_width = bitmap.width if tile_width is None else tile_width
        self.tile_height = bitmap.height if tile_height is None else tile_height
        self.tiles = array.array("H", [default_tile] * (width * height))

    def _cell(self, index):
        if isinstance(index, tuple):
            return index[1] * self.width + index[0]
        return index

    def __getitem__(self, index):
        return self.tiles[self._cell(index)]

    def __setitem__(self, index, tile):
        self.tiles[self._cell(index)] = tile
        _changed[0] += 1


def _draw(layer, ox, oy, scale, out):
    # one layer and what it holds, at (ox, oy) in screen pixels, ``scale`` times
    if layer._hidden:
        return
    x = ox + layer._x * scale
    y = oy + layer._y * scale
    if isinstance(layer, Group):
        s = scale * layer._scale
        for item in layer._items:
            _draw(item, x, y, s, out)
    elif isinstance(layer, TileGrid):
        bm = layer._bitmap
        out += (TILES, x, y, scale, layer.width, layer.height, layer.tile_width, layer.tile_height,
                address(bm.data), bm.width, bm.height)
        colors = layer._pixel_shader.colors()
        out.append(len(colors))
        out += colors
        out += layer.tiles
    else:  # a vectorio shape
        layer.command(x, y, scale, out)


_scene = [None]  # the last command list: JavaScript reads it until the next one


def scene(root):
    """(address, length) of the draw commands for ``root`` (None: a black screen)."""
    out = []
    if root is not None:
        _draw(root, 0, 0, 1, out)
    cmds = array.array("i", out)
    _scene[0] = cmds
    return address(cmds), len(cmds)
