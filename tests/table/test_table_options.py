"""The table options of RULES.md section 7 (普通场, dealer succession, 过水不胡 scope, 最后四张必胡,
不定张 / 定缺, the qq preset's 抢杠): a stacked wall and scripted actions for each, showing the rule
firing and not firing."""

from __future__ import annotations

import numpy as np
import pytest

from mjfast import Round, Rules
from mjfast.errors import InvalidArgumentError
from mjfast.table import (
    PASS,
    WIN,
    IllegalActionError,
    Table,
    TableBatch,
    efficient_player,
    parse_action,
    selfplay,
)
from mjfast.table.legal import legal_mask

from .helpers import act, declare, idle, stack, step_batches_alike

# One discard (5p by the dealer) that seats 1 and 3 win on and seat 2 can pung.
CLAIMS = ["123m456m789m12p99p5p", "46p234s567s888s77s", "55p111s999s12p33p6p",
          "46p789p234m555m99m"]


def claims_table(rules: Rules | None = None) -> Table:
    t = Table(rules, wall=stack(CLAIMS, "9m"))
    declare(t, "smms")
    act(t, 0, "discard:5p")
    return t


@pytest.mark.parametrize("xue_zhan", [False, True])
def test_pu_tong_chang_ends_at_the_first_win_with_every_winner_of_the_discard(xue_zhan):
    t = claims_table(Rules(xue_zhan=xue_zhan))
    act(t, 1, "win")
    act(t, 2, "pass")
    act(t, 3, "win")
    assert t.scores.tolist() == [-2, 1, 0, 1]
    assert t.is_over is not xue_zhan
    if xue_zhan:                                       # 血战: seat 0 plays on
        assert (t.current_player, t.phase) == (0, "turn")
        return
    assert [e["type"] for e in t.round.events] == ["discard", "win"]   # no draw settlement
    assert t.next_dealer == 0                                # 一炮多响: the discarder deals
    assert Round.from_json(t.to_json()).is_over


def test_pu_tong_chang_single_winner_deals_next():
    t = claims_table(Rules(xue_zhan=False))
    act(t, 1, "pass")
    act(t, 2, "pass")
    act(t, 3, "win")
    assert t.is_over and t.next_dealer == 3


def test_next_dealer_is_the_first_winner_and_waits_for_the_end():
    t = claims_table()
    act(t, 1, "win")
    act(t, 2, "pass")
    act(t, 3, "pass")
    with pytest.raises(ValueError, match="not over"):
        _ = t.next_dealer
    idle(t)
    assert t.is_over and t.round.winners[0] == 1 and t.next_dealer == 1


# Seat 2 (a 花猪) and seat 3 are never ready, seat 1 is: nobody wins, the wall runs out.
DRAW = ["1357p2468p9p13s57s9s", "123m456m789m11p23p", "11223344556m9p9s", "123456789m1357p"]


@pytest.mark.parametrize("dealer", [0, 2])
def test_a_draw_with_no_winner_keeps_the_dealer(dealer):
    t = Table(wall=stack(DRAW, "1s8m2s3s4s9m"), dealer=dealer)
    for _ in range(4):
        p = t.current_player
        act(t, p, "void:" + "mps"[int(np.flatnonzero(t.legal_actions(p)[137:])[0])])
    idle(t)
    assert t.is_over and not t.round.winners and t.next_dealer == dealer


# The dealer discards 3p: seat 1 (45p) passes the win, seat 2 pungs and discards 6p.
GUO_SHUI = ["123m456m789m11p23p9m", "45p123s456s789s11s", "33p6p222s333s999s9p",
            "555m666m777m888m1m"]


@pytest.mark.parametrize(("mode", "asked"), [("off", True), ("fan", False), ("tile", True)])
def test_guo_shui_another_tile(mode, asked):
    t = Table(Rules(guo_shui=mode), wall=stack(GUO_SHUI))
    declare(t, "smmp")
    act(t, 0, "discard:3p")
    act(t, 1, "pass")
    act(t, 2, "pung:3p")
    act(t, 2, "discard:6p")
    if not asked:               # the passed win was worth 0 fan, so is this one: not asked
        assert (t.current_player, t.phase) == (3, "turn")
        assert t.state.passed_fan[1] == 0
        return
    assert (t.current_player, t.phase) == (1, "claim")  # "tile": 6p is not the passed 3p
    act(t, 1, "win")


