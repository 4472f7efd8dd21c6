# ZAP City bots (docs/zap_city.md, "The bots").
#   choose(state, seat, rng) -> one of legal_actions(state, seat), or None to pass
#   search(state, seat, rng) -> the same decision, a generator run a slice a loop pass
#   wants_knock(state, seat) -> bool, asked before the throw: a bot knocks exactly when
#     the rules require it
# BOTS: (name, choose) pairs, in menu order.
# Both bots look one action ahead: each legal action is performed, the table scored,
# the action undone (no copies of the state). The best score wins; a pass wins equal
# scores; other ties are broken with rng, so a seed replays a match. Integers only.
# A move that locks the table (rules.locked: nobody can win any more) scores just above
#   a rival's win: a bot plays to win.
# Value of a seat: 100 per symbol in its City die, -40 per duplicate disk there, +3 per
#   disk on its Urban dice whose symbol the City lacks (a Joker always: it pairs), +1
#   per empty Urban side (empty tops give fill powers). A complete City decides alone.
# greedy: own value minus a quarter of the best rival's.
# blocker: own value minus every rival's value weighted by how near it is (symbols + 1)
#   / 4: it hands rivals duplicates and unwanted disks and takes what they nearly have,
#   but never at a cost to its own value (else two bots undo each other's moves).

from games.zap_city_rules import (
    ALL_SYMBOLS,
    CITY,
    JOKER,
    TOPS,
    URBAN_CITY,
    URBAN_FILL,
    base,
    legal_actions,
    needs_knock,
    perform,
    players,
    undo,
)
from referee.core import const
from referee.turns import finish

_WIN = const(1000000)
SLICE = const(1)  # actions weighed per loop pass (two were 15-30 ms on the emulated Pico)
_LOCK = const(-900000)


def wants_knock(st, seat):
    return needs_knock(st, seat)


def _seat(st, seat):
    # (value, City mask, City full) of a seat: the value as in the module's head (its
    # City's sides read once, for its mask and its disks)
    b = base(seat)
    m = 0
    disks = 0
    for i in range(b + CITY, b + CITY + 6):
        x = st[i]
        if x:
            disks += 1
            m |= 1 << (x & 7)
    if m == ALL_SYMBOLS:
        return _WIN, m, disks == 6
    d = 0
    k = m
    while k:
        d += k & 1
        k >>= 1
    v = 140 * d - 40 * disks  # 100 a symbol, -40 a duplicate (disks - d)
    lack = (ALL_SYMBOLS ^ m) | (1 << JOKER)  # the symbols an Urban disk earns 3 for
    for i in range(b, b + TOPS):
        x = st[i]
        if not x:
            v += 1
        elif (lack >> (x & 7)) & 1:
            v += 3
    return v, m, disks == 6


def _side(seat, x, sign):
    # a seat (_seat) once disk x has left one of its Urban sides (sign 1) or has been
    # put on an empty one (-1), its City as it was
    v, m, full = seat
    if m == ALL_SYMBOLS:
        return seat
    return v + sign * (1 - 3 * ((((ALL_SYMBOLS ^ m) | (1 << JOKER)) >> (x & 7)) & 1)), m, full


def _seats(st):
    # [None, _seat of seat 1, ...]: the search keeps it as the table changes
    out = [None]
    for seat in range(1, players(st) + 1):
        out.append(_seat(st, seat))
    return out


def _locked(seats):
    # rules.locked from the seats' City masks: every City die full, a symbol on none
    union = 0
    for i in range(1, len(seats)):
        if not seats[i][2]:
            return False
        union |= seats[i][1]
    return union != ALL_SYMBOLS


def _greedy_score(seats, me):
    if _locked(seats):
        return _LOCK
    own = seats[me][0]
    best = -_WIN
    for seat in range(1, len(seats)):
        if seat != me:
            v = seats[seat][0]
            if v == _WIN:
                return -_WIN
            if v > best:
                best = v
    if own == _WIN:
        return _WIN
    return own - best // 4


def _blocker_score(seats, me):
    if _locked(seats):
        return _LOCK
    own = seats[me][0]
    score = own
    for seat in range(1, len(seats)):
        if seat != me:
            v, m, _ = seats[seat]
            if v == _WIN:
                return -_WIN
            near = 1
            while m:
                near += m & 1
                m >>= 1
            score -= v * near // 4
    if own == _WIN:
        return _WIN
    return score


def _search(st, me, rng, score, keep_own, actions=None):
    # a generator (referee.turns): it yields every SLICE actions, the state whole
    # between two slices, and returns its choice; actions: legal_actions(st, me) if
    # the caller has them (never changed here). Each seat's value is worked out once
    # (seats); an action changes the seats it takes a disk from and gives it to, and
    # only theirs are worked out again for it
    if actions is None:
        actions = legal_actions(st, me)
        yield
    seats = _seats(st)
    best = score(seats, me)
    own = seats[me][0] if keep_own else 0
    choice = None
    ties = 0
    n = 0
    for a in actions:
        n += 1
        if n % SLICE == 1 % SLICE:  # (the first after the seats worked out)
            yield
        perform(st, a)
        kind = a[0]
        p = a[2] >> 3
        q = a[3] >> 3
        was_p = seats[p]
        was_q = seats[q]
        # the disk leaves an Urban top (the first three kinds) or a City side; it goes to
        # an Urban top (an Urban-Fill) or a City side. A seat whose City it leaves as it
        # was changes by that Urban side alone
        if kind == URBAN_FILL or kind == URBAN_CITY:
            seats[p] = _side(was_p, a[4], 1)
        else:
            seats[p] = _seat(st, p)
        if q != p:
            seats[q] = _side(was_q, a[4], -1) if kind == URBAN_FILL else _seat(st, q)
        v = score(seats, me)
        if keep_own and seats[me][0] < own:
            v = best - 1
        seats[p] = was_p
        seats[q] = was_q
        undo(st, a)
        if v > best:
            best = v
            choice = a
            ties = 1
        elif v == best and choice is not None:
            ties += 1
            if rng.randbelow(ties) == 0:
                choice = a
    return choice


def greedy(st, seat, rng):
    return finish(_search(st, seat, rng, _greedy_score, False))


def blocker(st, seat, rng):
    return finish(_search(st, seat, rng, _blocker_score, True))


BOTS = (("greedy", greedy), ("blocker", blocker))
_HOW = (("greedy", _greedy_score, False), ("blocker", _blocker_score, True))


def search(st, seat, rng, name="greedy", actions=None):
    """The bot's decision as a search the box runs a slice a loop pass (referee.turns);
    ``actions``: the seat's legal actions, when the caller has them already."""
    for n, score, keep_own in _HOW:
        if n == name:
            return _search(st, seat, rng, score, keep_own, actions)
    raise ValueError("unknown bot: " + str(name))


def choose(st, seat, rng, name="greedy"):
    """The bot's decision at once: one of legal_actions(st, seat), or None to pass."""
    return finish(search(st, seat, rng, name))
