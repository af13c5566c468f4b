"""Type stub of the compiled forecast engine (mjfast/_core/_forecast.pxi)."""

import numpy as np

MAX_DRAWS: int
OBJ_WIN: int
OBJ_VALUE: int
ERR_STATES: int
ERR_NOMEM: int
ERR_EMPTY_POOL: int
ERR_BYTES: int
ERR_WORK: int
ERR_STOPPED: int
POLL: int
ERR_FLUSH: int

def run_rows(
    hands: np.ndarray,
    melds: np.ndarray | None,
    voids: np.ndarray | None,
    void_scalar: int,
    visible: np.ndarray | None,
    draws: int,
    exchanges: int,
    backward: bool,
    flush: int,
    keep: bool,
    objective: int,
    sets: int,
    complete: bool,
    rules: np.ndarray,
    pay: np.ndarray,
    max_states: int,
    max_bytes: int,
    max_work: int,
    stop: np.ndarray,
    ready: np.ndarray,
    win: np.ndarray,
    value: np.ndarray,
    best: np.ndarray,
    is_win: np.ndarray,
    start: int,
    end: int,
) -> tuple[int, int, int, int, int, int, int]: ...
