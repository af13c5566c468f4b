"""The PettingZoo AEC environment passes PettingZoo's own API and seed tests (when PettingZoo is
installed), structured and flat, and renders as text."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from mjfast.table.aec import env, raw_env


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize(("players", "flat"), [(4, False), (2, False), (4, True)])
def test_pettingzoo_api(players, flat):
    api_test(env(players=players, seed=1, flat=flat), num_cycles=200)


@pytest.mark.parametrize("flat", [False, True])
def test_pettingzoo_seed(flat):
    seed_test(lambda: env(seed=1, flat=flat), num_cycles=300)


def test_an_episode_pays_what_the_table_pays():
    e = env(seed=5)
    e.reset(seed=5)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(e.possible_agents, 0)
    for agent in e.agent_iter():
        _, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        mask = e.observe(agent)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
    assert list(total.values()) == e.unwrapped.table.scores.tolist() and sum(total.values()) == 0


def test_flat_observation_and_text_render(capsys):
    e = raw_env(seed=2, flat=True, render_mode="ansi")
    e.reset(seed=2)
    obs = e.observe("player_0")
    space = e.observation_space("player_0")
    assert obs["observation"].shape == space["observation"].shape == (462,)
    assert space.contains(obs)
    assert e.render().splitlines()[0] == "wall 55, phase void, player 0 to act"
    h = raw_env(seed=2, render_mode="human")
    h.reset(seed=2)
    h.step(int(np.flatnonzero(h.observe("player_0")["action_mask"])[0]))
    assert "player 1 to act" in capsys.readouterr().out
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")


def test_illegal_move_ends_the_hand_with_a_penalty():
    e = env(seed=3)
    e.reset(seed=3)
    e.step(0)  # a discard during the void declarations (PettingZoo logs a warning)
    assert all(e.terminations.values()) and e.rewards["player_0"] == -1
