"""``mjfast batch IN OUT.npz --what forecast --draws T``: the per-discard forecast arrays of every
hand of a file (mjfast.forecast), written as one ``.npz``."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

from mjfast.bench.report import rate_text
from mjfast.errors import InvalidHandError
from mjfast.forecast import forecast

from .batch_io import Input
from .common import PROG, CLIError, rules_of
from .forecast_text import policy_of

__all__ = ["cmd_batch_forecast"]


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


def cmd_batch_forecast(args: argparse.Namespace) -> int:
    """Forecast every hand (all 13 - 3m or all 14 - 3m tiles; 3 * sets + 1 - 3m and one more
    with ``--sets``) and save the arrays: ``ready`` and
    ``win`` (N, T) or (N, 27, T), ``value`` (N,) or (N, 27), and for 14 - 3m hands
    ``best_discard`` and ``is_win`` (N,)."""
    _check(args)
    rules = rules_of(args.rules, args.option)
    t0 = time.perf_counter()
    parts: dict[str, list[np.ndarray]] = {}
    with Input(args.input, args.chunk) as inp:
        for rows in inp.rows:
            if rows.errors:
                i = min(rows.errors)
                raise CLIError(f"{inp.source.name}: {inp.pos_name} {int(rows.where[i])}: "
                               f"{rows.errors[i]}")
            try:
                f = forecast(np.ascontiguousarray(rows.counts), draws=args.draws,
                             void_suit=args.void, rules=rules, objective=args.objective,
                             candidates=args.candidates, workers=args.workers, sets=args.sets,
                             **policy_of(args))
            except InvalidHandError as exc:
                raise CLIError(f"{inp.source.name}: {exc}") from None
            for name in ("ready", "win", "value", "best_discard", "is_win"):
                value = getattr(f, name)
                if value is not None:
                    parts.setdefault(name, []).append(value)
    arrays = {k: np.concatenate(v) for k, v in parts.items()}
    part = args.output + ".part"
    with open(part, "wb") as fh:
        np.savez(fh, **arrays)  # type: ignore[arg-type]
    os.replace(part, args.output)
    done = len(arrays["value"]) if arrays else 0
    seconds = time.perf_counter() - t0
    print(f"{PROG}: batch: {done:,} rows -> {args.output} in {seconds:.2f} s "
          f"({rate_text(done / max(seconds, 1e-9))} rows/s)", file=sys.stderr)
    return 0
