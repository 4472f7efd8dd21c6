"""The app loop: capture -> gestures/game -> screen, rings, sound.

``App.step()`` is one pass of the loop; the device calls it forever, the
simulated box calls it on virtual time. Nothing here blocks.
"""

import gc

import displayio

from referee import palette, screen
from referee.box import REVEAL
from referee.core import forget, forget_for
from referee.gestures import CHORD, HOLD, MENU, TAP, Gestures
from referee.rng import Rng
from referee.store import DAMAGED, KEEP_BYTES, LOW, NOTE, Store

BAD_SETTINGS = "Bad settings: defaults"  # the launcher's line after the settings notice
DROPPED = "The saved match could not be resumed, so it was dropped"
SAVE_FAILED = "Saving failed"  # the pause menu's title when a save fails (once)

LAUNCHER = "launcher"
GAME = "game"
PAUSE = "pause"  # the pause menu shows (referee.pause)
ENDED = "ended"  # the table ended the match: its standings until a hold (referee.pause)
ERROR = "error"
NOTICE = "notice"
OVER = "over"  # the match was won: the session's wins until a hold (referee.session)


def format_exception(e):
    """Exception ``e`` in one line for the log and the error screen ("ValueError: ...")."""
    return type(e).__name__ + ": " + str(e)


