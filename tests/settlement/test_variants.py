"""The presets and options of RULES.md section 7 in the ledger: the ``points`` model, 点杠花,
晒太阳, the 花猪 exception (Round.discard), 擦挂 / 大小雨 and tables of 2 to 6 players.

Every amount is worked out by hand from RULES.md; the comments say how. Each ledger is also
checked against the pure-Python twin (mjfast._ref.settlement).
"""

from __future__ import annotations

import pytest

from mjfast._ref import settlement as ref
from mjfast.rules import Rules
from mjfast.settlement import PlayerState, Round, settle_draw
from mjfast.settlement.model import sets_for
from tests.settlement.short import SHORT_HANDS

# NINE_GATES: 1112345678999s waits 1s-9s: 清一色 on 2s-8s, + a root on 1s / 9s.
NINE_GATES = "1112345678999s"
NOT_READY = "113379m113379p9p"
HUA_ZHU_3 = "4455m1688p22669s"          # three suits


def plain(transfers):
    return [(t.payer, t.receiver, t.amount, str(t.reason), t.fan) for t in transfers]


def twin(r: Round) -> None:
    assert ref.round_net(r.to_json()) == r.net.tolist()
    assert Round.from_json(r.to_json()).transfers == r.transfers


# ----------------------------------------------------------------------------- points

def test_points_draw_pays_the_least_wait_and_no_hua_zhu():
    # points: no 查花猪, so the three-suit hand is simply not ready and pays the 大叫 like the
    # other one; 赔小: the least wait of 1112345678999s is 清一色 3 points -> 3 each.
    states = [PlayerState(NINE_GATES), PlayerState(NOT_READY), PlayerState(HUA_ZHU_3), None]
    s = settle_draw(states, "points")
    assert plain(s.transfers) == [(1, 0, 3, "cha_da_jiao", 3), (2, 0, 3, "cha_da_jiao", 3)]
    assert s.hua_zhu == () and s.ready == (0,)
    assert ref.draw_net(states, "points") == s.net.tolist() == [6, -3, -3, 0]
    # chengdu: 花猪 pays 8 to each of 0 and 1; 1 pays the 大叫 (清一色 2 + root = 3 fan) 8
    s = settle_draw(states)
    assert s.net.tolist() == [16, 0, -16, 0]
    # chengdu without 查花猪: both pay the 大叫
    assert settle_draw(states, Rules(cha_hua_zhu=False)).net.tolist() == [16, -8, -8, 0]


def test_points_round():
    r = Round("points")
    assert r.kong(2, "9p", "kong_concealed") == ()          # kongs only add points
    # 0 wins on 1's discard: 平胡 1 -> 1 pays 1
    assert plain(r.win(0, "1p", from_player=1, hands="123456789m345p11p")) == [
        (1, 0, 1, "dian_pao", 1)]
    # 3 self-draws 111s 123s 456s 789s 55s: 清一色 3 + root (four 1s) 1 = 4; 1 and 2 pay 4
    # each, no 自摸 bonus
    assert plain(r.win(3, "5s", hands="11112345556789s")) == [
        (1, 3, 4, "zi_mo", 4), (2, 3, 4, "zi_mo", 4)]
    # the draw: 2 is ready (234m 567m 2345p + kong 9p: 2p or 5p, 平胡 1 + root 1 = 2 either
    # way), 1 is not and pays 2
    s = r.draw([None, PlayerState("113379m113378p8p"),
                PlayerState("234m567m2345p", melds=["kong_concealed:9p"]), None])
    assert plain(s.transfers) == [(1, 2, 2, "cha_da_jiao", 2)]
    assert r.net.tolist() == [1, -7, -2, 8]
    twin(r)


