"""Type stub of the compiled core (mjfast/_core/_kernels.pxi)."""

from typing import Any

import numpy as np

OP_SHANTEN: int
OP_IS_WIN: int
OP_WAITS: int
OP_EFFECTIVE: int
OP_DISCARDS: int
UNWINNABLE: int
NOT_HELD: int
INVALID_ROW: int
INVALID_MASK: int

def table_bytes() -> bytes: ...
def run_rows(
    op: int,
    hands: np.ndarray,
    melds: np.ndarray | None,
    voids: np.ndarray | None,
    void_scalar: int,
    visible: np.ndarray | None,
    void_rule: bool,
    form: int,
    sets: int,
    coerce: bool,
    out: np.ndarray | None,
    start: int,
    end: int,
) -> tuple[int, int, int, int]: ...
def capped_vector(counts: np.ndarray, caps: np.ndarray) -> list[int]: ...
def one(
    op: int,
    hand: object,
    form: object,
    void_suit: object,
    void_rule: object,
    melds: object,
    visible: object,
    out: object,
    workers: object,
    errors: object,
    sets: object,
) -> Any: ...
