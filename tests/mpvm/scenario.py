"""A seeded scenario run twice, under CPython and under the MicroPython VM; the
printed outputs must be identical (tests/test_compat_micropython.py).

It drives the portable modules with numbers from referee.rng: races judged by
referee.arbiter.Race, Zilch rolls scored, Wurfelblitz throws scored, a screen built
with referee.screen. A part whose module is absent prints "absent" (on both sides);
an exception prints its type (messages differ between interpreters). Keep it
deterministic: no time, no float formatting, no set, hash or dict ordering (dicts
are not insertion-ordered on MicroPython and CircuitPython).
"""

import sys

from referee.rng import Rng

SEED = 20240601


def section(title):
    print("== " + title)


def rng_part(rng):
    section("rng")
    print([rng.next_u32() for _ in range(8)])
    print([rng.randint(1, 6) for _ in range(30)])
    deck = list(range(52))
    rng.shuffle(deck)
    print(deck)
    print(rng.randbelow(1000003), rng.randbelow(2 ** 32))


def race_part(rng):
    section("races")
    try:
        from referee.arbiter import Race
    except ImportError:
        print("absent")
        return
    for k in range(60):
        players = 2 + rng.randbelow(6)
        tie = (0, 1000, 50000, 2000000)[rng.randbelow(4)]
        minimum = (0, 80000000)[rng.randbelow(2)]
        race = Race(players, tie_window_ns=tie, min_reaction_ns=minimum)
        reveal = 1000000000 + rng.randbelow(1000000000)
        events = []
        for p in range(1, players + 1):
            if rng.randbelow(5):  # most players press
                t = reveal - 100000000 + rng.randbelow(700000000)
                if rng.randbelow(3) == 0 and events:
                    t = events[-1][1] + rng.randbelow(3000)  # near-ties
                events.append((p, t))
        rng.shuffle(events)  # any arrival order
        try:
            race.reveal(reveal)
            for p, t in events:
                race.press(p, t)
                if hasattr(race, "release"):
                    race.release(p, t + 50000000)
            if rng.randbelow(6) == 0:
                race.lock_out(1 + rng.randbelow(players))
            if hasattr(race, "settle"):
                race.settle(reveal + 2000000000)
            print(k, players, tie, minimum, race.winners(), race.false_starts(), race.order())
        except Exception as e:  # noqa: BLE001  (the type is the verdict)
            print(k, "error", type(e).__name__)


def zilch_part(rng):
    section("zilch")
    try:
        from games import zilch
    except ImportError:
        print("absent")
        return
    for k in range(60):
        roll = sorted([rng.randint(1, 6) for _ in range(1 + rng.randbelow(6))])
        line = [k, roll, zilch.is_zilch(roll)]
        for mask in range(1, 1 << len(roll)):
            pick = [roll[i] for i in range(len(roll)) if mask >> i & 1]
            try:
                line.append(zilch.score(pick))
            except ValueError:
                line.append("x")
        print(line)


def wurfelblitz_part(rng):
    section("wurfelblitz")
    try:
        from games import wurfelblitz_rules as rules

        roll, score = rules.roll, rules.score
    except (ImportError, AttributeError):
        print("absent")
        return
    for k in range(60):
        try:
            throw = roll(rng)
            print(k, throw, score(throw), score(throw, brainteaser=True))
        except Exception as e:  # noqa: BLE001
            print(k, "error", type(e).__name__)


def screen_part():
    section("screen")
    try:
        import displayio

        from referee import die, screen, shown
    except ImportError:
        print("absent")
        return
    if sys.implementation.name == "cpython":  # Blinka's font, made a sprite sheet as on the device
        from pc import font as pc_font

        pc_font.install()
    try:
        root = displayio.Group()
        root.append(screen.background())
        root.append(screen.centred("Referee Box", 8, scale=3))
        root.append(screen.text("P1 12.345 ms", 10, 200, scale=2))
        right = screen.text("right", 310, 230, scale=1, anchor=(1.0, 1.0))
        root.append(right)
        die1 = die.Die(100, 60, 56)
        die1.show(5)
        root.append(die1.group)
        die2 = die.Die(170, 60, 56)
        die2.show(None, caption="Z")
        root.append(die2.group)
        print(shown.screen_text(root).split("\n"))
        print([(t, x, y) for y, x, t in shown.texts(root)])
        # sorted: dicts are not insertion-ordered on MicroPython/CircuitPython
        print(len(root), right.x, right.y, die1.face, die2.face)
    except Exception as e:  # noqa: BLE001
        print("error", type(e).__name__)


class HeadlessBox:
    """The smallest box the app runs on: virtual clock, no display, no sound."""

    def __init__(self):
        from referee.box import Box

        class _Box(Box):
            def now_ns(box):
                return self.now

            def poll(box):
                edges, self.edges = self.edges, []
                return edges

            def set_backlight(box, on):
                self.edges.append((0, self.now, bool(on)))

            def show(box, group):
                box.root = group

            def new_seed(box):
                return 1

            def log(box, msg):
                pass

        class _Pixels:
            def __init__(px, n):
                px.buf = [0] * n

            def __setitem__(px, i, c):
                px.buf[i] = c

            def show(px):
                pass

        class _Tones:
            def tone(t, f):
                pass

        self.now = 0
        self.edges = []
        self.box = _Box(7, _Pixels(84), _Tones(), store=bytearray(16))


def canon(x):
    """Plain data with every dict as a sorted list of pairs (dict order differs)."""
    if isinstance(x, dict):
        return [(k, canon(x[k])) for k in sorted(x)]
    if isinstance(x, (list, tuple)):
        return [canon(v) for v in x]
    return x


def match_part():
    section("all-bot matches through the app")
    import games
    from referee.app import App
    from referee.settings import Settings

    for name, players, options, pace in (
        ("reaction", 3, {"rounds": 3}, None),
        ("wurfelblitz", 2, {"bot_ms": 900, "bot_errors": 300}, None),
        ("zilch", 2, {"variant": 5000}, (20, 20, 20)),
        ("lightning_dice", 3, {"target": 10, "bot_level": "hard"}, None),
        ("flyer", 4, {"bot": "spoiler", "covered": True}, {"think_ns": 20000000, "roll_ns": 20000000}),
    ):
        try:
            head = HeadlessBox()
            app = App(head.box, Settings(None), games, catch_errors=False)
            game = app.launch(name, players, tuple(range(1, players + 1)), seed=SEED, options=options)
            if isinstance(pace, dict):  # a game whose pace is its attributes (flyer)
                for key in sorted(pace):
                    setattr(game, key, pace[key])
            elif pace:
                game.think_ns, game.roll_ns, game.show_ns = [v * 1000000 for v in pace]
            steps = 0
            while not game.over and steps < 200000:
                head.now += 2000000
                app.step()
                steps += 1
            print(name, "over" if game.over else "NOT OVER", game.winners, steps, head.box.rings.colors(1)[:2])
            print(canon(game.state()))
        except Exception as e:  # noqa: BLE001
            print("error", type(e).__name__)


rng = Rng(SEED)
rng_part(rng)
race_part(rng)
zilch_part(rng)
wurfelblitz_part(rng)
screen_part()
match_part()
print("== end")
