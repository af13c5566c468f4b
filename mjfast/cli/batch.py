"""``mjfast batch INPUT OUTPUT``: shanten / waits / effective tiles / max fan of a file of hands.

The input is read once, in chunks (:mod:`.batch_io`: files, pipes, FIFOs, ``-`` for stdin;
:mod:`.batch_parquet`: Parquet);
each chunk runs through the batch kernels with ``errors="coerce"`` and the bad rows are then
worded one by one, so one bad row neither stops the fast path nor loses its reason. Results go
to ``OUT.part`` (:mod:`.batch_out`), renamed to OUT once complete and removed on any error or
interrupt, so a failed run leaves no partial output.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mjfast import analysis, efficiency
from mjfast._typing import Form
from mjfast.bench.report import rate_text
from mjfast.errors import InvalidHandError
from mjfast.rules import Rules
from mjfast.scoring.batch import max_fan
from mjfast.tiles import Style

from .batch_io import NOT_READY, Input, Rows
from .batch_out import NpyWriter, TextWriter, Writer
from .common import PROG, CLIError, Progress, rules_of

__all__ = ["BATCH_CHUNK", "NOT_READY", "WHAT", "check_paths", "cmd_batch", "computer_of", "optional",
           "run_file", "what_type"]

BATCH_CHUNK = 1 << 16
WHAT = ("shanten", "waits", "effective", "max_fan", "forecast")
_OUTPUTS = (".npy", ".csv", ".jsonl", ".parquet")


def what_type(text: str) -> list[str]:
    """``--what``: a comma list of quantities (repeats dropped)."""
    what = [w.strip() for w in text.split(",") if w.strip()]
    if not what or any(w not in WHAT for w in what):
        raise CLIError(f"--what: expected a comma list of {', '.join(WHAT)}, got {text!r}")
    return list(dict.fromkeys(what))


class _Computer:
    """Runs the requested kernels over one chunk with ``errors="coerce"`` and finds bad rows."""

    def __init__(self, what: Sequence[str], *, form: Form, void_rule: bool, void: int | None,
                 workers: int, rules: Rules | None, sets: int = 4) -> None:
        self.what, self.form, self.void, self.workers, self.rules = what, form, void, workers, rules
        self.sets = sets
        self.kw: dict[str, Any] = {"void_rule": void_rule, "void_suit": void, "workers": workers,
                                   "sets": sets}

    def _call(self, name: str, hands: np.ndarray, errors: str = "coerce") -> np.ndarray:
        if name == "shanten":
            return np.asarray(analysis.shanten(hands, form=self.form, errors=errors, **self.kw))
        if name == "waits":
            return np.asarray(analysis.waits(hands, errors=errors, **self.kw))
        return efficiency.effective_tiles(hands, form=self.form, errors=errors, **self.kw)

    def _columns(self, hands: np.ndarray) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
        """The kernel columns (waits too when max_fan needs them) and each one's bad rows."""
        cols: dict[str, np.ndarray] = {}
        bad_by: dict[str, np.ndarray] = {}
        need_waits = "waits" in self.what or "max_fan" in self.what
        for name in ("shanten", "waits", "effective"):
            if name not in self.what and not (name == "waits" and need_waits):
                continue
            col = cols[name] = self._call(name, hands)
            if name == "shanten":
                bad_by[name] = col == analysis.INVALID_ROW
            elif name == "waits":
                bad_by[name] = col == analysis.INVALID_MASK
            else:
                bad_by[name] = col[:, 0] == analysis.INVALID_ROW
        return cols, bad_by

    def compute(self, rows: Rows, reasons: bool = True) -> tuple[dict[str, np.ndarray], dict[int, str]]:
        """The output columns and ``{row index in chunk: error}`` for every bad row.

        With ``reasons=False`` only the first bad row's error is worded (the others get "").
        """
        hands = rows.counts
        cols, bad_by = self._columns(hands)
        if "max_fan" in self.what:
            cols["max_fan"] = self._max_fan(hands, cols["waits"], bad_by["waits"])
            if "waits" not in self.what:
                del cols["waits"]
        errors = dict(rows.errors)
        for i in rows.errors:
            for name, col in cols.items():
                col[i] = analysis.INVALID_MASK if name == "waits" else analysis.INVALID_ROW
        bad = np.logical_or.reduce(list(bad_by.values()))
        first = min(errors) if errors else hands.shape[0]
        for i in map(int, np.flatnonzero(bad)):
            if i in errors:
                continue
            errors[i] = self._reason(hands[i:i + 1], bad_by, i) if reasons or i < first else ""
            first = min(first, i)
        return cols, errors

    def _max_fan(self, hands: np.ndarray, waits: np.ndarray, bad: np.ndarray) -> np.ndarray:
        """F per row of the ready rows (:func:`mjfast.max_fan`); NOT_READY for the
        others, INVALID_ROW for bad rows."""
        fan = np.full(hands.shape[0], NOT_READY, np.int16)
        fan[bad] = analysis.INVALID_ROW
        ready = np.flatnonzero((waits != 0) & ~bad)
        if ready.size:
            fan[ready] = max_fan(np.ascontiguousarray(hands[ready]), void_suit=self.void,
                                 rules=self.rules, workers=self.workers, sets=self.sets)
        return fan

    def _reason(self, row: np.ndarray, bad_by: dict[str, np.ndarray], i: int) -> str:
        """The library's words for a bad row: the kernel that refused it, run on it alone."""
        for name, b in bad_by.items():
            if b[i]:
                try:
                    self._call(name, row, errors="raise")
                except (InvalidHandError, ValueError) as exc:
                    msg = str(exc)
                    return msg.split(": ", 1)[1] if msg.startswith("hands[") else msg
        return "invalid hand"


