"""Statistics of random dealt hands: the engine behind ``mjfast stats``.

:func:`run_stats` deals hands from the 108-tile wall in chunks of :data:`STATS_CHUNK`; one C loop
per chunk (``src/mjfast_stats.h``, GIL released) deals each hand and tallies the shanten
distribution (with and without the void rule), the ready rate, the mean number of waits and of
effective tiles and, for 14 tiles, the complete dealt hands (天胡). No array is built: memory
stays constant whatever the number of hands.

Each chunk draws from its own generator, xoshiro256** seeded from the run's seed and the chunk's
number, so the result depends on the seed alone, not on ``workers`` or on the order in which
threads finish. (This sample stream replaced the numpy dealer of :mod:`mjfast.datagen` in the
issue-11 release, at about 20x the speed; since the main job's later speed-up each generator
output gives three 21-bit draws, so a seed deals other hands than in earlier releases.)
:func:`chunk_hands` returns the hands a chunk deals.

>>> doc = run_stats(2000, 13, seed=1)
>>> doc["hands"], sum(doc["shanten"]["void_rule"].values()), doc["complete_rate"]
(2000, 2000, None)
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mjfast._args import as_callback, as_int, as_workers
from mjfast._core import _stats
from mjfast._deprecated import renamed
from mjfast.datagen import WALL_SIZE

__all__ = ["STATS_CHUNK", "chunk_hands", "run_stats"]

STATS_CHUNK = 1 << 16
"""Hands per chunk: each chunk is dealt from its own generator and tallied on its own."""

_AHEAD = 2
"""Chunks queued per worker thread: enough to keep the threads busy, few enough that an
interrupt (or an error) stops the run within about one chunk's time."""

Progress = Callable[[int], None]


