"""The main job's dealer (src/mjfast_stats.h) against a plain Python twin of its definition:
splitmix64 seeding per chunk, xoshiro256**, three 21-bit draws per output, Lemire's bounded
draw with its rejection step, and a partial Fisher-Yates shuffle of a wall that carries over from
hand to hand. Equal hands for the same seed pin the stream, the rejection path included."""

from __future__ import annotations

import numpy as np
import pytest

from mjfast import stats
from mjfast.stats.sample import _key

M64 = (1 << 64) - 1
BITS = 21
WALL = 108


def mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & M64


class Dealer:
    """One chunk's stream of hands, one tile at a time; counts the rejected draws."""

    def __init__(self, key: int, chunk: int) -> None:
        x = mix(key) ^ mix(chunk ^ 0x6A09E667F3BCC909)
        self.s = []
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & M64
            self.s.append(mix(x))
        self.wall = [i // 4 for i in range(WALL)]
        self.rejected = 0

    def next(self) -> int:
        s = self.s
        r = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return r

    def below(self, x: int, n: int) -> int:
        """Uniform in [0, n) from a 21-bit draw: x * n >> 21, redrawn from the top 21 bits of a
        fresh output while the low 21 bits of x * n fall below 2**21 mod n."""
        m = x * n
        while m % (1 << BITS) < (1 << BITS) % n:
            self.rejected += 1
            m = (self.next() >> (64 - BITS)) * n
        return m >> BITS

    def hand(self, tiles: int) -> list[int]:
        """Tiles i = 0, 1, 2 .. take the draws of one output each three (a redraw takes an output
        of its own before the next three)."""
        counts = [0] * 27
        for i in range(tiles):
            if i % 3 == 0:
                r = self.next()
            x = (r >> (64 - BITS * (i % 3 + 1))) % (1 << BITS)
            j = i + self.below(x, WALL - i)
            self.wall[i], self.wall[j] = self.wall[j], self.wall[i]
            counts[self.wall[i]] += 1
        return counts


@pytest.mark.parametrize(("seed", "tiles", "chunk"), [(1, 14, 0), (7, 13, 3), (2**70, 14, 5)])
def test_dealer_equals_its_twin(seed, tiles, chunk):
    n = 1500
    twin = Dealer(_key(seed), chunk)
    want = np.array([twin.hand(tiles) for _ in range(n)], np.uint8)
    assert np.array_equal(stats.chunk_hands(seed, tiles, chunk, n_hands=n), want)


def test_twin_covers_the_rejection_step():
    """About one 21-bit draw in 2**14.4 is redrawn: 1500 hands of 14 tiles hold 21,000 draws."""
    twin = Dealer(_key(1), 0)
    hands = np.array([twin.hand(14) for _ in range(1500)], np.uint8)
    assert twin.rejected >= 1
    assert np.array_equal(stats.chunk_hands(1, 14, 0, n_hands=1500), hands)
