"""PC only: the simulated box (headless and in a window), the demo, and the PC's stand-ins
for the box's display, sound and NVM. Nothing here goes to the box: tools/deploy.py copies
lib/referee, games and hardware."""
