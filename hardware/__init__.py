"""Everything that touches pins: the real box, the simulated box, the build guide."""
