# Essen 2006 flyer game: the pure rules (board, set-up, moves, payment, scoring, end,
# one-button menu levels, save data).
#
# No display, no box, no clock: the flow and the screen (games/flyer.py) and the bots
# (games/flyer_bots.py) are built on these functions. Rulings: docs/rulings.md ("The Essen 2006
# flyer game") and docs/flyer.md, which lists every ruling taken here.
#
# Colours: "white" "yellow" "green" "blue" "purple" "red" (COLOURS, the starting stack
# bottom to top). A die shows one of them. Markers: one per colour, so a colour names
# its marker.
#
# A move is a tuple (frm, to, mask): frm and to are space names; mask is an int with bit
# i set when the marker of COLOURS[i] moves (bit 0 white ... bit 5 red). The chosen
# markers leave frm one at a time, the highest first, and each lands on top of to, so
# the group arrives in reverse order. Without the optional rule any markers of frm's
# stack may be chosen; with it only a group from the top (see docs/flyer.md).
#
# Dice: a turn's throw is a list of six colours; dice_left is that list with None for
# each die already spent, so a payment names dice by index.
#
# State (class State): players (2..4, seats 1..players; seat k owns "homek"), stacks
# {space: [colour, ...] bottom to top, empty spaces omitted}, values {colour: points},
# scores [points, index 0 = seat 1], current (seat to play), turns (turns completed),
# cap (turns after which the game ends by score; 0 = no cap).
#
# (Docstrings would cost the box no RAM, its .mpy drops them; only the tests'
# MicroPython VM, compiling the .py, keeps them: docs/design.md, "Memory".)


from referee.core import const
from referee.dice import roll as _roll_dice

COLOURS = ("white", "yellow", "green", "blue", "purple", "red")
DIE = COLOURS  # a colour die: one face of each colour
ABBR = {"white": "wht", "yellow": "yel", "green": "grn", "blue": "blu",
        "purple": "pur", "red": "red"}
HOMES = ("home1", "home2", "home3", "home4")
PLAYERS = const(4)
MIN_PLAYERS = const(2)
TURN_CAP = const(200)  # default cap: 50 rounds of 4 turns (docs/flyer.md, "End")
END = "end"  # the "End turn" item of the top-level menu

# THE BOARD, as one table (docs/rulings.md: *unverified*; correct it here from a physical
# copy, nothing else needs to change). space: (colour that pays for entering it or
# None if nothing can enter it, x, y on a 320x240 screen, neighbours).
# Ring order red - purple - blue - green - yellow - red; every ring space touches the
# centre and the border; the border touches every homebase (homebases in the corners).
BOARD = {
    "centre": (None, 160, 120, ("red", "purple", "blue", "green", "yellow")),
    "red": ("red", 160, 58, ("centre", "purple", "yellow", "border")),
    "purple": ("purple", 219, 101, ("centre", "red", "blue", "border")),
    "blue": ("blue", 196, 170, ("centre", "purple", "green", "border")),
    "green": ("green", 124, 170, ("centre", "blue", "yellow", "border")),
    "yellow": ("yellow", 101, 101, ("centre", "green", "red", "border")),
    "border": ("white", 160, 222, ("red", "purple", "blue", "green", "yellow",
                                   "home1", "home2", "home3", "home4")),
    "home1": ("white", 24, 20, ("border",)),
    "home2": ("white", 296, 20, ("border",)),
    "home3": ("white", 296, 220, ("border",)),
    "home4": ("white", 24, 220, ("border",)),
}
START = "centre"  # where the stack starts

# Views of the table (derived, never edited).
SPACES = ("centre", "red", "purple", "blue", "green", "yellow", "border") + HOMES
ADJACENT = {}
PAYS = {}
POS = {}
for _s in SPACES:
    _row = BOARD[_s]
    PAYS[_s] = _row[0]
    POS[_s] = (_row[1], _row[2])
    ADJACENT[_s] = _row[3]
OWNER = {}
for _i in range(len(HOMES)):
    OWNER[HOMES[_i]] = _i + 1
_CI = {}  # colour -> bit index
for _i in range(len(COLOURS)):
    _CI[COLOURS[_i]] = _i
