"""safemode.py, the file CircuitPython runs when it starts in safe mode, on the strict
fakes (tests/fakes: supervisor's SafeModeReason and runtime.safe_mode_reason,
microcontroller.reset, alarm.sleep_memory), and once under the MicroPython VM.

A reset in the fakes is what the board's reset keeps: the modules (so
``alarm.sleep_memory`` keeps its bytes, as the RP2040's uninitialised RAM does);
``alarm._power_up()`` is a power cycle. See docs/reliability.md, "Safe mode after a
crash".
"""

import os
import sys

import compat
import fakes
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATH = os.path.join(ROOT, "safemode.py")

# The decision for every reason the firmware can give (supervisor/shared/safe_mode.h).
RESETS = ("HARD_FAULT", "NLR_JUMP_FAIL", "GC_ALLOC_OUTSIDE_VM", "STACK_OVERFLOW", "INTERRUPT_ERROR",
          "WATCHDOG", "BROWNOUT")
STAYS = ("NONE", "USER", "PROGRAMMATIC", "NO_CIRCUITPY", "NO_HEAP", "FLASH_WRITE_FAIL", "SDK_FATAL_ERROR",
         "USB_BOOT_DEVICE_NOT_INTERFACE_ZERO", "USB_TOO_MANY_ENDPOINTS", "USB_TOO_MANY_INTERFACE_NAMES",
         "MANUAL", "SAFEMODE_PY_ERROR")


@pytest.fixture
def machine():
    with fakes.machine() as w:
        yield w


def run_safemode():
    """Run safemode.py as the firmware does (as __main__). Returns "reset" if it called
    microcontroller.reset(), None if it returned (the board stays in safe mode)."""
    with open(PATH) as f:
        code = compile(f.read(), PATH, "exec")
    try:
        exec(code, {"__name__": "__main__"})
    except SystemExit as e:
        assert str(e) == "microcontroller.reset()"
        return "reset"
    return None


def boot_in_safe_mode(reason):
    import supervisor

    supervisor._set_safe_mode(reason)
    return run_safemode()


def record():
    import alarm

    return bytes(alarm.sleep_memory[-3:])


def test_every_reason_is_decided():
    with fakes.machine():
        import supervisor

        assert sorted(RESETS + STAYS) == sorted(supervisor.SAFE_MODE_REASONS + supervisor.C_ONLY_REASONS)
    assert not set(RESETS) & set(STAYS)
    src = open(PATH).read()
    ns = {}
    exec(src.split("\ndef ", 1)[0], ns)  # the constants only, not _main()
    assert sorted(ns["RESET_ON"]) == sorted(RESETS)


@pytest.mark.parametrize("reason", RESETS)
def test_a_crash_resets_and_counts_the_reset(machine, reason, capsys):
    import microcontroller

    assert boot_in_safe_mode(reason) == "reset"
    assert microcontroller.resets == 1
    assert record() == bytes([0xB5, 1, 0xFE])
    assert "supervisor.SafeModeReason.%s: reset 1 of 3" % reason in capsys.readouterr().out


@pytest.mark.parametrize("reason", STAYS)
def test_other_reasons_stay_in_safe_mode(machine, reason, capsys):
    import microcontroller

    assert boot_in_safe_mode(reason) is None
    assert microcontroller.resets == 0
    assert record() == bytes(3)  # nothing written
    out = capsys.readouterr().out
    assert "staying in safe mode" in out
    assert ("supervisor.SafeModeReason." + reason in out) if reason not in ("MANUAL", "SAFEMODE_PY_ERROR") else "None" in out


