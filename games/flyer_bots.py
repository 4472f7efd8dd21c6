# Essen 2006 flyer game: two bots for seats played by the box.
#
# Both have the same call: choose(state, player, dice_left, covered_rule, rng) -> a move
# (a tuple from games.flyer_rules.payable_moves) or None to end the turn. The flow calls
# it again after each move with the dice still left; on the box it runs the same search
# a slice a loop pass: search(name, ...) (referee.turns).
#
# Both search every sequence of payable moves the dice left allow (at most three moves:
# each costs two dice or more), depth first, with a node budget, and play the first move
# of the best sequence. They stop (None) when no sequence beats standing still, so a bot
# never makes a move it does not value and never loops. Ties are broken by the rng.
#
# greedy: points scored this turn first (100 a point), then valuable markers closer to a
#   homebase (value x steps saved, see flyer_rules.STEPS).
# spoiler: points this turn first as well, then denial: a marker one step from the
#   homebases (on the border) can be taken home by any rival next turn, so it counts
#   against the spoiler; two steps away it is fairly safe and still on its way. Per
#   point of value: one step away +8 progress -20 threat, two steps +4 -1, further 0;
#   the threat doubles while a rival leads the spoiler. So it pulls valuable markers
#   off the border, and moves markers from the centre to the ring.
# Weights are small ints (no floats). docs/flyer.md explains the policies.
#
# (Docstrings would cost the box no RAM, its .mpy drops them; only the tests'
# MicroPython VM, compiling the .py, keeps them: docs/design.md, "Memory".)


from games import flyer_rules as R
from referee.core import const
from referee.turns import finish

BUDGET = const(400)  # search nodes per decision, shared by the first moves
MIN_SHARE = const(8)  # nodes each first move gets at least
DEPTH = const(3)
SLICE = const(1)  # moves tried in one loop pass of the box (~6 ms each on a Pico)
COUNT = const(8)  # moves counted (not tried) in one pass
POINT = const(100)
_FAR = max(R.STEPS.values())


def _greedy_w(steps, lead):
    # what a point of value on a space this many steps from home is worth
    return _FAR - steps


def _spoil_w(steps, lead):
    if steps == 1:
        return 8 - 20 * lead
    if steps == 2:
        return 4 - lead
    return 0


def _value(state, player, w):
    # the bot's value of the board: its points (POINT each), and each marker not home
    # weighed by w (_greedy_w, _spoil_w) for its value, its space and the lead (1; 2
    # while a rival leads)
    own = state.scores[player - 1]
    lead = 1
    for x in state.scores:
        if x > own:
            lead = 2
    v = own * POINT
    for s in state.stacks:
        if s not in R.OWNER:
            k = w(R.STEPS[s], lead)
            if k:
                for c in state.stacks[s]:
                    v += state.values[c] * k
    return v


def _weights(w, lead):
    # w of a point of value by a space's steps from home (STEPS: 0 is a homebase, a
    # point scored: POINT)
    return (POINT,) + tuple(w(steps, lead) for steps in range(1, _FAR + 1))


def _tables(state, player, w):
    # what the search weighs moves with (_weigh), made once a decision: the value of
    # every set of markers (by its mask), the weights while the bot is not behind and
    # behind (the same tuple if the lead changes nothing), the best rival's score, w
    sums = [0] * 64
    b = 1
    for c in R.COLOURS:  # (the sets with this colour: those without it, plus its value)
        v = state.values[c]
        for m in range(b, b + b):
            sums[m] = sums[m - b] + v
        b += b
    w1 = _weights(w, 1)
    w2 = _weights(w, 2)
    top = 0
    for p in range(1, len(state.scores) + 1):
        if p != player and state.scores[p - 1] > top:
            top = state.scores[p - 1]
    return sums, w1, w1 if w2 == w1 else w2, top, w


def _weigh(state, move, player, here, k):
    # the bot's value after move, from here (its value before): only the markers
    # moved change it, while the lead stays (a move home that takes the lead is
    # weighed whole)
    sums, w1, w2, top, w = k
    frm, to, mask = move
    own = state.scores[player - 1]
    t = w2 if top > own else w1
    s = sums[mask]
    if to in R.OWNER and (w2 if top > own + s else w1) is not t:
        u = _move(state, move, player, s)
        v = _value(state, player, w)
        _unmove(state, u, player)
        return v
    return here + s * (t[R.STEPS[to]] - t[R.STEPS[frm]])


