"""The fan items (番种) of RULES.md section 4: :class:`Fan`, their Chinese names, and the
base-pattern tables of the two scoring models (RULES.md section 7): fan for the doubling model,
points (分) for the additive ``points`` model (老成都), whose page names a few items its own way.
:mod:`mjfast.rules` builds the rule sets on them.

>>> Fan.QING_YI_SE.zh, Fan.QING_YI_SE.is_base, Fan.GEN.is_base
('清一色', True, False)
>>> DEFAULT_BASE_FAN[Fan.QING_DUI], POINTS_BASE_FAN[Fan.QING_DUI]
(3, 4)
>>> Fan.DAI_YAO_JIU.points_zh, Fan.QIANG_GANG_HU.points_zh, Fan.PING_HU.points_zh
('幺九牌', '抢杠', '平胡')
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["BASE_PATTERNS", "DEFAULT_BASE_FAN", "POINTS_BASE_FAN", "Fan"]


class Fan(enum.Enum):
    """Every fan item of RULES.md section 4, named in pinyin; ``.zh`` is the Chinese name.

    The first fifteen members are base patterns (``.is_base``; the single best one applies);
    the rest are additive extras.

    >>> [f.zh for f in (Fan.PING_HU, Fan.QING_LONG_QI_DUI, Fan.GEN)]
    ['平胡', '清龙七对', '根']
    """

    # base patterns
    PING_HU = "ping_hu"
    DUI_DUI_HU = "dui_dui_hu"
    QING_YI_SE = "qing_yi_se"
    QI_DUI = "qi_dui"
    DAI_YAO_JIU = "dai_yao_jiu"
    JIANG_DUI = "jiang_dui"
    QING_DUI = "qing_dui"
    QING_QI_DUI = "qing_qi_dui"
    LONG_QI_DUI = "long_qi_dui"
    QING_YAO_JIU = "qing_yao_jiu"
    QING_LONG_QI_DUI = "qing_long_qi_dui"
    TIAN_HU = "tian_hu"
    DI_HU = "di_hu"
    JIN_GOU_DIAO = "jin_gou_diao"
    QING_JIN_GOU_DIAO = "qing_jin_gou_diao"
    # extras
    GEN = "gen"
    GANG_SHANG_HUA = "gang_shang_hua"
    GANG_SHANG_PAO = "gang_shang_pao"
    QIANG_GANG_HU = "qiang_gang_hu"
    ZI_MO = "zi_mo"
    HAI_DI = "hai_di"
    MEN_QING = "men_qing"
    ZHONG_ZHANG = "zhong_zhang"
    QIA_XIN_WU = "qia_xin_wu"
    ZI_MEI_DUI = "zi_mei_dui"
    YI_TIAO_LONG = "yi_tiao_long"
    JUE_ZHANG = "jue_zhang"

    @property
    def zh(self) -> str:
        """The Chinese name, e.g. ``Fan.JIANG_DUI.zh == "将对"``."""
        return _ZH[self]

    @property
    def points_zh(self) -> str:
        """The Chinese name on the additive-points page (seed 000, 老成都), where it names the
        item differently (``幺九牌``, ``抢杠``, ``根/杠``); else :attr:`zh`."""
        return _POINTS_ZH.get(self, _ZH[self])

    @property
    def is_base(self) -> bool:
        """True for base patterns (平胡 ... 清金钩钓), False for additive extras."""
        return self in _BASE_SET


# The Chinese names, in Fan order.
_ZH_NAMES = (
    "平胡 对对胡 清一色 七对 带幺九 将对 清对 清七对 龙七对 清幺九 清龙七对 天胡 地胡 金钩钓 "
    "清金钩钓 根 杠上花 杠上炮 抢杠胡 自摸 海底 门清 中张 掐心五 姊妹对 一条龙 绝张").split()
_ZH: dict[Fan, str] = dict(zip(Fan, _ZH_NAMES))
assert len(_ZH_NAMES) == len(Fan)

BASE_PATTERNS: tuple[Fan, ...] = tuple(list(Fan)[:15])
"""The base patterns, in :class:`Fan` order."""
_BASE_SET = frozenset(BASE_PATTERNS)

DEFAULT_BASE_FAN: Mapping[Fan, int] = MappingProxyType({
    Fan.PING_HU: 0,
    Fan.DUI_DUI_HU: 1,
    Fan.QING_YI_SE: 2,
    Fan.QI_DUI: 2,
    Fan.DAI_YAO_JIU: 2,
    Fan.JIANG_DUI: 3,
    Fan.QING_DUI: 3,
    Fan.QING_QI_DUI: 4,
    Fan.LONG_QI_DUI: 4,
    Fan.QING_YAO_JIU: 4,
    Fan.QING_LONG_QI_DUI: 5,
    Fan.TIAN_HU: 5,
    Fan.DI_HU: 5,
    Fan.JIN_GOU_DIAO: 2,
    Fan.QING_JIN_GOU_DIAO: 4,
})
"""RULES.md section 4 base-pattern table (internal fan, 平胡 = 0)."""

POINTS_BASE_FAN: Mapping[Fan, int] = MappingProxyType({
    Fan.PING_HU: 1,
    Fan.DUI_DUI_HU: 2,
    Fan.QING_YI_SE: 3,
    Fan.QI_DUI: 3,
    Fan.DAI_YAO_JIU: 3,
    Fan.JIANG_DUI: 4,
    Fan.QING_DUI: 4,
    Fan.QING_QI_DUI: 4,
    Fan.LONG_QI_DUI: 3,         # 七对 plus its roots (no 减1根): 七对 3 + two roots = 双龙七对 5
    Fan.QING_LONG_QI_DUI: 4,    # 清七对 plus its roots
    Fan.QING_YAO_JIU: 3,        # not on the page: the best of its parts (清一色 3, 幺九牌 3)
    Fan.TIAN_HU: 8,
    Fan.DI_HU: 8,
    Fan.JIN_GOU_DIAO: 2,        # not on the page (off in the preset): 对对胡's and 清对's points
    Fan.QING_JIN_GOU_DIAO: 4,
})
"""RULES.md section 7 ``points`` base-pattern table (points, 平胡 = 1分)."""

# The additive-points page's own names, where they differ (根 is its 带一根 and 一杠 alike).
_POINTS_ZH = {Fan.DAI_YAO_JIU: "幺九牌", Fan.QIANG_GANG_HU: "抢杠", Fan.GEN: "根/杠"}