def test_a_crash_loop_stops_after_three_resets_until_the_power_is_cycled(machine, capsys):
    import alarm
    import microcontroller

    got = [boot_in_safe_mode(r) for r in ("HARD_FAULT", "WATCHDOG", "HARD_FAULT", "HARD_FAULT", "NLR_JUMP_FAIL")]
    assert got == ["reset", "reset", "reset", None, None]
    assert microcontroller.resets == 3
    assert record() == bytes([0xB5, 3, 0xFC])
    assert "HARD_FAULT, after 3 resets since power-up" in capsys.readouterr().out
    alarm._power_up()  # unplugged and plugged in again: the RAM lost the count
    assert boot_in_safe_mode("HARD_FAULT") == "reset" and microcontroller.resets == 4
    assert record() == bytes([0xB5, 1, 0xFE])


@pytest.mark.parametrize("garbage", [b"\xb5\x07\x00", b"\x00\x02\xfd", b"\xff\xff\xff", b"\xb5\x09\xf6"])
def test_bytes_that_are_not_a_count_are_no_count(machine, garbage):
    import alarm

    alarm.sleep_memory[-3:] = garbage
    expect = 9 if garbage == b"\xb5\x09\xf6" else 0  # only a checked record counts
    assert boot_in_safe_mode("HARD_FAULT") == (None if expect >= 3 else "reset")
    if expect < 3:
        assert record() == bytes([0xB5, expect + 1, (expect + 1) ^ 0xFF])
    assert bytes(alarm.sleep_memory[:-3]) == bytes(253)  # the rest of sleep memory untouched


def test_a_build_without_safemode_reasons_stays_and_does_not_raise(machine, capsys):
    import microcontroller
    import supervisor

    supervisor._set_safe_mode("HARD_FAULT")
    supervisor.SafeModeReason = None  # CIRCUITPY_SAFEMODE_PY = 0
    with pytest.raises(NotImplementedError):
        supervisor.runtime.safe_mode_reason
    assert run_safemode() is None and microcontroller.resets == 0
    assert "no SafeModeReason" in capsys.readouterr().out


def test_an_older_firmware_without_the_names_stays_and_does_not_raise(machine, monkeypatch):
    import microcontroller
    import supervisor

    supervisor._set_safe_mode("WATCHDOG")
    monkeypatch.delattr(supervisor, "SafeModeReason")
    monkeypatch.delattr(type(supervisor.runtime), "safe_mode_reason")
    assert run_safemode() is None and microcontroller.resets == 0
    monkeypatch.undo()
    # the names there, the property not (AttributeError): stays too
    monkeypatch.delattr(type(supervisor.runtime), "safe_mode_reason")
    assert run_safemode() is None and microcontroller.resets == 0


def test_no_alarm_module_no_count_so_it_stays(machine, monkeypatch, capsys):
    # the RP2350 port has no alarm module in CircuitPython 10.x: no count, no reset
    import microcontroller

    monkeypatch.setitem(sys.modules, "alarm", None)
    assert boot_in_safe_mode("HARD_FAULT") is None and microcontroller.resets == 0
    assert "alarm" in capsys.readouterr().out


def test_a_reset_that_returns_or_fails_leaves_it_in_safe_mode(machine, monkeypatch):
    import microcontroller

    monkeypatch.setattr(microcontroller, "reset", lambda: None)
    assert boot_in_safe_mode("HARD_FAULT") is None

    def broken():
        raise RuntimeError("no")

    monkeypatch.setattr(microcontroller, "reset", broken)
    assert boot_in_safe_mode("HARD_FAULT") is None  # caught: no SAFEMODE_PY_ERROR


# --- the fakes behave as the bindings do ---------------------------------------------------


def test_fake_supervisor_safe_mode_is_strict(machine):
    import supervisor

    with pytest.raises(TypeError):
        supervisor.SafeModeReason()
    assert supervisor.runtime.safe_mode_reason is supervisor.SafeModeReason.NONE
    with pytest.raises(AttributeError):
        supervisor.runtime.safe_mode_reason = supervisor.SafeModeReason.USER  # read-only
    with pytest.raises(AttributeError):
        supervisor.SafeModeReason.USER.value = 3
    assert repr(supervisor.SafeModeReason.WATCHDOG) == "supervisor.SafeModeReason.WATCHDOG"
    assert supervisor.SafeModeReason.WATCHDOG != supervisor.SafeModeReason.USER
    with pytest.raises(ValueError):
        supervisor._set_safe_mode("COSMIC_RAY")
    supervisor._set_safe_mode("MANUAL")  # in the C enum only
    assert supervisor.runtime.safe_mode_reason is None


