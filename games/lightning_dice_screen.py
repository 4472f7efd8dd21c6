# Lightning Dice: the screen (320x240), built once, then only text, tiles and hidden
# change. The flow (games/lightning_dice.py) calls it with plain values.
#
#   y   0..84   the card at scale 3, wrapped at " and " (two lines at most), and a
#               status line at scale 2 (the last claim); between cards the result
#   y  84..240  one row per player: "P3", six dice, the target, the score
#
# A player's six dice are six one-tile TileGrids (in a group: the row) over a sprite
# sheet of 12 faces drawn once (pips 1..6, free or kept): 26 px tiles, 24 px dice, 5 px
# pips. Kept dice are white with black pips, free dice dark grey with white pips. A die
# is a grid of its own so that the firmware redraws only the dice that changed (a grid's
# changed tiles are redrawn as one box: dice 1 and 6 were the whole row), ~3.8 ms a die
# on the firmware. At the end the rows become the standings.

import bitmaptools
import displayio

from referee import die, palette, screen
from referee.core import const, seat

_TILE = const(26)
_PIP = const(5)
_PIPS_AT = (3, 10, 17)  # pip columns/rows inside a tile
_TOP = const(84)  # the rows start here
_DICE_X = const(30)
_TARGET_X = const(194)
_BIG = const(17)  # characters per line at scale 3
_FREE = const(0x3A4656)
_DIE_PX = const(676)  # a die's tile: the box the firmware redraws for it


def _sheet():
    # 12 faces side by side: face v (1..6) free at tile v-1, kept at tile v+5.
    # Colours: 0 background, 1 white, 2 black, 3 grey.
    bmp = displayio.Bitmap(12 * _TILE, _TILE, 4)
    fill = bitmaptools.fill_region
    for f in range(12):
        x0 = f * _TILE
        body = 1 if f >= 6 else 3
        pip = 2 if f >= 6 else 1
        fill(bmp, x0, 0, x0 + _TILE - 2, _TILE - 2, body)
        for col, row in die.PIPS[f % 6 + 1]:
            px = x0 + _PIPS_AT[col]
            py = _PIPS_AT[row]
            # a pip: a square with its 4 corners set back, as two crossed bars
            fill(bmp, px + 1, py, px + _PIP - 1, py + _PIP, pip)
            fill(bmp, px, py + 1, px + _PIP, py + _PIP - 1, pip)
    return bmp


def wrap(spec):
    # the card as one or two lines of at most _BIG characters, split before " and "
    if len(spec) <= _BIG:
        return spec, ""
    i = spec.find(" and ")
    if i < 0:
        i = spec.rfind(" ", 0, _BIG + 1)
        return spec[:i], screen.fit(spec[i + 1:], screen.WIDTH, 3)
    return spec[:i], screen.fit(spec[i + 1:], screen.WIDTH, 3)


