"""Benchmarks of the batch fan kernels: the ``"fan"`` group of :mod:`mjfast.bench`'s cases.

    pytest benchmarks/bench_fan.py --benchmark-only        # timings (+ hands/s in extra_info)
    mjfast bench --case fan                                 # a plain hands/s table with ratios

Inputs: random winning hands (four random sets of one or two suits plus a pair, 15% seven
pairs; every count <= 4) with a random held kind as the win tile, and ready hands made from
them by removing one held kind. Targets (one worker): ``fan`` >= 5 M winning hands/s,
``max_fan`` >= 1 M ready hands/s. The single-hand Python scorer is timed on a small sample for
the ratio.
"""

from __future__ import annotations

import pytest

from mjfast import bench

FAN_CASES = [c.name for c in bench.CASES if c.group == "fan"]


@pytest.mark.parametrize("name", FAN_CASES)
def test_fan_case(time_case, name):
    """Time one case; hands/s go into ``extra_info`` (``--benchmark-json``)."""
    n, result = time_case(name)
    if name in ("fan_w1", "fan_w2"):  # every dealt hand wins
        assert result.shape == (n,) and (result >= 0).all()
    elif name in ("max_fan_w1", "max_fan_w2"):  # nearly every hand with a kind taken out is ready
        assert result.shape == (n,) and (result >= 0).mean() > 0.9
