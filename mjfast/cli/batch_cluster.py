"""``mjfast batch IN_GLOB OUT_DIR --dask ADDRESS``: many shards on a Dask cluster.

Each input shard (``.parquet``, ``.npy``, text or CSV) is one task that runs the single-file
``mjfast batch`` on one worker core (:func:`.batch.run_file` with ``workers=1``) and writes
``OUT_DIR/<shard name>.parquet`` through ``.part`` and a rename, so an output shard exists only
when complete. Each output shard records the options that shape its content (``--what``,
``--rules`` and ``--option`` when max_fan is asked, ``--void``, ``--no-void-rule``, ``--form``,
``--sets``, ``--errors``) in its Parquet metadata (:data:`OPTIONS_KEY`). A rerun skips the shards
already written with the same options (resumable) and computes again those written with others
(or with none recorded). ``--what forecast`` (one .npz of arrays) is refused. A worker that dies
mid-shard loses only that task: the scheduler runs it again on another worker, which rewrites
the ``.part`` from the start. ``--dask local:N`` starts a LocalCluster of N single-threaded
worker processes; any other address (``tcp://scheduler:8786``) is a running scheduler whose
workers have mjfast installed. Dask is imported only here, and only when ``--dask`` is given.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import itertools
import json
import logging
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from mjfast._args import as_int
from mjfast.bench.report import rate_text
from mjfast.rules import rules_to_json

from .batch import check_paths, computer_of, optional, run_file
from .batch_io import Rows
from .common import PROG, CLIError, Progress, rules_of

__all__ = ["OPTIONS_KEY", "Shard", "ShardResult", "cmd_batch_cluster", "connect", "process_shard",
           "run_shards", "shard_options", "shards_of", "warm_up"]

OPTIONS_KEY = "mjfast.batch.options"
"""The Parquet metadata key of an output shard's options (:func:`shard_options`)."""


class Shard(NamedTuple):
    """One input file and the output file it gives."""

    input: str
    output: str


class ShardResult(NamedTuple):
    """What one shard's task reports back: rows, bad rows, the first bad row's message, and the
    one-line error that stopped it (returned, not raised: a raised one would make the worker
    log its traceback before the client's one line)."""

    shard: Shard
    rows: int
    bad_rows: int
    first_bad: str | None
    error: str | None = None


def shards_of(pattern: str, out_dir: str) -> list[Shard]:
    """The input files matching ``pattern`` (sorted) and their output files in ``out_dir``."""
    if pattern == "-":
        raise CLIError("--dask: the input is a glob of files (shards), not standard input")
    names = sorted(p for p in glob.glob(pattern) if os.path.isfile(p))
    if not names:
        raise CLIError(f"{pattern}: no file matches (quote the glob: 'data/*.parquet')")
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise CLIError(f"{out_dir}: with --dask the output is a directory, one shard per input")
    shards: list[Shard] = []
    seen: dict[str, str] = {}
    for name in names:
        out = os.path.join(out_dir, Path(name).stem + ".parquet")
        if os.path.abspath(out) == os.path.abspath(name):  # it would count as done, and be lost
            raise CLIError(f"{name}: its output would overwrite it; give another OUT_DIR")
        if out in seen:
            raise CLIError(f"{name} and {seen[out]} would both write {out}: give shards "
                           "distinct names")
        seen[out] = name
        shards.append(Shard(name, out))
    return shards


def shard_options(args: argparse.Namespace) -> str:
    """The options that shape an output shard's content, as canonical JSON (the rules only when
    max_fan, the one quantity that reads them, is asked)."""
    rules = rules_to_json(rules_of(args.rules, args.option)) if "max_fan" in args.what else None
    return json.dumps({"what": args.what, "rules": rules, "void": args.void,
                       "void_rule": not args.no_void_rule, "form": args.form, "sets": args.sets,
                       "errors": args.errors}, sort_keys=True)


def _done(shard: Shard, options: str) -> bool:
    """Whether the shard's output exists, written with these options."""
    if not os.path.exists(shard.output):
        return False
    parquet = optional("mjfast.cli.batch_parquet", "parquet")
    return bool(parquet.read_metadata(shard.output, OPTIONS_KEY) == options)


def process_shard(shard: Shard, args: argparse.Namespace) -> ShardResult:
    """One shard, on a worker: the single-file batch run, on one core (``--workers`` does not
    apply: the cluster's workers are the parallelism), its options recorded in the output."""
    one = argparse.Namespace(**{**vars(args), "input": shard.input, "output": shard.output,
                                "workers": 1, "dask": None})
    try:
        check_paths(one.input, one.output)
        done = run_file(one, computer_of(one), {OPTIONS_KEY: shard_options(args)})
    except CLIError as exc:
        return ShardResult(shard, 0, 0, None, str(exc))
    return ShardResult(shard, *done)


