"""First-boot self test: a game-like walk through every part of the box.

1. Rings: each seat's ring lights in its colour, one after another, then all
   rings white together (the power supply must hold that).
2. Buttons: "press P1", "press P2", ... each press is named on screen with its
   pin; a wrong button is named too (crossed wires show at once). Holding an
   already tested button skips one that is missing.
3. REVEAL: the backlight goes off and on; both edges must come back through
   capture (on the device: the GP22 -> GP9 jumper). With keypad capture the
   box cannot sense the line and says so.
4. Sound: a rising four-note cue.
5. MENU (when fitted): tap it, the pause menu opens, choose Resume.
Then a summary; hold any button to go back to the launcher.
"""

from referee import palette, rings, screen, sound
from referee.box import REVEAL
from referee.core import MS, const, seat
from referee.game import BaseGame
from referee.gestures import HOLD

TITLE = "Self test"
MIN_PLAYERS = 1
MAX_PLAYERS = 7
BOTS_CAN_PLAY = False  # it checks the wiring: people press the buttons (no bot seats asked)
COUNT_WORDS = ("Stations fitted", "station", "stations")  # the launcher asks this, then starts
OPTIONS = ()

RING_NS = 700 * MS
ALL_NS = 1000 * MS
REVEAL_WAIT_NS = 300 * MS
SOUND_NS = 1200 * MS

RINGS = const(0)
ALL = const(1)
BUTTONS = const(2)
REVEAL_OFF = const(3)
REVEAL_ON = const(4)
SOUND = const(5)
MENU_STEP = const(6)
DONE = const(7)



_ROWS = const(5)
_COLS = const(26)  # characters a scale-2 line holds on 320 px


def wrap(line, cols):
    """``line`` as rows of at most ``cols`` characters, broken at spaces."""
    rows = []
    while len(line) > cols:
        cut = line.rfind(" ", 0, cols + 1)
        if cut <= 0:
            cut = cols
        rows.append(line[:cut])
        line = line[cut:].lstrip()
    rows.append(line)
    return rows

