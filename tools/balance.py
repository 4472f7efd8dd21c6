"""The balance lab: N seeded all-bot matches of a game, and who wins them.

    python tools/balance.py GAME [--matches N] [--players P] [--levels L1,L2,...]
                                 [--rotate] [--option KEY=VALUE ...] [--seed S]
                                 [--jobs J] [--png DIR]

Plays ``--matches`` matches of ``GAME`` with a bot in every seat on the simulated box
(event-driven: a match costs a few hundredths of a CPU second to a few tenths), on
``--jobs`` processes (default: every core), with a progress bar on stderr. Match
``i`` plays seed ``S + i``: a run is repeatable, and the same whatever ``--jobs``.
Prints:

* each seat's wins with its 95 % confidence interval (Wilson) beside the fair share
  (1 / players): how much the seat order matters;
* with ``--levels``, the wins of each bot level (its share of the seats it played);
  ``--rotate`` moves the levels one seat on at every match, so each level plays each
  seat equally often and the seat order does not pass for skill;
* the ties (a match with more than one winner) and the matches not finished;
* the match length as a distribution: turns (the game's save points: a turn in Zilch,
  ZAP City and the flyer game, a card or a round in Lightning Dice and Würfelblitz,
  a round in the reaction test)
  and minutes of play (the bots' pace, as on the box).

``--png DIR`` also writes the charts (matplotlib; the lab runs without it otherwise).
Bot levels per game (``LEVELS``): Zilch cautious/expected (the expected-value bot),
ZAP City greedy/blocker, Lightning Dice easy/normal/hard, Würfelblitz slow/normal/fast
(a bot's mean reaction and its wrong answers: 2.5 s 0 %, 1.5 s 15 %, 0.9 s 30 %). The
flyer game's bots play one kind for every seat (``--option bot=spoiler``) and the
reaction test's bots one speed.
"""

import argparse
import math
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (ROOT, os.path.join(ROOT, "lib")):
    if _p not in sys.path:
        sys.path.insert(0, _p)
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import games  # noqa: E402

MATCH_MS = 4 * 3600 * 1000  # a match not over after 4 hours of play is counted unfinished
Z95 = 1.959964


def _zilch_level(g, seat, level):
    g.bot_kinds[seat] = "ev" if level == "expected" else level


def _zap_level(g, seat, level):
    g._kind[seat] = level


def _dice_level(g, seat, level):
    from games import lightning_dice_bots

    g.brains[seat] = lightning_dice_bots.Bot(level)


# A game's bot levels, weakest first as far as the game's docs rank them, and how a
# seat's bot is given one: after the match starts (``set``), or through the options
# (``options``: the per-seat option tuples for a list of levels).
_WB = {"slow": (2500, 0), "normal": (1500, 150), "fast": (900, 300)}
LEVELS = {
    "zilch": (("cautious", "expected"), _zilch_level, None),
    "zap_city": (("greedy", "blocker"), _zap_level, None),
    "lightning_dice": (("easy", "normal", "hard"), _dice_level, None),
    "wurfelblitz": (("slow", "normal", "fast"), None,
                    lambda lv: {"bot_ms": tuple(_WB[v][0] for v in lv), "bot_errors": tuple(_WB[v][1] for v in lv)}),
}


