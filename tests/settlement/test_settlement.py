"""Worked examples for mjfast.settlement (RULES.md sections 5, 6 and 8), and bad input.

Every amount below is worked out by hand from RULES.md; the comments say how.
"""

from __future__ import annotations

import doctest
import importlib
import json

import numpy as np
import pytest

from mjfast.rules import Rules
from mjfast.settlement import PlayerState, Reason, Round, Settlement, Transfer, settle_draw
from mjfast.tiles import Meld


def T(payer, receiver, amount, reason, fan=None):
    """A transfer without its event index (for comparisons)."""
    return (payer, receiver, amount, str(reason), fan)


def plain(transfers):
    return [T(t.payer, t.receiver, t.amount, t.reason, t.fan) for t in transfers]


# Hands used below (worked out by hand):
# READY_2M: 22234m456m789m55p waits 2m (222 234m + root 2m: 1 fan -> 2), 5m and 5p (平胡 0 -> 1).
READY_2M = "22234m456m789m55p"
# NINE_GATES: 1112345678999s waits 1s-9s; best 清一色 2 + root 1 = 3 fan -> 8.
NINE_GATES = "1112345678999s"
# NOT_READY: no set at all, far from ready; suits m and p.
NOT_READY = "113379m113379p9p"
# HUA_ZHU_3: three suits.
HUA_ZHU_3 = "4455m1688p22669s"


def test_module_doctests():
    attempted = 0
    for name in ("", ".model", ".draw", ".round", ".ledger", ".log"):
        result = doctest.testmod(importlib.import_module("mjfast.settlement" + name))
        assert result.failed == 0, name
        attempted += result.attempted
    assert attempted > 10


# ------------------------------------------------------------------------- 查花猪

def test_hua_zhu_by_three_suits():
    s = settle_draw([PlayerState(HUA_ZHU_3), PlayerState(READY_2M), PlayerState(NOT_READY),
                     None])
    assert s.hua_zhu == (0,)
    assert s.ready == (1,)
    # 花猪 pays each non-花猪 player still in 满格 = 2**3 = 8; then 2 (not ready) pays 1 its
    # 大叫: 2m wait, 平胡 + 1 root = 1 fan -> 2.
    assert plain(s.transfers) == [
        T(0, 1, 8, "hua_zhu"), T(0, 2, 8, "hua_zhu"), T(2, 1, 2, "cha_da_jiao", 1)]
    assert s.net.tolist() == [-16, 10, 6, 0]
    assert s.matrix.tolist() == [[0, 8, 8, 0], [0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0]]


def test_hua_zhu_by_a_tile_of_the_declared_void():
    states = [PlayerState(READY_2M, void_suit="p"),   # two suits, but holds 5p of its void
              PlayerState(NOT_READY),
              PlayerState(NINE_GATES),
              PlayerState("", won=True)]
    s = settle_draw(states)
    assert s.hua_zhu == (0,)
    assert plain(s.transfers) == [
        T(0, 1, 8, "hua_zhu"), T(0, 2, 8, "hua_zhu"), T(1, 2, 8, "cha_da_jiao", 3)]
    # Declaring the other void makes it clean and ready: 1 pays both ready players.
    states[0] = PlayerState(READY_2M, void_suit="s")
    s = settle_draw(states)
    assert s.hua_zhu == () and s.ready == (0, 2)
    assert plain(s.transfers) == [T(1, 0, 2, "cha_da_jiao", 1), T(1, 2, 8, "cha_da_jiao", 3)]


def test_hua_zhu_pays_no_da_jiao_and_receives_nothing():
    # Two 花猪 and one clean not-ready player: each 花猪 pays only the clean one.
    s = settle_draw([PlayerState(HUA_ZHU_3), PlayerState("123456789m456p1s"),
                     PlayerState(NOT_READY)])
    assert s.hua_zhu == (0, 1)
    assert plain(s.transfers) == [T(0, 2, 8, "hua_zhu"), T(1, 2, 8, "hua_zhu")]


