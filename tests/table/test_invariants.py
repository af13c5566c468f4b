"""Invariants over self-played hands (RULES.md section 10): tiles conserved at every step, no
kind above 4, money sums to zero, every win a legal win (re-checked with ``score``), the 定缺
discard rule, event logs that replay through ``Round.from_json``, same seed -> same game.

``MJFAST_TABLE_HANDS`` scales the number of hands played by the Python engine (default 120);
``MJFAST_TABLE_C_HANDS`` those the C engine plays checking itself at every step (default
100000, the issue's count per CI run).
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from mjfast import Round, Rules, score
from mjfast._args import as_rules
from mjfast.settlement.model import sets_for
from mjfast.table import PLAYERS, Table
from mjfast.table.cengine import PLAYER_KINDS, run_selfplay

HANDS = int(os.environ.get("MJFAST_TABLE_HANDS", "120"))
C_HANDS = int(os.environ.get("MJFAST_TABLE_C_HANDS", "100000"))
SETUPS = [  # (players, rules, seats)
    (4, "chengdu", ("efficient",) * 4),
    (4, Rules(guo_shui="fan", zui_hou_bi_hu=True), ("efficient", "random") * 2),
    (3, "qq", ("efficient", "random", "efficient")),
    (2, Rules(jia_jia_you=True, hai_di=1), ("random", "efficient")),
    (5, Rules(jue_zhang=1, di_hu_on_discard=True, guo_shui="tile"), ("efficient", "random") * 2
     + ("efficient",)),
    (6, Rules(ding_que=False, xue_zhan=False), ("efficient", "random") * 3),
]


def play_checked(n: int, rules: object, seats: tuple[str, ...], seed: int) -> Table:
    t = Table(rules, players=n, seed=seed)
    rng = np.random.default_rng(seed)
    while not t.is_over:
        p = t.current_player
        s = t.state
        held_void = t.phase == "turn" and s.void_held(p)
        a = PLAYERS[seats[p]](t.observation(p), t.legal_actions(p), rng)
        t.step(a)
        if held_void and a < 27:
            assert a // 9 == s.void[p], "定缺: a void tile was held, another was discarded"
        total = s.tile_total()
        assert (total == 4).all(), f"tiles not conserved: {total.tolist()}"
        assert (s.hands <= 4).all() and int(s.scores.sum()) == 0
    return t


def check_wins(t: Table) -> None:
    rules = t.rules
    for ev in t.round.events:
        if ev["type"] != "win":
            continue
        many = isinstance(ev["players"], list)
        for i in range(len(ev["players"]) if many else 1):
            flags = {k: ev[k][i] if isinstance(ev.get(k), list) else True
                     for k in ("after_kong", "after_kong_discard", "robbing_kong", "last_tile",
                               "tian_hu", "di_hu", "jue_zhang") if ev.get(k)}
            hand, melds, void = ((ev["hands"][i], ev["melds"][i], ev["void_suit"][i]) if many
                                 else (ev["hands"], ev["melds"], ev["void_suit"]))
            res = score(hand, win_tile=ev["tile"], melds=melds, void_suit=void,
                        self_drawn="from_player" not in ev, rules=rules,
                        sets=sets_for(t.players), **flags)
            assert res.is_win, ev


@pytest.mark.parametrize("setup", range(len(SETUPS)))
def test_self_played_hands_keep_every_invariant(setup):
    n, rules, seats = SETUPS[setup]
    for seed in range(setup * 10**6, setup * 10**6 + max(1, HANDS // len(SETUPS))):
        t = play_checked(n, rules, seats, seed)
        check_wins(t)
        replay = Round.from_json(t.to_json())
        assert replay.transfers == t.round.transfers
        assert replay.net.tolist() == t.scores.tolist()
        assert len(t.round.winners) <= n - 1


def test_same_seed_same_game():
    for seed in (1, 2):
        a = play_checked(4, "chengdu", ("efficient", "random") * 2, seed)
        b = play_checked(4, "chengdu", ("efficient", "random") * 2, seed)
        assert a.to_json() == b.to_json()
    assert play_checked(4, None, ("random",) * 4, 1).to_json() != \
        play_checked(4, None, ("random",) * 4, 2).to_json()


C_SETUPS = [  # (seats, rules) for the compiled engine's own checks
    (("random",) * 4, "chengdu"),
    (("efficient", "random") * 2, Rules(guo_shui="fan", zui_hou_bi_hu=True)),
    (("random", "efficient", "random"), "qq"),
    (("random", "random"), Rules(jia_jia_you=True, si_jiao=True)),
    (("random",) * 5, "points"),    # the short hands of 5 and 6 seats
    (("efficient", "random") * 3, Rules(qiang_gang_transfer=True, jia_jia_you=True)),
]


@pytest.mark.parametrize("setup", range(len(C_SETUPS)))
def test_c_engine_keeps_every_invariant_at_every_step(setup):
    """The C engine checks itself after every step (tiles, counts, money, wins that score, the
    定缺 rule). The setups with efficient seats (slower) play 1% of the hands each, the random
    ones 32% each."""
    seats, rules = C_SETUPS[setup]
    kinds = [PLAYER_KINDS[s] for s in seats]
    hands = max(100, C_HANDS * (1 if "efficient" in seats else 32) // 100)
    out, _ = run_selfplay(hands, kinds, as_rules(rules), setup, 2, False, check=True)
    assert (out["net"].sum(axis=1) == 0).all()
