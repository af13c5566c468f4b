"""Hand-written hands for each rule of RULES.md section 10 (stacked walls, scripted actions)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mjfast import Round, Rules
from mjfast.table import PASS, WIN, IllegalActionError, Table, parse_action

from .helpers import act, declare, idle, stack

# One discard (5p by the dealer) that seats 1 and 3 win on and seat 2 can pung.
CLAIMS = ["123m456m789m12p99p5p", "46p234s567s888s77s", "55p111s999s12p33p6p",
          "46p789p234m555m99m"]


def claims_table() -> Table:
    t = Table(wall=stack(CLAIMS, "9m"))
    declare(t, "smms")
    act(t, 0, "discard:5p")
    return t


def test_claim_masks_name_each_option():
    t = claims_table()
    assert t.phase == "claim"
    names = {p: t.legal_actions(p).nonzero()[0].tolist() for p in range(4)}
    assert names[1] == [WIN, PASS] and names[0] == names[2] == names[3] == []
    act(t, 1, "pass")
    assert t.legal_actions(2).nonzero()[0].tolist() == [parse_action("pung:5p"), PASS]


def test_a_win_beats_a_pung():
    t = claims_table()
    act(t, 1, "win")
    act(t, 2, "pung:5p")
    act(t, 3, "pass")
    assert t.state.n_melds[2] == 0 and t.state.won.tolist() == [False, True, False, False]
    assert (t.current_player, t.phase) == (2, "turn")     # the seat after the winner draws
    assert t.scores.tolist() == [-1, 1, 0, 0]


def test_pung_then_discard_only():
    t = claims_table()
    act(t, 1, "pass")
    act(t, 2, "pung:5p")
    act(t, 3, "pass")
    assert (t.current_player, t.phase) == (2, "turn")
    mask = t.legal_actions(2)
    assert not mask[27:].any() and mask[:27].sum() == 6    # 1p 2p 3p 6p 1s 9s
    with pytest.raises(IllegalActionError, match="after a pung the player discards"):
        t.step(WIN)


def test_one_discard_several_winners_and_out_players_skipped():
    t = claims_table()
    act(t, 1, "win")
    act(t, 2, "pass")
    act(t, 3, "win")
    ev = t.round.events[-1]
    assert ev["players"] == [1, 3] and ev["from_player"] == 0
    assert t.scores.tolist() == [-2, 1, 0, 1]
    assert (t.current_player, t.phase) == (0, "turn")      # after the last winner: seat 0
    act(t, 0, "discard:9m")
    assert (t.current_player, t.phase) == (2, "turn")      # seat 1 is out: skipped
    assert not t.legal_actions(1).any() and not t.legal_actions(3).any()


# Seat 1 pungs 7s, later adds the fourth 7s; seat 2 waits on 7s (89s).
ROB = ["123m456m789m11p23p7s", "77s123s456s99s5p6p8p", "89s234p567p888p11p",
       "111m222m333m444m9m"]


def rob_table() -> Table:
    t = Table(wall=stack(ROB, "6m7m8m7s"))
    declare(t, "smmp")
    with pytest.raises(IllegalActionError, match="void suit"):
        act(t, 0, "discard:1m")                           # 定缺: 7s must go first
    act(t, 0, "discard:7s")
    act(t, 1, "pung:7s")
    act(t, 2, "pass")                                     # seat 2 lets a win on 7s go
    act(t, 1, "discard:5p")
    act(t, 2, "discard:6m")
    act(t, 3, "discard:7m")
    act(t, 0, "discard:8m")
    act(t, 1, "kong_added:7s")
    assert (t.current_player, t.phase) == (2, "rob")
    assert t.legal_actions(2).nonzero()[0].tolist() == [WIN, PASS]
    return t


def test_robbing_an_added_kong():
    t = rob_table()
    act(t, 2, "win")
    ev = t.round.events[-1]
    assert ev["robbing_kong"] is True and ev["from_player"] == 1
    assert [e["type"] for e in t.round.events if e["type"] != "discard"] == ["win"]  # no kong
    assert t.scores.tolist() == [0, -2, 2, 0]              # 平胡 + 抢杠胡 = 1 fan
    assert t.state.melds[1, 0].tolist() == [24, 0]        # seat 1 keeps its pung of 7s
    assert (t.current_player, t.phase) == (3, "turn")


def test_an_added_kong_nobody_robs_pays():
    t = rob_table()
    act(t, 2, "pass")
    assert t.round.events[-1]["kind"] == "kong_added"
    assert t.scores.tolist() == [-1, 3, -1, -1]
    assert (t.current_player, t.phase) == (1, "turn") and t.state.after_kong


# The dealer holds four 9p; seat 1 waits on 6p / 9p.
KONG = ["9999p123m456m789m5p", "123s456s789s11p78p", "222m333m444m555m6m",
        "222s333s444s555s6s"]


def test_concealed_kong_not_robbed_then_gang_shang_pao_hands_the_income_on():
    t = Table(wall=stack(KONG, "6p"))
    declare(t, "smpm")
    act(t, 0, "kong_concealed:9p")
    assert (t.current_player, t.phase) == (0, "turn")     # no robbing a concealed kong
    assert t.scores.tolist() == [6, -2, -2, -2]
    act(t, 0, "discard:6p")
    act(t, 1, "win")
    ev = t.round.events[-1]
    assert ev["after_kong_discard"] is True
    reasons = [(x.payer, x.receiver, x.amount, x.reason.value) for x in t.round.transfers[3:]]
    assert reasons == [(0, 1, 2, "dian_pao"), (0, 1, 6, "hu_jiao_zhuan_yi")]
    assert t.scores.tolist() == [-2, 6, -2, -2]


def test_gang_shang_hua():
    t = Table(wall=stack(KONG, "5p"))
    declare(t, "smpm")
    act(t, 0, "kong_concealed:9p")
    act(t, 0, "win")
    ev = t.round.events[-1]
    assert ev["after_kong"] is True and "from_player" not in ev
    assert t.scores.tolist() == [21, -7, -7, -7]          # kong 2 each + (4 + 1) each


def test_tian_hu():
    t = Table(wall=stack(["123m456m789m11p234p"]))
    declare(t, "spps")
    assert t.legal_actions(0)[WIN]
    act(t, 0, "win")
    assert t.round.events[0]["tian_hu"] is True


# 不定张 (no void declared, so no discard forced): seat 2 keeps its three suits and is a 花猪 at
# the draw; seat 1 is ready. (With 定缺 a player dealt one suit cannot declare it void.)
DRAW = ["1357p2468p9p13s57s9s", "123m456m789m11p23p", "11223344556m9p9s", "123456789m1357p"]


def test_draw_settlement_hua_zhu_and_cha_da_jiao():
    t = Table(Rules(ding_que=False), wall=stack(DRAW, "1s8m2s3s4s9m"))
    idle(t)
    assert t.is_over and t.wall_left == 0
    ev = t.round.events[-1]
    assert ev["type"] == "draw"
    got = sorted((x.payer, x.receiver, x.amount, x.reason.value) for x in t.round.transfers)
    assert got == [(0, 1, 1, "cha_da_jiao"), (2, 0, 8, "hua_zhu"), (2, 1, 8, "hua_zhu"),
                   (2, 3, 8, "hua_zhu"), (3, 1, 1, "cha_da_jiao")]
    assert t.scores.tolist() == [7, 10, -24, 7]
    assert Round.from_json(t.to_json()).net.tolist() == t.scores.tolist()


def test_illegal_actions_say_why():
    t = Table(seed=3)
    with pytest.raises(IllegalActionError, match="declare a void suit"):
        t.step(0)
    declare(t, "mmmm")
    assert t.phase == "turn" and not t.legal_actions(1).any()
    with pytest.raises(IllegalActionError, match="own turn"):
        t.step(PASS)
    with pytest.raises(IllegalActionError, match="void suits are declared"):
        t.step(parse_action("void:p"))
    with pytest.raises(ValueError, match="action"):
        t.step(140)


def test_same_seed_same_game_and_observations_hide_hands():
    from mjfast.table import play_hand
    a = play_hand(Table(seed=11), ["efficient", "random", "efficient", "random"], seed=5)
    b = play_hand(Table(seed=11), ["efficient", "random", "efficient", "random"], seed=5)
    assert a.to_json() == b.to_json()
    t = Table(seed=11)
    act(t, 0, "void:m")
    obs = t.observation(1)
    assert obs["void"].tolist() == [-1, -1, -1, -1]       # declarations stay hidden until all made
    assert obs["hand"].tolist() == t.state.hands[1].tolist()
    assert "hands" not in obs and json.loads(t.to_json())["events"] == []
    assert np.array_equal(obs["discards"], np.full((4, 48), -1))
