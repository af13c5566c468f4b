"""A PettingZoo AEC environment over :class:`~mjfast.table.Table` (extra ``rl``:
``pip install "mjfast[rl]"``). PettingZoo is imported when an environment is made, so this
module imports without it.

Agents ``player_0`` .. ``player_{n-1}``; the agent to act is the table's current player. Each
observation is a dict: ``observation`` (the seat's :func:`mjfast.table.observation` arrays)
and ``action_mask`` (int8, 140). Rewards are the payments of each step (net, in base stakes);
every agent terminates when the hand ends.

>>> e = env(seed=3)                                        # doctest: +SKIP
>>> e.reset(seed=3)                                        # doctest: +SKIP
>>> e.agent_selection, e.observe("player_0")["action_mask"].sum()   # doctest: +SKIP
('player_0', 3)
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from mjfast._args import as_int, as_rules
from mjfast.rules import Rules
from mjfast.table.actions import NUM_ACTIONS
from mjfast.table.engine import MAX_TABLE_PLAYERS, Table
from mjfast.table.state import MAX_DISCARDS, PHASE_OVER

__all__ = ["env"]

_SCORE = 2**52  # bounds of the scores box: a hand moves less than 2**56 in total (Rules)


def _spaces(n: int) -> tuple[Any, Any]:
    """The observation and action spaces of one agent."""
    from gymnasium import spaces  # type: ignore[import-not-found, unused-ignore]

    def box(low: int, high: int, shape: tuple[int, ...], dtype: Any) -> Any:
        return spaces.Box(low=low, high=high, shape=shape, dtype=dtype)

    one = (1,)
    obs = spaces.Dict({
        "seat": box(0, n - 1, one, np.int64), "phase": box(0, PHASE_OVER, one, np.int64),
        "current": box(0, n - 1, one, np.int64), "dealer": box(0, n - 1, one, np.int64),
        "hand": box(0, 4, (27,), np.uint8), "drawn": box(-1, 26, one, np.int64),
        "tile": box(-1, 26, one, np.int64), "melds": box(-1, 26, (n, 4, 2), np.int8),
        "discards": box(-1, 26, (n, MAX_DISCARDS), np.int8),
        "discards_taken": spaces.MultiBinary((n, MAX_DISCARDS)),
        "void": box(-1, 2, (n,), np.int8), "wall": box(0, 108, one, np.int64),
        "out": spaces.MultiBinary(n), "scores": box(-_SCORE, _SCORE, (n,), np.int64),
    })
    mask = box(0, 1, (NUM_ACTIONS,), np.int8)
    return spaces.Dict({"observation": obs, "action_mask": mask}), spaces.Discrete(NUM_ACTIONS)


@functools.cache
def _env_class() -> type:
    from pettingzoo import AECEnv  # type: ignore[import-not-found, import-untyped, unused-ignore]

    class XueZhanEnv(AECEnv):  # type: ignore[misc, unused-ignore]
        """血战到底 as a PettingZoo AEC environment (see :mod:`mjfast.table.aec`)."""

        metadata = {"name": "mjfast_xuezhan_v0", "render_modes": [], "is_parallelizable": False}

        def __init__(self, rules: Rules | str | None = None, players: int = 4,
                     seed: int | None = None):
            super().__init__()
            self._rules = as_rules(rules)
            n = as_int(players, "players", minimum=2, maximum=MAX_TABLE_PLAYERS)
            self._seed = seed
            self.possible_agents = [f"player_{i}" for i in range(n)]
            obs, act = _spaces(n)
            self.observation_spaces = dict.fromkeys(self.possible_agents, obs)
            self.action_spaces = dict.fromkeys(self.possible_agents, act)
            self.table = Table(self._rules, players=n, seed=seed)

        def observation_space(self, agent: str) -> Any:
            return self.observation_spaces[agent]

        def action_space(self, agent: str) -> Any:
            return self.action_spaces[agent]

        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
            del options
            if seed is not None:
                self._seed = seed
            elif self._seed is not None:
                self._seed += 1  # a new hand each reset, still reproducible
            self.table = Table(self._rules, players=len(self.possible_agents), seed=self._seed)
            self.agents = list(self.possible_agents)
            self.rewards = dict.fromkeys(self.agents, 0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
            self.agent_selection = self.agents[self.table.current_player]

        def observe(self, agent: str) -> dict[str, Any]:
            seat = self.possible_agents.index(agent)
            raw = self.table.observation(seat)
            obs = {k: np.asarray(v, dtype=np.int64).reshape(1) if np.ndim(v) == 0 else v
                   for k, v in raw.items()}
            obs["discards_taken"] = raw["discards_taken"].astype(np.int8)
            obs["out"] = raw["out"].astype(np.int8)
            return {"observation": obs,
                    "action_mask": self.table.legal_actions(seat).astype(np.int8)}

        def step(self, action: int | None) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0
            paid = self.table.step(action)  # type: ignore[arg-type]
            self.rewards = {a: int(paid[i]) for i, a in enumerate(self.agents)}
            if self.table.is_over:
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self.agent_selection = self.agents[self.table.current_player]
            self._accumulate_rewards()

        def render(self) -> None:
            """No rendering: the observation arrays and ``table.to_json()`` say it all."""

        def close(self) -> None:
            """Nothing to release."""

    return XueZhanEnv


def env(rules: Rules | str | None = None, players: int = 4, seed: int | None = None) -> Any:
    """A PettingZoo AEC environment of one 血战 hand per episode (needs ``pettingzoo``)."""
    try:
        cls = _env_class()
    except ImportError as exc:
        raise ImportError("mjfast.table.aec needs PettingZoo: pip install 'mjfast[rl]'") from exc
    return cls(rules=rules, players=players, seed=seed)
