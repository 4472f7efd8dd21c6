"""How to play: a game's rules on the box, a page at a time (the launcher's "How to
play" item on the players page; tap = next page, hold = back).

The pages are ``rules/<game>.txt`` on CIRCUITPY (tools/deploy.py copies them; on a
PC the repository's ``rules/``): plain ASCII, lines of at most ``COLS`` characters,
pages of at most ``ROWS`` lines, a line ``---`` between pages. Opening the file
finds where each page starts (read in chunks of ``CHUNK`` bytes); showing a page is
a seek to its start and one read of at most ``PAGE_MAX`` bytes. So the rules cost
no heap while a match runs: this module is loaded only while they show (the
launcher forgets it after), and holds one page's text at a time.

A missing file, or one that does not read (a page too long or too wide, bytes that
are not plain text), gives a page that says so in plain words: never an error.
"""


from referee import screen

COLS = 26  # characters a line at scale 2 on 320 px
ROWS = 7  # lines a page between the title and the hint
SEP = b"\n---\n"
CHUNK = 128
PAGE_MAX = ROWS * (COLS + 2)  # the most a page may take (lines and their line ends)
MOST_PAGES = 20


def _pages(f):
    # where each page starts, reading the file in chunks
    starts = [0]
    at = 0
    tail = b""
    while len(starts) <= MOST_PAGES:
        data = f.read(CHUNK)
        if not data:
            return starts, at
        buf = tail + data
        base = at - len(tail)
        i = buf.find(SEP)
        while i >= 0:
            starts.append(base + i + len(SEP))
            i = buf.find(SEP, i + len(SEP))
        at += len(data)
        tail = buf[-(len(SEP) - 1):]  # too short to hold a separator found already
    raise ValueError("more than " + str(MOST_PAGES) + " pages")


def _text(data):
    # the page's bytes as lines; ValueError if they are not plain text that fits
    out = ""
    for b in data:
        if b == 13:
            continue
        if b != 10 and not 32 <= b < 127:
            raise ValueError("not plain text")
        out += chr(b)
    lines = out.strip("\n").split("\n")
    if len(lines) > ROWS:
        raise ValueError("a page has more than " + str(ROWS) + " lines")
    for ln in lines:
        if len(ln) > COLS:
            raise ValueError("a line is longer than " + str(COLS))
    return "\n".join(lines)


class Rules:
    """The rules of game ``name`` (``title`` on top) from ``folder``/<name>.txt, page
    by page: ``root`` is the screen, ``next()`` turns the page. With ``launcher``, the
    pages show over its menu until ``close()``."""

    def __init__(self, folder, name, title, launcher=None):
        self.path = folder + "/" + str(name) + ".txt"
        self.heading = title
        self.index = 0
        self.starts = []
        self.size = 0
        from referee.notice import page

        self.root, self.title, self.body, self.hint = page(4, 34, screen.HEIGHT - 26, ROWS)
        self.launcher = launcher
        if launcher is not None:
            screen.set_shown(launcher.view.group, False)
            screen.set_shown(launcher.note, False)
            launcher.root.append(self.root)
        try:
            with open(self.path, "rb") as f:
                self.starts, self.size = _pages(f)
        except OSError:
            self._problem("No rules on this box: " + str(name) + ".txt is missing from the rules folder.")
            return
        except ValueError as e:
            self._problem("The rules file " + str(name) + ".txt cannot be read: " + str(e) + ".")
            return
        self._show()

    def _problem(self, text):
        from referee.notice import wrap

        self.starts = []
        self.title.text = self.heading
        self.body.text = "\n".join(wrap(text, COLS)[:ROWS])
        self.hint.text = "hold: back"

    def _show(self):
        n = len(self.starts)
        a = self.starts[self.index]
        b = self.starts[self.index + 1] - len(SEP) if self.index + 1 < n else self.size
        try:
            if b - a > PAGE_MAX:
                raise ValueError("a page is too long")
            with open(self.path, "rb") as f:
                f.seek(a)
                page = _text(f.read(b - a))
        except (OSError, ValueError) as e:
            self._problem("The rules file cannot be read: " + str(e) + ".")
            return
        self.title.text = screen.fit(self.heading + " " + str(self.index + 1) + "/" + str(n), screen.WIDTH, 2)
        self.body.text = page
        self.hint.text = "tap: first  hold: back" if self.index + 1 >= n else "tap: next  hold: back"

    def close(self):
        """The launcher's players page again, the pages gone, this code forgotten."""
        lc = self.launcher
        if lc is not None:
            from referee import setup
            from referee.core import forget

            lc.root.remove(self.root)
            screen.set_shown(lc.view.group, True)
            screen.set_shown(lc.note, True)
            self.launcher = None
            lc.rules = None
            setup.players_menu(lc)
            forget("referee.rules")
            forget("referee.notice")  # (the page screen and the wrapping come from there)

    def next(self, count=1):
        """``count`` pages on (after the last: the first); nothing when there are none."""
        if self.starts:
            self.index = (self.index + count) % len(self.starts)
            self._show()
