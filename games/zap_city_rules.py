# ZAP City: the pure rules, 2 to 4 players. No display, no box, no time: the game's
# flow and screen (games/zap_city.py) and the bots (games/zap_city_bots.py) are built
# on these functions. docs/zap_city.md explains the rules and our rulings in words.
#
# Disk: an int seat * 8 + symbol index; seat 1..4 is the owner (its colour on screen),
#   symbol index 0..5 stands for "1".."5", "J". 0 is an empty side (no disk is 0..7).
# Location (in actions): seat * 8 + position; the position is one of that seat's Urban
#   dice 0..2 (meaning its top) or one of the six sides 0..5 of that seat's City die;
#   the action's kind says which.
# Action: a tuple (kind, actor, src, dst, disk, other); None is a pass.
#   kind   CITY_TRANSFER, URBAN_FILL, URBAN_CITY, CITY_FILL, EXCHANGE (0..4)
#   actor  the seat that acts
#   src    where the moving disk is: an Urban top (kinds 0, 1, 2) or a City side (3, 4)
#   dst    where it goes: an Urban top (kind 1) or a City side (kinds 0, 2, 3, 4)
#   disk   the moving disk; other: the disk at dst before the action (EXCHANGE), else 0
# State: one flat list of ints (to_data / from_data save it). Header, then a block of
#   27 per seat: 18 Urban sides (die d, side k at d * 6 + k), the 3 top indexes (which
#   side of each Urban die is up), the 6 City sides.
#
# Rulings (the printed rules leave these open, docs/rulings.md; each one lives in the one place named here):
#   sides of a City die are interchangeable: a disk entering a City die takes its first
#     empty side, and of identical disks on one City die only the first is offered
#     (_first_hole, _first_of)
#   Joker pairing for City-Transfer: _pair; for Urban-City-Transfer: _captures
#   empty own tops each action needs: POWER
#   City-Fill and City-Exchange involve two different City dice; an exchange swaps two
#     disks (never an empty side) that are not identical: legal_actions
#   knock required: needs_knock; a throw without a required knock stands, no action:
#     throw
#   one action completing several City dice: the actor's first, then clockwise:
#     _winner_after
#   throw-off: throw_off (value of a Joker: JOKER_VALUE)
#   a locked table (every City die full and a symbol on none of them: no disk can
#     enter a City die any more, exchanges only shuffle) ends the game at once without
#     a winner: locked, apply; any other stall ends after TURN_CAP turns: next_turn;
#     ranking then orders the table

from referee.core import const

CITY_TRANSFER = const(0)
URBAN_FILL = const(1)
URBAN_CITY = const(2)
CITY_FILL = const(3)
EXCHANGE = const(4)
KINDS = ("City-Transfer", "Urban-Fill", "Urban-City-Transfer", "City-Fill",
         "City-Exchange")
# Empty own tops each kind needs; ">=" lets a stronger fill power do a weaker fill.
# City-Transfer needs none: it needs a pair, which no power replaces.
POWER = (0, 1, 1, 2, 3)

SYMBOLS = ("1", "2", "3", "4", "5", "J")
JOKER = const(5)
JOKER_VALUE = const(6)
ALL_SYMBOLS = const(63)
MIN_PLAYERS = const(2)
MAX_PLAYERS = const(4)
DATA_VERSION = const(1)
TURN_CAP = const(200)

# Phases of the seat to play.
THROW = const(0)   # may knock, then throws
ACT = const(1)     # thrown: one action or a pass
DONE = const(2)    # the turn is over (acted, passed or lost): next_turn
OVER = const(3)    # a City die is complete: winner(state)

_N = const(0)
_TURN = const(1)
_PHASE = const(2)
_KNOCK = const(3)
_WIN = const(4)
_TURNS = const(5)
_HEAD = const(6)
_BLOCK = const(27)
# A seat's block starts at base(seat): Urban sides, then TOPS (top indexes), then CITY.
TOPS = const(18)
CITY = const(21)


def base(seat):
    return _HEAD + (seat - 1) * _BLOCK


def new_state(players):
    if players < MIN_PLAYERS or players > MAX_PLAYERS:
        raise ValueError("ZAP City is for 2 to 4 players")
    st = [0] * (_HEAD + players * _BLOCK)
    st[_N] = players
    st[_TURN] = 1
    for seat in range(1, players + 1):
        b = base(seat)
        for d in range(3):
            for k in range(6):
                st[b + d * 6 + k] = seat * 8 + k
    return st


# -- reading the table -------------------------------------------------------------

def players(st):
    return st[_N]


def turn(st):
    return st[_TURN]


def phase(st):
    return st[_PHASE]


def knocked(st):
    return st[_KNOCK] == 1


def winner(st):
    return st[_WIN]


def turns(st):
    return st[_TURNS]


