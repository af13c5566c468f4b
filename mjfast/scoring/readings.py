"""The readings of one suit: every split of its 9 counts into sets (+ the pair), with the bits
the fan rules test.

This is the per-suit unit of the scorer: a hand's regular readings are the products of its three
suits' readings (exactly one suit carries the pair), and every base pattern and shape option is an
AND / OR of the ``R_*`` bits plus the suit-level flags. The C kernels (``src/mjfast_fan.h``) use
the same bit values (``MF_AT`` .. ``MF_DRAGON``; a test checks them) and ``tools/fangen.py``
imports them from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from mjfast.errors import InvalidArgumentError

__all__ = [
    "R_ALL_TRIPLETS",
    "R_DRAGON",
    "R_SEQ_456",
    "R_TWIN_SEQ",
    "R_YAO_JIU",
    "SuitFeatures",
    "SuitReading",
    "suit_features",
]

R_ALL_TRIPLETS = 1
"""Reading bit: no sequence among the suit's sets."""
R_YAO_JIU = 2
"""Reading bit: every set and the pair (if here) holds a 1 or a 9."""
R_SEQ_456 = 4
"""Reading bit: a 456 sequence (掐心五 when the win tile is this suit's 5)."""
R_TWIN_SEQ = 8
"""Reading bit: two identical sequences (姊妹对)."""
R_DRAGON = 16
"""Reading bit: 123 + 456 + 789 sequences (一条龙)."""

SuitReading = tuple[tuple[tuple[int, int], ...], int, int]
"""A suit reading ``(sets, pair, bits)``: sets a sorted tuple of ``(rank 0..8, is_sequence)``
(a triplet before a sequence on the same rank), pair a rank or -1, bits the ``R_*`` flags."""


class SuitFeatures(NamedTuple):
    """Everything scoring needs to know about one suit's 9 counts.

    Attributes:
        readings: every split of the suit into sets (+ the pair when the suit holds 3k+2
            tiles) as ``(sets, pair, bits)``: ``sets`` a sorted tuple of ``(rank 0..8,
            is_sequence)``, ``pair`` a rank or -1, ``bits`` the ``R_*`` flags. Empty when the
            suit cannot be split (3k+1 tiles, or no split); ``((), -1, R_ALL_TRIPLETS |
            R_YAO_JIU)`` for an empty suit. Sorted in canonical order.
        tiles: number of tiles.
        even: every count is 0, 2 or 4 (fits the seven-pairs reading).
        terminal: holds a 1 or a 9 (breaks 中张).
        only_258: every tile has rank 2, 5 or 8 (将对); True for an empty suit.

    >>> f = suit_features((3, 3, 3, 0, 0, 0, 0, 0, 2))    # 111222333 99
    >>> [(sets, pair) for sets, pair, bits in f.readings]
    [(((0, 0), (1, 0), (2, 0)), 8), (((0, 1), (0, 1), (0, 1)), 8)]
    >>> [bool(bits & R_ALL_TRIPLETS) for _, _, bits in f.readings]
    [True, False]
    """

    readings: tuple[SuitReading, ...]
    tiles: int
    even: bool
    terminal: bool
    only_258: bool


def _suit_partitions(c: list[int], i: int, out: set[tuple[tuple[int, int], ...]],
                     cur: list[tuple[int, int]]) -> None:
    """Add to *out* every split of counts *c* (from rank *i* on) into sets, sorted tuples."""
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        out.add(tuple(sorted(cur)))
        return
    if c[i] >= 3:
        c[i] -= 3
        cur.append((i, 0))
        _suit_partitions(c, i, out, cur)
        cur.pop()
        c[i] += 3
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        cur.append((i, 1))
        _suit_partitions(c, i, out, cur)
        cur.pop()
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1


def _reading_bits(sets: tuple[tuple[int, int], ...], pair: int) -> int:
    bits = 0
    seqs = [r for r, is_seq in sets if is_seq]
    if not seqs:
        bits |= R_ALL_TRIPLETS
    if all((r in (0, 8)) if not is_seq else (r in (0, 6)) for r, is_seq in sets) and (
        pair in (-1, 0, 8)
    ):
        bits |= R_YAO_JIU
    if 3 in seqs:
        bits |= R_SEQ_456
    if len(set(seqs)) < len(seqs):
        bits |= R_TWIN_SEQ
    if 0 in seqs and 3 in seqs and 6 in seqs:
        bits |= R_DRAGON
    return bits


def _compute_suit_features(key: bytes) -> SuitFeatures:
    c = list(key)
    n = sum(c)
    found: set[tuple[tuple[int, int], ...]] = set()
    readings: list[tuple[tuple[tuple[int, int], ...], int]] = []
    if n % 3 == 0:
        _suit_partitions(c, 0, found, [])
        readings = [(s, -1) for s in found]
    elif n % 3 == 2:
        for r in range(9):
            if c[r] >= 2:
                c[r] -= 2
                found = set()
                _suit_partitions(c, 0, found, [])
                readings.extend((s, r) for s in found)
                c[r] += 2
    readings.sort()
    return SuitFeatures(
        readings=tuple((s, p, _reading_bits(s, p)) for s, p in readings),
        tiles=n,
        even=all(x % 2 == 0 for x in c),
        terminal=bool(c[0] or c[8]),
        only_258=all(x == 0 for r, x in enumerate(c) if r not in (1, 4, 7)),
    )


SUIT_CACHE: dict[bytes, SuitFeatures] = {}
"""Features by the suit's 9 counts as bytes (package-internal: the scorer's hot loop reads it
directly); emptied when it reaches 2**18 entries."""
_SUIT_CACHE_LIMIT = 1 << 18
_OK_COUNTS = bytes(range(5))


def suit_features(counts: Sequence[int] | bytes) -> SuitFeatures:
    """The :class:`SuitFeatures` of one suit's 9 counts (cached; each count 0..4).

    >>> [str(s) for s in suit_features((1, 1, 1, 1, 1, 1, 1, 1, 1)).readings]
    ['(((0, 1), (3, 1), (6, 1)), -1, 20)']
    """
    if type(counts) is bytes:
        f = SUIT_CACHE.get(counts)
        if f is not None:
            return f
    try:
        key = bytes(counts)
    except (TypeError, ValueError):
        raise InvalidArgumentError(
            f"suit_features: expected 9 counts 0..4, got {counts!r}") from None
    f = SUIT_CACHE.get(key)
    if f is None:
        if len(key) != 9 or key.translate(None, _OK_COUNTS):
            raise InvalidArgumentError(
                f"suit_features: expected 9 counts 0..4, got {tuple(key)!r}")
        if len(SUIT_CACHE) >= _SUIT_CACHE_LIMIT:
            SUIT_CACHE.clear()
        f = SUIT_CACHE[key] = _compute_suit_features(key)
    return f
