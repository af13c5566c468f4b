"""Pure-Python reference for the forecasts, written from RULES.md section 9.

Plain memoised recursion, obviously correct rather than fast, importing nothing from the compiled
engine: shanten, the win test and the fan come from the other twins (:mod:`mjfast._ref.core`,
:mod:`mjfast._ref.scoring`).

A state is (H, e): a 13-3m hand and the exchanges spent. V(H, e, t) is its best objective with t
draws left: 0 when t = 0 or when t is below shanten + 1 (no win is reachable); else the sum over
the kinds k of the pool of P[k] / S times: the win's worth (1, or the payment for objective
"value") when H + k wins; V(H, e, t - 1) for a fifth copy (discarded at once); else the value of
the picked discard. The discards of H + k (:meth:`Model.children`): while it holds a void-suit
tile, the void-suit tiles (then, with ``flush``, while it holds a tile of another suit, those);
else each d priced by the policy class (:meth:`Model.cost`) and allowed while e + cost <= the
budget (``exchanges=None``: no budget, no backward move). The pick is the lowest discard whose
value is within a relative 1e-12 of the best. The curves follow the picks forward from the
start, state by state.

With ``flush`` (a suit) only wins all of that suit (melds included) count, and the shanten is
the distance to such a win (the core twin's minimum over the one live suit).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from mjfast._ref.core import _INF, UNWINNABLE, Form, _regular_cost, _seven_pairs_cost, is_win, shanten
from mjfast._ref.core import advise as core_advise
from mjfast._ref.scoring import score
from mjfast.rules import Rules
from mjfast.tiles import format_tile, melds_to_counts, parse_hand

__all__ = ["Model", "advise", "forecast"]

TIE = 1e-12
Hand = tuple[int, ...]


def _counts(value: Any) -> Hand:
    if isinstance(value, str):
        value = parse_hand(value)
    return tuple(int(x) for x in value)


def _meld_counts(melds: Any) -> Hand:
    if melds is None:
        return (0,) * 27
    if isinstance(melds, (str,)) or (isinstance(melds, (list, tuple)) and melds
                                     and not isinstance(melds[0], int)):
        return tuple(int(x) for x in melds_to_counts(melds))
    return _counts(melds)


State = tuple[Hand, int]  # (hand, exchanges spent)


class Model:
    """The model of one call: pool, shanten, win test, payment, allowed discards and the optimal
    values; :meth:`step` plays one draw by the policy (the Monte Carlo test uses it too).
    ``exchanges``: the budget (an int) or None (no budget); ``flush``: a suit index or None."""

    def __init__(self, hand: Any, *, melds: Any = None, void_suit: int | None = None,
                 visible: Any = None, rules: Rules | None = None, objective: str = "win",
                 exchanges: int | None = 0, backward: bool = False, flush: int | None = None,
                 sets: int = 4) -> None:
        self.hand, self.melds = _counts(hand), _meld_counts(melds)
        self.sets = sets
        vis = (0,) * 27 if visible is None else _counts(visible)
        self.vs = None if void_suit is None or void_suit < 0 else void_suit
        self.rules = rules or Rules()
        self.pool = [4 - self.hand[k] - self.melds[k] - vis[k] for k in range(27)]
        total = sum(self.pool)
        self.p = [x / total for x in self.pool]
        self.objective, self.budget, self.backward, self.flush = objective, exchanges, backward, flush
        self._m = self.melds if any(self.melds) else None
        if flush is None:
            self.sh = cache(lambda x: shanten(x, melds=self._m, void_suit=self.vs, sets=sets))
            self.wins = cache(lambda x: is_win(x, melds=self._m, void_suit=self.vs, sets=sets))
        else:
            self.sh = cache(self._flush_shanten)
            self.wins = cache(lambda x: self._flush_shanten(x) == -1)
        self.value = cache(self._value)
        bonus = 1 if self.rules.self_draw == "add_base" else 0
        # the fan twin takes meld strings: a kong is scored as an exposed one (no 门清)
        names = [f"{'pung' if n == 3 else 'kong'}:{format_tile(t)}" for t, n in enumerate(self.melds) if n]
        self.pay = cache(lambda x, k: float(score(x, win_tile=k, melds=names or None, void_suit=self.vs,
                                                  self_drawn=True, rules=self.rules,
                                                  sets=sets).multiplier
                                            + bonus))

    def _flush_shanten(self, x: Hand) -> int:
        """min |C - x| - 1 over the winning hands C all of the flush suit, melds included (the
        core twin's regular and seven-pairs minima with that one live suit)."""
        m, f = self.melds, self.flush
        assert f is not None
        n_melds = sum(1 for c in m if c)
        live: list[tuple[int, ...]] = [(f,)] if all(m[t] == 0 or t // 9 == f for t in range(27)) else []
        best = min(_regular_cost(x, m, n_melds, live, self.sets),
                   _seven_pairs_cost(x, live) if n_melds == 0 and self.sets == 4 else _INF)
        return UNWINNABLE if best >= _INF else best - 1

    def dead(self, y: Hand) -> list[int]:
        """The kinds of y a discard must take (定缺: void-suit tiles first; then, with a flush,
        tiles of the other suits), or [] when the discard is free."""
        held = [d for d in range(27) if y[d]]
        if self.vs is not None and any(d // 9 == self.vs for d in held):
            return [d for d in held if d // 9 == self.vs]
        if self.flush is not None:
            return [d for d in held if d // 9 != self.flush]
        return []

    def cost(self, x: Hand, k: int, d: int, progress: bool) -> int | None:
        """The price of discarding d from x + k (RULES.md 9), None where the class never allows
        it: progress 0; the drawn tile back 0, or 1 when some discard would make progress
        (declining a progress draw is a choice, priced as an exchange, so that ``exchanges=0``
        keeps every draw that lowers the shanten); same shanten 1; backward 1 (``backward``)."""
        s, after = self.sh(x), self.sh(_plus(_plus(x, k, 1), d, -1))
        if after < s:
            return 0
        if d == k:
            return 1 if progress else 0
        if after == s:
            return 1
        return 1 if self.backward else None

    def children(self, x: Hand, k: int, e: int = 0) -> list[State]:
        """The states the allowed discards of x + k leave (e: the exchanges spent), in discard
        order."""
        y = _plus(x, k, 1)
        forced = self.dead(y)
        if forced:
            return [(_plus(y, d, -1), e) for d in forced]
        held = [d for d in range(27) if y[d]]
        s = self.sh(x)
        progress = any(self.sh(_plus(y, d, -1)) < s for d in held)
        out = []
        for d in held:
            c = self.cost(x, k, d, progress)
            if self.budget is None:  # every exchange, no backward move (one state per hand)
                if c is not None and self.sh(_plus(y, d, -1)) <= s:
                    out.append((_plus(y, d, -1), 0))
            elif c is not None and e + c <= self.budget:
                out.append((_plus(y, d, -1), e + c))
        return out

    def pick(self, options: list[State], t: int) -> State:
        vals = [self.value(o, t) for o in options]
        best = max(vals)
        return next(o for o, v in zip(options, vals) if v >= best - TIE * best)

    def step(self, z: State, k: int, t: int) -> tuple[State | None, float]:
        """Draw k in state z with t draws left (before it): (the state after the policy's
        discard, 0.0), or (None, payment) on a win."""
        x, e = z
        if x[k] + self.melds[k] >= 4:
            return z, 0.0
        y = _plus(x, k, 1)
        if self.wins(y):
            return None, self.pay(y, k)
        return self.pick(self.children(x, k, e), t - 1), 0.0

    def _value(self, z: State, t: int) -> float:
        if t == 0 or self.sh(z[0]) + 1 > t:
            return 0.0
        v = 0.0
        for k in range(27):
            if self.pool[k]:
                y, paid = self.step(z, k, t)
                worth = (1.0 if self.objective == "win" else paid) if y is None else self.value(y, t - 1)
                v += self.p[k] * worth
        return v

    def curves(self, start: Hand, draws: int) -> dict[str, Any]:
        """Ready / win curves and the expected payment, following the policy forward."""
        mass: dict[State, float] = {(start, 0): 1.0}
        won = paid = 0.0
        ready, win = [], []
        for j in range(draws):
            nxt: dict[State, float] = {}
            for z, w in mass.items():
                for k in range(27):
                    if self.pool[k]:
                        y, pay = self.step(z, k, draws - j)
                        q = w * self.p[k]
                        if y is None:
                            won += q
                            paid += q * pay
                        else:
                            nxt[y] = nxt.get(y, 0.0) + q
            mass = nxt
            ready.append(won + sum(w for z, w in mass.items() if self.sh(z[0]) <= 0))
            win.append(won)
        return {"ready": ready, "win": win, "value": paid, "objective": self.value((start, 0), draws)}

    def starts(self) -> dict[int, Hand]:
        """The start hands: the hand itself (key -1) for 3 * sets + 1 - 3m tiles, else one per
        legal discard."""
        h, vs = self.hand, self.vs
        if sum(h) == 3 * (self.sets - sum(1 for x in self.melds if x)) + 1:
            return {-1: h}
        void_held = vs is not None and any(h[9 * vs:9 * vs + 9])
        return {d: _plus(h, d, -1) for d in range(27) if h[d] and (not void_held or d // 9 == vs)}


def _plus(x: Hand, k: int, d: int) -> Hand:
    y = list(x)
    y[k] += d
    return tuple(y)


def forecast(hand: Any, *, draws: int, melds: Any = None, void_suit: int | None = None,
             visible: Any = None, rules: Rules | None = None, objective: str = "win",
             exchanges: int | None = 0, backward: bool = False, flush: int | None = None,
             sets: int = 4) -> dict[str, Any]:
    """The forecast of one hand as plain lists: ``{"ready", "win", "value"}`` for 13-3m; for
    14-3m per legal discard kind ``{"discards": {d: {...}}, "best_discard", "is_win"}`` (3 *
    sets + 1 - 3m and one more for the short hands of ``sets`` 3 or 2)."""
    model = Model(hand, melds=melds, void_suit=void_suit, visible=visible, rules=rules,
                  objective=objective, exchanges=exchanges, backward=backward, flush=flush, sets=sets)
    starts = model.starts()
    if -1 in starts:
        return model.curves(starts[-1], draws)
    per = {d: model.curves(x, draws) for d, x in starts.items()}
    best = max(r["objective"] for r in per.values())
    choice = next(d for d in per if per[d]["objective"] >= best - TIE * best)
    win = is_win(model.hand, melds=model._m, void_suit=model.vs, sets=sets)  # section 2's meaning
    return {"discards": per, "best_discard": choice, "is_win": win}


def advise(hand: Any, *, visible: Any = None, form: Form = "all", melds: Any = None,
           void_suit: int | None = None, void_rule: bool = True, sets: int = 4,
           draws: int | None = None, objective: str = "win", exchanges: int | None = 0,
           backward: bool = False, flush: int | None = None,
           rules: Rules | None = None) -> list[tuple[Any, ...]]:
    """:func:`mjfast._ref.core.advise` rows plus the forecast's P(win) and value (None without
    ``draws``; NaN for a discard the 定缺 rule bars), ranked like :func:`mjfast.advise`: by the
    forecast with ``draws`` (then effective count, kind), else as the core twin ranks them."""
    rows = core_advise(hand, visible=visible, form=form, melds=melds, void_suit=void_suit,
                       void_rule=void_rule, sets=sets)
    if draws is None:
        return [(*row, None, None) for row in rows]
    per = forecast(hand, draws=draws, melds=melds, void_suit=void_suit, visible=visible,
                   rules=rules, objective=objective, exchanges=exchanges, backward=backward,
                   flush=flush, sets=sets)["discards"]
    nan = float("nan")
    out = []
    for row in rows:
        r = per.get(row[0])
        win = nan if r is None else (r["win"][-1] if draws else 0.0)
        out.append((*row, win, nan if r is None else r["value"]))
    score = 5 if objective == "value" else 4

    def rank(r: tuple[Any, ...]) -> tuple[float, int, int]:
        x = float(r[score])
        return (-round(x, 12) if x == x else float("inf"), -int(r[2]), int(r[0]))

    out.sort(key=rank)
    return out
