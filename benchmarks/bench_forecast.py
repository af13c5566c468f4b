"""Benchmarks of :func:`mjfast.forecast`: 14-tile hands, every discard, T = 18 draws, objective
"win", one core, against the riichi anchors' published figures (RULES.md 9; README "Forecasts").

The hands are fixed: the first dealt 14-tile hands of each shanten (void rule, no declared void)
from a seeded shuffle, the same every run. ``pytest benchmarks/bench_forecast.py
--benchmark-only`` times them (hands/s in ``extra_info``); under ``--benchmark-disable`` each
case runs once on a few hands. ``PYTHONPATH=. python benchmarks/bench_forecast.py`` prints the README table
(``--flush``: its flush rows alone).
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np
import pytest

import mjfast
from mjfast.errors import InvalidArgumentError
from mjfast.forecast import MAX_STATES

SEED = 20261130
DRAWS = 18
# the policy classes timed (RULES.md 9): name -> (forecast options, draws)
CLASSES: dict[str, tuple[dict[str, Any], int]] = {
    "0": ({"exchanges": 0}, DRAWS),                        # the default: no exchange
    "keep": ({"candidates": "keep"}, DRAWS),               # only the discards keeping the shanten
    "none": ({"exchanges": None}, 3),                      # every exchange: a few draws only
    "1+back": ({"exchanges": 1, "backward": True}, DRAWS),
    "2": ({"exchanges": 2}, DRAWS),
}
# hands per case when timing: (shanten, class) -> hands; the targets of the issues in hands/s
SIZES = {(1, "0"): 2000, (2, "0"): 300, (3, "0"): 60, (4, "0"): 20, (5, "0"): 10,
         (1, "keep"): 2000, (2, "keep"): 300, (3, "keep"): 60,
         (1, "none"): 20, (2, "none"): 5, (1, "1+back"): 3, (1, "2"): 2}
TARGETS = {(1, "0"): 10_000, (2, "0"): 1_000, (3, "0"): 100, (1, "none"): 200, (2, "none"): 20,
           (1, "1+back"): 3_500, (1, "2"): 63}
FLUSH_SIZES = {1: 40, 2: 20, 3: 10}  # the flush plan of each hand's most (and least) held suit


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


def _run(hands: np.ndarray, name: str, sets: int = 4, quick: bool = False) -> mjfast.Forecast:
    options, draws = CLASSES[name]
    return mjfast.forecast(hands, draws=min(draws, 4) if quick else draws, workers=1, sets=sets,
                           **options)


def _flush_all(hands: np.ndarray, draws: int, least: bool = False) -> None:
    """Each hand's flush plan in the suit it holds most of, or with ``least`` the fewest of (one
    call per hand: the suit differs). The least held suit is the costly plan: with 0-2 tiles of
    it every hand of the suit is reachable."""
    for h in hands:
        held = h.reshape(3, 9).sum(1)
        mjfast.forecast(h, draws=draws, flush=int(held.argmin() if least else held.argmax()))


@pytest.mark.parametrize(("shanten", "name"), sorted(SIZES))
def test_forecast(benchmark, benchmark_disabled, shanten: int, name: str) -> None:
    n = 2 if benchmark_disabled else SIZES[shanten, name]
    hands = hands_of(shanten, n)
    benchmark.group = "forecast"
    benchmark.extra_info.update(shanten=shanten, policy=name, draws=CLASSES[name][1], n=n)
    f = benchmark.pedantic(_run, args=(hands, name, 4, benchmark_disabled), rounds=1, iterations=1)
    assert f.win.shape[:2] == (n, 27)
    if not benchmark_disabled and benchmark.stats is not None:
        benchmark.extra_info["rate"] = n / benchmark.stats.stats.min


@pytest.mark.parametrize("least", [False, True])
@pytest.mark.parametrize("shanten", sorted(FLUSH_SIZES))
def test_forecast_flush(benchmark, benchmark_disabled, shanten: int, least: bool) -> None:
    n = 2 if benchmark_disabled else FLUSH_SIZES[shanten]
    hands = hands_of(shanten, n)
    benchmark.group = "forecast-flush"
    benchmark.extra_info.update(shanten=shanten, draws=DRAWS, n=n, least=least)
    benchmark.pedantic(_flush_all, args=(hands, 4 if benchmark_disabled else DRAWS, least),
                       rounds=1, iterations=1)
    if not benchmark_disabled and benchmark.stats is not None:
        benchmark.extra_info["rate"] = n / benchmark.stats.stats.min


@pytest.mark.parametrize("sets", [3, 2])
@pytest.mark.parametrize("name", ["0", "none"])
def test_forecast_short_hands(benchmark, benchmark_disabled, sets: int, name: str) -> None:
    """1-shanten short hands (11 / 8 tiles, 5 / 6 players), every discard."""
    n = 2 if benchmark_disabled else SIZES[1, name]
    hands = hands_of(1, n, sets)
    benchmark.group = "forecast-short"
    benchmark.extra_info.update(sets=sets, policy=name, draws=CLASSES[name][1], n=n)
    f = benchmark.pedantic(_run, args=(hands, name, sets), rounds=1, iterations=1)
    assert f.win.shape[:2] == (n, 27)
    if not benchmark_disabled and benchmark.stats is not None:
        benchmark.extra_info["rate"] = n / benchmark.stats.stats.min


def _best(rounds: int, fn: Any, *args: Any) -> float:
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - t0)
    return best


def table(rounds: int = 3, flush_only: bool = False) -> str:
    """The README table: hands/s (the best of ``rounds`` timed runs after a warm-up, as
    pytest-benchmark's minimum) and the slowest hand per shanten and policy class (``flush_only``:
    the flush rows alone)."""
    rows = ["| shanten | policy | draws | hands | hands/s | slowest hand | target |",
            "|---|---|---|---|---|---|---|"]
    classes = {} if flush_only else SIZES
    for (s, name), n in sorted(classes.items(), key=lambda kv: (list(CLASSES).index(kv[0][1]), kv[0][0])):
        hands = hands_of(s, n)
        target = "" if TARGETS.get((s, name)) is None else f"{TARGETS[s, name]:,}"
        try:
            _run(hands[:2], name)
            rate = n / _best(rounds if n > 5 else 1, _run, hands, name)
            slowest = max(_best(1, _run, h, name) for h in hands[: min(n, 20)])
        except InvalidArgumentError:  # the class's graph passes the state cap
            rows.append(f"| {s} | {name} | {CLASSES[name][1]} | {n} | past the "
                        f"{MAX_STATES:,}-state cap | | {target} |")
            continue
        rows.append(f"| {s} | {name} | {CLASSES[name][1]} | {n} | {rate:,.1f} | "
                    f"{slowest * 1000:.1f} ms | {target} |")
    for least in (False, True):
        for s, n in FLUSH_SIZES.items():
            hands = hands_of(s, n)
            rate = n / _best(rounds, _flush_all, hands, DRAWS, least)
            slowest = max(_best(1, _flush_all, h[None], DRAWS, least) for h in hands[:20])
            rows.append(f"| {s} | flush, {'least' if least else 'most'} held suit | {DRAWS} | {n} "
                        f"| {rate:,.1f} | {slowest * 1000:.1f} ms | 10 ms a hand |")
    return "\n".join(rows)


if __name__ == "__main__":
    sys.stdout.write(table(flush_only="--flush" in sys.argv[1:]) + "\n")
