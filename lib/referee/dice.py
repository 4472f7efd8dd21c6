"""Dice as data: a die is a tuple of faces (pips, colour names, disks, None = empty)."""

D6 = (1, 2, 3, 4, 5, 6)


def roll_die(rng, die=D6):
    """One face of ``die``, uniformly."""
    return die[rng.randbelow(len(die))]


def roll(rng, count, die=D6):
    """A list of ``count`` faces of the same die."""
    return [die[rng.randbelow(len(die))] for _ in range(count)]
