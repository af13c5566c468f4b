"""Benchmarks of mjfast's public kernels, hot (batches that stay in cache): the cases of
:mod:`mjfast.bench` (peers, the batch fan cases and the streaming cases aside:
``bench_peers.py``, ``bench_fan.py`` and ``bench_stream.py`` time those).

Run ``pytest benchmarks --benchmark-only`` (full sizes: 10^6 hands for shanten, 4M for the
threads comparison) or ``pytest benchmarks --benchmark-disable`` (each case once, 500 hands).
``mjfast bench`` times the same cases and prints hands/s with ratios.
"""

from __future__ import annotations

import numpy as np
import pytest

from mjfast import bench

KERNEL_CASES = [c.name for c in bench.CASES if c.peer is None and c.group not in ("fan", "stream")]


@pytest.mark.parametrize("name", KERNEL_CASES)
def test_kernel(time_case, name):
    """Time one case; hands/s go into ``extra_info`` (``--benchmark-json``)."""
    n, result = time_case(name, title=bench.find_case(name).title)
    if isinstance(result, np.ndarray):
        assert result.shape[0] == n


def test_results_do_not_depend_on_workers(bench_size):
    """The threads case compares like with like: workers=2 gives workers=1's answer."""
    import mjfast

    case = bench.find_case("shanten_4m_w2")
    (hands,) = case.setup(bench_size(case, quick=True), bench.SEED)
    assert np.array_equal(mjfast.shanten(hands, workers=2), mjfast.shanten(hands, workers=1))
