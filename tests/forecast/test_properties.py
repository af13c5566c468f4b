"""Properties of forecasts, a Monte Carlo check of the model, and the API's argument handling."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

import mjfast
from mjfast._ref.forecast import Model
from mjfast.errors import InvalidArgumentError, InvalidHandError
from mjfast.forecast import choose_void, forecast

HANDS_14 = ["123m456m789m23p55p9s", "1123m456m789p235p9s", "11223344m55669p9s", "12m456m789m23p55p19s"]


@pytest.mark.parametrize("hand", HANDS_14)
@pytest.mark.parametrize("exchanges", [0, None])
def test_curve_properties(hand: str, exchanges: int | None) -> None:
    f = forecast(hand, draws=4, void_suit="s", exchanges=exchanges, objective="value")
    legal = ~np.isnan(f.value)
    r, w = f.ready[legal], f.win[legal]
    assert ((0 <= w) & (w <= r + 1e-15) & (r <= 1 + 1e-12)).all()
    assert (np.diff(w, axis=1) >= -1e-15).all()  # winning is final
    assert (f.value[legal] >= 0).all()
    held = mjfast.parse_hand(hand)
    if held[18:].any():  # holds a void tile (s): only void tiles may go
        assert set(np.flatnonzero(legal)) == set(np.flatnonzero(held[18:]) + 18)
    else:
        assert set(np.flatnonzero(legal)) == set(np.flatnonzero(held))


def test_ready_hand_one_draw() -> None:
    """A ready hand's one-draw win probability is its live waits over the pool."""
    hand, visible = "123m456m789m23p55p", "1p4p4p"
    f = forecast(hand, draws=1, visible=visible)
    pool = 108 - 13 - 3
    left = (4 - 1) + (4 - 2)  # 1p: one seen, 4p: two seen
    assert f.win[0] == pytest.approx(left / pool, abs=1e-15)
    assert f.ready[0] == pytest.approx(1.0, abs=1e-15)


def test_no_win_reachable() -> None:
    f = forecast("1379m1379p1379s1m", draws=3, void_suit="s")  # 6-shanten, 3 draws
    assert f.value == 0 and not f.win.any() and not f.ready.any()
    f = forecast("123m456m789m23p55p", draws=0)
    assert f.ready.shape == (0,) and f.value == 0


def test_void_suit_discard_rule() -> None:
    f = forecast("123m456m789m23p55p9s", draws=2, void_suit=2)
    assert f.best_discard == mjfast.parse_tile("9s")
    assert np.isnan(f.value[:18]).all() and not np.isnan(f.value[26])


def test_monte_carlo_agrees() -> None:
    """Play the model with the twin's policy and compare the engine's curves within 5 sigma."""
    for hand, draws, exchanges, back in (("1123m456m789p23p9p", 8, 0, False),
                                         ("1123m456m789p23p9p", 3, None, False)):
        f = forecast(hand, draws=draws, void_suit="s", exchanges=exchanges, backward=back,
                     objective="value")
        model = Model(hand, void_suit=2, exchanges=exchanges, backward=back, objective="value")
        rng = random.Random(20261130)
        kinds = list(range(27))
        n = 4000
        won = np.zeros(draws)
        ready = np.zeros(draws)
        paid = 0.0
        start = (model.hand, 0)  # (hand, exchanges spent)
        for _ in range(n):
            x: tuple[tuple[int, ...], int] | None = start
            for j in range(draws):
                if x is not None:
                    k = rng.choices(kinds, weights=model.pool)[0]
                    x, pay = model.step(x, k, draws - j)
                    paid += pay
                won[j] += x is None
                ready[j] += x is None or model.sh(x[0]) <= 0
        for est, exact in ((won / n, f.win), (ready / n, f.ready)):
            sigma = np.sqrt(np.maximum(exact * (1 - exact), 1e-4) / n)
            assert (np.abs(est - exact) <= 5 * sigma).all(), (exchanges, est, exact)
        assert math.isclose(paid / n, f.value, abs_tol=5 * 3 * math.sqrt(f.value / n) + 1e-9)


def test_batch_matches_single() -> None:
    hands = np.stack([mjfast.parse_hand(h) for h in HANDS_14])
    batch = forecast(hands, draws=3, exchanges=0, workers=2)
    assert batch.ready.shape == (4, 27, 3) and batch.best_discard.shape == (4,)
    for i, h in enumerate(HANDS_14):
        one = forecast(h, draws=3, exchanges=0)
        np.testing.assert_array_equal(batch.ready[i], one.ready)
        np.testing.assert_array_equal(batch.value[i], one.value)
        assert batch.best_discard[i] == one.best_discard


def test_arguments_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="draws"):
        forecast("123m456m789m23p55p", draws=28)
    with pytest.raises(InvalidArgumentError, match="objective"):
        forecast("123m456m789m23p55p", draws=2, objective="fan")
    for bad in (True, False, -1, "1", 1.0):
        with pytest.raises(InvalidArgumentError, match="exchanges"):
            forecast("123m456m789m23p55p", draws=2, exchanges=bad)
    with pytest.raises(InvalidHandError, match=r"hands\[1\]"):
        forecast(np.stack([mjfast.parse_hand("123m456m789m23p55p"),
                           mjfast.parse_hand("123m456m789m23p55p9s")]), draws=2)
    with pytest.raises(InvalidHandError, match="concealed tiles"):
        forecast("123m456m789m23p5p", draws=2)


def test_choose_void_ranks() -> None:
    ranked = choose_void("123456789m123p9s", draws=4, exchanges=0)
    assert [c.suit for c in ranked] == [2, 1, 0]
    assert ranked[0].win >= ranked[1].win >= ranked[2].win
    assert ranked[0].discard is None
    ranked = choose_void("123456789m1234p9s", draws=3, exchanges=0)  # 14 tiles
    assert ranked[0].suit == 2 and ranked[0].discard == mjfast.parse_tile("9s")


def test_zero_rows() -> None:
    """An empty batch gives empty curves (mjfast.dask checks options on zero rows)."""
    f = forecast(np.empty((0, 27), np.uint8), draws=3)
    assert f.win.shape == (0, 3) and f.ready.shape == (0, 3) and np.shape(f.value) == (0,)
