"""The benchmark set of mjfast, as data plus functions.

One module serves ``mjfast bench`` (and the README table it prints with ``--markdown``) and the
pytest-benchmark files in ``benchmarks/``, so both measure the same cases on the same hands.

- Hand generators: :func:`deal` (random hands from the 108-tile wall, vectorised and seeded),
  :func:`deal_split` (a hand plus tiles seen elsewhere, all from one wall), :func:`two_suit_hands`,
  :func:`complete_hands` and :func:`ready_hands` (built from sets, so every one wins / is ready).
- :data:`CASES`: one :class:`Case` per measured call, mjfast's public kernels first, then the
  optional peers (``xiangting``, ``riichienv``, ``mahjong``; each skipped when not importable).
- :func:`run_case` / :func:`run_suite` time the cases (best of several repeats) and give
  :class:`Result` rows with hands/s (calls/s for per-hand APIs) and the ratios mjfast/peer.
- :func:`format_table` / :func:`format_markdown` print them.

Peers are compared on what they compute: the riichi-style shanten of a concealed hand, without
the void rule. ``mahjong``'s ``calculate_shanten_for_regular_hand`` is the regular form alone and
must equal ``mjfast.shanten(h, form="regular", void_rule=False)``; ``xiangting`` and
``riichienv`` return the minimum over the regular form, riichi seven pairs (seven *distinct*
pairs) and thirteen orphans, which :func:`riichi_shanten` reproduces from mjfast's regular number.
Every peer is checked against that on its sample (random and two-suit hands) before it is timed;
a peer that disagrees is reported, not timed. The mjfast row the peers are compared with is
``shanten_regular``: regular form, void rule off, one worker, one batch call.

Set ``OPENBLAS_NUM_THREADS=1`` before numpy is imported when timing threads (``mjfast bench``
and ``benchmarks/conftest.py`` do): an idle OpenBLAS pool slows the kernel threads.

>>> h = deal(1000, 14, seed=1)
>>> h.shape, h.dtype.name, bool((h.sum(axis=1) == 14).all()), int(h.max()) <= 4
((1000, 27), 'uint8', True, True)
>>> bool((deal(5, 13, seed=7) == deal(5, 13, seed=7)).all())
True
"""

from __future__ import annotations

import gc
import importlib
import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional, Sequence, Union

import numpy as np

__all__ = [
    "CASES",
    "Case",
    "PeerMismatchError",
    "Result",
    "complete_hands",
    "deal",
    "deal_split",
    "find_case",
    "format_markdown",
    "format_table",
    "kokushi_shanten",
    "peer_shanten",
    "ready_hands",
    "riichi_seven_pairs_shanten",
    "riichi_shanten",
    "run_case",
    "run_suite",
    "time_call",
    "to_136_ids",
    "to_34_counts",
    "two_suit_hands",
    "verify_peer",
]

SeedLike = Union[None, int, np.random.Generator]

WALL_SIZE = 108
SEED = 2024
"""The seed of the benchmark hands (mjfast bench and benchmarks/ deal the same ones)."""
"""Tiles in the wall: 27 kinds x 4 copies (tile position p is kind p // 4)."""


def _rng(seed: SeedLike) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


# ------------------------------------------------------------------------------------------
# Dealing hands
# ------------------------------------------------------------------------------------------

_ONE = np.uint64(1)
_M55 = np.uint64(0x5555555555555555)
_M33 = np.uint64(0x3333333333333333)
_M0F = np.uint64(0x0F0F0F0F0F0F0F0F)


_BIT_LO = np.array([1 << p if p < 64 else 0 for p in range(WALL_SIZE)], dtype=np.uint64)
_BIT_HI = np.array([1 << (p - 64) if p >= 64 else 0 for p in range(WALL_SIZE)], dtype=np.uint64)


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


_BLOCK = 1 << 15


