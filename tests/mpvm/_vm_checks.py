"""Mounted by the compatibility checks (tests/compat.py) into the MicroPython VM: the
fakes of tools/pico_fakes then keep the rules that cost the memory benchmark heap (a
layer in one group at most)."""
