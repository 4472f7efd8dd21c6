"""Offline: balance the Lightning Dice deck by simulation (host only, CPython).

    python tools/lightning_deck.py                 # print the card and seat tables for the deck
    python tools/lightning_deck.py --write         # rewrite both tables in docs/lightning_dice.md
    python tools/lightning_deck.py --check         # exit 1 if a doc table is out of date or
                                                   # the deck is not fair to every seat
    python tools/lightning_deck.py --trials 2000 "sum = 21" "two triples"   # try specs

A hand: six random dice (the card is flipped with everyone's dice freshly rolled), then
until the dice meet the card: apply the keep policy (games/lightning_dice_rules.keep),
re-roll every free die and count one tap. A hand that reaches CAP taps stops the run
(the card would be unreachable in practice). Per card: median, 90th percentile (both
nearest-rank, so whole taps) and mean taps over TRIALS hands.

Each card has its own generator (referee.rng.Rng, xoshiro128**) seeded from the run's
seed and a 32-bit FNV-1a hash of the card's text, so a card's row does not change when
other cards are added, removed or reordered.

The seat table: is every seat's Bonus hunt worth the same? A hunt for number N (a
player's own number for a Bonus, a rival's for Thunder) starts with six fresh dice and
keeps the dice showing N (keep(dice, N)); after each tap, dice that meet the card end it
with a claim on the card (+2, Got it: the box judges the card first), else six Ns end
it (+1, the Bonus or Thunder). Per number, over every card of the deck (TRIALS hunts
each, one generator per card and number): how many cards six Ns meet, the share of
hunts that end on the card, mean taps per hunt, points per hunt and points per 100 taps.
The deck is fair to every seat when each number's points per hunt lie within
HUNT_TOLERANCE (1 %) of the six numbers' mean and its points per 100 taps within
RATE_TOLERANCE (2 %); --check also fails when they do not.
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (ROOT, os.path.join(ROOT, "lib")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from games.lightning_dice_rules import DECK, Card, keep, meets  # noqa: E402
from referee.rng import Rng  # noqa: E402

SEED = 2015
TRIALS = 300
CAP = 200
DOC = os.path.join(ROOT, "docs", "lightning_dice.md")
BEGIN = "<!-- BEGIN DECK TABLE (tools/lightning_deck.py --write) -->"
END = "<!-- END DECK TABLE -->"
SEATS_BEGIN = "<!-- BEGIN SEAT TABLE (tools/lightning_deck.py --write) -->"
SEATS_END = "<!-- END SEAT TABLE -->"
HUNT_TOLERANCE = 0.01  # points per hunt: every number within 1 % of the six numbers' mean
RATE_TOLERANCE = 0.02  # points per 100 taps: within 2 %

# Difficulty bands by median taps: (name, highest median in the band).
BANDS = (("quick", 2), ("steady", 5), ("hard", 9), ("slow", 10 ** 9))


class Unreachable(RuntimeError):
    pass


def fnv1a(text):
    h = 0x811C9DC5
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def card_rng(spec, seed):
    return Rng((seed << 32) | fnv1a(spec))


def hand(target, rng, cap=CAP):
    """Taps one hand needs to meet ``target`` (a Card or a value 1..6)."""
    dice = [rng.randint(1, 6) for _ in range(6)]
    taps = 0
    while not meets(dice, target):
        if taps >= cap:
            raise Unreachable("%r: a hand reached %d taps" % (target, cap))
        kept = keep(dice, target)
        for i in range(6):
            if not kept[i]:
                dice[i] = rng.randint(1, 6)
        taps += 1
    return taps


def percentile(sorted_taps, pct):
    """Nearest-rank percentile of an ascending list (a value of the list)."""
    n = len(sorted_taps)
    rank = max(1, -(-pct * n // 100))
    return sorted_taps[rank - 1]


def band(median):
    for name, top in BANDS:
        if median <= top:
            return name
    raise AssertionError(median)


def simulate(card, trials, seed, cap=CAP):
    """(median, p90, mean) taps of ``trials`` hands for one card."""
    rng = card_rng(card.spec, seed)
    taps = sorted(hand(card, rng, cap) for _ in range(trials))
    return percentile(taps, 50), percentile(taps, 90), sum(taps) / trials


def balance(trials=TRIALS, seed=SEED, deck=DECK, cap=CAP):
    """One row per card, in deck order: (spec, band, median, p90, mean rounded to 0.1)."""
    rows = []
    for card in deck:
        median, p90, mean = simulate(card, trials, seed, cap)
        rows.append((card.spec, band(median), median, p90, round(mean, 1)))
    return rows


def bonus_hunt(card, number, rng, cap=CAP):
    """(taps, points) of one hunt for six ``number``s while ``card`` is face up."""
    dice = [rng.randint(1, 6) for _ in range(6)]
    taps = 0
    while True:
        if card.matches(dice):
            return taps, 2
        if meets(dice, number):
            return taps, 1
        if taps >= cap:
            raise Unreachable("six %ds on %r: a hunt reached %d taps" % (number, card, cap))
        kept = keep(dice, number)
        for i in range(6):
            if not kept[i]:
                dice[i] = rng.randint(1, 6)
        taps += 1


def seats(trials=TRIALS, seed=SEED, deck=DECK, cap=CAP):
    """One row per number 1..6: (number, cards six of it meet, % of hunts ending on the
    card, mean taps per hunt, points per hunt, points per 100 taps), rounded as shown."""
    rows = []
    for number in range(1, 7):
        six = [number] * 6
        met = sum(1 for card in deck if card.matches(six))
        taps = points = on_card = 0
        for card in deck:
            rng = card_rng("%s|%d" % (card.spec, number), seed)
            for _ in range(trials):
                t, p = bonus_hunt(card, number, rng, cap)
                taps += t
                points += p
                on_card += p == 2
        hunts = trials * len(deck)
        rows.append((number, met, round(100 * on_card / hunts, 1), round(taps / hunts, 2),
                     round(points / hunts, 3), round(100 * points / taps, 2)))
    return rows


def seat_spread(rows):
    """(largest relative distance from the mean of points per hunt, same for points per
    100 taps), e.g. 0.004 = 0.4 %."""
    out = []
    for col in (4, 5):
        vals = [r[col] for r in rows]
        mean = sum(vals) / len(vals)
        out.append(max(abs(v - mean) for v in vals) / mean)
    return tuple(out)


def fair(rows):
    hunt, rate = seat_spread(rows)
    return hunt <= HUNT_TOLERANCE and rate <= RATE_TOLERANCE


def render_seats(rows, trials=TRIALS, seed=SEED):
    hunt, rate = seat_spread(rows)
    lines = [SEATS_BEGIN,
             "Generated by `python tools/lightning_deck.py --write` "
             "(trials %d per card and number, seed %d, cap %d taps)." % (trials, seed, CAP),
             "",
             "| number | cards six of it meet | hunts ending on the card | taps per hunt "
             "| points per hunt | points per 100 taps |",
             "|---:|---:|---:|---:|---:|---:|"]
    for number, met, on_card, taps, points, rate100 in rows:
        lines.append("| %d | %d | %.1f %% | %.2f | %.3f | %.2f |" % (number, met, on_card, taps, points, rate100))
    lines += ["",
              "Largest distance from the six numbers' mean: points per hunt %.1f %% (tolerance %d %%), "
              "points per 100 taps %.1f %% (tolerance %d %%): %s." % (
                  100 * hunt, round(100 * HUNT_TOLERANCE), 100 * rate, round(100 * RATE_TOLERANCE),
                  "fair" if fair(rows) else "NOT FAIR"),
              SEATS_END]
    return "\n".join(lines) + "\n"


def parse_seats(text):
    """(trials, seed, rows) from the doc's seat block, rows as ``seats`` gives."""
    start = text.index(SEATS_BEGIN)
    block = text[start:text.index(SEATS_END, start)]
    head = block.split("(trials ", 1)[1]
    trials = int(head.split(" ", 1)[0])
    seed = int(head.split("seed ", 1)[1].split(",", 1)[0])
    rows = []
    for line in block.splitlines():
        cells = [c.strip().rstrip(" %") for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0].isdigit():
            rows.append((int(cells[0]), int(cells[1]), float(cells[2]), float(cells[3]),
                         float(cells[4]), float(cells[5])))
    return trials, seed, rows


