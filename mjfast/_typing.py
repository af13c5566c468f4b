"""Type aliases of the public signatures, in one place (the accepted sets are in mjfast._args)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal, Union

import numpy as np
import numpy.typing as npt

from mjfast.rules import Rules
from mjfast.tiles import Meld

__all__ = ["Bools", "Errors", "Form", "HandArray", "HandLike", "HandRow", "HandRows",
           "HandsArray", "HandsLike", "Int8s", "ManyHands", "Masks", "MeldsLike", "OneHand",
           "RulesLike", "TileLike", "VoidSuit", "VoidSuits"]

HandLike = Union[str, Sequence[int], np.ndarray]
"""One hand: a tile string, 27 int counts, or a (27,) integer array."""
HandsLike = Union[HandLike, Sequence[str]]
"""One hand, or a batch: an (N, 27) integer array or a list of tile strings."""

# The overloads of the kernels tell one hand from a batch by these (a hand as a plain
# ``np.ndarray``, whose number of dimensions the type does not say, gets the union of both).
OneHand = Union[str, Sequence[int]]
"""One hand that is not an array: a tile string or 27 int counts."""
ManyHands = Union[Sequence[str], Sequence[Sequence[int]], Sequence[np.ndarray]]
"""A batch that is not an array: tile strings, or rows of 27 counts."""
HandRow = np.ndarray[tuple[int], np.dtype[Any]]
"""One hand as a 1-D array whose type says so (what :func:`mjfast.parse_hand` returns)."""
HandRows = np.ndarray[tuple[int, int], np.dtype[Any]]
"""A batch as an array typed 2-D, or an ``npt.NDArray`` (shape unknown: taken as a batch)."""
HandArray = np.ndarray[tuple[int], np.dtype[np.uint8]]
"""(27,) uint8 counts of one hand."""
HandsArray = np.ndarray[tuple[int, int], np.dtype[np.uint8]]
"""(N, 27) uint8 counts of N hands."""
Int8s = npt.NDArray[np.int8]
"""(N,) int8 per row (shanten)."""
Bools = npt.NDArray[np.bool_]
"""(N,) bool per row."""
Masks = npt.NDArray[np.uint32]
"""(N,) uint32 wait masks per row."""
MeldsLike = Union[None, str, Meld, Iterable[Union[str, Meld]], np.ndarray]
"""Melds: strings such as ``"pung:5p"``, Meld objects, or counts per kind (3 pung, 4 kong)."""
TileLike = Union[int, str]
"""A tile: ``"5p"`` (any notation) or a kind index 0..26."""
VoidSuit = Union[None, int, str]
"""None or -1 (none), 0-2, ``"m"``/``"p"``/``"s"`` or ``"万"``/``"筒"``/``"饼"``/``"条"``/``"索"``."""
VoidSuits = Union[VoidSuit, np.ndarray, Sequence[int]]
"""A void suit for every row, or an (N,) int array (-1 = none) for a batch."""
RulesLike = Union[Rules, str, None]
"""A :class:`~mjfast.rules.Rules`, a preset name, or None for ``chengdu``."""
Form = Literal["all", "regular", "seven_pairs"]
Errors = Literal["raise", "coerce"]