def test_hua_zhu_amount_follows_rules():
    states = [PlayerState(HUA_ZHU_3), PlayerState(NOT_READY)]
    assert settle_draw(states, Rules(cap=4)).net.tolist() == [-16, 16]
    assert settle_draw(states, Rules(hua_zhu=5)).net.tolist() == [-5, 5]
    assert settle_draw(states, "qq").net.tolist() == [-16, 16]          # qq: 16 base


# ------------------------------------------------------------------------- 查大叫

def test_cha_da_jiao_max_and_min():
    states = [PlayerState(READY_2M), PlayerState(NOT_READY), None, None]
    assert plain(settle_draw(states).transfers) == [T(1, 0, 2, "cha_da_jiao", 1)]
    # 赔小: the smallest wait (5m or 5p, 平胡 0 fan -> 1).
    low = settle_draw(states, Rules(cha_da_jiao="min"))
    assert plain(low.transfers) == [T(1, 0, 1, "cha_da_jiao", 0)]


def test_cha_da_jiao_is_capped_but_fan_is_not():
    # 清龙七对 wait: 1122444455779m + 9m... use a 5-fan wait: 11224444557799m minus 9m.
    states = [PlayerState("1122444455779m"), PlayerState(NOT_READY)]
    s = settle_draw(states)
    (t,) = s.transfers
    assert t.amount == 8 and t.fan == 5                      # cap 3: 8; F = 5 uncapped
    assert settle_draw(states, Rules(cap=None)).transfers[0].amount == 32


def test_every_not_ready_player_pays_every_ready_player():
    s = settle_draw([PlayerState(READY_2M), PlayerState(NOT_READY), PlayerState(NINE_GATES),
                     PlayerState("2468m123456789p")])
    assert s.ready == (0, 2)
    assert plain(s.transfers) == [
        T(1, 0, 2, "cha_da_jiao", 1), T(1, 2, 8, "cha_da_jiao", 3),
        T(3, 0, 2, "cha_da_jiao", 1), T(3, 2, 8, "cha_da_jiao", 3)]


def _visible(**seen):
    v = [0] * 27
    from mjfast.tiles import parse_tile
    for tile, n in seen.items():
        v[parse_tile(tile[1:] if tile.startswith("t") else tile)] = n
    return v


@pytest.mark.parametrize("si_jiao", [False, True])
def test_si_jiao(si_jiao):
    rules = Rules(si_jiao=si_jiao)
    # The fourth 2m is visible: the 1-fan wait is dead.
    one_dead = _visible(t2m=1)
    s = settle_draw([PlayerState(READY_2M, visible=one_dead), PlayerState(NOT_READY)], rules)
    assert plain(s.transfers) == ([T(1, 0, 1, "cha_da_jiao", 0)] if si_jiao
                                  else [T(1, 0, 2, "cha_da_jiao", 1)])
    # Every wait dead (2m: 1 left, 5m: 3 left, 5p: 2 left, all seen).
    all_dead = _visible(t2m=1, t5m=3, t5p=2)
    states = [PlayerState(READY_2M, visible=all_dead, kong_income=[(1, 2)]),
              PlayerState(NINE_GATES)]
    s = settle_draw(states, rules)
    if si_jiao:       # not ready: pays the 大叫 and refunds the kong income
        assert s.ready == (1,)
        assert plain(s.transfers) == [T(0, 1, 8, "cha_da_jiao", 3), T(0, 1, 2, "kong_refund")]
    else:             # 死叫 counts as ready: nobody pays
        assert s.ready == (0, 1) and s.transfers == ()


# ------------------------------------------------------------------------- refunds

def test_kong_refund_of_not_ready_players_including_hua_zhu():
    states = [PlayerState(HUA_ZHU_3, kong_income=[(1, 2), (2, 2), (1, 1)]),
              PlayerState(READY_2M, kong_income=[(0, 2)]),                     # ready: keeps
              PlayerState("1379m11379p9p", melds=["kong:2p"], kong_income=[(0, 2)])]
    s = settle_draw(states)
    assert plain(s.transfers) == [
        T(0, 1, 8, "hua_zhu"), T(0, 2, 8, "hua_zhu"), T(2, 1, 2, "cha_da_jiao", 1),
        T(0, 1, 3, "kong_refund"), T(0, 2, 2, "kong_refund"), T(2, 0, 2, "kong_refund")]
    no_refund = settle_draw(states, Rules(kong_refund=False))
    assert [t.reason for t in no_refund.transfers].count(Reason.KONG_REFUND) == 0


