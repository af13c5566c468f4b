"""The table in the shapes RL libraries expect (extra ``rl``: ``pip install "mjfast[rl]"``):
Gymnasium is imported when an environment is made, so this module imports without it.

* :func:`vector_env`: :class:`~mjfast.table.TableBatch` as a ``gymnasium.vector.VectorEnv``
  (self-play: each step takes one action per table, for the seat to act there).
* ``gymnasium.make("mjfast/XueZhan-v0", opponents="efficient")``: one seat against built-in
  players, registered when :mod:`mjfast.table.envs` is imported (or name the module in the
  id: ``gymnasium.make("mjfast.table.envs:mjfast/XueZhan-v0")``).
* :func:`observation_space` / :func:`render_text`: shared with the PettingZoo environment
  (:mod:`mjfast.table.aec`).

An observation is the seat's :func:`mjfast.table.observation` arrays plus ``action_mask``
(bool, 140: the legal actions).

>>> e = vector_env(8, seed=1)                              # doctest: +SKIP
>>> obs, info = e.reset(seed=1)                            # doctest: +SKIP
>>> obs["hand"].shape, obs["action_mask"].shape            # doctest: +SKIP
((8, 27), (8, 140))
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mjfast._args import as_choice, as_int, as_player, as_rules
from mjfast.rules import Rules
from mjfast.table.actions import NUM_ACTIONS
from mjfast.table.batch import TableBatch
from mjfast.table.engine import MAX_TABLE_PLAYERS, Table
from mjfast.table.players import Player
from mjfast.table.seat import SeatGame
from mjfast.table.state import MAX_DISCARDS, MELD_KINDS, PHASE_NAMES, PHASE_OVER
from mjfast.tiles import SUITS, format_hand, format_tile

__all__ = ["ENV_ID", "observation_space", "register", "render_text", "seat_text", "vector_env"]

ENV_ID = "mjfast/XueZhan-v0"
"""The Gymnasium id of the single-seat environment."""

_SCORE = 2**52  # bounds of the scores box: a hand moves less than 2**56 in total (Rules)
_RENDER_MODES = ["human", "ansi"]


def _spaces() -> Any:
    try:
        from gymnasium import spaces  # type: ignore[import-not-found, unused-ignore]
    except ImportError as exc:
        raise ImportError("mjfast's RL environments need Gymnasium: pip install 'mjfast[rl]'") \
            from exc
    return spaces


def observation_space(players: int = 4, mask_dtype: Any = np.bool_) -> Any:
    """The ``gymnasium.spaces.Dict`` of one seat's observation and its ``action_mask``
    (scalars have shape ())."""
    spaces = _spaces()
    n = players

    def box(low: int, high: int, shape: tuple[int, ...], dtype: Any) -> Any:
        return spaces.Box(low=low, high=high, shape=shape, dtype=dtype)

    return spaces.Dict({
        "seat": box(0, n - 1, (), np.int64), "phase": box(0, PHASE_OVER, (), np.int64),
        "current": box(0, n - 1, (), np.int64), "dealer": box(0, n - 1, (), np.int64),
        "hand": box(0, 4, (27,), np.uint8), "drawn": box(-1, 26, (), np.int64),
        "tile": box(-1, 26, (), np.int64), "melds": box(-1, 26, (n, 4, 2), np.int8),
        "discards": box(-1, 26, (n, MAX_DISCARDS), np.int8),
        "discards_taken": box(0, 1, (n, MAX_DISCARDS), np.bool_),
        "void": box(-1, 2, (n,), np.int8), "wall": box(0, 108, (), np.int64),
        "out": box(0, 1, (n,), np.bool_), "scores": box(-_SCORE, _SCORE, (n,), np.int64),
        "action_mask": box(0, 1, (NUM_ACTIONS,), mask_dtype),
    })


def render_text(table: Table) -> str:
    """The whole table as text (every hand shown: for watching, not for the players).

    >>> print(render_text(Table(seed=1)).splitlines()[0])
    wall 55, phase void, player 0 to act
    """
    s = table.state
    lines = [f"wall {table.wall_left}, phase {PHASE_NAMES[s.phase]}, "
             + ("hand over" if table.is_over else f"player {table.current_player} to act")]
    for p in range(s.n):
        melds = " ".join(str(m) for m in s.meld_list(p))
        river = " ".join(format_tile(int(k)) for k in s.river[p, :s.river_len[p]])
        void = SUITS[int(s.void[p])] if s.void[p] >= 0 else "-"
        lines.append(f"P{p}{'*' if p == s.dealer else ' '} void {void} "
                     f"{format_hand(s.hands[p]) or '-':<16} {melds:<12} "
                     f"{int(s.scores[p]):+d}{' won' if s.won[p] else ''} | {river}")
    return "\n".join(lines)


def vector_env(num_envs: int, players: int = 4, *, rules: Rules | str | None = None,
               seed: int = 0, engine: str = "c") -> Any:
    """``num_envs`` tables as a ``gymnasium.vector.VectorEnv`` (see :class:`XueZhanVectorEnv`
    below, made on first use)."""
    return _vector_class()(num_envs, players, rules=rules, seed=seed, engine=engine)


@functools.cache
def _vector_class() -> type:
    _spaces()
    from gymnasium.vector import AutoresetMode, VectorEnv  # type: ignore[import-not-found, unused-ignore]
    from gymnasium.vector.utils import batch_space  # type: ignore[import-not-found, unused-ignore]

    class XueZhanVectorEnv(VectorEnv):  # type: ignore[misc, unused-ignore]
        """Self-play over a :class:`~mjfast.table.TableBatch` (the C engine by default).

        ``step(actions)`` takes (num_envs,) actions, one per table for its seat to act, and
        returns the observations of the seats to act next; ``rewards`` (float64) is what the
        acting seat was paid in the step, ``infos["rewards"]`` the (num_envs, players) int64
        payments of every seat and ``infos["seat"]`` the acting seats (a win on a discard is
        paid in the winner's step: the discarder's share is only in ``infos["rewards"]``).
        ``terminations``: the hand ended; truncations never. Autoreset ``SAME_STEP``: an
        ended table is dealt its next hand in the same step, the last observation of the
        acting seat in ``infos["final_obs"]`` (rows flagged by ``infos["_final_obs"]``).
        ``reset(seed=s)`` deals hand 0, 1, ... of ``s`` (the walls ``selfplay`` deals).

        No copies: observations, masks and final observations are the same arrays every
        step (views of the engine's buffers); copy what you keep.
        """

        metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

        def __init__(self, num_envs: int, players: int = 4, *,
                     rules: Rules | str | None = None, seed: int = 0, engine: str = "c"):
            self.num_envs = as_int(num_envs, "num_envs", minimum=1)
            self._batch = TableBatch(num_envs, players, rules=rules, seed=seed, engine=engine,
                                     keep_final=True)
            n = as_int(players, "players", minimum=2, maximum=MAX_TABLE_PLAYERS)
            self.single_observation_space = observation_space(n)
            self.single_action_space = _spaces().Discrete(NUM_ACTIONS)
            self.observation_space = batch_space(self.single_observation_space, self.num_envs)
            self.action_space = batch_space(self.single_action_space, self.num_envs)
            self._rows = np.arange(self.num_envs)
            self._truncations = np.zeros(self.num_envs, np.bool_)
            final = self._batch.final_obs
            assert final is not None
            self._final = dict(final, action_mask=np.zeros((self.num_envs, NUM_ACTIONS), bool))

        def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
                  ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
            del options
            obs, mask = self._batch.reset(seed)
            return dict(obs, action_mask=mask), {}

        def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                              np.ndarray, dict[str, Any]]:
            seats = self._batch.current_player.astype(np.int64)
            obs, mask, paid, done = self._batch.step(np.asarray(actions, dtype=np.int64))
            infos: dict[str, Any] = {"seat": seats, "rewards": paid}
            if done.any():
                infos["final_obs"], infos["_final_obs"] = self._final, done
            rewards = paid[self._rows, seats].astype(np.float64)
            return dict(obs, action_mask=mask), rewards, done, self._truncations, infos

    return XueZhanVectorEnv


@functools.cache
def _single_class() -> type:
    _spaces()
    import gymnasium  # type: ignore[import-not-found, unused-ignore]

    class XueZhanEnv(gymnasium.Env):  # type: ignore[misc, unused-ignore]
        """One seat of a 血战 hand against built-in players (``opponents``: one name or
        callable for every other seat, or one per other seat); an episode is one hand, played
        in C when every opponent is ``efficient`` or ``random`` (else on a Python
        :class:`~mjfast.table.Table`, :mod:`mjfast.table.seat`).

        The agent's decisions with a single legal action are taken for it. ``reward``: what
        the seat was paid from its action to its next decision (or the end of the hand). An
        illegal action ends the episode (terminated) with reward ``illegal_reward`` and
        ``info["illegal"]`` True, as PettingZoo's classic games do. ``reset(seed=)`` seeds
        the deal and the opponents' generator. ``render()``: the seat's view as text.
        """

        metadata = {"render_modes": _RENDER_MODES, "render_fps": 1}

        def __init__(self, opponents: str | Player | Sequence[str | Player] = "efficient",
                     players: int = 4, seat: int = 0, rules: Rules | str | None = None,
                     render_mode: str | None = None, illegal_reward: float = -1.0):
            n = as_int(players, "players", minimum=2, maximum=MAX_TABLE_PLAYERS)
            self.illegal_reward = float(illegal_reward)
            others = [opponents] * (n - 1) if isinstance(opponents, str) or callable(opponents) \
                else list(opponents)
            self.game = SeatGame(others, n, as_player(seat, "seat", n), as_rules(rules))
            self.render_mode = None if render_mode is None else \
                as_choice(render_mode, "render_mode", tuple(_RENDER_MODES))
            self.observation_space = observation_space(n, np.int8)
            self.action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
            self._raw: dict[str, Any] = {}

        def _obs(self, raw: dict[str, Any]) -> dict[str, Any]:
            self._raw = raw
            obs = {k: np.asarray(raw[k], np.int64) if np.ndim(raw[k]) == 0 else np.array(raw[k])
                   for k in raw if k != "mask"}
            obs["action_mask"] = raw["mask"].astype(np.int8)
            return obs

        def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
                  ) -> tuple[dict[str, Any], dict[str, Any]]:
            super().reset(seed=seed)
            del options
            raw, _ = self.game.deal(int(self.np_random.integers(2**63)), self.np_random)
            return self._obs(raw), {}

        def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
            a = int(action)
            if self.game.over or not 0 <= a < NUM_ACTIONS or not self._raw["mask"][a]:
                return self._obs(self._raw), self.illegal_reward, True, False, {"illegal": True}
            raw, paid = self.game.act(a)
            return self._obs(raw), float(paid), self.game.over, False, {}

        def action_masks(self) -> np.ndarray:
            """(140,) bool: the legal actions now (sb3-contrib's ActionMasker reads this)."""
            return np.asarray(self._raw["mask"], np.bool_)

        def raw_observation(self) -> dict[str, Any]:
            """The seat's observation as :func:`mjfast.table.observation` gives it (``mask``
            added): what the built-in players take."""
            return self._raw

        def render(self) -> str | None:
            text = seat_text(self._raw)
            if self.render_mode == "human":
                print(text)
                return None
            return text

    return XueZhanEnv


def seat_text(obs: Mapping[str, Any]) -> str:
    """One seat's observation as text (its own tiles, everyone's melds, discards and scores).

    >>> print(seat_text(Table(seed=1).observation(0)).splitlines()[0])
    seat 0: wall 55, phase void, hand 22356m1336778p55s
    """
    seat = int(obs["seat"])
    lines = [f"seat {seat}: wall {int(obs['wall'])}, phase {PHASE_NAMES[int(obs['phase'])]}, "
             f"hand {format_hand(obs['hand']) or '-'}"]
    for q in range(len(obs["void"])):
        melds = " ".join(f"{MELD_KINDS[int(t)]}:{format_tile(int(k)) if k >= 0 else '?'}"
                         for k, t in obs["melds"][q] if t >= 0)
        river = " ".join(format_tile(int(k)) for k in obs["discards"][q] if k >= 0)
        void = SUITS[int(obs["void"][q])] if obs["void"][q] >= 0 else "-"
        lines.append(f"P{q} void {void} {int(obs['scores'][q]):+d}"
                     f"{' won' if obs['out'][q] else ''} {melds} | {river}")
    return "\n".join(lines)


def make_single(**kwargs: Any) -> Any:
    """The single-seat environment (``gymnasium.make(ENV_ID, ...)``'s entry point)."""
    return _single_class()(**kwargs)


def register() -> None:
    """Register :data:`ENV_ID` with Gymnasium (once)."""
    import gymnasium  # type: ignore[import-not-found, unused-ignore]

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(ENV_ID, entry_point="mjfast.table.envs:make_single")


try:
    register()
except ImportError:  # Gymnasium is optional: gymnasium.make then cannot find the id
    pass
