"""绝张 (RULES.md section 7, the ``jue_zhang`` fan option): the scoring flag in every scorer (the
single-hand scorer, the batch kernel, the reference), the ledger, and its per-winner form."""

from __future__ import annotations

import numpy as np
import pytest

from mjfast import Round, Rules
from mjfast._ref import scoring as ref
from mjfast._ref.settlement import round_net
from mjfast.rules import Fan
from mjfast.scoring import fan, score

HAND = "123m456m789m55p777p"


@pytest.mark.parametrize("value", [0, 1, 2])
def test_jue_zhang_adds_its_fan(value):
    rules = Rules(jue_zhang=value)
    r = score(HAND, win_tile="7p", jue_zhang=True, rules=rules)
    assert r.raw_fan == value and ((Fan.JUE_ZHANG, value) in r.items) is (value > 0)
    assert r.items == ref.score(HAND, win_tile="7p", jue_zhang=True, rules=rules).items
    assert score(HAND, win_tile="7p", rules=rules).raw_fan == 0
    hands = np.array([np.bincount(np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 13, 13, 15, 15, 15]),
                                  minlength=27)] * 2, np.uint8)
    got = fan(hands, "7p", jue_zhang=np.array([True, False]), rules=rules.replace(cap=None))
    assert got.tolist() == [value, 0]


def test_jue_zhang_is_listed_last_and_stacks_with_the_others():
    r = score("123m456m789m456p66p", win_tile="5p", jue_zhang=True, self_drawn=True,
              rules=Rules(jue_zhang=1, qia_xin_wu=1, self_draw="add_fan", cap=None, hua_zhu=8))
    assert [f for f, _ in r.items] == [Fan.PING_HU, Fan.ZI_MO, Fan.QIA_XIN_WU, Fan.JUE_ZHANG]
    assert r.raw_fan == 3


def test_the_ledger_takes_jue_zhang_and_di_hu_per_winner():
    rules = Rules(jue_zhang=1, di_hu_on_discard=True)
    r = Round(rules, dealer=3)
    out = r.win([0, 1], "5p", from_player=2, di_hu=[True, False], jue_zhang=[False, True],
                hands=["123456789m34555p", "112233445566m55p"])
    assert [(x.receiver, x.fan) for x in out] == [(0, 5), (1, 3)]   # 地胡 5; 七对 2 + 绝张 1
    ev = r.events[-1]
    assert ev["di_hu"] == [True, False] and ev["jue_zhang"] == [False, True]
    assert Round.from_json(r.to_json()).net.tolist() == r.net.tolist() == round_net(r.to_json())


def test_di_hu_on_a_discard_needs_its_rule():
    with pytest.raises(ValueError, match="di_hu_on_discard"):
        Round().win(1, "5p", from_player=0, di_hu=True, hands="123456789m34555p")
    with pytest.raises(ValueError, match="non-dealer"):
        Round(Rules(di_hu_on_discard=True)).win([0, 1], "5p", from_player=2, di_hu=[True, False],
                                                hands=["123456789m34555p", "112233445566m55p"])
    with pytest.raises(ValueError, match="aligned"):
        Round().win([1, 2], "5p", from_player=0, jue_zhang=[True],
                    hands=["123456789m34555p", "112233445566m55p"])
