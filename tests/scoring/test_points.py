"""The ``points`` preset (老成都, RULES.md section 7, seed 000 "四川麻将的玩法规则"): the additive
model, the page's worked examples, and the fast scorer against its twin and the batch kernel.

The page's examples, as it sums them (平胡 1分 ... 天胡 8分; each root or kong +1, 杠上花 +2, 抢杠
+1). Where the page's own tiles do not hold what its sum says (its "七对 + 2根" hand holds no
four of a kind; its "清一色 + 一根" hand 123条567条678条888条77条 holds two: four 7s and four 8s;
its "二根" hand has a 124条), the test uses the smallest correction that does, and says so.
"""

from __future__ import annotations

import numpy as np
import pytest

from mjfast import fan as batch_fan
from mjfast import max_fan as batch_max_fan
from mjfast._ref import scoring as ref
from mjfast.rules import Fan, Rules
from mjfast.scoring import max_fan, score

POINTS = Rules.preset("points")

# (what the page says, hand, melds, win tile, points, items)
PAGE = [
    ("平胡(1分) + 带一根(1分) = 2分", "123m345m222234p66p", None, "6p", 2,
     [(Fan.PING_HU, 1), (Fan.GEN, 1)]),          # the page's 222筒 holds no root: 222 + 234筒
    ("平胡(1分) + 一杠(1分) = 2分: 2222筒 123万 345万 999筒 66筒", "123m345m999p66p",
     ["kong:2p"], "6p", 2, [(Fan.PING_HU, 1), (Fan.GEN, 1)]),
    ("七对(3分) + 2根(2分) = 双龙七对(5分)", "11112299m444466p", None, "6p", 5,
     [(Fan.LONG_QI_DUI, 3), (Fan.GEN, 2)]),       # the page's pairs hold no four: 1111万, 4444筒
    ("大对子(2分) + 一杠(1分) = 3分: 2222筒 111万 444万 999筒 66筒", "111m444m999p66p",
     ["kong:2p"], "6p", 3, [(Fan.DUI_DUI_HU, 2), (Fan.GEN, 1)]),
    ("清一色(3分) + 一根(1分) = 4分", "123s567s678s888s99s", None, "9s", 4,
     [(Fan.QING_YI_SE, 3), (Fan.GEN, 1)]),        # 99条 for the page's 77条 (four 7s = a root)
    ("清一色(3分) + 二根(2分) = 5分: 123条 567条 678条 888条 77条", "123s567s678s888s77s", None,
     "7s", 5, [(Fan.QING_YI_SE, 3), (Fan.GEN, 2)]),
    ("清一色(3分) + 一杠(1分) = 4分: 8888条 123条 567条 234条 77条", "123s567s234s77s",
     ["kong:8s"], "7s", 4, [(Fan.QING_YI_SE, 3), (Fan.GEN, 1)]),
]


@pytest.mark.parametrize("page, hand, melds, win, points, items", PAGE,
                         ids=[p[0].split(" = ")[0] for p in PAGE])
def test_page_examples(page, hand, melds, win, points, items):
    r = score(hand, win_tile=win, melds=melds, rules="points")
    assert (r.fan, r.raw_fan, r.multiplier) == (points, points, points), page
    assert list(r.items) == items
    twin = ref.score(hand, win_tile=win, melds=melds, rules=POINTS)
    assert (twin.fan, twin.multiplier, list(twin.items)) == (points, points, items)
    if melds is None:   # the batch kernel agrees (its melds are arrays: see test_fan_batch)
        assert batch_fan([hand], [win], rules="points").tolist() == [points]


@pytest.mark.parametrize("hand, win, flags, points", [
    ("123456789m345p11p", "1p", {}, 1),                             # 平胡 1: pays 1 base
    ("11223344556677m", "7m", {}, 4),                               # 清七对 4 (no root)
    ("222555888m22255p", "5p", {}, 4),                              # 将对 4
    ("123m789m123p789p99m", "9m", {}, 3),                           # 幺九牌 3
    ("123456789m345p11p", "1p", {"self_drawn": True, "tian_hu": True}, 8),  # 天胡 8, not 平胡
    ("123456789m345p11p", "3p", {"robbing_kong": True}, 2),         # 平胡 1 + 抢杠 1
    ("123456789m345p11p", "1p", {"after_kong_discard": True}, 1),   # no 杠上炮 in points
    ("123456789m345p11p", "1p", {"self_drawn": True}, 1),           # no 自摸 bonus
])
def test_points_table(hand, win, flags, points):
    r = score(hand, win_tile=win, rules="points", **flags)
    assert r.fan == r.multiplier == points
    assert ref.score(hand, win_tile=win, rules=POINTS, **flags).multiplier == points


