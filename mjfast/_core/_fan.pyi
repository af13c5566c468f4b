"""Type stub of the compiled fan kernels (mjfast/_core/_fan.pxi)."""

from collections.abc import Callable
from typing import Any

import numpy as np

RULES_SIZE: int
INVALID: int
ERR_WIN_NOT_HELD: int
ERR_FLAGS: int
ERR_CONCEALED: int
ERR_WIN_RANGE: int
OP_FAN: int
OP_MAX_FAN: int
READING_BITS: tuple[int, int, int, int, int]
FLAG_BITS: tuple[int, int, int, int, int, int, int, int]
COMPLETE_PATTERNS: int

def suit_table() -> tuple[np.ndarray, np.ndarray]: ...
def lookup(idx: int) -> int: ...
def run_rows(
    op: int,
    hands: np.ndarray,
    melds: np.ndarray | None,
    conc: np.ndarray | None,
    voids: np.ndarray | None,
    void_scalar: int,
    wins: np.ndarray | None,
    win_scalar: int,
    flags: np.ndarray | None,
    flag_scalar: int,
    visible: np.ndarray | None,
    rules: np.ndarray,
    sets: int,
    coerce: bool,
    out: np.ndarray,
    best: np.ndarray | None,
    start: int,
    end: int,
) -> tuple[int, int, int, int]: ...
def bind_single(
    fan_result: type,
    max_fan: type,
    not_win: object,
    meld_rows: Callable[[object], tuple[Any, bytes | None, bytes | None] | None],
    score_fields: Callable[..., dict[str, object]],
    wait_fields: Callable[..., dict[str, object]],
    describe: Callable[[object], tuple[Any, np.ndarray, bool, int] | None],
    voids: dict[str, int],
) -> None: ...
def score_one(
    hand: object,
    win_tile: object,
    melds: object,
    void_suit: object,
    self_drawn: object,
    after_kong: object,
    after_kong_discard: object,
    robbing_kong: object,
    last_tile: object,
    tian_hu: object,
    di_hu: object,
    jue_zhang: object,
    rules: object,
    sets: object,
) -> Any: ...
def max_fan_one(
    hand: object,
    melds: object,
    void_suit: object,
    visible: object,
    rules: object,
    sets: object,
    workers: object,
    out: object,
    best_wait: object,
    errors: object,
    best_tile: object,
) -> Any: ...
