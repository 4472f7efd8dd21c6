"""The simulator's speed-ups keep what they replace: pc/fast_displayio.py's tile and colour
and pixel writes leave Blinka's state exactly as Blinka's own methods do (and raise as
they do), and
pc/code_cache.py gives an import the code a compilation of the same bytes gives."""

import random
import sys

import displayio
from displayio._bitmap import Bitmap
from displayio._palette import Palette
from displayio._tilegrid import TileGrid

from hardware import sim  # noqa: F401  (installs both)
from pc import code_cache, fast_displayio

BLINKA = fast_displayio._BLINKA


def _state(grid):
    d = grid._dirty_area
    return (bytes(grid._tiles), (d.x1, d.y1, d.x2, d.y2), grid._partial_change, grid._needs_refresh)


def _grids(w, h, tw=6, th=12, tiles=95):
    sheet = displayio.Bitmap(tw * tiles, th, 2)
    pal = displayio.Palette(2)
    return [displayio.TileGrid(sheet, pixel_shader=pal, width=w, height=h, tile_width=tw, tile_height=th,
                               default_tile=3) for _ in range(2)]


def _outcome(f, *args):
    try:
        return ("ok", f(*args))
    except Exception as e:  # noqa: BLE001  (the kind and message are compared)
        return (type(e).__name__, str(e))


def _index(rng, w, h):
    k = rng.random()
    if k < 0.45:
        return (rng.randrange(-1, w + 2), rng.randrange(-1, h + 2))
    if k < 0.85:
        return rng.randrange(-2, w * h + 3)
    return rng.choice([[1, 0], (0, 0, 1), (0,), 1.0, (True, 0), None])


def test_tile_reads_and_writes_leave_blinka_s_state_and_raise_as_it_does():
    rng = random.Random(27)
    for w, h in ((1, 1), (4, 1), (13, 3), (26, 2)):
        fast, ref = _grids(w, h)
        for step in range(1500):
            if rng.random() < 0.02:  # a refresh recorded the changes: the next starts an area
                fast._partial_change = ref._partial_change = False
                fast._needs_refresh = ref._needs_refresh = False
            if rng.random() < 0.01:
                fast._top_left_x = ref._top_left_x = rng.randrange(w)
                fast._top_left_y = ref._top_left_y = rng.randrange(h)
            i = _index(rng, w, h)
            if rng.random() < 0.5:
                got = _outcome(TileGrid.__getitem__, fast, i)  # the installed ones
                assert got == _outcome(BLINKA[TileGrid, "__getitem__"], ref, i), (w, h, step, i)
            else:
                v = rng.choice([0, 1, 5, 94, 255, 256, -1, True])
                got = _outcome(TileGrid.__setitem__, fast, i, v)
                assert got == _outcome(BLINKA[TileGrid, "__setitem__"], ref, i, v), (w, h, step, i, v)
            assert _state(fast) == _state(ref), (w, h, step, i)


def _colours(pal):
    return [(c.rgb888, c.cached_colorspace, c.transparent) for c in pal._colors] + [pal._needs_refresh]


def test_colour_writes_leave_blinka_s_state_and_raise_as_they_do():
    rng = random.Random(5)
    fast, ref = displayio.Palette(4), displayio.Palette(4)
    marker = object()
    for step in range(800):
        if rng.random() < 0.1:  # a refresh converted the colours and took note
            fast._needs_refresh = ref._needs_refresh = False
            for c in fast._colors + ref._colors:
                c.cached_colorspace = marker
        i = rng.randrange(-5, 6)
        v = rng.choice([0, 0xFFFFFF, 0x123456, 0x1000000, -1, (1, 2, 3), b"\x01\x02\x03", 0x00FF00, True, "x"])
        got = _outcome(Palette.__setitem__, fast, i, v)
        assert got == _outcome(BLINKA[Palette, "__setitem__"], ref, i, v), (step, i, v)
        assert _colours(fast) == _colours(ref), (step, i, v)


def _pixels(bm):
    d = bm._dirty_area
    return (bytes(bm._data), (d.x1, d.y1, d.x2, d.y2))


def test_pixel_writes_leave_blinka_s_state_and_raise_as_they_do():
    rng = random.Random(8)
    for w, h, n in ((40, 5, 4), (33, 7, 2), (9, 9, 16), (8, 3, 256)):
        fast, ref = displayio.Bitmap(w, h, n), displayio.Bitmap(w, h, n)
        for step in range(1500):
            if rng.random() < 0.03:  # a refresh drew it: the next write starts a dirty area
                fast._finish_refresh()
                ref._finish_refresh()
            k = rng.random()
            if k < 0.8:
                i = (rng.randrange(-1, w + 2), rng.randrange(-1, h + 2))
            else:
                i = rng.choice([rng.randrange(-2, w * h + 3), [1, 2], (1.0, 0), (2, 1, 0)])
            v = rng.choice([0, 1, n - 1, n, -1, 3, True])
            got = _outcome(Bitmap.__setitem__, fast, i, v)  # the installed one
            assert got == _outcome(BLINKA[Bitmap, "__setitem__"], ref, i, v), (w, h, n, step, i, v)
            assert _pixels(fast) == _pixels(ref), (w, h, n, step, i, v)


