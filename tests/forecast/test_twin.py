"""The forecast engine against its twin (mjfast._ref.forecast): random small cases, both
objectives and policy classes, melds, visible tiles and held void tiles; agreement to 1e-12."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mjfast._ref import core as ref_core
from mjfast._ref.forecast import forecast as ref_forecast
from mjfast.forecast import forecast
from mjfast.rules import Rules
from tests.strategies import Case, cases

TOL = 1e-12
RULES = (Rules(), Rules.preset("qq"), Rules(self_draw="add_fan", cap=None))


def _small(case: Case, exchanges: int | None) -> bool:
    """Cases the twin finishes quickly: low shanten (and few draws, chosen by the test)."""
    sh = ref_core.shanten(case.hand, melds=case.ref_melds, void_suit=case.void_suit, sets=case.sets)
    return sh <= (2 if exchanges == 0 else 1)


def _check(case: Case, draws: int, objective: str, exchanges: int | None, rules: Rules,
           backward: bool = False, flush: int | None = None) -> None:
    kw = {"draws": draws, "void_suit": case.void_suit, "visible": case.visible,
          "objective": objective, "exchanges": exchanges, "rules": rules, "sets": case.sets,
          "backward": backward, "flush": flush}
    got = forecast(case.hand, melds=case.api_melds, **kw)
    want = ref_forecast(case.hand, melds=case.ref_melds, **kw)
    if "discards" not in want:
        np.testing.assert_allclose(got.ready, want["ready"], rtol=0, atol=TOL)
        np.testing.assert_allclose(got.win, want["win"], rtol=0, atol=TOL)
        assert abs(got.value - want["value"]) <= TOL * max(1.0, abs(want["value"]))
        return
    assert got.best_discard == want["best_discard"]
    assert got.is_win == want["is_win"]
    legal = sorted(want["discards"])
    assert np.flatnonzero(~np.isnan(got.value)).tolist() == legal
    for d, w in want["discards"].items():
        np.testing.assert_allclose(got.ready[d], w["ready"], rtol=0, atol=TOL)
        np.testing.assert_allclose(got.win[d], w["win"], rtol=0, atol=TOL)
        assert abs(got.value[d] - w["value"]) <= TOL * max(1.0, abs(w["value"]))


@settings(max_examples=40)
@given(cases(visible=True, void_rule=True, form="all", max_melds=2), st.sampled_from([3, 2, 1, 0]),
       st.sampled_from(["win", "value"]), st.sampled_from(RULES))
def test_twin_without_exchanges(case: Case, draws: int, objective: str, rules: Rules) -> None:
    if _small(case, exchanges=0) and sum(case.visible) + sum(case.held) < 108:
        _check(case, draws, objective, 0, rules)


@settings(max_examples=30)
@given(cases(visible=True, void_rule=True, form="all", max_melds=2), st.sampled_from([2, 1, 0]),
       st.sampled_from(["win", "value"]), st.sampled_from(RULES))
def test_twin_with_exchanges(case: Case, draws: int, objective: str, rules: Rules) -> None:
    if _small(case, exchanges=None) and sum(case.visible) + sum(case.held) < 108:
        _check(case, draws, objective, None, rules)


@settings(max_examples=20)
@given(cases(visible=True, void_rule=True, form="all", min_melds=1, max_melds=3),
       st.sampled_from([3, 2, 1]), st.sampled_from(["win", "value"]), st.sampled_from([0, None]))
def test_twin_with_melds(case: Case, draws: int, objective: str, exchanges: int | None) -> None:
    if _small(case, exchanges) and sum(case.visible) + sum(case.held) < 108:
        _check(case, draws if exchanges == 0 else min(draws, 2), objective, exchanges, RULES[0])


def test_twin_held_void_tiles() -> None:
    """A dealt hand holding tiles of its declared void suit: only those may go first."""
    for hand, draws in (("123m456m789m2p55p9s", 3), ("123m456m78m2p55p19s", 2),
                        ("11223344m5566p9s", 2)):
        case = Case(hand=[int(x) for x in __import__("mjfast").parse_hand(hand)], void_suit=2)
        for exchanges in (0, None):
            _check(case, draws, "win", exchanges, RULES[0])
            _check(case, draws, "value", exchanges, RULES[0])


@settings(max_examples=6)
@given(cases(size="complete", void_rule=True, form="all", max_melds=1), st.integers(1, 2),
       st.sampled_from(["win", "value"]))
def test_advise_by_forecast_matches_twin(case: Case, draws: int, objective: str) -> None:
    """advise(draws=...) ranks like its twin, with the same P(win) and value per discard."""
    from mjfast import advise
    from mjfast._ref.forecast import advise as ref_advise

    if ref_core.shanten(case.hand, melds=case.ref_melds, void_suit=case.void_suit) > 1:
        return
    kw = {"void_suit": case.void_suit, "draws": draws, "objective": objective, "exchanges": 0}
    got = advise(case.hand, melds=case.api_melds, **kw)
    want = ref_advise(case.hand, melds=case.ref_melds, **kw)
    assert [d.tile for d in got] == [w[0] for w in want]
    for d, w in zip(got, want):
        np.testing.assert_allclose([d.win, d.value], w[4:], rtol=0, atol=TOL)


def test_twin_four_of_a_kind() -> None:
    """Hands holding a kind four times (their draws take the general probes, not the void-class
    fast path, which a fifth copy would leave) and hands of every discard at a few draws."""
    import mjfast

    for hand, draws, void in (("1111m234m567m23p5p", 3, None), ("1111m234m567m23p55p", 3, None),
                              ("1111m2345m99p456p", 3, "s"), ("11112222m3456p7p", 2, None),
                              ("1111m234m567m23p5p9s", 3, "s")):
        case = Case(hand=[int(x) for x in mjfast.parse_hand(hand)],
                    void_suit=None if void is None else "mps".index(void))
        for objective in ("win", "value"):
            _check(case, draws, objective, 0, RULES[0])


def test_twin_three_suits_plan() -> None:
    """Three-suit hands without a declared void: a hand with one best void suit packs that suit's
    tiles (their identity never matters), a tie of void suits does not (m and p: its successors
    may get one); every discard, melds."""
    import mjfast

    for hand, draws, melds, objective in (("123456m78m25p99s1s", 3, None, "win"),
                                          ("123456s78s12m12p9s", 2, None, "win"),
                                          ("123456m78m25p99s13s", 2, None, "value"),
                                          ("234m567m46p19s8m", 2, "pung:5p", "value")):
        case = Case(hand=[int(x) for x in mjfast.parse_hand(hand)], void_suit=None,
                    melds=() if melds is None else (melds,))
        _check(case, draws, objective, 0, RULES[0])


def test_plan_tiles_counted_not_named() -> None:
    """Hands that differ only in which tiles of their one best void suit they hold (2p5p or 1p9p,
    void p) have the same forecast at 12 draws, to the bit."""
    a = forecast("123456m78m25p99s1s", draws=12)
    b = forecast("123456m78m19p99s1s", draws=12)
    np.testing.assert_array_equal(a.win, b.win)
    np.testing.assert_array_equal(a.ready, b.ready)
    assert a.value == b.value
