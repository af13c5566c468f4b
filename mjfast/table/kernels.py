"""The shanten kernels called straight on the engine's own arrays.

The table and its players pass hands they built themselves (always valid, melds as counts), so
they skip the public functions' argument checks, which cost ten times the kernel on one hand.
A row the kernel refuses is a bug of the engine: AssertionError.
"""

from __future__ import annotations

import numpy as np

from mjfast._core import _kernels

__all__ = ["discards_after", "effective_counts", "shanten_of", "waits_of"]


def _run(op: int, hands: np.ndarray, melds: np.ndarray, void: int,
         visible: np.ndarray | None, out: np.ndarray, sets: int) -> np.ndarray:
    # Without melds the kernels take their fast path: pass none rather than 27 zeros.
    given = melds if melds.any() else None
    bad, code, a, b = _kernels.run_rows(op, hands, given, None, void, visible, True, 0, sets,
                                        False, out, 0, hands.shape[0])
    if bad >= 0:
        raise AssertionError(f"table kernel op {op}: row {bad} refused (code {code}, {a}, {b})")
    return out


def waits_of(hand: np.ndarray, melds: np.ndarray, void: int, sets: int = 4) -> int:
    """The 27-bit wait mask of one 3 * sets + 1 - 3m hand (melds as (27,) counts 3/4)."""
    out = np.empty(1, dtype=np.uint32)
    return int(_run(_kernels.OP_WAITS, hand.reshape(1, 27), melds, void, None, out, sets)[0])


def shanten_of(hand: np.ndarray, melds: np.ndarray, void: int, sets: int = 4) -> int:
    """Shanten (all forms, void rule) of one 13-3m or 14-3m hand (with ``sets`` 3 or 2: the
    short hands of 5 and 6 seats)."""
    out = np.empty(1, dtype=np.int8)
    return int(_run(_kernels.OP_SHANTEN, hand.reshape(1, 27), melds, void, None, out, sets)[0])


def discards_after(hand: np.ndarray, melds: np.ndarray, void: int, sets: int = 4) -> np.ndarray:
    """(27,) shanten after discarding each kind of one 14-3m hand (``NOT_HELD`` if not held)."""
    out = np.empty((1, 27), dtype=np.int8)
    return _run(_kernels.OP_DISCARDS, hand.reshape(1, 27), melds, void, None, out, sets)[0]


def effective_counts(hands: np.ndarray, melds: np.ndarray, void: int,
                     visible: np.ndarray, sets: int = 4) -> np.ndarray:
    """(N, 27) effective tiles of N 13-3m hands (-1 = not effective, else copies left)."""
    out = np.empty((hands.shape[0], 27), dtype=np.int8)
    return _run(_kernels.OP_EFFECTIVE, np.ascontiguousarray(hands), melds, void,
                np.ascontiguousarray(visible), out, sets)
