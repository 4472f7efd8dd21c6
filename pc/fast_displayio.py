"""PC only: Blinka's displayio with its hottest calls made cheap, their meaning kept.

A simulated match spends much of its time in the screen's writes: every cell a
``referee.screen.Text`` draws reads a ``TileGrid`` tile and may write one, every
``Die.show`` writes its palette's four colours, and a game's sprite sheets are drawn
with ``bitmaptools.fill_region`` when it is loaded. Blinka's tile access checks the
index through two helper calls and grows the grid's dirty area with an ``Area`` made
per write; its ``Palette.__setitem__`` converts the colour through two more calls, its
``Bitmap.__setitem__`` writes a pixel through another, its ``fill_region`` writes a
rectangle pixel by pixel (a call each); a vectorio shape moved, shown
or hidden works out its screen area through four (``_shape_set_dirty``). ``install()``
swaps in the same operations written out inline, on Blinka's own classes (their types
kept: Blinka's renderer picks its fast pixel loops by exact type), for the cases the
box uses: an ``(x, y)`` tuple or an ``int`` index inside the grid or bitmap, an ``int``
colour or value, a rectangle inside a bitmap of fewer than 8 bits a value, a shape
neither transposed nor mirrored. Anything else (a list index, an index outside, a
colour given as bytes or a tuple, a bad value, a rectangle reaching off the bitmap, a
rotated display) goes to Blinka's own method or function, which raises (or, for
``fill_region``, clips: the firmware raises there, and the fakes of tools/pico_fakes
and tests/fakes do too) as before. The state left behind is Blinka's
to the attribute: the tiles, the dirty areas, ``_partial_change`` and
``_needs_refresh``, a colour's cached conversion dropped, a bitmap's words, a shape's
current and pending dirty areas; so a later refresh draws exactly what Blinka's methods would have had it draw.
"""

from array import array

import bitmaptools  # Blinka's
from displayio._area import Area
from displayio._bitmap import Bitmap
from displayio._palette import Palette  # Blinka's own classes (the tests' stand-ins for
from displayio._tilegrid import TileGrid  # native types subclass them: tests/fakes/native_types.py)
from vectorio._vectorshape import _VectorShape

_BLINKA = {}  # (class, name) -> Blinka's own method


def _get_tile(self, index):
    # Blinka's TileGrid.__getitem__ for an index inside the grid
    if type(index) is tuple and len(index) == 2:
        x, y = index
        w = self._width_in_tiles
        if 0 <= x < w and 0 <= y < self._height_in_tiles:
            return self._tiles[y * w + x]
    elif type(index) is int and 0 <= index < len(self._tiles):
        return self._tiles[index]
    return _BLINKA[TileGrid, "__getitem__"](self, index)


def _set_tile(self, index, value):
    # Blinka's TileGrid.__setitem__, then its _set_tile(x, y, value), for an index inside
    # the grid and a tile 0..255: the tile's box (in the grid's own pixels) joins the
    # dirty area, or is it, if no change was recorded since the last refresh
    w = self._width_in_tiles
    h = self._height_in_tiles
    if type(index) is tuple and len(index) == 2:
        x, y = index
    elif type(index) is int:
        x = index % w
        y = index // w
    else:
        x = y = -1
    if not (0 <= x < w and 0 <= y < h and type(value) is int and 0 <= value <= 255):
        _BLINKA[TileGrid, "__setitem__"](self, index, value)
        return
    self._needs_refresh = True
    self._tiles[y * w + x] = value
    tw = self._tile_width
    th = self._tile_height
    x1 = ((x - self._top_left_x) % w) * tw
    y1 = ((y - self._top_left_y) % h) * th
    x2 = x1 + tw
    y2 = y1 + th
    d = self._dirty_area
    if self._partial_change and d.x1 != d.x2 and d.y1 != d.y2:  # Area.union with a non-empty area
        if x1 > d.x1:
            x1 = d.x1
        if y1 > d.y1:
            y1 = d.y1
        if x2 < d.x2:
            x2 = d.x2
        if y2 < d.y2:
            y2 = d.y2
    d.x1 = x1
    d.y1 = y1
    d.x2 = x2
    d.y2 = y2
    self._partial_change = True


def _set_color(self, index, value):
    if type(value) is not int or not 0 <= value <= 0xFFFFFF:
        _BLINKA[Palette, "__setitem__"](self, index, value)
        return
    c = self._colors[index]
    if c.rgb888 != value:
        c.rgb888 = value
        c.cached_colorspace = None
        self._needs_refresh = True