def deal_split(n: int, sizes: Sequence[int], *, seed: SeedLike = None,
               wall: int = WALL_SIZE) -> list[np.ndarray]:
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
    parts = []
    for size in sizes:
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
        parts.append(_mask_counts(part))
    return parts


def deal(n: int, tiles: int = 14, *, seed: SeedLike = None) -> np.ndarray:
    """``n`` random hands of ``tiles`` tiles from the 108-tile wall, as (n, 27) uint8 counts.

    Seeded (an int, a ``numpy.random.Generator`` or None for fresh entropy) and vectorised:
    about 2.5 M 14-tile hands/s on one core.
    """
    return deal_split(n, (tiles,), seed=seed)[0]


def two_suit_hands(n: int, tiles: int = 14, *, seed: SeedLike = None) -> np.ndarray:
    """Random hands from the 72 tiles of two suits (the missing suit uniform per row).

    On these hands the Sichuan void rule changes nothing, so every definition of regular
    shanten agrees.
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


def complete_hands(n: int, *, seed: SeedLike = None, return_tile: bool = False,
                   seven_pairs: float = 0.0) -> Union[np.ndarray, tuple[np.ndarray, np.ndarray]]:
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
        flat = (k + 27 * np.arange(m)[:, None]).ravel()
        counts = np.bincount(flat, minlength=27 * m).reshape(m, 27)
        ok = counts.max(axis=1) <= 4
        hands[todo[ok]] = counts[ok]
        picked[todo[ok]] = k[ok, rng.integers(0, 14, size=int(ok.sum()))]
        todo = todo[~ok]
    return (hands, picked) if return_tile else hands


def ready_hands(n: int, *, seed: SeedLike = None) -> np.ndarray:
    """``n`` ready (听牌) 13-tile hands: a :func:`complete_hands` hand less one random tile.

    >>> import mjfast
    >>> bool((mjfast.shanten(ready_hands(200, seed=3)) == 0).all())
    True
    """
    hands, tile = complete_hands(n, seed=seed, return_tile=True)
    hands[np.arange(n), tile] -= 1
    return hands


# ------------------------------------------------------------------------------------------
# Peer helpers
# ------------------------------------------------------------------------------------------

def to_34_counts(hands: np.ndarray) -> list[list[int]]:
    """(n, 27) counts -> per-hand 34-length count lists (honours 1z..7z all zero).

    The layout of ``xiangting`` and ``mahjong`` (``tiles_34``): indices 0-26 are mjfast's kinds.

    >>> to_34_counts(np.eye(1, 27, 13, dtype=np.uint8))[0][13], len(to_34_counts(np.zeros((1, 27), np.uint8))[0])
    (1, 34)
    """
    hands = np.asarray(hands)
    return np.hstack([hands, np.zeros((hands.shape[0], 7), hands.dtype)]).tolist()


def to_136_ids(hands: np.ndarray) -> list[list[int]]:
    """(n, 27) counts of equal-size hands -> per-hand lists of tile ids ``4 * kind + copy``.

    The 136-tile id layout ``riichienv.calculate_shanten`` takes (as its ``parse_hand`` gives).

    >>> to_136_ids(np.array([[2] + [0] * 12 + [1] + [0] * 13], np.uint8))
    [[0, 1, 52]]
    """
    hands = np.asarray(hands)
    n = hands.shape[0]
    if n == 0:
        return []
    sizes = hands.sum(axis=1)
    if not (sizes == sizes[0]).all():
        raise ValueError("to_136_ids: hands must all hold the same number of tiles")
    c = hands.ravel().astype(np.intp)
    kinds = np.repeat(np.tile(np.arange(27), n), c)
    copy = np.arange(kinds.size) - np.repeat(np.cumsum(c) - c, c)
    return (4 * kinds + copy).reshape(n, int(sizes[0])).tolist()


def riichi_seven_pairs_shanten(hands: np.ndarray) -> np.ndarray:
    """Riichi seven pairs shanten (seven *distinct* pairs) of (n, 27) 13/14-tile hands.

    ``6 - pairs + max(0, 7 - kinds held)``; unlike Sichuan's, four of a kind is one pair.
    """
    hands = np.asarray(hands)
    pairs = (hands >= 2).sum(axis=1)
    kinds = (hands >= 1).sum(axis=1)
    return (6 - pairs + np.maximum(0, 7 - kinds)).astype(np.int64)


def kokushi_shanten(hands: np.ndarray) -> np.ndarray:
    """Thirteen orphans shanten of suit-only hands: ``13 - terminal kinds - (a terminal pair)``."""
    t = np.asarray(hands)[:, [0, 8, 9, 17, 18, 26]]
    return (13 - (t >= 1).sum(axis=1) - (t >= 2).any(axis=1)).astype(np.int64)


def riichi_shanten(hands: np.ndarray) -> np.ndarray:
    """What the riichi peers' overall shanten must be on suit-only hands, from mjfast.

    ``min(mjfast.shanten(h, form="regular", void_rule=False), riichi seven pairs, kokushi)``.
    """
    import mjfast

    regular = mjfast.shanten(np.ascontiguousarray(hands, dtype=np.uint8), form="regular",
                             void_rule=False).astype(np.int64)
    return np.minimum(regular, np.minimum(riichi_seven_pairs_shanten(hands), kokushi_shanten(hands)))


@dataclass(frozen=True)
class _Peer:
    """How to call one peer: module, input conversion, the per-hand call, what to compare with."""

    name: str
    what: str                                     # the peer function, for the report
    prepare: Callable[[np.ndarray], list]         # (n, 27) counts -> per-hand inputs
    make_call: Callable[[Any], Callable[[Any], int]]  # module -> per-hand shanten function
    expected: Callable[[np.ndarray], np.ndarray]  # (n, 27) -> what the peer must return


def _regular_novoid(hands: np.ndarray) -> np.ndarray:
    import mjfast

    return mjfast.shanten(np.ascontiguousarray(hands, dtype=np.uint8), form="regular",
                          void_rule=False).astype(np.int64)


def _xiangting_call(mod: Any) -> Callable[[list], int]:
    calc, four = mod.calculate_replacement_number, mod.PlayerCount.FOUR
    return lambda h: calc(h, four) - 1


def _mahjong_call(mod: Any) -> Callable[[list], int]:
    return mod.Shanten().calculate_shanten_for_regular_hand


PEERS: dict[str, _Peer] = {
    "xiangting": _Peer("xiangting", "xiangting.calculate_replacement_number(counts34, PlayerCount.FOUR) - 1",
                       to_34_counts, _xiangting_call, riichi_shanten),
    "riichienv": _Peer("riichienv", "riichienv.calculate_shanten(tile_ids_136)",
                       to_136_ids, lambda mod: mod.calculate_shanten, riichi_shanten),
    "mahjong": _Peer("mahjong", "mahjong.shanten.Shanten().calculate_shanten_for_regular_hand(counts34)",
                     to_34_counts, _mahjong_call, _regular_novoid),
}
_PEER_MODULES = {"xiangting": "xiangting", "riichienv": "riichienv", "mahjong": "mahjong.shanten"}


def _peer_module(name: str) -> Any:
    return importlib.import_module(_PEER_MODULES[name])


def _peer_version(name: str) -> str:
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:  # pragma: no cover - metadata missing
        return "?"


def peer_available(name: str) -> Optional[str]:
    """None when peer ``name`` can be imported, else the reason it cannot."""
    try:
        _peer_module(name)
    except Exception as exc:  # any import failure means "skip this peer"
        return f"{name} not importable ({type(exc).__name__}: {exc}); pip install 'mjfast[peers]'"
    return None


def peer_shanten(name: str, hands: np.ndarray) -> np.ndarray:
    """Peer ``name``'s shanten of each (n, 27) hand, called one hand at a time."""
    peer = PEERS[name]
    call = peer.make_call(_peer_module(name))
    return np.array([call(h) for h in peer.prepare(hands)], dtype=np.int64)