def _move(state, move, player, points):
    # move the markers of a legal move (no check) and score them; the undo record
    # keeps the stacks' list objects (a running moves_of holds them)
    frm, to, mask = move
    stacks = state.stacks
    src = stacks[frm]
    dest = stacks.get(to)
    undo = (frm, src, list(src), to, dest, len(dest) if dest is not None else 0, state.scores[player - 1])
    if dest is None:
        dest = stacks[to] = []
    i = len(src) - 1
    while i >= 0:
        c = src[i]
        if (mask >> R.INDEX[c]) & 1:
            src.pop(i)
            dest.append(c)
        i -= 1
    if not src:
        del stacks[frm]
    if to in R.OWNER:
        state.scores[R.OWNER[to] - 1] += points
    return undo


def _unmove(state, undo, player):
    frm, src, was, to, dest, size, score = undo
    src.clear()
    src.extend(was)
    state.stacks[frm] = src
    if dest is None:
        del state.stacks[to]
    else:
        while len(dest) > size:
            dest.pop()
    state.scores[player - 1] = score


def _pay(have, move, sign):
    # the dice a move costs taken from (sign -1) or given back to (1) the counts
    frm, to, mask = move
    have[R.INDEX[R.PAYS[to]]] += sign
    i = 0
    while mask:
        if mask & 1:
            have[i] += sign
        mask >>= 1
        i += 1


def _do(state, move, player, have, k):
    # play a move of moves_of on the search's state and dice counts
    _pay(have, move, -1)
    return _move(state, move, player, k[0][move[2]])


def _undo(state, undo, player, have, move):
    _unmove(state, undo, player)
    _pay(have, move, 1)


def _best(state, player, have, covered, depth, k, budget, here):
    # a generator: the best value reachable in depth moves from here (the value of
    # the state as it is: standing still); a leaf is weighed (_weigh), not played.
    # It yields after every SLICE moves tried (budget[1] counts them), so a decision
    # never holds the box for more than a slice: the search runs on a scratch copy
    # of the state (_scratch), which the screen never reads
    best = here
    if depth <= 0 or budget[0] <= 0:
        return best
    for m in R.moves_of(state, player, list(have), covered):
        budget[0] -= 1
        if budget[0] < 0:
            break
        v = _weigh(state, m, player, here, k)
        if depth > 1:
            u = _do(state, m, player, have, k)
            v = yield from _best(state, player, have, covered, depth - 1, k, budget, v)
            _undo(state, u, player, have, m)
        if v > best:
            best = v
        budget[1] += 1
        if budget[1] >= SLICE:
            budget[1] = 0
            yield
    return best


def _scratch(state):
    # a copy the search may change at will (the values are only read)
    s = R.State(state.players, state.cap)
    s.values = state.values
    s.scores = list(state.scores)
    for k in state.stacks:
        s.stacks[k] = list(state.stacks[k])
    return s


def _search(state, player, dice_left, covered, rng, w):
    # a generator (referee.turns): it yields after each SLICE moves tried and after
    # each first move weighed, and returns the move
    state = _scratch(state)
    have = R.dice_counts(dice_left)
    n = 0
    for _m in R.moves_of(state, player, list(have), covered):
        n += 1
        if n % COUNT == 0:
            yield
    if not n:
        return None
    k = _tables(state, player, w)
    here = best = _value(state, player, w)
    picks = []
    share = max(MIN_SHARE, BUDGET // n)
    work = [0, 0]
    for m in R.moves_of(state, player, list(have), covered):
        v = _weigh(state, m, player, here, k)
        u = _do(state, m, player, have, k)
        work[0] = share
        v = yield from _best(state, player, have, covered, DEPTH - 1, k, work, v)
        _undo(state, u, player, have, m)
        work[1] = 0
        yield
        if v > best:
            best = v
            picks = [m]
        elif v == best and picks:
            picks.append(m)
    if not picks:
        return None
    return picks[rng.randbelow(len(picks))]


def greedy(state, player, dice_left, covered_rule, rng):
    return finish(_search(state, player, dice_left, covered_rule, rng, _greedy_w))


def spoiler(state, player, dice_left, covered_rule, rng):
    return finish(_search(state, player, dice_left, covered_rule, rng, _spoil_w))


BOTS = {"greedy": greedy, "spoiler": spoiler}
choose = greedy  # the default bot
_EVAL = {"greedy": _greedy_w, "spoiler": _spoil_w}


def search(name, state, player, dice_left, covered_rule, rng):
    # the bot ``name``'s decision as a search the box runs a slice a loop pass
    return _search(state, player, dice_left, covered_rule, rng, _EVAL.get(name, _greedy_w))


def play_turn(state, player, dice, covered_rule, rng, bot=greedy):
    # One whole bot turn on a throw (dice is spent in place). Returns the moves played.
    played = []
    while True:
        m = bot(state, player, dice, covered_rule, rng)
        if m is None:
            return played
        R.play(state, m, player, dice, covered_rule)
        played.append(m)