def test_region_fills_leave_blinka_s_state_and_raise_or_clip_as_it_does():
    # bitmaptools.fill_region: the same words and dirty area as Blinka's own, for the
    # tests' stand-in (a subclass: Blinka writes pixel by pixel) and Blinka's Bitmap
    # itself (Blinka writes through _write_pixel), 1 to 16 bits a value, rectangles
    # inside, empty, reaching off the bitmap (Blinka clips) and bad values
    import bitmaptools

    rng = random.Random(11)
    for make in (displayio.Bitmap, Bitmap):
        for w, h, n in ((40, 5, 4), (33, 7, 2), (9, 9, 16), (70, 3, 3), (1, 1, 2), (8, 3, 256), (5, 2, 300)):
            fast, ref = make(w, h, n), make(w, h, n)
            for step in range(400):
                if rng.random() < 0.1:  # a refresh drew it: the next fill starts a dirty area
                    fast._finish_refresh()
                    ref._finish_refresh()
                x1, x2 = sorted((rng.randrange(w + 1), rng.randrange(w + 1)))
                y1, y2 = sorted((rng.randrange(h + 1), rng.randrange(h + 1)))
                k = rng.random()
                if k < 0.1:
                    x1, y1, x2, y2 = x1 - rng.randrange(3), y1, x2 + rng.randrange(3), y2 + rng.randrange(2)
                elif k < 0.15:
                    x1, y2 = rng.choice([(1.0, y2), (True, y2), (x1, None), (x2, y2)])
                v = rng.randrange(n) if rng.random() < 0.85 else rng.choice([n, -1, 2 ** 8, 1.0, True])
                got = _outcome(bitmaptools.fill_region, fast, x1, y1, x2, y2, v)  # the installed one
                want = _outcome(BLINKA[bitmaptools, "fill_region"], ref, x1, y1, x2, y2, v)
                assert got == want, (make, w, h, n, step, (x1, y1, x2, y2, v))
                assert _pixels(fast) == _pixels(ref), (make, w, h, n, step, (x1, y1, x2, y2, v))


def _areas(shape):
    def box(a):
        return (a.x1, a.y1, a.x2, a.y2)

    return (box(shape._current_area), [box(a) for a in shape._pending_dirty_areas], shape._hidden,
            shape._x, shape._y)


def test_shape_changes_leave_blinka_s_dirty_areas():
    # a vectorio shape moved, shown, hidden or resized: the same current and pending
    # dirty areas as Blinka's own _shape_set_dirty, at any place, size and transform
    import vectorio
    from displayio._structs import TransformStruct
    from vectorio._vectorshape import _VectorShape

    rng = random.Random(9)
    blinka = BLINKA[_VectorShape, "_shape_set_dirty"]
    pal = displayio.Palette(1)
    for kind in ("rect", "circle", "polygon"):
        for step in range(300):
            pair = []
            for _ in range(2):
                if kind == "rect":
                    pair.append(vectorio.Rectangle(pixel_shader=pal, width=7, height=3, x=5, y=-2))
                elif kind == "circle":
                    pair.append(vectorio.Circle(pixel_shader=pal, radius=4, x=9, y=9))
                else:
                    pair.append(vectorio.Polygon(pixel_shader=pal, points=[(0, 0), (9, 2), (3, 8)], x=1, y=2))
            fast, ref = pair
            t = TransformStruct(x=rng.randrange(-5, 40), y=rng.randrange(-5, 40), dx=rng.choice([1, 2, -1]),
                                dy=rng.choice([1, 3, -1]), transpose_xy=rng.random() < 0.2)
            fast._absolute_transform = ref._absolute_transform = t
            x, y = rng.randrange(-20, 300), rng.randrange(-20, 200)
            for shape in pair:
                shape.x = x
                shape.y = y
            fast.hidden = ref.hidden = rng.random() < 0.5
            fast._shape_set_dirty()  # the installed one
            blinka(ref)
            assert _areas(fast) == _areas(ref), (kind, step)


def test_the_tests_stand_ins_keep_their_watch_on_the_fast_writes():
    # tests/fakes/native_types.py's TileGrid notes a write of the tile already there,
    # and its write is the installed one
    from fakes import native_types

    fast, _ = _grids(3, 1)
    assert type(fast) is not TileGrid and isinstance(fast, TileGrid)
    del native_types.WASTED[:]
    fast[1] = 3
    fast[1] = 7
    assert native_types.WASTED == ["TileGrid[]"] and fast[1] == 7 and fast._tiles[1] == 7


def test_an_import_gets_the_code_compiled_once_for_the_same_bytes():
    import games

    loader = type("L", (code_cache.SourceFileLoader,), {})("m", "x.py")
    path = code_cache._ROOT + "games/not_a_file.py"
    a = loader.source_to_code(b"X = 1\n", path)
    assert loader.source_to_code(b"X = 1\n", path) is a
    b = loader.source_to_code(b"X = 2\n", path)  # the file changed: compiled anew
    assert b is not a and eval(b, {}) is None
    outside = "/elsewhere/m.py"
    assert loader.source_to_code(b"X = 1\n", outside) is not loader.source_to_code(b"X = 1\n", outside)

    first = games.load("zilch")
    code = first.Game.tick.__code__
    games.unload()
    second = games.load("zilch")
    assert second is not first and second.Game is not first.Game  # a fresh module, run again
    if sys.dont_write_bytecode:  # (else Python reads both from the .pyc)
        assert second.Game.tick.__code__ is code  # from the code compiled for the first
    games.unload()
