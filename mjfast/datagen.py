"""Hand generators: random, two-suit, complete and ready hands as (n, 27) uint8 counts.

Library code shared by ``mjfast stats``, the tests and the benchmarks (:mod:`mjfast.bench`), so
all of them deal the same hands from the same seeds. It imports nothing from mjfast.

- :func:`deal`: random hands from the 108-tile wall, vectorised and seeded.
- :func:`deal_split`: a hand plus tiles seen elsewhere, all from one wall.
- :func:`two_suit_hands`: random hands without one suit (the void rule changes nothing).
- :func:`complete_hands` and :func:`ready_hands`: built from sets, so every one wins / is ready.

>>> h = deal(1000, 14, seed=1)
>>> h.shape, h.dtype.name, bool((h.sum(axis=1) == 14).all()), int(h.max()) <= 4
((1000, 27), 'uint8', True, True)
>>> bool((deal(5, 13, seed=7) == deal(5, 13, seed=7)).all())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Union, overload

import numpy as np
import numpy.typing as npt

from mjfast._typing import HandsArray

__all__ = [
    "WALL_SIZE",
    "SeedLike",
    "complete_hands",
    "deal",
    "deal_split",
    "ready_hands",
    "two_suit_hands",
]

SeedLike = Union[None, int, np.random.Generator]
"""A seed: an int, a ``numpy.random.Generator`` or None for fresh entropy."""

Kinds = npt.NDArray[np.int64]
"""(N,) kind indices 0..26."""

WALL_SIZE = 108
"""Tiles in the wall: 27 kinds x 4 copies (tile position p is kind p // 4)."""


def _rng(seed: SeedLike) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


_ONE = np.uint64(1)
_M55 = np.uint64(0x5555555555555555)
_M33 = np.uint64(0x3333333333333333)
_M0F = np.uint64(0x0F0F0F0F0F0F0F0F)

_BIT_LO = np.array([1 << p if p < 64 else 0 for p in range(WALL_SIZE)], dtype=np.uint64)
_BIT_HI = np.array([1 << (p - 64) if p >= 64 else 0 for p in range(WALL_SIZE)], dtype=np.uint64)

_BLOCK = 1 << 15


def _position_bits(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The (low word, high word) uint64 bit of each wall position p (0..107)."""
    return _BIT_LO.take(p), _BIT_HI.take(p)


def _mask_counts(mask: np.ndarray) -> np.ndarray:
    """(2, n) uint64 position masks -> (n, 27) uint8 counts (kind k = bits 4k..4k+3)."""
    n = mask.shape[1]
    x = mask - ((mask >> _ONE) & _M55)
    x = (x & _M33) + ((x >> np.uint64(2)) & _M33)  # every nibble now holds its popcount
    even = (x & _M0F).view(np.uint8).reshape(2, n, 8)
    odd = ((x >> np.uint64(4)) & _M0F).view(np.uint8).reshape(2, n, 8)
    if not np.little_endian:  # pragma: no cover - byte order of the nibbles
        even, odd = even[..., ::-1], odd[..., ::-1]
    out = np.empty((n, 32), np.uint8)
    out[:, 0:16:2] = even[0]
    out[:, 1:16:2] = odd[0]
    out[:, 16:32:2] = even[1]
    out[:, 17:32:2] = odd[1]
    return np.ascontiguousarray(out[:, :27])


def _draw_part(rng: np.random.Generator, taken: np.ndarray, size: int, wall: int) -> np.ndarray:
    """Draw ``size`` tiles per row not yet in ``taken`` (updated); their (2, n) position mask."""
    n: int = taken.shape[1]
    part = np.zeros((2, n), np.uint64)
    for _ in range(size):
        # every row draws once; the rows whose tile was already drawn draw again
        p = (rng.random(n) * wall).astype(np.intp)
        lo, hi = _position_bits(p)
        clash = ((taken[0] & lo) | (taken[1] & hi)) != 0
        lo[clash] = 0
        hi[clash] = 0
        taken[0] |= lo
        taken[1] |= hi
        part[0] |= lo
        part[1] |= hi
        rows = np.nonzero(clash)[0]
        while rows.size:
            p = (rng.random(rows.size) * wall).astype(np.intp)
            lo, hi = _position_bits(p)
            t0, t1 = taken[0, rows], taken[1, rows]
            free = ((t0 & lo) | (t1 & hi)) == 0
            ok = rows[free]
            taken[0, ok] = t0[free] | lo[free]
            taken[1, ok] = t1[free] | hi[free]
            part[0, ok] |= lo[free]
            part[1, ok] |= hi[free]
            rows = rows[~free]
    return part


def deal_split(n: int, sizes: Sequence[int], *, seed: SeedLike = None,
               wall: int = WALL_SIZE) -> list[HandsArray]:
    """Deal ``sum(sizes)`` distinct tiles per row from a shuffled wall, split into parts.

    Part i holds the ``sizes[i]`` tiles drawn after those of parts 0..i-1, as an (n, 27) uint8
    count array; the parts of a row never share a tile, so ``hand + visible <= 4`` holds for
    ``hand, visible = deal_split(n, (13, 20))``. Each tile is drawn uniformly among the tiles
    not yet drawn (sampling without replacement, vectorised over rows with a 108-bit mask per
    row and redraws on collisions). ``wall < 108`` draws from the first ``wall`` positions only
    (``72``: the kinds 1m..9p).

    >>> hand, seen = deal_split(4, (13, 20), seed=0)
    >>> hand.sum(axis=1).tolist(), seen.sum(axis=1).tolist(), int((hand + seen).max()) <= 4
    ([13, 13, 13, 13], [20, 20, 20, 20], True)
    """
    rng = _rng(seed)
    n = int(n)
    if n < 0:
        raise ValueError(f"n: expected a non-negative number of hands, got {n}")
    if not 0 < wall <= WALL_SIZE or wall % 4:
        raise ValueError(f"wall: expected a multiple of 4 in 4..{WALL_SIZE}, got {wall}")
    if any(s < 0 for s in sizes) or sum(sizes) > wall:
        raise ValueError(f"sizes: expected non-negative part sizes summing to <= {wall}, got {sizes}")
    if n > _BLOCK:  # blocks keep the masks in cache (2x faster at 10^6 rows)
        blocks = [deal_split(min(_BLOCK, n - i), sizes, seed=rng, wall=wall)
                  for i in range(0, n, _BLOCK)]
        return [np.concatenate([blk[j] for blk in blocks]) for j in range(len(sizes))]
    taken = np.zeros((2, n), np.uint64)
    return [_mask_counts(_draw_part(rng, taken, size, wall)) for size in sizes]


def deal(n: int, tiles: int = 14, *, seed: SeedLike = None) -> HandsArray:
    """``n`` random hands of ``tiles`` tiles from the 108-tile wall, as (n, 27) uint8 counts.

    Seeded (an int, a ``numpy.random.Generator`` or None for fresh entropy) and vectorised:
    about 2.5 M 14-tile hands/s on one core.
    """
    return deal_split(n, (tiles,), seed=seed)[0]


def two_suit_hands(n: int, tiles: int = 14, *, seed: SeedLike = None) -> HandsArray:
    """Random hands from the 72 tiles of two suits (the missing suit uniform per row).

    On these hands the Sichuan void rule changes nothing, so every definition of regular
    shanten agrees.

    >>> h = two_suit_hands(100, seed=4)
    >>> bool(((h.reshape(-1, 3, 9).sum(axis=2) > 0).sum(axis=1) <= 2).all())
    True
    """
    rng = _rng(seed)
    two = deal_split(n, (tiles,), seed=rng, wall=72)[0]
    dead = rng.integers(0, 3, size=n)
    out = np.zeros((n, 27), np.uint8)
    for q in range(3):
        rows = dead == q
        live = [s for s in range(3) if s != q]
        for i, s in enumerate(live):
            out[rows, 9 * s:9 * s + 9] = two[rows, 9 * i:9 * i + 9]
    return out


def _complete_kinds(rng: np.random.Generator, m: int, seven_pairs: float) -> np.ndarray:
    """(m, 14) kinds of candidate complete hands (may hold a fifth copy: the caller redraws)."""
    live = np.sort(rng.random((m, 3)).argsort(axis=1)[:, :2], axis=1)
    tile_list = []
    for _ in range(4):
        suit = live[np.arange(m), rng.integers(0, 2, size=m)]
        seq = rng.random(m) < 0.75
        rank = np.where(seq, rng.integers(0, 7, size=m), rng.integers(0, 9, size=m))
        base = 9 * suit + rank
        tile_list += [base, base + seq, base + 2 * seq]
    suit = live[np.arange(m), rng.integers(0, 2, size=m)]
    pair = 9 * suit + rng.integers(0, 9, size=m)
    tile_list += [pair, pair]
    k = np.stack(tile_list, axis=1)
    if seven_pairs:
        kinds = 9 * live[np.arange(m)[:, None], rng.integers(0, 2, size=(m, 7))]
        kinds += rng.integers(0, 9, size=(m, 7))
        k = np.where((rng.random(m) < seven_pairs)[:, None], np.repeat(kinds, 2, axis=1), k)
    return k


@overload
def complete_hands(n: int, *, seed: SeedLike = ..., return_tile: Literal[False] = ...,
                   seven_pairs: float = ...) -> HandsArray: ...
@overload
def complete_hands(n: int, *, seed: SeedLike = ..., return_tile: Literal[True],
                   seven_pairs: float = ...) -> tuple[HandsArray, Kinds]: ...
@overload
def complete_hands(n: int, *, seed: SeedLike = ..., return_tile: bool = ...,
                   seven_pairs: float = ...) -> HandsArray | tuple[HandsArray, Kinds]: ...


def complete_hands(n: int, *, seed: SeedLike = None, return_tile: bool = False,
                   seven_pairs: float = 0.0) -> HandsArray | tuple[HandsArray, Kinds]:
    """``n`` random complete 14-tile hands of at most two suits: 4 sets + a pair, or, for a
    ``seven_pairs`` share of rows, seven pairs (a kind drawn twice makes a four).

    Each set is a sequence (probability 3/4) or a triplet of a random kind in one of the two
    live suits; rows that would hold a fifth copy are redrawn. With ``return_tile`` also the
    (n,) kind of one of the 14 tiles picked uniformly (a win tile, or a tile to take out).

    >>> import mjfast
    >>> bool(mjfast.is_win(complete_hands(200, seed=3)).all())
    True
    """
    rng = _rng(seed)
    hands = np.zeros((n, 27), np.uint8)
    picked = np.zeros(n, np.int64)
    todo = np.arange(n)
    while todo.size:
        m = todo.size
        k = _complete_kinds(rng, m, seven_pairs)
        flat = (k + 27 * np.arange(m)[:, None]).ravel()
        counts = np.bincount(flat, minlength=27 * m).reshape(m, 27)
        ok = counts.max(axis=1) <= 4
        hands[todo[ok]] = counts[ok]
        picked[todo[ok]] = k[ok, rng.integers(0, 14, size=int(ok.sum()))]
        todo = todo[~ok]
    return (hands, picked) if return_tile else hands


def ready_hands(n: int, *, seed: SeedLike = None) -> HandsArray:
    """``n`` ready (听牌) 13-tile hands: a :func:`complete_hands` hand less one random tile.

    >>> import mjfast
    >>> bool((mjfast.shanten(ready_hands(200, seed=3)) == 0).all())
    True
    """
    hands, tile = complete_hands(n, seed=seed, return_tile=True)
    hands[np.arange(n), tile] -= 1
    return hands