def test_dian_gang_hua():
    # 0 discards 5p, 1 kongs it (直杠) and wins on the replacement draw (杠上花).
    hand = "123456m23466p"                   # 123m 456m 234p 66p + kong 5p
    # points: 平胡 1 + root (the kong) 1 + 杠上花 2 = 4; 点杠花: 0 alone pays, as a discard win
    r = Round("points")
    assert r.kong(1, "5p", "kong", from_player=0) == ()
    assert plain(r.win(1, "6p", after_kong=True, hands=hand, melds=["kong:5p"])) == [
        (0, 1, 4, "dian_pao", 4)]
    twin(r)
    # chengdu: 0 + root 1 + 杠上花 1 = 2 fan -> 4, +1 自摸加底 from each player still in; the
    # kong: 0 pays 2
    r = Round()
    r.kong(1, "5p", "kong", from_player=0)
    assert plain(r.win(1, "6p", after_kong=True, hands=hand, melds=["kong:5p"])) == [
        (0, 1, 5, "zi_mo", 2), (2, 1, 5, "zi_mo", 2), (3, 1, 5, "zi_mo", 2)]
    twin(r)
    # chengdu with 点杠花: 0 pays 4 alone (no 自摸加底: a discard win)
    r = Round(Rules(dian_gang_hua=True))
    r.kong(1, "5p", "kong", from_player=0)
    assert plain(r.win(1, "6p", after_kong=True, hands=hand, melds=["kong:5p"])) == [
        (0, 1, 4, "dian_pao", 2)]
    twin(r)
    # a concealed kong's 杠上花 is a self-drawn win as before
    r = Round(Rules(dian_gang_hua=True))
    r.kong(1, "5p", "kong_concealed")
    assert len(r.win(1, "6p", after_kong=True, hands=hand, melds=["kong_concealed:5p"])) == 3
    twin(r)


# ----------------------------------------------------------------------------- options

def _three_winners(rules: Rules) -> Round:
    r = Round(rules, players=3)
    r.kong(2, "5s", "kong_concealed")          # 0 and 1 pay 2 each
    r.win(0, "4m", hands="123456m44m567p789p")   # 自摸 0 fan: 1 and 2 pay 1 + 1
    r.win(1, "7s", hands="111999m22m123s789s")   # 自摸 0 fan: 2 pays 2
    return r


def test_shai_tai_yang():
    last = PlayerState("1357p2468p19s", melds=["kong_concealed:5s"])   # not ready
    r = _three_winners(Rules())
    assert r.is_over
    with pytest.raises(ValueError, match="the hand is over"):
        r.draw([None, None, last])
    r = _three_winners(Rules(shai_tai_yang=True))
    assert r.is_over
    # 晒太阳: the last player is not ready and refunds the kong income to 0 and 1
    assert plain(r.draw([None, None, last]).transfers) == [
        (2, 0, 2, "kong_refund", None), (2, 1, 2, "kong_refund", None)]
    # 0: -2 (kong) + 4 (its 自摸) + 2 (refund); 1: -2 - 2 + 2 + 2; 2: +4 - 2 - 2 - 2 - 2
    assert r.net.tolist() == [4, 0, -4]
    twin(r)
    with pytest.raises(ValueError, match="the hand is over"):
        r.draw([None, None, last])
    # a ready last player keeps it
    r = _three_winners(Rules(shai_tai_yang=True))
    ready = PlayerState("1112346667p", melds=["kong_concealed:5s"])   # waits 7p
    assert r.draw([None, None, ready]).transfers == ()
    twin(r)
    # settle_draw alike
    alone = [None, PlayerState("1357p2468p19s", melds=["kong_concealed:5s"],
                               kong_income=[(0, 2)]), None]
    assert settle_draw(alone, Rules(shai_tai_yang=True)).net.tolist() == [2, -2, 0]
    assert ref.draw_net(alone, Rules(shai_tai_yang=True)) == [2, -2, 0]
    assert settle_draw(alone).net.tolist() == [0, 0, 0]


def test_hua_zhu_exception():
    states = [PlayerState(NINE_GATES), PlayerState(NOT_READY),
              PlayerState(HUA_ZHU_3, discarded_suits="s"), None]
    # off by default: 2 is a 花猪 (pays 8 to 0 and 1)
    assert settle_draw(states).hua_zhu == (2,)
    on = Rules(hua_zhu_one_suit=True)
    s = settle_draw(states, on)      # 2 discarded only 条: not a 花猪, simply not ready
    assert s.hua_zhu == () and s.net.tolist() == [16, -8, -8, 0]
    assert ref.draw_net(states, on) == s.net.tolist()
    # through the ledger: Round.discard records the suits
    table = [PlayerState(NINE_GATES), PlayerState(NOT_READY), PlayerState(HUA_ZHU_3)]
    r = Round(on, players=3)
    assert r.discard(2, "9s") == () and r.discard(2, "1s") == ()
    assert r.discarded_suits(2) == ("s",)
    s = r.draw(table)
    assert s.hua_zhu == () and s.net.tolist() == [16, -8, -8]
    twin(r)
    r = Round(on, players=3)
    r.discard(2, "9s")
    r.discard(2, "1m")               # two suits discarded: a 花猪 again
    assert r.draw(table).hua_zhu == (2,)
    twin(r)
    r = Round(on, players=3)
    r.discard(2, "9s")
    with pytest.raises(ValueError, match="discarded_suits"):
        r.draw(table[:2] + [PlayerState(HUA_ZHU_3, discarded_suits="m")])


