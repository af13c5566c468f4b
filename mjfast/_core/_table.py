"""The Python face of ``_table.pxi``, one area of the compiled core's one extension module
(``mjfast._core._ext``); typed by ``_table.pyi``."""

from mjfast._core._ext import (
    EXTERNAL,
    MAX_DISCARDS,
    MAX_PLAYERS,
    MULT,
    NUM_ACTIONS,
    PARAMS,
    SCALARS,
    Batch,
    Runner,
    deal_wall,
    selfplay,
)

__all__ = [
    "Batch", "EXTERNAL", "MAX_DISCARDS", "MAX_PLAYERS", "MULT", "NUM_ACTIONS", "PARAMS", "Runner",
    "SCALARS", "deal_wall", "selfplay",
]
