"""Tests of mjfast.rules: the Fan enum, the Rules fields, presets, overrides and errors."""

from __future__ import annotations

import dataclasses
import pickle

import numpy as np
import pytest

from mjfast.rules import PRESETS, Fan, Rules

BASE_NAMES = [
    "PING_HU", "DUI_DUI_HU", "QING_YI_SE", "QI_DUI", "DAI_YAO_JIU", "JIANG_DUI", "QING_DUI",
    "QING_QI_DUI", "LONG_QI_DUI", "QING_YAO_JIU", "QING_LONG_QI_DUI", "TIAN_HU", "DI_HU",
    "JIN_GOU_DIAO", "QING_JIN_GOU_DIAO",
]
EXTRA_NAMES = [
    "GEN", "GANG_SHANG_HUA", "GANG_SHANG_PAO", "QIANG_GANG_HU", "ZI_MO", "HAI_DI", "MEN_QING",
    "ZHONG_ZHANG", "QIA_XIN_WU", "ZI_MEI_DUI", "YI_TIAO_LONG", "JUE_ZHANG",
]

# The Rules fields, in declaration order, with the chengdu defaults (RULES.md sections 4-7).
FIELD_DEFAULTS = {
    "name": "chengdu", "root_fan": 1, "long_qi_dui_uses_root": True, "gang_shang_hua": 1,
    "gang_shang_pao": 1, "qiang_gang_hu": 1, "self_draw": "add_base", "hai_di": 0,
    "men_qing": 0, "zhong_zhang": 0, "qia_xin_wu": 0, "zi_mei_dui": 0, "yi_tiao_long": 0,
    "jin_gou_diao": False, "cap": 3, "exposed_kong": 2, "jia_jia_you": False,
    "added_kong": 1, "added_kong_immediate": True, "concealed_kong": 2,
    "gang_shang_pao_kong": "transfer", "qiang_gang_transfer": False, "hua_zhu": None,
    "cha_da_jiao": "max", "si_jiao": False, "fan_display_offset": 0, "kong_refund": True,
    "guo_shui": "off", "zui_hou_bi_hu": False, "model": "doubling", "cha_hua_zhu": True,
    "hua_zhu_one_suit": False, "shai_tai_yang": False, "dian_gang_hua": False,
    "xue_zhan": True, "jue_zhang": 0, "di_hu_on_discard": False, "ding_que": True,
}
TABLE = {
    "PING_HU": 0, "DUI_DUI_HU": 1, "QING_YI_SE": 2, "QI_DUI": 2, "DAI_YAO_JIU": 2,
    "JIANG_DUI": 3, "QING_DUI": 3, "QING_QI_DUI": 4, "LONG_QI_DUI": 4, "QING_YAO_JIU": 4,
    "QING_LONG_QI_DUI": 5, "TIAN_HU": 5, "DI_HU": 5, "JIN_GOU_DIAO": 2, "QING_JIN_GOU_DIAO": 4,
}


# ------------------------------------------------------------------------------------ Fan

def test_fan_members_and_order():
    assert [f.name for f in Fan] == BASE_NAMES + EXTRA_NAMES
    assert [f.is_base for f in Fan] == [True] * 15 + [False] * 12


@pytest.mark.parametrize("name, zh", [
    ("PING_HU", "平胡"), ("DUI_DUI_HU", "对对胡"), ("QING_YI_SE", "清一色"), ("QI_DUI", "七对"),
    ("DAI_YAO_JIU", "带幺九"), ("JIANG_DUI", "将对"), ("QING_DUI", "清对"),
    ("QING_QI_DUI", "清七对"), ("LONG_QI_DUI", "龙七对"), ("QING_YAO_JIU", "清幺九"),
    ("QING_LONG_QI_DUI", "清龙七对"), ("TIAN_HU", "天胡"), ("DI_HU", "地胡"),
    ("JIN_GOU_DIAO", "金钩钓"), ("QING_JIN_GOU_DIAO", "清金钩钓"), ("GEN", "根"),
    ("GANG_SHANG_HUA", "杠上花"), ("GANG_SHANG_PAO", "杠上炮"), ("QIANG_GANG_HU", "抢杠胡"),
    ("ZI_MO", "自摸"), ("HAI_DI", "海底"), ("MEN_QING", "门清"), ("ZHONG_ZHANG", "中张"),
    ("QIA_XIN_WU", "掐心五"), ("ZI_MEI_DUI", "姊妹对"), ("YI_TIAO_LONG", "一条龙"),
    ("JUE_ZHANG", "绝张"),
])
def test_fan_zh(name, zh):
    assert Fan[name].zh == zh
    assert Fan(name.lower()) is Fan[name]