def owner(disk):
    return disk >> 3


def symbol(disk):
    if not disk:
        return None
    return SYMBOLS[disk & 7]


# base(seat) is written out in the functions the rules call for every legal action
# (a call costs ~30 µs on the box)
def _top_at(st, seat, die):
    b = _HEAD + (seat - 1) * _BLOCK
    return b + die * 6 + st[b + TOPS + die]


def top(st, seat, die):
    b = _HEAD + (seat - 1) * _BLOCK
    return st[b + die * 6 + st[b + TOPS + die]]


def tops(st, seat):
    b = _HEAD + (seat - 1) * _BLOCK
    t = b + TOPS
    return [st[b + st[t]], st[b + 6 + st[t + 1]], st[b + 12 + st[t + 2]]]


def city_disks(st, seat):
    b = base(seat) + CITY
    return st[b:b + 6]


def city(st, seat):
    return [symbol(x) for x in city_disks(st, seat)]


def urban_disks(st, seat):
    out = []
    b = base(seat)
    for d in range(3):
        t = st[b + TOPS + d]
        die = [st[b + d * 6 + t]]
        for k in range(6):
            if k != t:
                die.append(st[b + d * 6 + k])
        out.append(die)
    return out


def urban(st, seat):
    return [[symbol(x) for x in die] for die in urban_disks(st, seat)]


def city_mask(st, seat):
    b = _HEAD + (seat - 1) * _BLOCK + CITY
    m = 0
    for i in range(b, b + 6):
        if st[i]:
            m |= 1 << (st[i] & 7)
    return m


def bits(m):
    n = 0
    while m:
        n += m & 1
        m >>= 1
    return n


def distinct(st, seat):
    return bits(city_mask(st, seat))


def city_count(st, seat):
    b = _HEAD + (seat - 1) * _BLOCK + CITY
    n = 0
    for i in range(b, b + 6):
        if st[i]:
            n += 1
    return n


def complete(st, seat):
    return city_mask(st, seat) == ALL_SYMBOLS


def needs_knock(st, seat):
    # One disk from complete: five different symbols and one empty side. A full City
    # die holding a duplicate needs a swap, not a disk: no knock.
    return city_count(st, seat) == 5 and distinct(st, seat) == 5


def _first_hole(st, seat):
    b = _HEAD + (seat - 1) * _BLOCK + CITY
    for k in range(6):
        if not st[b + k]:
            return k
    return -1


def _first_of(st, seat, side):
    # True when the disk on this City side is the first of its kind on that die.
    b = _HEAD + (seat - 1) * _BLOCK + CITY
    x = st[b + side]
    for k in range(side):
        if st[b + k] == x:
            return False
    return True


def _pair(a, b):
    # Two own tops make a double: same symbol, or either is a Joker.
    return bool(a and b and ((a & 7) == (b & 7) or (a & 7) == JOKER or (b & 7) == JOKER))


def _captures(taken, own):
    # A taken disk doubles with an own top: same symbol, or an own Joker; a taken
    # Joker only with an own Joker.
    if not (taken and own):
        return False
    if (taken & 7) == JOKER:
        return (own & 7) == JOKER
    return (own & 7) == (taken & 7) or (own & 7) == JOKER


# -- start, turn ---------------------------------------------------------------------

def _value(disk):
    if not disk:
        return 0
    if (disk & 7) == JOKER:
        return JOKER_VALUE
    return (disk & 7) + 1


def throw_off(st, rng):
    # Every seat throws its three Urban dice; the highest total (Joker = JOKER_VALUE)
    # starts; the tied highest throw again. The last tops thrown stay up. Returns the
    # rounds: [[(seat, total, [symbol, symbol, symbol]), ...], ...].
    if st[_TURNS] or st[_PHASE] != THROW:
        raise ValueError("the throw-off comes before the first turn")
    seats = list(range(1, st[_N] + 1))
    rounds = []
    while True:
        row = []
        best = -1
        for seat in seats:
            b = base(seat)
            total = 0
            shown = []
            for d in range(3):
                t = rng.randbelow(6)
                st[b + TOPS + d] = t
                x = st[b + d * 6 + t]
                total += _value(x)
                shown.append(symbol(x))
            row.append((seat, total, shown))
            if total > best:
                best = total
        rounds.append(row)
        seats = [r[0] for r in row if r[1] == best]
        if len(seats) == 1:
            break
    st[_TURN] = seats[0]
    return rounds


def knock(st):
    if st[_PHASE] != THROW:
        raise ValueError("knock before the throw")
    st[_KNOCK] = 1


