"""The end of a won match: its winners' wins counted, and a screen of who won it and
the wins of each seat since the box was switched on (referee.keep keeps them). Loaded
only then (the table held at the game's end screen), forgotten with the game."""

import displayio

from referee import palette, screen
from referee.core import seat


def session_screen(wins, players, winners):
    """The screen after a won match (built then, not kept): who won it, and the wins of
    each seat since the box was switched on, this match's marked "+1"."""
    root = displayio.Group()
    root.append(screen.background(palette.PANEL))
    root.append(screen.centred("Match over", 6, 3, palette.WARN))
    who = " ".join(seat(p) for p in sorted(winners))
    won = (who + (" win" if len(winners) > 1 else " wins")) if winners else "nobody won"
    root.append(screen.centred(screen.fit(won, screen.WIDTH, 3), 40, 3,
                               palette.station(winners[0]) if len(winners) == 1 else palette.TEXT))
    root.append(screen.centred("Wins since switched on", 82, 2, palette.DIM))
    n = min(players, 7)
    half = n if n <= 4 else (n + 1) // 2  # up to 4 seats a column
    left = 100 if n <= 4 else 24
    for p in range(1, n + 1):
        col = (p - 1) // half
        row = (p - 1) % half
        text = seat(p) + "  " + str(wins[p - 1]) + ("  +1" if p in winners else "")
        root.append(screen.text(text, left + col * 160, 108 + row * 25, 2, palette.station(p)))
    root.append(screen.centred("hold: back to the games", screen.HEIGHT - 28, 2, palette.DIM))
    return root


def over(app):
    """The table held at a won match's end: each winner's win counted in the session's
    (``app.kept``, written when the launcher comes back), this screen shown."""
    game = app.game
    w = app.kept["w"]
    for p in game.winners:
        if 1 <= p <= len(w) and w[p - 1] < 9999:
            w[p - 1] += 1
    app.mode = "over"
    app.box.reveal(True)
    app.box.rings.rest(game.players)
    app.box.show(session_screen(w, game.players, game.winners))