def _key(seed: int) -> int:
    """The 64-bit generator key of a seed (seeds from 2**64 up are hashed)."""
    if seed < 1 << 64:
        return seed
    raw = seed.to_bytes((seed.bit_length() + 7) // 8, "little")
    return int.from_bytes(hashlib.blake2b(raw, digest_size=8).digest(), "little")


@renamed(hands="n_hands")
def chunk_hands(seed: int, tiles: int = 14, chunk: int = 0, n_hands: int = STATS_CHUNK
                ) -> np.ndarray:
    """The first ``n_hands`` hands that chunk ``chunk`` of ``run_stats(..., seed=seed)`` deals,
    as an (n_hands, 27) uint8 array (chunk i holds hands i * STATS_CHUNK onwards of the run).

    >>> h = chunk_hands(7, 13, n_hands=3)
    >>> h.shape, h.sum(axis=1).tolist()
    ((3, 27), [13, 13, 13])
    """
    seed = as_int(seed, "seed", minimum=0)
    tiles = as_int(tiles, "tiles", minimum=13, maximum=14)
    chunk = as_int(chunk, "chunk", minimum=0, maximum=(1 << 64) - 1)
    n = as_int(n_hands, "n_hands", minimum=0, maximum=STATS_CHUNK)
    out = np.empty((n, 27), np.uint8)
    _stats.deal_rows(_key(seed), chunk, tiles, out)
    return out


@dataclass
class _Tally:
    """Sums over the chunks done: histograms by distance (shanten + 1) and counters."""

    void: list[int] = field(default_factory=lambda: [0] * _stats.BINS)
    free: list[int] = field(default_factory=lambda: [0] * _stats.BINS)
    eff_kinds: int = 0
    eff_copies: int = 0
    waits_hands: int = 0
    waits_sum: int = 0

    def add(self, chunk: tuple[list[int], list[int], int, int, int, int]) -> None:
        void, free, eff_kinds, eff_copies, waits_hands, waits_sum = chunk
        self.void = [a + b for a, b in zip(self.void, void)]
        self.free = [a + b for a, b in zip(self.free, free)]
        self.eff_kinds += eff_kinds
        self.eff_copies += eff_copies
        self.waits_hands += waits_hands
        self.waits_sum += waits_sum


def _size(hands: int, chunk: int) -> int:
    return min(STATS_CHUNK, hands - chunk * STATS_CHUNK)


def _run_chunks(key: int, hands: int, tiles: int, workers: int,
                progress: Progress | None) -> _Tally:
    """Tally every chunk, in threads when ``workers > 1``.

    At most ``_AHEAD * workers`` chunks are queued at a time: on an interrupt or an error the
    queued ones are cancelled and only the running ones finish (a few milliseconds each).
    """
    total, done, count = _Tally(), 0, -(-hands // STATS_CHUNK)
    if workers <= 1:
        for i in range(count):
            total.add(_stats.run_chunk(key, i, _size(hands, i), tiles))
            done += _size(hands, i)
            if progress:
                progress(done)
        return total
    with cf.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="mjfast-stats") as pool:
        pending: dict[cf.Future[Any], int] = {}
        submitted = 0
        try:
            while submitted < count or pending:
                while submitted < count and len(pending) < _AHEAD * workers:
                    size = _size(hands, submitted)
                    pending[pool.submit(_stats.run_chunk, key, submitted, size, tiles)] = size
                    submitted += 1
                finished, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for fut in finished:
                    total.add(fut.result())
                    done += pending.pop(fut)
                    if progress:
                        progress(done)
        except BaseException:  # an error or ^C: drop the queued chunks, let the running ones end
            for fut in pending:
                fut.cancel()
            raise
    return total


def _hist_doc(hist: list[int]) -> dict[str, int]:
    """Histogram by distance -> {shanten as text: hands}."""
    return {str(d - 1): c for d, c in enumerate(hist) if c}


def _summary(total: _Tally, hands: int, tiles: int) -> dict[str, Any]:
    """The JSON-ready statistics of the summed tallies (without the run's own fields)."""
    void, free = total.void, total.free

    def mean(h: list[int]) -> float:
        return sum((d - 1) * c for d, c in enumerate(h)) / max(1, sum(h))

    def rate(h: list[int], bins: slice) -> float:
        return sum(h[bins]) / hands

    # 13 tiles: ready = shanten 0; 14 tiles: shanten -1 or 0 (ready after a discard)
    ready = slice(1, 2) if tiles == 13 else slice(0, 2)
    waits_hands = total.waits_hands
    return {
        "shanten": {"void_rule": _hist_doc(void), "no_void_rule": _hist_doc(free)},
        "mean_shanten": {"void_rule": mean(void), "no_void_rule": mean(free)},
        "ready_rate": {"void_rule": rate(void, ready), "no_void_rule": rate(free, ready)},
        "complete_rate": ({"void_rule": rate(void, slice(0, 1)),
                           "no_void_rule": rate(free, slice(0, 1))} if tiles == 14 else None),
        "complete_hands": void[0] if tiles == 14 else None,
        "ready_hands": waits_hands,
        "mean_waits": total.waits_sum / waits_hands if waits_hands else None,
        "mean_effective": {"kinds": total.eff_kinds / hands, "tiles": total.eff_copies / hands},
    }


@renamed(hands="n_hands")
def run_stats(n_hands: int, tiles: int = 14, *, seed: int | None = None, workers: int = 1,
              progress: Progress | None = None) -> dict[str, Any]:
    """Deal ``n_hands`` random hands of ``tiles`` (13 or 14) tiles and return their
    statistics.

    Args:
        n_hands: how many hands to deal (a positive int).
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
    hands = as_int(n_hands, "n_hands", minimum=1)
    tiles = as_int(tiles, "tiles", minimum=13, maximum=14)
    seed = secrets.randbits(32) if seed is None else as_int(seed, "seed", minimum=0)
    workers = as_workers(workers)
    as_callback(progress, "progress")
    t0 = time.perf_counter()
    total = _run_chunks(_key(seed), hands, tiles, workers, progress)
    seconds = time.perf_counter() - t0
    return {
        "hands": hands, "tiles": tiles, "seed": seed, "workers": workers, "wall": WALL_SIZE,
        **_summary(total, hands, tiles),
        "seconds": seconds, "hands_per_s": hands / seconds if seconds > 0 else None,
    }
