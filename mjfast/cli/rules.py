"""``mjfast rules [PRESET]``: a preset's full table (base patterns, extras, payments, draw
settlement, game-flow options) in Chinese and English; ``--diff chengdu`` keeps only the rows
that differ from another preset."""

from __future__ import annotations

import argparse
from typing import Any, NamedTuple

from mjfast.rules import BASE_PATTERNS, Fan, Rules

from .common import print_json, rules_of

__all__ = ["Row", "cmd_rules", "rows"]

_EN = {
    Fan.PING_HU: "basic win", Fan.DUI_DUI_HU: "all triplets", Fan.QING_YI_SE: "one suit",
    Fan.QI_DUI: "seven pairs", Fan.DAI_YAO_JIU: "terminals in every set",
    Fan.JIANG_DUI: "all triplets of 2, 5, 8", Fan.QING_DUI: "one-suit all triplets",
    Fan.QING_QI_DUI: "one-suit seven pairs", Fan.LONG_QI_DUI: "seven pairs with a four",
    Fan.QING_YAO_JIU: "one-suit terminals", Fan.QING_LONG_QI_DUI: "one-suit seven pairs with a four",
    Fan.TIAN_HU: "dealer wins on the deal", Fan.DI_HU: "non-dealer wins on the first draw",
    Fan.JIN_GOU_DIAO: "four melds, single wait", Fan.QING_JIN_GOU_DIAO: "one-suit 金钩钓",
    Fan.GEN: "root: each kind held 4 times (kongs count)",
    Fan.GANG_SHANG_HUA: "self-draw on a kong's replacement tile",
    Fan.GANG_SHANG_PAO: "win on the discard after a kong", Fan.QIANG_GANG_HU: "robbing a kong",
    Fan.ZI_MO: "self-draw (自摸加番)", Fan.HAI_DI: "win on the last tile",
    Fan.MEN_QING: "no pung or exposed kong", Fan.ZHONG_ZHANG: "no 1 or 9",
    Fan.QIA_XIN_WU: "5 filling 4_6", Fan.ZI_MEI_DUI: "two identical sequences",
    Fan.YI_TIAO_LONG: "123456789 of one suit",
    Fan.JUE_ZHANG: "win on the last live copy of the tile",
}
_SECTIONS = (("base", "基本牌型", "base patterns (the single best applies)"),
             ("extra", "加番", "extras (added)"), ("pay", "结算", "payments"),
             ("draw", "流局", "draw settlement"), ("flow", "牌局", "game flow"))


class Row(NamedTuple):
    """One line of a rules table."""

    section: str
    key: str
    zh: str
    en: str
    value: str


def _on(flag: bool) -> str:
    return "on 是" if flag else "off 否"


def _amount(n: int) -> str:
    return f"{n} base" if n else "none 无"


def _fan_rows(r: Rules) -> list[Row]:
    unit, points = r.unit, r.model == "points"
    out = []
    for f in BASE_PATTERNS:
        value = f"{r.base_fan[f] + r.fan_display_offset}{unit}"
        if f in (Fan.JIN_GOU_DIAO, Fan.QING_JIN_GOU_DIAO) and not r.jin_gou_diao:
            value = "off 否"
        elif f in (Fan.LONG_QI_DUI, Fan.QING_LONG_QI_DUI):
            value += " (one root used up 减1根)" if r.long_qi_dui_uses_root else " (+ its roots)"
        out.append(Row("base", f.name.lower(), f.points_zh if points else f.zh, _EN[f], value))
    extras = {Fan.GEN: r.root_fan, Fan.GANG_SHANG_HUA: r.gang_shang_hua,
              Fan.GANG_SHANG_PAO: r.gang_shang_pao, Fan.QIANG_GANG_HU: r.qiang_gang_hu,
              Fan.ZI_MO: int(r.self_draw == "add_fan"), Fan.HAI_DI: r.hai_di,
              Fan.MEN_QING: r.men_qing, Fan.ZHONG_ZHANG: r.zhong_zhang,
              Fan.QIA_XIN_WU: r.qia_xin_wu, Fan.ZI_MEI_DUI: r.zi_mei_dui,
              Fan.YI_TIAO_LONG: r.yi_tiao_long, Fan.JUE_ZHANG: r.jue_zhang}
    for f, n in extras.items():
        out.append(Row("extra", f.name.lower(), f.points_zh if points else f.zh, _EN[f],
                       f"+{n}{unit}" + (" each" if f is Fan.GEN else "") if n else "off 否"))
    return out