def test_refund_goes_to_payers_who_have_won_since():
    r = Round()
    r.kong(1, "5s", "kong_concealed")                 # 0, 2, 3 pay 2 each
    r.win(0, "6p", from_player=2, hands="234567m11234567p")   # 0 wins and leaves
    assert r.kong_income(1) == ((0, 2), (2, 2), (3, 2))
    s = r.draw([None, PlayerState("1379p137999s", melds=["kong_concealed:5s"]),
                PlayerState(HUA_ZHU_3), PlayerState("1112345678999m")])
    refunds = [t for t in s.transfers if t.reason == "kong_refund"]
    assert plain(refunds) == [T(1, 0, 2, "kong_refund"), T(1, 2, 2, "kong_refund"),
                              T(1, 3, 2, "kong_refund")]
    assert all(t.event == 2 for t in s.transfers)
    assert r.net.tolist() == [1, 0, -17, 16]
    assert r.is_over


def test_ready_konger_keeps_kong_income():
    r = Round()
    r.kong(0, "2p", "kong", from_player=3)            # 3 pays 2
    s = r.draw([PlayerState("22234m456m55p", melds=["kong:2p"]),   # ready, best wait 2m:
                PlayerState(NOT_READY),                             # 平胡 + 2 roots = 2 fan
                PlayerState(HUA_ZHU_3),
                PlayerState("1379p1379s24688s")])
    assert s.ready == (0,) and s.hua_zhu == (2,)
    assert plain(s.transfers) == [
        T(2, 0, 8, "hua_zhu"), T(2, 1, 8, "hua_zhu"), T(2, 3, 8, "hua_zhu"),
        T(1, 0, 4, "cha_da_jiao", 2), T(3, 0, 4, "cha_da_jiao", 2)]   # no refund
    assert r.net.tolist() == [2 + 8 + 4 + 4, 8 - 4, -24, -2 + 8 - 4]


# ------------------------------------------------------------------------- wins

WIN_PING = "234567m11234567p"           # 平胡 on 6p
WIN_QING = "11223345556789m"            # 清一色 2 fan on 5m


@pytest.mark.parametrize("self_draw, amount, fan", [
    ("add_base", 5, 2),     # 自摸加底: 2**2 + 1
    ("add_fan", 8, 3),      # 自摸加番: 2 + 1 = 3 fan -> 8
    ("none", 4, 2),
])
def test_self_draw_add_base_vs_add_fan(self_draw, amount, fan):
    r = Round(Rules(self_draw=self_draw))
    out = r.win(2, "5m", hands=WIN_QING)
    assert plain(out) == [T(q, 2, amount, "zi_mo", fan) for q in (0, 1, 3)]
    assert r.net.tolist() == [-amount, -amount, 3 * amount, -amount]


def test_self_draw_only_charges_players_still_in():
    r = Round()
    r.win(1, "6p", from_player=3, hands=WIN_PING)       # 3 pays 1
    out = r.win(0, "5m", hands=WIN_QING)                # 1 has left: 2 and 3 pay 4 + 1
    assert plain(out) == [T(2, 0, 5, "zi_mo", 2), T(3, 0, 5, "zi_mo", 2)]
    assert r.winners == (1, 0) and r.still_in == (2, 3)


def test_discard_win_only_discarder_pays_and_one_pao_duo_xiang():
    r = Round()
    out = r.win([0, 1], "6p", from_player=2, hands=[WIN_PING, "123789m22345678p"])
    assert plain(out) == [T(2, 0, 1, "dian_pao", 0), T(2, 1, 1, "dian_pao", 0)]
    assert r.is_over is False and r.still_in == (2, 3) and r.winners == (0, 1)