class View:
    def __init__(self, players):
        self.players = players
        self.root = root = displayio.Group()
        root.append(screen.background())
        W = screen.WIDTH
        self.a = screen.text("", W // 2, 0, 3, palette.TEXT, (0.5, 0.0), 26, inked=True)
        # the card's second line (scale 3) and a result's dim line (scale 2, a little
        # lower): two texts, each in its own place, as a text moved is redrawn whole
        self.b = screen.text("", W // 2, 30, 3, palette.TEXT, (0.5, 0.0), cols=_BIG)
        self.b2 = screen.text("", W // 2, 37, 2, palette.DIM, (0.5, 0.0), cols=26)
        self.s = screen.text("", W // 2, 60, 2, palette.WARN, (0.5, 0.0), W // 12, inked=True)
        for t in (self.a, self.b, self.b2, self.s):
            root.append(t)
        pal = displayio.Palette(4)
        pal[0] = palette.BG
        pal[1] = palette.WHITE
        pal[2] = palette.BLACK
        pal[3] = _FREE
        sheet = _sheet()
        pitch = min(36, (screen.HEIGHT - _TOP) // players)
        y = _TOP + (screen.HEIGHT - _TOP - pitch * players) // 2
        self.grids = [None]  # each seat's row: a group of six one-die grids
        # each seat's dice: the sheet's tile each is to show, and the one it shows (only
        # draw_dice writes the grids: no grid is read to compare)
        self.want = [None]
        self.given = [None]
        self.labels = [None]
        self.targets = [None]
        self.scores = [None]
        for p in range(1, players + 1):
            g = displayio.Group(x=_DICE_X, y=y)
            for i in range(6):
                g.append(displayio.TileGrid(sheet, pixel_shader=pal, tile_width=_TILE, tile_height=_TILE,
                                            x=i * _TILE))
            ty = y + 1
            lb = screen.text(seat(p), 2, ty, 2, palette.station(p))
            tg = screen.text("", _TARGET_X, ty, 2, palette.DIM)
            sc = screen.text("0", W - 2, ty, 2, palette.TEXT, (1.0, 0.0))
            for item in (g, lb, tg, sc):
                root.append(item)
            self.grids.append(g)
            self.want.append([0] * 6)
            self.given.append([0] * 6)
            self.labels.append(lb)
            self.targets.append(tg)
            self.scores.append(sc)
            y += pitch

    @staticmethod
    def _set(t, text, color=None, scale=0):
        if scale and t.scale != scale:
            t.set_scale(scale)
        if t.text != text:
            t.text = text
        if color is not None and t.color != color:
            t.color = color

    def card(self, spec):
        # the card, largest on screen; the status line cleared
        one, two = wrap(spec)
        self._set(self.a, one, palette.TEXT, 3)
        self._set(self.b2, "")
        self._set(self.b, two)
        self._set(self.s, "")

    def big(self, text, color, small="", line="", line_color=palette.WARN):
        # a headline (scale 3, or 2 if it is long), a dim line under it, the status line
        self._set(self.a, screen.fit(text, screen.WIDTH, 2), color, 3 if len(text) <= _BIG else 2)
        self._set(self.b, "")
        self._set(self.b2, screen.fit(small, screen.WIDTH, 2))
        self.status(line, line_color)

    def status(self, text, color=palette.WARN):
        self._set(self.s, screen.fit(text, screen.WIDTH, 2), color)

    def dice(self, p, values, kept):
        # seat p's dice, drawn at once (a new screen)
        self.set_dice(p, values, kept)
        self.draw_dice(p, 6 * _DIE_PX)

    def set_dice(self, p, values, kept):
        # the dice seat p's row is to show (drawn by dice() or draw_dice())
        w = self.want[p]
        for i in range(6):
            w[i] = values[i] - 1 + (6 if (kept >> i) & 1 else 0)
        screen.set_shown(self.grids[p])

    def draw_dice(self, p, budget_px):
        """Draw seat ``p``'s dice that changed, about ``budget_px`` pixels of them (one
        die at least); True when the row shows every die it is to show. Drawn outside
        ``referee.pace``'s queue: counted to it (``touch``), so the device
        refreshes them in this pass."""
        w = self.want[p]
        given = self.given[p]
        g = self.grids[p]
        n = budget_px // _DIE_PX or 1
        for i in range(6):
            if given[i] != w[i]:
                if not n:
                    return False
                given[i] = g[i][0] = w[i]
                if screen.paced is not None:  # (refreshed in this pass: referee.pace.touch)
                    screen.paced.touch(_DIE_PX)
                n -= 1
        return True

    def die_px(self, p):
        """How tall seat ``p``'s dice are on the screen (the tile less its 2 px gap)."""
        return _TILE - 2

    def target(self, p, text, color):
        self._set(self.targets[p], text, color)

    def score(self, p, value):
        self._set(self.scores[p], str(value))

    def standings(self, order, scores):
        # order: the players best first; each row: rank (shared on a tie), seat, score
        for i in range(self.players):
            p = order[i]
            r = 1
            for v in scores:
                r += v > scores[p - 1]
            row = i + 1
            screen.set_shown(self.grids[row], False)
            self._set(self.labels[row], str(r) + " " + seat(p), palette.station(p))
            self._set(self.targets[row], "")
            self._set(self.scores[row], str(scores[p - 1]))