def test_never_doubled_no_cap():
    # 清对 4 + two roots (the kongs of 3m and 4m) + 杠上花 2 = 8: a doubling rule set would
    # pay 2 ** min(fan, cap); points pay the points themselves.
    r = score("1112225m5m", win_tile="5m", melds=["kong_concealed:3m", "kong_concealed:4m"],
              self_drawn=True, after_kong=True, rules="points")
    assert r.raw_fan == r.fan == r.multiplier
    assert r.multiplier == 4 + 2 + 2
    capped = Rules.preset("points", cap=5)
    assert score("1112225m5m", win_tile="5m", melds=["kong_concealed:3m", "kong_concealed:4m"],
                 self_drawn=True, after_kong=True, rules=capped).multiplier == 5
    assert POINTS.multiplier(40) == 40 and Rules().multiplier(40) == 8


def test_da_jiao_pays_the_least():
    """查叫 赔小: the minimum over the waits; the payment is the points."""
    m = max_fan("1112345678999m", rules="points")     # 清一色 3 on 2m-8m, +1 root on 1m/9m
    assert (m.fan, m.payment, m.best_wait) == (3, 3, 1)
    assert [w.fan for w in m.waits] == [4, 3, 3, 3, 3, 3, 3, 3, 4]
    assert ref.max_fan("1112345678999m", rules=POINTS).payment == 3
    hands = np.array([[3, 1, 1, 1, 1, 1, 1, 1, 3] + [0] * 18], dtype=np.uint8)
    assert batch_max_fan(hands, rules="points").tolist() == [3]
    big = Rules.preset("points", cha_da_jiao="max")
    assert max_fan("1112345678999m", rules=big).payment == 4


def test_points_names():
    assert Fan.DAI_YAO_JIU.points_zh == "幺九牌" and Fan.DAI_YAO_JIU.zh == "带幺九"
    assert Fan.QIANG_GANG_HU.points_zh == "抢杠" and Fan.GEN.points_zh == "根/杠"
    assert Fan.QING_YI_SE.points_zh == "清一色"
    assert POINTS.unit == "分" and Rules().unit == "番"


def test_points_preset_fields():
    p = POINTS
    assert (p.model, p.cap, p.self_draw, p.long_qi_dui_uses_root) == ("points", None, "none",
                                                                      False)
    assert (p.gang_shang_hua, p.gang_shang_pao, p.qiang_gang_hu, p.root_fan) == (2, 0, 1, 1)
    assert (p.exposed_kong, p.added_kong, p.concealed_kong) == (0, 0, 0)
    assert (p.cha_hua_zhu, p.cha_da_jiao, p.dian_gang_hua) == (False, "min", True)
    assert (p.guo_shui, p.zui_hou_bi_hu, p.di_hu_on_discard) == ("fan", True, True)
    assert {f.name: v for f, v in p.base_fan.items() if f not in (
        Fan.QING_YAO_JIU, Fan.JIN_GOU_DIAO, Fan.QING_JIN_GOU_DIAO, Fan.LONG_QI_DUI,
        Fan.QING_LONG_QI_DUI)} == {
        "PING_HU": 1, "DUI_DUI_HU": 2, "QING_YI_SE": 3, "QI_DUI": 3, "DAI_YAO_JIU": 3,
        "QING_DUI": 4, "JIANG_DUI": 4, "QING_QI_DUI": 4, "TIAN_HU": 8, "DI_HU": 8}
    # 龙七对 / 清龙七对 are 七对 / 清七对 plus their roots
    assert p.base_fan[Fan.LONG_QI_DUI] == p.base_fan[Fan.QI_DUI]
    assert p.base_fan[Fan.QING_LONG_QI_DUI] == p.base_fan[Fan.QING_QI_DUI]


def test_model_is_checked():
    with pytest.raises(ValueError, match="Rules.model must be 'doubling' or 'points'"):
        Rules(model="additive")  # type: ignore[arg-type]
    assert Rules(ca_gua=True).jia_jia_you and Rules().replace(da_xiao_yu=True).jia_jia_you
    with pytest.raises(ValueError, match="jia_jia_you given twice"):
        Rules(ca_gua=True, jia_jia_you=False)


def test_json_round_trip_of_the_new_fields():
    from mjfast.rules import rules_from_json, rules_to_json

    r = Rules.preset("points", shai_tai_yang=True, hua_zhu_one_suit=True, ca_gua=True, cap=7)
    doc = rules_to_json(r)
    assert doc == {"preset": "points", "overrides": {
        "cap": 7, "jia_jia_you": True, "hua_zhu_one_suit": True, "shai_tai_yang": True}}
    assert rules_from_json(doc) == r
    r = Rules(model="points", cha_hua_zhu=False, dian_gang_hua=True)
    assert rules_from_json(rules_to_json(r)) == r
