"""Parquet in and out of ``mjfast batch`` (pyarrow: ``pip install "mjfast[parquet]"``).

Input schema: a string column ``hand`` of hands in any notation :func:`mjfast.parse_hand`
reads (mpsz, 万筒条, Unicode tiles), or 27 integer count columns ``c0``..``c26`` (``c0`` = 1m ..
``c26`` = 9s; uint8 is the compact choice), used when all 27 are present; other columns are
ignored. A null is a bad row. The file is read a record batch at a time (at most ``--chunk``
rows, never more than a row group in memory), so memory stays bounded whatever its size.

Output schema: the input position (``row``: the row of the file, or ``line`` for text),
then one column per quantity: ``shanten`` int8, ``waits`` uint32 (27-bit masks),
``effective_c0``..``effective_c26`` int8 (one per kind), ``max_fan`` int16 (-1 when not ready),
and ``error`` (string, null for a good row). Bad rows hold the sentinels of the .npy output
(INVALID_ROW = -100, INVALID_MASK = 0xFFFFFFFF). One row group per chunk.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from types import TracebackType
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from mjfast._lines import COUNT_COLUMNS, hand_column, parse_lines

from .batch_io import Rows, count_rows
from .batch_out import Writer
from .common import CLIError

__all__ = ["ParquetInput", "ParquetWriter", "output_schema", "read_metadata"]

_TYPES = {"shanten": pa.int8(), "waits": pa.uint32(), "effective": pa.int8(), "max_fan": pa.int16()}


def _columns(name: str) -> list[str]:
    """The output columns of one quantity (``effective``: one per kind)."""
    return [f"{name}_c{k}" for k in range(27)] if name == "effective" else [name]


def output_schema(what: Sequence[str], pos_name: str) -> pa.Schema:
    """The Parquet schema of the results of ``what``.

    >>> output_schema(["shanten", "waits"], "row").names
    ['row', 'shanten', 'waits', 'error']
    """
    fields = [pa.field(pos_name, pa.int64(), nullable=False)]
    fields += [pa.field(c, _TYPES[w], nullable=False) for w in what for c in _columns(w)]
    return pa.schema(fields + [pa.field("error", pa.string())])


def read_metadata(path: str, key: str) -> str | None:
    """The value of ``key`` in the schema metadata of the Parquet file ``path``; None when the
    file has no such key or cannot be read as Parquet."""
    try:
        meta = pq.read_schema(path).metadata or {}
    except (OSError, pa.ArrowException):
        return None
    value = meta.get(key.encode())
    return None if value is None else value.decode("utf-8", "replace")


def _ints(col: pa.Array) -> np.ndarray:
    """An integer column as numpy, nulls as 0: a view of its data buffer (Array.to_numpy
    would import pandas on first use, a third of a second per worker)."""
    dtype = np.dtype(str(col.type))
    data = np.frombuffer(col.buffers()[1], dtype, len(col), col.offset * dtype.itemsize)
    return np.where(col.is_null().to_numpy(zero_copy_only=False), 0, data) if col.null_count else data


class ParquetInput:
    """A Parquet file of hands read in chunks of at most ``chunk`` rows; the interface of
    :class:`~mjfast.cli.batch_io.Input` (``rows``, ``total``, ``pos_name``, ``name``).
    pyarrow decodes on its thread pool only with ``threads`` (``--workers`` above 1): a Dask
    worker, or a run with ``--workers 1``, stays on one core."""

    def __init__(self, path: str, chunk: int, threads: bool = False) -> None:
        self.name, self.pos_name, self.threads = path, "row", threads
        try:
            self.file = pq.ParquetFile(path)  # closed by close()
        except (OSError, pa.ArrowException) as exc:
            raise CLIError(f"{path}: not a readable Parquet file: {exc}") from None
        schema = self.file.schema_arrow
        try:
            self.hand = hand_column(schema.names)
        except ValueError as exc:
            self.close()
            raise CLIError(f"{path}: {exc}") from None
        wanted = list(COUNT_COLUMNS) if self.hand is None else [self.hand]
        for name in wanted:
            kind = schema.field(name).type
            ok = pa.types.is_string(kind) or pa.types.is_large_string(kind) \
                if self.hand is not None else pa.types.is_integer(kind)
            if not ok:
                self.close()
                need = "strings" if self.hand is not None else "an integer type (uint8)"
                raise CLIError(f"{path}: column {name!r} holds {kind}, expected {need}")
        self.total: int | None = self.file.metadata.num_rows
        self.rows = self._rows(wanted, chunk)

    def _rows(self, wanted: list[str], chunk: int) -> Iterator[Rows]:
        start = 0
        try:
            for batch in self.file.iter_batches(batch_size=chunk, columns=wanted,
                                                use_threads=self.threads):
                yield self._read(batch, start)
                start += batch.num_rows
        except (OSError, pa.ArrowException) as exc:
            raise CLIError(f"cannot read {self.name}: {exc}") from None

    def _read(self, batch: pa.RecordBatch, start: int) -> Rows:
        """One record batch as Rows: counts, positions, and the errors of null or bad rows."""
        n = batch.num_rows
        nulls = np.zeros(n, bool)
        for col in batch.columns:
            if col.null_count:
                nulls |= col.is_null().to_numpy(zero_copy_only=False)
        if self.hand is None:
            cols = [_ints(c) for c in batch.columns]
            block = np.empty((n, 27), np.result_type(*cols))
            for k, col in enumerate(cols):
                block[:, k] = col
            rows = count_rows(block, start)
        else:
            texts = batch.column(0).to_pylist()
            counts, errors = parse_lines([t.encode("utf-8", "surrogateescape") if t else b""
                                          for t in texts])
            rows = Rows(counts, np.arange(start, start + n), errors)
        for i in np.flatnonzero(nulls).tolist():
            rows.counts[i] = 0
            rows.errors[i] = "no hand (null)"
        return rows

    def close(self) -> None:
        self.file.close()

    def __enter__(self) -> ParquetInput:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _arrow(values: np.ndarray) -> pa.Array:
    """A numpy column as an Arrow array over the same memory (pa.array would import pandas on
    first use, a third of a second per worker)."""
    values = np.ascontiguousarray(values)
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), len(values),
                                 [None, pa.py_buffer(values)])


class ParquetWriter(Writer):
    """Results written as Parquet to ``OUT.part`` (one row group per chunk), renamed on
    :meth:`finish`."""

    def __init__(self, path: str, what: Sequence[str], pos_name: str,
                 metadata: dict[str, str] | None = None) -> None:
        """``metadata``: key-value pairs kept in the file's schema (``--dask`` records the
        options of each shard there)."""
        self.what, self.pos_name = list(what), pos_name
        self.schema = output_schema(what, pos_name)
        if metadata:
            self.schema = self.schema.with_metadata(metadata)
        super().__init__(path, b"")
        try:
            self.out = pq.ParquetWriter(self.f, self.schema)
        except (OSError, pa.ArrowException) as exc:
            self.discard()
            raise self._failed(exc) from None

    def _failed(self, exc: Exception) -> CLIError:
        return self._error(exc) if isinstance(exc, OSError) else \
            CLIError(f"cannot write {self.path}: {exc}")

    def write(self, rows: Rows, cols: dict[str, np.ndarray], errors: dict[int, str]) -> None:
        """Append one chunk as a row group."""
        arrays: list[Any] = [_arrow(rows.where.astype(np.int64, copy=False))]
        for w in self.what:
            col = cols[w]
            arrays += list(map(_arrow, np.ascontiguousarray(col.T))) if w == "effective" \
                else [_arrow(col)]
        if errors:
            err: list[str | None] = [None] * rows.counts.shape[0]
            for i, msg in errors.items():
                err[i] = msg
            arrays.append(pa.array(err, pa.string()))
        else:
            arrays.append(pa.nulls(rows.counts.shape[0], pa.string()))
        try:
            self.out.write_batch(pa.RecordBatch.from_arrays(arrays, schema=self.schema))
        except (OSError, pa.ArrowException) as exc:
            raise self._failed(exc) from None

    def _end(self) -> None:
        try:
            self.out.close()
        except pa.ArrowException as exc:
            raise self._failed(exc) from None

    def discard(self) -> None:
        """Close the Parquet writer first (it would write its footer into a closed file when
        collected), then remove OUT.part."""
        out = getattr(self, "out", None)
        if out is not None:
            with contextlib.suppress(OSError, pa.ArrowException):
                out.close()
        super().discard()
