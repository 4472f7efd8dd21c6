"""PC only: the box as drawn on the PC — the screen with the station rings below it."""

import math

import pygame

RING_R = 20
PIXEL_R = 4
MARGIN = 16


def _positions(stations, width, top, scale):
    step = width // stations
    r = RING_R * scale
    return [(step // 2 + i * step, top + r + 8 * scale) for i in range(stations)]


def size(stations, scale=1):
    w = 320 * scale + 2 * MARGIN * scale
    h = 240 * scale + 2 * MARGIN * scale + 2 * RING_R * scale + 30 * scale
    return w, h


def seats_in_play(table):
    """The seats of the match running (the launcher's table when none): a label past
    them is dimmed. (The settings' count is only where the launcher starts.)"""
    game = table.app.game
    if game is not None:
        return game.players
    launcher = table.app.launcher
    return launcher.players if launcher is not None else table.players


def compose(screen_surface, table, scale=1, target=None):
    """Draw the screen and the rings of ``table`` onto ``target`` (new if None)."""
    stations = table.box.stations
    w, h = size(stations, scale)
    out = target if target is not None else pygame.Surface((w, h))
    out.fill((40, 40, 46))
    scr = screen_surface
    if scale != 1:
        scr = pygame.transform.scale(screen_surface, (320 * scale, 240 * scale))
    out.blit(scr, (MARGIN * scale, MARGIN * scale))
    top = 240 * scale + MARGIN * scale
    if not pygame.font.get_init():
        pygame.font.init()
    font = pygame.font.Font(None, 14 * scale)
    for i, (cx, cy) in enumerate(_positions(stations, w, top, scale)):
        player = i + 1
        colors = [((c >> 16) & 255, (c >> 8) & 255, c & 255) for c in table.box.rings.colors(player)]
        pygame.draw.circle(out, (20, 20, 20), (cx, cy), (RING_R + 3) * scale)
        for k, rgb in enumerate(colors):
            a = 2 * math.pi * k / len(colors) - math.pi / 2
            x = cx + int(RING_R * scale * math.cos(a))
            y = cy + int(RING_R * scale * math.sin(a))
            pygame.draw.circle(out, rgb if any(rgb) else (55, 55, 60), (x, y), PIXEL_R * scale)
        down = table.app.gestures.is_down(player)
        pygame.draw.circle(out, (230, 230, 230) if down else (120, 20, 20), (cx, cy), 8 * scale)
        seated = player <= seats_in_play(table)
        label = font.render(str(player), True, (240, 240, 240) if seated else (110, 110, 110))
        out.blit(label, (cx - label.get_width() // 2, cy + (RING_R + 6) * scale))
    return out
