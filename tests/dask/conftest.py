"""One real LocalCluster (2 worker processes, 1 thread each) for the tests of this folder, and
the hands they share. The tests skip when the ``dask`` extra is not installed."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mjfast import datagen, format_hand


@pytest.fixture(scope="package")
def cluster() -> Iterator[Any]:
    """Closed after the last test of this folder: its threads must not run under later tests
    (tests/notation measures the memory a parse allocates, in every thread)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", silence_logs=logging.ERROR) as c:
        yield c


@pytest.fixture
def client(cluster: Any) -> Iterator[Any]:
    """A client of the cluster, the default scheduler of ``.compute()`` while the test runs."""
    distributed = pytest.importorskip("distributed")
    with distributed.Client(cluster) as c:
        yield c


def hands(n: int, tiles: int, seed: int) -> np.ndarray:
    """Dealt hands with some ready ones (so waits and max_fan have work): (n, 27) uint8."""
    dealt = datagen.deal(n, tiles, seed=seed)
    if tiles == 13:
        ready = datagen.ready_hands(n // 4, seed=seed)
        dealt[: len(ready)] = ready
    return np.ascontiguousarray(dealt)


def write_shard(path: Path, counts: np.ndarray, strings: bool = False,
                row_group: int | None = None) -> None:
    """A Parquet shard of hands: a 'hand' string column, or c0..c26 (uint8), plus an id."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    cols: dict[str, Any] = {"id": np.arange(len(counts))}
    if strings:
        cols["hand"] = [format_hand(h) for h in counts]
    else:
        cols.update({f"c{k}": counts[:, k] for k in range(27)})
    pq.write_table(pa.table(cols), path, row_group_size=row_group)
