"""Known-answer and bad-input tests of mjfast.scoring: score, decompose, max_fan."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from mjfast.errors import InvalidArgumentError, InvalidHandError, TileParseError
from mjfast.rules import Fan, Rules
from mjfast.scoring import (
    SEQ,
    TRIPLET,
    Decomposition,
    FanResult,
    MaxFan,
    WaitFan,
    decompose,
    max_fan,
    score,
    suit_features,
)
from mjfast.tiles import Meld, parse_hand, parse_tile

QQ = Rules.preset("qq")


def items(r: FanResult) -> dict[str, int]:
    return {f.name: n for f, n in r.items}


# (hand, win tile, chengdu raw fan, base pattern, roots' fan)
EXAMPLES = [
    ("123333m45566799s", "1m", 1, "PING_HU", 1),
    ("11223345678999m", "1m", 2, "QING_YI_SE", 0),
    ("22244455577799m", "2m", 3, "QING_DUI", 0),
    ("222555888m55588p", "5p", 3, "JIANG_DUI", 0),
    ("11334466m557799p", "5p", 2, "QI_DUI", 0),
    ("11334466778899m", "8m", 4, "QING_QI_DUI", 0),
    ("11222244m557788p", "2m", 4, "LONG_QI_DUI", 0),  # root used up
    ("11224444557799m", "4m", 5, "QING_LONG_QI_DUI", 0),
    ("111222333m78999p", "9p", 2, "DAI_YAO_JIU", 0),  # only as 123m x 3
    ("11123777888999m", "1m", 4, "QING_YAO_JIU", 0),
    ("11112222m335577p", "3p", 5, "LONG_QI_DUI", 1),  # two fours: 4 + (2 - 1)
]


# ---------------------------------------------------------------------------- examples

@pytest.mark.parametrize("hand, win, raw, base, gen", EXAMPLES)
def test_examples_chengdu(hand, win, raw, base, gen):
    r = score(hand, win_tile=win)
    assert r.is_win
    assert r.raw_fan == raw
    assert r.fan == min(raw, 3)
    assert r.multiplier == 2 ** min(raw, 3)
    assert r.items[0] == (Fan[base], Rules().base_fan[Fan[base]])
    assert items(r).get("GEN", 0) == gen
    assert sum(n for _, n in r.items) == r.raw_fan
    assert str(r.decomposition).replace(" ", "") != ""


@pytest.mark.parametrize("hand, win, raw, base, gen", EXAMPLES)
def test_examples_qq(hand, win, raw, base, gen):
    r = score(hand, win_tile=win, rules=QQ)
    assert r.raw_fan == raw + 1 and r.fan == raw + 1  # shown one higher, no cap
    assert r.multiplier == 2 ** raw
    assert r.items[0] == (Fan[base], Rules().base_fan[Fan[base]] + 1)
    assert sum(n for _, n in r.items) == r.raw_fan
    # with chengdu's cap the amounts are the same
    capped = score(hand, win_tile=win, rules=Rules.preset("qq", cap=3))
    assert capped.multiplier == score(hand, win_tile=win).multiplier
    assert capped.fan == min(raw, 3) + 1


def test_dai_yao_jiu_reading_and_decomposition():
    r = score("111222333m78999p", win_tile="9p")
    assert str(r.decomposition) == "123m 123m 123m 789p 99p"
    assert r.decomposition == Decomposition(((SEQ, 0), (SEQ, 0), (SEQ, 0), (SEQ, 15)), 17)


def test_tie_goes_to_higher_base_pattern():
    # 清七对 4 + 根 1 == 清龙七对 5 + 0: the higher base pattern names it
    r = score("11224444557799m", win_tile="1m")
    assert r.items == ((Fan.QING_LONG_QI_DUI, 5),)
    assert r.decomposition.seven_pairs
    assert r.decomposition.pairs == (0, 1, 3, 3, 4, 6, 8)


def test_max_over_readings_prefers_seven_pairs_when_higher():
    # 112233m 445566p 77p: regular 平胡 (0) or 七对 (2)
    r = score("112233m44556677p", win_tile="7p")
    assert items(r) == {"QI_DUI": 2}
    r = score("112233m44556677p", win_tile="7p", rules=Rules(zi_mei_dui=3))
    assert items(r) == {"PING_HU": 0, "ZI_MEI_DUI": 3}  # 123m 123m 456p 456p 77p + 姊妹对


# ------------------------------------------------------------------------------- roots

def test_roots():
    assert items(score("123m456m789m11m", win_tile="1m", melds=["kong:5p"])) == {
        "PING_HU": 0, "GEN": 1}
    # a pung meld plus the 4th copy concealed is a root
    assert items(score("345m678m123p99p", win_tile="9p", melds=["pung:5m"])) == {
        "PING_HU": 0, "GEN": 1}
    # a concealed four used as 1111 -> 111 + 123 is a root
    assert items(score("111123m456p789p99p", win_tile="9p")) == {"PING_HU": 0, "GEN": 1}
    assert score("123333m45566799s", win_tile="1m", rules=Rules(root_fan=2)).raw_fan == 2
    assert score("123333m45566799s", win_tile="1m", rules=Rules(root_fan=0)).items == (
        (Fan.PING_HU, 0),)


def test_long_qi_dui_root_option():
    r = score("11222244m557788p", win_tile="2m", rules=Rules(long_qi_dui_uses_root=False))
    assert items(r) == {"LONG_QI_DUI": 4, "GEN": 1}
    r = score("11224444557799m", win_tile="1m", rules=Rules(long_qi_dui_uses_root=False))
    assert items(r) == {"QING_LONG_QI_DUI": 5, "GEN": 1}
    # a root worth 2: 清七对 4 + 2 beats 清龙七对 5 + 0
    r = score("11224444557799m", win_tile="1m", rules=Rules(root_fan=2))
    assert items(r) == {"QING_QI_DUI": 4, "GEN": 2}


# ------------------------------------------------------------------------- tian / di hu

@pytest.mark.parametrize("flag, fan", [("tian_hu", Fan.TIAN_HU), ("di_hu", Fan.DI_HU)])
def test_tian_di_replace_base_pattern(flag, fan):
    r = score("123333m45566799s", win_tile="1m", **{flag: True})
    assert r.items == ((fan, 5), (Fan.GEN, 1))
    assert (r.raw_fan, r.fan, r.multiplier) == (6, 3, 8)
    # replaces 清龙七对, whose root then counts again
    r = score("11224444557799m", win_tile="1m", **{flag: True}, rules=Rules(cap=None,
                                                                              hua_zhu=8))
    assert r.items == ((fan, 5), (Fan.GEN, 1)) and r.multiplier == 64
    # 天胡 implies the self-draw (自摸加番 applies); 地胡 only with self_drawn (without it, it
    # is the discard reading of rules.di_hu_on_discard)
    r = score("22244455577799m", win_tile="2m", **{flag: True}, rules=Rules(self_draw="add_fan"))
    assert items(r) == ({fan.name: 5, "ZI_MO": 1} if flag == "tian_hu" else {fan.name: 5})
    r = score("22244455577799m", win_tile="2m", **{flag: True}, self_drawn=True,
              rules=Rules(self_draw="add_fan"))
    assert items(r) == {fan.name: 5, "ZI_MO": 1}


# ------------------------------------------------------------------------ situational

def test_self_draw_modes():
    hand = "123m456m789m123p55p"
    assert score(hand, win_tile="5p", self_drawn=True).items == ((Fan.PING_HU, 0),)
    assert score(hand, win_tile="5p", self_drawn=True,
                 rules=Rules(self_draw="none")).items == ((Fan.PING_HU, 0),)
    r = score(hand, win_tile="5p", self_drawn=True, rules=Rules(self_draw="add_fan"))
    assert r.items == ((Fan.PING_HU, 0), (Fan.ZI_MO, 1))
    assert score(hand, win_tile="5p", rules=Rules(self_draw="add_fan")).raw_fan == 0


def test_gang_shang_hua():
    hand, melds = "123m456m789m55p", ["kong_concealed:1p"]
    r = score(hand, win_tile="5p", melds=melds, after_kong=True)
    assert items(r) == {"PING_HU": 0, "GEN": 1, "GANG_SHANG_HUA": 1}
    assert r == score(hand, win_tile="5p", melds=melds, after_kong=True, self_drawn=True)
    r = score(hand, win_tile="5p", melds=melds, after_kong=True,
              rules=Rules(self_draw="add_fan", gang_shang_hua=2))
    assert items(r) == {"PING_HU": 0, "GEN": 1, "GANG_SHANG_HUA": 2, "ZI_MO": 1}
    r = score(hand, win_tile="5p", melds=melds, after_kong=True, rules=Rules(gang_shang_hua=0))
    assert items(r) == {"PING_HU": 0, "GEN": 1}


def test_gang_shang_pao_and_qiang_gang():
    hand = "123m456m789m123p55p"
    assert items(score(hand, win_tile="5p", after_kong_discard=True)) == {
        "PING_HU": 0, "GANG_SHANG_PAO": 1}
    assert items(score(hand, win_tile="3p", robbing_kong=True)) == {
        "PING_HU": 0, "QIANG_GANG_HU": 1}
    assert items(score(hand, win_tile="3p", robbing_kong=True,
                       rules=Rules(qiang_gang_hu=0))) == {"PING_HU": 0}
    assert items(score(hand, win_tile="5p", after_kong_discard=True,
                       rules=Rules(gang_shang_pao=2))) == {"PING_HU": 0, "GANG_SHANG_PAO": 2}


def test_hai_di():
    hand = "123m456m789m123p55p"
    assert items(score(hand, win_tile="5p", last_tile=True)) == {"PING_HU": 0}
    for kw in ({}, {"self_drawn": True}, {"after_kong_discard": True}):
        r = score(hand, win_tile="5p", last_tile=True, rules=Rules(hai_di=1), **kw)
        assert items(r)["HAI_DI"] == 1


# ----------------------------------------------------------------------- shape options

@pytest.mark.parametrize("melds, ok", [
    (None, True),
    (["kong_concealed:1p"], True),
    (["pung:1p"], False),
    (["kong:1p"], False),
    (["kong_added:1p"], False),
    (["kong_concealed:1p", "pung:2p"], False),
])
def test_men_qing(melds, ok):
    n = len(melds or [])
    hand = {0: "123m456m789m123p55p", 1: "123m456m789m55p", 2: "123m456m55p"}[n]
    off = score(hand, win_tile="5p", melds=melds)
    on = score(hand, win_tile="5p", melds=melds, rules=Rules(men_qing=1))
    assert "MEN_QING" not in items(off)
    assert items(on).get("MEN_QING", 0) == (1 if ok else 0)
    assert on.raw_fan == off.raw_fan + (1 if ok else 0)


def test_zhong_zhang():
    r = Rules(zhong_zhang=1)
    assert items(score("234m345m678m345p55p", win_tile="5p", rules=r))["ZHONG_ZHANG"] == 1
    assert "ZHONG_ZHANG" not in items(score("234m345m789m345p55p", win_tile="5p", rules=r))
    assert "ZHONG_ZHANG" not in items(score("234m345m678m55p", win_tile="5p", melds=["pung:9p"],
                                            rules=r))
    assert "ZHONG_ZHANG" not in items(score("234m345m678m345p55p", win_tile="5p"))


def test_qia_xin_wu():
    r = Rules(qia_xin_wu=1)
    hand = "123m456m789m456p22p"
    assert items(score(hand, win_tile="5m", rules=r))["QIA_XIN_WU"] == 1
    assert items(score(hand, win_tile="5p", rules=r))["QIA_XIN_WU"] == 1
    assert "QIA_XIN_WU" not in items(score(hand, win_tile="4p", rules=r))
    assert "QIA_XIN_WU" not in items(score(hand, win_tile="5m"))
    # a 5 only in 345 / 567 or the pair is no 掐心五
    assert "QIA_XIN_WU" not in items(score("345m567m789m123p55p", win_tile="5m", rules=r))
    assert "QIA_XIN_WU" not in items(score("345m567m789m123p55p", win_tile="5p", rules=r))
    # some reading with 456: 44556m + 6 -> 456 456 or 44 + 55 66 ...
    assert items(score("445566m123p789p99p", win_tile="5m", rules=r))["QIA_XIN_WU"] == 1


def test_zi_mei_dui_and_yi_tiao_long():
    assert items(score("123m123m456p789p99p", win_tile="9p", rules=Rules(zi_mei_dui=1)))[
        "ZI_MEI_DUI"] == 1
    assert "ZI_MEI_DUI" not in items(score("123m234m456p789p99p", win_tile="9p",
                                           rules=Rules(zi_mei_dui=1)))
    r = score("123456789m22233p", win_tile="3p", rules=Rules(yi_tiao_long=2))
    assert items(r) == {"PING_HU": 0, "YI_TIAO_LONG": 2}
    assert "YI_TIAO_LONG" not in items(score("123456789m22233p", win_tile="3p"))
    assert "YI_TIAO_LONG" not in items(score("123456m789p22233p", win_tile="3p",
                                             rules=Rules(yi_tiao_long=2)))


def test_jin_gou_diao():
    melds = ["pung:1m", "pung:3m", "pung:4p", "pung:6p"]
    assert items(score("99p", win_tile="9p", melds=melds)) == {"DUI_DUI_HU": 1}
    on = Rules(jin_gou_diao=True)
    assert items(score("99p", win_tile="9p", melds=melds, rules=on)) == {"JIN_GOU_DIAO": 2}
    qing = ["pung:1m", "pung:3m", "kong:4m", "pung:6m"]
    assert items(score("99m", win_tile="9m", melds=qing)) == {"QING_DUI": 3, "GEN": 1}
    assert items(score("99m", win_tile="9m", melds=qing, rules=on)) == {
        "QING_JIN_GOU_DIAO": 4, "GEN": 1}
    # 将对 (3) beats 金钩钓 (2)
    jiang = ["pung:2m", "pung:5m", "pung:8m", "pung:5p"]
    assert items(score("88p", win_tile="8p", melds=jiang, rules=on)) == {"JIANG_DUI": 3}
    # needs four melds
    assert items(score("678m99p", win_tile="9p", melds=melds[:3], rules=on)) == {"PING_HU": 0}


def test_cap_and_base_fan_overrides():
    hand, w = "11224444557799m", "1m"
    assert score(hand, win_tile=w, rules=Rules(cap=5)).fan == 5
    assert score(hand, win_tile=w, rules=Rules(cap=5)).multiplier == 32
    assert score(hand, win_tile=w, rules=Rules(cap=0)).multiplier == 1
    r = score(hand, win_tile=w, rules=Rules(cap=None, hua_zhu=8))
    assert (r.fan, r.raw_fan, r.multiplier) == (5, 5, 32)
    r = score("11223345678999m", win_tile="1m", rules=Rules(base_fan={Fan.QING_YI_SE: 3}))
    assert r.items == ((Fan.QING_YI_SE, 3),)
    r = score("123m456m789m123p55p", win_tile="5p", rules=Rules(fan_display_offset=2))
    assert (r.fan, r.raw_fan, r.multiplier, r.items) == (2, 2, 1, ((Fan.PING_HU, 2),))


# --------------------------------------------------------------------- not winning

@pytest.mark.parametrize("hand, win, kw", [
    ("123m456m789m12345p", "1p", {}),                   # no reading
    ("123m456p789s11155m", "5m", {}),                   # three suits
    ("22244455577799m", "2m", {"void_suit": "m"}),     # declared void suit held
    ("22244455577799m", "2m", {"void_suit": 0}),
    ("123m456p789p99p", "9p", {"melds": ["pung:5s"]}),  # meld in a third suit
    ("123m456m789m99m", "9m", {"melds": ["pung:5p"], "void_suit": "p"}),  # void meld
    ("123m456m789m99m", "9m", {"melds": ["pung:5p"], "void_suit": "m"}),
    ("11223344556677m", "1m", {"void_suit": "m"}),
])
def test_not_a_win(hand, win, kw):
    r = score(hand, win_tile=win, **kw)
    assert r == FanResult(False, None, None, (), None, 0)
    assert str(r) == "not a win"


def test_void_suit_other_suit_still_wins():
    assert score("22244455577799m", win_tile="2m", void_suit="p").fan == 3
    assert score("22244455577799m", win_tile="2m", void_suit="条").fan == 3


# ----------------------------------------------------------------------- bad flags

@pytest.mark.parametrize("kw, melds", [
    ({"self_drawn": True, "robbing_kong": True}, None),
    ({"self_drawn": True, "after_kong_discard": True}, None),
    ({"after_kong": True, "robbing_kong": True}, ["kong:1p"]),
    ({"after_kong": True, "after_kong_discard": True}, ["kong:1p"]),
    ({"robbing_kong": True, "after_kong_discard": True}, None),
    ({"tian_hu": True, "di_hu": True}, None),
    ({"tian_hu": True, "last_tile": True}, None),
    ({"tian_hu": True, "robbing_kong": True}, None),
    ({"di_hu": True, "after_kong_discard": True}, None),
    ({"tian_hu": True}, ["pung:1p"]),
    ({"di_hu": True}, ["kong_concealed:1p"]),
    ({"after_kong": True}, None),                       # no kong
    ({"after_kong": True}, ["pung:1p"]),
])
def test_contradictory_flags(kw, melds):
    hand = "123m456m789m123p55p" if melds is None else "123m456m789m55p"
    with pytest.raises(ValueError, match="contradictory"):
        score(hand, win_tile="3m", melds=melds, **kw)


def test_robbing_kong_needs_single_copy():
    with pytest.raises(ValueError, match="robbing_kong"):
        score("123m456m789m123p55p", win_tile="5p", robbing_kong=True)
    with pytest.raises(ValueError, match="robbing_kong"):
        score("123m456m345p11p", win_tile="5p", melds=["pung:5p"], robbing_kong=True)


@pytest.mark.parametrize("flag", ["self_drawn", "after_kong", "after_kong_discard",
                                  "robbing_kong", "last_tile", "tian_hu", "di_hu"])
def test_flags_must_be_bool(flag):
    with pytest.raises(TypeError, match=flag):
        score("123m456m789m123p55p", win_tile="3m", **{flag: 1})
    score("123m456m789m123p55p", win_tile="3m", **{flag: np.bool_(False)})


# -------------------------------------------------------------------------- inputs

def test_input_forms_agree():
    s = "22244455577799m"
    expect = score(s, win_tile="9m")
    c = parse_hand(s)
    for hand in (c, c.astype(np.int64), c.tolist(), tuple(c.tolist()), "222444555777万99万",
                 [np.uint8(x) for x in c]):
        for w in ("9m", "9万", 8, np.int64(8)):
            assert score(hand, win_tile=w) == expect


def test_meld_forms_agree():
    expect = score("123m456m99m", win_tile="9m", melds=["pung:5p", "kong_concealed:7p"])
    assert expect.is_win
    for melds in ("pung:5p, kong_concealed:7p", [Meld("pung", 13), "kong_concealed:7p"],
                  (Meld.parse("pung:5p"), Meld.parse("暗杠:7筒"))):
        assert score("123m456m99m", win_tile="9m", melds=melds) == expect
    assert str(expect.decomposition) == "123m 456m 99m [pung:5p] [kong_concealed:7p]"


@pytest.mark.parametrize("hand, kw, exc", [
    ("22244455577799m", {"win_tile": "1m"}, ValueError),         # win tile not in hand
    ("2224445557779m", {"win_tile": "9m"}, InvalidHandError),    # 13 tiles
    ("222444555777999m", {"win_tile": "9m"}, InvalidHandError),  # 15 tiles
    ("22244455577799m", {"win_tile": "9m", "melds": ["pung:1p"]}, InvalidHandError),
    ("123m456m789m55p", {"win_tile": "5p", "melds": ["pung:5p"]}, InvalidHandError),  # 5 copies
    ("123m456m99m", {"win_tile": "9m", "melds": ["pung:5p", "kong:5p"]}, InvalidHandError),
    ("22244455577799m", {"win_tile": 27}, ValueError),
    ("22244455577799m", {"win_tile": True}, TypeError),
    ("22244455577799m", {"win_tile": 2.0}, TypeError),
    ("22244455577799m", {"win_tile": "9z"}, TileParseError),
    ("22244455577799m", {"win_tile": "9m", "void_suit": 3}, ValueError),
    ("22244455577799m", {"win_tile": "9m", "void_suit": "z"}, ValueError),
    ("22244455577799m", {"win_tile": "9m", "void_suit": True}, TypeError),
    ("22244455577799m", {"win_tile": "9m", "rules": "shanghai"}, InvalidArgumentError),
    ("22244455577799z", {"win_tile": "9m"}, TileParseError),
    ([0] * 26, {"win_tile": 0}, InvalidHandError),
    ([5] + [0] * 26, {"win_tile": 0}, InvalidHandError),
    ([-1] + [0] * 26, {"win_tile": 0}, InvalidHandError),
    ([1.0] + [0] * 26, {"win_tile": 0}, InvalidArgumentError),
    (np.zeros((2, 27), np.uint8), {"win_tile": 0}, InvalidHandError),
    (np.zeros(27, np.float64), {"win_tile": 0}, InvalidArgumentError),
    (np.full(27, 260, np.int64), {"win_tile": 0}, InvalidHandError),
    (42, {"win_tile": 0}, TypeError),
    (b"123m", {"win_tile": 0}, TypeError),
])
def test_bad_inputs(hand, kw, exc):
    with pytest.raises(exc):
        score(hand, **kw)


def test_five_melds_rejected():
    with pytest.raises(InvalidHandError, match="max 4"):
        score("", win_tile=0, melds=["pung:1m", "pung:2m", "pung:3m", "pung:4m", "pung:5m"])


def test_result_types_frozen():
    r = score("22244455577799m", win_tile="9m")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.fan = 1  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.decomposition.pair = 1  # type: ignore[misc, union-attr]
    assert str(r) == "3番 (x8): 清对 3 | 222m 444m 555m 777m 99m"
    assert "清龙七对 5" in str(score("11224444557799m", win_tile="1m"))


# ------------------------------------------------------------------------- decompose

def test_decompose_readings():
    assert [str(d) for d in decompose("111222333m78999p")] == [
        "111m 222m 333m 789p 99p", "123m 123m 123m 789p 99p"]
    ds = decompose("11223344556677m")
    assert [str(d) for d in ds] == [
        "123m 123m 456m 456m 77m", "123m 123m 567m 567m 44m", "234m 234m 567m 567m 11m",
        "11m 22m 33m 44m 55m 66m 77m"]
    assert ds[-1].seven_pairs and ds[-1].pair is None and ds[-1].sets == ()
    assert ds == sorted(ds, key=Decomposition.sort_key)
    assert ds[0].sets == ((SEQ, 0), (SEQ, 0), (SEQ, 3), (SEQ, 3)) and ds[0].pair == 6


def test_decompose_is_structural():
    # three suits: not a win, but it has a reading
    assert [str(d) for d in decompose("123m456p789s11155m")] == ["111m 123m 456p 789s 55m"]
    assert decompose("123m456p789s11155m")[0].sets[0] == (TRIPLET, 0)


def test_decompose_melds_and_sizes():
    ds = decompose("234m11m", melds=["pung:5p", "kong_concealed:9m", "pung:7s"])
    assert [str(d) for d in ds] == ["234m 11m [pung:5p] [kong_concealed:9m] [pung:7s]"]
    assert ds[0].melds == (Meld("pung", 13), Meld("kong_concealed", 8), Meld("pung", 24))
    assert decompose("2224445557779m") == []                   # 13 tiles: no reading
    assert decompose("123m456m789m1234p") == []                # 14, not complete
    assert [str(d) for d in decompose("11m", melds=["pung:1p", "pung:2p", "pung:3p",
                                                    "pung:4p"])] == [
        "11m [pung:1p] [pung:2p] [pung:3p] [pung:4p]"]
    with pytest.raises(InvalidHandError):
        decompose("123m456m789m123p")                          # 12 tiles
    # seven pairs needs no melds
    assert all(not d.seven_pairs for d in decompose("11223344m55p", melds=["pung:9p"]))


def test_decompose_four_as_two_pairs():
    ds = decompose("11112233445566m")
    assert ds[-1].seven_pairs and ds[-1].pairs == (0, 0, 1, 2, 3, 4, 5)
    assert str(ds[-1]) == "11m 11m 22m 33m 44m 55m 66m"


def test_suit_features():
    f = suit_features((3, 3, 3, 0, 0, 0, 0, 0, 2))
    assert f.tiles == 11 and f.terminal and not f.only_258 and not f.even
    assert len(f.readings) == 2
    assert suit_features((0,) * 9).readings == (((), -1, 3),)
    assert suit_features((1,) + (0,) * 8).readings == ()
    assert suit_features([0, 2, 0, 0, 2, 0, 0, 2, 0]).only_258
    with pytest.raises(ValueError):
        suit_features((5,) + (0,) * 8)


# --------------------------------------------------------------------------- max_fan

def test_max_fan_nine_gates():
    m = max_fan("1112345678999m")
    assert [w.tile for w in m.waits] == list(range(9))
    assert [w.fan for w in m.waits] == [3, 2, 2, 2, 2, 2, 2, 2, 3]  # roots on 1m, 9m
    assert (m.fan, m.best_wait, m.payment) == (3, 0, 8)
    assert isinstance(m, MaxFan) and all(isinstance(w, WaitFan) for w in m.waits)


def test_max_fan_max_min_and_ties():
    m = max_fan("2224445557779m")
    assert [(w.tile, w.fan) for w in m.waits] == [(7, 2), (8, 3)]
    assert (m.fan, m.best_wait, m.payment) == (3, 8, 8)
    assert str(m.waits[1].decomposition) == "222m 444m 555m 777m 99m"
    m = max_fan("2224445557779m", rules=Rules(cha_da_jiao="min"))
    assert (m.fan, m.best_wait, m.payment) == (2, 7, 4)
    m = max_fan("1112223334445m")
    assert [(w.tile, w.fan) for w in m.waits] == [(1, 3), (2, 3), (3, 3), (4, 3), (5, 2)]
    assert m.best_wait == 1  # tie: lowest kind


def test_max_fan_cap_and_qq():
    m = max_fan("1122444455779m")  # 清龙七对 on 9m
    assert (m.fan, m.payment) == (5, 8)
    assert max_fan("1122444455779m", rules=Rules(cap=None, hua_zhu=8)).payment == 32
    m = max_fan("1112223334445m", rules=QQ)
    assert (m.fan, m.payment) == (4, 8)


def test_max_fan_dead_waits():
    m = max_fan("2224445557779m", visible="999m", rules=Rules(si_jiao=True))
    assert [w.dead for w in m.waits] == [False, True]
    assert (m.fan, m.best_wait) == (2, 7)
    m = max_fan("2224445557779m", visible="999m")
    assert [w.dead for w in m.waits] == [False, True]
    assert (m.fan, m.best_wait) == (3, 8)  # without 死叫 a dead wait still counts
    m = max_fan("2224445557779m", visible="8888m999m", rules=Rules(si_jiao=True))
    assert (m.fan, m.payment, m.best_wait) == (None, 0, None)
    assert len(m.waits) == 2 and all(w.dead for w in m.waits)
    vis = [0] * 27
    vis[8] = 2
    assert not max_fan("2224445557779m", visible=vis, rules=Rules(si_jiao=True)).waits[1].dead


def test_max_fan_not_ready_and_void():
    assert max_fan("1111m234p456p789p") == MaxFan(None, 0, None, ())  # 5th 1m does not exist
    assert max_fan("2224445557779m", void_suit="m") == MaxFan(None, 0, None, ())
    assert max_fan("123m456p789s1155m").fan is None                  # three suits
    assert max_fan("12347m59s", melds=["pung:5p", "pung:6p"]).fan is None


def test_max_fan_no_situational_extras_but_shape_options():
    rules = Rules(self_draw="add_fan", hai_di=1, men_qing=1, qia_xin_wu=1)
    m = max_fan("123m789m46m111p22p", rules=rules)
    w5 = next(w for w in m.waits if w.tile == 4)
    assert {f.name for f, _ in w5.items} == {"PING_HU", "MEN_QING", "QIA_XIN_WU"}
    assert m.fan == 2 and m.best_wait == 4


def test_max_fan_with_melds():
    m = max_fan("5p", melds=["pung:1m", "pung:3m", "pung:4p", "kong:6p"])
    assert [(w.tile, w.fan) for w in m.waits] == [(13, 2)]  # 对对胡 + 根
    assert items(score("55p", win_tile="5p", melds=["pung:1m", "pung:3m", "pung:4p",
                                                    "kong:6p"])) == {"DUI_DUI_HU": 1, "GEN": 1}


@pytest.mark.parametrize("hand, kw, exc", [
    ("22244455577799m", {}, InvalidHandError),                   # 14 tiles
    ("2224445557779m", {"visible": "99999m"}, TileParseError),
    ("2224445557779m", {"visible": "999m", "melds": None}, None),
    ("2224445557779m", {"visible": "9999m"}, InvalidHandError),  # 1 held + 4 seen
    ("2224445557779m", {"visible": [0] * 26}, InvalidHandError),
    ("2224445557779m", {"void_suit": 7}, ValueError),
    ("2224445557779m", {"rules": {}}, TypeError),
])
def test_max_fan_bad_inputs(hand, kw, exc):
    if exc is None:
        max_fan(hand, **kw)
        return
    with pytest.raises(exc):
        max_fan(hand, **kw)


def test_parse_tile_helper_consistency():
    assert parse_tile("9m") == 8
