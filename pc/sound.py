"""PC only: the piezo through the PC's audio, when it has one.

``Speaker.tone(freq)`` plays a square wave at ``freq`` Hz until the next call
(0 = silent), as the box's PWM piezo does. No audio device (a server, CI,
``SDL_AUDIODRIVER=dummy`` in tests) or no mixer: ``speaker()`` returns None and
the window stays silent; nothing else changes.
"""

RATE = 22050
VOLUME = 0.15  # of full scale: a piezo is quiet


def square(freq, rate=RATE, volume=VOLUME):
    """One whole number of periods of a signed 16-bit mono square wave (about
    0.1 s, loopable without a click)."""
    import array

    period = max(2, round(rate / freq))
    periods = max(1, rate // 10 // period)
    high = int(32767 * volume)
    half = period // 2
    one = [high] * half + [-high] * (period - half)
    return array.array("h", one * periods)


class Speaker:
    def __init__(self, mixer):
        self.mixer = mixer
        self.freq = 0
        self._sounds = {}  # freq -> Sound: the cues use a handful of notes
        self._channel = None

    def tone(self, freq):
        freq = int(freq)
        if freq == self.freq:
            return
        self.freq = freq
        if self._channel is not None:
            self._channel.stop()
            self._channel = None
        if freq <= 0:
            return
        snd = self._sounds.get(freq)
        if snd is None:
            snd = self.mixer.Sound(buffer=square(freq).tobytes())
            self._sounds[freq] = snd
        self._channel = snd.play(loops=-1)


class _NoStderr:
    """The C libraries' stderr (file descriptor 2) sent to the null device for a
    while: ALSA's library prints its own lines ("ALSA lib confmisc.c:855:(parse_card)
    cannot find card '0'", eight of them) when a PC has no sound card, before the
    mixer fails; ``speaker()`` says it in one line of its own."""

    def __enter__(self):
        import os
        import sys

        self.saved = None
        try:
            sys.stderr.flush()
            self.saved = os.dup(2)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 2)
            os.close(null)
        except (OSError, ValueError, AttributeError):  # no fd 2 (a GUI launcher): nothing to hide
            self.saved = None
        return self

    def __exit__(self, *exc):
        import os

        if self.saved is not None:
            os.dup2(self.saved, 2)
            os.close(self.saved)
        return False


def speaker(log=print):
    """A Speaker on the PC's audio, or None (silent) when there is none."""
    import os

    if os.environ.get("SDL_AUDIODRIVER") == "dummy":
        return None
    try:
        import pygame

        with _NoStderr():
            pygame.mixer.init(frequency=RATE, size=-16, channels=1)
        if pygame.mixer.get_init() is None:
            return None
        return Speaker(pygame.mixer)
    except Exception as e:  # no device, no driver, no mixer module: play on silently
        log("no sound (" + str(e) + "): the window is silent")
        return None
