"""A notice screen: messages for the table (e.g. bad settings), page by page.

Every message is wrapped at scale 2 (26 characters a line, 6 lines a page) and
starts a page of its own; a long one takes several. Tap = next page, hold =
skip the rest; after the last page the notice is done. Imported only when there
is something to say.
"""

import displayio

from referee import palette, screen
from referee.gestures import HOLD, TAP

COLS = screen.WIDTH // (screen.CHAR_W * 2)  # 26
ROWS = 6


def wrap(text, cols=COLS):
    """``text`` as lines of at most ``cols`` characters, broken at spaces where
    it can (a word longer than a line is cut into pieces)."""
    lines = []
    line = ""
    for word in text.split(" "):
        while len(word) > cols:
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:cols])
            word = word[cols:]
        if not line:
            line = word
        elif len(line) + 1 + len(word) <= cols:
            line += " " + word
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def pages(messages, cols=COLS, rows=ROWS):
    """The pages (lists of lines) that show ``messages``."""
    out = []
    for m in messages:
        lines = wrap(m, cols)
        for i in range(0, len(lines), rows):
            out.append(lines[i:i + rows])
    return out


def page(title_y, body_y, foot_y, rows=ROWS):
    """A page screen on the panel colour: its root Group, the title, the body (``rows``
    lines of COLS characters) and the foot, all at scale 2 (the notices', the rules')."""
    root = displayio.Group()
    root.append(screen.background(palette.PANEL))
    title = screen.centred("", title_y, 2, palette.WARN)
    body = screen.text("", 4, body_y, 2, palette.TEXT, cols=COLS, rows=rows)
    foot = screen.centred("", foot_y, 2, palette.DIM)
    for item in (title, body, foot):
        root.append(item)
    return root, title, body, foot


class Notice:
    """``messages`` under ``title``, page by page (module doc): ``root`` is the
    screen, ``gesture`` turns the pages."""

    def __init__(self, title, messages):
        self.heading = title
        self.pages = pages(messages)
        self.index = 0
        self.root, self.title, self.body, self.foot = page(6, 40, screen.HEIGHT - 30)
        self._draw()

    def _draw(self):
        n = len(self.pages)
        self.title.text = self.heading + ((" " + str(self.index + 1) + "/" + str(n)) if n > 1 else "")
        self.body.text = "\n".join(self.pages[self.index]) if n else ""
        last = self.index >= n - 1
        self.foot.text = "tap: go on" if last else "tap: next  hold: skip"

    def gesture(self, kind):
        """A tap or hold; True when the notice is done."""
        if kind == HOLD or (kind == TAP and self.index >= len(self.pages) - 1):
            return True
        if kind == TAP:
            self.index += 1
            self._draw()
        return False
