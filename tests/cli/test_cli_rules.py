"""``mjfast rules [PRESET] [--diff PRESET]`` and ``mjfast score --rules points`` (in process:
``mjfast.cli.main`` with captured output)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from mjfast import cli
from mjfast.cli.rules import rows
from mjfast.rules import PRESETS, Rules


def _out(capsys, *argv: str) -> str:
    assert cli.main(list(argv)) == 0
    return capsys.readouterr().out


def _json(capsys, *argv: str) -> dict:
    return json.loads(_out(capsys, *argv, "--json"))


@pytest.mark.parametrize("preset", PRESETS)
def test_every_field_has_a_row(preset):
    """Each Rules field appears (base_fan as one row per base pattern; name is the title)."""
    keys = {row.key for row in rows(Rules.preset(preset))}
    fields = {f.name for f in dataclasses.fields(Rules)}
    # root_fan is the 根 row, hua_zhu the 查花猪 row, long_qi_dui_uses_root and jin_gou_diao
    # are shown on the base-pattern rows they change
    assert fields - keys == {"name", "base_fan", "root_fan", "hua_zhu",
                             "long_qi_dui_uses_root"}
    assert {"gen", "hai_di", "men_qing", "zhong_zhang", "qia_xin_wu", "zi_mei_dui",
            "yi_tiao_long", "ping_hu", "qing_long_qi_dui"} <= keys


def test_points_table(capsys):
    text = _out(capsys, "rules", "points")
    assert text.startswith("rules points\n")
    for line in ("  平胡  basic win [ping_hu]: 1分",
                 "  幺九牌  terminals in every set [dai_yao_jiu]: 3分",
                 "  天胡  dealer wins on the deal [tian_hu]: 8分",
                 "  根/杠  root: each kind held 4 times (kongs count) [gen]: +1分 each",
                 "  杠上花  self-draw on a kong's replacement tile [gang_shang_hua]: +2分",
                 "  抢杠  robbing a kong [qiang_gang_hu]: +1分",
                 "  计分  scoring model [model]: 加分 points: base x points, never doubled",
                 "  查大叫  not ready pays each ready player [cha_da_jiao]: 赔小 the least wait",
                 "  最后四张必胡  must win in the last 4 tiles [zui_hou_bi_hu]: on 是",
                 "  过水不胡  a passed win blocks discard wins until own draw [guo_shui]: "
                 "不超过所过番数 no win worth no more",
                 "  地胡 (点炮)  地胡 also on a discard in the first go-round "
                 "[di_hu_on_discard]: on 是"):
        assert line in text.splitlines(), line
    assert "\n加分 extras (added)\n" in text


def test_default_is_chengdu(capsys):
    text = _out(capsys, "rules")
    assert text.startswith("rules chengdu\n")
    assert "  清龙七对  one-suit seven pairs with a four [qing_long_qi_dui]: 5番 (one root " \
           "used up 减1根)" in text.splitlines()
    assert "  家家有 / 擦挂 / 大小雨  exposed kong: every other player also pays 1 " \
           "[jia_jia_you]: off 否" in text.splitlines()
    for line in ("  绝张  win on the last live copy of the tile [jue_zhang]: off 否",
                 "  定缺  declare a void suit (off: 不定张) [ding_que]: on 是",
                 "  血战到底  play on after a win (off: 普通场, the first win ends the hand) "
                 "[xue_zhan]: on 是"):
        assert line in text.splitlines(), line


def test_diff(capsys):
    doc = _json(capsys, "rules", "points", "--diff", "chengdu")
    changed = {row["key"]: (row["from"], row["value"]) for row in doc["rows"]}
    assert doc["rules"] == "points" and doc["diff"] == "chengdu"
    assert changed["cap"] == ("3番", "none 不封顶")
    assert changed["dian_gang_hua"] == ("off 否", "on 是")
    assert changed["concealed_kong"] == ("2 base", "none 无")
    # what the two presets share is left out
    assert "si_jiao" not in changed and "kong_refund" not in changed
    assert _out(capsys, "rules", "qq", "--diff", "qq").endswith("(no difference)\n")
    text = _out(capsys, "rules", "qq", "--diff", "chengdu")
    assert "  直杠  exposed kong: the discarder pays [exposed_kong]: 1 base   (chengdu: 2 base)" \
        in text.splitlines()


def test_option_overrides(capsys):
    doc = _json(capsys, "rules", "points", "--option", "cap=6", "--option", "ca_gua=true")
    values = {row["key"]: row["value"] for row in doc["rows"]}
    assert values["cap"] == "6分" and values["jia_jia_you"] == "on 是"


def test_bad_preset(capsys):
    assert cli.main(["rules", "sichuan"]) == 2
    assert "sichuan" in capsys.readouterr().err
    assert cli.main(["rules", "points", "--diff", "nope"]) == 2


def test_score_points_items(capsys):
    """``mjfast score --rules points``: points (分), the page's names, multiplier = points."""
    text = _out(capsys, "score", "123567234s77s", "--meld", "kong:8s", "--win", "7s",
                "--self-drawn", "--after-kong", "--rules", "points")
    assert text.splitlines()[1:5] == ["6分 (x6, rules points)", "  清一色 (qing_yi_se) 3",
                                      "  根/杠 (gen) 1", "  杠上花 (gang_shang_hua) 2"]
    doc = _json(capsys, "score", "123m123m789m789m99m", "--win", "9m", "--rules", "points")
    assert (doc["fan"], doc["multiplier"], doc["unit"]) == (5, 5, "分")   # 清(龙)七对 4 + 根 1
    assert doc["items"] == [{"name": "qing_long_qi_dui", "zh": "清龙七对", "fan": 4},
                            {"name": "gen", "zh": "根/杠", "fan": 1}]
    doc = _json(capsys, "score", "123m789m123p789p99m", "--win", "9m", "--rules", "points")
    assert doc["items"] == [{"name": "dai_yao_jiu", "zh": "幺九牌", "fan": 3}]


def test_analyze_and_settle_show_points(capsys, tmp_path):
    text = _out(capsys, "analyze", "1112345678999m", "--rules", "points")
    assert "大叫: 3分 on 2m (pays 3)" in text.splitlines()          # 赔小: the least wait
    assert "  1m: 4分 清一色 3 + 根/杠 1 | 111m 123m 456m 789m 99m" in text.splitlines()
    from mjfast.settlement import Round

    r = Round("points")
    r.kong(1, "5p", "kong", from_player=0)
    r.discard(2, "9s")
    r.win(3, "6p", hands="123456789m23466p", from_player=2)
    log = tmp_path / "log.json"
    log.write_text(r.to_json(), encoding="utf-8")
    assert "  event 2 (win): player 2 pays player 3 1 (点炮 dian_pao, 1分)" in _out(
        capsys, "settle", str(log)).splitlines()
