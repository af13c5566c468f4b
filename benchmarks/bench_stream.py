"""Streaming benchmarks: every batch kernel on 10^7 distinct hands, each read once from memory.

The hot cases (``bench_kernels.py``) time batches that stay in the last-level cache; a user who
streams millions of hands reads each row once, so the kernels' tables compete with the rows for
the caches. These cases (group ``stream`` of :mod:`mjfast.bench`) time one call over 10^7 rows
(270 MB of 14-tile hands, out= arrays allocated beforehand), beside nyanten (the fastest
published exact shanten, C++, regular form only) on the same rows when it is built
(``benchmarks/peers/nyanten/build.sh``; :mod:`mjfast.bench.nyanten`).

They need about 1 GB of memory and a minute of dealing, so they run only when benchmarking
(``pytest benchmarks/bench_stream.py --benchmark-only``), not in the test run
(``--benchmark-disable``) unless ``MJFAST_STREAM_HANDS`` is set; ``MJFAST_STREAM_HANDS=N`` also
sets the number of hands. The C library's per-call rate on streamed rows:
``make -C src bench BENCH_HANDS=10000000`` (``examples/c/bench.c``).
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from mjfast import bench

STREAM_CASES = [c.name for c in bench.CASES if c.group == "stream"]
ENV = "MJFAST_STREAM_HANDS"


@pytest.fixture
def stream_size(benchmark_disabled: bool) -> int | None:
    """Hands per streaming case: $MJFAST_STREAM_HANDS, else the case's size (10^7)."""
    size = os.environ.get(ENV)
    if benchmark_disabled and not size:
        pytest.skip(f"streaming cases run with --benchmark-only (or set {ENV})")
    return int(size) if size else None


@pytest.mark.parametrize("name", STREAM_CASES)
def test_stream(time_case, stream_size, name):
    """Time one streaming case; hands/s go into ``extra_info`` (``--benchmark-json``)."""
    case = bench.find_case(name)
    extra = {"api": bench.peer_api(case.peer)} if case.peer else {}
    n, result = time_case(name, n=stream_size, title=case.title, **extra)
    assert np.asarray(result).shape[0] == n
