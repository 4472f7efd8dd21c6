"""A short soak (tools/soak.py): all-bot matches of every game in turn with pauses,
on CPython (no error, the loop's cost does not creep) and under the MicroPython VM
(the heap stays within a fixed bound; skipped without node, as the other VM tests)."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import compat  # noqa: E402
import soak  # noqa: E402


def test_twenty_simulated_minutes_on_cpython_without_error():
    f = soak.soak_cpython(20 / 60, loop_ms=10, seed=3)
    assert f["virtual_h"] >= 20 / 60 and f["matches"] >= 3
    lo = f["launcher_objects"]
    assert max(lo) - lo[0] < 2000  # Python objects at the launcher do not pile up


# VM bytes above the baseline (tools/bench_memory.py samples): the launcher after a
# match stays within the warm-up seen in 12 simulated hours (docs/reliability.md,
# 47,472 B with every game in the rotation: interned names, and what the conservative
# collector keeps for a stale word; the box itself starts afresh after every match)
# plus a margin, and no sample of a match exceeds the 7-player peaks seen there.
LAUNCHER_BOUND = 52 * 1024
PEAK_BOUND = 185 * 1024


def test_ten_simulated_minutes_under_the_vm_keep_the_heap_bounded():
    compat.require_vm()  # skips without node, fails if node is there but the VM package is not
    v = soak.soak_vm(10 / 60, loop_ms=20)
    assert v["errors"] == [] and v["app_error"] is None and v["device_errors"] == 0
    assert v["virtual_ms"] >= 10 * 60 * 1000 and v["matches"] >= 2
    assert max(v["launcher"]) - v["launcher"][0] <= LAUNCHER_BOUND
    assert max(max(p) for p in v["peaks"].values()) <= PEAK_BOUND