def test_discard_between_kong_and_gang_shang_pao():
    r = Round()
    r.kong(3, "2s", "kong_concealed")
    r.discard(3, "5p")
    # 杠上炮 after the konger's discard: 平胡 + 杠上炮 = 1 fan -> 2; 呼叫转移 hands on 6
    assert plain(r.win(0, "5p", from_player=3, after_kong_discard=True,
                       hands="123456789m34555p")) == [
        (3, 0, 2, "dian_pao", 1), (3, 0, 6, "hu_jiao_zhuan_yi", None)]
    twin(r)
    r = Round()
    r.kong(1, "2s", "kong_concealed")
    r.discard(1, "9m")
    with pytest.raises(ValueError, match="after_kong"):   # 杠上花 must follow the kong
        r.win(1, "5p", after_kong=True, hands="123456m34555p", melds=["kong_concealed:2s"])
    with pytest.raises(ValueError, match="discard: player"):
        r.discard(7, "1m")


def test_ca_gua_is_jia_jia_you():
    a = Round(Rules(ca_gua=True))
    b = Round(Rules(jia_jia_you=True))
    assert a.rules == b.rules == Rules(da_xiao_yu=True)
    # 直杠 with 擦挂: the discarder pays 2, the two others 1 each
    assert plain(a.kong(0, "7s", "kong", from_player=1)) == [
        (1, 0, 2, "gang_zhi", None), (2, 0, 1, "gang_zhi", None), (3, 0, 1, "gang_zhi", None)]


# ----------------------------------------------------------------------------- 2 to 6 players

def test_table_sizes():
    assert [sets_for(n) for n in (2, 3, 4, 5, 6)] == [4, 4, 4, 3, 2]
    for n in range(2, 7):
        r = Round(players=n, dealer=n - 1)
        assert r.players == n and r.still_in == tuple(range(n))
    with pytest.raises(ValueError, match="players"):
        Round(players=7)
    # 5 and 6 players hold 10 - 3m and 7 - 3m concealed tiles at the draw
    with pytest.raises(ValueError, match="10 concealed tiles, got 13"):
        settle_draw([PlayerState(NOT_READY)] + [None] * 4)
    with pytest.raises(ValueError, match="7 concealed tiles, got 13"):
        settle_draw([PlayerState(NOT_READY)] + [None] * 5)
    # kongs are paid at any table size
    r = Round(players=6)
    assert len(r.kong(5, "1m", "kong_concealed")) == 5
    assert r.net.tolist() == [-2, -2, -2, -2, -2, 10]


@pytest.mark.skipif(not SHORT_HANDS, reason="the scorer does not take sets= yet")
def test_short_hands_in_the_ledger():
    # 6 players: 2 sets + pair. 0 self-draws 123m 456m 99m: 清一色 2 fan -> 4, + 1 自摸加底,
    # from each of the 5 others.
    r = Round(players=6)
    assert plain(r.win(0, "9m", hands="12345699m")) == [
        (q, 0, 5, "zi_mo", 2) for q in range(1, 6)]
    assert r.net.tolist() == [25, -5, -5, -5, -5, -5]
    twin(r)
    # 5 players: 3 sets + pair; the draw checks 10 - 3m tiles and scores with sets=3:
    # 1112345678m waits 1m 2m 4m 5m 7m 8m, each 清一色 2 fan -> 1 pays 4
    table = [PlayerState("1112345678m"), PlayerState("1357m2468m19p"), None, None, None]
    s = settle_draw(table)
    assert plain(s.transfers) == [(1, 0, 4, "cha_da_jiao", 2)]
    assert ref.draw_net(table) == s.net.tolist()
    # points at 5 players: 清一色 3 points, 赔小
    assert settle_draw(table, "points").net.tolist() == [3, -3, 0, 0, 0]


