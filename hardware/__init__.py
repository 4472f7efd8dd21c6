"""What runs on the box and touches pins: the real box (device.py), press capture (PIO and
keypad), the pin plan, the rescue screen. tools/deploy.py copies the whole folder; the
simulated box and the window are in pc/."""