def render(rows, trials=TRIALS, seed=SEED):
    lines = [BEGIN,
             "Generated by `python tools/lightning_deck.py --write` "
             "(trials %d per card, seed %d, cap %d taps)." % (trials, seed, CAP),
             "",
             "| # | card | band | median | p90 | mean |",
             "|---:|---|---|---:|---:|---:|"]
    for i, (spec, name, median, p90, mean) in enumerate(rows, 1):
        lines.append("| %d | %s | %s | %d | %d | %.1f |" % (i, spec, name, median, p90, mean))
    lines.append(END)
    return "\n".join(lines) + "\n"


def parse_table(text):
    """(trials, seed, rows) from the doc's generated block, rows as ``balance`` gives."""
    start = text.index(BEGIN)
    stop = text.index(END, start)
    block = text[start:stop]
    head = block.split("(trials ", 1)[1]
    trials = int(head.split(" ", 1)[0])
    seed = int(head.split("seed ", 1)[1].split(",", 1)[0])
    rows = []
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0].isdigit():
            rows.append((cells[1], cells[2], int(cells[3]), int(cells[4]), float(cells[5])))
    return trials, seed, rows


def stored_block(path=DOC, begin=BEGIN, end=END):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start = text.index(begin)
    stop = text.index(end, start) + len(end) + 1
    return text, start, stop


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("specs", nargs="*", help="card texts to try instead of the deck")
    ap.add_argument("--trials", type=int, default=TRIALS)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--sort", action="store_true", help="sort by median, p90")
    ap.add_argument("--write", action="store_true", help="rewrite the doc's table")
    ap.add_argument("--check", action="store_true", help="exit 1 if the doc's table differs")
    args = ap.parse_args(argv)
    deck = tuple(Card(s) for s in args.specs) if args.specs else DECK
    rows = balance(args.trials, args.seed, deck)
    seat_rows = seats(args.trials, args.seed, deck)
    if args.write or args.check:
        ok = True
        for begin, end, block in ((BEGIN, END, render(rows, args.trials, args.seed)),
                                  (SEATS_BEGIN, SEATS_END, render_seats(seat_rows, args.trials, args.seed))):
            text, start, stop = stored_block(DOC, begin, end)
            if args.check:
                ok = ok and text[start:stop] == block
            else:
                with open(DOC, "w", encoding="utf-8") as f:
                    f.write(text[:start] + block + text[stop:])
        if args.check:
            print("doc tables are %s; the deck is %s to every seat" % (
                "up to date" if ok else "OUT OF DATE", "fair" if fair(seat_rows) else "NOT FAIR"))
            return 0 if ok and fair(seat_rows) else 1
        print("wrote %d card rows and %d seat rows to %s" % (len(rows), len(seat_rows), os.path.relpath(DOC, ROOT)))
        return 0
    shown = sorted(rows, key=lambda r: (r[2], r[3], r[4])) if args.sort else rows
    print("%-24s %-7s %6s %5s %6s" % ("card", "band", "median", "p90", "mean"))
    for spec, name, median, p90, mean in shown:
        print("%-24s %-7s %6d %5d %6.1f" % (spec, name, median, p90, mean))
    print()
    print("%6s %5s %8s %6s %7s %8s" % ("number", "six", "on card", "taps", "points", "per 100"))
    for number, met, on_card, taps, points, rate100 in seat_rows:
        print("%6d %5d %7.1f%% %6.2f %7.3f %8.2f" % (number, met, on_card, taps, points, rate100))
    hunt, rate = seat_spread(seat_rows)
    print("spread: points per hunt %.1f %%, per 100 taps %.1f %%: %s" % (
        100 * hunt, 100 * rate, "fair" if fair(seat_rows) else "NOT FAIR"))
    return 0

if __name__ == "__main__":
    sys.exit(main())
