"""Shanten (向听数), the winning-hand test and waits (叫/听), for one hand or a batch."""

from __future__ import annotations

from typing import Any, overload

import numpy as np

from ._args import as_int
from ._batch import call
from ._core import _kernels
from ._typing import (
    Bools,
    Form,
    HandRow,
    HandRows,
    HandsLike,
    Int8s,
    ManyHands,
    Masks,
    OneHand,
    VoidSuits,
)
from .errors import InvalidArgumentError

__all__ = ["UNWINNABLE", "INVALID_ROW", "INVALID_MASK", "shanten", "is_win", "waits", "mask_to_tiles"]

#: Shanten of a hand that can never win (melds in three suits, a meld in the declared void suit,
#: seven pairs asked for with melds or in a short hand, ``sets`` < 4).
UNWINNABLE: int = _kernels.UNWINNABLE
#: What ``errors="coerce"`` writes into int8 outputs for a row that is not a valid hand.
INVALID_ROW: int = _kernels.INVALID_ROW
#: What ``errors="coerce"`` writes into the uint32 output of :func:`waits` for a bad row.
INVALID_MASK: int = _kernels.INVALID_MASK


@overload
def shanten(hands: OneHand, *,  # type: ignore[overload-overlap]
            form: Form = ..., melds: Any = ..., void_suit: VoidSuits = ...,
            void_rule: bool = ..., workers: int = ..., out: np.ndarray | None = ...,
            errors: str = ..., sets: int = ...) -> int: ...
@overload
def shanten(hands: ManyHands | HandRows, *, form: Form = ..., melds: Any = ..., void_suit: VoidSuits = ...,
            void_rule: bool = ..., workers: int = ..., out: np.ndarray | None = ...,
            errors: str = ..., sets: int = ...) -> Int8s: ...
@overload
def shanten(hands: HandRow, *, form: Form = ..., melds: Any = ..., void_suit: VoidSuits = ...,
            void_rule: bool = ..., workers: int = ..., out: np.ndarray | None = ...,
            errors: str = ..., sets: int = ...) -> int: ...
@overload
def shanten(hands: np.ndarray, *, form: Form = ..., melds: Any = ..., void_suit: VoidSuits = ...,
            void_rule: bool = ..., workers: int = ..., out: np.ndarray | None = ...,
            errors: str = ..., sets: int = ...) -> int | Int8s: ...
def shanten(hands: HandsLike | ManyHands, *, form: Form = "all", melds: Any = None,
            void_suit: VoidSuits = None,
            void_rule: bool = True, workers: int = 1, out: np.ndarray | None = None,
            errors: str = "raise", sets: int = 4) -> int | Int8s:
    """Shanten number: -1 complete, 0 ready (下叫), ``UNWINNABLE`` (127) if it can never win.

    The least number of tile exchanges to a winning hand, minus one (RULES.md section 3), over
    winning hands with the same melds, at most 4 copies of a kind counting melds, and, with
    ``void_rule`` (default), at most two suits and none of the declared ``void_suit``.

    Args:
        hands: one hand (tile string, 27 counts, 1-D array) with 13-3m or 14-3m concealed tiles
            (with ``sets``: 3 * sets + 1 - 3m or 3 * sets + 2 - 3m),
            or a batch: an (N, 27) C-contiguous integer array (uint8 avoids a copy) or a list of
            tile strings.
        form: ``"all"`` (the minimum), ``"regular"`` (sets + pair) or ``"seven_pairs"``.
        melds: meld strings / ``Meld`` objects (``["pung:5p", "kong:1m"]``) or counts per kind
            (3 pung, 4 kong): (27,) for every row or (N, 27).
        void_suit: None, ``"m"``/``"p"``/``"s"`` or 0/1/2, or an (N,) int array (-1 = none).
        void_rule: False gives the unconstrained (riichi-style) number; seven pairs keeps quads
            as two pairs.
        workers: threads for a batch (-1 = all cores).
        out: an (N,) int8 array to fill.
        errors: ``"coerce"`` writes ``INVALID_ROW`` (-100) for bad rows instead of raising.
        sets: the sets of a complete hand: 4, or 3 / 2 for the short hands of the 5- and
            6-player tables (RULES.md 7: 10/11 and 7/8 tiles). Melds count against them. Seven
            pairs needs 14 tiles, so with fewer sets ``form="seven_pairs"`` is ``UNWINNABLE``
            and ``"all"`` is the regular form.

    Returns:
        an int for one hand, an (N,) int8 array for a batch.

    Example:
        >>> shanten("123m456m789m11p23p")     # waits on 1p/4p
        0
        >>> shanten("123m456p789s11s23m")     # three suits: one must go
        3
        >>> shanten("123m456p789s11s23m", void_rule=False)
        0
        >>> shanten("123m456m11p23p", sets=3)   # a 10-tile hand of the 5-player table
        0
    """
    return call(_kernels.OP_SHANTEN, hands, out_dtype=np.int8, form=form, melds=melds,
                void_suit=void_suit, void_rule=void_rule, workers=workers, out=out, errors=errors,
                sets=sets)