def test_hu_jiao_zhuan_yi_one_pao_duo_xiang():
    r = Round()
    r.kong(3, "2s", "kong_concealed")                   # 0, 1, 2 pay 3 two each: 6
    out = r.win([0, 1], "5p", from_player=3, after_kong_discard=True,
                hands=["123456789m34555p",              # 平胡 + 杠上炮 = 1 fan -> 2
                       "112233445566m55p"])             # 七对 + 杠上炮 = 3 fan -> 8
    # Each winner gets the whole income of the kong (6): the discarder pays two copies.
    assert plain(out) == [T(3, 0, 2, "dian_pao", 1), T(3, 0, 6, "hu_jiao_zhuan_yi"),
                          T(3, 1, 8, "dian_pao", 3), T(3, 1, 6, "hu_jiao_zhuan_yi")]
    assert r.net.tolist() == [-2 + 8, -2 + 14, -2, 6 - 22]
    # The kong's income is gone: nothing left to refund at the draw.
    assert r.kong_income(3) == ()
    s = r.draw([None, None, PlayerState("345678s999s1123p"),        # ready, 平胡 -> 1
                PlayerState("77899m11135s", melds=["kong_concealed:2s"])])
    assert plain(s.transfers) == [T(3, 2, 1, "cha_da_jiao", 0)]


def test_hu_jiao_zhuan_yi_off_and_single_winner():
    hands = "123456789m34555p"
    r = Round(Rules(gang_shang_pao_kong="keep"))
    r.kong(3, "2s", "kong_concealed")
    out = r.win(0, "5p", from_player=3, after_kong_discard=True, hands=hands)
    assert plain(out) == [T(3, 0, 2, "dian_pao", 1)]
    assert r.kong_income(3) == ((0, 2), (1, 2), (2, 2))
    r = Round()
    r.kong(3, "2s", "kong_concealed")
    out = r.win(0, "5p", from_player=3, after_kong_discard=True, hands=hands)
    assert plain(out) == [T(3, 0, 2, "dian_pao", 1), T(3, 0, 6, "hu_jiao_zhuan_yi")]


def test_hu_jiao_zhuan_yi_transfers_only_the_last_kong():
    r = Round()
    r.kong(3, "2s", "kong_concealed")                   # 6
    r.kong(3, "3s", "kong_added")                       # 3
    out = r.win(0, "5p", from_player=3, after_kong_discard=True, hands="123456789m34555p")
    assert plain(out) == [T(3, 0, 2, "dian_pao", 1), T(3, 0, 3, "hu_jiao_zhuan_yi")]
    assert r.kong_income(3) == ((0, 2), (1, 2), (2, 2))


ROB_HAND = "123456789m56799s"     # 123 456 789m 567s 99s, one 7s: 平胡 + 抢杠胡 = 1 fan


@pytest.mark.parametrize("recorded", [True, False])
def test_qiang_gang_hu(recorded):
    r = Round()
    if recorded:                                        # the added kong was announced...
        assert len(r.kong(1, "7s", "kong_added")) == 3
    out = r.win(0, "7s", from_player=1, robbing_kong=True, hands=ROB_HAND)
    # ...but a robbed kong earns nothing, and the robbed player pays as the discarder.
    assert plain(out) == [T(1, 0, 2, "dian_pao", 1)]
    assert plain(r.transfers) == [T(1, 0, 2, "dian_pao", 1)]
    assert r.kong_income(1) == ()
    assert r.net.tolist() == [2, -2, 0, 0]
    # The robbed player keeps a pung of 7s; the fourth copy is gone.
    with pytest.raises(ValueError, match="cannot hold four 7s"):
        r.kong(1, "7s", "kong_added")
    with pytest.raises(ValueError, match="pung of 7s"):
        r.draw([None, PlayerState(NOT_READY), PlayerState(READY_2M), PlayerState(HUA_ZHU_3)])
    s = r.draw([None, PlayerState("11339m13599s", melds=["pung:7s"]), PlayerState(READY_2M),
                PlayerState("6m1116888p22668s")])
    assert s.hua_zhu == (3,)


