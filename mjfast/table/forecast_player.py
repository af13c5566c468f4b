"""The ``forecast`` player: the exact forecasts (:mod:`mjfast.forecast`, RULES.md 9) at the table.

Each decision is a forecast over the own draws left, estimated as ``wall // seats still in``
and capped (``draws``, ``void_draws``): the void suit by :func:`~mjfast.forecast.choose_void`'s
ranking, the discard by the forecast of the hand, a pung / kong against a pass (or a concealed
/ added kong against the best discard) by the forecasts of the hands after each (a kong gets
one draw more: its replacement tile). Wins are always taken. At 5 and 6 seats the hands are
short (RULES.md 7: 11 - 3m and 8 - 3m tiles) and every forecast is of ``sets`` 3 and 2
(:func:`~mjfast.settlement.model.sets_for` the table's seats).

Budget: a forecast is made only where it is cheap, else the ``efficient`` player decides (its
decision also breaks ties and decides where every forecast is 0). Measured on the decisions of
self-played hands (one core, objective "value", no exchanges, ms per hand batched): a meld-free
14-tile hand costs 0.02 (shanten 0), 0.4 (1), 0.2 to 1.6 (2, 3 to 5 draws), 7 to 18 (3); a hand
with melds leaves the kernels' fast path and costs 0.7 (0), 9 (1), 12 to 37 (2); a dealt hand's
void choice 0.8 per suit at 4 draws, 42 at 6. Hence the defaults: forecasts of meld-free hands up
to shanten ``max_shanten`` = 2, of hands with melds (and pungs / kongs, which make melds) up to
``max_shanten_melded`` = 0, the void choice over ``void_draws`` = 4 draws, play over at most
``draws`` = 3 (duplicate screens: shorter horizons played better, and cost less); a hand whose
graph passes ``max_states`` falls back as well. Forecasts of many tables are batched into one
engine call (:func:`~mjfast.forecast.api.run_forecasts`) per (draws, melds) group
(:meth:`act_batch`, which :func:`~mjfast.table.selfplay` uses), so the per-call setup is paid
once per group; the rules' tables are built at the first forecast, not when a player is made.

>>> from mjfast.table import selfplay
>>> r = selfplay(20, ("forecast", "efficient", "efficient", "efficient"), seed=1)
>>> int(r.net.sum())
0
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from mjfast._args import as_choice, as_flag, as_int, as_rules
from mjfast.forecast.api import MAX_DRAWS, run_forecasts
from mjfast.forecast.policy import as_policy
from mjfast.rules import Rules
from mjfast.settlement.model import sets_for
from mjfast.table.actions import (
    DISCARD,
    KONG_ADDED,
    KONG_CONCEALED,
    KONG_EXPOSED,
    PASS,
    PUNG,
    VOID,
    WIN,
)
from mjfast.table.kernels import shanten_of
from mjfast.table.players import PLAYERS, _meld_counts, efficient_player
from mjfast.table.state import PHASE_VOID
from mjfast.tiles import NUM_KINDS

__all__ = ["ForecastPlayer"]

_K = NUM_KINDS
_TIE = 1e-12  # relative: scores this close are equal (the engine's own pick tolerance)


class ForecastPlayer:
    """The ``forecast`` player (see the module docstring for what it forecasts and when).

    Args:
        objective: ``"value"`` (default) maximises the expected payment, ``"win"`` P(win).
        void_by_forecast: declare the void by the forecast (else as ``efficient`` does).
        draws: the most own draws a play forecast looks ahead (1 to 27).
        void_draws: the draws of the void choice's forecasts (1 to 27).
        max_shanten / max_shanten_melded: the highest shanten forecast without / with melds.
        max_states: the state cap of one forecast (past it: the ``efficient`` decision).
        exchanges: the forecasts' exchange budget (:func:`~mjfast.forecast.forecast`'s policy
            class; 0, the default: a draw is kept only when it lowers the shanten; None: no
            budget, for few draws: the state cap sends most hands to the fallback).
        rules: the rules the forecasts score by; None: the table's (bound by ``selfplay`` and
            ``play_hand``; a Table-free call uses chengdu).

    Decisions are deterministic (``rng`` is unused).

    >>> p = ForecastPlayer(objective="win", draws=6)
    >>> p.objective, p.draws
    ('win', 6)
    """

    def __init__(self, objective: str = "value", *, void_by_forecast: bool = True, draws: int = 3,
                 void_draws: int = 4, max_shanten: int = 2, max_shanten_melded: int = 0,
                 max_states: int = 20_000, exchanges: int | None = 0,
                 rules: Rules | str | None = None):
        self.objective = as_choice(objective, "objective", ("value", "win"))
        self.void_by_forecast = as_flag(void_by_forecast, "void_by_forecast")
        self.draws = as_int(draws, "draws", minimum=1, maximum=MAX_DRAWS)
        self.void_draws = as_int(void_draws, "void_draws", minimum=1, maximum=MAX_DRAWS)
        self.max_shanten = as_int(max_shanten, "max_shanten", minimum=-1, maximum=8)
        self.max_shanten_melded = as_int(max_shanten_melded, "max_shanten_melded", minimum=-1,
                                         maximum=8)
        self.max_states = as_int(max_states, "max_states", minimum=1)
        self._policy = as_policy(exchanges=exchanges)
        self.exchanges = self._policy.exchanges
        self.rules = None if rules is None else as_rules(rules)
        self._rules = self.rules or Rules()  # the engine's tables are built at the first call

    def with_rules(self, rules: Rules) -> ForecastPlayer:
        """This player scoring by ``rules`` when it has none of its own (else itself)."""
        if self.rules is not None:
            return self
        out = object.__new__(type(self))
        out.__dict__.update(self.__dict__)
        out._rules = rules
        return out

    def __repr__(self) -> str:
        return (f"ForecastPlayer(objective={self.objective!r}, void_by_forecast="
                f"{self.void_by_forecast}, draws={self.draws}, void_draws={self.void_draws}, "
                f"exchanges={self.exchanges})")

    # ------------------------------------------------------------------ one decision
    def __call__(self, obs: Mapping[str, Any], mask: np.ndarray, rng: np.random.Generator) -> int:
        """One decision from one seat's observation (a :class:`~mjfast.table.Table` player)."""
        hint = efficient_player(obs, mask, rng)
        void = int(obs["void"][obs["seat"]])
        s = shanten_of(obs["hand"], _meld_counts(obs), void, sets_for(len(obs["void"])))
        batch = {k: np.asarray(v)[None] for k, v in obs.items()}
        return int(self.act_batch(batch, mask[None], np.array([hint]), np.array([s]))[0])

    # ------------------------------------------------------------------ many decisions
    def act_batch(self, obs: dict[str, np.ndarray], masks: np.ndarray, hints: np.ndarray,
                  shanten: np.ndarray) -> np.ndarray:
        """Decisions for many tables (the :class:`~mjfast.table.match.BatchPlayer` protocol)."""
        out = np.asarray(hints, np.int64).copy()
        w = len(out)
        rows = np.arange(w)
        seat = obs["seat"]
        hand = obs["hand"]
        own = obs["melds"][rows, seat]  # (w, 4, 2)
        melds = np.zeros((w, _K), np.uint8)
        r, i = np.nonzero(own[:, :, 0] >= 0)
        melds[r, own[r, i, 0]] = np.where(own[r, i, 1] == 0, 3, 4)
        void = obs["void"][rows, seat].astype(np.int8)
        seats_in = obs["out"].shape[1] - obs["out"].sum(axis=1)
        left = obs["wall"] // np.maximum(seats_in, 1)
        ctx = _Ctx(self, hand, melds, void, _seen(obs, melds), shanten,
                   sets_for(obs["void"].shape[1]))  # 3 or 2 at 5 or 6 seats: short hands
        win = masks[:, WIN]
        out[win] = WIN
        voids = masks[:, VOID:VOID + 3] & (obs["phase"] == PHASE_VOID)[:, None]
        voiding = voids.any(axis=1)
        choice = voids.sum(axis=1) > 1  # else a suit not dealt, which must be declared void
        if self.void_by_forecast and choice.any():
            self._voids(ctx, np.flatnonzero(choice), np.minimum(left, self.void_draws), voids,
                        out)
        T = np.minimum(left, self.draws)
        claims = ~win & ~voiding & masks[:, PUNG:KONG_EXPOSED + _K].any(axis=1)
        kongs = ~win & ~voiding & masks[:, KONG_ADDED:KONG_CONCEALED + _K].any(axis=1)
        turns = ~win & ~voiding & ~claims & masks[:, DISCARD:DISCARD + _K].any(axis=1)
        self._discards(ctx, np.flatnonzero(turns & ~kongs), T, masks, out)
        self._melds(ctx, np.flatnonzero(claims | (turns & kongs)), T, masks, out)
        return out

    def _voids(self, c: _Ctx, rows: np.ndarray, T: np.ndarray, legal: np.ndarray,
               out: np.ndarray) -> None:
        """choose_void's ranking (its ties: the lower suit) of the ``legal`` suits, where one
        scores above 0."""
        h = np.repeat(c.hand[rows], 3, axis=0)
        v = np.tile(np.arange(3, dtype=np.int8), len(rows))
        t = np.repeat(T[rows], 3)
        zero = np.zeros_like(h)
        score, ok = c.scores(h, zero, v, zero, t, h.sum(axis=1) % 3 == 2)
        score = np.where(legal[rows], _top(score).reshape(len(rows), 3), -np.inf)
        good = ok.reshape(len(rows), 3).all(axis=1) & (score.max(axis=1) > 0)
        out[rows[good]] = VOID + score[good].argmax(axis=1)

    def _discards(self, c: _Ctx, rows: np.ndarray, T: np.ndarray, masks: np.ndarray,
                  out: np.ndarray) -> None:
        rows = rows[c.affordable(rows, T, c.melded[rows])]
        if rows.size == 0:
            return
        score, ok = c.scores(c.hand[rows], c.melds[rows], c.void[rows], c.seen[rows], T[rows],
                             np.ones(len(rows), bool))
        legal = masks[rows, DISCARD:DISCARD + _K]
        for j, row in enumerate(rows.tolist()):
            if ok[j]:
                out[row] = _pick(np.where(legal[j], score[j], np.nan), out[row] - DISCARD) + DISCARD

    def _melds(self, c: _Ctx, rows: np.ndarray, T: np.ndarray, masks: np.ndarray,
               out: np.ndarray) -> None:
        """A pung / kong against passing (claims) or against the best discard (own turn): every
        option's hand forecast, the best taken (ties: the efficient choice)."""
        rows = rows[c.affordable(rows, T + 1, np.ones(len(rows), bool))]
        opts: list[tuple[int, int, np.ndarray, np.ndarray, int, bool]] = []
        for row in rows.tolist():
            m = masks[row]
            h, mc = c.hand[row], c.melds[row]
            if m[PASS]:
                opts.append((row, PASS, h, mc, int(T[row]), False))
            else:
                opts.append((row, DISCARD, h, mc, int(T[row]), True))
            for base, used, kept, extra in ((PUNG, 2, 3, 0), (KONG_EXPOSED, 3, 4, 1),
                                            (KONG_ADDED, 1, 4, 1), (KONG_CONCEALED, 4, 4, 1)):
                for k in np.flatnonzero(m[base:base + _K]).tolist():
                    h2, m2 = h.copy(), mc.copy()
                    h2[k] -= used
                    m2[k] = kept
                    opts.append((row, base + k, h2, m2, int(T[row]) + extra, base == PUNG))
        if not opts:
            return
        idx = np.array([o[0] for o in opts])
        score, ok = c.scores(np.stack([o[2] for o in opts]), np.stack([o[3] for o in opts]),
                             c.void[idx], c.seen[idx], np.array([o[4] for o in opts]),
                             np.array([o[5] for o in opts]))
        best: dict[int, tuple[float, int]] = {}
        for j, (row, action, *_rest) in enumerate(opts):
            if not ok[j]:
                best[row] = (np.nan, -1)  # one option past the budget: the efficient decision
                continue
            if row in best and np.isnan(best[row][0]):
                continue
            s = float(_top(score[j]))
            if action == DISCARD:
                legal = masks[row, DISCARD:DISCARD + _K]
                action = DISCARD + _pick(np.where(legal, score[j], np.nan), out[row] - DISCARD)
            cur = best.get(row)
            hinted = action == out[row]
            if cur is None or s > cur[0] * (1 + _TIE) or (hinted and s >= cur[0] * (1 - _TIE)):
                best[row] = (s, action)
        for row, (s, action) in best.items():
            if action >= 0 and s > 0:
                out[row] = action


