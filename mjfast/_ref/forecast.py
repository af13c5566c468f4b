"""Pure-Python reference for the forecasts, written from RULES.md section 9.

Plain memoised recursion, obviously correct rather than fast, importing nothing from the compiled
engine: shanten, the win test and the fan come from the other twins (:mod:`mjfast._ref.core`,
:mod:`mjfast._ref.scoring`).

V(H, t) is the best objective of a 13-3m hand H with t draws left: 0 when t = 0 or when t is
below shanten + 1 (no win is reachable); else the sum over the kinds k of the pool of
P[k] / S times: the win's worth (1, or the payment for objective "value") when H + k wins; V(H,
t - 1) for a fifth copy (discarded at once); else the value of the picked discard. The allowed
discards of H + k: while it holds a void-suit tile, the void-suit tiles; else with exchanges any d
with shanten(H + k - d) <= shanten(H); without, the d that lower the shanten if there are any, else
the drawn tile (the hand stays). The pick is the lowest discard whose value is within a relative
1e-12 of the best. The curves follow the picks forward from the start, hand by hand.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from mjfast._ref.core import is_win, shanten
from mjfast._ref.scoring import score
from mjfast.rules import Rules
from mjfast.tiles import melds_to_counts, parse_hand

__all__ = ["forecast"]

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


def forecast(hand: Any, *, draws: int, melds: Any = None, void_suit: int | None = None,
             visible: Any = None, rules: Rules | None = None, objective: str = "win",
             exchanges: bool = True) -> dict[str, Any]:
    """The forecast of one hand as plain lists: ``{"ready", "win", "value"}`` for 13-3m; for
    14-3m per legal discard kind ``{"discards": {d: {...}}, "best_discard", "is_win"}``."""
    h, m = _counts(hand), _meld_counts(melds)
    vis = (0,) * 27 if visible is None else _counts(visible)
    vs = None if void_suit is None or void_suit < 0 else void_suit
    rules = rules or Rules()
    pool = [4 - h[k] - m[k] - vis[k] for k in range(27)]
    total = sum(pool)
    p = [x / total for x in pool]
    bonus = 1 if rules.self_draw == "add_base" else 0
    mtuple = m if any(m) else None

    @cache
    def sh(x: Hand) -> int:
        return shanten(x, melds=mtuple, void_suit=vs)

    @cache
    def wins(x: Hand) -> bool:
        return is_win(x, melds=mtuple, void_suit=vs)

    @cache
    def pay(x: Hand, k: int) -> float:
        return float(score(x, win_tile=k, melds=mtuple, void_suit=vs, self_drawn=True,
                           rules=rules).multiplier + bonus)

    def plus(x: Hand, k: int, d: int) -> Hand:
        y = list(x)
        y[k] += d
        return tuple(y)

    def children(x: Hand, k: int) -> list[Hand]:
        """The hands the allowed discards of x + k leave, in discard order."""
        y = plus(x, k, 1)
        held = [d for d in range(27) if y[d]]
        if vs is not None and any(y[9 * vs:9 * vs + 9]):
            return [plus(y, d, -1) for d in held if d // 9 == vs]
        after = {d: sh(plus(y, d, -1)) for d in held}
        if exchanges:
            return [plus(y, d, -1) for d in held if after[d] <= sh(x)]
        better = [plus(y, d, -1) for d in held if after[d] < sh(x)]
        return better or [x]

    def pick(options: list[Hand], t: int) -> Hand:
        vals = [value(o, t) for o in options]
        best = max(vals)
        return next(o for o, v in zip(options, vals) if v >= best - TIE * best)

    @cache
    def value(x: Hand, t: int) -> float:
        if t == 0 or sh(x) + 1 > t:
            return 0.0
        v = 0.0
        for k in range(27):
            if not pool[k]:
                continue
            if x[k] + m[k] >= 4:
                v += p[k] * value(x, t - 1)
            elif wins(plus(x, k, 1)):
                v += p[k] * (1.0 if objective == "win" else pay(plus(x, k, 1), k))
            else:
                v += p[k] * value(pick(children(x, k), t - 1), t - 1)
        return v

    def curves(start: Hand) -> dict[str, Any]:
        mass = {start: 1.0}
        won = paid = 0.0
        ready, win = [], []
        for j in range(draws):
            t = draws - j
            nxt: dict[Hand, float] = {}
            for x, w in mass.items():
                for k in range(27):
                    if not pool[k]:
                        continue
                    q = w * p[k]
                    if x[k] + m[k] >= 4:
                        nxt[x] = nxt.get(x, 0.0) + q
                    elif wins(plus(x, k, 1)):
                        won += q
                        paid += q * pay(plus(x, k, 1), k)
                    else:
                        y = pick(children(x, k), t - 1)
                        nxt[y] = nxt.get(y, 0.0) + q
            mass = nxt
            ready.append(won + sum(w for x, w in mass.items() if sh(x) <= 0))
            win.append(won)
        return {"ready": ready, "win": win, "value": paid, "objective": value(start, draws)}

    if sum(h) == 13 - 3 * sum(1 for x in m if x):
        return curves(h)
    void_held = vs is not None and any(h[9 * vs:9 * vs + 9])
    legal = [d for d in range(27) if h[d] and (not void_held or d // 9 == vs)]
    per = {d: curves(plus(h, d, -1)) for d in legal}
    best = max(r["objective"] for r in per.values())
    choice = next(d for d in legal if per[d]["objective"] >= best - TIE * best)
    return {"discards": per, "best_discard": choice, "is_win": wins(h)}
