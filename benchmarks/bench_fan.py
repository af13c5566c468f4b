"""Benchmarks of the batch fan kernels (pytest-benchmark): hands per second.

    pytest benchmarks/bench_fan.py --benchmark-only        # timings (+ hands/s in extra_info)
    python benchmarks/bench_fan.py                          # a plain hands/s table

Inputs: random winning hands (four random sets of one or two suits plus a pair, 15% seven
pairs; every count <= 4) with a random held tile as the win tile, and ready hands made from
them by removing one tile. Targets (one worker): ``fan`` >= 5 M winning hands/s, ``max_fan``
>= 1 M ready hands/s. The single-hand Python scorer is timed on a small sample for the ratio.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # numpy's pool must not compete with ours

import time  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from mjfast import _benchsuite, scoring  # noqa: E402
from mjfast.fan_batch import fan, max_fan  # noqa: E402
from mjfast.rules import Rules  # noqa: E402

N = 200_000


def winning_hands(n: int, seed: int = 0) -> np.ndarray:
    """(n, 27) uint8 random winning hands of one or two suits, 15% of them seven pairs."""
    return _benchsuite.complete_hands(n, seed=seed, seven_pairs=0.15)


def held_kinds(hands: np.ndarray, seed: int = 1) -> np.ndarray:
    """A random held kind per row."""
    rng = np.random.default_rng(seed)
    return np.argmax(rng.random(hands.shape) * (hands > 0), axis=1).astype(np.int8)


def ready_hands(hands: np.ndarray, seed: int = 2) -> np.ndarray:
    out = hands.copy()
    out[np.arange(len(out)), held_kinds(hands, seed)] -= 1
    return out


@pytest.fixture(scope="module")
def wins(benchmark_disabled):
    """Winning hands and win tiles (500 under ``--benchmark-disable``: benchmarks/conftest.py)."""
    hands = winning_hands(500 if benchmark_disabled else N)
    return hands, held_kinds(hands)


@pytest.fixture(scope="module")
def ready(wins):
    return ready_hands(wins[0])


def _rate(benchmark, n: int) -> None:
    stats = benchmark.stats.stats if benchmark.stats else None
    if stats is not None and stats.min > 0:
        benchmark.extra_info["hands_per_s"] = round(n / stats.min)


@pytest.mark.parametrize("workers", [1, 2])
def test_fan(benchmark, wins, workers):
    hands, tiles = wins
    out = np.empty(len(hands), np.int16)
    benchmark(fan, hands, tiles, out=out, workers=workers)
    assert (out >= 0).all()
    _rate(benchmark, len(hands))


def test_fan_flags_and_voids(benchmark, wins):
    hands, tiles = wins
    rng = np.random.default_rng(3)
    voids = rng.integers(-1, 3, len(hands)).astype(np.int8)
    drawn = rng.random(len(hands)) < 0.5
    rules = Rules(zhong_zhang=1, qia_xin_wu=1, cap=None)
    benchmark(fan, hands, tiles, void_suit=voids, self_drawn=drawn, rules=rules)
    _rate(benchmark, len(hands))


@pytest.mark.parametrize("workers", [1, 2])
def test_max_fan(benchmark, ready, workers):
    out = np.empty(len(ready), np.int16)
    benchmark(max_fan, ready, out=out, workers=workers)
    assert (out >= 0).mean() > 0.9
    _rate(benchmark, len(ready))


def test_max_fan_best_tile(benchmark, ready):
    benchmark(max_fan, ready, best_tile=True, rules=Rules(si_jiao=True))
    _rate(benchmark, len(ready))


def test_single_hand_score_baseline(benchmark, wins):
    hands, tiles = wins
    rows = [(h.tolist(), int(t)) for h, t in zip(hands[:2000], tiles[:2000])]

    def loop():
        for h, t in rows:
            scoring.score(h, win_tile=t)

    benchmark(loop)
    _rate(benchmark, len(rows))


def main() -> None:
    hands = winning_hands(1_000_000)
    tiles = held_kinds(hands)
    ready = ready_hands(hands)

    def rate(fn, n, repeat=5):
        best = min(_timed(fn) for _ in range(repeat))
        return n / best

    out = np.empty(len(hands), np.int16)
    print(f"fan      1 worker : {rate(lambda: fan(hands, tiles, out=out), len(hands)) / 1e6:6.2f} M hands/s")
    print(f"fan      2 workers: {rate(lambda: fan(hands, tiles, out=out, workers=2), len(hands)) / 1e6:6.2f} M hands/s")
    print(f"max_fan  1 worker : {rate(lambda: max_fan(ready, out=out), len(ready)) / 1e6:6.2f} M hands/s")
    print(f"max_fan  2 workers: {rate(lambda: max_fan(ready, out=out, workers=2), len(ready)) / 1e6:6.2f} M hands/s")
    sample = [(h.tolist(), int(t)) for h, t in zip(hands[:20000], tiles[:20000])]
    single = rate(lambda: [scoring.score(h, win_tile=t) for h, t in sample], len(sample), 2)
    print(f"score()  per hand : {single / 1e6:6.3f} M hands/s (single-hand Python API)")


def _timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


if __name__ == "__main__":
    main()