def check_paths(src: str, dst: str) -> None:
    if src != "-" and not os.path.exists(src):
        raise CLIError(f"{src}: no such file")
    if src != "-" and os.path.isdir(src):
        raise CLIError(f"{src}: is a directory, expected a file")
    if Path(dst).suffix.lower() not in _OUTPUTS:
        raise CLIError(f"{dst}: the output must be a file ending in .npy, .csv, .jsonl or .parquet")
    if os.path.isdir(dst):
        raise CLIError(f"cannot write {dst}: it is a directory")
    if src != "-" and (os.path.abspath(src) == os.path.abspath(dst)
                       or os.path.exists(dst) and os.path.samefile(src, dst)):
        raise CLIError(f"{dst}: the output would overwrite the input")


def optional(module: str, extra: str) -> Any:
    """An optional dependency's module, or a one-line hint to install the extra that has it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise CLIError(f"this needs {exc.name or module}: pip install 'mjfast[{extra}]'") from None


def _open_output(path: str, what: list[str], pos_name: str, style: Style,
                 metadata: dict[str, str] | None = None) -> Writer:
    """A writer of the kind the suffix of ``path`` names (``metadata``: Parquet only)."""
    kind = Path(path).suffix.lower()
    if kind == ".npy":
        return NpyWriter(path, what)
    if kind == ".parquet":
        return optional("mjfast.cli.batch_parquet", "parquet").ParquetWriter(path, what, pos_name,
                                                                             metadata)
    return TextWriter(path, what, pos_name, style, jsonl=kind == ".jsonl")


def _open_input(path: str, chunk: int, workers: int) -> Any:
    """An input of the kind the suffix of ``path`` names (:class:`.batch_io.Input` or
    :class:`.batch_parquet.ParquetInput`, which decodes on several threads only when
    ``workers`` > 1)."""
    if path.lower().endswith(".parquet"):
        parquet = optional("mjfast.cli.batch_parquet", "parquet")
        return parquet.ParquetInput(path, chunk, threads=workers > 1)
    return Input(path, chunk)


def computer_of(args: argparse.Namespace) -> _Computer:
    """The kernels to run, once the options are known to fit together."""
    if "max_fan" in args.what and args.no_void_rule:
        raise CLIError("--what max_fan: the fan always applies the void rule; drop --no-void-rule")
    if args.void is not None and args.no_void_rule:
        raise CLIError("--void needs the void rule; drop --no-void-rule")
    rules = rules_of(args.rules, args.option) if "max_fan" in args.what else None
    return _Computer(args.what, form=args.form, void_rule=not args.no_void_rule, void=args.void,
                     workers=args.workers, rules=rules, sets=args.sets)


def run_file(args: argparse.Namespace, computer: _Computer,
             metadata: dict[str, str] | None = None) -> tuple[int, int, str | None]:
    """Stream the input through ``computer`` into the output: (rows, bad rows, first error)."""
    with _open_input(args.input, args.chunk, args.workers) as inp:
        writer = _open_output(args.output, args.what, inp.pos_name, args.style, metadata)
        progress: Progress | None = None
        done = bad_rows = 0
        first_bad: str | None = None
        try:  # at once: a Ctrl-C from here on removes OUT.part
            reasons = not isinstance(writer, NpyWriter)  # a .npy keeps no error text: word the first
            progress = Progress(inp.total, "batch", "rows")
            for rows in inp.rows:
                cols, errors = computer.compute(rows, reasons=reasons)
                if errors:
                    i = min(errors)
                    msg = f"{inp.name}: {inp.pos_name} {int(rows.where[i])}: {errors[i]}"
                    if args.errors == "raise":
                        raise CLIError(msg + " (use --errors coerce to mark bad rows and go on)")
                    bad_rows += len(errors)
                    first_bad = first_bad or msg
                writer.write(rows, cols, errors)
                done += rows.counts.shape[0]
                progress.update(done)
            writer.finish()
        except BaseException:
            writer.discard()
            raise
        finally:
            if progress is not None:
                progress.close()
    return done, bad_rows, first_bad


def cmd_batch(args: argparse.Namespace) -> int:
    """Shanten / waits / effective tiles / max fan (or the forecast) of every hand of a file."""
    if "forecast" in args.what:
        from .batch_forecast import cmd_batch_forecast

        return cmd_batch_forecast(args)
    computer = computer_of(args)
    check_paths(args.input, args.output)
    t0 = time.perf_counter()
    done, bad_rows, first_bad = run_file(args, computer)
    seconds = time.perf_counter() - t0
    note = (f"; {bad_rows:,} bad row{'s' if bad_rows != 1 else ''} marked (first: {first_bad})"
            if bad_rows else "")
    print(f"{PROG}: batch: {done:,} rows -> {args.output} in {seconds:.2f} s "
          f"({rate_text(done / max(seconds, 1e-9))} rows/s){note}", file=sys.stderr)
    return 0
