# Essen 2006 flyer game: the screen. A View the flow (games/flyer.py) calls with plain
# values; every displayio object is built in the constructor, afterwards only text,
# colours, positions and `hidden` change.
#
# 320x240, read from across a table:
# - a header band in the active seat's colour ("P4 to play"), the one-button hint;
# - the board on the left: the rules' POS scaled into 200x166; each space a pad in its
#   colour (centre grey, border white) with its stack drawn above it, bottom to top
#   (the six markers are six rects moved about); the chosen from- and to-space get a
#   cyan rim, the markers that would move stick out to the right;
# - the four homebases in the board's corners: seat, points and the markers home;
# - on the right the six colour dice (spent ones grey, the ones a move would pay framed
#   in cyan) and the six colour values, lowest to highest (red purple blue / green
#   yellow white), as round tokens with the points on them;
# - two lines at the bottom: the menu's title and its current item in a bar, or what
#   just happened.
#
# (Docstrings would cost the box no RAM, its .mpy drops them; only the tests'
# MicroPython VM, compiling the .py, keeps them: docs/design.md, "Memory".)

import displayio  # noqa: F401  (first: Blinka's vectorio needs it imported)
import vectorio

from games import flyer_rules as R
from referee import palette, screen
from referee.bar import bar
from referee.core import const, seat

GREY = 0x909090  # the centre's pad
SPENT = 0x383838  # a spent die
PICK = 0x00FFFF  # rims of the chosen spaces, frames of the paying dice
HEAD_H = const(24)
MARK_W = const(24)
MARK_H = const(5)
MARK_STEP = const(7)  # a 2 px black line between neighbours in a stack
PAD_W = const(30)
PAD_H = const(8)
NUDGE = const(7)  # a marker that would move sticks out this far
HOME_W = const(64)
HOME_H = const(36)
BOARD_W = const(200)
BOARD_B = const(190)  # the board's bottom edge
DIE = const(28)
DIE_X = const(208)
DIE_Y = const(30)
DIE_STEP = const(38)
VAL_Y = const(126)
VAL_R = const(16)
LINE1 = const(192)
LINE2 = const(216)
ORDER = ("red", "purple", "blue", "green", "yellow", "white")  # values, low to high


def place(space):
    # the pad's centre-top on the screen for a non-home space (POS scaled)
    x, y = R.POS[space]
    return 100 + (x - 160) * 7 // 10, 48 + (y - 58) * 13 // 16


def home_box(k):
    # top-left corner of seat k's homebase (homes 1..4 clockwise from top left)
    x = 0 if k in (1, 4) else BOARD_W - HOME_W
    y = HEAD_H + 2 if k in (1, 2) else BOARD_B - HOME_H
    return x, y


def _tumbled(spin, i):
    # die i's colour in a tumble's frame ``spin`` (the colours cycle, each die its own way)
    return palette.DICE[R.COLOURS[(spin + i * 5 + (spin >> 1)) % 6]]