def test_only_an_added_kong_can_be_robbed():
    r = Round()
    r.kong(1, "7s", "kong_concealed")
    with pytest.raises(ValueError, match="only an added kong"):
        r.win(0, "7s", from_player=1, robbing_kong=True, hands=ROB_HAND)


def test_gang_shang_hua_and_won_players_pay_no_kongs():
    r = Round()
    r.win(3, "6p", from_player=2, hands=WIN_PING)
    out = r.kong(0, "9p", "kong_concealed")             # 3 has left: 1 and 2 pay
    assert plain(out) == [T(1, 0, 2, "gang_an"), T(2, 0, 2, "gang_an")]
    out = r.win(0, "5m", after_kong=True, hands="11223345556m", melds=["kong_concealed:9p"])
    # 123 123 456m 55m + kong 9p: not 清一色 (9p); 平胡 + 根 (the kong) + 杠上花 = 2 fan.
    assert plain(out) == [T(1, 0, 5, "zi_mo", 2), T(2, 0, 5, "zi_mo", 2)]


@pytest.mark.parametrize("jia_jia_you", [False, True])
def test_kong_payments(jia_jia_you):
    r = Round(Rules(jia_jia_you=jia_jia_you))
    out = r.kong(0, "1m", "kong", from_player=2)
    expected = [T(2, 0, 2, "gang_zhi")]
    if jia_jia_you:
        expected += [T(1, 0, 1, "gang_zhi"), T(3, 0, 1, "gang_zhi")]
    assert plain(out) == expected
    assert plain(r.kong(1, "2m", "added")) == [T(q, 1, 1, "gang_bu") for q in (0, 2, 3)]
    assert plain(r.kong(2, "3m", Meld("kong_concealed", 2).kind)) == [
        T(q, 2, 2, "gang_an") for q in (0, 1, 3)]


def test_qq_preset_amounts():
    r = Round("qq")
    assert plain(r.kong(0, "9m", "kong", from_player=2)) == [T(2, 0, 1, "gang_zhi")]   # 直杠 1
    # qq: no self-draw bonus, fan shown one higher (平胡 = 1), same amounts.
    assert plain(r.win(1, "6p", hands=WIN_PING)) == [T(q, 1, 1, "zi_mo", 1) for q in (0, 2, 3)]
    s = r.draw([PlayerState("137m137899p9p", melds=["kong:9m"]), None,
                PlayerState(HUA_ZHU_3), PlayerState(NINE_GATES)])
    assert plain(s.transfers) == [
        T(2, 0, 16, "hua_zhu"), T(2, 3, 16, "hua_zhu"),      # 花猪 16
        T(0, 3, 8, "cha_da_jiao", 4),                          # 3 internal -> shown 4, 2**3
        T(0, 2, 1, "kong_refund")]


def test_tian_hu_and_di_hu():
    r = Round(dealer=2)
    with pytest.raises(ValueError, match="tian_hu"):
        r.win(0, "5m", tian_hu=True, hands=WIN_QING)
    out = r.win(2, "5m", tian_hu=True, hands=WIN_QING)
    assert out[0].fan == 5 and out[0].amount == 9            # 天胡 5, capped 3: 8 + 1
    with pytest.raises(ValueError, match="di_hu"):
        Round(dealer=1).win(1, "6p", di_hu=True, hands=WIN_PING)
    assert Round(dealer=1).win(0, "6p", di_hu=True, hands=WIN_PING)[0].amount == 9


# ------------------------------------------------------------------------- JSON

