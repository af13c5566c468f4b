"""Exact forecasts under the model of RULES.md section 9: :func:`forecast` and :func:`choose_void`.

The engine is C (``src/mjfast_forecast.h``, its docstring tells the method); this module checks
arguments, compiles the rules into the fan table and a payment table, and runs rows on threads.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from mjfast._args import OBJECTIVES, as_choice, as_int, as_rules, as_void, hand_sizes
from mjfast._batch import run_chunks
from mjfast._core import _forecast
from mjfast._typing import HandLike, HandsLike, MeldsLike, RulesLike, VoidSuits
from mjfast._validate import Prepared, prepare, row_error
from mjfast.errors import InvalidArgumentError, InvalidHandError
from mjfast.rules import MAX_FAN, Rules
from mjfast.scoring.patterns import compile_rules

from .policy import Policy, as_policy
from .types import Forecast, PlanChoice, VoidChoice

__all__ = ["MAX_BYTES", "MAX_DRAWS", "MAX_STATES", "MAX_WORK", "Rows", "choose_plan",
           "choose_void", "forecast", "run_forecasts"]

MAX_DRAWS: int = _forecast.MAX_DRAWS
"""The most draws a forecast looks ahead (27: the 108-tile wall left after the deal, shared)."""

MAX_STATES = 2_000_000
"""The most states one hand's graph may hold."""

MAX_BYTES = 1792 << 20
"""The most bytes the engine's buffers may take for one hand, per worker thread (1.75 GiB, so a
call stays under 2 GB): states, hash table, edges, picks, value and flow rows, counted where they
are allocated (at their capacity, so the resident memory stays below). Sized for
``exchanges=2`` over 18 draws from 3-shanten hands of two suits: 100 of 100 dealt ones fit, with
up to 1.4 million states and 1.5 GiB of buffers (about 1 GB resident, 3-6 s on the 2-core VM of
the README; ``benchmarks/forecast_vs_mcpp.py`` phase D); the same from three suits often needs
more and is refused."""

MAX_WORK = 80_000_000
"""The most work one hand may take: a state expansion counts 1 plus the edge entries it writes
(time goes with both: measured, about 0.1 us a unit with a budget and over 1 us with
``exchanges=None``). ``exchanges=2`` over 18 draws from a two-suit 3-shanten
hand takes up to 55 million (3-6 s); ``789m23p55p`` with two pungs over 7 draws with
``exchanges=None`` takes 54 million (about a minute)."""
_CHUNK = 16  # rows per threaded task: one forecast takes from microseconds to a second
_GROW_TO = 1024  # one worker's chunks grow up to this while they are fast (run_chunks)
_LIMITS = (_forecast.ERR_STATES, _forecast.ERR_BYTES, _forecast.ERR_WORK)


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


@dataclass(frozen=True)
class Rows:
    """:func:`run_forecasts`' output: ``ready``/``win`` (n * per, T), ``value`` (n * per,) with
    per = 27 for complete rows (one row per discard, NaN where not allowed) else 1, ``best`` and
    ``is_win`` (n,) for complete rows; ``past`` (n,) the rows skipped past a limit
    (``skip_limits``); ``bad`` the first refused row's (row, code, detail, detail), or None."""

    ready: np.ndarray
    win: np.ndarray
    value: np.ndarray
    best: np.ndarray
    is_win: np.ndarray
    past: np.ndarray
    bad: tuple[int, int, int, int] | None