def wilson(k, n, z=Z95):
    """The Wilson score interval (lo, hi) of ``k`` successes in ``n`` trials."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def seat_levels(levels, players, i, rotate):
    """The bot level of each seat (seat 1 first) in match ``i``: ``levels`` (None: the
    game's own), moved ``i`` seats on with ``rotate``."""
    if not levels:
        return None
    lv = [levels[s % len(levels)] for s in range(players)]
    if rotate:
        k = i % players
        lv = lv[-k:] + lv[:-k] if k else lv
    return tuple(lv)


def play(job):
    """One match: job = (game, players, seed, levels per seat or None, options).
    Returns a plain dict (it crosses processes)."""
    from pc.sim import SimTable

    name, players, seed, levels, options = job
    opts = dict(options)
    spec = LEVELS.get(name)
    if levels and spec and spec[2]:
        opts.update(spec[2](levels))
    t = SimTable(players=players, seed=seed)
    t.start(name, bots=tuple(range(1, players + 1)), seed=seed, **opts)
    g = t.game
    if levels and spec and spec[1]:
        for s, lv in enumerate(levels, 1):
            spec[1](g, s, lv)
    over = t.run_until_over(MATCH_MS)
    return {"seed": seed, "levels": levels, "over": bool(over), "winners": sorted(g.winners) if over else [],
            "turns": g.saves or getattr(g, "round", 0), "minutes": t.now / 60e9}


def run(name, matches, players, levels=None, rotate=False, options=(), seed=1, jobs=1, progress=None):
    """Play the matches; the results in seed order (the same for any ``jobs``)."""
    todo = [(name, players, seed + i, seat_levels(levels, players, i, rotate), tuple(options))
            for i in range(matches)]
    out = []
    if jobs > 1 and matches > 1:
        from multiprocessing import Pool

        with Pool(jobs) as pool:
            for r in pool.imap_unordered(play, todo, chunksize=max(1, min(20, matches // (jobs * 8)))):
                out.append(r)
                if progress:
                    progress(len(out), matches)
    else:
        for job in todo:
            out.append(play(job))
            if progress:
                progress(len(out), matches)
    out.sort(key=lambda r: r["seed"])
    return out


def quantiles(values, qs=(0, 0.1, 0.25, 0.5, 0.75, 0.9, 1)):
    """The values at fractions ``qs`` of the sorted list (nearest rank)."""
    v = sorted(values)
    if not v:
        return [0] * len(qs)
    return [v[min(len(v) - 1, int(round(q * (len(v) - 1))))] for q in qs]


def report(results, players):
    """The figures of a run as a dict: per seat and per level (wins, n, lo, hi), ties,
    unfinished, and the length quantiles."""
    done = [r for r in results if r["over"]]
    n = len(done)
    seats = []
    for s in range(1, players + 1):
        k = sum(1 for r in done if r["winners"] == [s])
        seats.append((s, k, n) + wilson(k, n))
    levels = {}
    for r in done:
        if not r["levels"]:
            continue
        for s, lv in enumerate(r["levels"], 1):
            k, m = levels.get(lv, (0, 0))
            levels[lv] = (k + (1 if r["winners"] == [s] else 0), m + 1)
    by_level = [(lv, k, m) + wilson(k, m) for lv, (k, m) in sorted(levels.items())]
    return {
        "matches": len(results), "finished": n, "seats": seats, "levels": by_level,
        "ties": sum(1 for r in done if len(r["winners"]) > 1),
        "turns": quantiles([r["turns"] for r in done]),
        "minutes": quantiles([r["minutes"] for r in done]),
    }


def text(fig, players, title):
    """The report as the lines the lab prints."""
    n = fig["finished"]
    lines = ["%s: %d matches, %d players, %d finished" % (title, fig["matches"], players, n), "",
             "seat  wins    share   95%% CI           fair %.1f %%" % (100 / players)]
    for s, k, m, lo, hi in fig["seats"]:
        lines.append("P%-3d %5d  %6.1f %%  %5.1f-%5.1f %%" % (s, k, 100 * k / m if m else 0, 100 * lo, 100 * hi))
    if fig["levels"]:
        lines += ["", "level      wins / seats   share   95% CI"]
        for lv, k, m, lo, hi in fig["levels"]:
            lines.append("%-9s %5d / %-6d %6.1f %%  %5.1f-%5.1f %%" % (lv, k, m, 100 * k / m if m else 0,
                                                                       100 * lo, 100 * hi))
    lines += ["", "ties %d (%.1f %%), unfinished %d" % (fig["ties"], 100 * fig["ties"] / n if n else 0,
                                                         fig["matches"] - n), "",
              "length       min    10%    25% median    75%    90%    max"]
    lines.append("turns   " + "".join("%7d" % v for v in fig["turns"]))
    lines.append("minutes " + "".join("%7.1f" % v for v in fig["minutes"]))
    return lines


def charts(results, fig, players, title, folder):
    """Write the charts as PNGs in ``folder``; returns their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(folder, exist_ok=True)
    paths = []
    n = fig["finished"]

    def bars(rows, labels, name, heading, fair=None):
        f, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
        share = [100 * k / m if m else 0 for _, k, m, _, _ in rows]
        err = [[s - 100 * lo for s, (_, _, _, lo, _) in zip(share, rows)],
               [100 * hi - s for s, (_, _, _, _, hi) in zip(share, rows)]]
        ax.bar(labels, share, yerr=err, capsize=6, color="#4a7fb5")
        if fair is not None:
            ax.axhline(fair, color="#c0392b", linestyle="--", label="fair %.1f %%" % fair)
            ax.legend()
        ax.set_ylabel("wins (%), 95 % CI")
        ax.set_title(heading)
        f.tight_layout()
        path = os.path.join(folder, name)
        f.savefig(path)
        plt.close(f)
        paths.append(path)

    bars(fig["seats"], ["P%d" % s[0] for s in fig["seats"]], "seats.png",
         "%s, %d players: wins by seat (%d matches)" % (title, players, n), 100 / players)
    if fig["levels"]:
        bars(fig["levels"], [lv[0] for lv in fig["levels"]], "levels.png",
             "%s: wins by bot level (%d matches)" % (title, n))
    f, (a, b) = plt.subplots(1, 2, figsize=(8, 3.4), dpi=100)
    done = [r for r in results if r["over"]]
    turns = [r["turns"] for r in done] or [0]
    step = max(1, (max(turns) - min(turns)) // 40 + 1)  # whole turns a bar: no empty stripes
    a.hist(turns, bins=range(min(turns), max(turns) + step + 1, step), color="#4a7fb5")
    a.set_xlabel("turns (save points)")
    a.set_ylabel("matches")
    b.hist([r["minutes"] for r in done], bins=30, color="#6a9f58")
    b.set_xlabel("minutes of play")
    f.suptitle("%s, %d players: match length" % (title, players))
    f.tight_layout()
    path = os.path.join(folder, "length.png")
    f.savefig(path)
    plt.close(f)
    paths.append(path)
    return paths


def _value(s):
    # an option's value from the command line: an int, a bool, a tuple of ints, or text
    if s in ("true", "false"):
        return s == "true"
    try:
        return int(s)
    except ValueError:
        pass
    if "," in s:
        try:
            return tuple(int(x) for x in s.split(","))
        except ValueError:
            pass
    return s


def _bar(done, total, t0, out=None):
    out = out or sys.stderr
    w = 30
    k = w * done // total
    el = time.time() - t0
    eta = el / done * (total - done) if done else 0
    out.write("\r[%s%s] %d/%d  %.0f s, %.0f s left " % ("#" * k, "." * (w - k), done, total, el, eta))
    if done == total:
        out.write("\n")
    out.flush()


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python tools/balance.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("game", help="a game's name: " + ", ".join(n for n in games.names() if n != "selftest"))
    ap.add_argument("--matches", type=int, default=1000, help="matches to play (default 1000)")
    ap.add_argument("--players", type=int, default=2, help="seats, every one a bot (default 2)")
    ap.add_argument("--levels", help="bot level of each seat, comma-separated (repeated to fill the seats)")
    ap.add_argument("--rotate", action="store_true", help="move the levels one seat on at every match")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option")
    ap.add_argument("--seed", type=int, default=1, help="match i plays seed SEED + i (default 1)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: every core)")
    ap.add_argument("--png", metavar="DIR", help="write the charts (matplotlib) into DIR")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    args = ap.parse_args(argv)
    name = args.game
    if name not in games.names() or name == "selftest":
        ap.error("no game %r: one of %s" % (name, ", ".join(n for n in games.names() if n != "selftest")))
    mod = games.load(name)
    if not mod.MIN_PLAYERS <= args.players <= min(mod.MAX_PLAYERS, 7):
        ap.error("%s is for %d-%d players" % (mod.TITLE, mod.MIN_PLAYERS, mod.MAX_PLAYERS))
    if args.matches < 1 or args.jobs < 1:
        ap.error("--matches and --jobs must be 1 or more")
    options = []
    for o in args.option:
        key, eq, value = o.partition("=")
        if not eq:
            ap.error("--option takes KEY=VALUE, not %r" % o)
        options.append((key, _value(value)))
    levels = None
    if args.levels:
        levels = tuple(args.levels.split(","))
        spec = LEVELS.get(name)
        if spec is None:
            ap.error("%s's bots have no levels per seat here (see --help)" % mod.TITLE)
        bad = [lv for lv in levels if lv not in spec[0]]
        if bad:
            ap.error("no bot level %s in %s: %s" % (", ".join(bad), mod.TITLE, ", ".join(spec[0])))
    elif args.rotate:
        ap.error("--rotate moves --levels: give them")
    try:  # a bad option is said before any match is played
        from referee.game import resolve_options

        resolve_options(mod.OPTIONS, dict(options))
    except ValueError as e:
        ap.error(str(e))
    t0 = time.time()
    progress = None if args.quiet else (lambda d, n: _bar(d, n, t0))
    results = run(name, args.matches, args.players, levels, args.rotate, options, args.seed, args.jobs, progress)
    fig = report(results, args.players)
    title = mod.TITLE
    print("\n".join(text(fig, args.players, title)))
    cmd = "python tools/balance.py " + " ".join(argv if argv is not None else sys.argv[1:])
    print("\ncommand: " + cmd)
    if args.png:
        try:
            paths = charts(results, fig, args.players, title, args.png)
        except ImportError:
            print("--png needs matplotlib: pip install -r requirements-dev.txt", file=sys.stderr)
            return 2
        print("charts: " + ", ".join(paths))
    return 0


if __name__ == "__main__":
    sys.exit(main())
