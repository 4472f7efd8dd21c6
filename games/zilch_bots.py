# Zilch bots (docs/zilch_bot.md). The flow imports this module only when a seat is
# a bot. Each function reads the game (totals, rules, the turn in play) and returns a
# decision; none of them changes it. Two levels, chosen per seat: "cautious" and
# "ev" (expected value, the tables in games.zilch_strategy).

from games import zilch_strategy

# launcher option -> level; "mixed" alternates by seat: the first bot seat cautious,
# the next expected value, and so on
_LEVELS = {"cautious": "cautious", "expected": "ev"}


def levels(option, bots):
    # {bot seat: "cautious" or "ev"} for the "bot" option's value
    out = {}
    for i, b in enumerate(sorted(bots)):
        kind = ("cautious", "expected")[i % 2] if option == "mixed" else option
        out[b] = _LEVELS.get(kind, "ev")
    return out


def challenge(g, p):
    # Which player bot ``p`` challenges now (0 = none): the leading opponent, when the
    # gap makes it worth the risk (the expected-value bot is bolder).
    if g.challenge_slot(p) < 0:
        return 0
    leader = 0
    for q in range(1, g.players + 1):
        if q != p and (not leader or g.totals[q] > g.totals[leader]):
            leader = q
    lead = g.totals[leader]
    mine = g.totals[p]
    if g.bot_kinds[p] == "ev":
        cheap = g.challenge_slot(p) == 0  # before 5,000: a Zilch costs 600, after 2,000
        wanted = lead >= 1000 and (lead >= mine if cheap else lead > mine + 2000)
    else:
        wanted = lead >= mine + 3000
    return leader if wanted else 0


def pick(g):
    # (faces to set aside, whether the bot means to bank afterwards)
    p = g.player
    # the roll's set-asides are the menu's items (worked out while the dice tumbled)
    found = [(v[1], v[2]) for _, v in g.menu.items]
    return zilch_strategy.BOTS[g.bot_kinds[p]](g.roll, g.turn_points, g.rules, g.on_board[p], g.frozen, g.beat(),
                                               found)


def banks(g, wish):
    # After a set-aside: bank (True) or roll on. ``wish``: what pick() said.
    call = final_call(g)
    return g.can_bank() and call <= 0 and (wish or call < 0)


def final_call(g):
    # In the final or a tie-break turn: 1 if banking would still leave the bot behind
    # someone (pointless: play on); -1 if banking wins the game (the bot ends strictly
    # ahead and nobody is owed a turn after this one); else 0.
    if not g.final_by:
        return 0
    p = g.player
    mine = g.totals[p] + g.turn_points
    top = 0
    for q in range(1, g.players + 1):
        if q != p:
            theirs = g.totals[q]
            if q == g.challenged:
                theirs = max(0, theirs - g.turn_points)
            if theirs > top:
                top = theirs
    if top > mine:
        return 1
    return -1 if top < mine and not g.queue else 0