def run_forecasts(hands: np.ndarray, melds: np.ndarray | None, voids: np.ndarray | None,
                  void_scalar: int, visible: np.ndarray | None, draws: int, pol: Policy,
                  objective: str, rules: Rules, *, sets: int = 4, complete: bool,
                  workers: int = 1, max_states: int | None = None, chunk: int = _CHUNK,
                  skip_limits: bool = False) -> Rows:
    """The engine over checked rows (the arrays of :func:`~mjfast._validate.prepare`: uint8
    C-contiguous (n, 27) hands, optional melds / visible (27,) or (n, 27), int8 voids or one
    ``void_scalar``), on ``workers`` threads in chunks from ``chunk`` rows: the one batch entry
    of :func:`forecast` and the ``forecast`` player. With ``skip_limits`` a row past
    ``max_states`` (None: :data:`MAX_STATES`), :data:`MAX_BYTES` or :data:`MAX_WORK` is marked
    in ``past`` and the run goes on (else it is ``bad``, and so is any other refused row).

    >>> from mjfast import parse_hand
    >>> h = np.array([parse_hand("123m456m789m23p55p"), parse_hand("123m456m789m3p55p9s")])
    >>> # void s: the second hand discards its 9s first, so it wins only on the second draw
    >>> r = run_forecasts(h, None, None, 2, None, 2, as_policy(), "win", Rules(), complete=False)
    >>> r.win.round(4).tolist(), r.bad
    ([[0.0842, 0.1613], [0.0, 0.0112]], None)
    """
    n = hands.shape[0]
    per = 27 if complete else 1
    ready, win = np.empty((n * per, draws)), np.empty((n * per, draws))
    value = np.empty(n * per)
    best = np.empty(n if complete else 0, np.int8)
    is_win = np.empty(n if complete else 0, np.uint8)
    past = np.zeros(n, bool)
    table, pay = compile_rules(rules), payments(rules)
    obj = _forecast.OBJ_VALUE if objective == "value" else _forecast.OBJ_WIN
    stop = np.zeros(1, np.int32)  # set on Ctrl-C: the workers' rows end at their next poll
    cap = MAX_STATES if max_states is None else max_states

    def run(start: int, end: int) -> tuple[int, int, int, int]:
        while True:
            res = _forecast.run_rows(hands, melds, voids, void_scalar, visible, draws, pol.budget,
                                     pol.backward, -1 if pol.flush is None else pol.flush,
                                     pol.candidates == "keep", obj, sets, complete, table, pay,
                                     cap, MAX_BYTES, MAX_WORK, stop, ready, win, value,
                                     best, is_win, start, end)
            if res[0] < 0 or not (skip_limits and res[1] in _LIMITS):
                return res[0], res[1], res[2], res[3]
            past[res[0]] = True  # the row's outputs are garbage; the caller decides otherwise
            start = res[0] + 1

    bad = run_chunks(run, n, workers, False, chunk=chunk, grow_to=_GROW_TO,
                     on_stop=lambda: stop.fill(1))
    return Rows(ready, win, value, best, is_win, past, bad)


def forecast(hand: HandsLike, *, draws: int, melds: MeldsLike = None, void_suit: VoidSuits = None,
             visible: Any = None, rules: RulesLike = None, objective: str = "win",
             exchanges: int | None = 0, backward: bool = False, flush: Any = None,
             candidates: str = "all", workers: int = 1, sets: int = 4) -> Forecast:
    """Probability of being ready and of having won after each of ``draws`` own draws, and the
    expected payment, under optimal play (RULES.md 9: fixed pool, self-draw only, 定缺 rule).

    A 13-3m hand gives (T,) curves; a 14-3m hand gives them per legal discard, (27, T) with NaN
    rows, and its ``best_discard``. An (N, 27) array gives the same with a leading N axis (every
    row the same size: 13-3m or 14-3m), computed with the GIL released on ``workers`` threads.

    ``objective``: ``"win"`` plays to maximise the probability of winning within the draws,
    ``"value"`` the expected payment (2^min(fan, cap), +1 with 自摸加底; the points under the
    ``points`` model).

    The policy class (RULES.md 9): ``exchanges`` is a budget of exchanges (手替わり: a discard
    that keeps the shanten but changes the hand, or declines a draw that would lower it) over the
    whole run: ``0`` (the default) keeps a draw only when it lowers the shanten, the riichi
    engines' mode, exact and fast for every hand at every T (18 draws: milliseconds at 1-2
    shanten, at most about a second at 5); ``K`` allows K of them; ``None`` every exchange with
    no budget (the largest class: its graph grows ten- to twentyfold per draw, so it is for a few
    draws). Past :data:`MAX_STATES` states, :data:`MAX_BYTES` bytes or :data:`MAX_WORK` work
    any call raises :class:`~mjfast.errors.InvalidArgumentError` naming the hand; Ctrl-C stops
    a long call within about a second (the engine polls for it). ``backward=True`` also allows backward moves
    (向聴戻し: a discard that raises the shanten), each costing one exchange (a budget is needed).
    ``flush="m"``/``"p"``/``"s"`` plays the 清一色 plan of that suit: only wins all of it count,
    the shanten (and "ready") is the distance to such a win, and tiles of the other suits go
    first (after void-suit tiles); it cannot be the declared void suit. ``candidates="keep"``
    evaluates only the discards of a 14-3m hand that keep its lowest shanten (the others' rows
    NaN), as the riichi engines do. ``sets`` as for
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
        >>> [round(float(forecast("1235678m1234p55p", draws=6, exchanges=k).win[-1]), 4)
        ...  for k in (0, 1)]                # one exchange on top of progress: a better chance
        [0.2302, 0.2428]
    """
    t = as_int(draws, "draws", minimum=0, maximum=MAX_DRAWS)
    goal = as_choice(objective, "objective", OBJECTIVES)
    pol = as_policy(exchanges=exchanges, backward=backward, flush=flush, candidates=candidates)
    r = as_rules(rules)
    p = prepare(hand, melds=melds, void_suit=void_suit, visible=visible, workers=workers,
                sets=sets)
    n = p.hands.shape[0]
    complete = n > 0 and _complete(p.hands[0], p.melds, p.sets)  # zero rows: (0, T) curves
    rows = run_forecasts(p.hands, p.melds, p.voids, p.void_scalar, p.visible, t, pol, goal, r,
                         sets=p.sets, complete=complete, workers=p.workers)
    if rows.bad is not None:
        raise _error(rows.bad, p, complete, t, pol.budget)
    ready, win, value, best, is_win = rows.ready, rows.win, rows.value, rows.best, rows.is_win
    shape = (n, 27) if complete else (n,)
    ready, win, value = ready.reshape(*shape, t), win.reshape(*shape, t), value.reshape(shape)
    policy = (pol.backward, pol.flush, pol.candidates)
    if p.batch:
        return Forecast(ready, win, value, t, goal, pol.exchanges,
                        best if complete else None, is_win.astype(bool) if complete else None, *policy)
    return Forecast(ready[0], win[0], value[0] if complete else float(value[0]), t,
                    goal, pol.exchanges,
                    int(best[0]) if complete else None, bool(is_win[0]) if complete else None, *policy)