# Seat 2 discards 3p, seat 1 (45p) passes the win; seat 3 discards the other 3p before
# seat 1 draws again.
SAME_TILE = ["123m456m789m11p22p9m", "45p123s456s789s11s", "3p111m222m335m668m",
             "3p222s333s444s556s"]


@pytest.mark.parametrize(("mode", "asked"), [("off", True), ("fan", False), ("tile", False)])
def test_guo_shui_the_same_tile(mode, asked):
    t = Table(Rules(guo_shui=mode), wall=stack(SAME_TILE, "9m7m7s"))
    declare(t, "smsm")
    act(t, 0, "discard:9m")
    act(t, 1, "discard:9m")
    act(t, 2, "discard:3p")
    act(t, 1, "pass")
    act(t, 3, "discard:3p")
    if asked:
        assert (t.current_player, t.phase) == (1, "claim")
        return
    assert (t.current_player, t.phase) == (0, "turn")
    if mode == "tile":
        assert t.state.passed_tiles[1] == 1 << 11
        idle(t, until=lambda t: t.current_player == 1 and t.phase == "turn")
        assert t.state.passed_tiles[1] == 0                 # cleared by the draw


@pytest.mark.parametrize("forced", [True, False])
def test_zui_hou_si_zhang_bites_from_the_fourth_last_tile(forced):
    t = claims_table(Rules(zui_hou_bi_hu=forced))          # seat 1 may win on 5p
    for left, must in ((5, False), (4, False), (3, forced), (0, forced)):
        t.state.pos = 108 - left
        mask = legal_mask(t.state, 1)
        assert mask[WIN] and bool(mask[PASS]) is not must, left


def test_zui_hou_si_zhang_forces_only_the_last_four_tiles():
    """Efficient players that never take a win until it is forced (or the hand ends)."""
    seen = {"forced": 0, "fifth": 0, "free": 0}
    for forced in (True, False):
        for seed in range(6):
            t = Table(Rules(zui_hou_bi_hu=forced), seed=seed)
            rng = np.random.default_rng(seed)
            while not t.is_over:
                p = t.current_player
                mask = t.legal_actions(p)
                if mask[WIN] and t.wall_left <= 4:
                    only = mask.sum() == 1
                    if t.wall_left == 4:            # the fifth from last: never forced
                        assert not only
                        seen["fifth"] += 1
                    else:
                        assert only == forced
                        seen["forced" if forced else "free"] += 1
                    if t.wall_left < 4:
                        t.step(WIN)
                        continue
                mask[WIN] = False
                t.step(efficient_player(t.observation(p), mask, rng))
    assert seen["forced"] > 0 and seen["free"] > 0


def test_bu_ding_zhang_no_declaration_no_forced_discard():
    hands = ["123m456m789m11p23p7s", "45p123s456s789s11s", "3p111m222m335m668m",
             "3p222s333s444s556s"]
    t = Table(Rules(ding_que=False), wall=stack(hands))
    assert (t.current_player, t.phase) == (0, "turn")        # no void phase
    assert t.observation(1)["void"].tolist() == [-1] * 4
    mask = t.legal_actions(0)
    assert mask[:27].sum() == 13                           # any held kind may go
    act(t, 0, "discard:1m")
    t2 = Table(wall=stack(hands))
    declare(t2, "smsm")
    assert t2.legal_actions(0)[:27].sum() == 1 and t2.legal_actions(0)[parse_action("discard:7s")]


def test_a_player_dealt_two_suits_declares_the_third():
    t = Table(wall=stack(CLAIMS, "9m"))
    assert t.legal_actions(0)[137:].tolist() == [False, False, True]   # 万筒 held: 条 void
    with pytest.raises(IllegalActionError, match="declares that suit void"):
        act(t, 0, "void:m")
    act(t, 0, "void:s")
    assert t.legal_actions(1)[137:].tolist() == [True, False, False]   # 筒条 held: 万 void
    three = Table(wall=stack(["123m456m789m11p23p7s"]))
    assert three.legal_actions(0)[137:].all()              # three suits: any


