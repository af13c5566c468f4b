"""The suit table of the fan kernels, computed in Python (run at development time).

The C kernel (``src/mjfast_fan_table.h``, ``mf_build``) builds this table itself at import, in about a
millisecond, so nothing generated is shipped; this module is its independent twin, which
``tests/scoring/test_fan_batch.py`` compares with the compiled table entry for entry, and the
documentation of the scheme. It is not part of the wheel, and needs mjfast installed only for
the reading bits::

    python tools/fangen.py        # prints the table's statistics

The scheme. A suit's *reading* is one split of its 9 counts into sets (plus the pair when it
holds 3k+2 tiles). For the fan a reading matters only through five bits (the ``R_*`` bits of
:mod:`mjfast.scoring`): all triplets (1), every set and the pair hold a 1 or a 9 (2), a 456
sequence (4), two identical sequences (8), 123 + 456 + 789 (16). A hand's regular fan is
monotone in every bit (a bit only makes base patterns or extras worth >= 0 available), so per
suit only the *maximal* masks among its readings count. Over the 21,743 complete suit patterns of
at most 14 tiles there are at most two maximal masks (14 distinct lists in all); the table maps a
pattern's base-5 index (rank 1 most significant, as in the core) to ``mask1 | mask2 << 5``
(``mask2 == mask1`` when there is one). Patterns not in the table are not complete.
"""

from __future__ import annotations

import sys

import numpy as np

# One source for the reading bits: the Python scorer's.
from mjfast.scoring.readings import R_ALL_TRIPLETS as AT
from mjfast.scoring.readings import R_DRAGON as DRAGON
from mjfast.scoring.readings import R_SEQ_456 as SEQ_456
from mjfast.scoring.readings import R_TWIN_SEQ as TWIN
from mjfast.scoring.readings import R_YAO_JIU as YJ

POW5 = np.array([5 ** (8 - r) for r in range(9)], np.int64)

# set types: 0..8 a triplet of rank t, 9..15 the sequence starting at rank t - 9
_SET_COUNTS = np.zeros((16, 9), np.int64)
for _t in range(9):
    _SET_COUNTS[_t, _t] = 3
for _t in range(7):
    _SET_COUNTS[9 + _t, _t:_t + 3] = 1


def _set_bits(types: tuple[int, ...]) -> tuple[int, bool]:
    """(reading bits without the pair's part of YJ, every set holds a 1 or a 9)."""
    seqs = [t - 9 for t in types if t >= 9]
    bits = 0 if seqs else AT
    if 3 in seqs:
        bits |= SEQ_456
    if len(set(seqs)) < len(seqs):
        bits |= TWIN
    if 0 in seqs and 3 in seqs and 6 in seqs:
        bits |= DRAGON
    yj = all(t in (0, 8, 9, 15) for t in types)
    return bits, yj


def readings_masks() -> dict[int, int]:
    """{suit index: bit set (1 << mask) of the reading masks reachable}, every complete pattern."""
    seen: dict[int, int] = {}

    def visit(counts: np.ndarray, types: tuple[int, ...]) -> None:
        bits, yj = _set_bits(types)
        idx = int(counts @ POW5)
        seen[idx] = seen.get(idx, 0) | 1 << (bits | (YJ if yj else 0))
        for p in range(9):
            if counts[p] <= 2:
                m = bits | (YJ if yj and p in (0, 8) else 0)
                key = idx + 2 * int(POW5[p])
                seen[key] = seen.get(key, 0) | 1 << m

    def sets(counts: np.ndarray, types: tuple[int, ...], first: int) -> None:
        visit(counts, types)
        if len(types) == 4:
            return
        for t in range(first, 16):
            nxt = counts + _SET_COUNTS[t]
            if nxt.max() <= 4:
                sets(nxt, types + (t,), t)

    sets(np.zeros(9, np.int64), (), 0)
    return seen


def maximal(bitset: int) -> list[int]:
    """The maximal masks (under bit inclusion) of a set of masks given as a bit set."""
    masks = [m for m in range(32) if bitset >> m & 1]
    return [m for m in masks if not any(o != m and o | m == o for o in masks)]


def build() -> tuple[np.ndarray, np.ndarray]:
    """(keys, codes): int32 arrays sorted by key, code = ``mask1 | mask2 << 5``."""
    seen = readings_masks()
    keys = np.array(sorted(seen), np.int32)
    codes = np.empty(len(keys), np.int32)
    for i, key in enumerate(keys.tolist()):
        top = maximal(seen[key])
        if len(top) > 2:
            raise AssertionError(f"suit index {key}: {len(top)} maximal masks (the table holds 2)")
        codes[i] = top[0] | top[-1] << 5
    return keys, codes


def main() -> int:
    keys, codes = build()
    lists, counts = np.unique(codes, return_counts=True)
    print(f"{len(keys)} complete suit patterns; {len(lists)} distinct lists of maximal masks:")
    for code, n in sorted(zip(lists.tolist(), counts.tolist()), key=lambda x: -x[1]):
        masks = sorted({code & 31, code >> 5})
        print(f"  {masks}: {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
