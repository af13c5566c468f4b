"""Benchmarks of :func:`mjfast.forecast`: 14-tile hands, every discard, T = 18 draws, objective
"win", one core, against the riichi anchors' published figures (RULES.md 9; README "Forecasts").

The hands are fixed: the first dealt 14-tile hands of each shanten (void rule, no declared void)
from a seeded shuffle, the same every run. ``pytest benchmarks/bench_forecast.py
--benchmark-only`` times them (hands/s in ``extra_info``); under ``--benchmark-disable`` each
case runs once on a few hands. ``PYTHONPATH=. python benchmarks/bench_forecast.py`` prints the README table.
"""

from __future__ import annotations

import sys
import time

import numpy as np
import pytest

import mjfast

SEED = 20261130
DRAWS = 18
# hands per case when timing: (shanten, exchanges) -> hands; the targets of issue 10 in hands/s
SIZES = {(1, False): 2000, (2, False): 300, (3, False): 60, (4, False): 20, (5, False): 10,
         (1, True): 20, (2, True): 5}
TARGETS = {(1, False): 10_000, (2, False): 1_000, (3, False): 100, (1, True): 200, (2, True): 20}
EXCHANGE_DRAWS = 3  # exchanges=None: the graph grows ten- to twentyfold per draw (see the README)


def hands_of(shanten: int, n: int, sets: int = 4) -> np.ndarray:
    """The first ``n`` hands of this shanten among seeded deals of 3 * sets + 2 tiles."""
    rng = np.random.default_rng(SEED + shanten)
    found: list[np.ndarray] = []
    while sum(len(f) for f in found) < n:
        tiles = np.argsort(rng.random((20_000, 108)), axis=1)[:, :3 * sets + 2] // 4
        deal = np.zeros((20_000, 27), np.uint8)
        np.add.at(deal, (np.arange(20_000)[:, None], tiles), 1)
        found.append(deal[mjfast.shanten(deal, sets=sets) == shanten])
    return np.ascontiguousarray(np.concatenate(found)[:n])


def _run(hands: np.ndarray, exchanges: bool, draws: int, sets: int = 4) -> mjfast.Forecast:
    return mjfast.forecast(hands, draws=draws, exchanges=exchanges, workers=1, sets=sets)


@pytest.mark.parametrize(("shanten", "exchanges"), sorted(SIZES))
def test_forecast(benchmark, benchmark_disabled, shanten: int, exchanges: bool) -> None:
    n = 2 if benchmark_disabled else SIZES[shanten, exchanges]
    draws = EXCHANGE_DRAWS if exchanges else DRAWS
    hands = hands_of(shanten, n)
    benchmark.group = "forecast"
    benchmark.extra_info.update(shanten=shanten, exchanges=exchanges, draws=draws, n=n)
    f = benchmark.pedantic(_run, args=(hands, exchanges, draws), rounds=1, iterations=1)
    assert f.win.shape == (n, 27, draws)
    if not benchmark_disabled and benchmark.stats is not None:
        benchmark.extra_info["rate"] = n / benchmark.stats.stats.min


@pytest.mark.parametrize("sets", [3, 2])
@pytest.mark.parametrize("exchanges", [False, True])
def test_forecast_short_hands(benchmark, benchmark_disabled, sets: int, exchanges: bool) -> None:
    """1-shanten short hands (11 / 8 tiles, 5 / 6 players), every discard."""
    n = 2 if benchmark_disabled else SIZES[1, exchanges]
    draws = EXCHANGE_DRAWS if exchanges else DRAWS
    hands = hands_of(1, n, sets)
    benchmark.group = "forecast-short"
    benchmark.extra_info.update(sets=sets, exchanges=exchanges, draws=draws, n=n)
    f = benchmark.pedantic(_run, args=(hands, exchanges, draws, sets), rounds=1, iterations=1)
    assert f.win.shape == (n, 27, draws)
    if not benchmark_disabled and benchmark.stats is not None:
        benchmark.extra_info["rate"] = n / benchmark.stats.stats.min


def table(rounds: int = 3) -> str:
    """The README table: hands/s (the best of ``rounds`` timed runs after a warm-up, as
    pytest-benchmark's minimum) and the slowest hand per shanten and policy class."""
    rows = ["| shanten | exchanges | draws | hands | hands/s | slowest hand | target |",
            "|---|---|---|---|---|---|---|"]
    for (s, ex), n in sorted(SIZES.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        draws = EXCHANGE_DRAWS if ex else DRAWS
        hands = hands_of(s, n)
        target = TARGETS.get((s, ex))
        _run(hands[:4], ex, draws)
        best = float("inf")
        for _ in range(rounds):
            t0 = time.perf_counter()
            _run(hands, ex, draws)
            best = min(best, time.perf_counter() - t0)
        rate = n / best
        slowest = 0.0
        for h in hands[: min(n, 20)]:
            t1 = time.perf_counter()
            _run(h, ex, draws)
            slowest = max(slowest, time.perf_counter() - t1)
        rows.append(f"| {s} | {'on' if ex else 'off'} | {draws} | {n} | {rate:,.1f} | "
                    f"{slowest * 1000:.1f} ms | {'' if target is None else f'{target:,}'} |")
    return "\n".join(rows)


if __name__ == "__main__":
    sys.stdout.write(table() + "\n")
