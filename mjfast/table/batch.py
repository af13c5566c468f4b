"""``TableBatch``: n tables stepped at once, for agents (one action per table per step)."""

from __future__ import annotations

from typing import Any

import numpy as np

from mjfast._args import as_choice, as_int, as_rules
from mjfast._core import _table
from mjfast.errors import InvalidArgumentError, shown
from mjfast.rules import Rules
from mjfast.table.actions import NUM_ACTIONS, IllegalActionError, action_name
from mjfast.table.cengine import deal_wall, engine_rules
from mjfast.table.engine import MAX_TABLE_PLAYERS, Table
from mjfast.table.legal import why_illegal
from mjfast.table.observe import OBSERVATION_KEYS
from mjfast.table.state import MAX_DISCARDS

__all__ = ["TableBatch"]

_MAX_TABLES = 2**31 - 1  # the C engine counts its tables in an int


class TableBatch:
    """``n`` tables of ``players`` seats stepped together; each step takes one action per table
    (for that table's :attr:`current_player`). A finished table is dealt again at once (the
    next hand of the batch's seed: hand k gets the wall :func:`~mjfast.table.selfplay` deals
    for hand k), so every row always has a decision to make.

    :meth:`reset` and :meth:`step` return the observations of the seat to act in each table
    (a dict of (n, ...) arrays, the keys of :func:`mjfast.table.observation`) and the (n, 140)
    legal masks; :meth:`step` also returns the (n, players) int64 payments of the step
    (rewards) and the (n,) done flags (the hand of that row ended in this step).

    ``engine``: ``"c"`` (default) steps the compiled tables with the GIL released, writing the
    observations and masks into the same arrays at every step (copy what you keep);
    ``"python"`` steps :class:`~mjfast.table.Table` objects (the reference: the same states,
    masks and rewards), kept in :attr:`tables`. :meth:`random_actions` draws a uniformly random
    legal action per table.

    >>> b = TableBatch(3, seed=1)
    >>> obs, mask = b.reset()
    >>> obs["hand"].shape, mask.shape, b.current_player.tolist()
    ((3, 27), (3, 140), [0, 0, 0])
    >>> obs, mask, rewards, done = b.step(mask.argmax(axis=1))
    >>> rewards.shape, done.tolist()
    ((3, 4), [False, False, False])
    """

    def __init__(self, n: int, players: int = 4, *, rules: Rules | str | None = None,
                 seed: int = 0, engine: str = "c"):
        self._n = as_int(n, "n", minimum=1, maximum=_MAX_TABLES)
        self._players = as_int(players, "players", minimum=2, maximum=MAX_TABLE_PLAYERS)
        self._rules = as_rules(rules)
        self._seed = as_int(seed, "seed", minimum=0, maximum=2**64 - 1)
        self._engine = as_choice(engine, "engine", ("c", "python"))
        self._dealt = 0
        self.tables: list[Table] = []
        self._c: Any = None
        self._rng = np.random.default_rng(self._seed)
        if self._engine == "c":
            fan, params = engine_rules(self._rules)
            self._c = _table.Batch(self._n, self._players, fan, params, self._seed)
            self._buffers()
        self.reset()

    def _buffers(self) -> None:
        """The arrays the C engine writes each step's observations and masks into."""
        n, p = self._n, self._players
        self._scalars = np.empty((n, len(_table.SCALARS)), np.int64)
        self._arrays: dict[str, np.ndarray] = {
            "hand": np.empty((n, 27), np.uint8), "melds": np.empty((n, p, 4, 2), np.int8),
            "discards": np.empty((n, p, MAX_DISCARDS), np.int8),
            "discards_taken": np.empty((n, p, MAX_DISCARDS), np.uint8),
            "void": np.empty((n, p), np.int8), "out": np.empty((n, p), np.uint8),
            "scores": np.empty((n, p), np.int64)}
        self._mask = np.empty((n, NUM_ACTIONS), np.uint8)
        named = {k: self._scalars[:, i] for i, k in enumerate(_table.SCALARS)}
        bools = {"discards_taken", "out"}
        self._obs = {k: named[k] if k in named else
                     self._arrays[k].view(np.bool_) if k in bools else self._arrays[k]
                     for k in OBSERVATION_KEYS}

    def random_actions(self) -> np.ndarray:
        """(n,) int64: a uniformly random legal action for each table's seat to act."""
        out = np.empty(self._n, np.int64)
        if self._c is not None:
            self._c.sample(out)
            return out
        for i, t in enumerate(self.tables):
            legal = np.flatnonzero(t.legal_actions(t.current_player))
            out[i] = legal[self._rng.integers(len(legal))]
        return out

    def _deal(self) -> Table:
        wall = deal_wall(self._seed, self._dealt)
        self._dealt += 1
        return Table(self._rules, players=self._players, wall=wall)

    @property
    def n(self) -> int:
        """The number of tables."""
        return self._n

    @property
    def current_player(self) -> np.ndarray:
        """(n,) int8: the seat to act in each table."""
        if self._c is not None:
            out = np.empty(self._n, np.int8)
            self._c.current(out)
            return out
        return np.array([t.current_player for t in self.tables], dtype=np.int8)

    def reset(self) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """Deal n new hands; return the observations and masks of the seats to act."""
        if self._c is not None:
            self._c.reset()
        else:
            self._dealt = 0
            self.tables = [self._deal() for _ in range(self._n)]
        return self._views()

    def _views(self) -> tuple[dict[str, np.ndarray], np.ndarray]:
        if self._c is not None:
            return self._c_views()
        obs = [t.observation(t.current_player) for t in self.tables]
        stacked = {k: np.stack([np.asarray(o[k]) for o in obs]) for k in OBSERVATION_KEYS}
        mask = np.stack([t.legal_actions(t.current_player) for t in self.tables])
        return stacked, mask

    def _c_views(self) -> tuple[dict[str, np.ndarray], np.ndarray]:
        self._c.observe(self._scalars, *self._arrays.values())
        self._c.masks(self._mask)
        return self._obs, self._mask.view(np.bool_)

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                          np.ndarray]:
        """One action per table. Raises :class:`~mjfast.table.IllegalActionError` naming the
        first illegal row (``actions[3]: ...``) before any table moves."""
        a = np.asarray(actions)
        if a.shape != (self._n,) or a.dtype.kind not in "iu":
            raise InvalidArgumentError(f"actions: expected ({self._n},) ints, got "
                                       f"{shown(actions)} of shape {a.shape}")
        if self._c is not None:
            return self._c_step(a)
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

    def _c_step(self, a: np.ndarray) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                                np.ndarray]:
        actions = np.clip(a, -1, NUM_ACTIONS).astype(np.int64)
        rewards = np.zeros((self._n, self._players), dtype=np.int64)
        done = np.zeros(self._n, dtype=np.uint8)
        bad = self._c.step(actions, rewards, done)
        if bad >= 0:
            x = int(a[bad])
            what = action_name(x) if 0 <= x < NUM_ACTIONS else f"{x} (expected 0..{NUM_ACTIONS - 1})"
            raise IllegalActionError(f"actions[{bad}]: {what} is not legal for player "
                                     f"{int(self.current_player[bad])} now (see the mask)")
        obs, mask = self._views()
        return obs, mask, rewards, done.view(np.bool_)
