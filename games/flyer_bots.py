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
SLICE = const(1)  # moves tried in one loop pass of the box (~1.4 ms each on the emulated Pico)
COUNT = const(8)  # moves counted (not tried) in one pass
POINT = const(100)
_FAR = max(R.STEPS.values())
_STEPS = R.STEPS
_OWNER = R.OWNER
# The search's board is indexed by space (SPACES order, which ends with the homebases);
# its tables are bytes (small on the box's heap):
_N = len(R.SPACES) - len(R.HOMES)  # the spaces a marker can leave
_ST = bytes(R.STEPS[s] for s in R.SPACES)  # steps home
_PAY = bytes(R.INDEX[R.PAYS[s]] if R.PAYS[s] is not None else 0 for s in R.SPACES)  # the colour that pays
# the spaces that can be entered from each of the first _N, ADJACENT's order, each as
# one byte (its index * 8 + the colour index that pays for it): those of space i are
# _NB[_AT[i]:_AT[i + 1]]
_NB = []
_AT = [0]
for _i in range(_N):
    for _to in R.ADJACENT[R.SPACES[_i]]:
        if R.PAYS[_to] is not None:
            _NB.append(R.SPACES.index(_to) * 8 + R.INDEX[R.PAYS[_to]])
    _AT.append(len(_NB))
_NB = bytes(_NB)
_AT = bytes(_AT)
del _i, _to


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
    t = [POINT]
    for steps in range(1, _FAR + 1):
        t.append(w(steps, lead))
    return tuple(t)


def _tables(state, player, w):
    # what the search weighs moves with (_weigh), made once a decision: the value of
    # every set of markers (by its mask), the weights while the bot is not behind and
    # behind (the same tuple if the lead changes nothing), the best rival's score, w,
    # and the board as masks (a mask a space, SPACES order: the search moves markers
    # on it; _weigh reads it for a move home that changes the lead)
    sums = [0]
    for c in R.COLOURS:  # (the sets with this colour: those without it, plus its value)
        v = state.values[c]
        sums += [x + v for x in sums]
    sums = bytes(sums)  # (six values of 1..6: a byte each; a quarter of a list's heap)
    w1 = _weights(w, 1)
    w2 = _weights(w, 2)
    top = 0
    for p in range(1, len(state.scores) + 1):
        if p != player and state.scores[p - 1] > top:
            top = state.scores[p - 1]
    masks = [0] * len(R.SPACES)
    for sp in state.stacks:
        m = 0
        for c in state.stacks[sp]:
            m |= 1 << R.INDEX[c]
        masks[R.SPACES.index(sp)] = m
    return sums, w1, w1 if w2 == w1 else w2, top, w, masks


def _weigh(state, move, player, here, k):
    # the bot's value after move, from here (its value before, _value): only the
    # markers moved change it, while the lead stays. A move home that ends the bot's
    # being behind also weighs every marker not home with the new lead's weights:
    # the board's gap between the two (from k's masks, the board before the move)
    sums, w1, w2, top, w, masks = k
    frm, to, mask = move
    own = state.scores[player - 1]
    t = w2 if top > own else w1
    s = sums[mask]
    if to in _OWNER and (w2 if top > own + s else w1) is not t:
        g = 0
        for i in range(_N):
            if masks[i]:
                g += sums[masks[i]] * (w1[_ST[i]] - w2[_ST[i]])
        return here + s * (w1[0] - w1[_STEPS[frm]]) + g
    return here + s * (t[_STEPS[to]] - t[_STEPS[frm]])


def _moves(masks, packed, have, home, covered):
    # moves_of on the search's board (masks; packed: the stacks for the covered rule),
    # as (from, to, mask) space indexes, in moves_of's order; home: the bot's homebase's
    # index. The board and the dice may change between two moves if they are back as
    # they were before the next one is asked for
    dice = 0  # the colours a die is left of
    n = 0
    for c in range(6):
        if have[c]:
            dice |= 1 << c
            n += have[c]
    if n < 2:  # (a move costs two dice or more)
        return
    for i in range(_N):
        here = masks[i]
        if not here:
            continue
        for x in range(_AT[i], _AT[i + 1]):
            x = _NB[x]
            j = x >> 3
            p = x & 7
            if not (dice >> p) & 1 or (j >= _N and j != home):
                continue
            left = dice if have[p] > 1 else dice & ~(1 << p)  # once the space is paid
            if covered:  # the groups from the top
                st = packed[i]
                g = 0
                while st:
                    c = (st & 7) - 1
                    if not (left >> c) & 1:
                        break
                    g |= 1 << c
                    yield i, j, g
                    st >>= 3
            else:
                a = here & left
                sub = a
                while sub:
                    yield i, j, sub
                    sub = (sub - 1) & a


