"""The launcher: pick a game, the number of players, the bots and the options,
with one button (tap = next, hold = choose). Defaults come from settings.
The players and setup pages end with "Back" (to the previous page).

The first page lists, before the games, the saved match ("Resume ...") and the last
table ("Play again: ...", referee.keep); after them "Sound and light" (the rings'
brightness, the sound level, clearing the session's wins). The players page has
"How to play": the game's rules, page by page (referee.rules). A line under the rows
says the session's wins, or a note for the maker (bad settings, ms precision)."""

import displayio

from referee import palette, screen
from referee.core import seat
from referee.menu import BACK, Menu, MenuView

RESUME = "__resume__"  # the launcher's choice when the saved match is chosen
_AGAIN = "__again__"
_BOX = "__box__"
# The menu's rows (six, 26 px apart from y=30) leave a line above the hint for the
# status: the session's wins or the maker's note, at scale 2.
ROWS = 6
PITCH = 26
TOP = 30


def wins_line(wins, cols=25):
    """The session's wins in at most ``cols`` characters, most wins first, whole entries
    only ("Wins: P6 5  P1 3  P4 2"); "" when nobody has won."""
    order = sorted(range(1, 8), key=lambda p: (-wins[p - 1], p))
    out = ""
    for p in order:
        if not wins[p - 1]:
            break
        more = ("  " if out else "Wins: ") + seat(p) + " " + str(wins[p - 1])
        if len(out) + len(more) > cols:
            break
        out += more
    return out




class Launcher:
    """The launcher's pages (module doc). ``settings``: the defaults; ``stations``: the
    box's; ``registry``: the games; ``saved``: the store's saved match, offered first.
    ``choice`` is None until the table has chosen: then ``RESUME``, or (name, players,
    bots, options) for a new match."""

    RESUME = RESUME

    def __init__(self, settings, stations, registry, saved=None, kept=None, app=None, rules_dir="/rules"):
        # registry: the games (titles(), load(name)), given by the entry point
        self.registry = registry
        self.settings = settings
        # what the box keeps (referee.keep): Play again, the wins, light and sound;
        # ``app``: the App, whose box takes the light and sound chosen here and which writes them
        self.kept = kept if kept is not None else {"w": [0] * 7}
        self.app = app
        self.rules_dir = rules_dir
        self.rules = None  # the "How to play" pages while they show
        # the store's saved match, offered first: (game name, players) kept, not the dict
        self.saved = (saved.get("game"), saved.get("players")) if saved else None
        self.stations = stations
        self.root = displayio.Group()
        self.root.append(screen.background())
        self.view = MenuView(y=TOP, rows=ROWS, pitch=PITCH, title_y=2, cues=settings.get("colour_cues", False))
        self.root.append(self.view.group)
        # under the rows, at scale 2: the app's note (bad settings, capture) if any, else
        # the session's wins; what a player must read now (``say``) replaces the hint line
        self.note = screen.centred("", TOP + ROWS * PITCH + 3, 2, palette.WARN)
        self.root.append(self.note)
        self.warned = ""
        self.choice = None  # (name, players, bots, options) once chosen
        self.said = ""
        self.reset()

    def reset(self):
        """Back to the first page, the games (the saved match first, else the settings'
        game current), nothing chosen."""
        from referee.core import forget

        forget("referee.setup")  # the players and set-up pages' code (heap)
        self.choice = None
        self.name = None
        self.module = None
        self.players = self.settings.get("players", 4)
        self.bots = []
        self.options = {}
        default = self.settings.get("game", "reaction")
        items = [(title, name) for name, title in self.registry.titles()]
        index = 0
        for i, item in enumerate(items):
            if item[1] == default:
                index = i
        first = []
        t = self.again()
        if t:
            text = str(t[1]) + "p " + self._title(t[0])
            first.append((("Play again: " if len(text) < 12 else "Again: ") + text, _AGAIN))
        s = self.saved
        if s and self._title(s[0]):
            first.insert(0, ("Resume " + self._title(s[0]) + " (" + str(s[1]) + "p)", RESUME))
        if first:
            index = 0
        items = first + items + [("Sound and light", _BOX)]
        self.menu = Menu("Choose a game", items, index=index)
        self.stage = "game"
        self.status()
        self._draw()

    def _title(self, name):
        for n, title in self.registry.titles():
            if n == name:
                return title
        return None

    def again(self):
        """The last table (referee.keep) if this box can play it: [game, seats, bots, options]."""
        t = self.kept.get("t")
        if not t or not self._title(t[0]) or not 1 <= t[1] <= self.stations:
            return None
        for b in t[2]:
            if b > t[1]:
                return None
        return t

    def warn(self, text):
        """A note for the maker (bad settings, the capture's precision) under the rows at
        scale 2, cut to fit; it takes the place of the session's wins."""
        self.warned = text
        self.status()

    def status(self):
        """The line under the rows: the maker's note, else the session's wins."""
        text = self.warned or wins_line(self.kept["w"])
        self.note.text = screen.fit(text, screen.WIDTH - 8, 2)
        self.note.color = palette.WARN if self.warned else palette.TEXT

    def say(self, text):
        """A message for the players, in the hint line until the next press."""
        self.said = screen.fit(text, screen.WIDTH - 16, 2)
        self._draw()

    def _draw(self):
        if self.said:
            self.view.show(self.menu, self.said, palette.WARN)
        else:
            self.view.show(self.menu)

    def gesture(self, player, kind, count):
        """A tap (next item) or a hold (choose it) of ``player``; ``choice`` is set once
        the table has chosen."""
        from referee.gestures import HOLD, TAP

        self.said = ""
        if self.rules is not None:  # tap: next page; hold: back to the players page
            if kind == TAP:
                self.rules.next(count)
            elif kind == HOLD:
                self.rules.close()
            if self.rules is not None:
                return
        elif kind == TAP:
            self.menu.tap(player, count)
        elif kind == HOLD:
            self._choose(self.menu.hold(player))
        self._draw()

    def _choose(self, value):
        if value == RESUME:
            self.choice = RESUME
            return
        if value == _AGAIN:
            t = self.kept["t"]
            self.choice = (t[0], t[1], tuple(t[2]), dict(t[3]))
            return
        if value == BACK and self.stage == "box":
            from referee.core import forget

            forget("referee.keep")  # loaded only while the page shows
            self.reset()
            return
        if value == _BOX or self.stage == "box":  # the light, the sound, the wins
            from referee import keep

            keep.box_page(self, value)
            return
        if self.stage == "game":
            try:
                self.module = self.registry.load(value)
            except ImportError as e:
                self.say("not installed: " + str(value))
                self.warn(str(value) + ": " + str(e))
                return
            self.name = value
        # the players and set-up pages: referee.setup, loaded once a game is chosen
        from referee import setup

        setup.choose(self, value)

