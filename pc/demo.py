"""PC only: ``python code.py --demo DIR`` — bots play, PNG snapshots are written.

Headless (SDL's dummy video driver). One match per game with every seat a bot.
Each match is played twice from the same seed: the first pass notes every
moment the screen's text changes, the second saves a snapshot at moments spread
evenly over the whole match (the simulation is deterministic, so both passes
see the same match).
"""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

MAX_SHOTS = 14
MATCH_MS = 30 * 60 * 1000
STEP_MS = 50


def _play(name, players, settings, seed, on_change):
    """Play one all-bot match; ``on_change(table, index)`` at each new screen text."""
    from pc.sim import SimTable

    table = SimTable(players=players, seed=seed, settings=settings)
    game = table.start(name, bots=tuple(range(1, players + 1)), seed=seed)
    last = None
    index = 0
    t_end = table.now + MATCH_MS * 1000000
    while not game.over and table.now < t_end:
        table.advance(STEP_MS)
        text = table.screen_text()
        if text and text != last:
            last = text
            on_change(table, index)
            index += 1
    return table, game, index


def spread(count, wanted):
    """``wanted`` indices out of range(count), evenly spread, first and last included."""
    if count <= wanted:
        return list(range(count))
    return sorted({round(i * (count - 1) / (wanted - 1)) for i in range(wanted)})


def folder_problem(folder):
    """Why the snapshots cannot go to ``folder`` (made if missing), or ""."""
    if os.path.exists(folder) and not os.path.isdir(folder):
        return "that is a file, not a folder: name a folder for the PNG snapshots"
    try:
        os.makedirs(folder, exist_ok=True)
        import tempfile

        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        return "cannot write there (" + (e.strerror or str(e)) + "): name a folder you can write"
    return ""


def run(folder, settings, seed=1, only=None, notes=()):
    """Play the demo; ``folder`` must be writable (``folder_problem``). Each match is
    seeded with ``seed`` itself, the number it prints: ``--demo --seed S`` replays it."""
    import games
    from pc.sim import SimTable

    os.makedirs(folder, exist_ok=True)
    first = SimTable(players=None, seed=seed, settings=settings, notes=notes)
    for m in first.settings.messages:
        print("settings: " + m)
    n = first.players  # REFEREE_PLAYERS as referee.settings checked it
    written = [first.save_png(os.path.join(folder, "00-launcher.png"))]
    for name, title in games.titles():
        if only and name != only:
            continue
        module = games.load(name)
        if not getattr(module, "BOTS_CAN_PLAY", True):
            if only:
                print("%-14s needs people at the buttons: no demo" % title)
            continue  # needs people at the buttons (the self test)
        players = max(module.MIN_PLAYERS, min(module.MAX_PLAYERS, n))
        _, game, changes = _play(name, players, settings, seed, lambda table, i: None)
        chosen = set(spread(changes, MAX_SHOTS))
        shots = []

        def shoot(table, i, chosen=chosen, shots=shots, name=name):
            if i in chosen:
                shots.append(table.save_png(os.path.join(folder, "%s-%02d.png" % (name, len(shots) + 1))))

        table, game, _ = _play(name, players, settings, seed, shoot)
        written.extend(shots)
        written.append(table.save_png(os.path.join(folder, name + "-final.png")))
        result = "winners " + " ".join("P" + str(p) for p in game.winners) if game.over else "NOT FINISHED"
        print("%-14s %s after %.1f s of play, seed %d" % (title, result, table.now / 1e9, game.seed))
        if not game.over:
            return 1
    n = len(written)
    print("wrote %d PNG snapshot%s to %s" % (n, "" if n == 1 else "s", os.path.abspath(folder)))
    return 0
