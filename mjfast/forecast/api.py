"""Exact forecasts under the model of RULES.md section 9: :func:`forecast` and :func:`choose_void`.

The engine is C (``src/mjfast_forecast.h``, its docstring tells the method); this module checks
arguments, compiles the rules into the fan table and a payment table, and runs rows on threads.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from mjfast._args import OBJECTIVES, as_choice, as_flag, as_int, as_rules, as_void, hand_sizes
from mjfast._batch import run_chunks
from mjfast._core import _forecast
from mjfast._typing import HandLike, HandsLike, MeldsLike, RulesLike, VoidSuits
from mjfast._validate import prepare, row_error
from mjfast.errors import InvalidArgumentError, InvalidHandError
from mjfast.rules import MAX_FAN, Rules
from mjfast.scoring.patterns import compile_rules

from .types import Forecast, VoidChoice

__all__ = ["MAX_DRAWS", "MAX_STATES", "forecast", "choose_void"]

MAX_DRAWS: int = _forecast.MAX_DRAWS
"""The most draws a forecast looks ahead (27: the 108-tile wall left after the deal, shared)."""

MAX_STATES = 1_000_000
"""The most states one hand's graph may hold (at most about 0.5 GB at 27 draws with exchanges,
a quarter more without)."""
_CHUNK = 16  # rows per threaded task: one forecast takes from microseconds to a second
_GROW_TO = 1024  # one worker's chunks grow up to this while they are fast (run_chunks)


@functools.lru_cache(maxsize=64)
def payments(rules: Rules) -> np.ndarray:
    """Payment per payer of a self-drawn win by capped internal fan (index 0..MAX_FAN):
    ``rules.multiplier``, i.e. ``2 ** min(fan, cap)`` (the points x 1 under the ``points``
    model), plus one base with 自摸加底 (RULES.md 9).

    >>> payments(Rules()).tolist()[:4], payments(Rules.preset("points")).tolist()[:4]
    ([2.0, 3.0, 5.0, 9.0], [0.0, 1.0, 2.0, 3.0])
    """
    bonus = 1 if rules.self_draw == "add_base" else 0
    table = np.array([rules.multiplier(f) + bonus for f in range(MAX_FAN + 1)], np.float64)
    table.flags.writeable = False
    return table


def forecast(hand: HandsLike, *, draws: int, melds: MeldsLike = None, void_suit: VoidSuits = None,
             visible: Any = None, rules: RulesLike = None, objective: str = "win",
             exchanges: bool = True, workers: int = 1, sets: int = 4) -> Forecast:
    """Probability of being ready and of having won after each of ``draws`` own draws, and the
    expected payment, under optimal play (RULES.md 9: fixed pool, self-draw only, 定缺 rule).

    A 13-3m hand gives (T,) curves; a 14-3m hand gives them per legal discard, (27, T) with NaN
    rows, and its ``best_discard``. An (N, 27) array gives the same with a leading N axis (every
    row the same size: 13-3m or 14-3m), computed with the GIL released on ``workers`` threads.

    ``objective``: ``"win"`` plays to maximise the probability of winning within the draws,
    ``"value"`` the expected payment (2^min(fan, cap), +1 with 自摸加底; the points under the
    ``points`` model). ``exchanges``: True
    allows same-shanten exchanges (手替わり); False keeps a draw only when it lowers shanten.
    With exchanges the exact state graph grows ten- to twentyfold per draw (under a second up to
    4 draws at 1-2 shanten); past :data:`MAX_STATES` states the call raises
    :class:`~mjfast.errors.InvalidArgumentError`. Without, 18 draws take milliseconds at 1-2
    shanten and at most about a second at 5 (README "Forecasts"). ``sets`` as for
    :func:`~mjfast.shanten`: 3 or 2 forecast the short hands (3 * sets + 1 - 3m tiles, or one
    more for the per-discard form; seven pairs needs 4 sets).

    Raises:
        InvalidHandError: a bad hand, melds or visible counts (naming the row of a batch), rows
            of mixed sizes, or no tile left to draw.
        InvalidArgumentError: a bad option, or a hand past the state cap.

    Example:
        >>> f = forecast("123m456m789m23p55p", draws=2)
        >>> f.win.round(4).tolist()      # waits 1p 4p: 8 of 95 unseen tiles per draw
        [0.0842, 0.1613]
        >>> f = forecast("123m456m789m23p55p9s", draws=3)
        >>> from mjfast import format_tile
        >>> format_tile(f.best_discard), round(float(f.win[f.best_discard, -1]), 4)
        ('9s', 0.2342)
    """
    t = as_int(draws, "draws", minimum=0, maximum=MAX_DRAWS)
    goal = as_choice(objective, "objective", OBJECTIVES)
    swap = as_flag(exchanges, "exchanges")
    r = as_rules(rules)
    p = prepare(hand, melds=melds, void_suit=void_suit, visible=visible, workers=workers,
                sets=sets)
    n = p.hands.shape[0]
    complete = n > 0 and _complete(p.hands[0], p.melds, p.sets)  # zero rows: (0, T) curves
    per = 27 if complete else 1
    ready = np.empty((n * per, t))
    win = np.empty((n * per, t))
    value = np.empty(n * per)
    best = np.empty(n if complete else 0, np.int8)
    is_win = np.empty(n if complete else 0, np.uint8)
    table, pay = compile_rules(r), payments(r)
    obj = _forecast.OBJ_VALUE if goal == "value" else _forecast.OBJ_WIN

    def run(start: int, end: int) -> tuple[int, int, int, int]:
        res = _forecast.run_rows(p.hands, p.melds, p.voids, p.void_scalar, p.visible, t, swap, obj,
                                 p.sets, complete, table, pay, MAX_STATES, ready, win, value, best, is_win,
                                 start, end)
        return res[0], res[1], res[2], res[3]

    bad = run_chunks(run, n, p.workers, False, chunk=_CHUNK, grow_to=_GROW_TO)
    if bad is not None:
        raise _error(bad, p.batch, complete, p.sets)
    shape = (n, 27) if complete else (n,)
    ready, win, value = ready.reshape(*shape, t), win.reshape(*shape, t), value.reshape(shape)
    if p.batch:
        return Forecast(ready, win, value, t, goal, swap,
                        best if complete else None, is_win.astype(bool) if complete else None)
    return Forecast(ready[0], win[0], value[0] if complete else float(value[0]), t,
                    goal, swap,
                    int(best[0]) if complete else None, bool(is_win[0]) if complete else None)


def _complete(row: np.ndarray, melds: np.ndarray | None, sets: int) -> bool:
    """Whether the first row is a 3 * sets + 2 - 3m hand (sizes are checked by the engine, row
    by row)."""
    m = 0 if melds is None else int(np.count_nonzero(melds if melds.ndim == 1 else melds[0]))
    return int(row.sum()) == hand_sizes(sets, m)[1]


def _error(bad: tuple[int, int, int, int], batch: bool, complete: bool, sets: int) -> Exception:
    row, code, a, b = bad
    where = f"hands[{row}]" if batch else "hand"
    if code == _forecast.ERR_STATES:
        return InvalidArgumentError(
            f"{where}: the forecast needs more than {a:,} states; use exchanges=False or fewer "
            "draws for a hand this far from ready")
    if code == _forecast.ERR_NOMEM:
        return MemoryError(f"{where}: out of memory for the forecast's state graph")
    if code == _forecast.ERR_EMPTY_POOL:
        return InvalidHandError(f"{where}: every tile is held or visible; nothing is left to draw")
    return row_error(code, a, b, row, batch, "complete" if complete else "waiting", sets)


def choose_void(hand: HandLike, *, draws: int, visible: Any = None, rules: RulesLike = None,
                objective: str = "win", exchanges: bool = True, sets: int = 4) -> list[VoidChoice]:
    """Rank the three void-suit choices (定缺) of a dealt hand (13 or 14 tiles, or 3 * sets + 1
    and one more for the short hands of ``sets`` 3 or 2; no melds) by the
    forecast under each (RULES.md 9): P(win) within ``draws`` or the expected value; equal
    scores rank the lower suit first. A 14-tile hand is scored by its best discard.
    ``visible``: copies seen elsewhere (27 counts), as in :func:`forecast`. One hand only: an
    (N, 27) batch raises (call :func:`forecast` with ``void_suit`` per row instead).

    Example:
        >>> for choice in choose_void("1234567m123p1559s", draws=6, exchanges=False):
        ...     print(choice)
        void s: P(win) 0.0442, value 0.0897, discard 1s
        void p: P(win) 0.0175, value 0.0351, discard 1p
        void m: P(win) 0.0000, value 0.0000, discard 1m
    """
    goal = as_choice(objective, "objective", OBJECTIVES)
    if prepare(hand, visible=visible, sets=sets).batch:
        raise InvalidArgumentError("hand: choose_void ranks the void suits of one hand; for a "
                                   "batch call forecast() with void_suit= per row")
    out = []
    for suit in range(3):
        f = forecast(hand, draws=draws, void_suit=as_void(suit), visible=visible, rules=rules,
                     objective=goal, exchanges=exchanges, sets=sets)
        d = f.best_discard if isinstance(f.best_discard, int) else None
        win = float(f.win[d, -1] if d is not None else f.win[-1]) if f.draws else 0.0
        value = float(f.value[d] if d is not None else f.value)  # type: ignore[index]
        out.append(VoidChoice(suit, value if goal == "value" else win, win, value, d, f))
    out.sort(key=lambda c: -c.score)  # stable: equal scores keep the lower suit first
    return out
