"""PC only: ``python code.py --demo DIR`` — bots play, PNG snapshots are written.

Headless (SDL's dummy video driver). One match per game with every seat a bot,
a snapshot each time the screen's text changes (up to a limit per game).
"""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

MAX_SHOTS = 14
MATCH_MS = 30 * 60 * 1000


def run(folder, settings, seed=1, only=None):
    import games
    from hardware.sim import SimTable

    os.makedirs(folder, exist_ok=True)
    n = int(settings.get("REFEREE_PLAYERS", 4) or 4)
    table = SimTable(players=n, seed=seed, settings=settings)
    written = [table.save_png(os.path.join(folder, "00-launcher.png"))]
    for name, title in games.titles():
        if only and name != only:
            continue
        module = games.load(name)
        players = max(module.MIN_PLAYERS, min(module.MAX_PLAYERS, n))
        table = SimTable(players=players, seed=seed, settings=settings)
        game = table.start(name, bots=tuple(range(1, players + 1)))
        shots = 0
        last = None
        t_end = table.now + MATCH_MS * 1000000
        while not game.over and table.now < t_end:
            table.advance(50)
            text = table.screen_text()
            if text and text != last and shots < MAX_SHOTS:
                last = text
                shots += 1
                written.append(table.save_png(os.path.join(folder, "%s-%02d.png" % (name, shots))))
        written.append(table.save_png(os.path.join(folder, name + "-final.png")))
        result = "winners " + " ".join("P" + str(p) for p in game.winners) if game.over else "NOT FINISHED"
        print("%-14s %s after %.1f s of play, seed %d" % (title, result, table.now / 1e9, game.seed))
        if not game.over:
            return 1
    print("wrote %d PNG snapshots to %s" % (len(written), os.path.abspath(folder)))
    return 0