class View:
    def __init__(self, root, players):
        self.players = players
        add = root.append
        add(screen.background())
        self.head_bg = bar(0, 0, screen.WIDTH, HEAD_H, palette.PANEL, most_px=640)
        add(self.head_bg)
        # inked: its ink turns with the bar's colour a few cells a pass (its 4,896 px box
        # recoloured whole was a 50 ms refresh on the firmware)
        self.head = screen.text("", 4, 0, 2, cols=17, inked=True)
        add(self.head)
        # the one-button hint on its own dark block, apart from "P4 plays"
        self.hint_bg = screen.rect(0, 0, 8, HEAD_H, palette.BG)
        screen.set_shown(self.hint_bg, False)
        add(self.hint_bg)
        self.hint = screen.text("", screen.WIDTH - 4, 1, 2, palette.WARN, anchor=(1.0, 0.0), cols=17)
        add(self.hint)
        # the board: rims under pads, pads, homes, then the markers on top
        pick = screen.solid(PICK)
        self.rims = []
        for _ in range(2):
            r = vectorio.Rectangle(pixel_shader=pick, width=PAD_W + 6, height=PAD_H + 6)
            screen.set_shown(r, False)
            self.rims.append(r)
            add(r)
        self.pads = {}
        for s in R.SPACES:
            if s in R.OWNER:
                continue
            x, y = place(s)
            pay = R.PAYS[s]
            add(screen.rect(x - PAD_W // 2, y, PAD_W, PAD_H, palette.DICE[pay] if pay else GREY))
            self.pads[s] = (x, y)
        self.home_rims = []
        self.home_text = []
        for k in range(1, 5):
            x, y = home_box(k)
            rim = screen.rect(x, y, HOME_W, HOME_H, palette.station(k))
            self.home_rims.append(rim)
            add(rim)
            add(screen.rect(x + 2, y + 2, HOME_W - 4, HOME_H - 4, palette.scale(palette.station(k), 60)))
            t = screen.text("", x + 4, y + 1, 2, cols=5)
            self.home_text.append(t)
            add(t)
        self.marks = {}
        self._drawn = self._stacks = None  # what board() drew last
        for c in R.COLOURS:
            m = screen.rect(0, 0, MARK_W, MARK_H, palette.DICE[c])
            self.marks[c] = m
            add(m)
        # the dice: a frame (shown when the die would pay) and a body each
        self.frames = []
        self.dice = []
        self._spinning = False  # the dice show a tumble's frame
        for i in range(6):
            x = DIE_X + (i % 3) * DIE_STEP
            y = DIE_Y + (i // 3) * DIE_STEP
            f = vectorio.Rectangle(pixel_shader=pick, width=DIE + 6, height=DIE + 6, x=x - 3, y=y - 3)
            screen.set_shown(f, False)
            self.frames.append(f)
            add(f)
            d = screen.rect(x, y, DIE, DIE, SPENT)
            self.dice.append(d)
            add(d)
        # the colour values, lowest to highest
        self.values = []
        for i in range(6):
            c = ORDER[i]
            x = DIE_X + DIE // 2 + (i % 3) * DIE_STEP
            y = VAL_Y + (i // 3) * DIE_STEP
            add(screen.circle(x, y, VAL_R, palette.DICE[c]))
            t = screen.text("", x + 1, y + 1, 2, screen.ink_for(palette.DICE[c]), (0.5, 0.5), cols=1)
            self.values.append(t)
            add(t)
        # the winner at the end (scale 3, over the spent dice)
        mid = DIE_X + DIE // 2 + DIE_STEP
        self.win_top = screen.text("", mid, DIE_Y, 3, anchor=(0.5, 0.0), cols=5)
        self.win_bottom = screen.text("", mid, DIE_Y + 40, 3, anchor=(0.5, 0.0), cols=8)
        add(self.win_top)
        add(self.win_bottom)
        # the menu's bar in parts and its line inked: shown or hidden, recoloured, in
        # short refreshes (a line's new colour in one was ~40 ms on the firmware)
        self.bar = bar(0, LINE2, screen.WIDTH, screen.HEIGHT - LINE2, palette.ACCENT, most_px=1200)
        add(self.bar)
        self.line1 = screen.text("", 4, LINE1, 2, palette.WARN, cols=26)
        add(self.line1)
        self.line2 = screen.text("", 4, LINE2, 2, palette.TEXT, cols=26, inked=True)
        add(self.line2)

    # --- what the flow calls --------------------------------------------------------
    def turn(self, player, text, hint=""):
        screen.set_bar(self.head_bg, palette.station(player) if player else palette.PANEL, (self.head,))
        self.head.text = text
        self.hint.text = hint
        if hint:
            w = len(hint) * 12 + 12
            self.hint_bg.x = screen.WIDTH - w
            screen.resize(self.hint_bg, w, HEAD_H)
        screen.set_shown(self.hint_bg, bool(hint))

    def winner(self, top, bottom, color):
        # the match's end: the winner large where the dice were (they are done)
        for i in range(6):
            screen.set_shown(self.dice[i], False)
            screen.set_shown(self.frames[i], False)
        scale = 3 if len(bottom) <= 6 else 2
        self.win_top.text = top
        self.win_top.color = color
        self.win_bottom.set_scale(scale)
        self.win_bottom.text = bottom
        self.win_bottom.color = color

    def board(self, stacks, frm=None, to=None, mask=0):
        # stacks: {space: [colour, ...] bottom to top}; frm/to: spaces to rim; mask:
        # the markers (COLOURS bits) that would move. Asked again for the board it drew
        # last (the first turn after the set-up, a bot's step as played), it returns at
        # once: its ~400 checks were most of a 50 ms pass on the firmware. (Only board()
        # writes the rims and markers.)
        if self._drawn == (frm, to, mask) and self._stacks == stacks:
            return
        self._drawn = (frm, to, mask)
        self._stacks = {}
        for sp in stacks:
            self._stacks[sp] = list(stacks[sp])
        rims = (frm, to)
        for i in range(2):
            s = rims[i]
            r = self.rims[i]
            if s in self.pads:
                x, y = self.pads[s]
                # (moved while paced: an x or y written redraws both boxes at once, and a
                # bot's move wrote a dozen: 40-64 ms refreshes on the firmware)
                screen.move(r, y - 3, x - PAD_W // 2 - 3)
                screen.set_shown(r)
            else:
                screen.set_shown(r, False)
        for k in range(4):
            screen.set_color(self.home_rims[k], PICK if R.HOMES[k] == to else palette.station(k + 1))
        for s in stacks:
            st = stacks[s]
            if s in R.OWNER:
                x, y = home_box(R.OWNER[s])
                for i in range(len(st)):
                    m = self.marks[st[i]]
                    screen.move(m, y + HOME_H - 10, x + 4 + i * 10)
                    screen.resize(m, 8, 8)
            else:
                x, y = self.pads[s]
                for i in range(len(st)):
                    m = self.marks[st[i]]
                    screen.resize(m, MARK_W, MARK_H)
                    screen.move(m, y + 1 - (i + 1) * MARK_STEP,  # 1 px above the pad (six clear the red pad)
                                x - MARK_W // 2 + (NUDGE if s == frm and mask & R.bit(st[i]) else 0))

    def homes(self, scores):
        for k in range(4):
            if k < len(scores):
                self.home_text[k].text = seat(k + 1) + " " + str(scores[k])
            else:
                self.home_text[k].text = ""

    def values_of(self, values):
        for i in range(6):
            self.values[i].text = str(values[ORDER[i]])

    def show_dice(self, dice, paying=(), spin=-1):
        # dice: six colours, None for a spent one (None for all: none thrown yet, hidden);
        # paying: indices framed; spin >= 0: a tumble frame (colours cycle)
        if spin >= 0 and self._spinning:  # a tumble's next frame: only the colours change
            for i in range(6):
                screen.set_color(self.dice[i], _tumbled(spin, i))
            return
        self._spinning = spin >= 0
        for i in range(6):
            screen.set_shown(self.dice[i], not (dice is None and spin < 0))
            if spin >= 0:
                c = _tumbled(spin, i)
            elif dice is None or dice[i] is None:
                c = SPENT
            else:
                c = palette.DICE[dice[i]]
            screen.set_color(self.dice[i], c)
            screen.set_shown(self.frames[i], i in paying)

    def lines(self, first, second, bar=False):
        self.line1.text = screen.fit(first, screen.WIDTH - 8, 2)
        self.line2.text = screen.fit(second, screen.WIDTH - 8, 2)
        self.line2.color = palette.BLACK if bar else palette.TEXT
        screen.set_shown(self.bar, bar)
