"""The two table engines play the same rules: for every preset and for random rule sets (every
field drawn, :mod:`tests.table.rule_sets`), ``selfplay(engine="c")`` and
``selfplay(engine="python")`` give the same results and the same event logs with ``efficient``
players at every table size (2-6 seats, the short hands of 5 and 6 among them), and every
compiled-engine log (also of ``random`` players, who kong, rob and pass far more) replays
through ``Round.from_json`` to the same net. A rule set the compiled engine does
not play must be refused by name (``InvalidArgumentError``), never played otherwise.

The CI default is small (about 20 s). The long run, which also prints how often each rule
fired (:mod:`tests.table.fired`; over all tables and at 5-6 seats alone) and asserts that every
rule did::

    MJFAST_DIFF_SCALE=20 python -m pytest tests/table/test_differential.py -s -q

``MJFAST_DIFF_SCALE`` multiplies the hands per rule set and per preset (default 1);
``MJFAST_DIFF_RULE_SETS`` sets the number of random rule sets (default 200).
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections import Counter

import numpy as np
import pytest

from mjfast import Round
from mjfast.errors import InvalidArgumentError
from mjfast.rules import PRESETS, Rules
from mjfast.table import selfplay
from mjfast.table.cengine import check_played

from .fired import count_flow, fired
from .rule_sets import FIELD_VALUES, SEATS, random_rules

SCALE = int(os.environ.get("MJFAST_DIFF_SCALE", "1"))
RULE_SETS = int(os.environ.get("MJFAST_DIFF_RULE_SETS", "200"))
CHUNKS = 4
FIELDS = ("won", "order", "fan", "net", "hua_zhu", "cha_da_jiao", "turns", "drawn", "tian_hu",
          "yi_pao_duo_xiang")
COUNTS: Counter[str] = Counter()
"""Hands in which each rule fired, over the whole module (printed by the last test)."""
SHORT: Counter[str] = Counter()
"""The same at the tables of 5 and 6 seats (the short hands)."""


def test_every_field_is_drawn():
    assert set(FIELD_VALUES) == {f.name for f in dataclasses.fields(Rules)}


def _compare(rules: Rules, seats: int, hands: int, seed: int) -> None:
    """Both engines on the same walls, then the C logs of efficient and random players replayed
    through the ledger."""
    counts: Counter[str] = Counter()
    _play_both(rules, seats, hands, seed, counts)
    COUNTS.update(counts)
    if seats >= 5:
        SHORT.update(counts)


def _play_both(rules: Rules, seats: int, hands: int, seed: int, counts: Counter[str]) -> None:
    try:
        check_played(rules)
    except InvalidArgumentError as exc:   # refused by name, before any hand is played
        name = str(exc).split("=")[0].removeprefix("Rules.")
        assert getattr(rules, name) != getattr(Rules(), name) or name in FIELD_VALUES
        with pytest.raises(InvalidArgumentError, match=f"Rules.{name}"):
            selfplay(1, ("efficient",) * seats, rules=rules, seed=seed)
        counts["refused"] += 1
        return
    c = selfplay(hands, ("efficient",) * seats, rules=rules, seed=seed, logs=True)
    with count_flow(counts):
        py = selfplay(hands, ("efficient",) * seats, rules=rules, seed=seed, logs=True,
                      engine="python")
    for name in FIELDS:
        assert np.array_equal(getattr(c, name), getattr(py, name)), (name, rules)
    assert c.logs == py.logs, rules
    with count_flow(counts):  # random players pass wins: 过水不胡 (the C logs replay in Python)
        rnd = selfplay(hands, ("random",) * seats, rules=rules, seed=seed, logs=True)
    for r in (c, rnd):
        assert r.logs is not None
        for i, log in enumerate(r.logs):
            assert Round.from_json(log).net.tolist() == r.net[i].tolist(), (i, rules)
            counts.update(fired(log))
    counts["hands"] += 2 * hands


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seats", SEATS)
def test_presets(preset, seats):
    _compare(Rules.preset(preset), seats, 12 * SCALE, seed=seats)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_rule_sets(chunk):
    for i in range(chunk, RULE_SETS, CHUNKS):
        r = random.Random(i)
        _compare(random_rules(r), r.choice(SEATS), 2 * SCALE, seed=i)


def test_report_rule_counts():
    """How often each rule fired (run with -s to see it); in the long run every rule fires."""
    print("\nhands in which each rule fired (all tables / at 5 and 6 seats):")
    for name, n in sorted(COUNTS.items()):
        print(f"  {name}: {n} / {SHORT[name]}")
    if SCALE >= 10:
        rules = ["added_kong_immediate", "cap", "cha_da_jiao=max", "cha_da_jiao=min",
                 "cha_hua_zhu", "dian_gang_hua", "gang_shang_hua", "gang_shang_pao",
                 "gang_shang_pao_kong=keep", "gang_shang_pao_kong=refund",
                 "gang_shang_pao_kong=transfer", "guo_shui", "hai_di", "hua_zhu_one_suit",
                 "jia_jia_you", "jin_gou_diao", "kong_refund", "men_qing", "model=doubling",
                 "model=points", "qia_xin_wu", "qiang_gang_hu", "qiang_gang_transfer",
                 "root_fan", "self_draw=add_base", "self_draw=add_fan", "shai_tai_yang",
                 "si_jiao", "yi_tiao_long", "zhong_zhang", "zi_mei_dui", "zui_hou_bi_hu",
                 "jue_zhang"]
        assert [r for r in rules if not COUNTS[r]] == []
