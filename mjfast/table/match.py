"""Hands played by the compiled engine with some seats decided in Python, many tables at a time.

The C :class:`~mjfast._core._table.Runner` plays the built-in seats and stops a table when a
*batch player*'s seat has a choice; the waiting tables' decisions go to the player in one call
(so a player that forecasts can batch its forecasts), and the tables go on in C.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, runtime_checkable

import numpy as np

from mjfast._core import _table
from mjfast._deprecated import renamed
from mjfast.errors import InvalidArgumentError
from mjfast.rules import Rules
from mjfast.table.actions import NUM_ACTIONS, IllegalActionError, action_name
from mjfast.table.batch import ObsBuffers
from mjfast.table.cengine import engine_rules, session_ranges

__all__ = ["BatchPlayer", "Views", "empty_results", "play_batched"]

TABLES = 256
"""Tables one thread keeps in play: enough decisions per call to batch the forecasts."""


@runtime_checkable
class BatchPlayer(Protocol):
    """A deterministic player that decides for many tables at once (the built-in ``forecast``).

    ``act_batch(obs, masks, hints, shanten)``: ``obs`` the observations of the seats to act (a
    dict of (w, ...) arrays, the keys of :func:`mjfast.table.observation`), ``masks`` (w, 140)
    bool, ``hints`` (w,) the ``efficient`` player's actions, ``shanten`` (w,) the shanten of
    each seat's concealed hand (melds and void counted); returns (w,) actions.
    """

    def act_batch(self, obs: dict[str, np.ndarray], masks: np.ndarray, hints: np.ndarray,
                  shanten: np.ndarray) -> np.ndarray: ...

    def __call__(self, obs: dict[str, Any], mask: np.ndarray, rng: np.random.Generator) -> int: ...


class Views(ObsBuffers):
    """The arrays one Runner writes the waiting tables' observations into."""

    def __init__(self, k: int, p: int):
        super().__init__(k, p)
        self.masks = np.empty((k, NUM_ACTIONS), np.uint8)
        self.hints = np.empty(k, np.int64)
        self.shanten = np.empty(k, np.int8)

    def fill(self, runner: Any, which: np.ndarray, seat: int = -1
             ) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """The observations of the tables ``which`` (their seat to act, or ``seat``)."""
        w = len(which)
        runner.observe(which, *self.out(w), self.masks[:w], self.hints[:w], self.shanten[:w],
                       seat)
        return {k: v[:w] for k, v in self.obs.items()}, self.masks[:w].view(np.bool_)


def empty_results(n: int, p: int) -> dict[str, np.ndarray]:
    return {"order": np.full((n, p), -1, np.int8), "fan": np.full((n, p), -1, np.int16),
            "net": np.zeros((n, p), np.int64), "hua_zhu": np.zeros((n, p), np.uint8),
            "cha_da_jiao": np.zeros((n, p), np.uint8), "dealt_in": np.zeros((n, p), np.uint8),
            "turns": np.zeros(n, np.int32), "flags": np.zeros((n, 3), np.uint8),
            "dealer": np.zeros(n, np.int8)}


def _run_range(seats: Sequence[int | BatchPlayer], rules: Rules, seed: int, session: int,
               start: int, end: int, out: dict[str, np.ndarray]) -> None:
    fan, params = engine_rules(rules)
    kinds = np.array([s if isinstance(s, int) else _table.EXTERNAL for s in seats], np.int32)
    k = max(1, min(TABLES, end - start))
    part = {key: a[start:end] for key, a in out.items()}
    runner = _table.Runner(k, kinds, fan, params, seed, start, end, part["order"], part["fan"],
                           part["net"], part["hua_zhu"], part["cha_da_jiao"], part["dealt_in"],
                           part["turns"], part["flags"], part["dealer"], session)
    views = Views(k, len(seats))
    waiting = np.empty(k, np.int32)
    actions = np.empty(k, np.int64)
    while (w := runner.advance(waiting)) > 0:
        which = waiting[:w]
        obs, masks = views.fill(runner, which)
        seat = obs["seat"]
        for p in np.unique(seat).tolist():
            rows = np.flatnonzero(seat == p)
            sub = {key: v[rows] for key, v in obs.items()}
            player = seats[p]
            assert not isinstance(player, int)
            actions[rows] = player.act_batch(sub, masks[rows], views.hints[rows],
                                             views.shanten[rows])
        bad = runner.act(which, actions[:w])
        if bad >= 0:
            a = int(actions[bad])
            what = action_name(a) if 0 <= a < NUM_ACTIONS else str(a)
            raise IllegalActionError(f"player {int(seat[bad])} ({seats[int(seat[bad])]!r}) chose "
                                     f"{what}, which is not legal")


@renamed(hands="n_hands", seats="bots")
def play_batched(n_hands: int, bots: Sequence[int | BatchPlayer], rules: Rules, seed: int,
                 workers: int, session: int = 1) -> dict[str, np.ndarray]:
    """Hands [0, n_hands) of the run ``seed``: ``bots`` one per seat, a C player kind (0
    random, 1 efficient) or a :class:`BatchPlayer`. Returns the result arrays of
    :class:`~mjfast.table.SelfPlayResult` (built-in seats play as :func:`selfplay`'s C engine
    plays them, so an all-built-in run gives its results), split over ``workers`` threads (the
    engine and the forecasts release the GIL; the players' Python does not)."""
    engine_rules(rules)  # refuses what the engine does not play
    if not rules.ding_que and not all(isinstance(s, int) for s in bots):
        # the forecast player plans from its declared void suit (its choose_void ranking)
        raise InvalidArgumentError("Rules.ding_que=False: a batch player (forecast) plays with "
                                   "a declared void suit only")
    p = len(bots)
    out = empty_results(n_hands, p)
    ranges = session_ranges(n_hands, session, workers)
    if len(ranges) == 1:
        _run_range(bots, rules, seed, session, ranges[0][0], ranges[0][1], out)
    else:
        with ThreadPoolExecutor(len(ranges), thread_name_prefix="mjfast-match") as pool:
            list(pool.map(lambda b: _run_range(bots, rules, seed, session, b[0], b[1], out),
                          ranges))
    flags = out.pop("flags")
    return {"won": out["order"] >= 0, "order": out["order"], "fan": out["fan"], "net": out["net"],
            "hua_zhu": out["hua_zhu"].astype(np.bool_),
            "cha_da_jiao": out["cha_da_jiao"].astype(np.bool_),
            "dealt_in": out["dealt_in"].astype(np.bool_), "turns": out["turns"],
            "drawn": flags[:, 0].astype(np.bool_), "tian_hu": flags[:, 1].astype(np.bool_),
            "yi_pao_duo_xiang": flags[:, 2].astype(np.bool_), "dealer": out["dealer"]}
