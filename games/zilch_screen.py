# Zilch's screen (docs/zilch.md, "The screen"). Built once for the table; afterwards
# only texts, colours and `hidden` change. The flow (games/zilch.py) calls it with
# plain values: faces, totals, texts.
#
# Layout (320x240), everything a player reads at scale 2 or more:
#   0..24     header band in the active player's colour: "P1 to play"  "turn 350"
#   28..72    the throw: six 44 px dice
#   76..100   dice set aside this turn as digits ("kept 1 5 5": small dice would
#             have pips under 5 px) and the status ("FINAL TURN", "CORNER")
#   102..240  left: the menu (referee.menu.MenuView: title, 4 rows, arrows, hint line)
#             right: the totals, one row per seat (19 px apart at 7 players)
#   a turn's result (BANK / ZILCH!) replaces the menu; the winner's goes high and wide

from referee import die, palette, screen
from referee.bar import bar
from referee.core import const, seat
from referee.menu import MenuView

_HEAD_H = const(24)
_DIE = const(44)
_DIE_GAP = const(6)
_DICE_Y = const(28)
_KEPT_Y = const(76)
_MENU_W = const(216)
_TITLE_Y = const(102)
_MENU_Y = const(128)
_ROW_H = const(22)
_ROWS = const(4)
_HINT_Y = const(216)
_SCORE_X = const(220)
_SCORE_Y = const(102)
_SCORE_H = const(138)
_BAND = const(110)  # the marked seat's band: its colour at 110/255 (its row's text reads over it)

FREE = const(0x8A8F98)  # free dice waiting to be rolled
PICKED = const(0xFFE38A)  # dice of the highlighted set-aside