def test_json_round_trip_with_custom_rules():
    rules = Rules.preset("qq", cap=4, jia_jia_you=True, base_fan={"QI_DUI": 3})
    r = Round(rules, players=4, dealer=3)
    r.kong(3, "2s", "kong", from_player=1)
    r.kong(1, "7s", "kong_added")
    r.win(0, "7s", from_player=1, robbing_kong=True, hands=ROB_HAND, void_suit="p")
    r.win([2, 3], "5p", from_player=1, hands=["112233445566m55p", "33445588s555p"],
          melds=[[], ["kong:2s"]])
    text = r.to_json()
    doc = json.loads(text)
    assert doc["rules"]["preset"] == "qq"
    assert doc["rules"]["overrides"]["base_fan"]["QI_DUI"] == 3
    r2 = Round.from_json(text)
    assert r2.rules == rules
    assert r2.transfers == r.transfers
    assert r2.to_json() == text
    assert r2.is_over and r2.winners == (0, 2, 3)


def test_json_replays_a_draw():
    r = Round()
    r.kong(1, "5s", "kong_concealed")
    r.win(0, "6p", from_player=2, hands="234567m11234567p")
    r.draw([None, PlayerState("1379p137999s", melds=["kong_concealed:5s"]),
            {"concealed": HUA_ZHU_3}, PlayerState("1112345678999m")])
    r2 = Round.from_json(r.to_json())
    assert r2.transfers == r.transfers
    assert r2.net.tolist() == [1, 0, -17, 16]


def test_from_json_rejects_bad_logs():
    with pytest.raises(ValueError, match="not an mjfast round"):
        Round.from_json("{}")
    r = Round()
    r.win(0, "6p", from_player=2, hands=WIN_PING)
    doc = json.loads(r.to_json())
    doc["events"].append({"type": "kong", "player": 0, "tile": "1m", "kind": "kong_concealed"})
    with pytest.raises(ValueError, match=r"events\[1\].*already won"):
        Round.from_json(json.dumps(doc))


# ------------------------------------------------------------------------- bad input

def _snapshot(r):
    return r.to_json(), r.transfers


