# Würfelblitz's screen (320x240): the View the flow draws through. Built once for
# the table; afterwards only texts, colours, sizes and ``hidden`` change. The flow
# passes plain values (texts, colours, the throw, disc counts): all displayio is here.
#
# Top to bottom: the header (the round; who rolls, "GO!", who buzzed) over the time
# bar; the six coloured dice, the white dice and, right of them, a large text (who
# answers, the tap count, the answer); three info lines; the disc strip, one column
# per seat in its station colour. Everything a player reads is at scale 2 or more.
# The match-over screen: the winner at scale 4-5 (the largest thing on it) over the
# standings. With colour cues (REFEREE_COLOUR_CUES, the "Colour letters" option) the
# dice are ``referee.marks.Die``: every dot carries its colour's letter, every coloured
# die showing pips its own; seven seats' strip cells show the seat over "1/2".

import displayio
import vectorio

from games import wurfelblitz_rules as rules
from referee import die, palette, race_text, rings, screen
from referee.core import const, seat

_DIE = const(44)
_STEP = const(52)  # die + gap
_DICE_X = const(8)  # (320 - 6 dice - 5 gaps) // 2
_ROW1_Y = const(30)
_ROW2_Y = const(80)
_STRIP_Y = const(194)
_EDGE = const(0x909090)  # die outline on the dark background
_SKIPPED = const(0x404040)  # outline of a die that does not count, once the answer is shown
_MID_Y = const(78)  # the countdown digit's centre
# The countdown digit's scale: 60 px high, over the dice's 44 (one cell at scale 8 was
# 4,608 px, ~39 ms of one refresh on the firmware; at 5 1,800 px)
_DIGIT_SCALE = const(5)
_WIN_Y = const(62)  # the winner's centre on the match-over screen
_STAND_Y = const(96)
_BLINK_NS = const(2000000000)  # 2000 ms: a locked-out / false-start ring blinks red, then stays dim red
_OUT_RED = palette.scale(palette.BAD, 60)
_WHITE_PX = const(0xA0A0A0)  # a white disc on the ring: plainly lit under the brightness cap, no hue
LINE_CHARS = const(26)  # an info line at scale 2: (320 - 8) // 12
_TEXT_W = const(312)


def wrap(parts, width=LINE_CHARS):
    # ``parts`` packed into lines of ``width`` characters, two spaces between parts;
    # a part is broken (at its spaces) only when it is longer than a line.
    out = []
    line = ""
    for part in parts:
        gap = "  "
        for word in (part,) if len(part) <= width else part.split(" "):
            if not word:
                continue
            if line and len(line) + len(gap) + len(word) > width:
                out.append(line)
                line = ""
            line = line + gap + word if line else word
            gap = " "  # the words of a broken part
    if line:
        out.append(line)
    return out


def names(players):
    """"P2 P5": the seats, as a player reads them."""
    return " ".join(seat(p) for p in players)


def said(bots, words, verdict, verb):
    """e.g. ["P2 says 7", "P3 says 9"]: what each of ``bots`` said (``words[p]``), with
    the verdict once it has confirmed (``verdict[p]``)."""
    out = []
    for p in bots:
        v = verdict.get(p)
        out.append(seat(p) + verb + str(words[p]) + ("" if v is None else ": right" if v else ": wrong"))
    return out


def _set(label, text, color=None, scale=None):
    if scale is not None and label.scale != scale:
        label.set_scale(scale)
    if label.text != text:
        label.text = text
    if color is not None and label.color != color:
        label.color = color


