"""The memory benchmark's person at the box: plays the self test as someone with
the box in front of them does (VM and CPython; no fake imported).

The self test (lib/referee/selftest.py) asks on its big line; the person reads it
and answers with a button after ``REACT_MS``:

* "Ring P3", "All rings", "REVEAL line", "Sound": watch (nothing to press);
* "Press P3": a tap on station 3;
* "Tap MENU": a tap on the MENU button; the pause menu opens, with "Resume"
  chosen: the person holds station 1 (a hold picks the chosen line). A person
  told to skip the MENU step (``hold_menu``) holds station 1 instead, as the
  screen offers ("no MENU button? hold a station"): no pause menu is built;
* "Done" / "Check": the summary; the person reads it.

A prompt still on screen ``RETRY_MS`` after the answer was let go is answered
again (a press the box did not take). ``answer`` is the plan (pure); ``Person.look``
times it. Where the press goes (a GPIO through the fake wiring in the VM, a
``SimTable.press`` on the PC) is the caller's.
"""

MENU = 8  # referee.gestures.MENU: the MENU button's input number
TAP_MS = 80
HOLD_MS = 900  # a hold is 600 ms (referee.gestures.HOLD_MS): held well past it
REACT_MS = 400
RETRY_MS = 3000


def answer(mode, big, hold_menu=False):
    """(input, press ms) that answers what the screen shows, or None: ``mode`` the
    app's mode ("game", "pause", ...), ``big`` the self test's big line;
    ``hold_menu``: skip the MENU step with a hold instead of tapping MENU."""
    if mode == "pause":
        return (1, HOLD_MS)  # "Resume" is the chosen line: hold a station
    if mode != "game" or not big:
        return None
    if big.startswith("Press P"):
        return (int(big[7:]), TAP_MS)
    if big == "Tap MENU":
        return (1, HOLD_MS) if hold_menu else (MENU, TAP_MS)
    return None


class Person:
    def __init__(self):
        self.presses = 0  # every press made (not reset between games)
        self.hold_menu = False  # skip the self test's MENU step with a station hold
        self.reset()

    def reset(self):
        self.prompt = None  # (mode, big line) last acted on
        self.mode = None
        self.seen_ms = 0  # when the current prompt appeared
        self.done_ms = None  # when it was answered (None: not yet)
        self.free_ms = 0  # the person's hand is free again (the last press let go)

    def look(self, mode, big, now_ms):
        """(input, at ms, press ms) to press now, or None. Call every loop pass."""
        if mode != self.mode or big != self.prompt:
            self.mode, self.prompt = mode, big
            self.seen_ms = now_ms
            self.done_ms = None
        a = answer(mode, big, self.hold_menu)
        if a is None or now_ms < self.free_ms:
            return None
        if self.done_ms is None:
            if now_ms - self.seen_ms < REACT_MS:
                return None
        elif now_ms - self.free_ms < RETRY_MS:
            return None
        self.free_ms = now_ms + a[1]
        self.done_ms = now_ms
        self.presses += 1
        return (a[0], now_ms, a[1])
