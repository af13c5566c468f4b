"""Short hands (RULES.md 7: 3 sets at a 5-player table, 2 at a 6-player table) through the fan:
score, decompose and max_fan against their pure-Python twins (mjfast._ref.scoring), the batch
kernels row by row against the single-hand scorer, known answers, and the refusals of sizes that
do not fit the sets.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjfast.errors import InvalidHandError
from mjfast.rules import Rules
from mjfast.scoring import batch as fan_batch
from mjfast.scoring import decompose, max_fan, score
from mjfast.tiles import format_tile, parse_hand
from tests.scoring.test_scoring_diff import random_hands, rules_st, situations, void_st, winning_hands
from tests.twins import TWINS, check, check_refused

SHORT = st.sampled_from([2, 3])


@settings(max_examples=300)
@given(data=st.data(), sets=SHORT, rules=rules_st(), void=void_st)
def test_score_and_decompose_match_ref(data, sets, rules, void):
    c, melds = data.draw(winning_hands(allow_three_suits=True, sets=sets))
    w, flags = data.draw(situations(c, melds))
    fast = check(TWINS["score"], c, win_tile=w, melds=melds, void_suit=void, rules=rules,
                 sets=sets, **flags)
    readings = check(TWINS["decompose"], c, melds=melds, sets=sets)
    assert readings and not any(d.seven_pairs for d in readings)
    if fast.is_win:
        assert fast.decomposition in readings
    assert fan_batch.fan(c, w, melds=melds, void_suit=void, rules=rules, sets=sets,
                         **flags) == (fast.fan if fast.is_win else -1)


@settings(max_examples=200)
@given(data=st.data(), sets=SHORT, rules=rules_st())
def test_max_fan_matches_ref(data, sets, rules):
    c, melds = data.draw(winning_hands(sets=sets))
    t = data.draw(st.sampled_from([k for k in range(27) if c[k]]))
    c[t] -= 1  # a ready hand (or not, when the pair was the only reading of t)
    check(TWINS["max_fan"], c, melds=melds, rules=rules, sets=sets)
    c2, melds2 = data.draw(random_hands(complete=False, sets=sets))
    check(TWINS["max_fan"], c2, melds=melds2, rules=rules, sets=sets)


@settings(max_examples=40)
@given(data=st.data(), sets=SHORT, rules=rules_st())
def test_batch_kernels_equal_rows(data, sets, rules):
    wins = [data.draw(winning_hands(sets=sets)) for _ in range(6)]
    hands = np.array([c for c, _ in wins], np.uint8)
    melds = np.zeros_like(hands)
    for k, (_, ms) in enumerate(wins):
        for m in ms:
            melds[k, m.tile] = m.size
    win_tiles = np.array([int(np.nonzero(h)[0][0]) for h in hands], np.int8)
    check(TWINS["fan rows"], hands, win_tiles, melds=melds, rules=rules, sets=sets)
    ready = hands.copy()
    ready[np.arange(len(ready)), win_tiles] -= 1
    check(TWINS["max_fan rows/fast"], ready, melds=melds, rules=rules, sets=sets,
          best_wait=True)


@pytest.mark.parametrize(("hand", "win", "sets", "melds", "fan", "reading"), [
    ("123m444m55p", "5p", 2, None, 0, "123m 444m 55p"),                      # 平胡
    ("222m444m55m", "5m", 2, None, 3, "222m 444m 55m"),                      # 清对
    ("44m", "4m", 2, ["pung:2m", "kong:9m"], 4, "44m [pung:2m] [kong:9m]"),  # 清对 + 1 root
    ("123m456m789m11m", "1m", 3, None, 2, "123m 456m 789m 11m"),             # 清一色
    ("111m456m789m11p", "1m", 3, None, 0, "111m 456m 789m 11p"),             # 平胡
])
def test_known_fans(hand, win, sets, melds, fan, reading):
    r = score(hand, win_tile=win, sets=sets, melds=melds)
    assert (r.raw_fan, str(r.decomposition)) == (fan, reading)


def test_no_seven_pairs_and_jin_gou_diao_with_every_set_melded():
    assert not score("11335577m", win_tile="7m", sets=2).is_win
    assert decompose("11335577m", sets=2) == []
    rules = Rules.preset("chengdu", jin_gou_diao=True)
    r = score("55p", win_tile="5p", melds=["pung:1p", "pung:9p"], sets=2, rules=rules)
    assert [(f.name, n) for f, n in r.items] == [("QING_JIN_GOU_DIAO", 4)]


def test_max_fan_short():
    m = max_fan("2224449m", sets=2)
    assert (m.fan, format_tile(m.best_wait)) == (3, "9m")
    assert [(format_tile(w.tile), w.fan) for w in m.waits] == [("9m", 3)]
    hands = np.stack([parse_hand("2224449m"), parse_hand("1234567m")])
    f, best = fan_batch.max_fan(hands, sets=2, best_wait=True)
    assert f.tolist() == [3, 2] and best.tolist() == [8, 0]


def test_sizes_that_do_not_fit_the_sets():
    with pytest.raises(InvalidHandError, match=r"expected 8 \(8 - 3m, the winning tile"):
        score("123m456m789m11p22p", win_tile="1m", sets=2)
    with pytest.raises(InvalidHandError, match=r"hands\[0\]: 14 concealed tiles .* expected 11 "
                                               r"\(sets=3\)"):
        fan_batch.fan(np.stack([parse_hand("123m456m789m11p222p")]), "1m", sets=3)
    with pytest.raises(InvalidHandError, match=r"3 melds \(max 2"):
        max_fan("5m", melds=["pung:1m", "pung:2m", "pung:3m"], sets=2)
    check_refused(TWINS["score"], "123m444m55p", win_tile="5p", sets=3)
    check_refused(TWINS["max_fan"], "123m444m5p", sets=5)
