"""Words for a judged race: "P3 first by 1.204 ms", reaction times, bests."""

from referee.core import seat
from referee.ticks import format_ms


def span(t_ns, precision_ns=1):
    """A time as precise as the capture: whole ms from a ms capture ("2 ms"),
    else "1.204 ms", "250.400 us" or "48 ns" (a sub-ms margin never reads 0.000)."""
    if precision_ns >= 1000000:
        return format_ms(t_ns, 0) + " ms"
    if -1000 < t_ns < 1000:
        return str(t_ns) + " ns"
    if -1000000 < t_ns < 1000000:
        return format_ms(t_ns * 1000) + " us"
    return format_ms(t_ns) + " ms"


def headline(race, precision_ns=1):
    """The verdict in one line, e.g. "P3 first by 1.204 ms" or "P1 P4 tie";
    ``precision_ns``: the box's (``box.precision_ns``), see ``span``."""
    w = race.winners()
    if race.is_void:
        return "void: " + str(race.void_reason)
    if not w:
        return "no winner"
    if len(w) > 1:
        return " ".join(seat(p) for p in w) + " tie"
    margin = race.margin_ns()
    if margin is None:
        return seat(w[0]) + " first"
    return seat(w[0]) + " first by " + span(margin, precision_ns)


def reaction_line(race, player, best_ns=None, precision_ns=1, short=False):
    """e.g. "P2 253.104 ms best 240.100" / "P2 FALSE START" / "P2 stuck button" (at most
    26 characters: a scale-2 line); ``short``: at most 13 (half a line: two columns
    at a large table), in tenths of a ms and without the best, e.g. "P2 253.1 ms" /
    "P2 too early"."""
    status = race.status(player)
    places = 0 if precision_ns >= 1000000 else 3
    if status == "false_start":
        return seat(player) + (" too early" if short else " FALSE START")
    if status == "stuck":
        return seat(player) + (" stuck" if short else " stuck button")
    rt = race.reaction(player)
    if rt is None:
        return seat(player) + " -"
    if short:  # tenths: "P2 253.1 ms" leaves a gap to the next column
        return seat(player) + " " + format_ms(rt, 0 if places == 0 else 1) + " ms"
    s = seat(player) + " " + span(rt, precision_ns)
    if best_ns is not None:
        s += " best " + format_ms(best_ns, places)
    return s