# Seat 1 pungs 7s, later adds the fourth 7s; seat 2 waits on 7s (89s) and robs it.
ROB = ["123m456m789m11p23p7s", "77s123s456s99s5p6p8p", "89s234p567p888p11p",
       "111m222m333m444m9m"]


@pytest.mark.parametrize(("preset", "paid"), [("chengdu", 2), ("qq", 1)])
def test_qq_has_no_qiang_gang_fan(preset, paid):
    t = Table(preset, wall=stack(ROB, "6m7m8m7s"))
    declare(t, "smmp")
    act(t, 0, "discard:7s")
    act(t, 1, "pung:7s")
    act(t, 2, "pass")
    for p, tile in ((1, "5p"), (2, "6m"), (3, "7m"), (0, "8m")):
        act(t, p, f"discard:{tile}")
    act(t, 1, "kong_added:7s")
    act(t, 2, "win")
    assert t.round.events[-1]["robbing_kong"] is True
    assert t.scores.tolist() == [0, -paid, paid, 0]        # 平胡 (+ 抢杠胡 1 fan in chengdu)


def test_illegal_pass_message_unchanged_by_options():
    t = claims_table(Rules(guo_shui="tile"))
    assert t.legal_actions(1)[WIN] and t.legal_actions(1)[PASS]


OPTIONS = [  # (rules, seats): each option of this file, played by both engines
    (Rules(xue_zhan=False), ("efficient",) * 4),
    (Rules(guo_shui="tile", zui_hou_bi_hu=True), ("efficient",) * 4),
    (Rules(ding_que=False), ("random",) * 3),
    (Rules.preset("qq", xue_zhan=False, guo_shui="tile"), ("efficient",) * 2),
]


@pytest.mark.parametrize("setup", range(len(OPTIONS)))
@pytest.mark.parametrize("session", [1, 3])
def test_c_engine_plays_the_options_like_the_reference(setup, session):
    rules, seats = OPTIONS[setup]
    c = selfplay(24, seats, rules=rules, seed=setup, workers=2, session=session, logs=True)
    assert c.logs is not None        # every action of the C hands was legal on the reference
    assert [Round.from_json(x).net.tolist() for x in c.logs] == c.net.tolist()
    if "random" not in seats:        # random players draw from each engine's own generator
        py = selfplay(24, seats, rules=rules, seed=setup, engine="python", session=session)
        for name in ("won", "order", "fan", "net", "turns", "drawn", "dealer"):
            assert np.array_equal(getattr(c, name), getattr(py, name)), name
        assert np.array_equal(c.session_net(), py.session_net())
    if not rules.xue_zhan:
        assert (c.order <= 0).all() and not (c.drawn & c.won.any(axis=1)).any()


def test_sessions_pass_the_deal_on():
    r = selfplay(30, ("efficient",) * 4, seed=3, session=10, logs=True)
    assert r.logs is not None and r.dealer[::10].tolist() == [0, 0, 0]
    for i in range(29):
        if i % 10 == 9:
            continue
        replay = Round.from_json(r.logs[i])
        assert replay.dealer == r.dealer[i] and replay.next_dealer == r.dealer[i + 1]
    assert len(set(r.dealer.tolist())) > 1
    assert r.session_net().shape == (3, 4)
    assert (r.session_net().sum(axis=1) == 0).all()


def test_the_c_engine_refuses_what_it_does_not_play():
    with pytest.raises(InvalidArgumentError, match="Rules.ding_que=False.*efficient"):
        selfplay(1, rules=Rules(ding_que=False))
    for name, value in (("jue_zhang", 1), ("di_hu_on_discard", True)):
        with pytest.raises(InvalidArgumentError, match=f"Rules.{name}"):
            selfplay(1, rules=Rules(**{name: value}))
        assert selfplay(1, rules=Rules(**{name: value}), engine="python").hands == 1


@pytest.mark.parametrize("rules", [Rules(ding_que=False, xue_zhan=False),
                                   Rules(guo_shui="tile", zui_hou_bi_hu=True)])
def test_c_batch_steps_the_options_like_the_python_batch(rules):
    c = TableBatch(6, 3, rules=rules, seed=5)
    py = TableBatch(6, 3, rules=rules, seed=5, engine="python")
    assert step_batches_alike(c, py, 7) > 0
