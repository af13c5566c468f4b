"""pytest configuration of the benchmarks (``pytest benchmarks --benchmark-only``).

- Pins OpenBLAS to one thread before numpy is imported here: an idle OpenBLAS pool in the same
  process slows the kernel threads.
- Collects ``bench_*.py`` (pytest's default pattern only takes ``test_*.py``), unless the
  project's ``python_files`` already does.
- ``bench_size(case)``: the full case size when benchmarking, a tiny one under
  ``--benchmark-disable`` (CI runs the benchmarks once that way so they cannot rot).
"""

from __future__ import annotations

import fnmatch
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import pytest

DISABLED_SIZE = 500
"""Hands (or calls) per case when benchmarking is disabled."""


def pytest_collect_file(file_path, parent):  # type: ignore[no-untyped-def]
    """Collect ``bench_*.py`` as test modules."""
    if file_path.suffix != ".py" or not file_path.name.startswith("bench_"):
        return None
    patterns = parent.config.getini("python_files")
    if any(fnmatch.fnmatch(file_path.name, pat) for pat in patterns):
        return None  # pytest collects it already
    return pytest.Module.from_parent(parent, path=file_path)


def _disabled(config: pytest.Config) -> bool:
    try:
        return bool(config.getoption("benchmark_disable"))
    except ValueError:  # pytest-benchmark not installed
        return True


@pytest.fixture(scope="session")
def benchmark_disabled(request: pytest.FixtureRequest) -> bool:
    """True under ``--benchmark-disable`` (run each benchmark once, on tiny inputs)."""
    return _disabled(request.config)


@pytest.fixture(scope="session")
def bench_size(benchmark_disabled: bool):  # type: ignore[no-untyped-def]
    """``bench_size(case, quick=False)``: hands (or calls) to use for a case in this run."""

    def size(case, quick: bool = False) -> int:
        if benchmark_disabled:
            return min(DISABLED_SIZE, case.quick)
        return case.sizes(quick)

    return size


@pytest.fixture
def time_case(request, bench_size, benchmark_disabled):  # type: ignore[no-untyped-def]
    """``time_case(name, group=None, n=None, **info)``: time one case of mjfast.bench with
    pytest-benchmark (skipped when it is unavailable) on ``n`` hands (default: ``bench_size``);
    hands/s go into ``extra_info``. The benchmark fixture is taken only once the case runs (a
    skipped case that held it would warn of a fixture never used)."""
    from mjfast import bench

    def run(name: str, group=None, n=None, **info):  # type: ignore[no-untyped-def]
        case = bench.find_case(name)
        reason = case.available()
        if reason:
            pytest.skip(reason)
        benchmark = request.getfixturevalue("benchmark")
        n = bench_size(case) if n is None else n
        args = case.setup(n, bench.SEED)
        benchmark.group = group or case.group
        benchmark.extra_info.update(case=case.name, n=n, unit=case.unit, **info)
        result = benchmark(case.run, *args)
        if not benchmark_disabled and benchmark.stats is not None:
            benchmark.extra_info["rate"] = n / benchmark.stats.stats.min
        return n, result

    return run


@pytest.fixture(scope="session", autouse=True)
def _forget_dealt_hands():  # type: ignore[no-untyped-def]
    yield
    from mjfast import bench

    bench.clear_cache()
