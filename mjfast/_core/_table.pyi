"""Type stub of the compiled table engine (mjfast/_core/_table.pxi)."""

from typing import Any

import numpy as np

NUM_ACTIONS: int
MAX_DISCARDS: int
MAX_PLAYERS: int
SCALARS: tuple[str, ...]
PARAMS: tuple[str, ...]
MULT: int

def deal_wall(seed: int, index: int) -> np.ndarray: ...
def selfplay(
    fan: np.ndarray,
    params: np.ndarray,
    kinds: np.ndarray,
    seed: int,
    start: int,
    end: int,
    order: np.ndarray,
    fans: np.ndarray,
    net: np.ndarray,
    pig: np.ndarray,
    cha: np.ndarray,
    dealin: np.ndarray,
    turns: np.ndarray,
    flags: np.ndarray,
    dealers: np.ndarray,
    log: np.ndarray | None,
    session: int = ...,
    check: bool = ...,
) -> list[tuple[int, int]]: ...

class Batch:
    def __init__(self, n: int, players: int, fan: np.ndarray, params: np.ndarray,
                 seed: int) -> None: ...
    def reset(self, seed: int | None = None) -> None: ...
    def masks(self, out: np.ndarray) -> None: ...
    def step(self, actions: np.ndarray, rewards: np.ndarray, done: np.ndarray,
             deal: bool = ...) -> int: ...
    def deal_done(self, done: np.ndarray) -> None: ...
    def observe_rows(self, which: np.ndarray, seats: np.ndarray, *arrays: Any) -> None: ...
    def observe(self, *arrays: Any) -> None: ...
    def sample(self, out: np.ndarray) -> None: ...
    def current(self, out: np.ndarray) -> None: ...

EXTERNAL: int

class Runner:
    def __init__(self, k: int, kinds: np.ndarray, fan: np.ndarray, params: np.ndarray,
                 seed: int, start: int, end: int, order: np.ndarray, fans: np.ndarray,
                 net: np.ndarray, pig: np.ndarray, cha: np.ndarray, dealin: np.ndarray,
                 turns: np.ndarray, flags: np.ndarray, dealers: np.ndarray,
                 session: int = ...) -> None: ...
    def advance(self, waiting: np.ndarray) -> int: ...
    def act(self, which: np.ndarray, actions: np.ndarray) -> int: ...
    def observe(self, which: np.ndarray, *arrays: Any) -> None: ...
