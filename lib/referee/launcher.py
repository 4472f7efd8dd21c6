"""The launcher: pick a game, the number of players, the bots and the options,
with one button (tap = next, hold = choose). Defaults come from settings.
The players and setup pages end with "Back" (to the previous page)."""

import displayio

from referee import palette, screen
from referee.core import seat
from referee.menu import BACK, Menu, MenuView

_START = "__start__"
RESUME = "__resume__"  # the launcher's choice when the saved match is chosen


class Launcher:
    """The launcher's pages (module doc). ``settings``: the defaults; ``stations``: the
    box's; ``registry``: the games; ``saved``: the store's saved match, offered first.
    ``choice`` is None until the table has chosen: then ``RESUME``, or (name, players,
    bots, options) for a new match."""

    RESUME = RESUME

    def __init__(self, settings, stations, registry, saved=None):
        # registry: the games (titles(), load(name)), given by the entry point
        self.registry = registry
        self.settings = settings
        # the store's saved match, offered first: (game name, players) kept, not the dict
        self.saved = (saved.get("game"), saved.get("players")) if saved else None
        self.stations = stations
        self.root = displayio.Group()
        self.root.append(screen.background())
        self.view = MenuView(cues=settings.get("colour_cues", False))
        self.root.append(self.view.group)
        # the app's notes for the maker (bad settings, capture) at scale 1 under the
        # rows; what a player must read (``say``) replaces the hint line at scale 2
        self.note = screen.centred("", screen.HEIGHT - 36, 1, palette.WARN)
        self.root.append(self.note)
        self.choice = None  # (name, players, bots, options) once chosen
        self.said = ""
        self.reset()

    def reset(self):
        """Back to the first page, the games (the saved match first, else the settings'
        game current), nothing chosen."""
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
        s = self.saved
        for title, name in items:
            if s and name == s[0]:
                items.insert(0, ("Resume " + title + " (" + str(s[1]) + "p)", RESUME))
                index = 0
                break
        self.menu = Menu("Choose a game", items, index=index)
        self.stage = "game"
        self._draw()

    def warn(self, text):
        """A note for the maker (bad settings, the capture's precision) at scale 1 under
        the rows, cut to fit."""
        self.note.text = screen.fit(text, screen.WIDTH, 1)

    def say(self, text):
        """A message for the players, in the hint line until the next press."""
        self.said = screen.fit(text, screen.WIDTH - 16, 2)

    def _setup_items(self):
        items = [("Start!", _START)]
        # a game may say how strong each bot is: bot_level(options, bots, seat, True)
        level = getattr(self.module, "bot_level", None)
        # a game no bot can play (BOTS_CAN_PLAY = False: the self test) lists no seats
        seats = self.players if getattr(self.module, "BOTS_CAN_PLAY", True) else 0
        for p in range(1, seats + 1):
            who = "human"
            if p in self.bots:
                who = "bot" + (level(self.options, self.bots, p, True) if level else "")
            items.append((seat(p) + ": " + who, ("seat", p)))
        for opt in self.module.OPTIONS:
            if not opt.menu:
                continue
            items.append((opt.title + ": " + opt.name(self.options[opt.key]), ("opt", opt.key)))
        return items

    def _draw(self):
        if self.said:
            self.view.show(self.menu, self.said, palette.WARN)
        else:
            self.view.show(self.menu)

    def _players_menu(self):
        lo = self.module.MIN_PLAYERS
        hi = min(self.module.MAX_PLAYERS, self.stations)
        self.players = max(lo, min(hi, self.players))
        # COUNT_WORDS: how a game names its count (the self test counts stations fitted)
        title, one, many = getattr(self.module, "COUNT_WORDS", ("Players", "player", "players"))
        items = [(str(n) + " " + (one if n == 1 else many), n) for n in range(lo, hi + 1)]
        self.menu = Menu(title, items, index=self.players - lo, back=True)
        self.stage = "players"

    def gesture(self, player, kind, count):
        """A tap (next item) or a hold (choose it) of ``player``; ``choice`` is set once
        the table has chosen."""
        from referee.gestures import HOLD, TAP

        self.said = ""
        if kind == TAP:
            self.menu.tap(player, count)
        elif kind == HOLD:
            self._choose(self.menu.hold(player))
        self._draw()

    def _choose(self, value):
        if value == RESUME:
            self.choice = RESUME
            return
        if self.stage == "game":
            try:
                self.module = self.registry.load(value)
            except ImportError as e:
                self.say("not installed: " + str(value))
                self.warn(str(value) + ": " + str(e))
                return
            self.name = value
            self._players_menu()
        elif value == BACK:
            if self.stage == "players":
                self.reset()
            else:
                self._players_menu()
        elif self.stage == "players":
            self._seated(value)
        elif self.stage == "setup":
            self._set_up(value)

    def _seated(self, players):
        # the table's size is chosen: the set-up menu, from the settings' defaults
        self.players = players
        self.bots = [p for p in self.settings.get("bots", ()) if p <= players]
        self.options = {}
        for opt in self.module.OPTIONS:
            self.options[opt.key] = opt.check(self.settings.get(opt.key, opt.default))
        self.menu = Menu(self.module.TITLE, self._setup_items(), back=True)
        self.stage = "setup"
        if len(self._setup_items()) == 1:  # nothing to set up (the self test): start
            self._choose(_START)

    def _set_up(self, value):
        # a set-up item: Start!, a seat's bot toggled, or an option's next choice
        if value == _START:
            if len(self.bots) >= self.players and self.players > 1:
                self.say("one seat must be human")
                return
            self.choice = (self.name, self.players, tuple(sorted(self.bots)), dict(self.options))
            return
        what, key = value
        if what == "seat":
            if key in self.bots:
                self.bots.remove(key)
            else:
                self.bots.append(key)
        else:
            for opt in self.module.OPTIONS:
                if opt.key == key:
                    i = opt.choices.index(self.options[key]) if self.options[key] in opt.choices else -1
                    self.options[key] = opt.choices[(i + 1) % len(opt.choices)]
        index = self.menu.index
        self.menu = Menu(self.module.TITLE, self._setup_items(), index=index, back=True)
