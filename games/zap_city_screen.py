# ZAP City's screen (games/zap_city.py draws through it). Built once for the table,
# then only tiles, texts and colours change.
#
# 320x240, every text at scale 2:
#   y   0..96   the board: one row per seat, 24 px apart: "P1", its three Urban tops,
#               a gap, its City die's six sides, and a short note on the right (symbols
#               in the City die; totals in the throw-off). The seat to play has a bar.
#   y  98..146  the result: the action just taken, two lines
#   y 146..240  the panel: four lines (whose turn and what to press, the menu with a
#               bar on the current item, the throw-off, the standings)
# Sides and tops are tiles of one small bitmap (12x12 px, shown at scale 2): a disk in
# its owner's colour, an empty side dark with an outline, a highlighted one white with
# a frame in its owner's colour. Their symbols are one Text over the whole board (two
# character cells per tile), black on every owner colour.

import bitmaptools
import displayio

from games import zap_city_rules as R
from referee import bar, palette, screen
from referee.core import const, seat

PITCH = const(24)  # tile pitch on screen (a 12 px tile at scale 2)
X0 = const(30)  # the board's left edge (after the seat labels)
COLS = const(10)  # 3 tops, a gap, 6 City sides
CITY0 = const(4)  # first City column
RESULT_Y = const(96)  # two lines under the four board rows (4 x 24)
PANEL_Y = const(144)  # four lines end at 240: descenders (greedy) stay on the glass
LINES = const(4)
_T = const(12)  # a tile in bitmap pixels
_EMPTY = const(5)  # tile of an empty side; 1..4: a disk of that seat; +5: highlighted
_HIGH = const(5)
_EMPTY_FILL = 0x1C2630
_OUTLINE = 0x5A6878


def _tiles():
    # 11 tiles: 0 blank, 1..4 owner colour, 5 empty, 6..9 white framed in the owner's
    # colour, 10 white framed in grey (a highlighted empty side). Colour 0 is transparent.
    bm = displayio.Bitmap(11 * _T, _T, 8)
    pal = displayio.Palette(8)
    pal.make_transparent(0)
    for k in range(4):
        pal[k + 1] = palette.station(k + 1)
    pal[5] = _EMPTY_FILL
    pal[6] = _OUTLINE
    pal[7] = palette.WHITE
    fill = bitmaptools.fill_region
    for t in range(1, 11):
        x0 = t * _T
        if t < _EMPTY:
            edge = inside = t
        elif t == _EMPTY:
            edge, inside = 6, 5
        else:
            edge, inside = (t - _HIGH if t < 10 else 6), 7
        fill(bm, x0, 0, x0 + _T - 1, _T - 1, edge)  # an 11x11 square, its 1 px edge kept
        fill(bm, x0 + 1, 1, x0 + _T - 2, _T - 2, inside)
    return bm, pal


class _Row:
    # A seat's row of board tiles with ``referee.pace``'s ``_todo``/``_draw``: the tiles
    # that change, drawn a few a step (tiles written at once across two rows were one
    # refresh of their whole box: 82-88 ms on the firmware).
    def __init__(self, grid):
        self.grid = grid
        self.want = [0] * COLS  # the tiles it is to show
        self._todo = False

    def _draw(self, budget_px, first=True):
        g = self.grid
        tile = _T * _T * 4  # at scale 2
        spent = 0
        c0 = COLS
        for c in range(COLS):
            t = self.want[c]
            if g[c, 0] != t:
                box = (c - min(c0, c) + 1) * tile
                if box > budget_px and (spent or not first):
                    return spent  # the rest at the next step
                g[c, 0] = t
                c0 = min(c0, c)
                spent = box
        self._todo = False
        return spent


