"""One-button menus: tap = next option, hold = choose.

``Menu`` is the model; ``MenuView`` draws it. Any station may drive a menu
unless ``owner`` names the one player allowed (the active player's menu).
A menu with a way back lists "Back" last (``back=True``); choosing it gives
``BACK``. The highlight takes the colour of the player choosing (the owner,
else whoever pressed last); arrows show that items are hidden above or below.
"""

import displayio
import vectorio

from referee import palette, screen
from referee.core import seat

VISIBLE = 6
BACK = "__back__"  # the value of a menu's "Back" item
HINT = "tap: next  hold: choose"


class Menu:
    """A one-button menu's model (module doc): ``title``, the items and the current one
    (``index`` at first); ``owner``: the one player allowed to drive it (None: any)."""

    def __init__(self, title, items, owner=None, index=0, back=False):
        """``items``: list of (text, value); ``back``: add "Back" (value ``BACK``) last."""
        self.title = title
        self.items = list(items)
        if back:
            self.items.append(("Back", BACK))
        self.owner = owner
        self.index = index if 0 <= index < len(self.items) else 0
        self.chosen = None
        self.by = owner or 0  # the player choosing (0: nobody has pressed yet)

    def allowed(self, player):
        """True if ``player`` may drive this menu (the owner, or anyone if it has none)."""
        return self.owner is None or player == self.owner

    def tap(self, player, count=1):
        """Move on ``count`` items (round from the last to the first); True if it moved,
        False if ``player`` is not allowed or there are no items."""
        if self.allowed(player) and self.items:
            self.index = (self.index + count) % len(self.items)
            self.by = player
            return True
        return False

    def hold(self, player):
        """Choose the current item; returns its value (or None if not allowed)."""
        if self.allowed(player) and self.items:
            self.by = player
            self.chosen = self.items[self.index][1]
            return self.chosen
        return None

    def current(self):
        """The current item as (text, value); ("", None) when there are no items."""
        return self.items[self.index] if self.items else ("", None)


def _arrow(x, y, up):
    # a 14 x 8 triangle pointing up or down, its top left corner at (x, y)
    pts = [(0, 8), (14, 8), (7, 0)] if up else [(0, 0), (14, 0), (7, 8)]
    return vectorio.Polygon(pixel_shader=screen.solid(palette.WARN), points=pts, x=x, y=y)


class MenuView:
    """Title on top, up to ``rows`` rows, the current one highlighted, a hint line.

    ``x``, ``width``: the menu's column (the title and hint are centred over it);
    ``pitch``: row height; ``right``: an item's text after its last double space is
    drawn right-aligned (a points column); ``cues`` (REFEREE_COLOUR_CUES): the title
    starts with the seat whose colour the bar takes ("P3: ..."). Everything is at scale 2.
    ``bands`` (a menu in a match, where changes are paced): the rows are
    inked ``screen.Text`` rows and the bar in parts (``referee.bar``), so the row
    that takes or loses the bar is recoloured, and the bar moved, in short refreshes (a
    row's new colour in one was ~40 ms on the firmware); it costs heap (~20 B a cell)."""

    def __init__(self, y=40, rows=VISIBLE, x=8, width=screen.WIDTH - 16, pitch=28, title_y=4,
                 hint_y=screen.HEIGHT - 26, right=False, cues=False, bands=False):
        self.group = displayio.Group()
        self.cues = cues
        self.x = x
        self.width = width
        self.y = y
        self.pitch = pitch
        mid = x + width // 2
        # as wide as the menu from the start: a grid grown for a longer title redrew its
        # old and new boxes whole (up to 9,504 px, a 55 ms refresh, in Zilch's turns)
        self.title = screen.text("", mid, title_y, 2, palette.WARN, (0.5, 0.0), cols=screen.WIDTH // (screen.CHAR_W * 2))
        self.group.append(self.title)
        # the bar stops short of the arrows' column: an arrow never covers the chosen row
        if bands:
            from referee import bar

            # in parts of ~1,000 px (heap: a shape and a palette a part): under the inked
            # rows a part of 1,960 px was a 22-27 ms refresh on the firmware (Zilch)
            self._bar = bar.bar(0, 0, width - 20, pitch - 2, palette.ACCENT, most_px=1000)
            self._bar.x = x
            self._bar.y = y
        else:
            self._bar = screen.rect(x, y, width - 20, pitch - 2, palette.ACCENT)
        self.group.append(self._bar)  # one bar, moved
        self._bar_color = palette.ACCENT
        self.rows = []
        self.right = right  # the points column: in the row's own cells, at its right end
        self.cols = cols = (width - 24) // (screen.CHAR_W * 2)
        for i in range(rows):
            cy = y + i * pitch + (pitch - 2) // 2
            row = screen.Text("", x + 6, cy, 2, palette.TEXT, (0.0, 0.5), cols, inked=bands)
            self.rows.append(row)
            self.group.append(row)
        ax = x + width - 17
        self._up = _arrow(ax, y + 2, True)
        self._down = _arrow(ax, y + rows * pitch - 12, False)
        self.group.append(self._up)
        self.group.append(self._down)
        self.hint = screen.text("", mid, hint_y, 2, palette.DIM, (0.5, 0.0), cols=width // 12)
        self.group.append(self.hint)

    def show(self, menu, hint=HINT, hint_color=palette.DIM):
        """Draw ``menu``: its title, the rows around the current item, the bar in the
        colour of the player choosing, the arrows, and ``hint`` in ``hint_color``."""
        who = menu.owner or menu.by
        title = menu.title
        if self.cues and who:  # the bar's colour said in words
            title = seat(who) + ": " + title
        self.title.text = screen.fit(title, screen.WIDTH, 2)
        n = len(self.rows)
        count = len(menu.items)
        first = 0
        if menu.index >= n:
            first = menu.index - n + 1
        colour = palette.station(who) if who else palette.ACCENT
        if colour != self._bar_color:  # (a bar in parts: a call a part)
            self._bar_color = colour
            screen.set_color(self._bar, colour)
        ink = screen.ink_for(colour)
        room = self.width - 24
        for i in range(n):
            k = first + i
            on = k == menu.index
            if on:
                screen.move(self._bar, self.y + i * self.pitch)
            text = menu.items[k][0] if k < count else ""
            side = ""
            if self.right:
                cut = text.rfind("  ")
                if cut >= 0:
                    side = text[cut + 2:]
                    text = text[:cut]
                room = (self.cols - 1 - len(side)) * 12
            text = screen.fit(text, room, 2)
            if side:  # right-aligned in the row's last cells (a text of its own: ~300 B a row)
                text += " " * (self.cols - len(text) - len(side)) + side
            self.rows[i].text = text
            self.rows[i].color = ink if on else palette.TEXT
            screen.set_shown(self.rows[i])
        screen.set_shown(self._bar, count)
        screen.set_shown(self._up, first != 0)
        screen.set_shown(self._down, first + n < count)
        self.hint.text = hint
        self.hint.color = hint_color

    def clear(self):
        """No menu: rows, bar, arrows and hint hidden (the title is the caller's). The
        rows are hidden, not emptied: a layer on the screen, blank or not, makes every
        refresh of its box slower (a result drawn where the menu was)."""
        for lb in self.rows:
            screen.set_shown(lb, False)
        screen.set_shown(self._bar, False)
        screen.set_shown(self._up, False)
        screen.set_shown(self._down, False)
        self.hint.text = ""
