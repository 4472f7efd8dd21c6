"""The box's wiring for the memory benchmark's fakes (VM only): what each GPIO reads,
on the virtual clock of the fake ``time``.

A pin reads, in order of precedence: a button holding it to GND (``press``), the
level the pin drives itself (a ``digitalio`` output), the pin a jumper wires it to
(GP9 <- GP22: the backlight's REVEAL line, docs/capture.md), its pull (1 up, else 0).

Listeners (the PIO capture state machine, ``keypad.Keys``) see every change at its
time and the clock pass: ``advance(t_ns)`` applies the button changes due by then,
in time order. The fake ``time`` calls it whenever the box reads the clock, so the
box sees the wires as they are "now", as the board's DMA and key scanner run in the
background. Pressing is for the benchmark's person (``_person``): bots press
nothing here, they play inside their games.

Everything is allocated at import, before the benchmark's baseline: a press
scheduled later is three small ints in a preallocated list (times in ms), so the
wiring keeps no heap of its own in any measured stage.
"""

GPIOS = 30
EXT = [None] * GPIOS  # level a button drives from outside (0 = held to GND), None = open
OUT = [None] * GPIOS  # level the pin drives as an output
PULL = [0] * GPIOS  # 1 = pull-up
JUMPER = [None] * GPIOS  # gpio -> the gpio whose net a wire connects it to
JUMPER[9] = 22  # REVEAL (GP9) <- TFT_LITE (GP22)

LISTENERS = [None] * 4  # objects with _change(t_ns) and _time(t_ns)
N = [0]  # listeners in use
QLEN = 32  # pending button changes at most
Q = [0] * (3 * QLEN)  # (at_ms, gpio, level) each; level 2 = open
QN = [0]  # pending changes in use
MS = 1000000


def level(gpio):
    v = EXT[gpio]
    if v is not None:
        return v
    v = OUT[gpio]
    if v is not None:
        return v
    j = JUMPER[gpio]
    if j is not None:
        return level(j)
    return PULL[gpio]


def listen(obj):
    LISTENERS[N[0]] = obj
    N[0] += 1


def _changed(t_ns):
    for i in range(N[0]):
        LISTENERS[i]._change(t_ns)


def _time(t_ns):
    for i in range(N[0]):
        LISTENERS[i]._time(t_ns)


def output(gpio, value, t_ns):
    """A pin driven by the box itself (``digitalio``) changed at ``t_ns``."""
    _time(t_ns)
    OUT[gpio] = 1 if value else 0
    _changed(t_ns)


def schedule(at_ms, gpio, lvl):
    """A button change at ``at_ms`` (ms of the virtual clock): ``lvl`` 0 held to GND,
    None open. Raises IndexError when QLEN changes are pending."""
    n = QN[0]
    if n >= QLEN:
        raise IndexError("_wire: too many pending presses")
    Q[3 * n], Q[3 * n + 1], Q[3 * n + 2] = at_ms, gpio, 2 if lvl is None else lvl
    QN[0] = n + 1


def press(gpio, at_ms, hold_ms):
    """A person's finger on the button of ``gpio`` from ``at_ms`` for ``hold_ms``."""
    schedule(at_ms, gpio, 0)
    schedule(at_ms + hold_ms, gpio, None)


def advance(t_ns):
    """Apply every button change due by ``t_ns`` (in time order, each at its time),
    then let the listeners see the clock reach ``t_ns``."""
    while QN[0]:
        k = 0
        for i in range(1, QN[0]):
            if Q[3 * i] < Q[3 * k]:
                k = i
        at = Q[3 * k] * MS
        if at > t_ns:
            break
        gpio, lvl = Q[3 * k + 1], Q[3 * k + 2]
        last = 3 * (QN[0] - 1)
        Q[3 * k], Q[3 * k + 1], Q[3 * k + 2] = Q[last], Q[last + 1], Q[last + 2]
        QN[0] -= 1
        _time(at)
        EXT[gpio] = None if lvl == 2 else lvl
        _changed(at)
    _time(t_ns)
