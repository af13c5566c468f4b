"""Forecasts of the short hands (``sets`` 3 and 2: 10/11 and 7/8 tiles, RULES.md 7) against the
twin: both objectives, with and without exchanges, melds and visible tiles; the API around them
(advise with draws, choose_void, the CLI)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjfast import advise, parse_hand
from mjfast._ref import core as ref_core
from mjfast._ref.forecast import advise as ref_advise
from mjfast._ref.forecast import forecast as ref_forecast
from mjfast.errors import InvalidHandError
from mjfast.forecast import choose_void, forecast
from tests.forecast.test_twin import RULES, TOL, _check, _small
from tests.strategies import Case, cases

SETS = st.sampled_from([2, 3])


def _fits(case: Case, exchanges: int | None) -> bool:
    return _small(case, exchanges) and sum(case.visible) + sum(case.held) < 108


@settings(max_examples=30)
@given(SETS.flatmap(lambda n: cases(visible=True, void_rule=True, form="all", max_melds=1, sets=n)),
       st.sampled_from([3, 2, 1, 0]), st.sampled_from(["win", "value"]), st.sampled_from(RULES))
def test_twin_without_exchanges(case: Case, draws: int, objective: str, rules: object) -> None:
    if _fits(case, exchanges=0):
        _check(case, draws, objective, 0, rules)  # type: ignore[arg-type]


@settings(max_examples=25)
@given(SETS.flatmap(lambda n: cases(visible=True, void_rule=True, form="all", max_melds=1, sets=n)),
       st.sampled_from([2, 1]), st.sampled_from(["win", "value"]), st.sampled_from(RULES))
def test_twin_with_exchanges(case: Case, draws: int, objective: str, rules: object) -> None:
    if _fits(case, exchanges=None):
        _check(case, draws, objective, None, rules)  # type: ignore[arg-type]


@pytest.mark.parametrize("sets, hand", [(2, "123m23p55p"), (2, "123m23p55p9s"),
                                        (3, "123m456m23p55p"), (3, "123m456m2p55p9s1s"),
                                        (2, "11335577m"), (3, "1122m3344m55p6p")])
@pytest.mark.parametrize("exchanges", [0, None])
def test_twin_fixed_hands(sets: int, hand: str, exchanges: int | None) -> None:
    """Hands written out, with and without a held void-suit tile (the short hands have no
    seven pairs: 11335577m is no win)."""
    counts = [int(x) for x in parse_hand(hand)]
    for void in (None, 2):
        case = Case(hand=counts, void_suit=void, sets=sets)
        for objective in ("win", "value"):
            _check(case, 3 if exchanges == 0 else 2, objective, exchanges, RULES[0])


def test_known_values() -> None:
    """123m 23p 55p with 2 sets waits on 1p / 4p: 8 of the 101 unseen tiles, each draw from the
    fixed pool (RULES.md 9)."""
    f = forecast("123m23p55p", draws=2, sets=2, exchanges=0)
    assert f.win.tolist() == pytest.approx([8 / 101, 1 - (93 / 101) ** 2], abs=1e-12)
    assert f.ready.tolist() == pytest.approx([1.0, 1.0], abs=1e-12)
    four_pairs = forecast("11335577m", draws=1, sets=2)  # no seven pairs below 4 sets
    assert four_pairs.is_win is False and four_pairs.best_discard is not None


def test_batch_and_errors() -> None:
    hands = np.array([parse_hand("123m456m23p55p"), parse_hand("123m456m2p55p9s")], np.uint8)
    f = forecast(hands, draws=2, sets=3, void_suit=2, exchanges=0)
    for i in range(2):
        want = ref_forecast(hands[i].tolist(), draws=2, sets=3, void_suit=2, exchanges=0)
        np.testing.assert_allclose(f.win[i], want["win"], rtol=0, atol=TOL)
    with pytest.raises(InvalidHandError, match=r"10 concealed tiles.*expected 7 \(sets=2\)"):
        forecast("123m456m23p55p", draws=2, sets=2)
    with pytest.raises(InvalidHandError, match=r"hands\[1\]"):
        forecast(np.array([parse_hand("123m23p55p"), parse_hand("123m456m23p55p")], np.uint8),
                 draws=1, sets=2)


@settings(max_examples=6)
@given(SETS.flatmap(lambda n: cases(size="complete", void_rule=True, form="all", max_melds=1,
                                    sets=n)),
       st.integers(1, 2), st.sampled_from(["win", "value"]))
def test_advise_by_forecast_matches_twin(case: Case, draws: int, objective: str) -> None:
    """advise(draws=..., sets=...) ranks like its twin, with the same P(win) and value."""
    if ref_core.shanten(case.hand, melds=case.ref_melds, void_suit=case.void_suit,
                        sets=case.sets) > 1:
        return
    kw = {"void_suit": case.void_suit, "draws": draws, "objective": objective,
          "exchanges": 0, "sets": case.sets}
    got = advise(case.hand, melds=case.api_melds, **kw)
    want = ref_advise(case.hand, melds=case.ref_melds, **kw)
    assert [d.tile for d in got] == [w[0] for w in want]
    for d, w in zip(got, want):
        np.testing.assert_allclose([d.win, d.value], w[4:], rtol=0, atol=TOL)


def test_choose_void_short() -> None:
    """Each void choice is the forecast of the hand under that void."""
    hand = "1234m12p55599s"
    ranked = choose_void(hand, draws=3, sets=3, exchanges=0)
    assert sorted(c.suit for c in ranked) == [0, 1, 2]
    for c in ranked:
        want = ref_forecast(parse_hand(hand).tolist(), draws=3, sets=3, void_suit=c.suit,
                            exchanges=0)
        assert c.discard == want["best_discard"]
        assert c.win == pytest.approx(want["discards"][c.discard]["win"][-1], abs=TOL)
    assert [c.score for c in ranked] == sorted((c.score for c in ranked), reverse=True)


def test_cli_analyze_and_batch(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    from mjfast.cli import main

    assert main(["analyze", "123m23p55p", "--sets", "2", "--draws", "2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["forecast"]["win"] == pytest.approx(forecast("123m23p55p", draws=2, sets=2).win)
    assert main(["analyze", "123m23p55p9s", "--sets", "2", "--void-advice", "--draws", "2",
                 "--json"]) == 0
    advice = json.loads(capsys.readouterr().out)["void_advice"]
    best = choose_void("123m23p55p9s", draws=2, sets=2)[0]
    assert advice[0]["score"] == pytest.approx(best.score, abs=TOL)
    src, out = Path(str(tmp_path)) / "hands.txt", Path(str(tmp_path)) / "f.npz"
    src.write_text("123m23p55p9s\n456m78p11s9s\n")
    assert main(["batch", str(src), str(out), "--what", "forecast", "--draws", "2",
                 "--sets", "2", "--void", "s"]) == 0
    got = np.load(out)
    f = forecast(np.array([parse_hand("123m23p55p9s"), parse_hand("456m78p11s9s")], np.uint8),
                 draws=2, sets=2, void_suit=2)
    np.testing.assert_allclose(got["win"], f.win, rtol=0, atol=TOL)
    np.testing.assert_array_equal(got["best_discard"], f.best_discard)
