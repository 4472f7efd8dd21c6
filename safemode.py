"""Safe mode: leave it by a reset after a crash, so an unattended box comes back.

CircuitPython runs this file instead of boot.py and code.py when it has started in
safe mode, except safe mode the user asked for with a button at boot, and before
USB is up, so what it prints goes nowhere on a Pico (CircuitPython 10.x, main.c
``run_safemode_py``; README.rst, "safemode.py"). If it returns, the box stays in
safe mode; if it raises, the reason becomes SAFEMODE_PY_ERROR (safe mode still).

* Reset (``microcontroller.reset()``) when the reason is a crash at run time that a
  fresh start can clear: the match is saved and code.py offers it for resume.
* Stay in safe mode for everything else: a reason someone chose (USER,
  PROGRAMMATIC), a drive or flash fault, a heap or USB set-up that would fail the
  same way again, a reason this firmware does not name (None), and after
  MAX_RESETS resets since power-up (a crash loop stops there; unplugging the box
  starts the count again).

The count lives in ``alarm.sleep_memory``, RAM that survives a reset but not a
power cycle (ports/raspberrypi/common-hal/alarm/SleepMemory.c), not in
``microcontroller.nvm``, which holds the match saves. No ``alarm`` module (the
RP2350 port in 10.x), no ``SafeModeReason`` (a build without safemode.py support)
or any other error: stay in safe mode. This file never raises.
"""

# supervisor.SafeModeReason members (shared-bindings/supervisor/SafeModeReason.c)
# that mean "crashed while running", raised by the firmware itself:
RESET_ON = (
    "HARD_FAULT",  # ports/raspberrypi/supervisor/port.c isr_hardfault; main.c __fatal_error
    "NLR_JUMP_FAIL",  # main.c nlr_jump_fail
    "GC_ALLOC_OUTSIDE_VM",  # py/gc.c
    "STACK_OVERFLOW",  # supervisor/shared/stack.c assert_heap_ok
    "INTERRUPT_ERROR",  # ports/raspberrypi/common-hal/microcontroller/__init__.c
    "WATCHDOG",  # an internal watchdog: espressif, nordic (the RP2 port never gives it)
    "BROWNOUT",  # power dipped: atmel-samd, espressif, nordic (the RP2040 cannot tell)
)
MAX_RESETS = 3  # since power-up
TAG = 0xB5  # marks the count: sleep memory holds zeros at power-up


def _stay(why):
    print("safemode.py: staying in safe mode:", why)


def _main():
    try:
        import microcontroller
        import supervisor

        kinds = getattr(supervisor, "SafeModeReason", None)
        if kinds is None:
            _stay("this firmware has no SafeModeReason")
            return
        reason = supervisor.runtime.safe_mode_reason
        crash = False
        for name in RESET_ON:
            kind = getattr(kinds, name, None)
            if kind is not None and reason == kind:
                crash = True
        if not crash:
            _stay(reason)
            return
        import alarm

        mem = alarm.sleep_memory
        at = len(mem) - 3  # the last 3 bytes: TAG, count, count ^ 0xFF
        if at < 0:
            _stay("no sleep memory to count resets in")
            return
        count = mem[at + 1]
        if mem[at] != TAG or mem[at + 2] != count ^ 0xFF:
            count = 0
        if count >= MAX_RESETS:
            _stay("%s, after %d resets since power-up" % (reason, count))
            return
        count += 1
        mem[at + 1] = count
        mem[at + 2] = count ^ 0xFF
        mem[at] = TAG
        print("safemode.py: %s: reset %d of %d" % (reason, count, MAX_RESETS))
        microcontroller.reset()  # does not return
    except Exception as e:  # a module or attribute this firmware lacks
        _stay(repr(e))


_main()
