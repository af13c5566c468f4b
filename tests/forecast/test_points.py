"""The forecast's value under the ``points`` model (RULES.md 7 and 9): a win is worth its points
x 1 (no doubling, no cap, no 自摸 bonus in the preset), checked against mjfast.score and the
twin."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjfast import is_win, parse_hand, parse_tile, score
from mjfast.forecast import forecast
from mjfast.forecast.api import payments
from mjfast.rules import MAX_FAN, Rules
from tests.forecast.test_twin import TOL, _check, _small
from tests.strategies import Case, cases

POINTS = Rules.preset("points")


def test_payment_table() -> None:
    """Points x 1 by points: the table is the identity (平胡 1 point ... 天胡 8 + extras)."""
    assert POINTS.self_draw == "none" and POINTS.cap is None
    np.testing.assert_array_equal(payments(POINTS), np.arange(MAX_FAN + 1))
    bonus = Rules.preset("points", self_draw="add_base")  # a user's 自摸加底 still adds one base
    np.testing.assert_array_equal(payments(bonus), np.arange(MAX_FAN + 1) + 1)


def _one_draw_value(hand: str, rules: Rules, sets: int) -> float:
    """sum over the winning draws k of P(k) x the score's payment of the self-drawn win."""
    h = parse_hand(hand)
    left = np.maximum(4 - h.astype(int), 0)
    value = 0.0
    for k in np.flatnonzero(left):
        x = h.copy()
        x[k] += 1
        if is_win(x, sets=sets):
            value += left[k] / left.sum() * score(x, win_tile=int(k), self_drawn=True, rules=rules,
                                                  sets=sets).multiplier
    return value


@pytest.mark.parametrize("hand, sets, points", [
    ("123m456m789m23p55p", 4, {"1p": 1, "4p": 1}),                      # 平胡
    ("111m222m333m44p55p", 4, {"4p": 2, "5p": 2}),                      # 对对胡
    ("1112223334445m", 4, {"2m": 4, "3m": 4, "4m": 4, "5m": 4, "6m": 3}),  # 清一色 (+ a root)
    ("1122m3344m5566m7m", 4, {"1m": 3, "4m": 3, "7m": 4}),              # 清一色 / 清七对
    ("123m456m23p55p", 3, {"1p": 1, "4p": 1}),                          # 10 tiles, 5 players
    ("2224449m", 2, {"9m": 4}),                                         # 清对, 6 players
])
def test_ready_hand_one_draw(hand: str, sets: int, points: dict[str, int]) -> None:
    """The value of one draw is sum p_k x points(k): each win's points from mjfast.score."""
    h = parse_hand(hand)
    want = {parse_tile(t): n for t, n in points.items()}
    got = {}
    for k in range(27):
        x = h.copy()
        x[k] += 1
        if x[k] <= 4 and is_win(x, sets=sets):
            got[k] = score(x, win_tile=k, self_drawn=True, rules=POINTS, sets=sets).multiplier
    assert got == want
    f = forecast(hand, draws=1, rules=POINTS, objective="value", sets=sets)
    assert float(f.value) == pytest.approx(_one_draw_value(hand, POINTS, sets), abs=1e-12)


def test_points_differ_from_chengdu() -> None:
    """清一色 is 3 points but 2 fan (x4) in chengdu, a root 4 points but x8: same win curve,
    each value its own sum."""
    hand = "1112223334445m"
    p = forecast(hand, draws=2, rules=POINTS, objective="value", exchanges=0)
    c = forecast(hand, draws=2, rules=Rules(), objective="value", exchanges=0)
    np.testing.assert_allclose(p.win, c.win, rtol=0, atol=TOL)
    one_p = _one_draw_value(hand, POINTS, 4)
    one_c = _one_draw_value(hand, Rules(), 4) + float(p.win[0]) * (Rules().self_draw == "add_base")
    assert float(forecast(hand, draws=1, rules=Rules(), objective="value").value) == \
        pytest.approx(one_c, abs=1e-12)
    assert float(p.value) < float(c.value) and one_p < one_c


@settings(max_examples=25)
@given(st.sampled_from([4, 3, 2]).flatmap(
           lambda n: cases(visible=True, void_rule=True, form="all", max_melds=1, sets=n)),
       st.sampled_from([2, 1]), st.sampled_from([0, None]))
def test_twin_points(case: Case, draws: int, exchanges: int | None) -> None:
    """Engine and twin agree on the value-maximising play under points."""
    if _small(case, exchanges) and sum(case.visible) + sum(case.held) < 108:
        _check(case, draws, "value", exchanges, POINTS)
