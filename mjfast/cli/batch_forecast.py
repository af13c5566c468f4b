"""``mjfast batch IN OUT.npz --what forecast --draws T``: the per-discard forecast arrays of every
hand of a file (mjfast.forecast), written as one ``.npz``.

Streamed: each chunk of ``--chunk`` rows is forecast and its arrays appended to the output
(:class:`.batch_out.NpzWriter`), so memory is bounded by one chunk, whatever the file's size.
The output is opened before any work (a missing directory fails at once); a bad row stops the
run named by its line (or row) in the file.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path

import numpy as np

from mjfast.bench.report import rate_text
from mjfast.errors import InvalidHandError
from mjfast.forecast import forecast
from mjfast.rules import Rules

from .batch_io import Input, Rows
from .batch_out import NpzWriter
from .common import PROG, CLIError, Progress, rules_of

__all__ = ["cmd_batch_forecast"]

_ROW = re.compile(r"^hands\[(\d+)\]: ")
_ARRAYS = ("ready", "win", "value", "best_discard", "is_win")


def _check(args: argparse.Namespace) -> None:
    if args.what != ["forecast"]:
        raise CLIError("--what forecast: ask for it alone (its arrays go to a .npz of their own)")
    if args.draws is None:
        raise CLIError("--what forecast needs --draws T")
    if Path(args.output).suffix.lower() != ".npz":
        raise CLIError(f"{args.output}: --what forecast writes a .npz (ready, win, value, "
                       "best_discard, is_win)")
    if args.errors != "raise" or args.no_void_rule:
        raise CLIError("--what forecast: takes neither --errors coerce nor --no-void-rule")
    if args.input != "-" and not os.path.exists(args.input):
        raise CLIError(f"{args.input}: no such file")
    if os.path.isdir(args.output):
        raise CLIError(f"cannot write {args.output}: it is a directory")


class _Sizes:
    """The tile count of the file's first row: every later chunk must hold the same (the arrays
    of 13 - 3m and 14 - 3m hands have different shapes)."""

    def __init__(self) -> None:
        self.tiles: int | None = None
        self.where = 0

    def check(self, rows: Rows, name: str, pos_name: str) -> None:
        """Refuse the chunk's first row that could not be read, or is of another size."""
        if rows.errors:
            i = min(rows.errors)
            raise CLIError(f"{name}: {pos_name} {int(rows.where[i])}: {rows.errors[i]}")
        sizes = rows.counts.sum(axis=1, dtype=np.int64)
        if self.tiles is None and sizes.size:
            self.tiles, self.where = int(sizes[0]), int(rows.where[0])
        other = np.flatnonzero(sizes != self.tiles)
        if other.size:
            i = int(other[0])
            raise CLIError(f"{name}: {pos_name} {int(rows.where[i])}: {int(sizes[i])} tiles, but "
                           f"{pos_name} {self.where} has {self.tiles} (a forecast batch takes "
                           "hands of one size)")


def _forecast(rows: Rows, args: argparse.Namespace, rules: Rules | None, name: str,
              pos_name: str) -> dict[str, np.ndarray]:
    """One chunk's arrays; a bad row is named by its position in the file."""
    try:
        f = forecast(np.ascontiguousarray(rows.counts), draws=args.draws, void_suit=args.void,
                     rules=rules, objective=args.objective, exchanges=args.exchanges,
                     workers=args.workers, sets=args.sets)
    except InvalidHandError as exc:
        msg = str(exc)
        m = _ROW.match(msg)
        if m is None:
            raise CLIError(f"{name}: {msg}") from None
        where = int(rows.where[int(m.group(1))])
        raise CLIError(f"{name}: {pos_name} {where}: {msg[m.end():]}") from None
    return {k: getattr(f, k) for k in _ARRAYS if getattr(f, k) is not None}


def cmd_batch_forecast(args: argparse.Namespace) -> int:
    """Forecast every hand (all 13 - 3m or all 14 - 3m tiles; 3 * sets + 1 - 3m and one more
    with ``--sets``) and save the arrays: ``ready`` and
    ``win`` (N, T) or (N, 27, T), ``value`` (N,) or (N, 27), and for 14 - 3m hands
    ``best_discard`` and ``is_win`` (N,)."""
    _check(args)
    rules = rules_of(args.rules, args.option)
    t0 = time.perf_counter()
    writer = NpzWriter(args.output)  # before any work: an unwritable output fails at once
    done = 0
    try:
        with Input(args.input, args.chunk) as inp:
            progress = Progress(inp.total, "batch", "rows")
            sizes = _Sizes()
            try:
                for rows in inp.rows:
                    sizes.check(rows, inp.name, inp.pos_name)
                    writer.write(rows, _forecast(rows, args, rules, inp.name, inp.pos_name), {})
                    done += rows.counts.shape[0]
                    progress.update(done)
            finally:
                progress.close()
        writer.finish()
    except BaseException:
        writer.discard()
        raise
    seconds = time.perf_counter() - t0
    print(f"{PROG}: batch: {done:,} rows -> {args.output} in {seconds:.2f} s "
          f"({rate_text(done / max(seconds, 1e-9))} rows/s)", file=sys.stderr)
    return 0