INDEX = _CI  # (the bots' search reads it)


def _steps_home():
    # Fewest moves from each space to a homebase (any seat's): bots use it.
    steps = {}
    for h in HOMES:
        steps[h] = 0
    todo = list(HOMES)
    while todo:
        nxt = []
        for s in todo:
            for n in ADJACENT[s]:
                if n not in steps and PAYS[s] is not None:
                    steps[n] = steps[s] + 1
                    nxt.append(n)
        todo = nxt
    return steps


STEPS = _steps_home()
del _s, _row, _i


def bit(colour):
    return 1 << _CI[colour]


def count(move):
    # markers a move carries
    return popcount(move[2])


def popcount(m):
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


def colours_of(mask):
    # the colours in mask, in COLOURS order
    return [c for c in COLOURS if mask & (1 << _CI[c])]


class State:
    def __init__(self, players=PLAYERS, cap=TURN_CAP):
        if players < MIN_PLAYERS or players > PLAYERS:
            raise ValueError("the flyer game takes 2..4 players")
        self.players = players
        self.stacks = {}
        self.values = {}
        self.scores = [0] * players
        self.current = players  # the last seat starts
        self.turns = 0
        self.cap = cap


def values_from(throws):
    # six d6 throws -> {colour: points}: sorted, the lowest to red ... the highest to white
    t = sorted(throws)
    if len(t) != 6:
        raise ValueError("six throws needed")
    values = {}
    for i in range(6):
        values[COLOURS[i]] = t[5 - i]
    return values


def setup(rng, players=PLAYERS, cap=TURN_CAP):
    # -> (state, throws): the six d6 throws as thrown (so the screen can show them)
    state = State(players, cap)
    throws = _roll_dice(rng, 6)
    state.values = values_from(throws)
    state.stacks[START] = list(COLOURS)
    return state, throws


def roll(rng):
    # the turn's throw of the six colour dice
    return _roll_dice(rng, 6, DIE)


def dice_counts(dice_left):
    # how many dice of each colour are left (COLOURS order)
    have = [0, 0, 0, 0, 0, 0]
    for c in dice_left:
        if c is not None:
            have[_CI[c]] += 1
    return have


def _may_enter(state, to, player):
    # colour or None: what pays for entering `to` for `player` (None = cannot)
    pay = PAYS[to]
    if pay is not None and to in OWNER and OWNER[to] != player:
        return None
    return pay


def payable_moves(state, player, dice_left, covered_rule=False):
    # Every move `player` may make now that the dice left can pay for, and only those.
    return list(moves_iter(state, player, dice_left, covered_rule))


def moves_iter(state, player, dice_left, covered_rule=False):
    # The same moves one at a time (no list: the bots' search uses it). The state and
    # the dice may change between two moves if they are back as they were before the
    # next one is asked for.
    return moves_of(state, player, dice_counts(dice_left), covered_rule)


def moves_of(state, player, have, covered_rule=False):
    # moves_iter on the dice's counts (dice_counts), which it changes while it runs
    # and gives back as they were at each move (the bots' search passes a copy)
    stacks = state.stacks
    for frm in SPACES:
        if frm in OWNER or frm not in stacks:
            continue
        st = stacks[frm]
        if not st:
            continue
        for to in ADJACENT[frm]:
            pay = PAYS[to]  # (_may_enter, written out: a call a neighbour was most of the search's calls)
            if pay is None or (to in OWNER and OWNER[to] != player):
                continue
            p = _CI[pay]
            if not have[p]:
                continue
            have[p] -= 1
            if covered_rule:
                m = 0
                for i in range(len(st) - 1, -1, -1):
                    k = _CI[st[i]]
                    if not have[k]:
                        break
                    m |= 1 << k
                    yield (frm, to, m)
            else:
                a = 0
                for c in st:
                    k = _CI[c]
                    if have[k]:
                        a |= 1 << k
                sub = a
                while sub:
                    yield (frm, to, sub)
                    sub = (sub - 1) & a
            have[p] += 1


