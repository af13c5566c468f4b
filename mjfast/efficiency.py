"""Effective tiles (有效牌/进张) and discard analysis."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._args import OBJECTIVES, as_choice, as_rules
from ._batch import call
from ._core import _kernels
from ._typing import Form, HandLike, HandsLike, VoidSuits
from ._validate import prepare
from .errors import InvalidArgumentError
from .forecast import policy as _policy

__all__ = ["NOT_HELD", "Discard", "effective_tiles", "discards", "advise"]

#: What :func:`discards` reports for a kind the hand does not hold.
NOT_HELD: int = _kernels.NOT_HELD


def effective_tiles(hands: HandsLike, *, visible: Any = None, form: Form = "all", melds: Any = None,
                    void_suit: VoidSuits = None, void_rule: bool = True, workers: int = 1,
                    out: np.ndarray | None = None, errors: str = "raise",
                    sets: int = 4) -> np.ndarray:
    """For 13-3m hands: per kind, -1 if drawing it does not lower shanten, else the copies left.

    Copies left = 4 - copies held (melds included) - ``visible`` copies (seen outside the hand:
    discards, others' melds), never below 0: an effective kind whose copies are all seen is still
    listed, with 0. A kind held four times is never effective. ``visible`` is (27,) or (N, 27).
    ``sets`` as for :func:`~mjfast.shanten` (3 * sets + 1 - 3m tiles).

    Returns:
        a (27,) int8 array for one hand, (N, 27) for a batch.

    Example:
        >>> from mjfast import format_tile
        >>> eff = effective_tiles("123m456m789m23p55p", visible="4p")
        >>> {format_tile(t): int(n) for t, n in enumerate(eff) if n >= 0}
        {'1p': 4, '4p': 3}
        >>> eff = effective_tiles("123m23p55p", sets=2)      # a 7-tile hand (6 players)
        >>> {format_tile(t): int(n) for t, n in enumerate(eff) if n >= 0}
        {'1p': 4, '4p': 4}
    """
    return call(_kernels.OP_EFFECTIVE, hands, out_dtype=np.int8, out_row=(27,), visible=visible,
                form=form, melds=melds, void_suit=void_suit, void_rule=void_rule, workers=workers,
                out=out, errors=errors, sets=sets)


def discards(hands: HandsLike, *, visible: Any = None, form: Form = "all", melds: Any = None,
             void_suit: VoidSuits = None, void_rule: bool = True, workers: int = 1,
             out: np.ndarray | None = None, errors: str = "raise", sets: int = 4) -> np.ndarray:
    """For 14-3m hands: per kind, the shanten after discarding one copy (``NOT_HELD`` = -128
    where the kind is not held).

    ``visible`` is checked against the hand (no kind held and seen more than 4 times) like in
    :func:`effective_tiles`, so one set of arguments serves both; it does not change shanten.
    ``sets`` as for :func:`~mjfast.shanten` (3 * sets + 2 - 3m tiles).
    :func:`advise` combines the two into ranked discard advice.

    Returns:
        a (27,) int8 array for one hand, (N, 27) for a batch.

    Example:
        >>> from mjfast import parse_tile
        >>> d = discards("123m456m789m23p55p9s")
        >>> int(d[parse_tile("9s")]), int(d[parse_tile("1m")]), int(d[parse_tile("1p")])
        (0, 1, -128)
    """
    return call(_kernels.OP_DISCARDS, hands, out_dtype=np.int8, out_row=(27,), visible=visible, form=form,
                melds=melds, void_suit=void_suit, void_rule=void_rule, workers=workers, out=out,
                errors=errors, sets=sets)


@dataclass(frozen=True)
class Discard:
    """One discard candidate of :func:`advise` (``win`` / ``value``: the forecast, with
    ``draws=``; NaN where the 定缺 rule bars the discard)."""

    tile: int
    shanten: int
    effective_count: int
    effective: tuple[int, ...]
    win: float | None = None
    value: float | None = None

    def __str__(self) -> str:
        from .tiles import format_tile

        tiles = " ".join(format_tile(t) for t in self.effective)
        text = (f"discard {format_tile(self.tile)}: shanten {self.shanten}, "
                f"{self.effective_count} tiles ({tiles})")
        if self.win is not None:
            text += f", P(win) {self.win:.4f}, value {self.value:.4f}"
        return text


def advise(hand: str | HandLike, *, visible: Any = None, form: Form = "all", melds: Any = None,
           void_suit: VoidSuits = None, void_rule: bool = True, sets: int = 4,
           draws: int | None = None, objective: str = "win", exchanges: int | None = 0,
           backward: bool = False, flush: Any = None, rules: Any = None) -> list[Discard]:
    """Rank the discards of one 14-3m hand by (shanten after, effective copies left, kind).

    Copies left are counted against all 14 tiles: the discarded tile counts as seen. ``sets``
    as for :func:`~mjfast.shanten` (3 * sets + 2 - 3m tiles). With
    ``draws=T`` the ranking is by the forecast instead (:func:`mjfast.forecast.forecast`: P(win)
    within T draws, or the expected value with ``objective="value"``; ``exchanges``,
    ``backward``, ``flush`` and ``rules`` as there), ties by effective tiles; discards the 定缺
    rule bars rank last.

    Example:
        >>> best = advise("123m456m789m23p55p9s")[0]
        >>> print(best)
        discard 9s: shanten 0, 8 tiles (1p 4p)
        >>> print(advise("123m23p55p9s", sets=2)[0])
        discard 9s: shanten 0, 8 tiles (1p 4p)
        >>> print(advise("123m456m789m2p55p9s1s", void_suit="s", draws=4)[0])
        discard 1s: shanten 1, 17 tiles (1p 2p 3p 4p 5p), P(win) 0.0633, value 0.1274
    """
    p = prepare(hand, melds=melds, void_suit=void_suit, void_rule=void_rule, form=form,
                visible=visible, sets=sets)
    if p.batch:
        raise InvalidArgumentError("hand: advise takes one hand; use discards() for a batch")
    # checked with or without draws: a bad value is an error even where it does not act
    as_choice(objective, "objective", OBJECTIVES)
    _policy.as_policy(exchanges=exchanges, backward=backward, flush=flush)
    as_rules(rules)
    counts = p.hands[0]
    after = discards(counts, form=form, melds=p.melds, void_suit=void_suit, void_rule=void_rule,
                     sets=p.sets)
    seen = np.zeros(27, np.uint8) if p.visible is None else p.visible.copy()
    fc = None
    if draws is not None:
        from .forecast import forecast

        fc = forecast(counts, draws=draws, melds=p.melds, void_suit=void_suit, visible=p.visible,
                      rules=rules, objective=objective, exchanges=exchanges, backward=backward,
                      flush=flush, sets=p.sets)
    ranked = []
    for t in (int(k) for k in np.nonzero(counts)[0]):
        rest = counts.copy()
        rest[t] -= 1
        seen_after = seen.copy()
        seen_after[t] += 1  # the discarded copy is seen, so it is not left to draw
        eff = effective_tiles(rest, visible=seen_after, form=form, melds=p.melds,
                              void_suit=void_suit, void_rule=void_rule, sets=p.sets)
        kinds = tuple(int(k) for k in np.nonzero(eff >= 0)[0])
        win = value = None
        if fc is not None:
            value = float(np.asarray(fc.value)[t])
            win = float(fc.win[t, -1]) if fc.draws else 0.0 * value  # NaN where barred
        ranked.append(Discard(t, int(after[t]), int(eff[eff > 0].sum()), kinds, win, value))
    if fc is None:
        ranked.sort(key=lambda d: (d.shanten, -d.effective_count, d.tile))
    else:
        key = "value" if fc.objective == "value" else "win"
        ranked.sort(key=lambda d: (-_score(getattr(d, key)), -d.effective_count, d.tile))
    return ranked


def _score(x: float | None) -> float:
    """A forecast score for sorting: a barred discard (NaN) below every other; rounded to 12
    decimals, so that equal forecasts (up to rounding) rank by effective tiles."""
    return -math.inf if x is None or math.isnan(x) else round(x, 12)
