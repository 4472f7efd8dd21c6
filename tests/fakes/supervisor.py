"""Strict fake of CircuitPython's ``supervisor`` (9.x/10.x).

``ticks_ms()`` follows the fake world's clock (wrapping at 2**29 ms);
``runtime.autoreload`` records every change; ``set_usb_identification`` takes
the 9.x arguments and checks them; ``disable_autoreload`` is gone (removed in
CircuitPython 9), so code calling it fails here as it would there.

Safe mode (what ``safemode.py`` reads): ``SafeModeReason`` has one member per reason
of CircuitPython 10.x, shared-bindings/supervisor/SafeModeReason.c (no constructor;
members compare by identity and print as ``supervisor.SafeModeReason.NAME``);
``runtime.safe_mode_reason`` is read-only and is the member of the firmware's reason
(supervisor/shared/safe_mode.h ``safe_mode_t``, set for a test with
``_set_safe_mode``). Two C reasons have no member (``MANUAL``,
``SAFEMODE_PY_ERROR``): ``cp_enum_find`` (py/enum.c) then gives ``None``. A build
without safemode.py support (``CIRCUITPY_SAFEMODE_PY = 0``) has
``SafeModeReason = None`` and ``runtime.safe_mode_reason`` raises
``NotImplementedError`` (shared-bindings/supervisor/__init__.c, Runtime.c): set
``supervisor.SafeModeReason = None`` to model it.
"""

import fakeworld

_TOKEN = object()


class SafeModeReason:
    """``supervisor.SafeModeReason``: the members only; no instances can be made."""

    def __init__(self, *args, **kwargs):
        if not args or args[0] is not _TOKEN:
            raise TypeError("cannot create 'SafeModeReason' instances")
        self._name = args[1]

    def __repr__(self):
        return "supervisor.SafeModeReason." + self._name

    def __setattr__(self, name, value):
        if name != "_name" or "_name" in self.__dict__:
            raise AttributeError("'SafeModeReason' object has no attribute '" + name + "'")
        object.__setattr__(self, name, value)


# The members, as shared-bindings/supervisor/SafeModeReason.c lists them.
SAFE_MODE_REASONS = (
    "NONE", "BROWNOUT", "FLASH_WRITE_FAIL", "GC_ALLOC_OUTSIDE_VM", "HARD_FAULT", "INTERRUPT_ERROR",
    "NLR_JUMP_FAIL", "NO_CIRCUITPY", "NO_HEAP", "PROGRAMMATIC", "SDK_FATAL_ERROR", "STACK_OVERFLOW",
    "USB_BOOT_DEVICE_NOT_INTERFACE_ZERO", "USB_TOO_MANY_ENDPOINTS", "USB_TOO_MANY_INTERFACE_NAMES",
    "USER", "WATCHDOG",
)
# The C enum (supervisor/shared/safe_mode.h) has two more, with no Python member.
C_ONLY_REASONS = ("MANUAL", "SAFEMODE_PY_ERROR")
for _name in SAFE_MODE_REASONS:
    setattr(SafeModeReason, _name, SafeModeReason(_TOKEN, _name))
del _name


def ticks_ms():
    return fakeworld.world().ticks_ms()


class RunReason:
    """``supervisor.RunReason`` (shared-bindings/supervisor/RunReason.c): why code.py runs."""

    STARTUP = "supervisor.RunReason.STARTUP"
    AUTO_RELOAD = "supervisor.RunReason.AUTO_RELOAD"
    SUPERVISOR_RELOAD = "supervisor.RunReason.SUPERVISOR_RELOAD"
    REPL_RELOAD = "supervisor.RunReason.REPL_RELOAD"


class _Runtime:
    def __init__(self):
        self._autoreload = True
        self.autoreload_log = []  # (t_ns, value)
        self.serial_connected = True
        self.usb_connected = True
        self.serial_bytes_available = 0
        self.run_reason = RunReason.STARTUP  # read-only on the board; reload() sets the next run's
        self.reloads = 0  # supervisor.reload() calls
        self._safe_mode = "NONE"  # the firmware's safe_mode_t, by name

    @property
    def safe_mode_reason(self):
        if SafeModeReason is None:  # CIRCUITPY_SAFEMODE_PY = 0 (Runtime.c)
            raise NotImplementedError()
        if self._safe_mode in C_ONLY_REASONS:
            return None  # cp_enum_find finds no member
        return getattr(SafeModeReason, self._safe_mode)

    @property
    def autoreload(self):
        return self._autoreload

    @autoreload.setter
    def autoreload(self, value):
        if not isinstance(value, bool):
            raise TypeError("autoreload must be a bool")
        self._autoreload = value
        self.autoreload_log.append((fakeworld.world().now_ns, value))


runtime = _Runtime()
usb_identification = {}


def _set_safe_mode(name):
    """The test's stand-in for the firmware starting in safe mode for ``name`` (a
    ``safe_mode_t`` name without ``SAFE_MODE_``: "WATCHDOG", "USER", "MANUAL"...)."""
    if name not in SAFE_MODE_REASONS and name not in C_ONLY_REASONS:
        raise ValueError("no such safe mode reason: " + name)
    runtime._safe_mode = name


def set_usb_identification(manufacturer=None, product=None, vid=-1, pid=-1):
    for name, s in (("manufacturer", manufacturer), ("product", product)):
        if s is None:
            continue
        if not isinstance(s, (str, bytes, bytearray)):
            raise TypeError(name + " must be a str or buffer")
        raw = s.encode() if isinstance(s, str) else bytes(s)
        if len(raw) > 126 or any(b > 127 for b in raw):
            raise ValueError(name + " must be ASCII, at most 126 characters")
    for name, v in (("vid", vid), ("pid", pid)):
        if isinstance(v, bool) or not isinstance(v, int) or not -1 <= v <= 0xFFFF:
            raise ValueError(name + " must be -1-65535")
    usb_identification.update(manufacturer=manufacturer, product=product, vid=vid, pid=pid)


class ReloadException(BaseException):
    """The firmware's ``ReloadException`` (a ``BaseException``: ``except Exception``
    does not stop it). ``supervisor.reload()`` schedules it for the VM's next check,
    which is at once for code that returns to a loop; here it is raised at once."""


def reload():
    """Soft reload: code.py runs again from the start with a fresh heap; the next
    run's ``runtime.run_reason`` is ``SUPERVISOR_RELOAD``."""
    runtime.reloads += 1
    runtime.run_reason = RunReason.SUPERVISOR_RELOAD
    raise ReloadException()
