"""The Python face of ``_stats.pxi``, one area of the compiled core's one extension module
(``mjfast._core._ext``); typed by ``_stats.pyi``."""

from mjfast._core._ext import (
    BINS,
    EXACT_BINS,
    analyse_rows,
    deal_rows,
    exact_counts,
    run_chunk,
)

__all__ = [
    "BINS", "EXACT_BINS", "analyse_rows", "deal_rows", "exact_counts", "run_chunk",
]
