"""PC only: the simulated box in a pygame window, in real time.

Keys 1-7 are the station buttons (hold them like the real ones), M is MENU,
Esc or closing the window quits. The box's NVM is a file (``pc/store.py``,
default ``~/.referee-box-nvm.bin``): a match left unfinished is offered for resume
the next time the window opens.
"""

import os
import time


def unavailable():
    """Why no window can be opened here, or "" if one can."""
    if os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen"):
        return "SDL_VIDEODRIVER=" + os.environ["SDL_VIDEODRIVER"]
    if os.name == "posix" and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        import sys

        if sys.platform.startswith("linux"):
            return "no DISPLAY or WAYLAND_DISPLAY"
    try:
        import pygame

        pygame.display.init()
        pygame.display.quit()
    except Exception as e:  # pygame raises pygame.error, or ImportError if absent
        return str(e)
    return ""


def window_seed(seed=None):
    """The window's seed: ``seed`` if given (``--seed``: replay a session), else a
    fresh one from os.urandom, as the device seeds each match."""
    if seed is not None:
        return seed
    from referee.rng import seed_from_bytes

    return seed_from_bytes(os.urandom(8))


def make_table(settings, seed=None, save_path=None, notes=(), log=print):
    """The window's simulated box: seeded from os.urandom unless ``seed`` is given
    (the seed is logged), its seats REFEREE_PLAYERS as referee.settings checked it
    (a bad value: the default, and a message on the screen)."""
    from pc import store as pc_store
    from pc.sim import SimTable

    seed = window_seed(seed)
    log("window seed " + str(seed) + " (python code.py --seed " + str(seed) + " deals the same match seeds again)")
    store = pc_store.FileNvm(save_path or pc_store.DEFAULT_PATH)
    if store.problem:  # said on the screen too, before the launcher
        log(store.problem)
    table = SimTable(players=None, seed=seed, settings=settings, catch_errors=True, store=store, notes=notes)
    table.watch = True  # a person watches: every animation frame is a loop pass
    for m in table.settings.messages:
        log("settings: " + m)
    return table


def run(settings, seed=None, scale=2, save_path=None, notes=()):
    from pc import sound as pc_sound

    # the piezo on the PC's audio (None: silent); opened before pc_display, which
    # makes SDL's audio a dummy for its headless renders
    spk = pc_sound.speaker()
    import pygame

    from pc import display as pc_display
    from pc import view as pc_view
    from pc.sim import KEY_MIN_MS

    table = make_table(settings, seed, save_path, notes)
    if spk is not None:
        table.box.tones.out = spk.tone
    pygame.init()
    pygame.display.set_caption("Referee Box (keys 1-7 = stations, M = menu, Esc = quit)")
    win = pygame.display.set_mode(pc_view.size(table.box.stations, scale))
    keys = {getattr(pygame, "K_" + str(i)): i for i in range(1, 8)}
    keys[pygame.K_m] = 8
    last = time.monotonic_ns()
    frame_ns = 1000000000 // 30
    next_frame = 0
    shown_logs = len(table.box.logs)  # the settings messages are printed already
    while True:
        for ev in pygame.event.get():
            if ev.type == pygame.QUIT or (ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE):
                pygame.quit()
                return 0
            if ev.type in (pygame.KEYDOWN, pygame.KEYUP) and ev.key in keys:
                table.key(keys[ev.key], ev.type == pygame.KEYDOWN, min_ms=KEY_MIN_MS)
        now = time.monotonic_ns()
        table.advance(min(100, (now - last) / 1000000))
        while shown_logs < len(table.box.logs):  # the box's serial log, on the console
            print(table.box.logs[shown_logs])
            shown_logs += 1
        last = now
        if now >= next_frame:
            next_frame = now + frame_ns
            table.flush_screen()
            surf = pc_display.render(table.box.root, table.box.backlight)
            pc_view.compose(surf, table, scale=scale, target=win)
            pygame.display.flip()
        time.sleep(0.002)
