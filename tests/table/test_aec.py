"""The PettingZoo AEC wrapper passes PettingZoo's own API test (when PettingZoo is installed)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test

from mjfast.table.aec import env


@pytest.mark.filterwarnings("ignore:Observation")
@pytest.mark.parametrize("players", [4, 2])
def test_pettingzoo_api(players):
    api_test(env(players=players, seed=1), num_cycles=200)


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
    assert list(total.values()) == e.table.scores.tolist() and sum(total.values()) == 0