def _payment_rows(r: Rules) -> list[Row]:
    if r.model == "points":
        model = "加分 points: base x points, never doubled"
    else:
        model = "翻倍 doubling: base x 2^fan"
    hua_zhu = "off 否" if not r.cha_hua_zhu else (
        _amount(r.hua_zhu) if r.hua_zhu is not None else "满格 2^cap base")
    return [
        Row("pay", "model", "计分", "scoring model", model),
        Row("pay", "cap", "封顶", "cap", "none 不封顶" if r.cap is None else f"{r.cap}{r.unit}"),
        Row("pay", "fan_display_offset", "显示番数", "fan shown", f"+{r.fan_display_offset}"),
        Row("pay", "self_draw", "自摸", "self-draw bonus",
            {"add_base": "自摸加底 +1 base", "add_fan": "自摸加番 +1 fan", "none": "none 无"}
            [r.self_draw]),
        Row("pay", "exposed_kong", "直杠", "exposed kong: the discarder pays",
            _amount(r.exposed_kong)),
        Row("pay", "jia_jia_you", "家家有 / 擦挂 / 大小雨",
            "exposed kong: every other player also pays 1", _on(r.jia_jia_you)),
        Row("pay", "added_kong", "补杠", "added kong: each other player pays",
            _amount(r.added_kong)),
        Row("pay", "concealed_kong", "暗杠", "concealed kong: each other player pays",
            _amount(r.concealed_kong)),
        Row("pay", "added_kong_immediate", "即时加杠",
            "an added kong pays only on the turn its 4th copy is drawn",
            _on(r.added_kong_immediate)),
        Row("pay", "gang_shang_pao_kong", "杠上炮杠钱", "the kong income on 杠上炮",
            {"transfer": "呼叫转移 transfer to the winner", "refund": "退还 refund to the payers",
             "keep": "保留 kept"}[r.gang_shang_pao_kong]),
        Row("pay", "qiang_gang_transfer", "抢杠转雨", "抢杠: the kong income goes to the robber",
            _on(r.qiang_gang_transfer)),
        Row("pay", "dian_gang_hua", "点杠花", "杠上花 on an exposed kong: its discarder pays alone",
            _on(r.dian_gang_hua)),
        Row("draw", "cha_hua_zhu", "查花猪", "three suits / void tile: pays each other player",
            hua_zhu),
        Row("draw", "hua_zhu_one_suit", "花猪例外", "one discarded suit only: not a 花猪",
            _on(r.hua_zhu_one_suit)),
        Row("draw", "cha_da_jiao", "查大叫", "not ready pays each ready player",
            "赔大 the best wait" if r.cha_da_jiao == "max" else "赔小 the least wait"),
        Row("draw", "si_jiao", "死叫不算叫", "a wait with no copy left does not count",
            _on(r.si_jiao)),
        Row("draw", "kong_refund", "退税", "not ready refunds its kong income",
            _on(r.kong_refund)),
        Row("draw", "shai_tai_yang", "晒太阳", "the last player, not ready, refunds too",
            _on(r.shai_tai_yang)),
    ] + _flow_rows(r)


_GUO_SHUI = {"off": "off 否", "fan": "不超过所过番数 no win worth no more",
             "tile": "同一张 the same tile only"}


def _flow_rows(r: Rules) -> list[Row]:
    return [
        Row("flow", "xue_zhan", "血战到底", "play on after a win (off: 普通场, the first win ends "
            "the hand)", _on(r.xue_zhan)),
        Row("flow", "ding_que", "定缺", "declare a void suit (off: 不定张)", _on(r.ding_que)),
        Row("flow", "guo_shui", "过水不胡", "a passed win blocks discard wins until own draw",
            _GUO_SHUI[r.guo_shui]),
        Row("flow", "zui_hou_bi_hu", "最后四张必胡", "must win in the last 4 tiles",
            _on(r.zui_hou_bi_hu)),
        Row("flow", "di_hu_on_discard", "地胡 (点炮)", "地胡 also on a discard in the first "
            "go-round", _on(r.di_hu_on_discard)),
    ]


def rows(rules: Rules) -> list[Row]:
    """Every row of the table of *rules*, in section order.

    >>> r = {row.key: row for row in rows(Rules.preset("points"))}
    >>> r["dai_yao_jiu"].zh, r["dai_yao_jiu"].value, r["gang_shang_hua"].value
    ('幺九牌', '3分', '+2分')
    """
    return _fan_rows(rules) + _payment_rows(rules)


def cmd_rules(args: argparse.Namespace) -> int:
    """Print a preset's table (or only what differs from ``--diff``)."""
    rules = rules_of(args.preset, args.option)
    table = rows(rules)
    other = None if args.diff is None else {row.key: row.value for row in rows(args.diff)}
    if other is not None:
        table = [row for row in table if other[row.key] != row.value]
    if args.json:
        doc: dict[str, Any] = {"rules": rules.name, "diff": None if args.diff is None
                               else args.diff.name,
                               "rows": [dict(row._asdict(), **({} if other is None else
                                                               {"from": other[row.key]}))
                                        for row in table]}
        print_json(doc)
        return 0
    title = f"rules {rules.name}" + ("" if args.diff is None else f" (vs {args.diff.name})")
    print(title)
    for section, zh, en in _SECTIONS:
        part = [row for row in table if row.section == section]
        if not part:
            continue
        print(f"\n{zh.replace('番', rules.unit)} {en}")
        for row in part:
            was = "" if other is None else f"   ({args.diff.name}: {other[row.key]})"
            print(f"  {row.zh}  {row.en} [{row.key}]: {row.value}{was}")
    if not table:
        print("\n(no difference)")
    return 0
