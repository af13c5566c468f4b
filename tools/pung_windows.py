"""The pung windows of the efficient player's exactness test (run at development time).

A suit holding a pung of rank k has one free copy of k left, so its exact distance vector
(``mj_capped_vector``) can be above the suit table's, which assumes 4 free copies. The C player
(``src/mjfast_table_eval.h``, ``mt_table_exact``) skips that DP when every meld of the suit is a
pung whose *window* (the counts of ranks k-1, k, k+1, 0 outside the suit) is not in
``MT_PUNG_UNSAFE`` (bit ``10 h[k-1] + 5 h[k] + h[k+1]``). This script derives that set and checks
that the test is sound, on every suit pattern a hand can hold (at most 14 - 3 m tiles with m
pungs in the suit, at most the free copy of each pung's kind), in the columns the hand uses (up
to 4 - m sets)::

    python tools/pung_windows.py     # prints the constant; exits 1 if the check fails

Derivation: a window is unsafe when, with one pung, some pattern holding it (any position, any
other counts) gets a vector that differs from the table's. Then every pattern with 1-3 pungs
all of whose windows are safe must get the table's vector. About 15 seconds.
"""

from __future__ import annotations

import itertools
import sys

import numpy as np

from mjfast._core._kernels import capped_vector  # noqa: PLC2701 (the DP itself, as the tests use it)

FREE = np.full(9, 4, np.uint8)


def window(c: tuple[int, ...], k: int) -> int:
    """The bit of the window around a pung of rank k."""
    return 10 * (c[k - 1] if k > 0 else 0) + 5 * c[k] + (c[k + 1] if k < 8 else 0)


def patterns() -> list[tuple[int, ...]]:
    """Suit patterns of at most 11 tiles (a hand with a meld)."""
    return [c for c in itertools.product(range(5), repeat=9) if sum(c) <= 11]


def differs(c: tuple[int, ...], pungs: tuple[int, ...], table: list[int]) -> bool:
    caps = FREE.copy()
    caps[list(pungs)] = 1
    cols = 2 * (4 - len(pungs)) + 2
    return capped_vector(np.array(c, np.uint8), caps)[:cols] != table[:cols]


def main() -> int:
    unsafe = 0
    suits = patterns()
    tables = {c: capped_vector(np.array(c, np.uint8), FREE) for c in suits}
    for c in suits:
        for k in range(9):
            if c[k] <= 1 and differs(c, (k,), tables[c]):
                unsafe |= 1 << window(c, k)
    wrong = 0
    for m in (1, 2, 3):
        for c in suits:
            if sum(c) > 14 - 3 * m:
                continue
            for pungs in itertools.combinations(range(9), m):
                if any(c[k] > 1 or unsafe >> window(c, k) & 1 for k in pungs):
                    continue
                wrong += differs(c, pungs, tables[c])
    print(f"#define MT_PUNG_UNSAFE {unsafe:#x}ull")
    print(f"patterns where the test would be wrong: {wrong}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