def legal(state, move, player, covered_rule=False):
    # True if the board allows the move for player (dice aside)
    frm, to, mask = move
    if frm not in ADJACENT or to not in ADJACENT[frm] or frm in OWNER:
        return False
    if _may_enter(state, to, player) is None or not 0 < mask < 64:
        return False
    st = state.stacks.get(frm)
    if not st:
        return False
    here = 0
    for c in st:
        here |= 1 << _CI[c]
    if mask & ~here:
        return False
    if covered_rule:
        top = 0
        for i in range(len(st) - 1, len(st) - 1 - count(move), -1):
            top |= 1 << _CI[st[i]]
        return top == mask
    return True


def payment(state, move, dice_left):
    # -> tuple of dice indices (the to-space's die first, then one die per marker in
    # leaving order, highest first), or None if the dice left cannot pay
    frm, to, mask = move
    used = []
    need = [PAYS[to]]
    st = state.stacks.get(frm) or ()
    for i in range(len(st) - 1, -1, -1):
        if mask & (1 << _CI[st[i]]):
            need.append(st[i])
    if len(need) != count(move) + 1 or need[0] is None:
        return None
    for c in need:
        for j in range(len(dice_left)):
            if dice_left[j] == c and j not in used:
                used.append(j)
                break
        else:
            return None
    return tuple(used)


def spend(dice_left, indices):
    for j in indices:
        dice_left[j] = None


def apply(state, move, player):
    # Move the markers (no dice checked: see payment). Returns the points scored.
    # ValueError if the board does not allow the move (optional rule not checked).
    if not legal(state, move, player):
        raise ValueError("illegal move " + describe(move, player))
    frm, to, mask = move
    st = state.stacks[frm]
    dest = state.stacks.get(to)
    if dest is None:
        dest = []
        state.stacks[to] = dest
    points = 0
    i = len(st) - 1
    while i >= 0:
        c = st[i]
        if mask & (1 << _CI[c]):
            st.pop(i)
            dest.append(c)
            points += state.values[c]
        i -= 1
    if not st:
        del state.stacks[frm]
    if to in OWNER:
        state.scores[OWNER[to] - 1] += points
        return points
    return 0


def play(state, move, player, dice_left, covered_rule=False):
    # Pay and apply in one step; ValueError if the move is not payable and legal.
    if not legal(state, move, player, covered_rule):
        raise ValueError("illegal move " + describe(move, player))
    idx = payment(state, move, dice_left)
    if idx is None:
        raise ValueError("the dice left cannot pay for " + describe(move, player))
    spend(dice_left, idx)
    return apply(state, move, player)


def end_turn(state):
    state.turns += 1
    state.current = state.current % state.players + 1


def markers_home(state):
    n = 0
    for h in HOMES:
        n += len(state.stacks.get(h, ()))
    return n


def over(state):
    # all markers home, or the turn cap reached (the table may also end it: the flow's job)
    return markers_home(state) == 6 or (state.cap > 0 and state.turns >= state.cap)


def winners(state):
    # seats with the most points (ties share)
    best = max(state.scores)
    return [i + 1 for i in range(state.players) if state.scores[i] == best]


def names(mask, stack=None, room=26):
    # the colour names of a group joined by "+" (one move reads as one word:
    # "yellow+blue"), top first when the stack is given, else COLOURS order; the
    # short names ("yel+blu") when the full ones are longer than ``room``
    out = []
    short = []
    order = COLOURS if stack is None else [stack[i] for i in range(len(stack) - 1, -1, -1)]
    for c in order:
        if mask & (1 << _CI[c]):
            out.append(c)
            short.append(ABBR[c])
    full = "+".join(out)
    return full if len(full) <= room else "+".join(short)


def describe(move, player=0):
    # one line for the screen (26 characters): "P2: purple+red centre to red",
    # "P2: 3 markers border to home2"
    frm, to, mask = move
    n = count(move)
    head = "P%d: " % player if player else ""
    tail = " " + frm + " to " + to
    what = names(mask, None, 26 - len(head) - len(tail)) if n <= 2 else "%d markers" % n
    return head + what + tail