def _complete(row: np.ndarray, melds: np.ndarray | None, sets: int) -> bool:
    """Whether the first row is a 3 * sets + 2 - 3m hand (sizes are checked by the engine, row
    by row)."""
    m = 0 if melds is None else int(np.count_nonzero(melds if melds.ndim == 1 else melds[0]))
    return int(row.sum()) == hand_sizes(sets, m)[1]


def _error(bad: tuple[int, int, int, int], p: Prepared, complete: bool, draws: int,
           budget: int) -> BaseException:
    row, code, a, b = bad
    where = f"hands[{row}]" if p.batch else "hand"
    limit = {_forecast.ERR_STATES: f"{a:,} states (MAX_STATES)",
             _forecast.ERR_BYTES: f"{_size(MAX_BYTES)} of memory (MAX_BYTES; {b:,} states)",
             _forecast.ERR_WORK: f"{a:,} state expansions (MAX_WORK; {b:,} states)"}.get(code)
    if limit is not None:
        return InvalidArgumentError(f"{where}: the forecast needs more than {limit}; "
                                    + _what_grew(p, row, draws, budget))
    if code == _forecast.ERR_STOPPED:  # another thread's Ctrl-C (run_chunks raises it first)
        return KeyboardInterrupt()
    if code == _forecast.ERR_NOMEM:
        return MemoryError(f"{where}: out of memory for the forecast's state graph")
    if code == _forecast.ERR_FLUSH:
        return InvalidArgumentError(f"{where}: flush: the flush suit is the declared void suit")
    if code == _forecast.ERR_EMPTY_POOL:
        return InvalidHandError(f"{where}: every tile is held or visible; nothing is left to draw")
    return row_error(code, a, b, row, p.batch, "complete" if complete else "waiting", p.sets)


def _size(n: int) -> str:
    return f"{n >> 20:,} MiB" if n >= 1 << 20 else f"{n:,} bytes"


def _what_grew(p: Prepared, row: int, draws: int, budget: int) -> str:
    """What to change for a hand past a limit: exchanges first, else what the graph grew with."""
    if budget:
        return ("use a smaller exchanges budget (0: none) or fewer draws for a hand this far "
                "from ready")
    void = int(p.voids[row]) if p.voids is not None else p.void_scalar
    held = 0 if void < 0 else int(p.hands[row, 9 * void:9 * void + 9].sum())
    tiles = f", {held} tiles of the void suit held (each costs a draw)" if held else ""
    return (f"exchanges are off: it grows with the draws ({draws}) and the shanten{tiles}; "
            "use fewer draws")


