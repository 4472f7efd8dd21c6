"""Portable PRNG: xoshiro128** seeded by splitmix32.

The same seed gives the same numbers on CPython, MicroPython and CircuitPython
(CircuitPython's ``random`` differs from CPython's and has no ``shuffle``). Only
32-bit integer arithmetic, masked after every step; no floats.
"""

from referee.core import const

_M32 = const(0xFFFFFFFF)


def splitmix32(state):
    """One splitmix32 step: returns (new_state, output)."""
    state = (state + 0x9E3779B9) & _M32
    z = state
    z = ((z ^ (z >> 16)) * 0x85EBCA6B) & _M32
    z = ((z ^ (z >> 13)) * 0xC2B2AE35) & _M32
    return state, z ^ (z >> 16)


def seed_from_bytes(data):
    """A non-negative int seed from bytes (e.g. ``os.urandom(16)``), little-endian."""
    seed = 0
    for i in range(len(data) - 1, -1, -1):
        seed = (seed << 8) | data[i]
    return seed


class Rng:
    """xoshiro128** generator. ``seed`` is any non-negative int (up to 128 bits used)."""

    def __init__(self, seed=0):
        if seed < 0:
            raise ValueError("seed must be >= 0")
        self.seed = seed
        h = 0
        for i in range(4):  # absorb all 128 seed bits, each mixed
            _, h = splitmix32(h ^ ((seed >> (32 * i)) & _M32))
        s = [0, 0, 0, 0]
        for i in range(4):
            h, s[i] = splitmix32(h)
        if not (s[0] | s[1] | s[2] | s[3]):  # all-zero state is a fixed point
            s[0] = 1
        self._s = s

    def next_u32(self):
        """The next output: a uniform int in 0..2**32-1."""
        # the two rotations (left by 7 and by 11) written out: a match draws tens of
        # thousands of these (a call each saved; ~30 µs a call on the box)
        s = self._s
        s0, s1, s2, s3 = s[0], s[1], s[2], s[3]
        x = (s1 * 5) & _M32
        result = ((((x << 7) | (x >> 25)) & _M32) * 9) & _M32
        t = (s1 << 9) & _M32
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s[0], s[1], s[2], s[3] = s0, s1, s2, ((s3 << 11) | (s3 >> 21)) & _M32
        return result

    def randbelow(self, n):
        """Uniform int in 0..n-1 by rejection (no modulo bias); 1 <= n <= 2**32."""
        if n < 1 or n > 0x100000000:
            raise ValueError("randbelow: n out of range")
        limit = (0x100000000 // n) * n
        while True:
            x = self.next_u32()
            if x < limit:
                return x % n

    def randint(self, a, b):
        """Uniform int in a..b inclusive."""
        return a + self.randbelow(b - a + 1)

    def choice(self, seq):
        """A uniform pick from ``seq`` (a non-empty sequence)."""
        return seq[self.randbelow(len(seq))]

    def shuffle(self, items):
        """Fisher-Yates shuffle of a list, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self):
        """An independent generator seeded from this one (e.g. one per bot)."""
        return Rng(self.next_u32() | (self.next_u32() << 32))