def _set_pixel(self, index, value):
    # Blinka's Bitmap.__setitem__, then its _write_pixel, for an (x, y) inside a
    # writable bitmap of fewer than 8 bits a value (a die's sprite sheet) and an int
    bits = self._bits_per_value
    if type(index) is tuple and len(index) == 2 and type(value) is int and bits < 8 and not self._read_only:
        x, y = index
        if type(x) is int and type(y) is int and 0 <= x < self._bmp_width and 0 <= y < self._bmp_height:
            shift = 32 - ((x & self._x_mask) + 1) * bits
            i = y * self._stride + (x >> self._x_shift)
            mask = self._bitmask
            data = self._data
            data[i] = (data[i] & ~(mask << shift)) | ((value & mask) << shift)
            d = self._dirty_area
            if not (d.x1 <= x < d.x2 and d.y1 <= y < d.y2):
                self._set_dirty_area(Area(x, y, x + 1, y + 1))
            return
    _BLINKA[Bitmap, "__setitem__"](self, index, value)


def _fill_region(dest_bitmap, x1, y1, x2, y2, value):
    # Blinka's bitmaptools.fill_region for a rectangle inside a writable bitmap of fewer
    # than 8 bits a value whose pixel writes are Blinka's (a sprite sheet) and a value
    # that fits: each row's words written whole where the rectangle covers them, masked
    # at its two ends (Blinka writes pixel by pixel), and the dirty area grown once
    b = dest_bitmap
    if not (isinstance(b, Bitmap) and type(b).__setitem__ is Bitmap.__setitem__ and b._bits_per_value < 8
            and b._data_alloc and not b._read_only and type(value) is int and 0 <= value <= b._bitmask
            and type(x1) is int and type(y1) is int and type(x2) is int and type(y2) is int
            and 0 <= x1 < x2 <= b._bmp_width and 0 <= y1 < y2 <= b._bmp_height):
        _BLINKA[bitmaptools, "fill_region"](dest_bitmap, x1, y1, x2, y2, value)
        return
    bits = b._bits_per_value
    word = value * (0xFFFFFFFF // b._bitmask)  # the value in every slot of a word
    # a word's pixel p (x & _x_mask) is its bits 32 - (p + 1) * bits and up
    first = x1 >> b._x_shift
    last = (x2 - 1) >> b._x_shift
    head = 0xFFFFFFFF >> ((x1 & b._x_mask) * bits)  # the first word's slots from x1 on
    tail = (0xFFFFFFFF << (32 - (((x2 - 1) & b._x_mask) + 1) * bits)) & 0xFFFFFFFF  # the last's to x2
    if first == last:
        head &= tail
    n = last - first - 1  # whole words between
    whole = array(b._data.typecode, (word,)) * n if n > 0 else None
    data = b._data
    stride = b._stride
    for row in range(y1 * stride, y2 * stride, stride):
        i = row + first
        data[i] = (data[i] & ~head) | (word & head)
        if first != last:
            if whole is not None:
                data[i + 1:i + 1 + n] = whole
            i = row + last
            data[i] = (data[i] & ~tail) | (word & tail)
    d = b._dirty_area
    if not (d.x1 <= x1 and x2 <= d.x2 and d.y1 <= y1 and y2 <= d.y2):
        b._set_dirty_area(Area(x1, y1, x2, y2))


def _shape_set_dirty(self):
    # vectorio's _VectorShape._shape_set_dirty (a shape moved, shown, hidden or resized)
    # for a shape not transposed or mirrored (dx, dy >= 1): its area from the shape's own
    # _get_area, put in canonical form and shifted to the screen (_get_screen_area's
    # canon() and shift() written out), becomes the current area and a pending dirty one
    t = self._absolute_transform
    if t.transpose_xy or t.dx < 1 or t.dy < 1:
        _BLINKA[_VectorShape, "_shape_set_dirty"](self)
        return
    a = Area()
    self._get_area(a)
    x = t.x + t.dx * self._x
    y = t.y + t.dy * self._y
    x1 = a.x1
    x2 = a.x2
    if x1 > x2:
        x1, x2 = x2, x1
    y1 = a.y1
    y2 = a.y2
    if y1 > y2:
        y1, y2 = y2, y1
    a.x1 = c_x1 = x1 + x
    a.x2 = c_x2 = x2 + x
    a.y1 = c_y1 = y1 + y
    a.y2 = c_y2 = y2 + y
    c = self._current_area
    c.x1 = c_x1
    c.y1 = c_y1
    c.x2 = c_x2
    c.y2 = c_y2
    self._pending_dirty_areas.append(a)


_FAST = ((TileGrid, "__getitem__", _get_tile), (TileGrid, "__setitem__", _set_tile),
         (Palette, "__setitem__", _set_color), (Bitmap, "__setitem__", _set_pixel),
         (_VectorShape, "_shape_set_dirty", _shape_set_dirty), (bitmaptools, "fill_region", _fill_region))


def install():
    """Idempotent: Blinka's ``TileGrid`` item access, ``Palette`` and ``Bitmap`` item
    writes, vectorio's ``_shape_set_dirty`` and ``bitmaptools.fill_region`` become the
    fast ones above."""
    for cls, name, fast in _FAST:
        if (cls, name) not in _BLINKA:
            _BLINKA[cls, name] = getattr(cls, name)
            setattr(cls, name, fast)
