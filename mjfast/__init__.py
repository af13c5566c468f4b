"""mjfast: a compiled analysis core for Sichuan mahjong (成都麻将, 血战到底).

Hands are 27-count arrays (1-9m, 1-9p, 1-9s); every kernel takes one hand (tile string, 27
counts) or an (N, 27) uint8 batch. See README.md and RULES.md for the rules implemented. Every
analysis function takes ``sets=`` (4; 3 or 2 for the short hands of the 5- and 6-player tables).

    >>> import mjfast
    >>> mjfast.shanten("123m456m789m11p23p")
    0
    >>> [mjfast.format_tile(t) for t in mjfast.mask_to_tiles(mjfast.waits("123m456m789m11p23p"))]
    ['1p', '4p']
"""

try:
    from ._core import _kernels  # noqa: F401
except ImportError as exc:  # pragma: no cover - only without a build
    raise ImportError(
        "mjfast: the compiled core (mjfast._core._kernels) is missing or broken. Build it with "
        "`pip install .` (or `pip install -e . --no-build-isolation` for development, rerun after "
        f"editing a .pyx or src/*.h file). Original error: {exc}"
    ) from exc

from ._version import __version__ as __version__
from .analysis import INVALID_MASK, INVALID_ROW, UNWINNABLE, is_win, mask_to_tiles, shanten, waits
from .capi import get_include
from .efficiency import NOT_HELD, Discard, advise, discards, effective_tiles
from .errors import InvalidArgumentError, InvalidHandError, TileParseError
from .forecast import Forecast, PlanChoice, VoidChoice, choose_plan, choose_void, forecast
from .rules import PRESETS, Fan, Rules
from .scoring import Decomposition, FanResult, MaxFan, WaitFan, decompose, fan, max_fan, score
from .scoring.batch import INVALID_FAN
from .settlement import PlayerState, Reason, Round, Settlement, Transfer, settle_draw
from .table import SelfPlayResult, Table, TableBatch, selfplay
from .tiles import (
    NUM_KINDS,
    SUITS,
    Meld,
    MeldKind,
    format_hand,
    format_tile,
    melds_to_counts,
    parse_hand,
    parse_melds,
    parse_tile,
)

__all__ = [
    "INVALID_FAN",
    "INVALID_MASK",
    "INVALID_ROW",
    "NOT_HELD",
    "NUM_KINDS",
    "PRESETS",
    "SUITS",
    "UNWINNABLE",
    "Decomposition",
    "Discard",
    "Fan",
    "FanResult",
    "Forecast",
    "InvalidArgumentError",
    "InvalidHandError",
    "MaxFan",
    "Meld",
    "MeldKind",
    "PlanChoice",
    "PlayerState",
    "Reason",
    "Round",
    "Rules",
    "SelfPlayResult",
    "Settlement",
    "Table",
    "TableBatch",
    "TileParseError",
    "Transfer",
    "VoidChoice",
    "WaitFan",
    "advise",
    "choose_plan",
    "choose_void",
    "decompose",
    "discards",
    "effective_tiles",
    "fan",
    "forecast",
    "format_hand",
    "format_tile",
    "get_include",
    "is_win",
    "mask_to_tiles",
    "max_fan",
    "melds_to_counts",
    "parse_hand",
    "parse_melds",
    "parse_tile",
    "score",
    "selfplay",
    "settle_draw",
    "shanten",
    "waits",
]