class Game(BaseGame):
    """The self test (module doc): a seat per station fitted, no bots. ``menu_button``
    in the settings adds the MENU step; the box's ``pin_names`` (when it has them)
    name each station's pin on the screen."""

    TITLE = TITLE
    NAMES = ("rings", "all", "buttons", "reveal_off", "reveal_on", "sound", "menu", "done")
    FLOW = (
        (RINGS, ALL, DONE),  # RINGS: one ring after another, then all
        (BUTTONS, DONE),  # ALL
        (REVEAL_OFF, DONE),  # BUTTONS
        (REVEAL_ON, DONE),  # REVEAL_OFF
        (SOUND, DONE),  # REVEAL_ON
        (MENU_STEP, DONE),  # SOUND
        (DONE,),  # MENU_STEP
        (),  # DONE
    )
    VERSION = 1  # the shape of state(): bump it when it changes (a save of another is not resumed)

    def __init__(self, box, players, bots=(), seed=0, options=None, settings=None):
        super().__init__(box, players, bots, seed, options, settings)
        s = settings or {}
        self.want_menu = bool(s.get("menu_button", False))
        self.names = getattr(box, "pin_names", None) or {}
        self.phase = RINGS
        self.ring = 0
        self.until = 0
        self.expect = 0
        self.ok = []  # stations whose press arrived when asked
        self.skipped = []
        self.wrong = []  # (pressed, expected)
        self.reveal_seen = []  # levels seen on the REVEAL input
        self.reveal_result = ""
        self.menu_result = ""
        self._fallbacks = 0
        self._build()

    def _build(self):
        root = self.root
        root.append(screen.background())
        self.title = screen.text("Self test", 6, 4, 2, palette.WARN)
        root.append(self.title)
        # as wide as its longest text ("REVEAL line") from the start: a grid grown for a
        # longer text redrew its old and new boxes whole ("All rings": 10,368 px, a 62 ms
        # refresh on the firmware)
        self.big = screen.text("", screen.WIDTH // 2, 40, 3, palette.TEXT, (0.5, 0.0), cols=11)
        root.append(self.big)
        self.lines = []
        for i in range(_ROWS):  # scale 2, legible from across the table; long lines wrap
            lb = screen.text("", 4, 80 + i * 25, 2, cols=_COLS)
            self.lines.append(lb)
            root.append(lb)
        self.foot = screen.centred("", screen.HEIGHT - 24, 2, palette.DIM)
        root.append(self.foot)

    def pin(self, player):
        """The pin of station ``player`` as the screen shows it, " (GP2)"; "" when the
        box names none."""
        n = self.names.get(player)
        return " (" + n + ")" if n else ""

    def say(self, big, *lines):
        """``big`` in large type, then ``lines`` wrapped into the rows under it (what
        does not fit is not shown)."""
        self.big.text = big
        rows = []
        for line in lines:
            rows.extend(wrap(line, _COLS))
        for i, lb in enumerate(self.lines):
            lb.text = rows[i] if i < len(rows) else ""

    # --- flow ------------------------------------------------------------------
    def start(self, now_ns):
        """The test begins with the rings: the first one lit."""
        self._next_ring(now_ns)

    def _next_ring(self, now_ns):
        self.ring += 1
        r = self.box.rings
        r.all(rings.OFF)
        if self.ring <= self.players:
            p = self.ring
            r.set(p, rings.SOLID, palette.station(p), now_ns=now_ns)
            self.say("Ring P" + str(p), "lit all round in its colour?", "each ring lights in turn")
            self.until = now_ns + RING_NS
        else:
            self.go(ALL, now_ns)
            for p in range(1, self.players + 1):
                r.set(p, rings.SOLID, palette.WHITE, now_ns=now_ns)
            self.say("All rings", "white at the brightness cap:", "the supply must hold this")
            self.until = now_ns + ALL_NS

    def _buttons(self, now_ns):
        self.go(BUTTONS, now_ns)
        self.box.rings.all(rings.OFF)
        self.expect = 0
        self._next_button(now_ns)

    def _next_button(self, now_ns):
        self.expect += 1
        while self.expect <= self.players and (self.expect in self.ok or self.expect in self.skipped):
            self.expect += 1
        if self.expect > self.players:
            self._reveal_test(now_ns)
            return
        p = self.expect
        self.box.rings.set(p, rings.PULSE, palette.station(p), now_ns=now_ns)
        self.say(
            "Press P" + str(p),
            "station " + str(p) + self.pin(p),
            "tested: " + (" ".join(seat(q) for q in self.ok) or "-"),
            "hold a tested button to skip P" + str(p),
        )

    def _reveal_test(self, now_ns):
        self.go(REVEAL_OFF, now_ns)
        self.box.rings.all(rings.OFF)
        self.reveal_seen = []
        self._fallbacks = getattr(self.box, "reveal_fallbacks", 0)
        self.say("REVEAL line", "the screen goes dark for a moment")
        self.box.reveal(False)
        self.until = now_ns + REVEAL_WAIT_NS

    def _reveal_done(self, now_ns):
        self.box.reveal(True)
        self.go(REVEAL_ON, now_ns)
        self.until = now_ns + REVEAL_WAIT_NS

    def _reveal_verdict(self):
        box = self.box
        seen = self.reveal_seen
        if getattr(box, "capture_name", "") == "keypad":
            return "REVEAL: not sensed (keypad capture, ms precision)"
        if getattr(box, "reveal_fallbacks", 0) > self._fallbacks or False not in seen or True not in seen:
            return "REVEAL: FAIL, no edge on " + self.names.get(REVEAL, "the REVEAL input") + " (jumper?)"
        return "REVEAL: OK (captured)"

    def _sound(self, now_ns):
        self.reveal_result = self._reveal_verdict()
        self.go(SOUND, now_ns)
        self.say("Sound", "listen: four rising notes", self.reveal_result)
        self.box.sound.play(sound.WIN, now_ns)
        self.until = now_ns + SOUND_NS

    def _menu(self, now_ns):
        if not self.want_menu:
            self._done(now_ns)
            return
        self.go(MENU_STEP, now_ns)
        self.say("Tap MENU", "the pause menu opens:", "choose Resume (hold)", "no MENU button? hold a station")

    def _done(self, now_ns):
        self.go(DONE, now_ns)
        self.over = True
        missing = [p for p in range(1, self.players + 1) if p not in self.ok]
        lines = [
            "Rings " + str(self.players) + ", sound played",
            "Buttons: " + str(len(self.ok)) + "/" + str(self.players)
            + (" OK" if not missing else ", missing " + " ".join(seat(p) for p in missing)),
            self.reveal_result,
        ]
        if self.want_menu:
            lines.append(self.menu_result or "MENU: skipped")
        if self.wrong:
            pressed, expected = self.wrong[-1]
            lines.append("wrong: P" + str(pressed) + " (asked P" + str(expected) + ")")
        self.say("Done" if not missing and "OK" in self.reveal_result else "Check", *lines)
        self.foot.text = "hold a button: menu"
        self.box.rings.rest(self.players, now_ns)

    # --- called by the app -----------------------------------------------------------
    def edge(self, player, t_ns, pressed):
        """At the buttons step a press of the station asked passes it and a wrong one
        is named; during the REVEAL step the line's edges are noted. No race here."""
        if player == REVEAL:
            if self.phase in (REVEAL_OFF, REVEAL_ON):
                self.reveal_seen.append(bool(pressed))
            return
        if self.phase != BUTTONS or not pressed:
            return
        if player == self.expect:
            self.ok.append(player)
            self.box.rings.set(player, rings.SOLID, palette.GOOD, now_ns=t_ns)
            self.box.sound.play(sound.CLICK, t_ns)
            self._next_button(t_ns)
        elif player not in self.ok:
            self.wrong.append((player, self.expect))
            self.lines[_ROWS - 1].text = seat(player) + " pressed, P" + str(self.expect) + " asked"

    def gesture(self, player, kind, count, now_ns):
        """A hold: at the buttons step, of a tested button, skips the station asked; at
        the MENU step it ends the test, MENU skipped."""
        if kind != HOLD:
            return
        if self.phase == BUTTONS and player in self.ok and player != self.expect:
            self.skipped.append(self.expect)
            self.box.rings.set(self.expect, rings.BLINK, palette.BAD, now_ns=now_ns)
            self._next_button(now_ns)
        elif self.phase == MENU_STEP:
            self.menu_result = "MENU: skipped"
            self._done(now_ns)

    def resumed(self, now_ns, paused_ns):
        """The pause menu closed: at the MENU step, that was MENU's test, passed."""
        if self.phase == MENU_STEP:
            self.menu_result = "MENU: OK"
            self._done(now_ns)

    def tick(self, now_ns):
        """The timed steps go on: ring after ring, all rings, the REVEAL line, the sound."""
        if self.phase == RINGS and now_ns >= self.until:
            self._next_ring(now_ns)
        elif self.phase == ALL and now_ns >= self.until:
            self._buttons(now_ns)
        elif self.phase == REVEAL_OFF and now_ns >= self.until:
            self._reveal_done(now_ns)
        elif self.phase == REVEAL_ON and now_ns >= self.until:
            self._sound(now_ns)
        elif self.phase == SOUND and now_ns >= self.until:
            self._menu(now_ns)

    def standings(self):
        """What the test found so far, a row per station."""
        wrong = {}
        for p, e in self.wrong:
            wrong[e] = p
        out = []
        for p in range(1, self.players + 1):
            if p in self.ok:
                how = "ok"
            elif p in wrong:
                how = "wrong: " + seat(wrong[p]) + " came"
            elif p in self.skipped:
                how = "skipped"
            else:
                how = "not tested"
            out.append((p, seat(p) + "  " + how))
        return out

    def state(self):
        """The seed and the stations that passed (the self test is not resumed)."""
        return {"seed": self.seed, "ok": list(self.ok)}
