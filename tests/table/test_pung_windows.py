"""The efficient player's exactness test (``mt_table_exact`` in src/mjfast_table_eval.h): a suit
whose melds are pungs with safe windows, or whose one meld has a safe meld window, has the suit
table's vector, so the C player skips the capped DP. tools/pung_windows.py derives
``MT_PUNG_UNSAFE`` and ``MT_MELD_UNSAFE`` (src/mjfast_table_windows.h) on every pattern; this
checks the shipped constants on many random ones.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mjfast._core._kernels import capped_vector

ROOT = Path(__file__).resolve().parents[2]
HEADER = ROOT / "src" / "mjfast_table_eval.h"
UNSAFE = int(re.search(r"#define MT_PUNG_UNSAFE (0x[0-9a-f]+)ull", HEADER.read_text())[1], 16)
WINDOWS = (ROOT / "src" / "mjfast_table_windows.h").read_text()
MELD_UNSAFE = [int(w, 0) for w in re.findall(r"(0x[0-9a-f]+|0)(?:ull)?,", WINDOWS.split("{")[1])]
FREE = np.full(9, 4, np.uint8)
_spec = importlib.util.spec_from_file_location("pung_windows", ROOT / "tools" / "pung_windows.py")
assert _spec is not None and _spec.loader is not None
pung_windows = importlib.util.module_from_spec(_spec)  # a dev-time tool, imported by path
_spec.loader.exec_module(pung_windows)


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


def meld_safe(c: list[int], q: int, kong: int) -> bool:
    w = pung_windows.meld_window(tuple(c), q, kong)
    return not MELD_UNSAFE[w >> 6] >> (w & 63) & 1


@st.composite
def one_meld_suits(draw: st.DrawFn) -> tuple[list[int], int, int]:
    q, kong = draw(st.integers(0, 8)), draw(st.integers(0, 1))
    c = draw(st.lists(st.integers(0, 4), min_size=9, max_size=9))
    c[q] = min(c[q], 1 - kong)  # the copies a pung (one) or a kong (none) leaves free
    while sum(c) > 11:
        c[c.index(max(c))] -= 1
    return c, q, kong


@settings(max_examples=2000)
@given(one_meld_suits())
def test_safe_meld_windows_give_the_tables_vector(case):
    c, q, kong = case
    caps = FREE.copy()
    caps[q] = 1 - kong
    counts = np.array(c, np.uint8)
    if meld_safe(c, q, kong):
        assert capped_vector(counts, caps)[:8] == capped_vector(counts, FREE)[:8]


def test_meld_windows_on_known_suits():
    assert len(MELD_UNSAFE) == 3 * 9 * 625 // 64 + 1
    # a kong of 5m and 7m 8m 9m: no target of the table needs a 5m
    c = [0, 0, 0, 0, 0, 0, 1, 1, 1]
    assert meld_safe(c, 4, 1)
    # a kong of 3m beside 1m 2m: the table's 123 needs a 3m (column 2, one set: 1 -> 2)
    c = [1, 1, 0, 0, 0, 0, 0, 0, 0]
    caps = FREE.copy()
    caps[2] = 0
    assert not meld_safe(c, 2, 1)
    assert capped_vector(np.array(c, np.uint8), caps)[2] == 2
    assert capped_vector(np.array(c, np.uint8), FREE)[2] == 1
