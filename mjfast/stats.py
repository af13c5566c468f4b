"""Statistics of random dealt hands: the engine behind ``mjfast stats``.

:func:`run_stats` deals hands from the 108-tile wall with :func:`mjfast.datagen.deal`, in chunks
of :data:`STATS_CHUNK` so memory stays bounded, and tallies the shanten distribution (with and
without the void rule), the ready rate, the mean number of waits and of effective tiles and,
for 14 tiles, the complete dealt hands (天胡). Each chunk is seeded from ``seed`` on its own, so
the result does not depend on ``workers``.

>>> doc = run_stats(2000, 13, seed=1)
>>> doc["hands"], sum(doc["shanten"]["void_rule"].values()), doc["complete_rate"]
(2000, 2000, None)
"""

from __future__ import annotations

import concurrent.futures as cf
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from mjfast import analysis, efficiency
from mjfast._args import as_int, as_workers
from mjfast.datagen import WALL_SIZE, deal

__all__ = ["STATS_CHUNK", "run_stats"]

STATS_CHUNK = 1 << 16
"""Hands per chunk: each chunk is dealt from its own seed and tallied on its own."""
_HIST = 129  # shanten -1..127 -> bins 0..128

Tally = dict[str, Any]
"""The tallies of one chunk: sums and histograms, so that chunks add up."""


def _popcount32(a: np.ndarray) -> np.ndarray:
    if hasattr(np, "bitwise_count"):  # numpy >= 2.0
        return np.bitwise_count(a)
    return np.unpackbits(a.astype("<u4").view(np.uint8).reshape(-1, 4), axis=1).sum(axis=1)


def _waits_sum(hands: np.ndarray) -> int:
    """The total number of waiting kinds of ready 13-tile hands."""
    return int(_popcount32(np.asarray(analysis.waits(hands))).sum()) if hands.shape[0] else 0


def _tally_13(hands: np.ndarray, s_void: np.ndarray) -> Tally:
    ready = s_void == 0
    eff = efficiency.effective_tiles(hands)
    return {
        "waits_sum": _waits_sum(hands[ready]),
        "waits_hands": int(ready.sum()),
        "eff_kinds": int((eff >= 0).sum()),
        "eff_copies": int(np.where(eff > 0, eff, 0).sum(dtype=np.int64)),
    }