# ------------------------------------------------------------------------------ defaults

def test_fields_exactly_as_contract():
    names = [f.name for f in dataclasses.fields(Rules)]
    expected = list(FIELD_DEFAULTS)
    expected.insert(1, "base_fan")
    assert names == expected


def test_chengdu_defaults():
    r = Rules()
    for name, value in FIELD_DEFAULTS.items():
        assert getattr(r, name) == value, name
    assert {f.name: n for f, n in r.base_fan.items()} == TABLE
    assert list(r.base_fan) == [Fan[n] for n in BASE_NAMES]
    assert Rules.preset("chengdu") == r == Rules.preset()


def test_presets():
    assert PRESETS == ("chengdu", "qq", "points")
    qq = Rules.preset("qq")
    diff = {
        f.name: getattr(qq, f.name) for f in dataclasses.fields(Rules)
        if getattr(qq, f.name) != getattr(Rules(), f.name)
    }
    assert diff == {"name": "qq", "fan_display_offset": 1, "exposed_kong": 1, "hua_zhu": 16,
                    "cap": None, "self_draw": "none", "added_kong_immediate": False,
                    "qiang_gang_hu": 0}


NON_DEFAULT = {
    "name": "house", "root_fan": 2, "long_qi_dui_uses_root": False, "gang_shang_hua": 2,
    "gang_shang_pao": 0, "qiang_gang_hu": 2, "self_draw": "add_fan", "hai_di": 1,
    "men_qing": 1, "zhong_zhang": 1, "qia_xin_wu": 1, "zi_mei_dui": 1, "yi_tiao_long": 2,
    "jin_gou_diao": True, "cap": 5, "exposed_kong": 1, "jia_jia_you": True, "added_kong": 2,
    "added_kong_immediate": False, "concealed_kong": 4, "gang_shang_pao_kong": "refund",
    "qiang_gang_transfer": True, "hua_zhu": 20, "cha_da_jiao": "min",
    "si_jiao": True, "fan_display_offset": 1, "kong_refund": False,
    "guo_shui": "tile", "zui_hou_bi_hu": True, "model": "points", "cha_hua_zhu": False,
    "hua_zhu_one_suit": True, "shai_tai_yang": True, "dian_gang_hua": True,
    "xue_zhan": False, "jue_zhang": 1, "di_hu_on_discard": True, "ding_que": False,
}


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("field", list(NON_DEFAULT))
def test_every_field_overridable(preset, field):
    r = Rules.preset(preset, **{field: NON_DEFAULT[field]})
    assert getattr(r, field) == NON_DEFAULT[field]
    base = Rules.preset(preset)
    for other in FIELD_DEFAULTS:
        if other != field:
            assert getattr(r, other) == getattr(base, other)


def test_all_overrides_at_once():
    r = Rules.preset("qq", **NON_DEFAULT)
    for k, v in NON_DEFAULT.items():
        assert getattr(r, k) == v


# --------------------------------------------------------------------------------- errors

def test_unknown_preset():
    with pytest.raises(ValueError, match="unknown preset 'sichuan'"):
        Rules.preset("sichuan")


def test_unknown_option():
    with pytest.raises(TypeError, match="unknown option 'capp'"):
        Rules.preset("chengdu", capp=4)
    with pytest.raises(TypeError):
        Rules(capp=4)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unknown option"):
        Rules().replace(fan=3)


