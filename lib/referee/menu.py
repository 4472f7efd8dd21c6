"""One-button menus: tap = next option, hold = choose.

``Menu`` is the model; ``MenuView`` draws it. Any station may drive a menu
unless ``owner`` names the one player allowed (the active player's menu).
"""

import displayio

from referee import palette, screen

VISIBLE = 6


class Menu:
    def __init__(self, title, items, owner=None, index=0):
        """``items``: list of (text, value)."""
        self.title = title
        self.items = list(items)
        self.owner = owner
        self.index = index if 0 <= index < len(self.items) else 0
        self.chosen = None

    def allowed(self, player):
        return self.owner is None or player == self.owner

    def tap(self, player, count=1):
        if self.allowed(player) and self.items:
            self.index = (self.index + count) % len(self.items)
            return True
        return False

    def hold(self, player):
        """Choose the current item; returns its value (or None if not allowed)."""
        if self.allowed(player) and self.items:
            self.chosen = self.items[self.index][1]
            return self.chosen
        return None

    def current(self):
        return self.items[self.index] if self.items else ("", None)


class MenuView:
    """Title on top, up to six rows, the current one highlighted, and a hint."""

    def __init__(self, y=40, rows=VISIBLE):
        self.group = displayio.Group()
        self.title = screen.centred("", 4, 2, palette.WARN)
        self.group.append(self.title)
        self.rows = []
        self.y = y
        self._bar = screen.rect(8, y - 2, screen.WIDTH - 16, 26, palette.ACCENT)  # one bar, moved
        self.group.append(self._bar)
        for i in range(rows):
            row = screen.text("", 16, y + i * 28, 2)
            self.rows.append(row)
            self.group.append(row)
        self.hint = screen.centred("", screen.HEIGHT - 18, 1, palette.DIM)
        self.group.append(self.hint)

    def show(self, menu, hint="tap = next    hold = choose"):
        self.title.text = menu.title
        n = len(self.rows)
        first = 0
        if menu.index >= n:
            first = menu.index - n + 1
        for i in range(n):
            k = first + i
            on = k == menu.index
            if on:
                self._bar.y = self.y + i * 28 - 2
            if k < len(menu.items):
                self.rows[i].text = screen.fit(menu.items[k][0], screen.WIDTH - 32, 2)
                self.rows[i].color = palette.BLACK if on else palette.TEXT
            else:
                self.rows[i].text = ""
        self.hint.text = hint