def _best_discards(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The first choice of :func:`mjfast.advise` for every 14-tile hand, vectorised.

    The ranking key is advise's (shanten after, most copies left, lowest kind), packed into one
    int per candidate so that a max per row picks it; test_cli holds the two together.
    Returns (shanten after, discarded kind, effective copies left, effective kinds) per hand.
    """
    after = efficiency.discards(hands)
    after = np.where(after == efficiency.NOT_HELD, np.int8(127), after)
    best = after.min(axis=1)
    rows, kinds = np.nonzero(after == best[:, None])
    m = rows.size
    rest = hands[rows]
    rest[np.arange(m), kinds] -= 1
    seen = np.zeros_like(rest)
    seen[np.arange(m), kinds] = 1  # the discarded copy is seen, as in advise
    eff = efficiency.effective_tiles(rest, visible=seen)
    copies = np.where(eff > 0, eff, 0).sum(axis=1, dtype=np.int64)
    nkinds = (eff >= 0).sum(axis=1).astype(np.int64)
    key = copies * 1024 + (31 - kinds.astype(np.int64)) * 32 + nkinds
    starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
    top = np.maximum.reduceat(key, starts)  # one group per row, in row order
    return best, 31 - (top // 32) % 32, top // 1024, top % 32


def _tally_14(hands: np.ndarray) -> Tally:
    best, chosen, copies, nkinds = _best_discards(hands)
    ready = best <= 0
    r13 = hands[ready]
    r13[np.arange(r13.shape[0]), chosen[ready]] -= 1
    return {
        "eff_copies": int(copies.sum()),
        "eff_kinds": int(nkinds.sum()),
        "waits_hands": int(ready.sum()),
        "waits_sum": _waits_sum(r13),
    }


def _stats_chunk(n: int, tiles: int, seed: np.random.SeedSequence) -> Tally:
    """Deal ``n`` hands and return the tallies of one chunk."""
    hands = deal(n, tiles, seed=np.random.Generator(np.random.PCG64(seed)))
    s_void = np.asarray(analysis.shanten(hands))
    s_free = np.asarray(analysis.shanten(hands, void_rule=False))
    t: Tally = {
        "void": np.bincount(s_void.astype(np.int64) + 1, minlength=_HIST),
        "free": np.bincount(s_free.astype(np.int64) + 1, minlength=_HIST),
    }
    t.update(_tally_13(hands, s_void) if tiles == 13 else _tally_14(hands))
    return t


def _add(total: Tally, t: Tally) -> None:
    for key, value in t.items():
        total[key] = total[key] + value if key in total else value


def _run_chunks(jobs: Iterable[tuple[int, np.random.SeedSequence]], tiles: int, workers: int,
                progress: Callable[[int], None] | None) -> Tally:
    """Tally every ``(size, seed)`` chunk, in threads when ``workers > 1``."""
    total: Tally = {}
    done = 0
    if workers <= 1:
        for size, sq in jobs:
            _add(total, _stats_chunk(size, tiles, sq))
            done += size
            if progress:
                progress(done)
        return total
    with cf.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="mjfast-stats") as pool:
        futures = {pool.submit(_stats_chunk, size, tiles, sq): size for size, sq in jobs}
        try:
            for fut in cf.as_completed(futures):
                _add(total, fut.result())
                done += futures[fut]
                if progress:
                    progress(done)
        except BaseException:  # an error or ^C: do not wait for the chunks not started
            for fut in futures:
                fut.cancel()
            raise
    return total


def _hist_doc(hist: np.ndarray) -> dict[str, int]:
    return {str(i - 1): int(c) for i, c in enumerate(hist) if c}


def _summary(total: Tally, hands: int, tiles: int) -> dict[str, Any]:
    """The JSON-ready statistics of the summed tallies (without the run's own fields)."""
    void, free = total["void"], total["free"]
    values = np.arange(_HIST) - 1

    def mean(h: np.ndarray) -> float:
        return float((h * values).sum() / max(1, h.sum()))

    def rate(h: np.ndarray, bins: slice) -> float:
        return float(h[bins].sum() / hands)

    # 13 tiles: ready = shanten 0; 14 tiles: shanten -1 or 0 (ready after a discard)
    ready = slice(1, 2) if tiles == 13 else slice(0, 2)
    waits_hands = total["waits_hands"]
    return {
        "shanten": {"void_rule": _hist_doc(void), "no_void_rule": _hist_doc(free)},
        "mean_shanten": {"void_rule": mean(void), "no_void_rule": mean(free)},
        "ready_rate": {"void_rule": rate(void, ready), "no_void_rule": rate(free, ready)},
        "complete_rate": ({"void_rule": rate(void, slice(0, 1)),
                           "no_void_rule": rate(free, slice(0, 1))} if tiles == 14 else None),
        "complete_hands": int(void[0]) if tiles == 14 else None,
        "ready_hands": waits_hands,
        "mean_waits": total["waits_sum"] / waits_hands if waits_hands else None,
        "mean_effective": {"kinds": total["eff_kinds"] / hands,
                           "tiles": total["eff_copies"] / hands},
    }


def run_stats(hands: int, tiles: int = 14, *, seed: int | None = None, workers: int = 1,
              progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Deal ``hands`` random hands of ``tiles`` (13 or 14) tiles and return their statistics.

    Args:
        hands: how many hands to deal (a positive int).
        tiles: 14 (the dealer's hand: effective tiles and waits after the best discard, ranked
            like :func:`mjfast.advise`) or 13.
        seed: a non-negative int; None for a fresh one (reported in the result).
        workers: threads (a positive int, or -1 for every core); the result does not depend
            on it.
        progress: called with the number of hands done after each chunk.

    Returns:
        a JSON-ready dict: ``shanten`` histograms (``void_rule`` / ``no_void_rule``, keyed by
        shanten as text), ``mean_shanten``, ``ready_rate``, ``complete_rate`` and
        ``complete_hands`` (14 tiles, else None), ``ready_hands``, ``mean_waits``,
        ``mean_effective`` (``kinds``, ``tiles``), the run (``hands``, ``tiles``, ``seed``,
        ``workers``, ``wall``) and its speed (``seconds``, ``hands_per_s``).

    Raises:
        InvalidArgumentError: an argument outside its accepted set.
    """
    hands = as_int(hands, "hands", minimum=1)
    tiles = as_int(tiles, "tiles", minimum=13, maximum=14)
    seed = secrets.randbits(32) if seed is None else as_int(seed, "seed", minimum=0)
    workers = as_workers(workers)
    sizes = [min(STATS_CHUNK, hands - i) for i in range(0, hands, STATS_CHUNK)]
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))
    t0 = time.perf_counter()
    total = _run_chunks(zip(sizes, seeds), tiles, workers, progress)
    seconds = time.perf_counter() - t0
    return {
        "hands": hands, "tiles": tiles, "seed": seed, "workers": workers, "wall": WALL_SIZE,
        **_summary(total, hands, tiles),
        "seconds": seconds, "hands_per_s": hands / seconds if seconds > 0 else None,
    }
