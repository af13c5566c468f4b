"""Type aliases of the public signatures, in one place (the accepted sets are in mjfast._args)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal, Union

import numpy as np

from mjfast.rules import Rules
from mjfast.tiles import Meld

__all__ = ["Errors", "Form", "HandLike", "HandsLike", "MeldsLike", "RulesLike", "TileLike",
           "VoidSuit", "VoidSuits"]

HandLike = Union[str, Sequence[int], np.ndarray]
"""One hand: a tile string, 27 int counts, or a (27,) integer array."""
HandsLike = Union[HandLike, Sequence[str]]
"""One hand, or a batch: an (N, 27) integer array or a list of tile strings."""
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