@overload
def is_win(hands: OneHand, *,  # type: ignore[overload-overlap]
           melds: Any = ..., void_suit: VoidSuits = ...,
           void_rule: bool = ..., workers: int = ..., out: np.ndarray | None = ...,
           errors: str = ..., sets: int = ...) -> bool: ...
@overload
def is_win(hands: ManyHands | HandRows, *, melds: Any = ..., void_suit: VoidSuits = ...,
           void_rule: bool = ..., workers: int = ..., out: np.ndarray | None = ...,
           errors: str = ..., sets: int = ...) -> Bools: ...
@overload
def is_win(hands: HandRow, *, melds: Any = ..., void_suit: VoidSuits = ...,
           void_rule: bool = ..., workers: int = ..., out: np.ndarray | None = ...,
           errors: str = ..., sets: int = ...) -> bool: ...
@overload
def is_win(hands: np.ndarray, *, melds: Any = ..., void_suit: VoidSuits = ...,
           void_rule: bool = ..., workers: int = ..., out: np.ndarray | None = ...,
           errors: str = ..., sets: int = ...) -> bool | Bools: ...
def is_win(hands: HandsLike | ManyHands, *, melds: Any = None, void_suit: VoidSuits = None,
           void_rule: bool = True,
           workers: int = 1, out: np.ndarray | None = None,
           errors: str = "raise", sets: int = 4) -> bool | Bools:
    """Is a 14-3m hand a winning hand (regular form or seven pairs, under the void rule)?

    A 13-3m hand is not complete and gives False; other sizes raise. With ``errors="coerce"``
    bad rows give False. Options as for :func:`shanten`.

    Example:
        >>> is_win("11223344556677m")    # seven pairs, one suit
        True
        >>> is_win("123m456p789s11s23m4m")
        False
        >>> is_win("11335577m", sets=2), is_win("123m44m", melds=["pung:5m"], sets=2)
        (False, True)
    """
    return call(_kernels.OP_IS_WIN, hands, out_dtype=np.bool_, melds=melds, void_suit=void_suit,
                void_rule=void_rule, workers=workers, out=out, errors=errors, sets=sets)


@overload
def waits(hands: OneHand, *,  # type: ignore[overload-overlap]
          melds: Any = ..., void_suit: VoidSuits = ...,
          void_rule: bool = ..., workers: int = ..., out: np.ndarray | None = ...,
          errors: str = ..., sets: int = ...) -> int: ...
@overload
def waits(hands: ManyHands | HandRows, *, melds: Any = ..., void_suit: VoidSuits = ...,
          void_rule: bool = ..., workers: int = ..., out: np.ndarray | None = ...,
          errors: str = ..., sets: int = ...) -> Masks: ...
@overload
def waits(hands: HandRow, *, melds: Any = ..., void_suit: VoidSuits = ...,
          void_rule: bool = ..., workers: int = ..., out: np.ndarray | None = ...,
          errors: str = ..., sets: int = ...) -> int: ...
@overload
def waits(hands: np.ndarray, *, melds: Any = ..., void_suit: VoidSuits = ...,
          void_rule: bool = ..., workers: int = ..., out: np.ndarray | None = ...,
          errors: str = ..., sets: int = ...) -> int | Masks: ...
def waits(hands: HandsLike | ManyHands, *, melds: Any = None, void_suit: VoidSuits = None,
          void_rule: bool = True,
          workers: int = 1, out: np.ndarray | None = None,
          errors: str = "raise", sets: int = 4) -> int | Masks:
    """Waits of 13-3m hands as 27-bit masks (bit t = kind t completes the hand).

    A kind the player already holds four times (melds included) is never a wait: there is no
    fifth copy. Under the void rule the completed hand must hold at most two suits and none of
    the declared void suit. A hand that is not ready has mask 0. Options as for
    :func:`mjfast.shanten`; ``errors="coerce"`` writes ``INVALID_MASK`` for bad rows.

    Example:
        >>> mask_to_tiles(waits("1112345678999m"))        # the nine-gate wait
        [0, 1, 2, 3, 4, 5, 6, 7, 8]
        >>> from mjfast import format_tile
        >>> [format_tile(t) for t in mask_to_tiles(waits("1112345678m456p"))]
        ['2m', '3m', '5m', '6m', '8m', '9m']
        >>> [format_tile(t) for t in mask_to_tiles(waits("1112345m", sets=2))]
        ['2m', '3m', '5m', '6m']
    """
    return call(_kernels.OP_WAITS, hands, out_dtype=np.uint32, melds=melds, void_suit=void_suit,
                void_rule=void_rule, workers=workers, out=out, errors=errors, sets=sets)


def mask_to_tiles(mask: int) -> list[int]:
    """Kind indices (0-26) set in a wait mask, ascending.

    *mask* is an int (Python or numpy; not a bool, float or str) from 0 to ``2**27 - 1``,
    else :class:`~mjfast.errors.InvalidArgumentError`.

    Example:
        >>> mask_to_tiles(0b1001)
        [0, 3]
    """
    m = as_int(mask, "mask")
    if m < 0 or m >= 1 << 27:
        what = f"{m:#x}" if m.bit_length() <= 64 else f"an int of {m.bit_length()} bits"
        raise InvalidArgumentError(f"mask: {what} is not a 27-bit wait mask")
    return [t for t in range(27) if m >> t & 1]
