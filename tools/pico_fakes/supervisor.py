"""Fake of CircuitPython's ``supervisor`` for the memory benchmark (VM only):
``ticks_ms`` on the virtual clock of the fake ``time``; ``runtime`` is static.
``reload()`` does nothing: the VM cannot start the code afresh, so a benchmark run
goes on as a box without the fresh start after a match would."""

import time


def ticks_ms():
    return (time.monotonic_ns() // 1000000) & 0x3FFFFFFF


class RunReason:
    STARTUP = 0
    AUTO_RELOAD = 1
    SUPERVISOR_RELOAD = 2
    REPL_RELOAD = 3


class _Runtime:
    autoreload = True
    run_reason = RunReason.STARTUP
    serial_connected = False
    serial_bytes_available = 0


runtime = _Runtime()


def reload():
    pass
