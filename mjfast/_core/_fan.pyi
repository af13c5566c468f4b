"""Type stub of the compiled fan kernels (mjfast/_core/_fan.pyx)."""


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
