"""Type stub of the compiled fan kernels (mjfast/_core/_fan.pyx)."""

from typing import Optional

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
FLAG_BITS: tuple[int, int, int, int, int, int, int]
COMPLETE_PATTERNS: int

def suit_table() -> tuple[np.ndarray, np.ndarray]: ...
def lookup(idx: int) -> int: ...
def run_rows(
    op: int,
    hands: np.ndarray,
    melds: Optional[np.ndarray],
    conc: Optional[np.ndarray],
    voids: Optional[np.ndarray],
    void_scalar: int,
    wins: Optional[np.ndarray],
    win_scalar: int,
    flags: Optional[np.ndarray],
    flag_scalar: int,
    visible: Optional[np.ndarray],
    rules: np.ndarray,
    coerce: bool,
    out: np.ndarray,
    best: Optional[np.ndarray],
    start: int,
    end: int,
) -> tuple[int, int, int, int]: ...
