"""Offline: compute the Zilch bots' expected-value tables (host only, CPython).

    python tools/zilch_table.py            # print the figures and thresholds
    python tools/zilch_table.py --write    # regenerate the table block in games/zilch_strategy.py
    python tools/zilch_table.py --check    # exit 1 if the stored block is out of date
    python tools/zilch_table.py --simulate 20000   # also play that many turns per bot

Model (docs/zilch_bot.md has the full story). A state is (t, n): t turn points so far (a
multiple of 50), n the number of dice the next roll uses (6 at the start of the turn and
after turning the corner). In a state the player may bank t, if that is legal (t at least
the minimum and n < 6), or roll n dice. Rolling gives each multiset r of n faces with
probability multinomial(r) / 6**n; a Zilch ends the turn with 0; otherwise the player
picks a legal set-aside s of r, reaching (t + score(s), n - |s|, or 6 if that is 0).

    V(t, n) = max(t if bank legal, R(t, n))
    R(t, n) = sum_r P(r) * max_s V(t + score(s), n')        (0 for a Zilch)

Every set-aside scores at least 50, so V(t, .) only depends on states with more points:
one backward sweep from a cap down to t = 0 solves the equations exactly (no iteration
is needed; the value iteration converges in one pass). Above the cap the tail is closed
form: banking is certain for n < 6 (V = t) and, with six dice, V(t, 6) = a t + b where
the player banks whenever the roll leaves a die and re-rolls when it must.
The cap is 40,000 points: any cap from 30,000 to 100,000 gives the same stored numbers,
and the expected points per turn agree to 1e-6 point even with a cap of 20,000.

The set-asides are reduced per roll to the best score for each number of dice used
(V grows with t, so a lower score with the same dice count is never better).
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (ROOT, os.path.join(ROOT, "lib")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from games.zilch_rules import Rules, gain, is_zilch, options  # noqa: E402

STEP = 50
CAP = 40000
ON_BOARD = 350          # the later minimum; the main table
ENTRY = 500             # the first-bank minimum; the entry table covers t < ENTRY
FIT_SPAN = 20000        # span used to fit the straight-line tail beyond the stored range
VARIANTS = (("classic", Rules.classic), ("ten_thousand", Rules.ten_thousand),
            ("five_thousand", Rules.five_thousand))
BEGIN = "# BEGIN GENERATED TABLES (tools/zilch_table.py --write)"
END = "# END GENERATED TABLES"
STRATEGY = os.path.join(ROOT, "games", "zilch_strategy.py")

_FACT = (1, 1, 2, 6, 24, 120, 720)


def multisets(n):
    """Every multiset of n faces as a count list [c1..c6] (6-tuple)."""
    found = []

    def grow(face, left, prefix):
        if face == 6:
            found.append(tuple(prefix + [left]))
            return
        for k in range(left, -1, -1):
            grow(face + 1, left - k, prefix + [k])

    grow(1, n, [])
    return found


def outcomes(n, rules):
    """[(weight, moves, cautious)] for each multiset of n dice; weights sum to 6**n.

    moves: [(steps, used)] the best score (in 50-point steps) for each number of dice
    used, [] for a Zilch; cautious: (steps, used) of the first option in the menu order
    (most points, then fewest dice), None for a Zilch."""
    found = []
    for counts in multisets(n):
        weight = _FACT[n]
        dice = []
        for face in range(6):
            weight //= _FACT[counts[face]]
            dice.extend([face + 1] * counts[face])
        menu = options(dice, rules)
        top = {}
        for chosen, points in menu:
            if points > top.get(len(chosen), 0):
                top[len(chosen)] = points
        moves = sorted((points // STEP, used) for used, points in top.items())
        cautious = (menu[0][1] // STEP, len(menu[0][0])) if menu else None
        found.append((weight, moves, cautious))
    return found


def cautious_banks(t, n, minimum):
    """The cautious bot's rule (games/zilch_strategy.py): bank as soon as banking is
    legal and (t >= 300 or fewer than 3 dice are left)."""
    return n < 6 and t >= minimum and t > 0 and (t >= 300 or n < 3)


def _tail(outs6, policy):
    """(a, b) with V(t, 6) = a t + b for t beyond the cap (see the module doc)."""
    total = 6 ** 6
    p_bank = p_again = 0.0
    s_bank = s_again = 0.0
    for weight, moves, cautious in outs6:
        if not moves:
            continue
        if policy == "ev":
            partial = [steps for steps, used in moves if used < 6]
            if partial:
                p_bank += weight
                s_bank += weight * max(partial)
            else:
                p_again += weight
                s_again += weight * max(steps for steps, used in moves)
        else:
            steps, used = cautious
            if used < 6:
                p_bank += weight
                s_bank += weight * steps
            else:
                p_again += weight
                s_again += weight * steps
    p_bank /= total
    p_again /= total
    a = p_bank / (1.0 - p_again)
    b = (s_bank + a * s_again) * STEP / total / (1.0 - p_again)
    return a, b


def solve(rules, minimum, cap=CAP, policy="ev", outs=None):
    """(V, R): V[n][i] and R[n][i] for t = 50 i, i = 0 .. cap/50, n = 1..6 (floats).

    R is the value of rolling now (then playing ``policy``), V of the state itself.
    policy "ev" maximises the expected turn result; "cautious" is the cautious bot."""
    if outs is None:
        outs = [None] + [outcomes(n, rules) for n in range(1, 7)]
    top = cap // STEP
    a, b = _tail(outs[6], policy)
    width = top + 6000 // STEP * 2 + 2
    V = [[0.0] * (width + 1) for _ in range(7)]
    R = [[0.0] * (top + 1) for _ in range(7)]
    for i in range(top + 1, width + 1):
        for n in range(1, 6):
            V[n][i] = float(i * STEP)
        V[6][i] = a * i * STEP + b
    ev = policy == "ev"
    for i in range(top, -1, -1):
        t = i * STEP
        for n in range(1, 7):
            total = 0
            for weight, moves, cautious in outs[n]:
                if not moves:
                    continue
                if ev:
                    best = -1.0
                    for steps, used in moves:
                        v = V[n - used or 6][i + steps]
                        if v > best:
                            best = v
                else:
                    steps, used = cautious
                    best = V[n - used or 6][i + steps]
                total += weight * best
            roll = total / 6 ** n
            R[n][i] = roll
            value = roll
            if n < 6 and t >= minimum and t > 0:
                if ev:
                    if t >= roll:
                        value = float(t)
                elif cautious_banks(t, n, minimum):
                    value = float(t)
            V[n][i] = value
    return V, R


def _stored(g):
    """Round a gain to an int, keeping its sign (so bank <=> stored gain <= 0)."""
    r = int(g + 0.5) if g >= 0 else -int(-g + 0.5)
    if g > 0 and r < 1:
        return 1
    if g <= 0 and r > 0:
        return 0
    return r


def build(rules, cap=CAP):
    """Everything stored for one scoring variant, plus figures for the docs."""
    outs = [None] + [outcomes(n, rules) for n in range(1, 7)]
    V, R = solve(rules, ON_BOARD, cap, "ev", outs)
    V5, R5 = solve(rules, ENTRY, cap, "ev", outs)
    C, _ = solve(rules, ON_BOARD, cap, "cautious", outs)
    C5, _ = solve(rules, ENTRY, cap, "cautious", outs)
    top = cap // STEP
    gains = [[R[n][i] - i * STEP for i in range(top + 1)] for n in range(7)]
    # the bank threshold per dice count: rolling is better below, banking at or above
    last = [0] * 7
    for n in range(1, 6):
        positive = [i for i in range(top + 1) if gains[n][i] > 0]
        last[n] = positive[-1] if positive else 0
    stop = max(last[1:6]) + 1
    last[6] = stop
    for n in range(1, 6):
        assert all(g <= 0 for g in gains[n][last[n] + 1:]), "bank region is not one interval"
    table = []
    slopes = []
    for n in range(1, 7):
        end = last[n] + 1
        table.append(tuple(_stored(g) for g in gains[n][:end + 1]))
        fit = min(end + FIT_SPAN // STEP, top)
        slope = (gains[n][fit] - gains[n][end]) / ((fit - end) * STEP)
        slopes.append(int(round(slope * 10000)))
    entry = []
    for n in range(1, 7):
        entry.append(tuple(_stored(R5[n][i] - i * STEP) for i in range(ENTRY // STEP)))
    for n in range(1, 7):
        for i in range(ENTRY // STEP, top + 1):
            assert abs(V5[n][i] - V[n][i]) < 1e-6, "entry table differs above the entry"
    thresholds = []
    for n in range(1, 6):
        thresholds.append(max(ON_BOARD, (last[n] + 1) * STEP))
    entry_thresholds = []
    for n in range(1, 6):
        entry_thresholds.append(max(ENTRY, (last[n] + 1) * STEP))
    return {
        "expected": (_stored(V[6][0]), _stored(V5[6][0]),
                     _stored(C[6][0]), _stored(C5[6][0])),
        "exact": (V[6][0], V5[6][0], C[6][0], C5[6][0]),
        "gain": tuple(table),
        "slope": tuple(slopes),
        "entry": tuple(entry),
        "thresholds": tuple(thresholds),
        "entry_thresholds": tuple(entry_thresholds),
        "gains_exact": gains,
        "entry_exact": [[R5[n][i] - i * STEP for i in range(ENTRY // STEP)] for n in range(7)],
    }


def build_all(cap=CAP):
    return [(name, build(make(), cap)) for name, make in VARIANTS]


def pack(values):
    """Signed 16-bit little-endian bytes (one bytes object costs far less heap on
    MicroPython than a tuple of ints, especially when loaded from a .mpy file)."""
    out = bytearray()
    for v in values:
        assert -32768 <= v < 32768
        out += (v & 0xFFFF).to_bytes(2, "little")
    return bytes(out)


def render(built):
    """The generated block of games/zilch_strategy.py (between BEGIN and END)."""
    out = [BEGIN,
           "# Per scoring variant: (EXPECTED, START, SLOPE, DATA); see docs/zilch_bot.md.",
           "# EXPECTED: expected points per turn (ev on board, ev first bank, cautious on",
           "#   board, cautious first bank). DATA: signed 16-bit little-endian gains, 12 rows",
           "#   with row r at entries START[r] .. START[r+1]-1. Rows 0-5 (n = 1..6 dice to",
           "#   roll): GAIN(t) = expected gain of rolling over banking t = 0, 50, 100, ...",
           "#   with the 350 minimum, stored up to the first t where banking wins; beyond",
           "#   the last entry it falls by SLOPE[n-1] points per 10,000 points. Rows 6-11:",
           "#   the same for t < 500 before the first bank (minimum 500).",
           "TABLES = {"]
    for name, data in built:
        rows = list(data["gain"]) + list(data["entry"])
        start = [0]
        for row in rows:
            start.append(start[-1] + len(row))
        out.append('    "%s": (' % name)
        out.append("        %r," % (data["expected"],))
        out.append("        %r," % (tuple(start),))
        out.append("        %r," % (data["slope"],))
        out.append("        (")
        for k, row in enumerate(rows):
            label = "  # n=%d%s" % (k % 6 + 1, ", first bank" if k >= 6 else "")
            packed = pack(row)
            for at in range(0, len(packed), 16):
                chunk = "".join("\\x%02x" % byte for byte in packed[at:at + 16])
                out.append('            b"%s"%s' % (chunk, label if at == 0 else ""))
        out.append("        ),")
        out.append("    ),")
    out.append("}")
    out.append(END)
    return "\n".join(out) + "\n"


def stored_block(path=STRATEGY):
    with open(path) as f:
        text = f.read()
    start = text.index(BEGIN)
    stop = text.index(END) + len(END) + 1
    return text, start, stop


def write(built, path=STRATEGY):
    text, start, stop = stored_block(path)
    with open(path, "w") as f:
        f.write(text[:start] + render(built) + text[stop:])


def simulate_turn(choose, randbelow, rules=None, on_board=True, beat=0, max_rolls=1000):
    """Play one turn with bot function ``choose`` (e.g. zilch_strategy.ev_choice);
    ``randbelow(k)`` gives 0..k-1. Returns the points banked (0 after a Zilch). Checks
    that every choice is legal (AssertionError otherwise)."""
    if rules is None:
        rules = Rules.classic()
    points = 0
    free = 6
    frozen = []
    for _ in range(max_rolls):
        roll = [randbelow(6) + 1 for _ in range(free)]
        if is_zilch(roll, rules, frozen):
            return 0
        chosen, bank = choose(roll, points, rules, on_board=on_board, frozen=frozen,
                              beat=beat)
        legal = [dice for dice, _ in options(roll, rules, frozen)]
        assert tuple(chosen) in legal, (roll, chosen)
        points += gain(frozen, list(chosen), rules)
        free -= len(chosen)
        frozen = frozen + list(chosen)
        if free == 0:
            free = 6
            frozen = []
        if bank:
            assert rules.can_bank(points, free, on_board, beat), (points, free)
            return points
    raise AssertionError("turn did not end")


def report(built):
    for name, data in built:
        ev, ev5, c, c5 = data["exact"]
        print("%s: expected points per turn  ev %.1f (first turn %.1f)   cautious %.1f"
              " (first turn %.1f)" % (name, ev, ev5, c, c5))
        print("  bank thresholds for 1..5 dice left (on board):", data["thresholds"],
              " before the first bank:", data["entry_thresholds"])
        print("  rolling-gain table lengths:", [len(r) for r in data["gain"]],
              " slopes per 10,000:", data["slope"])


def simulate(turns, seed=1):
    """Simulated mean, standard deviation and Zilch rate per variant and bot (host check
    of the tables and the run-time code against the computed expectations)."""
    from games import zilch_strategy
    from referee.rng import Rng

    for name, make in VARIANTS:
        rules = make()
        for bot in ("ev", "cautious"):
            randbelow = Rng(seed).randbelow
            results = [simulate_turn(zilch_strategy.BOTS[bot], randbelow, rules)
                       for _ in range(turns)]
            mean = sum(results) / turns
            spread = (sum((x - mean) ** 2 for x in results) / turns) ** 0.5
            zero = sum(1 for x in results if x == 0) / turns
            print("  simulated %s %-8s mean %.1f +- %.1f (sd %.0f), turns lost %.1f%%" % (
                name, bot, mean, spread / turns ** 0.5, spread, 100 * zero))


def main(argv):
    import argparse

    ap = argparse.ArgumentParser(prog="python tools/zilch_table.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="regenerate the table block in games/zilch_strategy.py")
    ap.add_argument("--check", action="store_true", help="exit 1 if the stored block is out of date")
    ap.add_argument("--simulate", type=int, default=0, metavar="TURNS", help="also play that many turns per bot")
    args = ap.parse_args(argv)
    built = build_all()
    if args.write:
        write(built)
        print("wrote", STRATEGY)
    elif args.check:
        text, start, stop = stored_block()
        if text[start:stop] != render(built):
            print("stored tables are out of date: run tools/zilch_table.py --write")
            return 1
        print("stored tables are up to date")
    report(built)
    if args.simulate:
        simulate(args.simulate)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
