"""The compiled engine (src/mjfast_table.h) against the Python reference (mjfast.table): the same
walls played by ``efficient`` players give the same hands, a batch steps to the same states, and
every action of a C ``random`` hand is legal when replayed on the reference.

``MJFAST_TABLE_HANDS`` scales the number of hands (default 120).
"""

from __future__ import annotations

import dataclasses
import hashlib
import os

import numpy as np
import pytest

from mjfast import Round, Rules
from mjfast.errors import InvalidArgumentError
from mjfast.table import IllegalActionError, TableBatch, cengine, selfplay
from mjfast.table.cengine import deal_wall

from .helpers import step_batches_alike

HANDS = int(os.environ.get("MJFAST_TABLE_HANDS", "120"))
FIELDS = ("won", "order", "fan", "net", "hua_zhu", "cha_da_jiao", "turns", "drawn", "tian_hu",
          "yi_pao_duo_xiang")
SETUPS = [  # (rules, seats)
    ("chengdu", ("efficient",) * 4),
    (Rules(guo_shui="fan", zui_hou_bi_hu=True, jia_jia_you=True), ("efficient",) * 4),
    ("qq", ("efficient",) * 3),
    (Rules(gang_shang_pao_kong="keep", kong_refund=False, self_draw="add_fan", cap=5, si_jiao=True),
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


# The rules of the pins as they were (即时加杠 came later; the decisions do not depend on it).
LATE_PAYS = Rules(added_kong_immediate=False)
PINNED = [  # (rules, seats, hands, sha256 prefix of the results of hands 0..hands-1 of seed 5)
    (LATE_PAYS, ("efficient",) * 4, 400, "bfdd7469155b7b31"),
    (LATE_PAYS.replace(guo_shui="fan", zui_hou_bi_hu=True, jia_jia_you=True),
     ("efficient",) * 4, 300, "143f40b851faa50e"),
    ("qq", ("efficient",) * 3, 300, "bd60c2d828dbda42"),  # qq: no 抢杠 fan
    (LATE_PAYS, ("efficient", "random", "efficient", "random"), 400, "d1040e1f1a080ff6"),
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
    (("random", "efficient", "random"), Rules(si_jiao=True, guo_shui="fan")),
    (("random", "random"), Rules(zui_hou_bi_hu=True, jia_jia_you=True, cha_da_jiao="min")),
])
def test_c_random_hands_replay_on_the_reference(seats, rules):
    r = selfplay(max(4, HANDS // 4), seats, rules=rules, seed=11, logs=True)
    assert (r.net.sum(axis=1) == 0).all() and r.logs is not None
    for i, log in enumerate(r.logs):  # each replayed action was legal in mjfast.table.Table
        assert Round.from_json(log).net.tolist() == r.net[i].tolist()


@pytest.mark.parametrize(("players", "rules"), [
    (4, Rules(guo_shui="fan", zui_hou_bi_hu=True)), (3, Rules.preset("points")),
    (2, Rules.preset("qq", shai_tai_yang=True, qiang_gang_transfer=True))])
def test_c_batch_steps_like_the_python_batch(players, rules):
    c = TableBatch(6, players, rules=rules, seed=4)
    py = TableBatch(6, players, rules=rules, seed=4, engine="python")
    assert step_batches_alike(c, py, players) > 0


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


def test_every_played_field_is_a_rules_field():
    fields = {f.name for f in dataclasses.fields(Rules)}
    assert cengine.PLAYED <= fields


def test_c_engine_refuses_a_rule_it_does_not_play(monkeypatch):
    """A field the compiled engine does not play is refused by name at any other value than its
    default (never played otherwise); the Python engine plays it."""
    monkeypatch.setattr(cengine, "PLAYED", cengine.PLAYED - {"shai_tai_yang"})
    cengine.engine_rules.cache_clear()
    try:
        rules = Rules(shai_tai_yang=True)
        with pytest.raises(InvalidArgumentError, match=r"Rules.shai_tai_yang=True: the compiled"):
            selfplay(1, rules=rules)
        with pytest.raises(InvalidArgumentError, match=r"Rules.shai_tai_yang"):
            TableBatch(2, rules=rules)
        assert selfplay(1, rules=Rules(), seed=3).n_hands == 1
        assert selfplay(1, rules=rules, engine="python").n_hands == 1
    finally:
        cengine.engine_rules.cache_clear()