class PeerMismatchError(AssertionError):
    """A peer disagrees with what mjfast says it must return (see :func:`verify_peer`)."""


def verify_peer(name: str, hands: np.ndarray) -> int:
    """Check peer ``name`` on ``hands`` against mjfast; return the number of hands checked.

    ``xiangting`` and ``riichienv`` must equal :func:`riichi_shanten`; ``mahjong``'s
    regular-hand call must equal ``mjfast.shanten(h, form="regular", void_rule=False)``.

    Raises:
        PeerMismatchError: naming how many hands disagree and the first one.
    """
    from mjfast import format_hand

    got = peer_shanten(name, hands)
    want = PEERS[name].expected(hands)
    bad = np.nonzero(got != want)[0]
    if bad.size:
        i = int(bad[0])
        raise PeerMismatchError(
            f"{name} disagrees with mjfast on {bad.size} of {len(hands)} hands; first: "
            f"{format_hand(hands[i])} gives {int(got[i])}, mjfast says {int(want[i])}")
    return len(hands)


# ------------------------------------------------------------------------------------------
# Cases
# ------------------------------------------------------------------------------------------

_DATA: dict[tuple, Any] = {}


def _cached(key: tuple, make: Callable[[], Any]) -> Any:
    if key not in _DATA:
        _DATA[key] = make()
    return _DATA[key]


