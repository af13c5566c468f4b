"""One seat of a hand against built-in players, for :mod:`mjfast.table.envs`: the hand played
in C (:class:`~mjfast._core._table.Runner`, when every opponent is a C player) or on a
:class:`~mjfast.table.Table` (any player), stopping at each decision of the seat that has more
than one legal action."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mjfast._core import _table
from mjfast.rules import Rules
from mjfast.table.cengine import PLAYER_KINDS, deal_wall, engine_rules
from mjfast.table.engine import Table
from mjfast.table.match import Views, empty_results
from mjfast.table.players import Player, as_players

__all__ = ["SeatGame"]


class SeatGame:
    """Seat ``seat`` of hands of ``players`` seats against ``opponents`` (one per other seat).

    :meth:`deal` starts a hand from a seed, :meth:`act` takes the seat's action; both play the
    opponents (and the seat's forced moves) on to its next choice and return its observation
    (the :func:`mjfast.table.observation` keys; ``mask`` the legal actions, all False once the
    hand is over) and what the seat was paid meanwhile.
    """

    def __init__(self, opponents: Sequence[str | Player], players: int, seat: int,
                 rules: Rules):
        self.players, self.seat, self.rules = players, seat, rules
        self.codes = [PLAYER_KINDS[str(o)] for o in opponents] \
            if all(isinstance(o, str) and o in PLAYER_KINDS for o in opponents) else None
        self._others = as_players(list(opponents), players - 1, rules, "opponents")
        self.table: Table | None = None
        self._last = 0
        self.over = True

    # ------------------------------------------------------------------ C
    def _c_deal(self, seed: int) -> tuple[dict[str, Any], int]:
        assert self.codes is not None
        kinds = list(self.codes)
        kinds.insert(self.seat, _table.EXTERNAL)
        fan, params = engine_rules(self.rules)
        out = self._out = empty_results(1, self.players)
        self._runner = _table.Runner(1, np.array(kinds, np.int32), fan, params, seed, 0, 1,
                                     out["order"], out["fan"], out["net"], out["hua_zhu"],
                                     out["cha_da_jiao"], out["dealt_in"], out["turns"],
                                     out["flags"], out["dealer"], 1)
        self._views = Views(1, self.players)
        self._waiting = np.empty(1, np.int32)
        return self._c_on()

    def _c_on(self) -> tuple[dict[str, Any], int]:
        waiting = self._runner.advance(self._waiting)
        self.over = waiting == 0
        obs, mask = self._views.fill(self._runner, np.zeros(1, np.int32), self.seat)
        one = {k: v[0] for k, v in obs.items()}
        one["mask"] = mask[0]
        return one, self._paid(int(one["scores"][self.seat]))

    # ------------------------------------------------------------------ Python
    def _py_on(self) -> tuple[dict[str, Any], int]:
        t = self.table
        assert t is not None
        rng = self._rng
        while not t.is_over:
            p = t.current_player
            mask = t.legal_actions(p)
            if p == self.seat:
                legal = np.flatnonzero(mask)
                if len(legal) > 1:
                    break
                t.step(int(legal[0]))
                continue
            t.step(self._others[p - (p > self.seat)](t.observation(p), mask, rng))
        self.over = t.is_over
        obs: dict[str, Any] = {**t.observation(self.seat), "mask": t.legal_actions(self.seat)}
        return obs, self._paid(int(obs["scores"][self.seat]))

    def _paid(self, score: int) -> int:
        paid, self._last = score - self._last, score
        return paid

    # ------------------------------------------------------------------ both
    def deal(self, seed: int, rng: np.random.Generator) -> tuple[dict[str, Any], int]:
        """A new hand: hand 0 of the run ``seed`` (the wall ``selfplay`` deals, on either
        engine); ``rng`` for the Python opponents."""
        self._last = 0
        if self.codes is not None:
            return self._c_deal(seed)
        self._rng = rng
        self.table = Table(self.rules, players=self.players, wall=deal_wall(seed, 0))
        return self._py_on()

    def act(self, action: int) -> tuple[dict[str, Any], int]:
        """The seat's action (legal: the caller checks the mask)."""
        if self.codes is not None:
            if self._runner.act(np.zeros(1, np.int32), np.array([action], np.int64)) >= 0:
                raise AssertionError("SeatGame.act: an illegal action")
            return self._c_on()
        assert self.table is not None
        self.table.step(action)
        return self._py_on()
