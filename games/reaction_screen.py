"""The reaction test's screen (games/reaction.py draws through it): built once for the
table, then only texts, colours and the background's bands change.

Top to bottom: the round (scale 2), the big word (GET READY, the winner; scale 4), the
stimulus "GO!" (scale 4, a text of its own: never moved or rescaled, which would redraw
it whole), the margin ("P3 first by 1.204 ms"), one row per seat at scale 2 (one column
up to 4 seats, two columns of half a line from 5), and the foot (the capture's
precision for the maker; "hold a button: menu" at the end, at scale 2).
"""

from referee import palette, race_text, screen
from referee.bands import Bands
from referee.core import MS, const, seat

_ROWS = const(4)  # seat rows in one column; more seats take two columns


class View:
    def __init__(self, root, players, box):
        self.players = players
        # in bands: the device draws the green screen a band a refresh (referee.bands)
        self.bg = Bands(palette.BG, 60)  # 320 x 4 px a band: ~10 ms of a refresh
        root.append(self.bg)
        self.title = screen.text("", 6, 4, 2, palette.DIM)
        root.append(self.title)
        # inked: the winner's colour drawn a glyph cell a pass (one refresh of the whole
        # word, "P3 WINS", was 72-93 ms on the firmware; a cell is 1,152 px, ~9 ms)
        self.big = screen.text("", screen.WIDTH // 2, 36, 4, palette.TEXT, (0.5, 0.0), screen.WIDTH // 24, inked=True)
        root.append(self.big)
        # scale 4 (48 px, 9.7 mm on the recommended panel, 6.1 on the smallest: over the
        # race's 6 mm; the green screen itself is the stimulus), above the seats' rows:
        # a cell is drawn or blanked a pass, at scale 8 over them a 53 ms refresh on the
        # firmware, at scale 6 26-31 ms (~10 µs a pixel under the green screen's bands)
        self.go_text = screen.text("", (screen.WIDTH - 3 * 24) // 2, 40, 4, palette.BLACK, cols=3)
        root.append(self.go_text)
        # a line as wide as the screen from the start: a longer margin or verdict never
        # widens (and so moves and redraws) it whole
        self.head = screen.text("", screen.WIDTH // 2, 88, 2, palette.WARN, (0.5, 0.0), cols=26)
        root.append(self.head)
        self.lines = []
        self.short = players > _ROWS  # two columns of half a line (13 characters)
        for p in range(1, players + 1):
            col, row = ((p - 1) // _ROWS, (p - 1) % _ROWS) if self.short else (0, p - 1)
            lb = screen.text("", 4 + col * 160, 112 + row * 25, 2, palette.station(p),
                             cols=13 if self.short else 0)
            self.lines.append(lb)
            root.append(lb)
        self.foot = screen.centred("", screen.HEIGHT - 12, 1, palette.DIM)
        root.append(self.foot)
        if box.precision_ns >= MS:
            self.foot.text = box.capture_name + " capture: ms precision"

    def ready(self, round_no, rounds):
        """Round ``round_no`` of ``rounds`` is about to go dark."""
        self.bg.set(palette.BG)
        self.title.text = "Reaction test  round " + str(round_no) + "/" + str(rounds)
        self.go_text.text = ""
        self.big.text = "GET READY"
        self.big.color = palette.TEXT
        self.head.text = "press when it lights up"
        for lb in self.lines:
            lb.text = ""

    def stimulus(self):
        """The green screen and GO! (drawn in the dark; the backlight reveals it)."""
        self.bg.set(palette.GOOD)
        self.title.text = ""
        self.big.text = ""
        self.go_text.text = "GO!"
        self.head.text = ""

    def result(self, race, title, best, precision_ns):
        """The judged ``race``: who won, by how much, every seat's time (``best[p]``:
        its best so far)."""
        self.bg.set(palette.BG)
        w = race.winners()
        self.go_text.text = ""
        self.title.text = title
        self.big.text = (seat(w[0]) + " WINS") if len(w) == 1 else ("TIE" if w else "NO WINNER")
        self.big.color = palette.station(w[0]) if len(w) == 1 else palette.TEXT
        # "NO WINNER" over "no winner" said it twice: the line says why
        self.head.text = race_text.headline(race, precision_ns) if w or race.is_void else (
            "nobody pressed after GO!")
        for p in range(1, self.players + 1):
            self.lines[p - 1].text = race_text.reaction_line(race, p, best[p], precision_ns, self.short)

    def void(self, why):
        """The round cannot be judged (``why``): it is played again."""
        self.big.text = "VOID"
        self.head.text = why

    def over(self, winners, tie_break, wins, best, precision_ns):
        """The match is over: the winners, every seat's wins (and best time where a
        row has room), "hold a button: menu"."""
        self.title.text = "Match over"
        self.big.text = " ".join(seat(p) for p in winners) + " WIN" + ("" if len(winners) > 1 else "S")
        self.big.color = palette.station(winners[0]) if len(winners) == 1 else palette.TEXT
        top = best[winners[0]]
        if tie_break and top is not None:  # the winners' best time broke the tie
            self.head.text = "tied: best " + race_text.span(top, precision_ns) + " wins"
        elif tie_break:
            self.head.text = "tied on wins"
        else:
            self.head.text = "round wins" + ("" if self.short else " and best times")
        for p in range(1, self.players + 1):
            n = wins[p]
            if self.short:  # "P3 2 wins": half a line
                txt = seat(p) + " " + str(n) + (" win" if n == 1 else " wins")
            else:  # "P1 wins 1  best 208.461 ms"
                txt = seat(p) + " wins " + str(n)
                if best[p] is not None:
                    txt += "  best " + race_text.span(best[p], precision_ns)
            self.lines[p - 1].text = txt
        self.foot.set_scale(2)  # a player reads it (the maker's capture note stays small)
        self.foot.anchored_position = (screen.WIDTH // 2, screen.HEIGHT - 24)
        self.foot.text = "hold a button: menu"
