"""Benchmarks of the table engine (issue 12), one core: complete self-played hands per second
(``selfplay``, the C engine and the Python reference; the C engine also at 5 and 6 seats) and
``TableBatch`` agent steps per second (n = 4096 tables, random legal actions from
``TableBatch.random_actions``).

    pytest benchmarks/bench_table.py --benchmark-only     # rates in extra_info

Targets: ``selfplay`` with four ``efficient`` players >= 20,000 hands/s, with ``random``
players >= 100,000 hands/s, with one ``forecast`` player and three ``efficient`` ones >= 200
hands/s (issue 28); ``TableBatch`` and its Gymnasium vector env >= 1 M agent steps/s. The
README's benchmark table lists what this machine measures. ``extra_info`` holds wall-clock
rates and rates per second of process CPU time (the fair number on a shared machine: one core,
one thread).
"""

from __future__ import annotations

import time

import pytest

from mjfast.table import TableBatch, selfplay

SIZES = {("random", "c"): 100_000, ("efficient", "c"): 10_000, ("random", "python"): 200,
         ("efficient", "python"): 100}


def _timed(benchmark, fn, count: int, unit: str, *args, **kwargs):
    """Run ``fn`` once under the benchmark; record ``count`` units per wall and per CPU second."""
    start, cpu = time.perf_counter(), time.process_time()
    result = benchmark.pedantic(fn, args=args, kwargs=kwargs, rounds=1, iterations=1)
    benchmark.extra_info[f"{unit}_per_s"] = count / (time.perf_counter() - start)
    benchmark.extra_info[f"{unit}_per_cpu_s"] = count / (time.process_time() - cpu)
    return result


@pytest.mark.parametrize("engine", ["c", "python"])
@pytest.mark.parametrize("player", ["random", "efficient"])
def test_selfplay_hands(benchmark, benchmark_disabled, player, engine):
    hands = 2 if benchmark_disabled else SIZES[player, engine]
    result = _timed(benchmark, selfplay, hands, "hands", hands, (player,) * 4, seed=1,
                    engine=engine)
    assert (result.net.sum(axis=1) == 0).all()


@pytest.mark.parametrize("seats", [5, 6])
@pytest.mark.parametrize("player", ["random", "efficient"])
def test_selfplay_short_hands(benchmark, benchmark_disabled, player, seats):
    """The C engine at the tables of 5 and 6 seats (the short hands of RULES.md 7)."""
    hands = 2 if benchmark_disabled else SIZES[player, "c"] // 2
    result = _timed(benchmark, selfplay, hands, "hands", hands, (player,) * seats, seed=1)
    assert (result.net.sum(axis=1) == 0).all()


def test_selfplay_forecast_player(benchmark, benchmark_disabled):
    hands = 2 if benchmark_disabled else 2000
    players = ("forecast", "efficient", "efficient", "efficient")
    selfplay(2, players, seed=2)  # warm-up: the rules' tables, the imports
    result = _timed(benchmark, selfplay, hands, "hands", hands, players, seed=1)
    assert (result.net.sum(axis=1) == 0).all()


def test_table_batch_steps(benchmark, benchmark_disabled):
    n, steps = (8, 5) if benchmark_disabled else (4096, 100)
    batch = TableBatch(n, seed=0)
    batch.reset()

    def run() -> None:
        for _ in range(steps):
            batch.step(batch.random_actions())

    _timed(benchmark, run, n * steps, "steps")
    assert batch.current_player.shape == (n,)


def test_vector_env_steps(benchmark, benchmark_disabled):
    pytest.importorskip("gymnasium")
    from mjfast.table.envs import vector_env

    n, steps = (8, 5) if benchmark_disabled else (4096, 100)
    env = vector_env(n, seed=0)
    env.reset(seed=0)
    batch = env._batch  # its random legal actions: the agent's cost left out

    def run() -> None:
        for _ in range(steps):
            env.step(batch.random_actions())

    _timed(benchmark, run, n * steps, "steps")
