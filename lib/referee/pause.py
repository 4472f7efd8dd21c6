"""The pause menu (MENU, or two buttons held, in a match) and the screen of a match
ended from it. Its own module: loaded when a table first pauses, forgotten when the
match ends (its bytecode is not in the heap of a match nobody pauses: docs/memory.md)."""

import displayio

from referee import palette, screen
from referee.app import ENDED, GAME, PAUSE
from referee.gestures import HOLD, TAP
from referee.menu import Menu, MenuView


def open_menu(app, now, title, go_on):
    """Pause ``app``'s match at ``now``: the menu "``title``" (``go_on`` or "End game")."""
    view = MenuView(cues=app.settings.get("colour_cues", False))
    root = displayio.Group()
    root.append(screen.background(palette.PANEL))
    root.append(view.group)
    app._pause_view = view
    app.mode = PAUSE
    app._paused_at = now
    app._lit = app.box.backlight  # paused in a dark phase: light the menu, darken again on resume
    app.box.reveal(True)
    app._pause_menu = Menu(title, [(go_on, "resume"), ("End game", "end")], owner=None)
    view.show(app._pause_menu)
    app.box.show(root)


def route(app, player, kind, count, now):
    """A gesture while paused: a tap moves through the menu, a hold chooses."""
    menu = app._pause_menu
    if kind == TAP:
        menu.tap(menu.owner or player, count)
    elif kind == HOLD:
        choose(app, menu.hold(menu.owner or player), now)
    if app.mode == PAUSE:
        app._pause_view.show(app._pause_menu)


def choose(app, value, now):
    """The menu's choice ``value``: resume, ask before ending, or end the match."""
    if value == "resume":
        app.mode = GAME
        app._pause_view = app._pause_menu = None  # built again at the next pause
        app.box.reveal(app._lit)
        app.box.show(app.game.root)
        app._guard(app.game.resumed, now, now - app._paused_at)
    elif value == "end":  # ask first: a slip of the hand must not end a match
        app._pause_menu = Menu("End the match?", [("No, resume", "resume"), ("Yes, end it", "end!")])
    elif value == "end!":  # the match is abandoned: its standings, and not offered again
        app._saving = None  # (a save under way writes nothing before its last step)
        if app.store and app._owns:
            app.store.clear()
        app._saves = -1
        game = app.game
        lines = app._guard(game.standings) or []
        app._guard(game.end, now)
        if app.mode == PAUSE:
            _show_ended(app, lines)


def _show_ended(app, lines):
    # Built now, not kept: a match ends once.
    root = displayio.Group()
    root.append(screen.background(palette.PANEL))
    root.append(screen.centred("Match ended", 6, 3, palette.WARN))
    step = min(28, 150 // max(1, len(lines)))
    for i, (p, text) in enumerate(lines[:7]):
        root.append(screen.text(text, 16, 46 + i * step, 2, palette.station(p)))
    if not lines:
        root.append(screen.centred("no standings", 90, 2, palette.DIM))
    root.append(screen.centred("hold: back to the games", screen.HEIGHT - 28, 2, palette.DIM))
    app.mode = ENDED
    app.box.reveal(True)
    app.box.rings.rest(app.game.players)
    app.box.show(root)
