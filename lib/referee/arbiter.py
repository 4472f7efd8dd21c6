"""Race arbitration: who pressed first after the reveal, to the nanosecond.

A Race judges one reflex round from timestamped button edges. Every verdict is a
pure function of the *set* of facts given to it (edges, reveal, arm, settle
time, lock-outs, declarations): never of call order, arrival order or seat
number. Nothing is decided when an edge arrives; the verdict is computed lazily
(and cached) when asked for, so a late or out-of-order edge is simply part of
the set the next time a verdict is read. One exception keeps settled verdicts
stable: a first arm or reveal that comes after a settle() already past its time
(it broke settle's promise) counts only for presses after that settle time.

Times are integer nanoseconds on one monotonic base. See docs/arbitration.md
for the rules in words, with examples.

    race = Race(4, tie_window_ns=0, min_reaction_ns=0, glitch_ns=1000000)
    race.arm(t0)                 # optional: the dark phase starts (countdown)
    race.reveal(t1)              # the stimulus became visible
    race.edge(p, t, pressed)     # raw capture edges, any order (or press/release)
    race.settle(now)             # the capture stream is complete up to now
    race.winners(); race.order(); race.false_starts(); race.stuck()
    race.lock_out(p)             # wrong answer: the race re-opens for the rest
"""

from referee.core import const

# Default glitch threshold: a press must stay down this long to count (1 ms).
GLITCH_NS = const(1000000)

# Player status values, as returned by Race.status().
NONE = "none"  # no press that counts (yet)
PENDING = "pending"  # cannot be judged yet: hold, reveal or capture still unknown
VALID = "valid"  # a valid press after the reveal
FALSE_START = "false_start"  # first press before the reveal or faster than the minimum
STUCK = "stuck"  # button was down before the race was armed and still down at reveal
VOID = "void"  # the whole round is void

# Episode states (internal).
_OK = const(0)  # qualified: held >= glitch_ns
_WAIT = const(1)  # may still qualify (hold not yet known)
_DROP = const(2)  # a glitch: ignored


def _check_int(name, value):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(name + " must be an int (nanoseconds)")