def _step(b, i, j, m, sign):
    # a move (i, j, m) played (sign -1) or taken back (1) on the search's board b
    # (_search): its dice, its markers and, into the bot's homebase, its points
    masks, packed, have, scores, me, home, sums = b
    have[_PAY[j]] += sign
    n = 0
    k = m
    c = 0
    while k:
        if k & 1:
            have[c] += sign
            n += 1
        k >>= 1
        c += 1
    if sign > 0:  # (back from j to i)
        i, j = j, i
    masks[i] ^= m
    masks[j] |= m
    if packed is not None:  # the top n markers of i leave one at a time onto j
        a = packed[i]
        t = packed[j]
        while n:
            t = (t << 3) | (a & 7)
            a >>= 3
            n -= 1
        packed[i] = a
        packed[j] = t
    if i == home or j == home:
        scores[me] -= sign * sums[m]


def _best(b, own, player, depth, k, work, here, dice):
    # a generator: the best value reachable in depth moves from here (the value of the
    # board b as it is: standing still), dice: how many are left; work: [moves tried
    # since the last yield, the moves the first move's subtree may still try]. A leaf
    # is weighed, not played. It yields every SLICE moves tried
    best = here
    for i, j, m in _moves(b[0], b[1], b[2], b[5], b[1] is not None):
        work[1] -= 1
        if work[1] < 0:
            break
        v = _weigh(own, (R.SPACES[i], R.SPACES[j], m), player, here, k)
        work[0] += 1
        if work[0] >= SLICE:
            work[0] = 0
            yield
        left = dice - 1 - R.popcount(m)
        if depth > 1 and left >= 2 and work[1] > 0:  # (a move costs two dice or more)
            _step(b, i, j, m, -1)
            v = yield from _best(b, own, player, depth - 1, k, work, v, left)
            _step(b, i, j, m, 1)
        if v > best:
            best = v
    return best


def _search(state, player, dice_left, covered, rng, w):
    # a generator (referee.turns): it yields after every SLICE moves tried (weighed,
    # at any depth) and every COUNT moves counted, and returns the move. The search
    # runs on a board of its own (masks of the stacks, the dice counts, a copy of the
    # scores), which the screen never reads: every sequence of up to DEPTH moves, depth
    # first, each first move's subtree at most `share` moves tried after it; ties
    # broken by the rng
    have = R.dice_counts(dice_left)
    k = _tables(state, player, w)
    packed = None
    if covered:  # the stacks' order: three bits a marker (colour index + 1), the top lowest
        packed = [0] * len(R.SPACES)
        for i in range(_N):
            for c in state.stacks.get(R.SPACES[i], ()):
                packed[i] = (packed[i] << 3) | (R.INDEX[c] + 1)
    own = R.State(state.players, 0)  # the scores _weigh reads, the bot's own as it moves
    own.scores = list(state.scores)
    b = (k[5], packed, have, own.scores, player - 1, _N + player - 1, k[0])
    n = 0
    for _m in _moves(k[5], packed, have, b[5], covered):
        n += 1
        if n % COUNT == 0:
            yield
    if not n:
        return None
    dice = 0
    for c in have:
        dice += c
    here = best = _value(state, player, w)
    picks = []
    work = [0, 0]
    share = max(MIN_SHARE, BUDGET // n)
    for i, j, m in _moves(k[5], packed, have, b[5], covered):
        first = (R.SPACES[i], R.SPACES[j], m)
        v = _weigh(own, first, player, here, k)
        work[0] += 1
        if work[0] >= SLICE:
            work[0] = 0
            yield
        left = dice - 1 - R.popcount(m)
        if left >= 2:  # the moves after it (a move costs two dice or more)
            work[1] = share
            _step(b, i, j, m, -1)
            v = yield from _best(b, own, player, DEPTH - 1, k, work, v, left)
            _step(b, i, j, m, 1)
        if v > best:
            best = v
            picks = [first]
        elif v == best and picks:
            picks.append(first)
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