def test_fake_sleep_memory_is_strict(machine):
    import alarm

    mem = alarm.sleep_memory
    assert len(mem) == 256 and mem[0] == 0 and mem[-1] == 0 and mem
    with pytest.raises(TypeError):
        alarm.SleepMemory()
    with pytest.raises(ValueError):
        mem[0] = 256
    with pytest.raises(ValueError):
        mem[0] = -1
    with pytest.raises(IndexError):
        mem[256]
    with pytest.raises(IndexError):
        mem[-257] = 1
    with pytest.raises(NotImplementedError):
        mem[0:4:2]
    with pytest.raises(ValueError):
        mem[0:4] = b"\x01\x02"
    with pytest.raises(NotImplementedError):
        mem[0:2] = [1, 2]
    with pytest.raises(TypeError):
        del mem[0]
    with pytest.raises(AttributeError):
        mem.extra = 1
    mem[-2:] = b"\x01\x02"
    assert mem[254:256] == bytearray(b"\x01\x02") and mem[255] == 2


# --- under the MicroPython VM: the same file, MicroPython's semantics ----------------------

_VM_SUPERVISOR = '''
class SafeModeReason:
    pass
for _n in %(names)r:
    setattr(SafeModeReason, _n, SafeModeReason())
class _Runtime:
    reason = "NONE"
    @property
    def safe_mode_reason(self):
        return getattr(SafeModeReason, self.reason)
runtime = _Runtime()
'''
_VM_MICROCONTROLLER = '''
resets = 0
def reset():
    global resets
    resets += 1
    raise SystemExit("reset")
'''
_VM_ALARM = "sleep_memory = bytearray(256)\n"
_VM_SCRIPT = '''
import sys, supervisor, microcontroller, alarm
out = []
for name in %(order)r:
    supervisor.runtime.reason = name
    sys.modules.pop("safemode", None)
    before = microcontroller.resets
    try:
        import safemode
    except SystemExit:
        pass
    out.append("%%s=%%d" %% (name, microcontroller.resets - before))
print("@@" + " ".join(out) + " count=%%d" %% alarm.sleep_memory[-2])
'''


def test_safemode_runs_under_the_micropython_vm(tmp_path):
    compat.require_vm()
    with fakes.machine():
        import supervisor

        names = supervisor.SAFE_MODE_REASONS
    for vm_name, text in (("supervisor", _VM_SUPERVISOR % {"names": names}),
                          ("microcontroller", _VM_MICROCONTROLLER), ("alarm", _VM_ALARM)):
        (tmp_path / (vm_name + ".py")).write_text(text)  # over the VM's own supervisor stand-in
    order = ["USER", "WATCHDOG", "PROGRAMMATIC", "HARD_FAULT", "NONE", "BROWNOUT", "HARD_FAULT"]
    r = compat.run_vm(_VM_SCRIPT % {"order": order}, extra_files={"/safemode.py": PATH},
                      extra_trees=[("/lib", tmp_path)])
    assert r.returncode == 0, r.stderr[-3000:]
    line = [ln for ln in r.stdout.splitlines() if ln.startswith("@@")][0][2:]
    assert line == "USER=0 WATCHDOG=1 PROGRAMMATIC=0 HARD_FAULT=1 NONE=0 BROWNOUT=1 HARD_FAULT=0 count=3"


def test_safemode_is_checked_as_a_device_file():
    # mpy-cross and the AST guard (tests/test_compat_*.py) take every device file
    assert "safemode.py" in [compat.rel(p) for p in compat.device_files()]
    assert compat.ast_violations(PATH, portable=False) == []
