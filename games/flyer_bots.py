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


def _greedy_eval(state, player):
    v = state.scores[player - 1] * POINT
    for s in state.stacks:
        if s not in R.OWNER:
            gain = _FAR - R.STEPS[s]
            for c in state.stacks[s]:
                v += state.values[c] * gain
    return v


def _spoil_eval(state, player):
    own = state.scores[player - 1]
    lead = 1
    for x in state.scores:
        if x > own:
            lead = 2
    v = own * POINT
    for s in state.stacks:
        if s in R.OWNER:
            continue
        steps = R.STEPS[s]
        if steps == 1:
            w = 8 - 20 * lead
        elif steps == 2:
            w = 4 - lead
        else:
            w = 0
        if w:
            for c in state.stacks[s]:
                v += state.values[c] * w
    return v


def _do(state, move, player, dice):
    # Play move on the search's state; the undo record keeps the stacks' list objects
    # (a running moves_iter holds them).
    idx = R.payment(state, move, dice)
    frm, to, _ = move
    src = state.stacks[frm]
    dest = state.stacks.get(to)
    undo = (frm, src, list(src), to, dest, len(dest) if dest is not None else 0,
            state.scores[player - 1], [(j, dice[j]) for j in idx])
    R.spend(dice, idx)
    R.apply(state, move, player)
    return undo


def _undo(state, undo, player, dice):
    frm, src, was, to, dest, size, score, paid = undo
    src.clear()
    src.extend(was)
    state.stacks[frm] = src
    if dest is None:
        del state.stacks[to]
    else:
        while len(dest) > size:
            dest.pop()
    state.scores[player - 1] = score
    for j, c in paid:
        dice[j] = c


def _best(state, player, dice, covered, depth, ev, budget):
    # a generator: the best value reachable in depth moves (a leaf is weighed inline);
    # it yields after every SLICE moves tried (budget[1] counts them), so a decision
    # never holds the box for more than a slice: the search runs on a scratch copy
    # of the state (_scratch), which the screen never reads
    best = ev(state, player)
    if depth <= 0 or budget[0] <= 0:
        return best
    for m in R.moves_iter(state, player, dice, covered):
        budget[0] -= 1
        if budget[0] < 0:
            break
        u = _do(state, m, player, dice)
        if depth > 1:
            v = yield from _best(state, player, dice, covered, depth - 1, ev, budget)
        else:
            v = ev(state, player)
        _undo(state, u, player, dice)
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


def _search(state, player, dice_left, covered, rng, ev):
    # a generator (referee.turns): it yields after each SLICE moves tried and after
    # each first move weighed, and returns the move
    state = _scratch(state)
    dice = list(dice_left)
    n = 0
    for _m in R.moves_iter(state, player, dice, covered):
        n += 1
        if n % COUNT == 0:
            yield
    if not n:
        return None
    best = ev(state, player)
    picks = []
    share = max(MIN_SHARE, BUDGET // n)
    work = [0, 0]
    for m in R.moves_iter(state, player, dice, covered):
        u = _do(state, m, player, dice)
        work[0] = share
        v = yield from _best(state, player, dice, covered, DEPTH - 1, ev, work)
        _undo(state, u, player, dice)
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
    return finish(_search(state, player, dice_left, covered_rule, rng, _greedy_eval))


def spoiler(state, player, dice_left, covered_rule, rng):
    return finish(_search(state, player, dice_left, covered_rule, rng, _spoil_eval))


BOTS = {"greedy": greedy, "spoiler": spoiler}
choose = greedy  # the default bot
_EVAL = {"greedy": _greedy_eval, "spoiler": _spoil_eval}


def search(name, state, player, dice_left, covered_rule, rng):
    # the bot ``name``'s decision as a search the box runs a slice a loop pass
    return _search(state, player, dice_left, covered_rule, rng, _EVAL.get(name, _greedy_eval))


def play_turn(state, player, dice, covered_rule, rng, bot=greedy):
    # One whole bot turn on a throw (dice is spent in place). Returns the moves played.
    played = []
    while True:
        m = bot(state, player, dice, covered_rule, rng)
        if m is None:
            return played
        R.play(state, m, player, dice, covered_rule)
        played.append(m)