def test_illegal_events_raise_and_leave_the_ledger_unchanged():
    r = Round()
    r.kong(2, "9s", "kong_concealed")
    r.win(0, "6p", from_player=1, hands=WIN_PING)
    before = _snapshot(r)
    bad = [
        (lambda: r.kong(0, "1m", "kong_concealed"), "already won"),              # won acts
        (lambda: r.win(0, "5m", hands=WIN_QING), "already won"),
        (lambda: r.kong(1, "1m", "kong", from_player=0), "already won"),
        (lambda: r.win(1, "6p", from_player=0, hands=WIN_PING), "already won"),
        (lambda: r.win(1, "5m", hands="11223345556799m"), "not a winning hand"),  # no win
        (lambda: r.win(1, "5m", hands="1122334555679m"), "including the win tile"),
        (lambda: r.win(1, "1p", hands=WIN_QING), "does not contain the win tile"),
        (lambda: r.kong(1, "9s", "kong_concealed"), "cannot hold four 9s"),     # 2 has them
        (lambda: r.kong(1, "6p", "kong_concealed"), "cannot hold four 6p"),     # seen in a win
        (lambda: r.kong(4, "1m", "kong_concealed"), "kong: player: expected an int from 0 to 3"),
        (lambda: r.kong(-1, "1m", "kong_concealed"), "kong: player: expected an int from 0 to 3"),
        (lambda: r.kong(1, "1m", "kong", from_player=7), "kong: from_player: expected an int from"),
        (lambda: r.win(9, "6p", from_player=2, hands=WIN_PING), r"win: winners\[0\]: expected an int"),
        (lambda: r.win([1, 4], "6p", from_player=2, hands=[WIN_PING] * 2), r"winners\[1\]: expected an int"),
        (lambda: r.win(1, "6p", from_player=-2, hands=WIN_PING), "win: from_player: expected an int"),
        (lambda: r.win([], "6p", from_player=2, hands=[]), "empty"),
        (lambda: r.win(1, "6p", from_player=2, hands=WIN_PING, last_tile=1), "bool"),
        (lambda: r.kong(1, "1m", "kong"), "needs from_player"),
        (lambda: r.kong(1, "1m", "kong_added", from_player=2), "only for an exposed"),
        (lambda: r.kong(1, "1m", "kong", from_player=1), "another player"),
        (lambda: r.kong(1, "1m", "pung"), "kong: kind: expected 'kong'"),
        (lambda: r.kong(1, "0m", "kong_added"), "digit 0"),
        (lambda: r.kong(1, 27, "kong_added"), "kong: tile: expected .* a kind index 0..26, got 27"),
        (lambda: r.win([1, 2], "5m", hands=[WIN_QING, WIN_QING]), "one winner"),
        (lambda: r.win([1, 1], "6p", from_player=2, hands=[WIN_PING, WIN_PING]), "twice"),
        (lambda: r.win(1, "6p", from_player=1, hands=WIN_PING), "own discard"),
        (lambda: r.win([1, 3], "6p", from_player=2, hands=WIN_PING), "aligned"),
        (lambda: r.win(1, "5p", from_player=3, after_kong_discard=True,
                       hands="123456789m34555p"), "after_kong_discard"),
        (lambda: r.win(2, "5m", after_kong=True, hands=WIN_QING, melds=["kong_concealed:9s"]),
         "after_kong"),
        (lambda: r.win(2, "5m", hands=WIN_QING), r"kong melds \(none\)"),        # hides its kong
        (lambda: r.win(1, "5m", hands=WIN_QING, melds=["kong:9s"]), "kong melds"),
        (lambda: r.win(1, "6p", from_player=2, hands="123456p23456799s"),
         "9s would appear 6 times"),
        (lambda: r.draw([None, PlayerState(NOT_READY)]), "states: expected one per seat, 4 seats"),
        (lambda: r.draw([None] + [PlayerState(NOT_READY)] * 4), "states: expected one per seat, 4 seats"),
        (lambda: r.draw("1m"), "sequence"),
        (lambda: r.draw([PlayerState(NOT_READY), PlayerState(NOT_READY),
                         PlayerState("1379m1379p", melds=["kong_concealed:9s"]),
                         PlayerState(READY_2M)]), "has won"),
        (lambda: r.draw([None, None, PlayerState("1379m1379p", melds=["kong_concealed:9s"]),
                         PlayerState(READY_2M)]), "still in"),
        (lambda: r.draw([None, PlayerState(NOT_READY), PlayerState(READY_2M),
                         PlayerState(READY_2M)]), "kong melds"),
        (lambda: r.draw([None, PlayerState(NOT_READY),
                         PlayerState("1379m1379p", melds=["kong_concealed:9s"],
                                     kong_income=[(0, 2)]),
                         PlayerState(READY_2M)]), "disagrees"),
        (lambda: r.draw([None, PlayerState("113379m113379p9p"),
                         PlayerState("1379m1379p", melds=["kong_concealed:9s"]),
                         PlayerState("1379m1379p9p")]), "across the table"),
    ]
    for call, message in bad:
        with pytest.raises(ValueError, match=message):
            call()
        assert _snapshot(r) == before, message


def test_robbing_a_recorded_kong_is_atomic_on_error():
    r = Round()
    r.kong(1, "7s", "kong_added")
    before = _snapshot(r)
    with pytest.raises(ValueError):
        r.win(0, "7s", from_player=1, robbing_kong=True, hands="123456789m15799s")
    with pytest.raises(ValueError):     # a robbing hand holds only the robbed copy
        r.win(0, "7s", from_player=1, robbing_kong=True, hands="123456789m77799s")
    assert _snapshot(r) == before
    assert r.kong_income(1) == ((0, 1), (2, 1), (3, 1))


def test_the_hand_ends():
    r = Round(players=3)
    r.win(0, "6p", from_player=1, hands=WIN_PING)
    r.win(1, "5m", hands=WIN_QING)
    assert r.is_over and r.still_in == (2,)
    with pytest.raises(ValueError, match="over"):
        r.kong(2, "1s", "kong_concealed")
    with pytest.raises(ValueError, match="over"):
        r.draw([None, None, PlayerState(NOT_READY)])
    r = Round(players=2)
    r.draw([PlayerState(NOT_READY), PlayerState(READY_2M)])
    with pytest.raises(ValueError, match="over"):
        r.draw([PlayerState(NOT_READY), PlayerState(READY_2M)])