def clear_cache() -> None:
    """Forget the hands the cases dealt (they are shared between cases of one run)."""
    _DATA.clear()


def _random(n: int, seed: int, tiles: int = 14) -> np.ndarray:
    return _cached(("random", n, seed, tiles), lambda: deal(n, tiles, seed=seed))


def _ready(n: int, seed: int) -> np.ndarray:
    return _cached(("ready", n, seed), lambda: ready_hands(n, seed=seed))


def _complete(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    return _cached(("complete", n, seed), lambda: complete_hands(n, seed=seed, return_tile=True))


@dataclass(frozen=True)
class Case:
    """One measured call.

    ``setup(n, seed)`` builds the arguments (not timed); ``run(*args)`` is timed. ``unit`` says
    what ``n`` counts: ``"hands/s"`` for a batch call over n hands, ``"calls/s"`` for n calls
    of a per-hand API. ``compare`` names the case this one is compared with: for a peer,
    the ratio reported is ``rate(compare) / rate(this)`` (mjfast/peer); for a mjfast case, it
    is ``rate(this) / rate(compare)`` (e.g. the speed-up of workers=2 over workers=1).
    ``available()`` returns None, or why the case is skipped.
    """

    name: str
    title: str
    setup: Callable[[int, int], tuple]
    run: Callable[..., Any]
    size: int
    quick: int
    unit: str = "hands/s"
    peer: Optional[str] = None
    compare: Optional[str] = None
    available: Callable[[], Optional[str]] = lambda: None
    repeats: int = 5
    group: str = "core"

    def sizes(self, quick: bool) -> int:
        """Hands (or calls) per timed run: ``quick`` or the full size."""
        return self.quick if quick else self.size


@dataclass
class Result:
    """The measurement of one case (``rate`` in ``unit``; ``ratio`` as :class:`Case` says)."""

    name: str
    title: str
    n: int
    seconds: float
    rate: float
    unit: str
    peer: Optional[str] = None
    compare: Optional[str] = None
    ratio: Optional[float] = None
    skipped: Optional[str] = None
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        """A JSON-ready dict."""
        return {"name": self.name, "title": self.title, "n": self.n, "seconds": self.seconds,
                "rate": self.rate, "unit": self.unit, "peer": self.peer,
                "compare": self.compare, "ratio": self.ratio, "skipped": self.skipped,
                **({"extra": self.extra} if self.extra else {})}


def _mj():
    import mjfast

    return mjfast


def _setup_hands(tiles: int = 14) -> Callable[[int, int], tuple]:
    return lambda n, seed: (_random(n, seed, tiles),)


def _setup_effective(n: int, seed: int) -> tuple:
    def make() -> tuple:
        hand, seen = deal_split(n, (13, 20), seed=seed + 1)
        return hand, seen
    return _cached(("effective", n, seed), make)


def _setup_single(n: int, seed: int) -> tuple:
    hands = _random(n, seed)
    return ([hands[i].copy() for i in range(n)],)


def _run_single(rows: list) -> None:
    f = _mj().shanten
    for h in rows:
        f(h)


def _setup_workers(n: int, seed: int) -> tuple:
    return (_random(n, seed + 2),)


def _setup_fan_batch(n: int, seed: int) -> tuple:
    hands, tile = _complete(n, seed)
    return hands, tile


def _setup_score(n: int, seed: int) -> tuple:
    hands, tile = _complete(n, seed)
    return ([(hands[i], int(tile[i])) for i in range(n)],)


def _run_score(items: list) -> None:
    score = _mj().score
    for hand, win in items:
        score(hand, win_tile=win)


def _setup_max_fan(n: int, seed: int) -> tuple:
    hands = _ready(n, seed)
    return ([hands[i] for i in range(n)],)


def _run_max_fan(rows: list) -> None:
    max_fan = _mj().max_fan
    for h in rows:
        max_fan(h)


def _peer_setup(name: str) -> Callable[[int, int], tuple]:
    def setup(n: int, seed: int) -> tuple:
        hands = _random(n, seed)
        # check on this sample and on two-suit hands before timing
        verify_peer(name, hands[: min(n, 20000)])
        verify_peer(name, two_suit_hands(min(n, 2000), seed=seed + 3))
        peer = PEERS[name]
        return peer.make_call(_peer_module(name)), peer.prepare(hands)
    return setup


def _peer_run(call: Callable[[Any], int], inputs: list) -> None:
    for h in inputs:
        call(h)


M = 1_000_000

CASES: tuple[Case, ...] = (
    Case("shanten", "shanten, Sichuan rules (all forms, void rule), 14 tiles, 1 worker",
         _setup_hands(), lambda h: _mj().shanten(h), M, 100_000),
    Case("shanten_regular", "shanten form='regular', void_rule=False (the peers' quantity)",
         _setup_hands(), lambda h: _mj().shanten(h, form="regular", void_rule=False), M, 100_000),
    Case("is_win", "is_win, random 14-tile hands", _setup_hands(), lambda h: _mj().is_win(h),
         M, 100_000),
    Case("waits", "waits, ready 13-tile hands", lambda n, s: (_ready(n, s),),
         lambda h: _mj().waits(h), M, 100_000),
    Case("effective_tiles", "effective_tiles with visible, 13-tile hands", _setup_effective,
         lambda h, v: _mj().effective_tiles(h, visible=v), 200_000, 20_000),
    Case("discards", "discards, 14-tile hands", _setup_hands(), lambda h: _mj().discards(h),
         200_000, 20_000),
    Case("shanten_4m_w1", "shanten, big batch (4M hands), workers=1", _setup_workers,
         lambda h: _mj().shanten(h, workers=1), 4 * M, 1_000_000, repeats=3, group="threads"),
    Case("shanten_4m_w2", "shanten, big batch (4M hands), workers=2", _setup_workers,
         lambda h: _mj().shanten(h, workers=2), 4 * M, 1_000_000, repeats=3,
         compare="shanten_4m_w1", group="threads"),
    Case("shanten_single", "shanten of one (27,) uint8 array per call", _setup_single,
         _run_single, 20_000, 2_000, unit="calls/s", group="single"),
    Case("fan_batch", "fan_batch.fan, complete 14-tile hands (per-row win tile)",
         _setup_fan_batch, lambda h, w: _mj().fan(h, w), 1_000_000, 100_000, group="scoring"),
    Case("max_fan_batch", "fan_batch.max_fan (大叫), ready 13-tile hands",
         lambda n, s: (_ready(n, s),), lambda h: _mj().max_fan(h), 200_000, 20_000,
         group="scoring"),
    Case("max_fan", "scoring.max_fan (大叫) per ready 13-tile hand", _setup_max_fan,
         _run_max_fan, 2_000, 300, unit="calls/s", repeats=3, group="scoring"),
    Case("score", "scoring.score per complete 14-tile hand", _setup_score, _run_score,
         10_000, 1_000, unit="calls/s", repeats=3, group="scoring"),
    Case("peer_riichienv", "riichienv.calculate_shanten, one call per hand",
         _peer_setup("riichienv"), _peer_run, 200_000, 20_000, peer="riichienv",
         compare="shanten_regular", available=lambda: peer_available("riichienv"), repeats=3,
         group="peers"),
    Case("peer_xiangting", "xiangting.calculate_replacement_number, one call per hand",
         _peer_setup("xiangting"), _peer_run, 100_000, 10_000, peer="xiangting",
         compare="shanten_regular", available=lambda: peer_available("xiangting"), repeats=3,
         group="peers"),
    Case("peer_mahjong", "mahjong Shanten.calculate_shanten_for_regular_hand (pure Python)",
         _peer_setup("mahjong"), _peer_run, 2_000, 300, peer="mahjong",
         compare="shanten_regular", available=lambda: peer_available("mahjong"), repeats=3,
         group="peers"),
)
"""Every benchmark case, in report order (peers last)."""


def find_case(name: str) -> Case:
    """The case called ``name``."""
    for case in CASES:
        if case.name == name:
            return case
    raise KeyError(f"no benchmark case {name!r}; cases: {', '.join(c.name for c in CASES)}")


# ------------------------------------------------------------------------------------------
# Timing
# ------------------------------------------------------------------------------------------

def time_call(fn: Callable[..., Any], args: tuple = (), *, repeats: int = 5) -> float:
    """Best wall time in seconds of ``fn(*args)`` over ``repeats`` runs (after one warm-up).

    The garbage collector is off while timing, as in :mod:`timeit`.
    """
    fn(*args)
    best = float("inf")
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        for _ in range(max(1, repeats)):
            t0 = time.perf_counter()
            fn(*args)
            best = min(best, time.perf_counter() - t0)
    finally:
        if gc_was_on:
            gc.enable()
    return best


def run_case(case: Case, *, quick: bool = False, n: Optional[int] = None, seed: int = SEED,
             repeats: Optional[int] = None) -> Result:
    """Set up and time one case.

    A case that is unavailable, a peer that disagrees with mjfast, or a case that raises gives
    a Result with ``skipped`` saying why (the report lists it) instead of an exception.
    """
    n = case.sizes(quick) if n is None else int(n)
    reason = case.available()
    if reason:
        return Result(case.name, case.title, n, 0.0, 0.0, case.unit, case.peer, case.compare,
                      skipped=reason)
    extra: dict = {}
    reps = case.repeats if repeats is None else repeats
    if quick and repeats is None:
        reps = min(reps, 3)
    try:
        args = case.setup(n, seed)
        seconds = time_call(case.run, args, repeats=reps)
    except PeerMismatchError as exc:
        return Result(case.name, case.title, n, 0.0, 0.0, case.unit, case.peer, case.compare,
                      skipped=str(exc))
    except Exception as exc:  # one broken case must not stop the report
        return Result(case.name, case.title, n, 0.0, 0.0, case.unit, case.peer, case.compare,
                      skipped=f"failed: {type(exc).__name__}: {exc}")
    if case.peer:
        extra["api"] = PEERS[case.peer].what
        extra["version"] = _peer_version(case.peer)
    return Result(case.name, case.title, n, seconds, n / seconds if seconds > 0 else float("inf"),
                  case.unit, case.peer, case.compare, extra=extra)


def _fill_ratios(results: list[Result]) -> None:
    by_name = {r.name: r for r in results if not r.skipped}
    for r in results:
        base = by_name.get(r.compare) if r.compare else None
        if r.skipped or base is None or not r.rate or not base.rate:
            continue
        r.ratio = base.rate / r.rate if r.peer else r.rate / base.rate


def run_suite(*, quick: bool = False, names: Optional[Iterable[str]] = None, seed: int = SEED,
              progress: Optional[Callable[[Case], None]] = None) -> list[Result]:
    """Run the cases (all, or those in ``names``, plus the cases they compare with).

    ``progress(case)`` is called before each case. Ratios are filled in from the same run.
    """
    wanted = list(CASES) if names is None else [find_case(name) for name in names]
    chosen = {c.name for c in wanted}
    for c in list(wanted):
        if c.compare and c.compare not in chosen:
            chosen.add(c.compare)
    cases = [c for c in CASES if c.name in chosen]
    results = []
    try:
        for case in cases:
            if progress is not None:
                progress(case)
            results.append(run_case(case, quick=quick, seed=seed))
    finally:
        clear_cache()
    _fill_ratios(results)
    return results


# ------------------------------------------------------------------------------------------
# Reports
# ------------------------------------------------------------------------------------------

def rate_text(rate: float) -> str:
    """A rate for people: ``12.34 M``, ``56.7 k`` or ``89``."""
    if rate >= 1e6:
        return f"{rate / 1e6:.2f} M"
    if rate >= 1e3:
        return f"{rate / 1e3:.1f} k"
    return f"{rate:.0f}"


def _ratio_text(r: Result) -> str:
    if r.ratio is None:
        return ""
    if r.peer:
        return f"mjfast x{r.ratio:.1f}"
    return f"x{r.ratio:.2f} vs {r.compare}"


def format_table(results: Sequence[Result]) -> str:
    """A plain-text table: case, size, rate and ratio; skipped cases last, with the reason."""
    rows = [("case", "n", "rate", "ratio", "what")]
    for r in results:
        if r.skipped:
            continue
        rows.append((r.name, f"{r.n:,}", f"{rate_text(r.rate)} {r.unit}", _ratio_text(r), r.title))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = []
    for i, row in enumerate(rows):
        cells = [row[0].ljust(widths[0]), row[1].rjust(widths[1]), row[2].rjust(widths[2]),
                 row[3].ljust(widths[3]), row[4]]
        lines.append("  ".join(cells).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths) + "  " + "-" * 4)
    skipped = [r for r in results if r.skipped]
    for r in skipped:
        lines.append(f"skipped {r.name}: {r.skipped}")
    peers = [r for r in results if r.peer and not r.skipped]
    if peers:
        lines.append("")
        lines.append("peers (ratio = mjfast shanten_regular rate / peer rate, measured in this run on random "
                     "14-tile hands; each peer checked against mjfast first):")
        for r in peers:
            lines.append(f"  {r.peer} {r.extra.get('version', '?')}: {r.extra.get('api', '')}")
    return "\n".join(lines)


def format_markdown(results: Sequence[Result]) -> str:
    """The README table (Markdown) of the same results."""
    lines = ["| case | what | n | rate | ratio |", "|---|---|---:|---:|---|"]
    for r in results:
        if r.skipped:
            continue
        lines.append(f"| `{r.name}` | {r.title} | {r.n:,} | {rate_text(r.rate)} {r.unit} | "
                     f"{_ratio_text(r)} |")
    return "\n".join(lines)


def machine_info() -> dict:
    """CPU count, numpy version and the OpenBLAS thread setting, for the report header."""
    import platform

    return {"cpus": os.cpu_count(), "python": platform.python_version(),
            "numpy": np.__version__, "machine": platform.machine(),
            "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS")}