class App:
    """The loop and what it shows: the launcher, a match, the pause menu, a notice or
    the error screen. ``registry``: the games, as the entry point gives them (titles(),
    names(), load(name), unload(): games/__init__.py); lib/ never imports games/.
    ``catch_errors``: a game's exception shows the error screen (tests set False to
    see it raised); ``notice``: the settings' messages are shown before the launcher;
    ``after_match``: this is the fresh start after a match (the device's reload), not
    a power-up: the session's wins are kept (a power-up clears them)."""

    def __init__(self, box, settings, registry, catch_errors=True, notice=True, after_match=False):
        self.registry = registry
        self.box = box
        self.settings = settings
        self.catch_errors = catch_errors
        self.gestures = Gestures(box.stations)
        self.launcher = None  # built while the launcher shows, dropped during a match
        self.game = None
        self.mode = LAUNCHER
        self.error = None
        # match saves (docs/design.md): none on a box without a store of at least 1 KiB
        mem = box.store
        self.store = None
        if mem is not None and len(mem) >= 1024:  # (the last page is referee.keep's)
            self.store = Store(mem, box.log, size=len(mem) - (KEEP_BYTES if len(mem) >= 1024 + KEEP_BYTES else 0))
        # what the box keeps between matches (referee.keep): the last table, the
        # session's wins, the launcher's light and sound; read now, written at the launcher
        self._keep = None
        self.kept = None
        from referee import keep

        keep.start(self, mem, after_match)
        forget("referee.keep")  # read: not needed at the launcher (heap)
        self._table = None  # the running match's table, kept for Play again once it ends
        self._name = None  # the running game's registry name
        self._saves = 0  # the game's save points already seen (-1: match over, save cleared)
        self._save_due = False  # a save point was reached: written from the next pass's start
        self._saving = None  # the save under way, a step a pass (store.Store.saving)
        self.saving = False  # this pass began by writing a save (the device draws nothing in it)
        self._written = 0  # the save point last written
        self._owns = False  # the store holds this match (written or resumed): only then clear it
        # What the table is told about saves, each once, at scale 2 (a notice before the
        # launcher; a failed save pauses the match): said already, and still to say.
        self._said = []
        self._tell_next = []
        self._pause_menu = None  # the pause menu and its view while paused (referee.pause)
        self._pause_view = None
        # The error screen is built now: when it is needed memory may be short.
        self._error_root = displayio.Group()
        self._error_root.append(screen.background(0x400000))
        self._error_title = screen.centred("Something went wrong", 20, 2, palette.WARN)
        self._error_text = screen.text("", 8, 60, 1)
        # what the table does next, at scale 2 (the error's own text is for the maker)
        self._error_hint = screen.centred("hold any button: menu\n(resume: the last save)", screen.HEIGHT - 52, 2)
        for item in (self._error_title, self._error_text, self._error_hint):
            self._error_root.append(item)
        self._paused_at = 0
        self._lit = True
        for m in settings.messages:
            box.log("settings: " + m)
        self.notice = None  # every settings message on screen first, page by page
        if settings.messages and notice:  # (notice=False: shown already, before a fresh start)
            from referee.notice import Notice

            self.notice = Notice("Settings", settings.messages)
        self._show_launcher()

    def write_kept(self):
        """Write what the box keeps (referee.keep), if it changed; never raises."""
        if self._keep is None:
            return
        try:
            self._keep.save(self.kept)
        except Exception as e:  # a failed write loses only Play again, the wins, the levels
            self.box.log("keep not written: " + format_exception(e))

    def _tell(self, text):
        # a message about saves for the table, shown before the launcher once a session
        if text and text not in self._said:
            self._said.append(text)
            self._tell_next.append(text)

    def _show_launcher(self):
        saved = None
        if self.notice is None and self.store:
            saved = self.store.load()
            self._tell(self.store.note)  # another version's, a damaged one, a memory that cannot keep it
            if self.store.note == DAMAGED:  # said now: wiped, so that it is not said at every boot
                self.store.save(None, True)
            # read: the reading half is not kept at the launcher (heap); the store knows
            # where its next record goes, so saves need it no more (a resume reads again)
            forget("referee.store_read")
        if self.notice is None and self._tell_next:
            from referee.notice import Notice

            self.notice = Notice("Saves", self._tell_next)
            self._tell_next = []
        if self.notice is not None:
            self.mode = NOTICE
            self.box.reveal(True)
            self.box.show(self.notice.root)
            return
        # The launcher's code is loaded while it shows and forgotten during a match
        # (heap: docs/design.md, "Memory").
        from referee.launcher import Launcher

        self.launcher = Launcher(self.settings, self.box.stations, self.registry, saved, self.kept, self,
                                 self.box.rules_dir)
        if self.settings.messages:  # each shown in full on the notice screen before this
            self.launcher.warn(BAD_SETTINGS)
        elif self.box.precision_ns >= 1000000:  # said before any game: races are timed to the ms
            self.launcher.warn("ms precision (" + self.box.capture_name + ")")
        self.mode = LAUNCHER
        self.box.reveal(True)
        self.box.rings.rest(self.box.stations)
        self.box.show(self.launcher.root)

    # --- starting and ending ---------------------------------------------------
    def launch(self, name, players, bots=(), seed=None, options=None):
        """Start game ``name`` now. Raises ValueError for bad arguments."""
        # The launcher's screen and code, the store's reading half, the menus are not
        # needed during the match (a game that uses menus loads them): freed first
        self.launcher = None
        forget_for("match")
        module = self.registry.load(name)
        from referee.game import resolve_options  # the game imported it: no cost at boot
        if not module.MIN_PLAYERS <= players <= min(module.MAX_PLAYERS, self.box.stations):
            raise ValueError(
                module.TITLE + " is for " + str(module.MIN_PLAYERS) + "-" + str(module.MAX_PLAYERS) + " players on this box"
            )
        for b in bots:
            if not 1 <= b <= players:
                raise ValueError("bot seat " + str(b) + " is not a seat (1.." + str(players) + ")")
        opts = resolve_options(module.OPTIONS, options or {})
        if seed is None:
            seed = self.box.new_seed()
        self.box.log("match " + name + " seed " + str(seed) + " players " + str(players) + " bots " + str(tuple(bots)))
        self.game = module.Game(self.box, players, tuple(bots), seed, opts, self.settings)
        self._name = name
        self._table = [name, players, list(bots), options or {}]  # for Play again
        self._end_save()
        self._saves = 0
        self._save_due = False
        self._written = 0
        self._owns = False
        self.gestures.reset()
        self.gestures.seats = players  # only the game's seats make the pause chord
        self.box.reveal(True)
        self.box.rings.rest(players)
        self.mode = GAME
        self._guard(self.game.start, self.box.now_ns())
        self._guard(self.game.draw_due, self.box.now_ns())  # (the first screen whole, with the launch)
        if self.mode == GAME:
            self.box.show(self.game.root)
        return self.game

    def resume(self):
        """Continue the saved match (same game, seats, bots, options; its state
        restored) and return its game, else None. The dice come from a fresh seed,
        logged: after a power cut nobody sees dice they have seen already. A save that
        does not restore is dropped, and the table is told so before the launcher."""
        s = self.store.load() if self.store else None
        if s is None:
            return None
        other = False  # saved by another version of the game: said on the launcher
        try:
            g = self.launch(s["game"], s["players"], s["bots"], s["seed"], s["options"])
            other = s.get("version") != g.VERSION
            if other:
                raise ValueError("saved by version " + str(s.get("version")) + ", this is " + str(g.VERSION))
            if self.mode == GAME:
                g.restore(s["state"], self.box.now_ns())  # (it draws what is due: BaseGame.due)
                fresh = self.box.new_seed()
                self.box.log("resumed " + s["game"] + " (match seed " + str(s["seed"]) + ") with fresh seed " + str(fresh))
                g.rng = Rng(fresh)
                self._saves = self._written = g.saves
                self._owns = True
            return g
        except Exception as e:  # bad data, a game not deployed (ImportError), a restore() bug
            self.box.log("saved match does not restore, dropped: " + format_exception(e))
            self.store.clear()
            self._tell(NOTE if other else DROPPED)
            self.back_to_launcher()
            return None

    def _save(self):
        # begin the save of the match as it is now (its record made now); its steps run
        # a pass each (_save_step)
        g = self.game
        self._saves = g.saves
        new = not self._owns  # the match's first save: it starts on an erased sector
        if not new and self.store.left() < LOW and g.saves - self._written < g.round_saves():
            return  # a long match has filled most of the sector: from now on it saves once a round
        self._written = g.saves
        try:
            self._saving = self.store.saving(g.record(self._name), new)
        except Exception as e:  # a failed save must not stop the match
            self._owns = True
            self._saved(e)

    def _save_pass(self):
        # A save point reached in the last pass is written from the start of this one, a
        # step a pass (the text, then a hunk of its change each): passes of its own, the
        # game does not tick and the device draws nothing in them (a save with a turn's
        # screen change in one pass was 60-120 ms on the firmware; ZAP City's save alone,
        # 29 ms). True: this pass is a save's.
        if self._saving is None:
            g = self.game
            if g is not None and not g.over and self._saves >= 0 and g.saves != self._saves:
                self._save()
        if self._saving is None:
            self._save_due = False
            return False
        if self._save_step():
            self._save_due = False
        return True

    def _save_step(self):
        # a step of the save under way (store.Store.saving); True once it has ended
        err = None
        try:
            next(self._saving)
            return False
        except StopIteration as e:
            ok = e.value
        except Exception as e:  # a failed save must not stop the match
            ok = False
            err = e
        self._saving = None
        self._owns = True  # (written, or tried: a failed write may have erased the store)
        if not ok:
            self._saved(err)
        return True

    def _saved(self, e):
        # a save failed (``e``: its error, if it raised one)
        if e is not None:
            self.box.log("save failed: " + format_exception(e))
        if SAVE_FAILED not in self._said:  # said once: the match pauses, the table chooses
            self._said.append(SAVE_FAILED)
            self._pause(self.box.now_ns(), SAVE_FAILED, "Play on, unsaved")

    def _end_save(self):
        # the save under way written now, whole (before anything else uses the store)
        while self._saving is not None:
            self._save_step()

    def back_to_launcher(self):
        """The match (or the error screen) is left: its game's code freed, the launcher
        shown; the table (for Play again) and the session's wins written (referee.keep)."""
        self._end_save()  # (a match left in its save's passes: the save written first)
        self.game = None
        self.launcher = None
        self.registry.unload()  # free the finished game's code for the next one
        gc.collect()
        if self._table is not None:
            self.kept["t"] = self._table
            self._table = None
        self.write_kept()  # after a match: before the device's fresh start
        self._show_launcher()

    # --- the loop --------------------------------------------------------------
    def step(self):
        """One pass of the loop: the captured edges to the gestures and the game, the
        gestures to where the mode says, the game's tick and its saves, then the rings
        and the sound."""
        box = self.box
        self.saving = self._save_due and self._save_pass()
        now = box.now_ns()
        edges = box.poll()
        lost = box.take_lost()
        game = self.game if self.mode == GAME else None
        if lost and game is not None:
            box.log("capture lost " + str(lost) + " words")
            self._guard(game.capture_lost, now)
        for player, t_ns, pressed in edges:
            if player != REVEAL:
                self.gestures.edge(player, t_ns, pressed)
            if game is not None and player != MENU:
                # True: the game's race took this press; it makes no tap or hold
                if self._guard(game.edge, player, t_ns, pressed) and pressed:
                    self.gestures.reset(player)
        for player, kind, count in self.gestures.update(now):
            self._route(player, kind, count, now)
        if self.mode == GAME:
            game = self.game
            if not self.saving:  # (a save's pass is the save's: the game ticks in the next
                # one; a Zilch menu drawn with it was a 23 ms pass); a part of a change
                # of its screen that waits is the pass's in place of the tick (BaseGame.due)
                self._guard(game.draw_part if game.due() else game.tick, now)
            # saves happen only here, at the game's save points (between rounds, no
            # race armed); a finished match is forgotten so it is not offered again
            if self.mode == GAME and self.store and self._saves >= 0:
                if game.over:
                    self._saves = -1
                    self._end_save()
                    if self._owns:  # a match that never saved leaves another's save alone
                        self.store.clear()
                elif game.saves != self._saves:
                    self._save_due = True  # written at the start of the next pass
        box.rings.update(now)
        box.sound.update(now)

    def _route(self, player, kind, count, now):
        # a gesture goes where the mode says
        if self.mode == LAUNCHER:
            self._route_launcher(player, kind, count)
        elif self.mode == GAME:
            self._route_game(player, kind, count, now)
        elif self.mode == PAUSE:
            self._route_pause(player, kind, count, now)
        elif self.mode in (ERROR, ENDED, OVER):
            if kind == HOLD:
                self.back_to_launcher()
        elif self.mode == NOTICE:
            self._route_notice(kind)

    def _route_launcher(self, player, kind, count):
        if player == MENU or kind == CHORD:
            return
        self.launcher.gesture(player, kind, count)
        if self.launcher.choice == self.launcher.RESUME:
            self.resume()
        elif self.launcher.choice is not None:
            name, players, bots, options = self.launcher.choice
            try:
                self.launch(name, players, bots, options=options)
            except (ValueError, ImportError) as e:  # Play again of a table this build refuses
                self.box.log("cannot start " + str(name) + ": " + format_exception(e))
                self.kept.pop("t", None)
                self.back_to_launcher()  # (written without it)
                self.launcher.say("cannot play that again")

    def _route_game(self, player, kind, count, now):
        if (player == MENU and kind in (TAP, HOLD)) or kind == CHORD:
            self._pause(now)
        elif self.game.over:
            if kind == HOLD:  # a won match: its wins counted and the session's shown, then the launcher
                if self.game.winners:
                    from referee import session

                    session.over(self)
                else:
                    self.back_to_launcher()
        elif player <= self.game.players:
            if self.game.due():  # the press acts on the screen as it stands: drawn whole first
                self._guard(self.game.draw_due, now)
            self._guard(self.game.gesture, player, kind, count, now)

    def _route_pause(self, player, kind, count, now):
        from referee import pause

        pause.route(self, player, kind, count, now)

    def _route_notice(self, kind):
        if kind in (TAP, HOLD) and self.notice.gesture(kind):
            self.notice = None
            forget_for("said")  # said once: its code is not needed again
            self._show_launcher()

    def _pause(self, now, title="Paused", go_on="Resume"):
        # the pause menu (referee.pause: loaded when a table first pauses, kept until the
        # match ends: a module imported again at every pause grew the heap under the VM)
        from referee import pause

        pause.open_menu(self, now, title, go_on)

    def _pause_choice(self, value, now):
        from referee import pause

        pause.choose(self, value, now)

    def _guard(self, fn, *args):
        """Run a game callback; an exception shows the error screen instead of
        killing the box (tests set catch_errors=False to see it)."""
        if not self.catch_errors:
            return fn(*args)
        try:
            return fn(*args)
        except Exception as e:  # the box must never die silently
            self.box.log_exception(e)
            self.show_error(e)
            return None

    def show_error(self, e):
        """The error screen for exception ``e`` (logged too); a hold goes back to the launcher."""
        msg = format_exception(e)
        self.box.log("error: " + msg)
        self.error = msg
        self.mode = ERROR
        lines = []
        while msg and len(lines) < 10:
            lines.append(msg[:50])
            msg = msg[50:]
        self._error_text.text = "\n".join(lines)
        self.box.reveal(True)
        self.box.show(self._error_root)
