"""The compiled engine (src/mjfast_table.h) against the Python reference (mjfast.table): the same
walls played by ``efficient`` players give the same hands, a batch steps to the same states, and
every action of a C ``random`` hand is legal when replayed on the reference.

``MJFAST_TABLE_HANDS`` scales the number of hands (default 120).
"""

from __future__ import annotations

import hashlib
import os

import numpy as np
import pytest

from mjfast import Round, Rules
from mjfast.errors import InvalidArgumentError
from mjfast.table import IllegalActionError, TableBatch, selfplay
from mjfast.table.cengine import deal_wall

HANDS = int(os.environ.get("MJFAST_TABLE_HANDS", "120"))
FIELDS = ("won", "order", "fan", "net", "hua_zhu", "cha_da_jiao", "turns", "drawn", "tian_hu",
          "yi_pao_duo_xiang")
SETUPS = [  # (rules, seats)
    ("chengdu", ("efficient",) * 4),
    (Rules(guo_shui_bu_hu=True, zui_hou_bi_hu=True, jia_jia_you=True), ("efficient",) * 4),
    ("qq", ("efficient",) * 3),
    (Rules(hu_jiao_zhuan_yi=False, kong_refund=False, self_draw="add_fan", cap=5, si_jiao=True),
     ("efficient",) * 2),
]


def test_deal_wall_is_a_seeded_permutation():
    w = deal_wall(3, 7)
    assert w.dtype == np.uint8 and np.bincount(w, minlength=27).tolist() == [4] * 27
    assert np.array_equal(w, deal_wall(3, 7)) and not np.array_equal(w, deal_wall(3, 8))


@pytest.mark.parametrize("setup", range(len(SETUPS)))
def test_c_and_python_engines_play_the_same_hands(setup):
    rules, seats = SETUPS[setup]
    n = max(4, HANDS // len(SETUPS))
    c = selfplay(n, seats, rules=rules, seed=setup, workers=2)
    py = selfplay(n, seats, rules=rules, seed=setup, engine="python")
    for name in FIELDS:
        assert np.array_equal(getattr(c, name), getattr(py, name)), name


PINNED = [  # (rules, seats, hands, sha256 prefix of the results of hands 0..hands-1 of seed 5)
    ("chengdu", ("efficient",) * 4, 400, "bfdd7469155b7b31"),
    (Rules(guo_shui_bu_hu=True, zui_hou_bi_hu=True, jia_jia_you=True), ("efficient",) * 4, 300,
     "143f40b851faa50e"),
    ("qq", ("efficient",) * 3, 300, "557b38204c7c7a4b"),
    ("chengdu", ("efficient", "random", "efficient", "random"), 400, "84761724da187c64"),
]


@pytest.mark.parametrize("setup", range(len(PINNED)))
def test_c_selfplay_results_are_pinned(setup):
    """The results the C players gave before their evaluation was rewritten for speed (the
    decisions must not change; the Python comparison above plays fewer hands)."""
    rules, seats, n, want = PINNED[setup]
    r = selfplay(n, seats, rules=rules, seed=5)
    h = hashlib.sha256()
    for name, dtype in (("order", "<i1"), ("fan", "<i2"), ("net", "<i8"), ("turns", "<i4"),
                        ("hua_zhu", "?"), ("cha_da_jiao", "?"), ("drawn", "?")):
        h.update(np.ascontiguousarray(getattr(r, name), dtype=dtype).tobytes())
    assert h.hexdigest()[:16] == want


@pytest.mark.parametrize(("seats", "rules"), [
    (("random",) * 4, "chengdu"),
    (("random", "efficient", "random"), Rules(si_jiao=True, guo_shui_bu_hu=True)),
    (("random", "random"), Rules(zui_hou_bi_hu=True, jia_jia_you=True, cha_da_jiao="min")),
])
def test_c_random_hands_replay_on_the_reference(seats, rules):
    r = selfplay(max(4, HANDS // 4), seats, rules=rules, seed=11, logs=True)
    assert (r.net.sum(axis=1) == 0).all() and r.logs is not None
    for i, log in enumerate(r.logs):  # each replayed action was legal in mjfast.table.Table
        assert Round.from_json(log).net.tolist() == r.net[i].tolist()


@pytest.mark.parametrize("players", [4, 3, 2])
def test_c_batch_steps_like_the_python_batch(players):
    rules = Rules(guo_shui_bu_hu=True, zui_hou_bi_hu=True)
    c = TableBatch(6, players, rules=rules, seed=4)
    py = TableBatch(6, players, rules=rules, seed=4, engine="python")
    (oc, mc), (op, mp) = c.reset(), py.reset()
    rng = np.random.default_rng(players)
    done = 0
    for _ in range(300):
        assert np.array_equal(mc, mp)
        for key in op:
            assert oc[key].dtype == op[key].dtype and np.array_equal(oc[key], op[key]), key
        actions = (rng.random(mc.shape) * mc).argmax(axis=1)
        oc, mc, rc, dc = c.step(actions)
        op, mp, rp, dp = py.step(actions)
        assert np.array_equal(rc, rp) and np.array_equal(dc, dp)
        done += int(dc.sum())
    assert done > 0


def test_c_batch_refuses_an_illegal_row_before_moving():
    b = TableBatch(3, seed=0)
    obs, mask = b.reset()
    obs = {k: v.copy() for k, v in obs.items()}  # the C batch reuses its arrays
    actions = mask.argmax(axis=1)
    actions[2] = 0 if not mask[2, 0] else 136
    with pytest.raises(IllegalActionError, match=r"actions\[2\]"):
        b.step(actions)
    after, _ = b._views()
    assert all(np.array_equal(obs[k], after[k]) for k in obs)
    with pytest.raises(IllegalActionError, match=r"actions\[0\]: 999"):
        b.step(np.array([999, 0, 0]))


@pytest.mark.parametrize("n", [2**31, 2**63, -1, 0])
def test_batch_size_beyond_the_engine_is_refused_by_name(n):
    """Issue 23, item 8: TableBatch(2**31) raised OverflowError from the C engine's int."""
    with pytest.raises(InvalidArgumentError, match=r"^n: expected an int from 1 to 2147483647"):
        TableBatch(n)


@pytest.mark.parametrize("engine", ["c", "python"])
def test_random_actions_are_legal(engine):
    b = TableBatch(8, 3, seed=2, engine=engine)
    _, mask = b.reset()
    for _ in range(200):
        actions = b.random_actions()
        assert actions.shape == (8,) and mask[np.arange(8), actions].all()
        _, mask, _, _ = b.step(actions)
