"""The efficient player's exactness test (``mt_table_exact`` in src/mjfast_table_eval.h): a suit
whose melds are pungs with safe windows has the suit table's vector, so the C player skips the
capped DP. tools/pung_windows.py derives ``MT_PUNG_UNSAFE`` and checks it on every pattern; this
checks the shipped constant on many random ones.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mjfast._core._kernels import capped_vector

HEADER = Path(__file__).resolve().parents[2] / "src" / "mjfast_table_eval.h"
UNSAFE = int(re.search(r"#define MT_PUNG_UNSAFE (0x[0-9a-f]+)ull", HEADER.read_text())[1], 16)
FREE = np.full(9, 4, np.uint8)


def safe(c: list[int], k: int) -> bool:
    bit = 10 * (c[k - 1] if k > 0 else 0) + 5 * c[k] + (c[k + 1] if k < 8 else 0)
    return not UNSAFE >> bit & 1


def vectors(c: list[int], pungs: list[int]) -> tuple[list[int], list[int]]:
    """The table's (uncapped) and the exact vector, in the columns of 4 - len(pungs) sets."""
    caps = FREE.copy()
    caps[pungs] = 1
    cols = 2 * (4 - len(pungs)) + 2
    counts = np.array(c, np.uint8)
    return capped_vector(counts, FREE)[:cols], capped_vector(counts, caps)[:cols]


@st.composite
def pung_suits(draw: st.DrawFn) -> tuple[list[int], list[int]]:
    pungs = draw(st.lists(st.integers(0, 8), min_size=1, max_size=3, unique=True))
    c = draw(st.lists(st.integers(0, 4), min_size=9, max_size=9))
    for k in pungs:
        c[k] = min(c[k], 1)  # one free copy of a punged kind
    while sum(c) > 14 - 3 * len(pungs):
        c[c.index(max(c))] -= 1
    return c, pungs


@settings(max_examples=2000)
@given(pung_suits())
def test_safe_windows_give_the_tables_vector(case):
    c, pungs = case
    table, exact = vectors(c, pungs)
    if all(safe(c, k) for k in pungs):
        assert exact == table


def test_windows_on_known_suits():
    # 3m 5m around a pung of 4m: 345 needs only the free 4m
    assert safe([0, 0, 1, 0, 1, 0, 0, 0, 0], 3)
    assert vectors([0, 0, 1, 0, 1, 0, 0, 0, 0], [3]) == ([0, 1, 1, 3, 4, 6, 7, 9],) * 2
    # the held free 9m of a pung of 9m: its pair would need a second copy (column 1: 1 -> 2)
    c = [0, 0, 0, 0, 0, 0, 0, 0, 1]
    assert not safe(c, 8)
    assert vectors(c, [8]) == ([0, 1, 2, 4, 5, 7, 8, 10], [0, 2, 2, 4, 5, 7, 8, 10])