@pytest.mark.parametrize("players", [0, 1, 7, "4", True, 2.0])
def test_wrong_player_count(players):
    with pytest.raises(ValueError, match="players: expected an int"):
        Round(players=players)


def test_bad_constructor_arguments():
    with pytest.raises(ValueError, match="dealer: expected an int from 0 to 3, got 4"):
        Round(dealer=4)
    with pytest.raises(ValueError, match="rules"):
        Round(rules=3)
    with pytest.raises(ValueError, match="rules: expected a Rules object or a preset name"):
        Round(rules="sichuan")


def test_settle_draw_needs_two_players_still_in():
    s = settle_draw([PlayerState(NOT_READY, kong_income=[(1, 2)]), None, None, None])
    assert s.transfers == () and s.net.tolist() == [0, 0, 0, 0]
    s = settle_draw([PlayerState(NOT_READY), PlayerState(READY_2M, won=True)])
    assert s.transfers == ()


def test_settle_draw_bad_input():
    with pytest.raises(ValueError, match="states: expected one per seat, 2 to 6 seats, got 7"):
        settle_draw([PlayerState(NOT_READY)] * 7)
    with pytest.raises(ValueError, match="10 concealed tiles, got 13"):
        settle_draw([PlayerState(NOT_READY, melds=["pung:5s"]), PlayerState(READY_2M)])
    with pytest.raises(ValueError, match="across the table"):
        settle_draw([PlayerState(NOT_READY), PlayerState(NOT_READY), PlayerState(NOT_READY)])
    with pytest.raises(ValueError, match="payer 0 is not another player"):
        settle_draw([PlayerState(NOT_READY, kong_income=[(0, 2)]), PlayerState(READY_2M)])
    with pytest.raises(ValueError, match="expected a PlayerState"):
        settle_draw([NOT_READY, READY_2M])


def test_player_state_normalises_and_validates():
    p = PlayerState(np.array(PlayerState("123m").concealed), melds="pung:5p, kong:6p",
                    void_suit=2, kong_income=[[1, 2]], visible="1s")
    assert p.melds == (Meld("pung", 13), Meld("kong", 14))
    assert p.kong_income == ((1, 2),) and p.void_suit == 2 and p.visible[18] == 1
    assert PlayerState(**p.to_json()) == p
    assert hash(p) == hash(PlayerState(**p.to_json()))
    for kwargs, message in [
        ({"concealed": "123z"}, "honour"),
        ({"concealed": [0] * 26}, "27 counts"),
        ({"concealed": [5] + [0] * 26}, "concealed: tile 1m appears 5 times"),
        ({"concealed": [0.5] * 27}, r"concealed\[0\]: expected an int, got 0.5"),
        ({"concealed": "5555p", "melds": ["pung:5p"]}, "appears 7 times"),
        ({"concealed": "", "melds": ["chow:5p"]}, "meld kind"),
        ({"concealed": "", "void_suit": "z"}, "void_suit: expected None, -1"),
        ({"concealed": "", "won": "yes"}, "won"),
        ({"concealed": "", "kong_income": [(1,)]}, "payer, amount"),
        ({"concealed": "", "kong_income": [(1, -2)]}, ">= 0"),
    ]:
        with pytest.raises(ValueError, match=message):
            PlayerState(**kwargs)


def test_settlement_and_transfer_objects():
    t = Transfer(1, 0, 3, "dian_pao", fan=1)
    assert t.reason is Reason.DIAN_PAO and t.reason == "dian_pao" and Reason.HUA_ZHU.zh == "查花猪"
    assert str(t) == "1 -> 0: 3, dian_pao, 1 fan"
    s = Settlement.from_transfers([t, Transfer(2, 0, 1, "gang_bu")], players=3)
    assert s.matrix.shape == (3, 3) and s.net.tolist() == [4, -3, -1]
    with pytest.raises(ValueError):
        s.net[0] = 1                                       # read-only
    assert Settlement((t,)).net.tolist() == [3, -3, 0, 0]
    assert s == Settlement.from_transfers(s.transfers, players=3)
