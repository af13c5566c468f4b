"""The policy class of a forecast (RULES.md 9): the one check of ``exchanges``, ``backward``,
``flush`` and ``candidates``, shared by every function and command that forecasts.

>>> p = as_policy(exchanges=1, backward=True, flush="s")
>>> p.exchanges, p.backward, p.flush, p.budget
(1, True, 2, 1)
>>> as_policy(exchanges=None).budget
-1
>>> as_policy(exchanges=False)  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
mjfast.errors.InvalidArgumentError: exchanges: ... write exchanges=0 for False (no exchange, ...
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mjfast._args import as_choice, as_flag, as_int, as_void
from mjfast.errors import InvalidArgumentError

__all__ = ["CANDIDATES", "Policy", "as_policy"]

CANDIDATES: tuple[str, ...] = ("all", "keep")
"""Values of ``candidates=``: every legal discard of a 14-3m hand, or only those that keep its
lowest shanten (the others' rows NaN)."""


@dataclass(frozen=True)
class Policy:
    """A checked policy class: ``exchanges`` the budget (None: no budget), ``backward``,
    ``flush`` the suit index of the 清一色 plan (None: every win counts), ``candidates``."""

    exchanges: int | None = 0
    backward: bool = False
    flush: int | None = None
    candidates: str = "all"

    @property
    def budget(self) -> int:
        """The engine's budget: the int, or -1 for none (a run of at most 27 draws spends at
        most 27, so a larger budget is passed as 27: the same class)."""
        return -1 if self.exchanges is None else min(self.exchanges, 27)


def as_exchanges(value: object) -> int | None:
    """An exchange budget: an int >= 0 or None (no budget); a bool is refused with the
    replacement spelled out (the option was a bool before it was a budget)."""
    if isinstance(value, (bool, np.bool_)):
        raise InvalidArgumentError(
            "exchanges: a budget (an int >= 0) or None, not a bool: write exchanges=0 for False "
            "(no exchange, the default) or exchanges=None for True (every exchange, no budget)")
    return None if value is None else as_int(value, "exchanges", minimum=0)


def as_policy(*, exchanges: object = 0, backward: object = False, flush: object = None,
              candidates: object = "all") -> Policy:
    """Check the four options of a policy class (RULES.md 9); ``backward`` needs a budget."""
    budget = as_exchanges(exchanges)
    back = as_flag(backward, "backward")
    if back and budget is None:
        raise InvalidArgumentError(
            "backward: backward moves need a finite exchange budget (exchanges=K), not None")
    suit = as_void(flush, "flush")
    return Policy(budget, back, None if suit < 0 else suit,
                  as_choice(candidates, "candidates", CANDIDATES))
