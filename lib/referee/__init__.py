"""Referee Box portable framework (runs on CircuitPython and CPython)."""
