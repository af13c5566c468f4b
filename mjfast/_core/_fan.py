"""The Python face of ``_fan.pxi``, one area of the compiled core's one extension module
(``mjfast._core._ext``); typed by ``_fan.pyi``."""

from mjfast._core._ext import (
    COMPLETE_PATTERNS,
    ERR_CONCEALED,
    ERR_FLAGS,
    ERR_WIN_NOT_HELD,
    ERR_WIN_RANGE,
    FLAG_BITS,
    INVALID,
    OP_FAN,
    OP_MAX_FAN,
    READING_BITS,
    RULES_SIZE,
    bind_single,
    lookup,
    max_fan_one,
    score_one,
    suit_table,
)
from mjfast._core._ext import (
    fan_run_rows as run_rows,
)

__all__ = [
    "COMPLETE_PATTERNS", "ERR_CONCEALED", "ERR_FLAGS", "ERR_WIN_NOT_HELD", "ERR_WIN_RANGE",
    "FLAG_BITS", "INVALID", "OP_FAN", "OP_MAX_FAN", "READING_BITS", "RULES_SIZE", "bind_single",
    "lookup", "max_fan_one", "run_rows", "score_one", "suit_table",
]