class Race:
    """One reflex race between seats 1..players."""

    def __init__(self, players, tie_window_ns=0, min_reaction_ns=0, glitch_ns=GLITCH_NS):
        if not isinstance(players, int) or players < 1:
            raise ValueError("players must be a positive int")
        for name, value in (
            ("tie_window_ns", tie_window_ns),
            ("min_reaction_ns", min_reaction_ns),
            ("glitch_ns", glitch_ns),
        ):
            _check_int(name, value)
            if value < 0:
                raise ValueError(name + " must be >= 0")
        self.players = players
        self.tie_window_ns = tie_window_ns
        self.min_reaction_ns = min_reaction_ns
        self.glitch_ns = glitch_ns
        n = players + 1
        self._edges = [[] for _ in range(n)]  # per seat: ints t_ns * 2 + (0 down, 1 up)
        self._locked = [False] * n
        self._held = [False] * n  # declared down at the reveal
        self._status = [NONE] * n
        self._start = [None] * n  # time of the press that decided the status
        self._redo = [False] * n  # seats to judge again (a new edge; a verdict that waited)
        self._wait = [False] * n  # seats whose verdict waited on the settle time
        self.reset()

    def reset(self):
        """Forget everything about the round; keep the settings and the storage."""
        for i in range(self.players + 1):
            del self._edges[i][:]
            self._locked[i] = False
            self._held[i] = False
            self._status[i] = NONE
            self._start[i] = None
            self._wait[i] = False
        self._status[0] = VOID  # not a seat: a list search for a verdict never finds it here
        self._reveal = None
        self._arm = None
        self._known = None
        self._alate = self._rlate = None  # settle time a late arm / reveal came after
        self._waits = False  # the seat just judged waited on the settle time (``_update``)
        self.is_void = False
        self.void_reason = None
        self._dirty = True
        self._all = True  # every seat is judged again (a seat's own change: ``_redo``)

    # ------------------------------------------------------------------ input

    def _seat(self, player):
        if not isinstance(player, int) or isinstance(player, bool):
            raise ValueError("player must be a seat number 1..%d" % self.players)
        if player < 1 or player > self.players:
            raise ValueError("player must be a seat number 1..%d" % self.players)

    def arm(self, t_ns):
        """The race is armed (dark phase starts) at t_ns. Optional.

        A button that went down at or before the arm instant (and not at the
        reveal instant itself) is not a false start; if it is still down at the
        reveal it is stuck. The earliest arm given counts. A first arm given
        after settle(now) with t_ns <= now is late: presses up to now keep the
        verdict that settle made (a false start stays one).
        """
        _check_int("t_ns", t_ns)
        if self._arm is None or t_ns < self._arm:
            k = self._known
            if self._arm is None and k is not None and t_ns <= k:
                self._alate = k
            self._arm = t_ns
            self._dirty = self._all = True

    def reveal(self, t_ns):
        """The stimulus became visible at t_ns. The earliest reveal given counts.

        A first reveal given after settle(now) with t_ns <= now is late: presses
        up to now stay false starts, as that settle judged them.
        """
        _check_int("t_ns", t_ns)
        if self._reveal is None or t_ns < self._reveal:
            k = self._known
            if self._reveal is None and k is not None and t_ns <= k:
                self._rlate = k
            self._reveal = t_ns
            self._dirty = self._all = True

    def edge(self, player, t_ns, pressed):
        """A raw edge of a player's button: pressed=True going down, False going up.

        Edges may be given in any order; a duplicate edge is ignored.
        """
        if type(player) is not int or not 1 <= player <= self.players:
            self._seat(player)  # (raises: the checks inline, the loop's every press)
        if type(t_ns) is not int:
            _check_int("t_ns", t_ns)
        code = t_ns * 2 + (0 if pressed else 1)  # a press sorts before a release
        edges = self._edges[player]
        if code not in edges:
            edges.append(code)
            self._dirty = self._redo[player] = True

    def press(self, player, t_ns):
        """A press (down edge) of player at t_ns. Any arrival order."""
        self.edge(player, t_ns, True)

    def release(self, player, t_ns):
        """A release (up edge) of player at t_ns."""
        self.edge(player, t_ns, False)

    def down_at_reveal(self, player):
        """Declare player's button held down at the reveal (stuck).

        For backends that only know levels (the key was already down when
        capture started). The player is stuck for this race.
        """
        self._seat(player)
        if not self._held[player]:
            self._held[player] = True
            self._dirty = self._redo[player] = True

    def settle(self, now_ns):
        """Promise: every edge (and the arm and reveal) up to and including now_ns is in.

        Until settle() is called a press whose release is unknown is trusted as
        held. Once it is called, such a press is pending until it has been
        down for glitch_ns, and winners() waits until the tie window after the
        earliest press has passed (or every seat in contention is judged).
        The latest time given counts.
        """
        if type(now_ns) is not int:
            _check_int("now_ns", now_ns)
        if self._known is None or now_ns > self._known:
            # only the seats whose verdict waited on time are judged again (saves time
            # and heap on the device, where every ns timestamp is a long int)
            if self._known is None:
                self._dirty = self._all = True
            elif True in self._wait:
                self._dirty = True
                redo = self._redo
                wait = self._wait
                for p in range(1, self.players + 1):
                    if wait[p]:
                        redo[p] = True
            self._known = now_ns

    if __debug__:  # the simulator's (it skips idle time); the box never asks: its -O3 .mpy leaves this out
        def next_at(self):
            """The least settle time after the latest ``settle`` at which a verdict can
            change (an edge's time, a press down ``glitch_ns``, a gap closing a bounce,
            the reveal, a tie window's end): a game's ``next_at`` (the simulator skips the
            passes before it). 0 before the first ``settle``; None if no time changes any."""
            k = self._known
            if k is None:
                return 0
            out = None
            r = self._reveal
            if r is not None and r > k:
                out = r
            g = self.glitch_ns
            w = self.tie_window_ns
            for edges in self._edges:  # (seat 0's stays empty)
                for code in edges:
                    t = code >> 1
                    if t + g + w > k:  # (else none of its times is: most edges are long settled)
                        for v in (t, t + g, t + w):
                            if v > k and (out is None or v < out):
                                out = v
            return out

    def lock_out(self, player):
        """Remove player from contention; the race re-opens for the rest."""
        self._seat(player)
        self._locked[player] = True

    def void(self, reason="void"):
        """Declare the round void: no verdict at all; replay it."""
        if not self.is_void:
            self.is_void = True
            self.void_reason = reason

    def lost_data(self, reason="lost capture data"):
        """Capture data was lost (e.g. FIFO overflow): the round is void."""
        self.void(reason)

    # -------------------------------------------------------------- judging

    def _update(self):
        # A seat's verdict depends on its own edges and the race's facts (arm, reveal,
        # settle time), never on another seat's: only the seats whose facts changed are
        # judged again (all of them when the arm or the reveal changes).
        if not self._dirty:
            return
        self._dirty = False
        every = self._all
        self._all = False
        redo = self._redo
        wait = self._wait
        for p in range(1, self.players + 1):
            if every or redo[p]:
                redo[p] = False
                self._waits = False
                self._judge(p)
                wait[p] = self._waits

    def _judge(self, p):
        status = self._status
        start = self._start
        if self._held[p]:
            status[p] = STUCK
            start[p] = None
            return
        edges = self._edges[p]
        edges.sort()
        g = self.glitch_ns
        known = self._known
        have = False  # an episode is open
        down = False  # current level
        s = None  # episode start (None: down since before the first edge)
        d = None  # start of the current down stretch
        e = None  # end of the episode (last release), None while down
        ok = False  # some down stretch of the episode lasted >= g
        for code in edges:
            t = code >> 1
            if not code & 1:
                if down:
                    continue  # already down: a repeated press edge
                down = True
                if have and t - e < g:
                    d = t  # bounce: short gap, same episode
                else:
                    if have:
                        if self._episode(p, s, e, self._closed(ok, e)):
                            return
                    have = True
                    s = d = t
                    ok = False
                e = None
            else:
                if not down:
                    if have:
                        continue  # a repeated release edge
                    # the stream starts with a release: down since before it
                    have = True
                    s = d = None
                    ok = True
                down = False
                if d is not None and t - d >= g:
                    ok = True
                e = t
        if have:
            if down:
                if ok or d is None or known is None or known - d >= g:
                    state = _OK
                else:
                    state = _WAIT
                    self._waits = True
            else:
                state = self._closed(ok, e)
            if self._episode(p, s, e, state):
                return
        status[p] = NONE
        start[p] = None

    def _closed(self, ok, e):
        if ok:
            return _OK
        if self._known is not None and self._known - e < self.glitch_ns:
            self._waits = True
            return _WAIT  # a bounce may still join it
        return _DROP

    def _episode(self, p, s, e, state):
        """Judge one press episode; True if it decides the player's status."""
        if state == _DROP:
            return False
        r = self._reveal
        known = self._known
        a = self._arm
        if a is not None and r is not None and a > r:
            a = r
        late = self._alate
        # down at or before the arm (a press at the reveal instant itself is
        # judged against the reveal); a late arm does not cover presses up to
        # the settle it came after
        if s is None or (a is not None and s <= a and s != r and (late is None or s > late)):
            # went down before the race was armed: stuck if still down at reveal
            if e is not None and self._rlate is not None and e <= self._rlate:
                return False  # let go before a late reveal came in: settled as such
            if r is not None:
                if e is not None:
                    if e <= r:
                        return False
                    verdict = STUCK
                elif known is None or known >= r:
                    verdict = STUCK
                else:
                    self._waits = True
                    verdict = PENDING
            else:
                if e is not None and known is not None and e <= known:
                    return False  # released, and the reveal is later still
                self._waits = True
                verdict = PENDING
        elif state == _WAIT:
            verdict = PENDING
        elif r is None or (self._rlate is not None and s <= self._rlate):
            # reveal not seen yet (or seen late); after settle(now) it is later than now
            if known is not None and s <= known:
                verdict = FALSE_START
            else:
                self._waits = True
                verdict = PENDING
        elif s < r or s - r < self.min_reaction_ns:
            verdict = FALSE_START
        else:
            verdict = VALID
        self._status[p] = verdict
        self._start[p] = s
        return True

    def _best(self):
        """Earliest valid press among the seats still in contention, or None."""
        best = None
        for p in range(1, self.players + 1):
            if self._status[p] == VALID and not self._locked[p]:
                s = self._start[p]
                if best is None or s < best:
                    best = s
        return best

    def _final(self, best):
        """True if nothing still unknown can change the winners around best."""
        limit = best + self.tie_window_ns
        known = self._known
        # before the tie window has passed, a press inside it may still arrive,
        # unless every seat in contention already has its final status
        wait = known is not None and known < limit
        if not wait and PENDING not in self._status:
            return True  # every seat in contention is judged, and the window has passed
        r = self._reveal
        for p in range(1, self.players + 1):
            st = self._status[p]
            if self._locked[p] or st in (VALID, FALSE_START, STUCK):
                continue
            if wait:
                return False
            if st == PENDING:
                s = self._start[p]
                if s is None:
                    return False
                if s <= limit and s >= r and s - r >= self.min_reaction_ns:
                    return False
        return True

    # -------------------------------------------------------------- verdict

    def status(self, player):
        """NONE, PENDING, VALID, FALSE_START, STUCK (or VOID) for one seat."""
        self._seat(player)
        if self.is_void:
            return VOID
        self._update()
        return self._status[player]

    def winners(self):
        """Seats whose valid press is within the tie window of the earliest one.

        Locked-out seats are out of contention. [] when nobody has won (yet),
        when the verdict may still change (pending hold, tie window not yet
        settled) and when the round is void. Ascending seat numbers.
        """
        if self.is_void or self._reveal is None:
            return []
        self._update()
        if VALID not in self._status:  # (a search in C: most passes of a race end here)
            return []
        best = self._best()
        if best is None or not self._final(best):
            return []
        limit = best + self.tie_window_ns
        out = []
        for p in range(1, self.players + 1):
            if self._status[p] == VALID and not self._locked[p] and self._start[p] <= limit:
                out.append(p)
        return out

    def _seats(self, verdict):
        if self.is_void:
            return []
        self._update()
        if verdict not in self._status:
            return []
        out = []
        for p in range(1, self.players + 1):
            if self._status[p] == verdict:
                out.append(p)
        return out

    def false_starts(self):
        """Seats whose first press came before the reveal (or faster than the minimum)."""
        return self._seats(FALSE_START)

    def stuck(self):
        """Seats whose button was down before the race was armed and still down at reveal."""
        return self._seats(STUCK)

    def pending(self):
        """Seats whose status cannot be judged yet (hold shorter than glitch_ns so far)."""
        return self._seats(PENDING)

    def decided(self):
        """True when every seat's status is final for this race (valid, false start,
        stuck), or the round is void: nobody is left to press or to be judged."""
        if self.is_void:
            return True
        self._update()
        st = self._status
        return NONE not in st and PENDING not in st

    def locked(self):
        """Seats locked out of this race."""
        out = []
        for p in range(1, self.players + 1):
            if self._locked[p]:
                out.append(p)
        return out

    def order(self):
        """[(player, reaction_ns), ...] every valid press, earliest first.

        Locked-out seats are listed too (their press was valid). Equal reaction
        times are a tie; among them the list is in seat order only so that it is
        deterministic. [] before the reveal is known or when void.
        """
        if self.is_void or self._reveal is None:
            return []
        self._update()
        r = self._reveal
        rows = []
        for p in range(1, self.players + 1):
            if self._status[p] == VALID:
                rows.append((self._start[p] - r, p))
        rows.sort()
        return [(p, rt) for rt, p in rows]

    def margin_ns(self):
        """How far the next valid presser in contention was behind the earliest winner.

        None if there is no winner or no runner-up (outside the tie window).
        """
        if not self.winners():
            return None
        best = self._best()
        limit = best + self.tie_window_ns
        runner = None
        for p in range(1, self.players + 1):
            if self._status[p] == VALID and not self._locked[p]:
                s = self._start[p]
                if s > limit and (runner is None or s < runner):
                    runner = s
        if runner is None:
            return None
        return runner - best

    def reaction(self, player):
        """Press time minus reveal time of the press that judged player, or None.

        Negative for a false start before the reveal. None when the player has
        no judged press, is stuck or pending, the reveal is unknown, or void.
        """
        self._seat(player)
        if self.is_void or self._reveal is None:
            return None
        self._update()
        if self._status[player] in (VALID, FALSE_START):
            return self._start[player] - self._reveal
        return None

    def press_ns(self, player):
        """Time of the first edge of the press that judged player (valid or false start)."""
        self._seat(player)
        if self.is_void:
            return None
        self._update()
        if self._status[player] in (VALID, FALSE_START):
            return self._start[player]
        return None