class View:
    _drawn = _drawn_counts = None  # the throw (and its counts) show_throw drew last
    _worked = None  # the throw whose working and counts answer() holds

    def __init__(self, root, ring_set, players, whites, setup=False, cues=False):
        self.rings = ring_set  # the box's rings: each seat's discs show on its ring too
        self.blinking = {}  # seat -> end of its ring's red blink
        W = screen.WIDTH
        self.players = players
        self.cues = cues  # REFEREE_COLOUR_CUES: letters on the dice, seat numbers in the strip
        root.append(screen.background())
        self.top_left = screen.text("", 4, 2, 2, palette.DIM)
        # as wide as its longest text (``header``'s fit) from the start: a grid grown for a
        # longer text redrew its old and new boxes (13,824-19,296 px: 56-106 ms refreshes)
        # inked (its colour: the roller's, GO!'s, the headline's), ~500 B of heap
        self.top_right = screen.text("", W - 4, 2, 2, palette.TEXT, (1.0, 0.0), cols=(W - 44) // 12, inked=True)
        # even height: Blinka's PC display mis-sizes odd-area refreshes
        self.tbar = screen.rect(0, 25, W, 4, palette.WARN)
        screen.set_shown(self.tbar, False)
        self.tbar_w = -1
        self.dice_group = dice = displayio.Group()
        screen.set_shown(dice, False)
        for item in (self.top_left, self.top_right, self.tbar):
            root.append(item)
        frame = screen.solid(palette.GOOD)  # a green frame behind each coloured die that counts
        self.frames = []
        self.dice = []  # the six coloured dice, then the white ones
        for i in range(6):
            f = vectorio.Rectangle(pixel_shader=frame, x=_DICE_X - 3 + i * _STEP, y=_ROW1_Y - 3,
                                   width=_DIE + 6, height=_DIE + 6)
            screen.set_shown(f, False)
            self.frames.append(f)
            # behind the dice, not in their group: a group shown or hidden redraws every
            # shape in it, hidden ones too (the firmware's Group.c marks them dirty): the six
            # frames made the dice's show a 41-48 ms refresh in the dark, counted as one die
            root.append(f)
        root.append(dice)
        make = die.Die
        self.letters = None
        if cues:  # dice that carry letters (imported only then)
            from referee import marks

            make = marks.Die
            self.letters = marks.COLOURS
        for i in range(6 + whites):
            self.dice.append(make(_DICE_X + i % 6 * _STEP, _ROW1_Y if i < 6 else _ROW2_Y, _DIE))
            dice.append(self.dice[i].group)
        # inked: a call's "P3?" and the answer change colour a few cells a pass (its box
        # of 9,216 px recoloured whole was a 54 ms refresh on the firmware; ~200 B of heap)
        self.big = screen.text("", (_DICE_X + 3 * _STEP + W) // 2, _ROW2_Y + _DIE // 2, 4, palette.TEXT, (0.5, 0.5),
                               cols=8, inked=True)
        # the countdown digit (scale 8), the title (4) and the match's winner (4-5)
        self.mid = screen.text("", W // 2, _MID_Y, 8, palette.WARN, (0.5, 0.5), cols=13)
        root.append(self.big)
        root.append(self.mid)
        self.lines = []
        for y in (130, 152, 174):  # inked: a line's new colour (a right or wrong answer, the
            # summary's) redrew its 7,488 px whole, 43-54 ms passes; ~550 B of heap a line
            self.lines.append(screen.text("", 4, y, 2, cols=LINE_CHARS, inked=True))
            root.append(self.lines[-1])
        # the standings when the match is over (up to four rows of two columns): made
        # then, ~500 B of heap the play does not hold (Würfelblitz at seven seats has
        # the least room of the games)
        self.root = root
        self.standings = None
        # the strip: per seat one text of two rows in its station colour (one text, not
        # two: ~450 B a seat), at scale 2: the name over "B1 W2" if that fits the seat's
        # cell, else over "B1W2"; seven seats (45 px cells) leave no room for the name:
        # "B1" over "W2", or with colour cues the seat over "1/2" (blacks/whites)
        cell = W // players
        self.strip_gap = " " if cell >= 72 else "" if cell >= 52 else None
        self.seats = [None]
        self.strip = displayio.Group()
        root.append(self.strip)
        for p in range(1, players + 1):
            lb = screen.text("", (p - 1) * cell + cell // 2, _STRIP_Y, 2, palette.station(p), (0.5, 0.0), cols=5, rows=2)
            self.seats.append(lb)
            self.strip.append(lb)
        # handicap "each": a row per seat and how to change it (only built when needed)
        self.setup_rows = None
        if setup:
            self.setup_rows = [screen.centred("", 204, 2, palette.DIM)]
            for p in range(1, players + 1):
                self.setup_rows.append(screen.text("", 20, 28 + 22 * (p - 1), 2, palette.station(p), cols=LINE_CHARS))
            for lb in self.setup_rows:
                root.append(lb)

    # ------------------------------------------------------------------ the parts
    def header(self, left, right, color=palette.TEXT, left_color=palette.DIM):
        """The top line: ``left`` (None: unchanged) and ``right`` in ``color``."""
        if left is not None:
            _set(self.top_left, left, left_color)
        _set(self.top_right, screen.fit(right, screen.WIDTH - 44, 2), color)

    def bar(self, left, total):
        """The time bar: ``left`` of ``total`` (ns) as a share of the width; hidden at 0."""
        width = screen.WIDTH * left // total if left > 0 else 0
        if width != self.tbar_w:
            self.tbar_w = width
            screen.set_shown(self.tbar, width > 0)
            if width > 0:
                self.tbar.width = width

    def bar_next(self, deadline, total):
        """When the time bar next loses a pixel (None: it is empty): the first time T
        with WIDTH * (deadline - T) < width * total (``bar`` draws WIDTH * left // total)."""
        w = self.tbar_w
        return deadline - (w * total + screen.WIDTH - 1) // screen.WIDTH + 1 if w > 0 else None

    def show_big(self, text, color=palette.TEXT):
        _set(self.big, text, color)

    def show_mid(self, text, color=palette.WARN, scale=None):
        # (``scale`` None: as it is; a blank text is never rescaled: a new scale redraws
        # the box it leaves and the one it takes)
        _set(self.mid, text, color, scale if text else None)

    def show_throw(self, throw, counts=None):
        """The throw (a list of (colour, face)); ``counts``: None before the answer is
        shown, then one bool per coloured die (True: it counts, a green frame)."""
        if self._drawn is throw and self._drawn_counts is counts:
            return  # (the answer shown again: a wrong answer's, the roller's turn)
        self._drawn = throw
        self._drawn_counts = counts
        for i in range(len(throw)):
            colour, face = throw[i]
            pips = type(face) is int
            border = _EDGE
            if i < 6:
                judged = counts is not None
                screen.set_shown(self.frames[i], judged and counts[i])
                if judged and not counts[i]:
                    border = _SKIPPED
            die = self.dice[i]
            if self.letters:  # the dot's letter in the dot; a coloured die's own letter on it
                die.show(face if pips else None, palette.DICE[colour], None if pips else palette.DICE[face],
                         border, mark=self.letters[colour if pips else face])
            else:
                die.show(face if pips else None, palette.DICE[colour],
                         dot=None if pips else palette.DICE[face], border=border)
        screen.set_shown(self.dice_group)

    def hide_throw(self):
        self._drawn = None
        screen.set_shown(self.dice_group, False)
        for f in self.frames:
            screen.set_shown(f, False)

    def info(self, parts=(), color=palette.TEXT, working="", rest=()):
        """The three info lines: ``parts`` wrapped from the first line in ``color`` (a
        part is never cut), then the answer's ``working`` (word-wrapped; cut before its
        " -> " if it does not fit what is left) or the ``rest`` parts, in white."""
        lines = wrap(parts)
        first = len(lines)
        if working:
            more = wrap((working,))
            left = 3 - first
            if len(more) > left > 0:
                cut = working.find(" -> ")
                if cut >= 0:
                    more = [working[:cut], working[cut + 1:]] if left > 1 else [working[cut + 1:]]
            lines += more
        lines += wrap(rest)
        for i in range(3):
            text = lines[i] if i < len(lines) else ""
            _set(self.lines[i], screen.fit(text, _TEXT_W, 2), color if i < first else palette.TEXT)

    def discs(self, p, black, white, roller):
        gap = self.strip_gap
        b = "B" + str(black)
        w = "W" + str(white)
        top = ("*" if roller else "") + (seat(p) if gap is not None or self.cues else b)
        if gap is not None:
            low = b + gap + w
        elif self.cues:  # seven seats: no room for "B1W2" under the seat
            low = str(black) + "/" + str(white)
        else:
            low = w
        # centre the shorter row on the longer (the text's rows are left-aligned)
        n = len(low) - len(top)
        if n > 0:
            top = "  "[:n // 2] + top
        else:
            low = "  "[:-n // 2] + low
        _set(self.seats[p], top + "\n" + low)

    def waiting(self, round_no, roller, bot, summary, thrown, teaser):
        """The roller's turn: the header names the round; once ``thrown``, the last
        throw and its answer stay (the flow shows them), else the last round's
        ``summary`` or, before the first throw, how to play (``teaser``: the brainteaser's)."""
        self.header("Round " + str(round_no), seat(roller) + (" rolls" if bot else ": tap to roll"), palette.station(roller))
        self.bar(0, 1)
        self.show_mid("")
        if thrown:
            return
        self.hide_throw()
        self.show_big("")
        if summary:
            self.info(summary, palette.WARN)
        else:
            t = teaser
            self.show_mid(rules.TITLE, palette.WARN, 4)
            self.info(("Add the pips of the dice", "A dot twice: count the" if t else "whose colour shows no dot."),
                      rest=("dotted colours instead!" if t else "First right: white disc",))

    def rolled(self, round_no, roller):
        """The roller rolled: a clean screen for the countdown."""
        self.hide_throw()
        self.show_mid("")
        self.show_big("")
        self.info()
        self.header("Round " + str(round_no), seat(roller) + " rolls", palette.station(roller))

    def countdown(self, digit, throw, flagged, now):
        """3, 2, 1 big and on the rings of those not ``flagged``; at 0 the ``throw``
        drawn (the backlight is off) under "GO!", the rings dark."""
        if digit:
            self.show_mid(str(digit), palette.WARN, _DIGIT_SCALE)
        else:
            self.show_mid("")
            self.show_throw(throw)
            self.header(None, "GO!", palette.GOOD)
        for p in range(1, self.players + 1):
            if p not in flagged:
                if digit:
                    self.rings.set(p, rings.COUNT, palette.WARN, 4 * digit, 0, now)
                else:
                    self.rings.set(p, rings.OFF)

    def call(self, who, bot_words):
        """Call mode: ``who`` buzzed and says the answer aloud now."""
        one = len(who) == 1
        color = palette.station(who[0]) if one else palette.TEXT
        self.show_big((names(who) if one else "") + "?", color)
        self.info((names(who) + ": say it now!",), color, rest=bot_words)

    def wrong(self, parts, now=True):
        """Tap mode, the answer hidden: the wrong answers (``parts``); ``now``: just
        judged (a big X, the race open for the others), else still on screen after."""
        self.show_big("X" if now else "", palette.BAD)
        self.info(parts, palette.BAD, rest=("race open for the others",) if now else ())

    def ring_out(self, p, now):
        """Seat ``p`` is out of the round (a false start, a wrong answer): its ring
        blinks red for _BLINK_NS, then stays dim red (``unblink``)."""
        self.rings.set(p, rings.BLINK, palette.BAD, now_ns=now)
        self.blinking[p] = now + _BLINK_NS

    def unblink(self, now, in_round):
        """Rings whose red blink is over turn dim red (while the round goes on)."""
        for p in sorted(self.blinking):
            if now >= self.blinking[p]:
                del self.blinking[p]
                if in_round:
                    self.rings.set(p, rings.SOLID, _OUT_RED, now_ns=now)

    def ring_rest(self, p, d, now):
        """Seat ``p``'s discs ``d`` on its ring: 12 pixels, a bright quarter per black
        disc, then one white pixel per white disc (neutral, half as bright), the rest
        faint in the station colour."""
        c = palette.station(p)
        px = [c] * (min(d.black, 3) * 4) + [_WHITE_PX] * d.white + [palette.scale(c, 30)] * rings.PER_RING
        self.rings.set(p, rings.PIXELS, arg=px[:rings.PER_RING], now_ns=now)

    def rings_rest(self, discs, skip, now):
        """Every seat's ring shows its discs, but those in ``skip``."""
        for p in range(1, self.players + 1):
            if p not in skip:
                self.ring_rest(p, discs[p], now)

    def rings_wait(self, roller, discs, now):
        """The roller's ring pulses; the others show their discs."""
        for p in range(1, self.players + 1):
            if p == roller:
                self.rings.set(p, rings.PULSE, palette.station(p), now_ns=now)
            else:
                self.ring_rest(p, discs[p], now)

    def all_discs(self, discs, roller):
        """Every seat's discs (``discs[p]``: black, white); ``roller`` marked (None: nobody)."""
        for p in range(1, self.players + 1):
            d = discs[p]
            self.discs(p, d.black, d.white, p == roller)

    def handicaps(self, discs, bots):
        """Handicap "each": every player taps to set their own whites per black."""
        self.header("Whites for a black", "", palette.TEXT, palette.WARN)
        self.info()
        rows = []
        for p in range(1, self.players + 1):
            h = discs[p].handicap
            rows.append("P%d: %d white%s%s" % (p, h, "s" if h > 1 else "", " (bot)" if p in bots else ""))
        self.setup(rows)

    def headline(self, round_no, rebound, race, precision_ns):
        """Who answers and by how much they were first, e.g. "P3 first by 1.204 ms"."""
        self.header("R" + str(round_no), ("next: " if rebound else "") + race_text.headline(race, precision_ns), palette.WARN)

    def answer(self, answer, parts, color, throw, teaser):
        """The right answer, big, the throw with the dice that count framed, and
        ``parts`` in ``color`` over the answer's working."""
        if self._worked is not throw:  # worked out once a throw (its answer is shown again)
            self._worked = throw
            self._working = rules.explain(throw, teaser)
            self._counts = rules.counting(throw, teaser)
        self.show_big("=" + str(answer), palette.GOOD)
        self.info(parts, color, self._working)
        self.show_throw(throw, self._counts)

    def confirm(self, humans, bot_words, answer, throw, teaser):
        """Call mode, the answer shown: who still has to hold (= "I said that") or tap
        (``humans``), and what the bots said (``bot_words``)."""
        parts = []
        if humans:
            text = names(humans) + ": hold=said it tap=other"
            if len(text) > LINE_CHARS:
                text = names(humans) + ": hold=yes tap=no"
            parts.append(text)
        self.answer(answer, parts + bot_words, palette.WARN, throw, teaser)

    def entry(self, who, taps, humans, verdict):
        """Tap mode: the count so far (``taps[p]``), big for one answerer, in a row for
        several (a "!" once sent); ``humans``: who still taps."""
        counts = ""
        if len(who) == 1:
            self.show_big(str(taps[who[0]]), palette.station(who[0]))
        else:
            self.show_big("")
            for p in who:
                counts += "  P" + str(p) + ":" + str(taps[p]) + ("" if verdict.get(p) is None else "!")
        head = names(humans) + ": tap answer, hold=send" if humans else names(who) + " tapping..."
        self.info((head,), palette.WARN, rest=(counts[2:],))

    def notes(self, out, stuck):
        """This round's false starts (``out``) and stuck buttons, e.g. "P2 P5 false start: out"."""
        parts = []
        if out:
            parts.append(names(out) + " false start: out")
        if stuck:
            parts.append(names(stuck) + " held down: let go")
        self.info(parts, palette.BAD)

    def setup(self, rows):
        """Handicap "each": one row per seat (the strip makes room); None ends it."""
        screen.set_shown(self.strip, rows is None)
        if rows is None:
            for lb in self.setup_rows or ():
                lb.text = ""
            return
        for p in range(1, self.players + 1):
            _set(self.setup_rows[p], rows[p - 1])
        _set(self.setup_rows[0], "tap: change  hold: start")

    def over(self, champions, ranked, discs):
        """The match is over: who won (``champions``) as large as fits, the standings
        (``ranked``: (place, seat) best first; ``discs[p]``) below it in two columns."""
        self.header("Match over", "hold: menu", palette.DIM)
        one = len(champions) == 1
        words = names(champions) + (" WINS!" if one else " WIN!")
        color = palette.station(champions[0]) if one else palette.WARN
        standings = []
        for place, p in ranked:
            d = discs[p]
            standings.append("%d. %s B%d W%d" % (place, seat(p), d.black, d.white))
        self.hide_throw()
        self.bar(0, 1)
        self.show_big("")
        self.info()
        n = len(words)
        scale = 5 if n <= 10 else 4 if n <= 13 else 3 if n <= 17 else 2
        self.mid.anchored_position = (screen.WIDTH // 2, _WIN_Y)
        _set(self.mid, words, color, scale)
        rows = []
        for i in range(min(4, len(standings))):
            row = standings[i]
            if i + 4 < len(standings):
                row += " " * (13 - len(row)) + standings[i + 4]
            rows.append(row)
        if self.standings is None:
            self.standings = screen.text("", 8, _STAND_Y, 2, cols=LINE_CHARS, rows=4)
            self.root.append(self.standings)
        _set(self.standings, "\n".join(rows))
