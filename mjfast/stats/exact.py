"""Exact deal statistics: how many of the C(108, n) deals have each shanten, with no sampling.

A hand's shanten depends on each suit only through a small key (its class in the suit tables,
its tile count and its pairs), so :func:`exact` groups the 5**9 patterns of each suit by key,
weights each pattern by the number of ways the wall deals it (the product of C(4, c) over its
kinds) and convolves the three suits' keys in C (``src/mjfast_exact.h``): about 400 keys per
suit instead of 10**17 hands, in well under a second.

>>> st = exact(14)
>>> st.total == 139_737_927_523_546_800, st.wins, st.probability("wins")
(True, 1180592035056, Fraction(390407419, 46209632117575))
>>> round(1 / st.rate("wins"))  # 天胡 under the void rule
118363
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Union

import numpy as np

from mjfast._args import as_flag, as_form, as_int, counts_list
from mjfast._core import _stats
from mjfast._notation import kind_name
from mjfast.errors import InvalidArgumentError, shown

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["UNWINNABLE", "Event", "ExactStats", "exact"]

UNWINNABLE = 127
"""The shanten of a hand that can never win (seven pairs with fewer than 13 tiles)."""

Event = Union[int, str]
"""What :meth:`ExactStats.probability` measures: a shanten value, ``"wins"`` or
``"ready_after_discard"``."""

_FORM_CODES = {"all": 0, "regular": 1, "seven_pairs": 2}
_FULL_WALL = (4,) * 27


@dataclass(frozen=True)
class ExactStats:
    """The shanten distribution over every deal of ``tiles`` tiles, as exact counts.

    A hand of n tiles is the concealed part of a hand with (14 - n) // 3 melds: it aims at
    (n - 1) // 3 sets and the pair (seven pairs only for 13 and 14 tiles, which have no melds),
    with no declared void suit.

    Attributes:
        tiles: tiles per deal (1-14).
        void_rule: whether shanten follows the void rule (缺一门).
        form: ``"all"``, ``"regular"`` or ``"seven_pairs"``.
        wall: the copies of each kind in the wall (27 ints; 4 each for the 108-tile wall).
        total: the number of deals, C(sum(wall), tiles).
        shanten: shanten -> number of deals (-1 complete, 127 cannot win); empty when ``tiles``
            is a multiple of 3 (no hand has that many concealed tiles).
        wins: complete deals (shanten -1): 天胡 for 14 tiles; 0 unless tiles % 3 == 2.
        ready_after_discard: for tiles % 3 == 2 (the dealer's 14), the deals whose best discard
            leaves a ready hand: shanten -1 or 0 (a complete hand is ready after any discard);
            None otherwise.
    """

    tiles: int
    void_rule: bool
    form: str
    wall: tuple[int, ...]
    total: int
    shanten: dict[int, int]
    wins: int
    ready_after_discard: int | None

    def count(self, event: Event) -> int:
        """Deals with ``event``: a shanten value, ``"wins"`` or ``"ready_after_discard"``."""
        if isinstance(event, str):
            if event == "wins":
                return self.wins
            if event == "ready_after_discard":
                if self.ready_after_discard is None:
                    raise InvalidArgumentError(
                        f"event: 'ready_after_discard' needs 3k + 2 tiles, not {self.tiles}")
                return self.ready_after_discard
            raise InvalidArgumentError(
                f"event: expected a shanten, 'wins' or 'ready_after_discard', got {shown(event)}")
        return self.shanten.get(as_int(event, "event"), 0)

    def probability(self, event: Event = "wins") -> Fraction:
        """The exact probability of ``event`` (see :meth:`count`) for one deal."""
        return Fraction(self.count(event), self.total)

    def rate(self, event: Event = "wins") -> float:
        """:meth:`probability` as a float."""
        return self.count(event) / self.total

    def mean_shanten(self) -> Fraction | None:
        """The exact mean shanten (None with no shanten rows, or when a hand cannot win)."""
        if not self.shanten or UNWINNABLE in self.shanten:
            return None
        return Fraction(sum(s * n for s, n in self.shanten.items()), self.total)

    def plot(self, ax: Axes | None = None) -> Axes:
        """The shanten distribution with and without the void rule, side by side, on ``ax`` (a
        new figure's by default; :func:`mjfast.plot.exact_stats`, the ``plot`` extra).

        >>> ax = exact(14).plot()
        >>> ax.get_xlabel(), [t.get_text() for t in ax.get_legend().get_texts()]
        ('shanten', ['void rule', 'no void rule'])
        """
        from mjfast import plot

        other = exact(self.tiles, void_rule=not self.void_rule, form=self.form, wall=self.wall)
        void, free = (self, other) if self.void_rule else (other, self)
        return plot.exact_stats(void, free, ax)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: exact counts as ints, probabilities as floats."""
        mean = self.mean_shanten()
        ready = self.ready_after_discard
        return {
            "tiles": self.tiles, "wall": sum(self.wall), "void_rule": self.void_rule,
            "form": self.form, "total": self.total,
            "shanten": {str(s): n for s, n in self.shanten.items()},
            "probability": {str(s): n / self.total for s, n in self.shanten.items()},
            "mean_shanten": None if mean is None else float(mean),
            "wins": self.wins, "win_probability": self.wins / self.total,
            "ready_after_discard": ready,
            "ready_after_discard_probability": None if ready is None else ready / self.total,
        }


def _as_wall(wall: object) -> tuple[int, ...]:
    if wall is None:
        return _FULL_WALL
    copies = counts_list(wall, "wall")
    for k, c in enumerate(copies):
        if c > 4:
            raise InvalidArgumentError(f"wall: tile {kind_name(k)} has {shown(c)} copies (max 4)")
    return tuple(copies)


def exact(tiles: int = 14, *, void_rule: bool = True, form: str = "all",
          wall: Sequence[int] | None = None) -> ExactStats:
    """The exact shanten distribution of every deal of ``tiles`` tiles (each of the C(108, n)
    sets of tiles counted once).

    Args:
        tiles: 1 to 14 (14: the dealer's hand, 13: the others').
        void_rule: shanten under the void rule (缺一门), or the unconstrained variant.
        form: ``"all"``, ``"regular"`` or ``"seven_pairs"``.
        wall: the copies of each of the 27 kinds in the wall (0-4 each; None: the 108-tile wall,
            4 of each). A reduced wall (one or two suits) is what the brute-force tests use.

    Returns:
        an :class:`ExactStats` of Python ints (exact: the bins add up to ``total``).

    Raises:
        InvalidArgumentError: an argument outside its accepted set, or more tiles than the wall.
    """
    tiles = as_int(tiles, "tiles", minimum=1, maximum=14)
    void_rule = as_flag(void_rule, "void_rule")
    form = as_form(form)
    copies = _as_wall(wall)
    size = sum(copies)
    if tiles > size:
        raise InvalidArgumentError(f"tiles: expected at most the {size} tiles of the wall, got {tiles}")
    total = math.comb(size, tiles)
    shanten: dict[int, int] = {}
    if tiles % 3:
        bins = _stats.exact_counts(tiles, np.array(copies, np.uint8), void_rule, _FORM_CODES[form])
        if sum(bins) != total:  # every partial sum is a count of deals: this cannot wrap
            raise RuntimeError(f"exact: the bins add up to {sum(bins)}, not C({size}, {tiles})")
        last = len(bins) - 1
        shanten = {(UNWINNABLE if d == last else d - 1): n for d, n in enumerate(bins) if n}
    ready = None
    if tiles % 3 == 2:
        ready = shanten.get(-1, 0) + shanten.get(0, 0)
    return ExactStats(tiles, void_rule, form, copies, total, shanten, shanten.get(-1, 0), ready)