def throw(st, rng):
    # Throws the three Urban dice of the seat to play (each side equally likely,
    # empty sides too). True: the seat may act. False: a knock was required and
    # missing, so the turn is lost (the thrown tops stay up).
    if st[_PHASE] != THROW:
        raise ValueError("not the time to throw")
    seat = st[_TURN]
    lost = needs_knock(st, seat) and not st[_KNOCK]
    b = base(seat)
    for d in range(3):
        st[b + TOPS + d] = rng.randbelow(6)
    st[_PHASE] = DONE if lost else ACT
    return not lost


def next_turn(st):
    if st[_PHASE] != DONE:
        raise ValueError("the turn is not over")
    # The next seat; the game ends without a winner once TURN_CAP turns are played.
    st[_TURN] = st[_TURN] % st[_N] + 1
    st[_PHASE] = THROW
    st[_KNOCK] = 0
    st[_TURNS] += 1
    if st[_TURNS] >= TURN_CAP:
        st[_PHASE] = OVER


# -- actions -------------------------------------------------------------------------

def legal_actions(st, seat):
    # Every legal action of seat now (none unless it is seat's time to act), power by power.
    if st[_PHASE] != ACT or st[_TURN] != seat:
        return []
    out = []
    mine = tops(st, seat)
    empty = 0
    for x in mine:
        if not x:
            empty += 1
    hole = _first_hole(st, seat)
    if hole >= 0:
        _city_transfers(seat, mine, hole, out)
    if empty >= POWER[URBAN_FILL]:
        _urban_fills(st, seat, mine, out)
    if empty >= POWER[URBAN_CITY] and hole >= 0:
        _urban_cities(st, seat, mine, hole, out)
    if empty >= POWER[CITY_FILL]:
        # every seat's first hole and first disks, asked once (a box pass counts calls)
        n = st[_N]
        holes = [-1]
        firsts = [None]
        for p in range(1, n + 1):
            holes.append(_first_hole(st, p))
            firsts.append(_city_disks_first(st, p))
        _city_fills(seat, n, holes, firsts, out)
        if empty >= POWER[EXCHANGE]:
            _exchanges(seat, n, firsts, out)
    return out


def _city_transfers(seat, mine, hole, out):
    me = seat * 8
    for d in range(3):
        x = mine[d]
        if x and (_pair(x, mine[d - 1]) or _pair(x, mine[d - 2])):
            out.append((CITY_TRANSFER, seat, me + d, me + hole, x, 0))


def _rival_tops(st, seat):
    # (where, disk) of every top of every other seat's Urban dice (disk 0: empty)
    out = []
    for q in range(1, st[_N] + 1):
        if q != seat:
            b = _HEAD + (q - 1) * _BLOCK
            for e in range(3):
                out.append((q * 8 + e, st[b + e * 6 + st[b + TOPS + e]]))
    return out


def _urban_fills(st, seat, mine, out):
    me = seat * 8
    for loc, y in _rival_tops(st, seat):
        for d in range(3):
            if y and not mine[d]:
                out.append((URBAN_FILL, seat, loc, me + d, y, 0))
            elif mine[d] and not y:
                out.append((URBAN_FILL, seat, me + d, loc, mine[d], 0))


def _urban_cities(st, seat, mine, hole, out):
    me = seat * 8
    for loc, y in _rival_tops(st, seat):
        if _captures(y, mine[0]) or _captures(y, mine[1]) or _captures(y, mine[2]):
            out.append((URBAN_CITY, seat, loc, me + hole, y, 0))


def _city_disks_first(st, p):
    # (k, disk) for each City side of p holding the first of its symbol there
    b = _HEAD + (p - 1) * _BLOCK + CITY
    out = []
    for k in range(6):
        x = st[b + k]
        if x and _first_of(st, p, k):
            out.append((k, x))
    return out


def _city_fills(seat, n, holes, firsts, out):
    for p in range(1, n + 1):
        for k, x in firsts[p]:
            for q in range(1, n + 1):
                h = holes[q]
                if q != p and h >= 0:
                    out.append((CITY_FILL, seat, p * 8 + k, q * 8 + h, x, 0))


def _exchanges(seat, n, firsts, out):
    for p in range(1, n + 1):
        for k, x in firsts[p]:
            for q in range(p + 1, n + 1):
                for j, y in firsts[q]:
                    if y != x:
                        out.append((EXCHANGE, seat, p * 8 + k, q * 8 + j, x, y))


def _at(st, loc, urban_side):
    seat = loc >> 3
    if urban_side:
        return _top_at(st, seat, loc & 7)
    return base(seat) + CITY + (loc & 7)


def perform(st, action, back=False):
    # Moves the disks of an action (back: moves them back), nothing else: no check, no
    # phase (the bots look ahead with perform / undo). Use apply in a game.
    kind = action[0]
    i = _at(st, action[2], kind <= URBAN_CITY)
    j = _at(st, action[3], kind == URBAN_FILL)
    if kind == EXCHANGE:
        st[i], st[j] = st[j], st[i]
    elif back:
        st[i] = st[j]
        st[j] = 0
    else:
        st[j] = st[i]
        st[i] = 0


