"""A PettingZoo AEC environment over :class:`~mjfast.table.Table` (extra ``rl``:
``pip install "mjfast[rl]"``), built as PettingZoo's classic games are: :func:`raw_env` is the
environment, :func:`env` wraps it (illegal moves end the game with a penalty, actions are
checked against the space, the API order is enforced). PettingZoo is imported when an
environment is made, so this module imports without it.

Agents ``player_0`` .. ``player_{n-1}``; the agent to act is the table's current player. Each
observation is a dict: ``observation`` (the seat's :func:`mjfast.table.observation` arrays, or
with ``flat=True`` one int64 vector of them, Gymnasium's ``flatten`` of the dict) and
``action_mask`` (int8, 140). Rewards are the payments of each step (net, in base stakes);
every agent terminates when the hand ends. ``render_mode`` ``"human"`` prints the table,
``"ansi"`` returns it as text (:func:`~mjfast.table.envs.render_text`).

>>> e = env(seed=3)                                        # doctest: +SKIP
>>> e.reset(seed=3)                                        # doctest: +SKIP
>>> e.agent_selection, e.observe("player_0")["action_mask"].sum()   # doctest: +SKIP
('player_0', 3)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np

from mjfast._args import as_choice, as_flag, as_int, as_rules
from mjfast.rules import Rules
from mjfast.table.actions import NUM_ACTIONS
from mjfast.table.engine import MAX_TABLE_PLAYERS, Table
from mjfast.table.envs import observation_space, render_text

__all__ = ["env", "raw_env"]

_RENDER_MODES = ("human", "ansi")


def _spaces(n: int, flat: bool) -> tuple[Any, Any, Any]:
    """(the observation space, the action space, the space of the seat's arrays)."""
    from gymnasium import spaces  # type: ignore[import-not-found, unused-ignore]

    whole = observation_space(n, np.int8)
    seat = spaces.Dict({k: v for k, v in whole.spaces.items() if k != "action_mask"})
    obs = spaces.flatten_space(seat) if flat else seat
    return (spaces.Dict({"observation": obs, "action_mask": whole["action_mask"]}),
            spaces.Discrete(NUM_ACTIONS), seat)


@functools.cache
def _env_class() -> type:
    from gymnasium import spaces  # type: ignore[import-not-found, unused-ignore]
    from pettingzoo import AECEnv  # type: ignore[import-not-found, import-untyped, unused-ignore]

    class XueZhanEnv(AECEnv):  # type: ignore[misc, unused-ignore]
        """血战到底 as a PettingZoo AEC environment (see :mod:`mjfast.table.aec`)."""

        metadata = {"name": "mjfast_xuezhan_v0", "render_modes": list(_RENDER_MODES),
                    "is_parallelizable": False, "render_fps": 1}

        def __init__(self, rules: Rules | str | None = None, players: int = 4,
                     seed: int | None = None, flat: bool = False,
                     render_mode: str | None = None):
            super().__init__()
            self._rules = as_rules(rules)
            n = as_int(players, "players", minimum=2, maximum=MAX_TABLE_PLAYERS)
            self._seed = seed
            self.flat = as_flag(flat, "flat")
            self.render_mode = None if render_mode is None else \
                as_choice(render_mode, "render_mode", _RENDER_MODES)
            self.possible_agents = [f"player_{i}" for i in range(n)]
            obs, act, self._seat_space = _spaces(n, self.flat)
            self.observation_spaces = {a: obs for a in self.possible_agents}
            self.action_spaces = {a: act for a in self.possible_agents}
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
            raw: Mapping[str, Any] = self.table.observation(seat)
            obs: Any = {k: np.asarray(v, np.int64) if np.ndim(v) == 0 else v
                        for k, v in raw.items()}
            if self.flat:
                obs = spaces.flatten(self._seat_space, obs)
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
            if self.render_mode == "human":
                self.render()

        def render(self) -> str | None:
            """The table as text: printed (``"human"``) or returned (``"ansi"``)."""
            if self.render_mode is None:
                return None
            text = render_text(self.table)
            if self.render_mode == "human":
                print(text)
                return None
            return text

        def close(self) -> None:
            """Nothing to release."""

    return XueZhanEnv


def raw_env(rules: Rules | str | None = None, players: int = 4, seed: int | None = None,
            flat: bool = False, render_mode: str | None = None) -> Any:
    """The unwrapped AEC environment of one 血战 hand per episode (needs ``pettingzoo``)."""
    try:
        cls = _env_class()
    except ImportError as exc:
        raise ImportError("mjfast.table.aec needs PettingZoo: pip install 'mjfast[rl]'") from exc
    return cls(rules=rules, players=players, seed=seed, flat=flat, render_mode=render_mode)


def env(rules: Rules | str | None = None, players: int = 4, seed: int | None = None,
        flat: bool = False, render_mode: str | None = None) -> Any:
    """:func:`raw_env` wrapped as PettingZoo's classic games are: an illegal move ends the hand
    with reward -1 for the mover (TerminateIllegalWrapper), out-of-space actions assert,
    the API order is enforced."""
    from pettingzoo.utils import wrappers  # type: ignore[import-not-found, import-untyped, unused-ignore]

    e = raw_env(rules=rules, players=players, seed=seed, flat=flat, render_mode=render_mode)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
