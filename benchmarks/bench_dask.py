"""Benchmark of ``mjfast batch IN_GLOB OUT_DIR --dask local:2`` against one process on the same
Parquet shards: what the engine (scheduler, worker processes, task transfer) costs.

    pytest benchmarks/bench_dask.py --benchmark-only -s          # 10^7 hands, 10 shards
    MJFAST_DASK_HANDS=100000000 pytest benchmarks/bench_dask.py --benchmark-only -s

Shards: dealt 14-tile hands as 27 uint8 count columns ``c0``..``c26``, ``MJFAST_DASK_SHARD``
rows each (default 10^6). The single-process rate runs the same per-shard code the workers run
(:func:`mjfast.cli.batch.run_file`: read Parquet, shanten with ``workers=1``, write Parquet),
shard after shard in this process. The Dask run is the command line, timed end to end; its
summary line gives the seconds without the cluster's start. ``extra_info`` holds the rates,
``per_worker_ratio`` = (Dask rows/s / 2 workers) / single-process rows/s (target >= 0.7), and
``cpu_ratio``: rows per CPU second on a warm cluster (workers + scheduler + client) over rows
per CPU second in one process, and ``dask_over_plain``: the Dask rate over the rate of two plain
worker processes (a process pool running the same per-shard function): the engine's cost even
where other work shares the cores.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import shutil
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

pytest.importorskip("distributed")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from mjfast import cli, datagen  # noqa: E402
from mjfast.cli.batch import computer_of, run_file  # noqa: E402
from mjfast.cli.batch_cluster import (  # noqa: E402
    connect,
    process_shard,
    run_shards,
    shards_of,
    warm_up,
)
from mjfast.cli.parser import build_parser  # noqa: E402

WORKERS = 2


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory, benchmark_disabled: bool):  # type: ignore[no-untyped-def]
    """(folder of shards, hands in all)."""
    total = 1_000 if benchmark_disabled else int(os.environ.get("MJFAST_DASK_HANDS", 10_000_000))
    size = 500 if benchmark_disabled else int(os.environ.get("MJFAST_DASK_SHARD", 1_000_000))
    folder = tmp_path_factory.mktemp("shards")
    for i, start in enumerate(range(0, total, size)):
        h = datagen.deal(min(size, total - start), 14, seed=i)
        pq.write_table(pa.table({f"c{k}": np.ascontiguousarray(h[:, k]) for k in range(27)}),
                       folder / f"part-{i:04d}.parquet")
    yield folder, total
    shutil.rmtree(folder, ignore_errors=True)


def _args(folder, out, *more: str):  # type: ignore[no-untyped-def]
    return build_parser().parse_args(["batch", str(folder), str(out), *more])


def _single_process(folder, out, shards: int | None = None) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """(seconds, CPU seconds) for every shard (or the first ``shards``), one after another, in
    this process."""
    start, cpu = time.perf_counter(), time.process_time()
    for path in sorted(folder.iterdir())[:shards]:
        args = _args(path, out / path.name, "--workers", "1")
        run_file(args, computer_of(args))
    return time.perf_counter() - start, time.process_time() - cpu


def _cluster_cpu(folder, out) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """(seconds, CPU seconds of the workers, the scheduler and the client) of the shards on a
    warm LocalCluster: the engine's cost, whatever else the machine runs."""
    args = _args(folder / "*.parquet", out, "--dask", f"local:{WORKERS}")
    os.makedirs(out)
    with connect(args.dask) as client:
        client.run(warm_up, args)
        cpu = sum(client.run(time.process_time).values()) + time.process_time()
        start = time.perf_counter()
        run_shards(client, shards_of(args.input, args.output), args)
        seconds = time.perf_counter() - start
        cpu = sum(client.run(time.process_time).values()) + time.process_time() - cpu
    return seconds, cpu


def _plain_processes(folder, out) -> float:  # type: ignore[no-untyped-def]
    """Seconds for the shards on 2 plain worker processes (a process pool, no Dask), warmed up
    like the cluster's: what the machine gives two processes, the control for the engine."""
    args = _args(folder / "*.parquet", out, "--dask", f"local:{WORKERS}")
    os.makedirs(out)
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(WORKERS, mp_context=spawn, initializer=warm_up, initargs=(args,)) as pool:
        list(pool.map(time.sleep, [0.5] * WORKERS))  # both processes started and warm
        start = time.perf_counter()
        list(pool.map(process_shard, shards_of(args.input, args.output), [args] * 10**6))
        return time.perf_counter() - start


def test_dask_local2_vs_one_process(benchmark, benchmark_disabled, shards, tmp_path, capsys):  # type: ignore[no-untyped-def]
    folder, total = shards
    (tmp_path / "warm").mkdir()
    (tmp_path / "single").mkdir()
    _single_process(folder, tmp_path / "warm", 1)  # imports, tables: as warm as the workers get
    single, single_cpu = _single_process(folder, tmp_path / "single")
    argv = ["batch", str(folder / "*.parquet"), str(tmp_path / "dask"), "--dask", f"local:{WORKERS}"]
    code = benchmark.pedantic(cli.main, (argv,), rounds=1, iterations=1)
    assert code == 0
    summary = capsys.readouterr().err
    m = re.search(r"([\d,]+) rows in ([\d.]+) s .* on (\d+) workers, ([\d.]+) s with", summary)
    assert m is not None, summary
    assert int(m[1].replace(",", "")) == total and int(m[3]) == WORKERS
    steady, end_to_end = float(m[2]), float(m[4])
    if benchmark_disabled:  # CI's one pass: the command line ran; no second cluster
        return
    _, dask_cpu = _cluster_cpu(folder, tmp_path / "dask-cpu")
    plain = _plain_processes(folder, tmp_path / "plain")
    info = {"hands": total, "single_rate": total / single, "dask_rate": total / steady,
            "dask_rate_with_start": total / end_to_end}
    info["per_worker_ratio"] = info["dask_rate"] / WORKERS / info["single_rate"]
    info["per_worker_ratio_with_start"] = info["dask_rate_with_start"] / WORKERS / info["single_rate"]
    info["cpu_ratio"] = single_cpu / dask_cpu  # rows per CPU second, Dask over one process
    info["plain_2_process_rate"] = total / plain
    info["dask_over_plain"] = info["dask_rate"] / info["plain_2_process_rate"]
    benchmark.extra_info.update(info)
    with capsys.disabled():
        print("\n" + ", ".join(f"{k} {v:,.3f}" if isinstance(v, float) else f"{k} {v:,}"
                               for k, v in info.items()))
