"""Hand-written hands for the table options of RULES.md section 7 that move kong money
(即时加杠, the kong money on 杠上炮, 转雨 on 抢杠) and for 晒太阳 in play: stacked walls and
scripted actions, each rule firing and not firing."""

from __future__ import annotations

import pytest

from mjfast import Rules
from mjfast.table import PASS, WIN, Table

from .helpers import act, declare, idle, stack
from .test_scenarios import KONG, ROB, rob_table


def _late_added_kong(rules: Rules) -> tuple[Table, list[int]]:
    """Seat 1 draws its fourth 7s, keeps it a go-round, then adds it to its pung."""
    t = Table(rules, wall=stack(ROB, "6m7m8m7s"))
    declare(t, "smmp")
    act(t, 0, "discard:7s")
    act(t, 1, "pung:7s")
    act(t, 2, "pass")
    act(t, 1, "discard:5p")
    idle(t, until=lambda t: t.current_player == 1 and t.phase == "turn")
    assert t.state.drawn == 24                              # the fourth 7s, this turn
    act(t, 1, "discard:6p")
    idle(t, until=lambda t: t.current_player == 1 and t.phase == "turn")
    assert t.state.drawn != 24
    before = t.scores.tolist()
    act(t, 1, "kong_added:7s")
    assert t.legal_actions(2).nonzero()[0].tolist() == [WIN, PASS]   # still robbable
    act(t, 2, "pass")
    kong = t.round.events[-1]
    assert kong["type"] == "kong" and kong["kind"] == "kong_added"
    assert kong.get("immediate", True) is False
    return t, before


def test_added_kong_immediate():
    # declared on the turn the fourth 7s was drawn: paid (1 each), also under 即时加杠
    t = rob_table()
    act(t, 2, "pass")
    assert t.scores.tolist() == [-1, 3, -1, -1] and "immediate" not in t.round.events[-1]
    # declared a go-round later: earns nothing under 即时加杠 (chengdu) ...
    t, before = _late_added_kong(Rules())
    assert t.scores.tolist() == before and t.round.kong_income(1) == ()
    # ... and pays as any added kong without it (qq's added kong pays 1 each)
    t, before = _late_added_kong(Rules.preset("qq"))
    assert (t.scores - before).tolist() == [-1, 3, -1, -1]


@pytest.mark.parametrize(("mode", "after"), [
    ("transfer", [-2, 6, -2, -2]),     # 呼叫转移: the kong's 6 go to the winner with the win's 2
    ("refund", [-2, 2, 0, 0]),         # the 2 each paid back, then the win's 2
    ("keep", [4, 0, -2, -2]),          # the konger keeps its 6 and pays the win's 2
])
def test_gang_shang_pao_kong(mode, after):
    t = Table(Rules(gang_shang_pao_kong=mode), wall=stack(KONG, "6p"))
    declare(t, "smpm")
    act(t, 0, "kong_concealed:9p")
    assert t.scores.tolist() == [6, -2, -2, -2]
    act(t, 0, "discard:6p")
    act(t, 1, "win")                    # 平胡 + 杠上炮 = 1 fan: 2
    assert t.round.events[-1]["after_kong_discard"] is True
    assert t.scores.tolist() == after
    assert t.round.kong_income(0) == (() if mode != "keep" else ((1, 2), (2, 2), (3, 2)))


def test_gang_shang_pao_kong_only_after_a_kong():
    # the same win on a discard that does not follow a kong moves no kong money in any mode
    for mode in ("transfer", "refund", "keep"):
        t = Table(Rules(gang_shang_pao_kong=mode), wall=stack(KONG, "6p"))
        declare(t, "smpm")
        act(t, 0, "discard:9p")             # no kong first: seat 1 wins on 9p (78p)
        act(t, 1, "win")
        assert "after_kong_discard" not in t.round.events[-1]
        assert t.scores.tolist() == [-1, 1, 0, 0], mode


def test_qiang_gang_transfer():
    # off (chengdu): the robbed kong earns nothing; seat 1 pays the robber 平胡 + 抢杠胡 = 2
    t = rob_table()
    act(t, 2, "win")
    assert t.scores.tolist() == [0, -2, 2, 0]
    # 转雨: the kong is recorded (0, 2, 3 pay 1 each) and its 3 go to the robber with the 2
    t = Table(Rules(qiang_gang_transfer=True), wall=stack(ROB, "6m7m8m7s"))
    declare(t, "smmp")
    for seat, name in ((0, "discard:7s"), (1, "pung:7s"), (2, "pass"), (1, "discard:5p"),
                       (2, "discard:6m"), (3, "discard:7m"), (0, "discard:8m"),
                       (1, "kong_added:7s"), (2, "win")):
        act(t, seat, name)
    assert [e["type"] for e in t.round.events if e["type"] != "discard"] == ["kong", "win"]
    assert [(x.payer, x.receiver, x.amount, x.reason.value) for x in t.round.transfers] == [
        (0, 1, 1, "gang_bu"), (2, 1, 1, "gang_bu"), (3, 1, 1, "gang_bu"),
        (1, 2, 2, "dian_pao"), (1, 2, 3, "zhuan_yu")]
    assert t.scores.tolist() == [-1, -2, 4, -1]
    assert t.state.melds[1, 0].tolist() == [24, 0]          # seat 1 keeps its pung


# Two seats: the dealer waits on 1p / 4p; seat 1 holds four 9p and, void 万, three 万 tiles.
SUN = ["123m456m789m11p23p5s", "9999p13579s2468m"]


@pytest.mark.parametrize(("rules", "after"), [
    (Rules(), [0, 0]),                      # the hand ends at the win: seat 1 keeps its kong
    (Rules(shai_tai_yang=True), [2, -2]),   # 晒太阳: not ready, seat 1 refunds it
])
def test_shai_tai_yang_in_play(rules, after):
    t = Table(rules, players=2, wall=stack(SUN, "2m4m4p"))
    declare(t, "sm")
    act(t, 0, "discard:5s")
    act(t, 1, "kong_concealed:9p")          # 0 pays 2
    act(t, 1, "discard:2m")
    act(t, 0, "win")                        # 自摸 平胡: 1 + 1 (自摸加底) from seat 1
    assert t.is_over and t.scores.tolist() == after
    assert t.scores.tolist() == t.round.net.tolist()
    assert [e["type"] for e in t.round.events][-1] == ("draw" if rules.shai_tai_yang else "win")
