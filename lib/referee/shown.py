"""What a player reads on a screen: every visible text of a displayio group with its
place. The tests, the PC window, the demo and the browser version read screens with it;
the box itself never does (it is not imported there: no heap for it)."""

import displayio


def texts(group, ox=0, oy=0, out=None):
    """Every visible label in ``group`` as (y, x, text), in absolute pixels."""
    if out is None:
        out = []
    if getattr(group, "hidden", False):
        return out
    gx = ox + getattr(group, "x", 0)
    gy = oy + getattr(group, "y", 0)
    for item in group:
        if getattr(item, "hidden", False):
            continue
        if hasattr(item, "text") and hasattr(item, "anchored_position"):
            if item.text:
                out.append((gy + item.y, gx + item.x, item.text))
        elif isinstance(item, displayio.Group):
            texts(item, gx, gy, out)
    return out


def screen_text(group):
    """The labels of ``group`` top to bottom, left to right, one per line."""
    items = texts(group)
    items.sort()
    return "\n".join(t for _, _, t in items)
