"""Paced screen changes: a change of most of the screen drawn over several short refreshes.

On the firmware one display refresh redraws every area changed since the last one, and
it costs about 0.7 µs a pixel plus 2-5 µs a pixel for every layer over it (a shape, a
text: docs/firmware.md, "Loop pass times"). A new phase's screen made in one loop pass
was redrawn in one refresh of 0.3-1 s, and the box did nothing else meanwhile.

While pacing is on (``start``: the device, during a match) a ``screen.Text``'s new text or
colour, a ``die.Die``'s new look, a layer's show or hide (``screen.set_shown``) and a banded
background's colour (``referee.bands``) wait in a queue, in the order they were made, and ``step()``, which the device
calls before each refresh, draws them until about ``FRAME_PX`` pixels are redrawn; a
Text's cells are drawn a few at a time. Game code sees every value at once (``.text``,
``.color``, ``shown()``); the screen catches up within a few passes. ``flush()`` draws
everything now (the device, when a race's stimulus still changes 0.5 s after the light
was asked for; else the light waits for the queue to empty: hardware/device.py).

Writes outside these helpers (a Group's ``x``, ``scale``, a palette written directly) are
drawn at the next refresh whole: screens avoid them in a match, or keep them small.
"""

from referee import screen
from referee.core import const

FRAME_PX = const(1500)  # about 8-16 ms of refresh, by the figures above
_queue = []  # Texts, dice and bands with something to draw, [layer, shown, colour, (x, y)] changes
_out = 0  # changes taken out of the queue so far (mark)
_touched = 0  # pixels written outside the queue since the last step (touch)
# id(layer) -> its last [layer, ...] change or (group, kids) in the queue: a scan of the
# queue was ~45 µs an item on the firmware, and a turn's screen asks about every layer
_last = {}


def _put(e):
    _queue.append(e)
    _last[id(e[0])] = e


def _done(e):
    # e (a layer's change, or a group's tuple) left the queue
    i = id(e[0])
    if _last.get(i) is e:
        del _last[i]


def start():
    """Pace the screen's changes from now on."""
    from referee import pace

    screen.paced = pace


def stop():
    """Draw what waits and make changes at once again."""
    flush()
    screen.paced = None


def pending():
    """True while changes wait to be drawn (or were written outside the queue: touch)."""
    return bool(_queue) or _touched > 0


def touch(px):
    """``px`` pixels were written outside the queue, by a screen that draws a part of its
    own a pass (Lightning Dice's rolls, a few dice a pass): the next step counts them
    against its budget, and ``pending()`` asks for it, so the device refreshes them in
    this pass, not at its next frame (two passes' parts in one refresh were 12-17 ms)."""
    global _touched
    _touched += px


def _spread(e, layer, show, k):
    # The change e (first in the queue) of a big group, as a change of each of its shown
    # layers. Shown: its shown layers are hidden (free while it is), it is shown, then
    # each of them at its turn. Hidden: each of its shown layers, then it (a tuple).
    # Its layers' pixels are counted at its scale (k: a text's grid at scale 2, four times).
    kids = [c for c in layer if not c.hidden]
    if show:
        for c in kids:
            c.hidden = True
        layer.hidden = False
        new = [[c, True, None, None, k] for c in kids]
    else:
        new = [[c, False, None, None, k] for c in kids] + [(layer, kids)]
    global _out
    _queue[0:1] = new
    _out -= len(new) - 1  # (the change they replace leaves the queue with the last of them)
    _done(e)
    for n in new:  # (the group's tuple too; a layer with a later change keeps that one)
        i = id(n[0])
        if i not in _last:
            _last[i] = n


