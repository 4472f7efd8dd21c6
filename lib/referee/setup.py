"""The launcher's pages once a game is chosen: the number of players (with "How to
play", the game's rules: referee.rules) and the set-up (Start!, each seat human or
bot, the game's options), each ending with "Back". Loaded when a game is chosen and
forgotten back on the first page and when a match starts (referee.core.FORGET), so
the launcher's first page keeps the heap it needs. The functions take the
``referee.launcher.Launcher`` as ``lc``."""

from referee.core import seat
from referee.menu import BACK, Menu

_START = "__start__"
_RULES = "__rules__"


def choose(lc, value):
    """``value`` chosen on the players or set-up page (or the game just chosen)."""
    if lc.stage == "game":
        players_menu(lc)
    elif value == _RULES:  # how to play: its pages over the menu until a hold
        from referee.rules import Rules

        lc.rules = Rules(lc.rules_dir, lc.name, lc.module.TITLE, lc)
    elif value == BACK:
        if lc.stage == "players":
            lc.reset()
        else:
            players_menu(lc)
    elif lc.stage == "players":
        _seated(lc, value)
    elif lc.stage == "setup":
        _set_up(lc, value)


def players_menu(lc):
    """The players page of the chosen game: its counts, "How to play", "Back"."""
    lo = lc.module.MIN_PLAYERS
    hi = min(lc.module.MAX_PLAYERS, lc.stations)
    lc.players = max(lo, min(hi, lc.players))
    # COUNT_WORDS: how a game names its count (the self test counts stations fitted)
    title, one, many = getattr(lc.module, "COUNT_WORDS", ("Players", "player", "players"))
    items = [(str(n) + " " + (one if n == 1 else many), n) for n in range(lo, hi + 1)]
    items.append(("How to play", _RULES))
    lc.menu = Menu(title, items, index=lc.players - lo, back=True)
    lc.stage = "players"


def setup_items(lc):
    """The set-up page's items: Start!, each seat human or bot (its level), each option."""
    items = [("Start!", _START)]
    # a game may say how strong each bot is: bot_level(options, bots, seat, True)
    level = getattr(lc.module, "bot_level", None)
    # a game no bot can play (BOTS_CAN_PLAY = False: the self test) lists no seats
    seats = lc.players if getattr(lc.module, "BOTS_CAN_PLAY", True) else 0
    for p in range(1, seats + 1):
        who = "human"
        if p in lc.bots:
            who = "bot" + (level(lc.options, lc.bots, p, True) if level else "")
        items.append((seat(p) + ": " + who, ("seat", p)))
    for opt in lc.module.OPTIONS:
        if not opt.menu:
            continue
        items.append((opt.title + ": " + opt.name(lc.options[opt.key]), ("opt", opt.key)))
    return items


def _seated(lc, players):
    # the table's size is chosen: the set-up menu, from the settings' defaults
    lc.players = players
    lc.bots = [p for p in lc.settings.get("bots", ()) if p <= players]
    lc.options = {}
    for opt in lc.module.OPTIONS:
        lc.options[opt.key] = opt.check(lc.settings.get(opt.key, opt.default))
    lc.menu = Menu(lc.module.TITLE, setup_items(lc), back=True)
    lc.stage = "setup"
    if len(setup_items(lc)) == 1:  # nothing to set up (the self test): start
        _set_up(lc, _START)


def _set_up(lc, value):
    # a set-up item: Start!, a seat's bot toggled, or an option's next choice
    if value == _START:
        if len(lc.bots) >= lc.players and lc.players > 1:
            lc.say("one seat must be human")
            return
        lc.choice = (lc.name, lc.players, tuple(sorted(lc.bots)), dict(lc.options))
        return
    what, key = value
    if what == "seat":
        if key in lc.bots:
            lc.bots.remove(key)
        else:
            lc.bots.append(key)
    else:
        for opt in lc.module.OPTIONS:
            if opt.key == key:
                i = opt.choices.index(lc.options[key]) if lc.options[key] in opt.choices else -1
                lc.options[key] = opt.choices[(i + 1) % len(opt.choices)]
    index = lc.menu.index
    lc.menu = Menu(lc.module.TITLE, setup_items(lc), index=index, back=True)
