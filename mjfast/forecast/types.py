"""Result types of :mod:`mjfast.forecast`: :class:`Forecast`, :class:`VoidChoice` and
:class:`PlanChoice`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["Forecast", "PlanChoice", "VoidChoice"]


@dataclass(frozen=True, eq=False)
class Forecast:
    """Exact forecast of one hand (or a batch: every array gains a leading N axis).

    For a 13-3m hand: ``ready`` and ``win`` are (T,) float64, the probability of being ready (or
    having won) after each draw and of having won by each draw; ``value`` the expected payment
    per payer (a float; (N,) for a batch); ``best_discard`` and ``is_win`` are None.

    For a 14-3m hand: the same per discard, ``ready``/``win`` (27, T) and ``value`` (27,), NaN in
    the rows of kinds that cannot be discarded (not held, or barred by the 定缺 rule);
    ``best_discard`` the discard that maximises the objective (lowest kind on ties) and
    ``is_win`` whether the 14 tiles already win ((N,) arrays for a batch).
    """

    ready: np.ndarray
    win: np.ndarray
    value: np.ndarray | float
    draws: int
    objective: str  # "win" or "value"
    exchanges: int | None  # the budget (None: no budget)
    best_discard: np.ndarray | int | None = None
    is_win: np.ndarray | bool | None = None
    backward: bool = False
    flush: int | None = None  # the suit of the 清一色 plan (None: every win counts)
    candidates: str = "all"  # "keep": only the discards of the lowest shanten (others NaN)

    @property
    def complete(self) -> bool:
        """True for 14-3m input (per-discard arrays)."""
        return self.best_discard is not None

    def score(self) -> np.ndarray | float:
        """The objective: P(win) within all the draws ("win") or the expected value ("value"),
        per discard for 14-3m input."""
        if self.objective == "value":
            return self.value
        if self.draws == 0:
            return np.zeros(self.win.shape[:-1]) if self.win.ndim > 1 else 0.0
        last = self.win[..., -1]
        return float(last) if np.ndim(last) == 0 else last

    def plot(self, ax: Axes | None = None) -> Axes:
        """P(ready) and P(win) by draw on ``ax`` (a new figure's by default), one pair of curves
        per legal discard for a 14 - 3m hand (:func:`mjfast.plot.forecast`; the ``plot``
        extra). Returns the Axes.

        >>> import mjfast
        >>> ax = mjfast.forecast("123m456m789m23p55p", draws=6).plot()
        >>> ax.get_xlabel(), [line.get_label() for line in ax.get_lines()]
        ('own draws', ['P(ready)', 'P(win)'])
        """
        from mjfast import plot

        return plot.forecast(self, ax)


@dataclass(frozen=True)
class VoidChoice:
    """One void suit of :func:`~mjfast.forecast.choose_void`: its forecast, the discard it
    plays from a 14-tile hand (None for 13), and the objective's score."""

    suit: int
    score: float
    win: float
    value: float
    discard: int | None
    forecast: Forecast

    def __str__(self) -> str:
        from mjfast.tiles import SUITS

        return _choice_text(f"void {SUITS[self.suit]}", self.win, self.value, self.discard)


@dataclass(frozen=True)
class PlanChoice:
    """One plan of :func:`~mjfast.forecast.choose_plan`: ``flush`` the suit of a 清一色 plan (None:
    the hand as it stands, every win counting), its forecast, the discard it plays from a 14-3m
    hand (None for 13-3m), and the objective's score."""

    flush: int | None
    score: float
    win: float
    value: float
    discard: int | None
    forecast: Forecast

    def __str__(self) -> str:
        from mjfast.tiles import SUITS

        name = "as it stands" if self.flush is None else f"flush {SUITS[self.flush]}"
        return _choice_text(name, self.win, self.value, self.discard)


def _choice_text(name: str, win: float, value: float, discard: int | None) -> str:
    """One ranked choice on one line: what :class:`VoidChoice` and :class:`PlanChoice` print."""
    from mjfast.tiles import format_tile

    how = "" if discard is None else f", discard {format_tile(discard)}"
    return f"{name}: P(win) {win:.4f}, value {value:.4f}{how}"