def choose_void(hand: HandLike, *, draws: int, visible: Any = None, rules: RulesLike = None,
                objective: str = "win", exchanges: int | None = 0, backward: bool = False,
                flush: Any = None, sets: int = 4) -> list[VoidChoice]:
    """Rank the three void-suit choices (定缺) of a dealt hand (13 or 14 tiles, or 3 * sets + 1
    and one more for the short hands of ``sets`` 3 or 2; no melds) by the
    forecast under each (RULES.md 9): P(win) within ``draws`` or the expected value; equal
    scores rank the lower suit first. A 14-tile hand is scored by its best discard.
    ``visible``: copies seen elsewhere (27 counts), as in :func:`forecast`. One hand only: an
    (N, 27) batch raises (call :func:`forecast` with ``void_suit`` per row instead). The policy
    options are :func:`forecast`'s; with ``flush`` the flush suit is no void choice (two are
    ranked).

    Example:
        >>> for choice in choose_void("1234567m123p1559s", draws=6):
        ...     print(choice)
        void s: P(win) 0.0442, value 0.0897, discard 1s
        void p: P(win) 0.0175, value 0.0351, discard 1p
        void m: P(win) 0.0000, value 0.0000, discard 1m
    """
    goal = as_choice(objective, "objective", OBJECTIVES)
    pol = as_policy(exchanges=exchanges, backward=backward, flush=flush)
    if prepare(hand, visible=visible, sets=sets).batch:
        raise InvalidArgumentError("hand: choose_void ranks the void suits of one hand; for a "
                                   "batch call forecast() with void_suit= per row")
    out = []
    for suit in range(3):
        if suit != pol.flush:
            f = forecast(hand, draws=draws, void_suit=as_void(suit), visible=visible, rules=rules,
                         objective=goal, exchanges=pol.exchanges, backward=pol.backward,
                         flush=pol.flush, sets=sets)
            out.append(VoidChoice(suit, *_scored(f, goal), f))
    out.sort(key=lambda c: -c.score)  # stable: equal scores keep the lower suit first
    return out


def choose_plan(hand: HandLike, *, draws: int, melds: MeldsLike = None, void_suit: Any = None,
                visible: Any = None, rules: RulesLike = None, objective: str = "win",
                exchanges: int | None = 0, backward: bool = False,
                sets: int = 4) -> list[PlanChoice]:
    """Rank the plans of one hand (RULES.md 9): as it stands (every win counts) against a
    清一色 in each suit it may keep (not the declared void suit, and holding every meld), by the
    forecast under each: P(win) within ``draws`` or the expected value (``objective``), with
    the best discard of a 14-3m hand for each; equal scores keep "as it stands" first, then the
    lower suit. The other options are :func:`forecast`'s. This answers "when is a flush worth
    playing for?" (条件不成熟千万不做清一色) exactly under the model.

    Example:
        >>> for plan in choose_plan("1123456789m23p5s9m", draws=12, void_suit="s",
        ...                         objective="value"):
        ...     print(plan)
        flush m: P(win) 0.2155, value 1.1447, discard 5s
        as it stands: P(win) 0.4987, value 0.9973, discard 5s
        flush p: P(win) 0.0000, value 0.0000, discard 5s
    """
    goal = as_choice(objective, "objective", OBJECTIVES)
    pol = as_policy(exchanges=exchanges, backward=backward)
    kw: dict[str, Any] = {"draws": draws, "melds": melds, "void_suit": void_suit,
                          "visible": visible, "rules": rules, "objective": goal,
                          "exchanges": pol.exchanges, "backward": pol.backward, "sets": sets}
    first = forecast(hand, **kw)
    out = [PlanChoice(None, *_scored(first, goal), first)]
    p = prepare(hand, melds=melds, void_suit=void_suit, sets=sets)
    if p.batch:
        raise InvalidArgumentError("hand: choose_plan takes one hand")
    meld_suits = {t // 9 for t in range(27) if p.melds is not None and p.melds[t]}
    for suit in range(3):
        if suit != p.void_scalar and meld_suits <= {suit}:
            f = forecast(hand, flush=suit, **kw)
            out.append(PlanChoice(suit, *_scored(f, goal), f))
    out.sort(key=lambda c: -c.score)  # stable: as it stands first, then the lower suit
    return out


def _scored(f: Forecast, goal: str) -> tuple[float, float, float, int | None]:
    """(score, P(win), value, discard) of a one-hand forecast: at its best discard for 14-3m."""
    d = f.best_discard if isinstance(f.best_discard, int) else None
    win = float(f.win[d, -1] if d is not None else f.win[-1]) if f.draws else 0.0
    value = float(f.value[d] if d is not None else f.value)  # type: ignore[index]
    return (value if goal == "value" else win), win, value, d
