"""``TableBatch``: n tables stepped at once, for agents (one action per table per step)."""

from __future__ import annotations

from typing import Any

import numpy as np

from mjfast._args import as_int, as_rules
from mjfast.errors import InvalidArgumentError, shown
from mjfast.rules import Rules
from mjfast.table.actions import NUM_ACTIONS, IllegalActionError
from mjfast.table.engine import MAX_TABLE_PLAYERS, Table
from mjfast.table.legal import why_illegal
from mjfast.table.observe import OBSERVATION_KEYS
from mjfast.table.selfplay import hand_seeds

__all__ = ["TableBatch"]


class TableBatch:
    """``n`` tables of ``players`` seats stepped together; each step takes one action per table
    (for that table's :attr:`current_player`). A finished table is dealt again at once (the
    next hand from the batch's seed), so every row always has a decision to make.

    :meth:`reset` and :meth:`step` return the observations of the seat to act in each table
    (a dict of (n, ...) arrays, the keys of :func:`mjfast.table.observation`) and the (n, 140)
    legal masks; :meth:`step` also returns the (n, players) int64 payments of the step
    (rewards) and the (n,) done flags (the hand of that row ended in this step).

    >>> b = TableBatch(3, seed=1)
    >>> obs, mask = b.reset()
    >>> obs["hand"].shape, mask.shape, b.current_player.tolist()
    ((3, 27), (3, 140), [0, 0, 0])
    >>> obs, mask, rewards, done = b.step(mask.argmax(axis=1))
    >>> rewards.shape, done.tolist()
    ((3, 4), [False, False, False])
    """

    def __init__(self, n: int, players: int = 4, *, rules: Rules | str | None = None,
                 seed: int = 0):
        self._n = as_int(n, "n", minimum=1)
        self._players = as_int(players, "players", minimum=2, maximum=MAX_TABLE_PLAYERS)
        self._rules = as_rules(rules)
        self._seed = as_int(seed, "seed", minimum=0)
        self._dealt = 0
        self.tables: list[Table] = []
        self.reset()

    def _deal(self) -> Table:
        wall_seed, _ = hand_seeds(self._seed, self._dealt)
        self._dealt += 1
        return Table(self._rules, players=self._players, seed=wall_seed)

    @property
    def n(self) -> int:
        """The number of tables."""
        return self._n

    @property
    def current_player(self) -> np.ndarray:
        """(n,) int8: the seat to act in each table."""
        return np.array([t.current_player for t in self.tables], dtype=np.int8)

    def reset(self) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """Deal n new hands; return the observations and masks of the seats to act."""
        self._dealt = 0
        self.tables = [self._deal() for _ in range(self._n)]
        return self._views()

    def _views(self) -> tuple[dict[str, np.ndarray], np.ndarray]:
        obs = [t.observation(t.current_player) for t in self.tables]
        stacked = {k: np.stack([np.asarray(o[k]) for o in obs]) for k in OBSERVATION_KEYS}
        mask = np.stack([t.legal_actions(t.current_player) for t in self.tables])
        return stacked, mask

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                          np.ndarray]:
        """One action per table. Raises :class:`~mjfast.table.IllegalActionError` naming the
        first illegal row (``actions[3]: ...``) before any table moves."""
        a = np.asarray(actions)
        if a.shape != (self._n,) or a.dtype.kind not in "iu":
            raise InvalidArgumentError(f"actions: expected ({self._n},) ints, got "
                                       f"{shown(actions)} of shape {a.shape}")
        bad = (a < 0) | (a >= NUM_ACTIONS)
        for i, t in enumerate(self.tables):
            if bad[i] or not t.legal_actions(t.current_player)[a[i]]:
                why = (f"expected an action 0..{NUM_ACTIONS - 1}, got {int(a[i])}" if bad[i]
                       else why_illegal(t.state, t.current_player, int(a[i])))
                raise IllegalActionError(f"actions[{i}]: {why}")
        rewards = np.zeros((self._n, self._players), dtype=np.int64)
        done = np.zeros(self._n, dtype=np.bool_)
        for i, t in enumerate(self.tables):
            rewards[i] = t.step(int(a[i]))
            if t.is_over:
                done[i] = True
                self.tables[i] = self._deal()
        obs, mask = self._views()
        return obs, mask, rewards, done
