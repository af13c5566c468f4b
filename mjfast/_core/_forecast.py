"""The Python face of ``_forecast.pxi``, one area of the compiled core's one extension module
(``mjfast._core._ext``); typed by ``_forecast.pyi``."""

from mjfast._core._ext import (
    ERR_BYTES,
    ERR_EMPTY_POOL,
    ERR_FLUSH,
    ERR_NOMEM,
    ERR_STATES,
    ERR_STOPPED,
    ERR_WORK,
    MAX_DRAWS,
    OBJ_VALUE,
    OBJ_WIN,
    POLL,
)
from mjfast._core._ext import (
    forecast_run_rows as run_rows,
)

__all__ = [
    "ERR_BYTES", "ERR_EMPTY_POOL", "ERR_FLUSH", "ERR_NOMEM", "ERR_STATES", "ERR_STOPPED",
    "ERR_WORK", "MAX_DRAWS", "OBJ_VALUE", "OBJ_WIN", "POLL", "run_rows",
]
