"""The Python face of ``_kernels.pxi``, one area of the compiled core's one extension module
(``mjfast._core._ext``); typed by ``_kernels.pyi``."""

from mjfast._core._ext import (
    INVALID_MASK,
    INVALID_ROW,
    NOT_HELD,
    OP_DISCARDS,
    OP_EFFECTIVE,
    OP_IS_WIN,
    OP_SHANTEN,
    OP_WAITS,
    UNWINNABLE,
    capped_vector,
    one,
    table_bytes,
)
from mjfast._core._ext import (
    kernels_run_rows as run_rows,
)

__all__ = [
    "INVALID_MASK", "INVALID_ROW", "NOT_HELD", "OP_DISCARDS", "OP_EFFECTIVE", "OP_IS_WIN",
    "OP_SHANTEN", "OP_WAITS", "UNWINNABLE", "capped_vector", "one", "run_rows", "table_bytes",
]
