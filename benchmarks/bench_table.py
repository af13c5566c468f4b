"""Benchmarks of the table engine (issue 12): complete self-played hands per second and
``TableBatch`` agent steps per second, one core.

    pytest benchmarks/bench_table.py --benchmark-only     # rates in extra_info

Targets: ``selfplay`` with four ``efficient`` players >= 20,000 hands/s, with ``random``
players >= 100,000 hands/s; ``TableBatch`` >= 1 M agent steps/s (random legal actions,
n = 4096 tables). The engine measured here is the pure-Python reference engine, far below
those targets (see the README's benchmark table); the rates go into ``extra_info``.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from mjfast.table import TableBatch, selfplay


@pytest.mark.parametrize("player", ["random", "efficient"])
def test_selfplay_hands(benchmark, benchmark_disabled, player):
    hands = 2 if benchmark_disabled else 200
    start = time.perf_counter()
    result = benchmark.pedantic(selfplay, args=(hands, (player,) * 4), kwargs={"seed": 1},
                                rounds=1, iterations=1)
    benchmark.extra_info["hands_per_s"] = hands / (time.perf_counter() - start)
    assert (result.net.sum(axis=1) == 0).all()


def test_table_batch_steps(benchmark, benchmark_disabled):
    n, steps = (4, 5) if benchmark_disabled else (256, 20)
    batch = TableBatch(n, seed=0)
    _, mask = batch.reset()
    rng = np.random.default_rng(0)

    def run() -> None:
        nonlocal mask
        for _ in range(steps):
            _, mask, _, _ = batch.step((rng.random(mask.shape) * mask).argmax(axis=1))

    start = time.perf_counter()
    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info["steps_per_s"] = n * steps / (time.perf_counter() - start)
    assert mask.shape == (n, 140) and mask.any(axis=1).all()