@pytest.mark.parametrize("field, value, exc", [
    ("root_fan", "1", TypeError),
    ("root_fan", 1.0, TypeError),
    ("root_fan", True, TypeError),
    ("root_fan", -1, ValueError),
    ("hai_di", None, TypeError),
    ("men_qing", -2, ValueError),
    ("cap", "3", TypeError),
    ("cap", 3.5, TypeError),
    ("cap", True, TypeError),
    ("cap", -1, ValueError),
    ("hua_zhu", -5, ValueError),
    ("hua_zhu", "16", TypeError),
    ("self_draw", "add", ValueError),
    ("self_draw", None, ValueError),
    ("cha_da_jiao", "avg", ValueError),
    ("gang_shang_pao_kong", "move", ValueError),
    ("gang_shang_pao_kong", True, ValueError),
    ("added_kong_immediate", 1, TypeError),
    ("qiang_gang_transfer", "no", TypeError),
    ("jin_gou_diao", 1, TypeError),
    ("si_jiao", "yes", TypeError),
    ("long_qi_dui_uses_root", None, TypeError),
    ("fan_display_offset", -1, ValueError),
    ("name", 3, TypeError),
    ("base_fan", [1, 2], TypeError),
    ("base_fan", {"NOT_A_FAN": 1}, ValueError),
    ("base_fan", {Fan.GEN: 1}, ValueError),
    ("base_fan", {Fan.QI_DUI: -1}, ValueError),
    ("base_fan", {Fan.QI_DUI: "2"}, TypeError),
    ("base_fan", {3: 2}, TypeError),
])
def test_bad_values(field, value, exc):
    with pytest.raises(exc, match=field.split("_")[0]):
        Rules.preset("chengdu", **{field: value})
    with pytest.raises(exc):
        Rules(**{field: value})


def test_numpy_ints_accepted():
    r = Rules(cap=np.int64(4), root_fan=np.uint8(2))
    assert r.cap == 4 and type(r.cap) is int and r.root_fan == 2 and type(r.root_fan) is int


def test_frozen():
    r = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.cap = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.base_fan[Fan.QI_DUI] = 9  # type: ignore[index]


def test_base_fan_partial_merge():
    r = Rules.preset("chengdu", base_fan={Fan.QING_YI_SE: 3, "qi_dui": 3, "JIANG_DUI": 4})
    assert r.base_fan[Fan.QING_YI_SE] == 3
    assert r.base_fan[Fan.QI_DUI] == 3
    assert r.base_fan[Fan.JIANG_DUI] == 4
    assert r.base_fan[Fan.QING_DUI] == 3  # untouched
    assert len(r.base_fan) == 15
    assert Rules().base_fan[Fan.QING_YI_SE] == 2  # the default table is not mutated


# ------------------------------------------------------------------------------- methods

def test_multiplier():
    r = Rules()
    assert [r.multiplier(f) for f in range(7)] == [1, 2, 4, 8, 8, 8, 8]
    qq = Rules.preset("qq")
    assert [qq.multiplier(f) for f in range(7)] == [1, 2, 4, 8, 16, 32, 64]
    assert Rules(cap=0).multiplier(5) == 1
    assert Rules.preset("qq", cap=4).multiplier(9) == 16
    with pytest.raises(ValueError):
        r.multiplier(-1)
    with pytest.raises(TypeError):
        r.multiplier(1.5)  # type: ignore[arg-type]


def test_hua_zhu_amount():
    assert Rules().hua_zhu_amount() == 8
    assert Rules(cap=4).hua_zhu_amount() == 16
    assert Rules.preset("qq").hua_zhu_amount() == 16
    assert Rules(hua_zhu=10).hua_zhu_amount() == 10
    with pytest.raises(ValueError, match="hua_zhu"):
        Rules.preset("qq", hua_zhu=None).hua_zhu_amount()


def test_display_fan():
    assert Rules().display_fan(2) == 2
    assert Rules.preset("qq").display_fan(2) == 3


def test_hash_eq_pickle_repr():
    a = Rules.preset("qq", base_fan={Fan.QI_DUI: 3})
    b = Rules.preset("qq", base_fan={"QI_DUI": 3})
    assert a == b and hash(a) == hash(b)
    assert a != Rules.preset("qq")
    assert len({Rules(), Rules.preset("chengdu"), Rules.preset("qq")}) == 2
    assert pickle.loads(pickle.dumps(a)) == a
    assert repr(Rules()) == "Rules(name='chengdu')"
    assert "base_fan={'QI_DUI': 3}" in repr(a)
    assert eval(repr(a), {"Rules": Rules}) == a


def test_replace():
    r = Rules().replace(cap=None, hua_zhu=8)
    assert r.cap is None and r.hua_zhu == 8 and r.name == "chengdu"
    with pytest.raises(TypeError):
        Rules().replace(cap="x")
