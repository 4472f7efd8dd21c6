"""A bar across the screen whose new colour is drawn a part at a time (the turn games'
header: Zilch, the flyer game).

Loaded with the games that use it and forgotten with them (``referee.core.FORGET``):
Würfelblitz, the tightest game in the heap, never carries it.
"""

from referee import screen


def bar(x, y, w, h, color, parts=4, most_px=0):
    """A filled ``w`` x ``h`` rectangle of ``color`` made of ``parts`` rectangles side by
    side (a ``screen.Parts``; ``most_px``: as many as make each at most that many pixels
    instead): ``screen.set_color``, ``set_shown`` and ``move`` change each part in
    turn while changes are paced, where one
    rectangle across the screen was redrawn whole (a turn's header bar: 66 ms of one
    refresh on the firmware)."""
    if most_px:
        parts = (w * h + most_px - 1) // most_px
    g = screen.Parts(y)
    for i in range(parts):
        x0 = x + i * w // parts
        g.append(screen.rect(x0, y, x + (i + 1) * w // parts - x0, h, color))
    return g