# ----------------------------------------------------------------------------- table options

def test_added_kong_immediate():
    # 即时加杠 (chengdu): an added kong declared on the turn its 4th copy was drawn pays 1 each
    r = Round()
    assert plain(r.kong(0, "3m", "kong_added")) == [
        (1, 0, 1, "gang_bu", None), (2, 0, 1, "gang_bu", None), (3, 0, 1, "gang_bu", None)]
    # a later one is recorded (a kong meld, robbable) but earns nothing, and refunds nothing
    assert r.kong(1, "4m", "kong_added", immediate=False) == ()
    assert r.events[-1]["immediate"] is False and r.kong_income(1) == ()
    twin(r)
    # without the rule (qq) the late one pays like any added kong
    r = Round("qq")
    assert len(r.kong(1, "4m", "kong_added", immediate=False)) == 3
    twin(r)
    with pytest.raises(ValueError, match="only for an added kong"):
        Round().kong(1, "4m", "kong_concealed", immediate=False)


def _pao(rules: Rules) -> Round:
    r = Round(rules)
    r.kong(3, "2s", "kong_concealed")                    # 0, 1, 2 pay 3 two each
    r.discard(3, "5p")
    r.win([0, 1], "5p", from_player=3, after_kong_discard=True,
          hands=["123456789m34555p",                     # 平胡 + 杠上炮 = 1 fan -> 2
                 "112233445566m55p"])                    # 七对 + 杠上炮 = 3 fan -> 8
    return r


def test_gang_shang_pao_kong():
    # "transfer" (呼叫转移): each winner gets the whole income (6); nothing left to refund
    r = _pao(Rules())
    assert [x[3] for x in plain(r.transfers)[3:]] == [
        "dian_pao", "hu_jiao_zhuan_yi", "dian_pao", "hu_jiao_zhuan_yi"]
    assert r.net.tolist() == [-2 + 2 + 6, -2 + 8 + 6, -2, 6 - 22] and r.kong_income(3) == ()
    twin(r)
    # "refund": 3 pays the 2 back to each payer, once; the winners are paid their wins only
    r = _pao(Rules(gang_shang_pao_kong="refund"))
    assert plain(r.transfers)[3:] == [
        (3, 0, 2, "pao_refund", None), (3, 1, 2, "pao_refund", None),
        (3, 2, 2, "pao_refund", None), (3, 0, 2, "dian_pao", 1), (3, 1, 8, "dian_pao", 3)]
    assert r.net.tolist() == [2, 8, 0, -10] and r.kong_income(3) == ()
    twin(r)
    # "keep": the konger keeps it (refunded at a draw only if not ready then)
    r = _pao(Rules(gang_shang_pao_kong="keep"))
    assert r.net.tolist() == [0, 6, -2, -4] and r.kong_income(3) == ((0, 2), (1, 2), (2, 2))
    twin(r)


def test_qiang_gang_transfer():
    def robbed(rules: Rules) -> Round:
        r = Round(rules)
        r.kong(1, "7s", "kong_added")                    # 0, 2, 3 pay 1 each
        # 2 robs it: 平胡 + 抢杠胡 = 1 fan -> 2, paid by 1
        r.win(2, "7s", from_player=1, robbing_kong=True, hands="123456789m11m789s")
        return r

    r = robbed(Rules())                                  # annulled: the kong earns nothing
    assert plain(r.transfers) == [(1, 2, 2, "dian_pao", 1)]
    twin(r)
    r = robbed(Rules(qiang_gang_transfer=True))          # 转雨: its 3 go to the robber
    assert plain(r.transfers)[3:] == [(1, 2, 2, "dian_pao", 1), (1, 2, 3, "zhuan_yu", None)]
    assert r.net.tolist() == [-1, -2, 2 - 1 + 3, -1] and r.kong_income(1) == ()
    twin(r)
    # the robbed player keeps a pung, not a kong, also with 转雨
    with pytest.raises(ValueError, match=r"do not match the kongs recorded for player 1 \(none\)"):
        r.win(1, "9m", hands="123456789m11p78s", melds=["kong_added:7s"])
