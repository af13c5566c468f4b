"""The Gymnasium environments (when Gymnasium is installed): the vector env's contract (seeded
reset, the 5-tuple, spaces, masks, SAME_STEP autoreset with the final observation) against the
Python reference, and the single-seat env through Gymnasium's own checker."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env

from mjfast import Rules
from mjfast.table import OBSERVATION_KEYS, TableBatch
from mjfast.table.envs import ENV_ID, vector_env


@pytest.mark.filterwarnings("ignore:.*Casting input x")
def test_vector_env_contract_and_final_observations():
    c, py = vector_env(6, seed=2), vector_env(6, seed=2, engine="python")
    assert c.num_envs == 6 and c.single_action_space == gymnasium.spaces.Discrete(140)
    assert c.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    oc, info = c.reset(seed=7)
    op, _ = py.reset(seed=7)
    assert info == {} and c.observation_space.contains(oc)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        a = np.array([rng.choice(np.flatnonzero(m)) for m in oc["action_mask"]])
        oc, rc, tc, trc, ic = c.step(a)
        op, rp, tp, _, ip = py.step(a)
        assert rc.dtype == np.float64 and not trc.any()
        assert np.array_equal(rc, rp) and np.array_equal(tc, tp)
        assert np.array_equal(rc, ic["rewards"][np.arange(6), ic["seat"]])
        for k in (*OBSERVATION_KEYS, "action_mask"):
            assert np.array_equal(oc[k], op[k]), k
        if tc.any():
            ended += int(tc.sum())
            assert np.array_equal(ic["_final_obs"], tc)
            rows = np.flatnonzero(tc)
            assert (ic["final_obs"]["phase"][rows] == 4).all()
            for k in OBSERVATION_KEYS:
                assert np.array_equal(ic["final_obs"][k][rows], ip["final_obs"][k][rows]), k
            one = {k: v[rows[0]] for k, v in ic["final_obs"].items()}
            assert c.single_observation_space.contains(one)
        else:
            assert "final_obs" not in ic
    assert ended > 0
    again, _ = c.reset(seed=7)
    assert np.array_equal(again["hand"], TableBatch(6, seed=7).reset()[0]["hand"])


def test_vector_env_steps_without_copies():
    e = vector_env(4, seed=1)
    obs, _ = e.reset()
    hand = obs["hand"]
    obs, *_ = e.step(obs["action_mask"].argmax(axis=1))
    assert obs["hand"] is hand  # the engine's buffer, rewritten in place


@pytest.mark.filterwarnings("ignore:.*render fps")
def test_single_seat_env_passes_gymnasiums_checker():
    import mjfast.table.envs  # noqa: F401  (registers the id)

    for opponents in ("efficient", ["random", "efficient", "forecast"]):  # C, then Python
        env = gymnasium.make(ENV_ID, opponents=opponents)
        check_env(env.unwrapped)
        obs, _ = env.reset(seed=4)
        first = obs["hand"].copy()
        assert np.array_equal(env.reset(seed=4)[0]["hand"], first)
        total, done = 0.0, False
        while not done:
            assert obs["action_mask"].sum() > 1 and env.observation_space.contains(obs)
            obs, reward, done, truncated, info = env.step(
                int(np.flatnonzero(obs["action_mask"])[0]))
            total += reward
        assert total == obs["scores"][0] and not truncated and obs["action_mask"].sum() == 0
        _, reward, done, _, info = env.step(0)  # past the end: illegal
        assert done and info == {"illegal": True} and reward == -1.0


@pytest.mark.parametrize(("players", "seat"), [(4, 1), (5, 2), (6, 5)])
def test_single_seat_env_plays_alike_in_c_and_python(players, seat):
    """All-C opponents play in the compiled engine: the same hands as on a Table when the
    Python path is forced by a callable that plays as efficient does (the short hands of 5
    and 6 seats too)."""
    from mjfast.table import efficient_player
    from mjfast.table.seat import SeatGame

    c = SeatGame(["efficient"] * (players - 1), players, seat, Rules())
    py = SeatGame([efficient_player] * (players - 1), players, seat, Rules())
    assert c.codes == [1] * (players - 1) and py.codes is None
    for seed in range(3):
        rng = np.random.default_rng(0)
        (oc, pc), (op, pp) = c.deal(seed, rng), py.deal(seed, rng)
        while True:
            assert np.array_equal(oc["hand"], op["hand"]) and pc == pp
            assert np.array_equal(oc["mask"], op["mask"]) and c.over == py.over
            if c.over:
                break
            a = int(np.flatnonzero(oc["mask"])[-1])
            (oc, pc), (op, pp) = c.act(a), py.act(a)


def test_single_seat_env_renders_the_seats_view():
    text = gymnasium.make(ENV_ID, opponents="efficient", render_mode="ansi")
    text.reset(seed=1)
    assert text.render().startswith("seat 0: wall 55, phase void, hand ")