class View:
    def __init__(self, root, players):
        self.players = players
        root.append(screen.background())
        # in parts of ~640 px: a turn's new colour a part a pass (a part of 1,920 px under
        # the header's texts was a 38-51 ms pass on the firmware)
        self.head_bg = bar(0, 0, screen.WIDTH, _HEAD_H, palette.PANEL, most_px=640)
        root.append(self.head_bg)
        # as wide as their longest text from the start ("P1 to play", "this turn 12345"):
        # a grid grown for a longer text redrew its old and new boxes (6,912-7,776 px,
        # ~58 ms refreshes when the turn's points reached 100)
        self.head = screen.text("", 6, 0, 2, cols=10)
        root.append(self.head)
        self.head_points = screen.text("", screen.WIDTH - 6, 0, 2, anchor=(1.0, 0.0), cols=15)
        root.append(self.head_points)
        x0 = (screen.WIDTH - (6 * _DIE + 5 * _DIE_GAP)) // 2
        self.big = []
        for i in range(6):
            d = die.Die(x0 + i * (_DIE + _DIE_GAP), _DICE_Y, _DIE)
            d.look = 0
            self.big.append(d)
            root.append(d.group)
        self.kept_text = screen.text("", 6, _KEPT_Y, 2, cols=14)
        root.append(self.kept_text)
        self.status_text = screen.text("", screen.WIDTH - 4, _KEPT_Y, 2, palette.WARN, (1.0, 0.0), cols=10)
        root.append(self.status_text)
        self.menu_view = MenuView(y=_MENU_Y, rows=_ROWS, x=0, width=_MENU_W, pitch=_ROW_H,
                                  title_y=_TITLE_Y, hint_y=_HINT_Y, right=True, bands=True)
        root.append(self.menu_view.group)
        # inked: shown, hidden and recoloured a few glyph cells a pass (whole, its 10,368 px
        # were one refresh of 60-70 ms on the firmware; in bands of two cells it cost ~900 B).
        # Scale 3 (36 px tall, over 6 mm on the panel): a cell at scale 4 (1,152 px) over the
        # menu's layers was a 14 ms refresh of its own, passes of 20-26 ms in the tumble after
        self.banner = screen.text("", _MENU_W // 2, _MENU_Y, 3, palette.BAD, (0.5, 0.0), 12, inked=True)
        root.append(self.banner)
        self.banner2 = screen.text("", _MENU_W // 2, _MENU_Y + 52, 2, palette.TEXT, (0.5, 0.0), cols=18, rows=2, veil=True)
        root.append(self.banner2)
        # (the scores on the black of the panel itself: a background layer under them made
        # every refresh of a score row slower, 2,304 px in ~22 ms on the firmware)
        self.pitch = pitch = min(26, _SCORE_H // players)
        # one highlight, moved to the marked seat, in three parts: a part moved redraws the
        # box it leaves and the one it takes (one rectangle of 1,800 px moved was a 29 ms
        # refresh on the firmware). It is a dim band of the seat's colour under the row in
        # that colour: no row changes colour when the turn passes (a row's new colour, black
        # on a bright band and back, was a 20-22 ms refresh of its 2,304 px, twice a turn).
        self.score_bg = bar(_SCORE_X, _SCORE_Y, screen.WIDTH - _SCORE_X, pitch - 1, palette.PANEL, parts=3)
        root.append(self.score_bg)
        self.score_rows = []
        self._head = None  # what header() and scores() drew last
        self._marked = -1
        self._totals = []
        for p in range(1, players + 1):
            y = _SCORE_Y + (p - 1) * pitch
            lb = screen.text("", _SCORE_X + 4, y + pitch // 2, 2, palette.station(p), (0.0, 0.5), cols=8)
            self.score_rows.append(lb)
            root.append(lb)

    # header() and scores() are asked at every change of the turn with what is mostly on
    # the screen already: each remembers what it drew and returns at once when it is
    # asked again (the checks of every bar part and score row were ~80 calls, ~4 ms of a
    # turn's change on the firmware)
    def header(self, left, right, colour):
        if self._head == (left, right, colour):
            return
        self._head = (left, right, colour)
        screen.set_bar(self.head_bg, colour, (self.head, self.head_points))
        self.head.text = left
        self.head_points.text = right

    def dice(self, faces, free=False, picked=(), moved=6):
        # the throw: ``faces`` (None = a blank die, missing = no die), grey while
        # waiting to be rolled (``free``; in a tumble the dice from ``moved`` on, not
        # turned yet), the dice at ``picked`` (indexes) lit as a set-aside
        for i, d in enumerate(self.big):
            if i >= len(faces):
                look = None
            elif i in picked:
                look = (faces[i], PICKED, palette.WARN)
            else:
                look = (faces[i], FREE if free or i >= moved else palette.WHITE, None)
            _show(d, look)

    def kept(self, faces):
        self.kept_text.text = ("kept " + " ".join(str(f) for f in faces)) if faces else ""

    def status(self, text):
        self.status_text.text = text

    def menu(self, menu, hint):
        self.menu_view.show(menu, hint)

    def no_menu(self, title=""):
        self.menu_view.clear()
        self.menu_view.title.text = title

    def scores(self, totals, marked):
        # ``marked``: the seat highlighted (the active player, the winner), 0 = none
        if marked == self._marked and totals == self._totals:
            return
        self._marked = marked
        self._totals[:] = totals
        bg = self.score_bg
        if marked:  # moved first: hidden, it is moved at the turn it is shown (referee.pace)
            screen.move(bg, (marked - 1) * self.pitch)
            screen.set_color(bg, palette.scale(palette.station(marked), _BAND))
        screen.set_shown(bg, marked)
        for p in range(1, self.players + 1):
            self.score_rows[p - 1].text = seat(p) + " " + str(totals[p])

    def result(self, big, small, colour, high=False):
        # a turn's result in the menu's place; the winner's (``high``) over the dice
        if high:
            self.banner.anchored_position = (screen.WIDTH // 2, _DICE_Y + 4)
            self.banner2.anchored_position = (screen.WIDTH // 2, _DICE_Y + 52)
        else:
            self.banner.anchored_position = (_MENU_W // 2, _MENU_Y)
            self.banner2.anchored_position = (_MENU_W // 2, _MENU_Y + 52)
        self.banner.text = big
        self.banner.color = colour
        self.banner2.text = small
        screen.set_shown(self.banner)
        screen.set_shown(self.banner2)

    def no_result(self):
        screen.set_shown(self.banner, False)
        screen.set_shown(self.banner2, False)


def _show(die, look):
    # ``look`` = (face, body, border) on ``die`` (None hides it); a die that already
    # shows it is left alone (redrawing shapes is costly)
    if die.look == look:
        return
    die.look = look
    if look is None:
        die.hide()
    else:
        die.show(look[0], look[1], border=look[2])