def _top(score: np.ndarray) -> np.ndarray:
    """The best score along the last axis, NaN (not allowed) ignored; -inf for none."""
    return np.where(np.isnan(score), -np.inf, score).max(axis=-1)


def _pick(score: np.ndarray, hint: int) -> int:
    """The kind with the highest score (NaN: not allowed); the hint's on a tie, the lowest
    otherwise."""
    top = np.nanmax(score)
    if 0 <= hint < _K and not np.isnan(score[hint]) and score[hint] >= top * (1 - _TIE):
        return hint
    return int(np.flatnonzero(score >= top * (1 - _TIE))[0]) if top > 0 else \
        (hint if 0 <= hint < _K else int(np.flatnonzero(~np.isnan(score))[0]))


class _Ctx:
    """One batch's hands as the engine reads them, and its calls."""

    def __init__(self, player: ForecastPlayer, hand: np.ndarray, melds: np.ndarray,
                 void: np.ndarray, seen: np.ndarray, shanten: np.ndarray, sets: int):
        self.p, self.hand, self.melds, self.void, self.seen = player, hand, melds, void, seen
        self.shanten = np.asarray(shanten)
        self.sets = sets
        self.melded: np.ndarray = np.asarray(melds.any(axis=1))

    def affordable(self, rows: np.ndarray, T: np.ndarray, melded: np.ndarray) -> np.ndarray:
        """Which rows the budget forecasts: shanten within the cap, and a win possible in T."""
        s = self.shanten[rows]
        cap = np.where(melded, self.p.max_shanten_melded, self.p.max_shanten)
        return (s <= cap) & (s + 1 <= T[rows]) & (T[rows] >= 1)

    def scores(self, hands: np.ndarray, melds: np.ndarray, voids: np.ndarray, seen: np.ndarray,
               draws: np.ndarray, complete: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The objective per row: (n, 27) per discard for complete rows (NaN where not
        allowed), in column 0 for waiting rows; ok False where the state cap was passed."""
        n = len(hands)
        score = np.full((n, _K), np.nan)
        ok = np.ones(n, bool)
        seen = np.minimum(seen, 4 - hands - melds).astype(np.uint8)
        melded = np.asarray(melds.any(axis=1))
        for key in set(zip(draws.tolist(), melded.tolist(), complete.tolist())):
            t, m, full = key
            rows = np.flatnonzero((draws == t) & (melded == m) & (complete == full))
            s, good = self._group(np.ascontiguousarray(hands[rows]),
                                  np.ascontiguousarray(melds[rows]) if m else None,
                                  np.ascontiguousarray(voids[rows]),
                                  np.ascontiguousarray(seen[rows]), t, full)
            if full:
                score[rows] = s
            else:
                score[rows, 0] = s
            ok[rows] = good
        return score, ok

    def _group(self, hands: np.ndarray, melds: np.ndarray | None, voids: np.ndarray,
               seen: np.ndarray, T: int, complete: bool) -> tuple[np.ndarray, np.ndarray]:
        n = len(hands)
        if T == 0:  # nothing left to draw: no win, no value
            return np.zeros((n, _K) if complete else n), np.ones(n, bool)
        p = self.p
        r = run_forecasts(hands, melds, voids, -1, seen, T, p._policy, p.objective, p._rules,
                          sets=self.sets, complete=complete, max_states=p.max_states,
                          chunk=max(n, 1), skip_limits=True)  # one engine call: the group is a step's tables
        if r.bad is not None:
            raise AssertionError(f"forecast player: the engine refused a hand (code {r.bad[1]})")
        ok = ~r.past
        score = r.value if p.objective == "value" else r.win[:, -1]
        return (score.reshape(n, _K) if complete else score), ok


def _seen(obs: dict[str, np.ndarray], melds: np.ndarray) -> np.ndarray:
    """(w, 27) copies each seat to act sees outside its hand: live discards, others' open melds
    (as the ``efficient`` player counts them), at most what its hand and melds leave."""
    w = len(melds)
    d = obs["discards"].reshape(w, -1).astype(np.int64)
    live = (d >= 0) & ~obs["discards_taken"].reshape(w, -1)
    flat = np.where(live, d, _K) + (_K + 1) * np.arange(w)[:, None]
    seen = np.bincount(flat.ravel(), minlength=w * (_K + 1)).reshape(w, _K + 1)[:, :_K]
    m = obs["melds"]  # (w, P, 4, 2)
    others = np.arange(m.shape[1])[None, :] != obs["seat"][:, None]
    r, q, i = np.nonzero((m[..., 0] >= 0) & others[:, :, None])
    np.add.at(seen, (r, m[r, q, i, 0]), np.where(m[r, q, i, 1] == 0, 3, 4))
    return np.clip(seen, 0, 4 - obs["hand"].astype(np.int64) - melds).astype(np.uint8)


PLAYERS["forecast"] = ForecastPlayer()