def warm_up(args: argparse.Namespace) -> None:
    """On a worker, before the first shard: load what a shard needs (pyarrow; a worker without
    it fails here, with the hint) and build the kernels' tables (built on first use), as part of
    bringing the cluster up."""
    optional("mjfast.cli.batch_parquet", "parquet")
    computer_of(args).compute(Rows(np.zeros((1, 27), np.uint8), np.zeros(1, np.intp), {}))


@contextlib.contextmanager
def connect(address: str) -> Iterator[Any]:
    """A ``distributed.Client`` for ``--dask``: ``local:N`` (a LocalCluster of N processes,
    one thread each, closed afterwards) or a scheduler address."""
    distributed = optional("distributed", "dask")
    kind, _, count = address.partition(":")
    if kind == "local":
        n = as_int(_int_or_text(count), "--dask local:N", minimum=1)
        # The workers' sampling profiler feeds only the dashboard: off, it costs no core time.
        with optional("dask", "dask").config.set({"distributed.worker.profile.enabled": False}), \
                distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                         dashboard_address=":0", silence_logs=logging.ERROR) as cluster, \
                distributed.Client(cluster) as client:
            yield client
        return
    if "://" not in address:
        raise CLIError(f"--dask: expected local:N or a scheduler address such as "
                       f"tcp://scheduler:8786, got {address!r}")
    try:
        client = distributed.Client(address, timeout="20s")
    except (OSError, TimeoutError) as exc:
        raise CLIError(f"--dask: cannot reach the scheduler at {address}: {exc}") from None
    with client:
        yield client


def _int_or_text(text: str) -> object:
    return int(text) if text.strip().lstrip("-").isdigit() else text


def run_shards(client: Any, shards: list[Shard], args: argparse.Namespace,
               on_result: Callable[[ShardResult], None] | None = None) -> list[ShardResult]:
    """Run every shard on the cluster; ``on_result`` is called as each one completes.

    The first shard that fails (a bad row without ``--errors coerce``, an unreadable file)
    cancels the others and raises its error; the shards already written stay (a rerun skips
    them)."""
    distributed = optional("distributed", "dask")
    futures = [client.submit(process_shard, s, args, key=f"mjfast-shard-{i}-{s.output}",
                             pure=False) for i, s in enumerate(shards)]
    results = []
    try:
        for future in distributed.as_completed(futures):
            res = future.result()
            if res.error is not None:
                raise CLIError(res.error)
            results.append(res)
            if on_result is not None:
                on_result(res)
    finally:
        client.cancel([f for f in futures if not f.done()])
    return sorted(results, key=lambda r: r.shard)


def cmd_batch_cluster(args: argparse.Namespace) -> int:
    """``mjfast batch IN_GLOB OUT_DIR --dask ADDRESS``."""
    if "forecast" in args.what:
        raise CLIError("--what forecast: not with --dask (its arrays go to one .npz); run "
                       "mjfast batch on each file, or mjfast.dask.forecast")
    optional("distributed", "dask")
    computer_of(args)  # the options fit together, checked before any cluster starts
    shards = shards_of(args.input, args.output)
    options = shard_options(args)
    todo = [s for s in shards if not _done(s, options)]
    stale = sum(os.path.exists(s.output) for s in todo)
    os.makedirs(args.output, exist_ok=True)
    t0 = t1 = t2 = time.perf_counter()
    results: list[ShardResult] = []
    workers = 0
    if todo:  # nothing left to do: no cluster to start
        with connect(args.dask) as client:
            workers = len(client.run(warm_up, args))
            t1 = time.perf_counter()
            progress = Progress(len(todo), "batch", "shards")
            done = itertools.count(1)
            try:
                results = run_shards(client, todo, args, lambda _: progress.update(next(done)))
            finally:
                progress.close()
            t2 = time.perf_counter()
    rows = sum(r.rows for r in results)
    bad_rows = sum(r.bad_rows for r in results)
    first_bad = next((r.first_bad for r in results if r.first_bad), None)
    skipped = len(shards) - len(todo)
    note = (f"; {bad_rows:,} bad row{'s' if bad_rows != 1 else ''} marked (first: {first_bad})"
            if bad_rows else "")
    redone = f", {stale:,} written with other options redone" if stale else ""
    print(f"{PROG}: batch: {len(todo):,} shards ({skipped:,} already done{redone}) -> {args.output}: "
          f"{rows:,} rows in {t2 - t1:.2f} s ({rate_text(rows / max(t2 - t1, 1e-9))} rows/s) "
          f"on {workers} workers, {t2 - t0:.2f} s with the cluster's start{note}", file=sys.stderr)
    return 0