def step(budget_px=FRAME_PX, big=True):
    """Draw the oldest changes, about ``budget_px`` pixels of them (a change bigger than
    that is drawn alone, unless ``big`` is False: then it waits for a later step); returns
    the pixels drawn (an estimate, with those written outside the queue: touch)."""
    global _touched
    spent = _touched
    _touched = 0
    q = _queue
    while q and spent < budget_px:
        e = q[0]
        if type(e) is tuple:  # a big group hidden a layer at a time: now the group itself,
            layer, kids = e  # and its layers shown again (free: hidden with it)
            layer.hidden = True
            for k in kids:
                k.hidden = False
            _done(_take(q))
        elif type(e) is list:
            layer = e[0]
            show = e[1]
            color = e[2]
            to = e[3]  # a move's (x, y)
            k = e[4] if len(e) > 4 else 1  # a big group's layer: the group's scale, squared
            # The firmware redraws the box a shape leaves and the one it takes when its y
            # is written, hidden or not (vectorio's VectorShape.c: four bar parts moved
            # while hidden were one 100 ms refresh under a menu). So a layer is moved only
            # at the turn it is shown (both boxes counted); one that stays hidden stays
            # where it is (whoever shows it moves it first: ``move`` starts from there).
            moving = show and to is not None and (layer.x != to[0] or layer.y != to[1])
            px = -1  # its area, once (a group's is a walk of its layers: ~30 µs a call on the
            # box, stopped once it is more than the step's budget)
            if show == layer.hidden and color is None and not moving and isinstance(layer, screen.displayio.Group):
                px = area(layer, budget_px // k + 1) * k
                if px > budget_px:  # a big group shown or hidden a layer at a time (_spread)
                    _spread(e, layer, show, k * layer.scale * layer.scale)
                    continue
            recolor = color is not None and layer.pixel_shader[0] != color
            if moving or recolor or layer.hidden == show:
                if px < 0:
                    px = area(layer) * k * (2 if moving else 1)
                if (spent or not big) and spent + px > budget_px:
                    break  # a whole layer that does not fit: the next step's
                if moving:
                    layer.x = to[0]
                    layer.y = to[1]
                if recolor:
                    layer.pixel_shader[0] = color
                if layer.hidden == show:
                    layer.hidden = not show
                spent += px
            _done(_take(q))
        else:
            spent += e._draw(budget_px - spent, big and not spent)
            if e._todo:
                break  # part drawn: the rest at the next step
            _take(q)
    return spent


def mark():
    """A mark after every change waiting now: ``reached(mark)`` is True once they are all
    drawn (changes queued later do not hold it back; a change waiting already and made
    again is drawn in its place, before the mark)."""
    return _out + len(_queue)


def reached(m):
    """True once the changes waiting at ``mark()`` are all drawn."""
    return _out >= m


def _take(q):
    # the first change leaves the queue (counted for mark)
    global _out
    _out += 1
    return q.pop(0)


def flush():
    """Draw every waiting change now."""
    while _queue:
        step(1 << 30)


def queue(text):
    """``text`` (a ``screen.Text``) has a new text or colour to draw."""
    _queue.append(text)


def later(layer, show, color):
    """Show (``show``) or hide ``layer`` (None: as it is, or will be) and give a shape
    made with ``screen.solid`` the ``color`` (unless None) at its turn; a later call for
    the same layer updates its last turn in the queue."""
    last = _last.get(id(layer))
    if type(last) is list:
        if show is not None:
            last[1] = show
        if color is not None:
            last[2] = color
        return
    now = last is None and not layer.hidden  # (a tuple: the group is being hidden)
    if show is None:
        show = now
    if now != show or (color is not None and layer.pixel_shader[0] != color):
        _put([layer, show, color, None])


def move(layer, y, x=None):
    """Move ``layer`` to ``y`` (and ``x``, unless None) in two turns: hidden at the first
    (the box it leaves), shown at its new place at the second (the box it takes, and
    the firmware's shapes redraw the box they left once more), where a shown layer
    moved redraws both in the refresh of its change (a menu's bar: ~50 ms on the
    firmware). A layer hidden by then stays where it was, hidden."""
    last = _last.get(id(layer))  # (a layer's last change holds its move, if one waits)
    at = last[3] if type(last) is list and last[3] is not None else (layer.x, layer.y)
    to = (at[0] if x is None else x, y)
    if at == to:
        return
    show = shown(layer)
    if show:
        _put([layer, False, None, None])
    _put([layer, show, None, to])


def shown(layer):
    """Whether ``layer`` is shown, or will be when its turn comes."""
    if isinstance(layer, screen.Text) and layer._veiled:
        return False  # (a text shown blank: ``screen.Text``'s ``veil``)
    e = _last.get(id(layer))
    if e is None:
        return not layer.hidden
    return e[1] if type(e) is list else False  # (a tuple: the group is being hidden)


def area(layer, most=0):
    """The pixels ``layer`` covers (an estimate: a Group's are its layers' together).
    ``most`` > 0: a Group's walk stops once its layers cover more than that (the
    answer is then only known to be above it)."""
    if isinstance(layer, screen.Text):
        w, h = layer.size()
        s = layer.scale
        return min(screen.WIDTH, w * screen.CHAR_W * s) * min(screen.HEIGHT, h * screen.CHAR_H * s)
    if isinstance(layer, screen.displayio.Group):
        s = layer.scale * layer.scale
        n = 0
        if most > 0:
            most = most // s + 1
        for item in layer:
            n += area(item, most - n if most > 0 else 0)
            if most > 0 and n > most:
                break
        return n * s
    r = getattr(layer, "radius", None)
    if r is not None:
        return 4 * r * r
    w = getattr(layer, "width", 0)
    h = getattr(layer, "height", 0)
    if isinstance(layer, screen.displayio.TileGrid):
        w *= layer.tile_width
        h *= layer.tile_height
    if not w or not h:  # a polygon: the box of its points (an eighth of the screen was
        # counted for a menu's 15 x 9 arrow: the device then learnt a pixel's cost 70 times
        # too low, and the passes after drew far more than their budget: Zilch's 53 ms)
        pts = getattr(layer, "points", None)
        if not pts:
            return screen.WIDTH * screen.HEIGHT // 8
        x0 = x1 = pts[0][0]
        y0 = y1 = pts[0][1]
        for x, y in pts:
            x0 = min(x0, x)
            x1 = max(x1, x)
            y0 = min(y0, y)
            y1 = max(y1, y)
        return (x1 - x0 + 1) * (y1 - y0 + 1)
    return w * h
