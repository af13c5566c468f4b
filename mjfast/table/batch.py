"""``TableBatch``: n tables stepped at once, for agents (one action per table per step)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from mjfast._args import as_choice, as_flag, as_int, as_rules
from mjfast._core import _table
from mjfast.errors import InvalidArgumentError, shown
from mjfast.rules import Rules
from mjfast.table.actions import NUM_ACTIONS, IllegalActionError, action_name
from mjfast.table.cengine import deal_wall, engine_rules
from mjfast.table.engine import MAX_TABLE_PLAYERS, Table
from mjfast.table.legal import why_illegal
from mjfast.table.observe import OBSERVATION_KEYS
from mjfast.table.state import MAX_DISCARDS

__all__ = ["ObsBuffers", "TableBatch"]


class ObsBuffers:
    """(n, ...) arrays of one observation per row, the layout the C engine writes: ``obs`` is
    the dict of :func:`mjfast.table.observation` keys (views: the scalars are columns of one
    (n, 7) array, the bool keys views of uint8 arrays)."""

    def __init__(self, n: int, p: int):
        self.scalars = np.empty((n, len(_table.SCALARS)), np.int64)
        self.arrays: dict[str, np.ndarray] = {
            "hand": np.empty((n, 27), np.uint8), "melds": np.empty((n, p, 4, 2), np.int8),
            "discards": np.empty((n, p, MAX_DISCARDS), np.int8),
            "discards_taken": np.empty((n, p, MAX_DISCARDS), np.uint8),
            "void": np.empty((n, p), np.int8), "out": np.empty((n, p), np.uint8),
            "scores": np.empty((n, p), np.int64)}
        named = {k: self.scalars[:, i] for i, k in enumerate(_table.SCALARS)}
        self.obs = {k: named[k] if k in named else
                    self.arrays[k].view(np.bool_) if k in ("discards_taken", "out")
                    else self.arrays[k] for k in OBSERVATION_KEYS}

    def out(self, rows: int | None = None) -> list[np.ndarray]:
        """The output arrays in the order the engine's observe calls take them (first rows)."""
        return [a[:rows] for a in (self.scalars, *self.arrays.values())]

    def write(self, i: int, obs: Mapping[str, Any]) -> None:
        """Row ``i`` from one observation dict (the Python engine)."""
        for k in OBSERVATION_KEYS:
            self.obs[k][i] = obs[k]


_MAX_TABLES = 2**31 - 1  # the C engine counts its tables in an int


class TableBatch:
    """``n`` tables of ``players`` seats stepped together; each step takes one action per table
    (for that table's :attr:`current_player`). A finished table is dealt again at once (the
    next hand of the batch's seed: hand k gets the wall :func:`~mjfast.table.selfplay` deals
    for hand k), so every row always has a decision to make.

    :meth:`reset` and :meth:`step` return the observations of the seat to act in each table
    (a dict of (n, ...) arrays, the keys of :func:`mjfast.table.observation`) and the (n, 140)
    legal masks; :meth:`step` also returns the (n, players) int64 payments of the step
    (rewards) and the (n,) done flags (the hand of that row ended in this step). With
    ``keep_final`` the last observation of each ended hand is kept in :attr:`final_obs`.

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
                 seed: int = 0, engine: str = "c", keep_final: bool = False):
        self._n = as_int(n, "n", minimum=1, maximum=_MAX_TABLES)
        self._players = as_int(players, "players", minimum=2, maximum=MAX_TABLE_PLAYERS)
        self._rules = as_rules(rules)
        self._seed = as_int(seed, "seed", minimum=0, maximum=2**64 - 1)
        self._engine = as_choice(engine, "engine", ("c", "python"))
        self._final = ObsBuffers(self._n, self._players) if as_flag(keep_final, "keep_final") \
            else None
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
        self._buf = ObsBuffers(self._n, self._players)
        self._obs = self._buf.obs
        self._mask = np.empty((self._n, NUM_ACTIONS), np.uint8)

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

    @property
    def final_obs(self) -> dict[str, np.ndarray] | None:
        """With ``keep_final``: after a :meth:`step`, the rows whose hand ended hold the last
        observation of the seat that acted (the hand over), before the next deal; the same
        arrays every step, like the observations (None without ``keep_final``)."""
        return None if self._final is None else self._final.obs

    def reset(self, seed: int | None = None) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """Deal n new hands (from the first hand of ``seed``, else of the batch's seed); return
        the observations and masks of the seats to act."""
        if seed is not None:
            self._seed = as_int(seed, "seed", minimum=0, maximum=2**64 - 1)
            self._rng = np.random.default_rng(self._seed)
        if self._c is not None:
            self._c.reset(self._seed)
        else:
            self._dealt = 0
            self.tables = [self._deal() for _ in range(self._n)]
        return self._views()

    def _views(self) -> tuple[dict[str, np.ndarray], np.ndarray]:
        if self._c is not None:
            return self._c_views()
        obs: list[Mapping[str, Any]] = [t.observation(t.current_player) for t in self.tables]
        stacked = {k: np.stack([np.asarray(o[k]) for o in obs]) for k in OBSERVATION_KEYS}
        mask = np.stack([t.legal_actions(t.current_player) for t in self.tables])
        return stacked, mask

    def _c_views(self) -> tuple[dict[str, np.ndarray], np.ndarray]:
        self._c.observe(*self._buf.out())
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
            p = t.current_player
            rewards[i] = t.step(int(a[i]))
            if t.is_over:
                done[i] = True
                if self._final is not None:
                    self._final.write(i, t.observation(p))
                self.tables[i] = self._deal()
        obs, mask = self._views()
        return obs, mask, rewards, done

    def _c_step(self, a: np.ndarray) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                                np.ndarray]:
        actions = np.clip(a, -1, NUM_ACTIONS).astype(np.int64)
        rewards = np.zeros((self._n, self._players), dtype=np.int64)
        done = np.zeros(self._n, dtype=np.uint8)
        # the seats acting now (the last observation's), whose final views are kept
        seats = None if self._final is None else self._buf.scalars[:, 0].astype(np.int8)
        bad = self._c.step(actions, rewards, done, self._final is None)
        if bad >= 0:
            x = int(a[bad])
            what = action_name(x) if 0 <= x < NUM_ACTIONS else f"{x} (expected 0..{NUM_ACTIONS - 1})"
            raise IllegalActionError(f"actions[{bad}]: {what} is not legal for player "
                                     f"{int(self.current_player[bad])} now (see the mask)")
        if seats is not None and self._final is not None and done.any():
            which = np.flatnonzero(done).astype(np.int32)
            self._c.observe_rows(which, seats[which], *self._final.out())
            self._c.deal_done(done)
        obs, mask = self._views()
        return obs, mask, rewards, done.view(np.bool_)