class View:
    def __init__(self, players):
        self.players = players
        root = displayio.Group()
        self.root = root
        root.append(screen.background())
        # whose turn: a block behind that seat's label, one per seat, shown or hidden (a
        # bar across the row, moved from row to row, redrew two rows of tiles and texts
        # in one refresh: ~150 ms on the firmware)
        self._marks = [None]
        for p in range(1, players + 1):
            m = screen.rect(0, (p - 1) * PITCH, X0 - 2, PITCH, palette.station(p))
            screen.set_shown(m, False)
            root.append(m)
            self._marks.append(m)
        bm, pal = _tiles()
        board = displayio.Group(scale=2, x=X0, y=1)
        self._rows = []  # a grid a seat, drawn a few tiles a pace step (_Row)
        for r in range(players):
            g = displayio.TileGrid(bm, pixel_shader=pal, width=COLS, height=1, tile_width=_T, tile_height=_T,
                                   default_tile=0, y=r * _T)
            board.append(g)
            self._rows.append(_Row(g))
        root.append(board)
        self._sym = [""] * players  # each row's symbols, two cells a tile
        self._drawn = [None] * players  # each row's (tops, city, marks) as last drawn
        self._note = [""] * players
        self._ink = palette.DIM  # the notes' colour
        self.symbols = screen.text("", X0 + 6, 0, 2, palette.BLACK, cols=2 * COLS, rows=players)
        root.append(self.symbols)
        self.notes = screen.text("", screen.WIDTH - 2, 0, 2, palette.DIM, (1.0, 0.0), cols=3, rows=players)
        root.append(self.notes)
        self._labels = [None]
        for p in range(1, players + 1):
            lb = screen.text(seat(p), 2, (p - 1) * PITCH, 2, palette.station(p))
            root.append(lb)
            self._labels.append(lb)
        self.result = screen.text("", 4, RESULT_Y, 2, rows=2)
        root.append(self.result)
        # the menu's bar in parts, its lines inked: the line that takes or loses the bar
        # is recoloured a few glyph cells a pass, and the bar moved a part a pass (the bar
        # moved and two lines recoloured at once were 61-95 ms on the firmware; parts of
        # 1,080 px over the board's layers were 16-21 ms of a refresh each: now ~600 px)
        self._bar = bar.bar(2, PANEL_Y, screen.WIDTH - 4, PITCH, palette.ACCENT, most_px=600)
        screen.set_shown(self._bar, False)
        self._bar_at = 0  # the line the bar was last put on, and whether it is shown
        self._bar_on = False
        root.append(self._bar)
        self.lines = []
        for i in range(LINES):
            t = screen.text("", 8, PANEL_Y + i * PITCH, 2, palette.TEXT, cols=(screen.WIDTH - 16) // 12, inked=True)
            self.lines.append(t)
            root.append(t)

    # -- the board ------------------------------------------------------------------
    def row(self, p, tops, city, marks=0):
        # Seat p's row from disks (ints: owner * 8 + symbol index, 0 = empty side):
        # tops (3) and city (6); marks: bit c highlights column c.
        r = p - 1
        key = (tuple(tops), tuple(city), marks)
        if key == self._drawn[r]:
            return  # drawn so (a menu step draws the board again: most rows as they were)
        self._drawn[r] = key
        row = self._rows[r]
        want = row.want
        s = ""
        for c in range(COLS):
            if c < 3:
                d = tops[c]
            elif c >= CITY0:
                d = city[c - CITY0]
            else:
                want[c] = 0
                s += "  "
                continue
            t = (d >> 3) if d else _EMPTY
            if (marks >> c) & 1:
                t = t + _HIGH
            want[c] = t
            s += ("12345J"[d & 7] if d else " ") + " "
        screen.draw_later(row)
        if s != self._sym[r]:
            self._sym[r] = s
            self.symbols.text = "\n".join(self._sym)

    def note(self, p, s, color=palette.DIM):
        if self._note[p - 1] == s and self._ink == color:
            return
        self._note[p - 1] = s
        self._ink = color
        self.notes.text = "\n".join(self._note)
        self.notes.color = color

    def active(self, p):
        # Seat p's turn: its block shown, its label inked on it (0: nobody's).
        for q in range(1, self.players + 1):  # the seat's colour, its label inked on it
            screen.set_shown(self._marks[q], q == p)
            self._labels[q].color = screen.ink_for(palette.station(q)) if q == p else palette.station(q)

    def tile(self, p, c):
        # The tile at seat p's column c, shown or to be (tests read the board through it).
        return self._rows[p - 1].want[c]

    # -- words ------------------------------------------------------------------------
    def said(self, one, two="", color=palette.TEXT):
        self.result.text = one + "\n" + two
        self.result.color = color

    def panel(self, a="", b="", c="", d="", bar=-1, color=palette.TEXT, first=palette.WARN):
        # Four lines; bar: the line drawn on the menu bar (black on it); first: the
        # colour of the first line (whose turn, the menu's question).
        texts = (a, b, c, d)
        for i in range(LINES):
            t = self.lines[i]
            t.text = screen.fit(texts[i], screen.WIDTH - 16, 2)
            t.color = palette.BLACK if i == bar else (first if i == 0 else color)
        # the bar (its parts) asked again only where it changes (a bot's menu step
        # draws the panel again, the bar mostly where it was)
        if bar >= 0 and bar != self._bar_at:
            self._bar_at = bar
            screen.move(self._bar, bar * PITCH)
        if (bar >= 0) != self._bar_on:
            self._bar_on = bar >= 0
            if bar < 0:  # a hidden bar is not moved (referee.pace): asked again when shown
                self._bar_at = -1
            screen.set_shown(self._bar, self._bar_on)


# -- the move menu: one button, at most 8 lines -------------------------------------
# An action is chosen in up to MENU_LEVELS steps: kind, source seat, source position,
# target seat, target position (field). among keeps the actions a prefix of steps
# leads to; branch lists the next step's values; descend skips the steps with a single
# value; name is a value's menu line.

MENU_LEVELS = const(5)


def field(action, level):
    if level == 0:
        return action[0]
    loc = action[2] if level < 3 else action[3]
    if level == 1 or level == 3:
        return loc >> 3
    return loc & 7


def among(actions, prefix):
    # the actions whose fields (field) begin with prefix, written out: a menu step
    # looks at every legal action, and a call on the box is ~30 µs
    n = len(prefix)
    if n == 0:
        return list(actions)
    out = []
    k = prefix[0]
    s1 = prefix[1] if n > 1 else 0
    p2 = prefix[2] if n > 2 else 0
    s3 = prefix[3] if n > 3 else 0
    p4 = prefix[4] if n > 4 else 0
    for a in actions:
        if a[0] != k:
            continue
        if n > 1:
            loc = a[2]
            if loc >> 3 != s1 or (n > 2 and loc & 7 != p2):
                continue
            if n > 3:
                loc = a[3]
                if loc >> 3 != s3 or (n > 4 and loc & 7 != p4):
                    continue
        out.append(a)
    return out


def branch(actions, level):
    # {value of step level: the first action with it}, field() written out (one menu
    # step looks at every action)
    out = {}
    for a in actions:
        if level == 0:
            v = a[0]
        elif level < 3:
            v = a[2] >> 3 if level == 1 else a[2] & 7
        else:
            v = a[3] >> 3 if level == 3 else a[3] & 7
        if v not in out:
            out[v] = a
    return out


def descend(actions, prefix):
    # actions all begin with prefix: (prefix extended through every step with one value,
    # the next step's branch), the branch {} once prefix names one action (actions[0])
    prefix = tuple(prefix)
    while len(prefix) < MENU_LEVELS:
        firsts = branch(actions, len(prefix))
        if len(firsts) != 1:
            return prefix, firsts
        for v in firsts:
            prefix = prefix + (v,)
    return prefix, {}


def name(a, level):
    # Menu line for action a's value at step level.
    v = field(a, level)
    if level == 0:
        return R.KINDS[v]
    if level == 1 or level == 3:
        words = "from P%d" if level == 1 else "to P%d"
        text = words % v
        if v == a[1]:
            text += " (own)"
        return text
    kind = a[0]
    if level == 2:
        if kind <= R.URBAN_CITY:
            return "die %d: %s" % (v + 1, R.SYMBOLS[a[4] & 7])
        return "%s (side %d)" % (R.SYMBOLS[a[4] & 7], v + 1)
    if kind == R.URBAN_FILL:
        return "die %d (empty)" % (v + 1)
    if kind == R.EXCHANGE:
        return "%s (side %d)" % (R.SYMBOLS[a[5] & 7], v + 1)
    return "side %d" % (v + 1)