# ------------------------------------------------------------ one-button menu levels
# Three levels, each at most 7 items (so the flow can add "Back" and stay within 8).
# Items are (text, value) pairs for referee.menu.Menu.
# 1. menu_from: END ("End turn"), then every space some payable move starts from.
# 2. menu_markers(frm, picked): which markers. Value (mask, done). With the optional
#    rule: the payable groups from the top ("2: red pur"), all done. Without it: the
#    payable groups when there are at most 7, all done; otherwise a picker: "+ blu"
#    adds a marker (done False: ask again with picked=mask), "Move red blu" finishes.
# 3. menu_to(frm, mask): the spaces that group can be paid into.


def _groups(state, player, dice_left, covered_rule, frm):
    seen = []
    for m in moves_iter(state, player, dice_left, covered_rule):
        if m[0] == frm and m[2] not in seen:
            seen.append(m[2])
    return seen


def menu_from(state, player, dice_left, covered_rule=False):
    items = [("End turn", END)]
    seen = []
    for m in moves_iter(state, player, dice_left, covered_rule):
        if m[0] not in seen:
            seen.append(m[0])
            items.append(("%s (%d)" % (m[0], len(state.stacks[m[0]])), m[0]))
    return items


def menu_markers(state, player, dice_left, covered_rule, frm, picked=0):
    st = state.stacks.get(frm, ())
    groups = _groups(state, player, dice_left, covered_rule, frm)
    if covered_rule or len(groups) <= 7:
        groups.sort(key=popcount)
        return [("%d: %s" % (popcount(g), names(g, st, 21)), (g, True)) for g in groups]
    items = []
    if picked and picked in groups:
        items.append(("Move " + names(picked, st, 19), (picked, True)))
    for i in range(len(st) - 1, -1, -1):
        b = 1 << _CI[st[i]]
        if not picked & b and (picked | b) in groups:
            items.append(("+ " + st[i], (picked | b, False)))
    return items


def menu_to(state, player, dice_left, covered_rule, frm, mask):
    items = []
    for m in moves_iter(state, player, dice_left, covered_rule):
        if m[0] == frm and m[2] == mask:
            items.append(("to " + m[1], m))
    return items


# ------------------------------------------------------------ save / resume


def to_data(state):
    stacks = {}
    for s in state.stacks:
        if state.stacks[s]:
            stacks[s] = list(state.stacks[s])
    return {"players": state.players, "stacks": stacks,
            "values": [state.values[c] for c in COLOURS], "scores": list(state.scores),
            "current": state.current, "turns": state.turns, "cap": state.cap}


def from_data(data):
    # ValueError for anything a game cannot reach
    try:
        state = State(int(data["players"]), int(data["cap"]))
        _values_from(state, data["values"])
        _stacks_from(state, data["stacks"])
        scores = [int(x) for x in data["scores"]]
        if len(scores) != state.players:
            raise ValueError("one score per seat")
        for p in range(state.players):
            want = 0
            for c in state.stacks.get(HOMES[p], ()):
                want += state.values[c]
            if scores[p] != want:
                raise ValueError("scores do not match the markers home")
        state.scores = scores
        state.current = int(data["current"])
        state.turns = int(data["turns"])
        if not 1 <= state.current <= state.players or state.turns < 0 or state.cap < 0:
            raise ValueError("bad turn")
    except (KeyError, TypeError, AttributeError) as e:
        raise ValueError("bad flyer save: " + repr(e))
    return state


def _values_from(state, values):
    if len(values) != 6:
        raise ValueError("six values")
    for i in range(6):
        v = int(values[i])
        if v < 1 or v > 6:
            raise ValueError("value out of range")
        state.values[COLOURS[i]] = v


def _stacks_from(state, stacks):
    seen = []
    for s in stacks:
        st = [str(c) for c in stacks[s]]
        if s not in BOARD:
            raise ValueError("unknown space " + str(s))
        if s in OWNER and OWNER[s] > state.players:
            raise ValueError("marker in an unseated homebase")
        for c in st:
            if c not in _CI or c in seen:
                raise ValueError("markers must be the six colours once each")
            seen.append(c)
        if st:
            state.stacks[s] = st
    if len(seen) != 6:
        raise ValueError("six markers needed")