def undo(st, action):
    perform(st, action, True)


def locked(st):
    # No City die can ever be completed: all full, and together they lack a symbol.
    union = 0
    for seat in range(1, st[_N] + 1):
        if city_count(st, seat) < 6:
            return False
        union |= city_mask(st, seat)
    return union != ALL_SYMBOLS


def _winner_after(st, actor):
    n = st[_N]
    for i in range(n):
        seat = (actor - 1 + i) % n + 1
        if complete(st, seat):
            return seat
    return 0


def apply(st, action, legal=None):
    # The seat to play acts (None = pass); the turn is then over (next_turn), or the
    # game if a City die is complete or the table locked. Mutates st and returns it.
    # legal: legal_actions(st, seat) of this very state when the caller kept them.
    if st[_PHASE] != ACT:
        raise ValueError("no action allowed now (one action per turn, after the throw)")
    seat = st[_TURN]
    if action is not None:
        if action not in (legal if legal is not None else legal_actions(st, seat)):
            raise ValueError("illegal action: " + str(action))
        perform(st, action)
    st[_PHASE] = DONE
    w = _winner_after(st, seat)
    if w:
        st[_WIN] = w
        st[_PHASE] = OVER
    elif locked(st):
        st[_PHASE] = OVER
    return st


def describe(action):
    if action is None:
        return "Pass"
    kind, actor, src, dst, disk, other = action
    s = SYMBOLS[disk & 7]
    text = "P%d %s: " % (actor, KINDS[kind])
    if kind == CITY_TRANSFER:
        return text + s + " to City"
    if kind == URBAN_FILL:
        if src >> 3 == actor:
            return text + "%s to P%d" % (s, dst >> 3)
        return text + "%s from P%d" % (s, src >> 3)
    if kind == URBAN_CITY:
        return text + "%s from P%d to City" % (s, src >> 3)
    if kind == CITY_FILL:
        return text + "%s from P%d to P%d" % (s, src >> 3, dst >> 3)
    return text + "%s of P%d <-> %s of P%d" % (s, src >> 3, SYMBOLS[other & 7], dst >> 3)


# -- end -----------------------------------------------------------------------------

def ranking(st):
    # [(place, seat, distinct symbols in its City die), ...] best first; the winner (if
    # any) first, equal counts share a place.
    w = st[_WIN]
    rows = []
    for seat in range(1, st[_N] + 1):
        rows.append((0 if seat == w else 1, -distinct(st, seat), seat))
    rows.sort()
    out = []
    place = 0
    prev = None
    for i in range(len(rows)):
        key = rows[i][0:2]
        if key != prev:
            place = i + 1
            prev = key
        out.append((place, rows[i][2], -rows[i][1]))
    return out


# -- save and resume -----------------------------------------------------------------

def check(st):
    # ValueError unless every disk is on the table exactly once: each seat owns three
    # of each symbol.
    n = st[_N]
    counts = [0] * ((n + 1) * 8)
    for seat in range(1, n + 1):
        b = base(seat)
        for i in range(b, b + TOPS):
            x = st[i]
            if x:
                if x < 8 or x >= len(counts) or (x & 7) > JOKER:
                    raise ValueError("bad disk %d" % x)
                counts[x] += 1
        for i in range(b + CITY, b + CITY + 6):
            x = st[i]
            if x:
                if x < 8 or x >= len(counts) or (x & 7) > JOKER:
                    raise ValueError("bad disk %d" % x)
                counts[x] += 1
    for seat in range(1, n + 1):
        for k in range(6):
            if counts[seat * 8 + k] != 3:
                raise ValueError("disks lost or doubled")


def to_data(st):
    return [DATA_VERSION] + st


def from_data(data):
    if not isinstance(data, list) or len(data) < 1 + _HEAD:
        raise ValueError("not a ZAP City save")
    for x in data:
        if not isinstance(x, int) or isinstance(x, bool):
            raise ValueError("not a ZAP City save")
    if data[0] != DATA_VERSION:
        raise ValueError("not a ZAP City save")
    st = data[1:]
    n = st[_N]
    if n < MIN_PLAYERS or n > MAX_PLAYERS or len(st) != _HEAD + n * _BLOCK:
        raise ValueError("not a ZAP City save")
    if not (1 <= st[_TURN] <= n and 0 <= st[_PHASE] <= OVER and 0 <= st[_KNOCK] <= 1
            and 0 <= st[_WIN] <= n and st[_TURNS] >= 0):
        raise ValueError("not a ZAP City save")
    for seat in range(1, n + 1):
        b = base(seat) + TOPS
        for d in range(3):
            if not 0 <= st[b + d] <= 5:
                raise ValueError("not a ZAP City save")
    check(st)
    return st
