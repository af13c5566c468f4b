"""Printing benchmark results: a plain-text table, the README's Markdown table, machine info."""

from __future__ import annotations

import os
import platform
from collections.abc import Sequence
from typing import Any

import numpy as np

from .timing import Result

__all__ = ["format_markdown", "format_table", "machine_info", "rate_text"]


def rate_text(rate: float) -> str:
    """A rate for people: ``12.34 M``, ``56.7 k`` or ``89``.

    >>> rate_text(12_345_678), rate_text(56_749), rate_text(89.4)
    ('12.35 M', '56.7 k', '89')
    """
    if rate >= 1e6:
        return f"{rate / 1e6:.2f} M"
    if rate >= 1e3:
        return f"{rate / 1e3:.1f} k"
    return f"{rate:.0f}"


def _ratio_text(r: Result) -> str:
    if r.ratio is None:
        return ""
    if r.peer:
        return f"mjfast x{r.ratio:.1f}"
    return f"x{r.ratio:.2f} vs {r.compare}"


def format_table(results: Sequence[Result]) -> str:
    """A plain-text table: case, size, rate and ratio; skipped cases last, with the reason."""
    rows = [("case", "n", "rate", "ratio", "what")]
    for r in results:
        if r.skipped:
            continue
        rows.append((r.name, f"{r.n:,}", f"{rate_text(r.rate)} {r.unit}", _ratio_text(r), r.title))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = []
    for i, row in enumerate(rows):
        cells = [row[0].ljust(widths[0]), row[1].rjust(widths[1]), row[2].rjust(widths[2]),
                 row[3].ljust(widths[3]), row[4]]
        lines.append("  ".join(cells).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths) + "  " + "-" * 4)
    lines += [f"skipped {r.name}: {r.skipped}" for r in results if r.skipped]
    peers = [r for r in results if r.peer and not r.skipped]
    if peers:
        lines.append("")
        lines.append("peers (ratio = mjfast shanten_regular rate / peer rate, measured in this run on random "
                     "14-tile hands; each peer checked against mjfast first):")
        for r in peers:
            lines.append(f"  {r.peer} {r.extra.get('version', '?')}: {r.extra.get('api', '')}")
    return "\n".join(lines)


def format_markdown(results: Sequence[Result]) -> str:
    """The README table (Markdown) of the same results."""
    lines = ["| case | what | n | rate | ratio |", "|---|---|---:|---:|---|"]
    for r in results:
        if r.skipped:
            continue
        lines.append(f"| `{r.name}` | {r.title} | {r.n:,} | {rate_text(r.rate)} {r.unit} | "
                     f"{_ratio_text(r)} |")
    return "\n".join(lines)


def machine_info() -> dict[str, Any]:
    """CPU count, numpy version, the OpenBLAS thread setting and the load average at the start
    (rates from a loaded machine are low; compare ratios from the same run), for the report."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {"cpus": os.cpu_count(), "python": platform.python_version(),
            "numpy": np.__version__, "machine": platform.machine(),
            "OPENBLAS_NUM_THREADS": os.environ.get("OPENBLAS_NUM_THREADS"),
            "load_average": None if load is None else round(load, 2)}
