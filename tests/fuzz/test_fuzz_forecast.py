"""Fuzz: forecast, choose_void and choose_plan with hostile arguments (every refusal named, nothing hangs)."""

from __future__ import annotations

import operator
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import mjfast
from tests.fuzz.hostile import FUZZ, arrays, hostile, outcome
from tests.strategies import cases


def _quick(kw: dict[str, Any]) -> bool:
    """A call whose draws and exchanges could be valid but slow is left out (the fuzz checks
    refusals, not the state cap)."""
    try:
        draws = operator.index(kw.get("draws"))  # type: ignore[arg-type]
    except TypeError:
        return True
    budget = kw.get("exchanges")
    return not (3 < draws <= 27 and not (type(budget) is int and budget == 0))


@FUZZ
@given(data=st.data())
def test_forecast(data: st.DataObject) -> None:
    sets = data.draw(st.sampled_from([4, 3, 2]), label="sets")
    case = data.draw(cases(visible=True, void_rule=True, form="all", max_melds=2, sets=sets))
    kw: dict[str, Any] = {"hand": case.hand, "draws": data.draw(st.integers(0, 2)),
                          "melds": case.api_melds, "void_suit": case.void_suit,
                          "visible": case.visible, "objective": "win", "exchanges": 0,
                          "sets": sets}
    bad = data.draw(st.sets(st.sampled_from(sorted(kw)), max_size=2), label="hostile")
    for key in sorted(bad):
        kw[key] = data.draw(hostile() | arrays(shapes=[(27,), (2, 27)]), label=key)
    if not _quick(kw):
        return
    hand = kw.pop("hand")
    res = outcome(lambda: mjfast.forecast(hand, **kw), names=("hand", "meld", *kw),
                  returns=lambda r: isinstance(r, mjfast.Forecast))
    if not bad and sum(case.visible) + sum(case.held) < 108:
        assert res.ok, f"a valid call was refused: {res.value!r}"


def _check_choices(data: st.DataObject, kw: dict[str, Any], call: Any, ranked: Any) -> None:
    """One argument of ``kw`` made hostile at most: ``call`` answers a ranked list (``ranked``
    holds of it) or refuses by name, and a call left valid is answered."""
    bad = data.draw(st.sets(st.sampled_from(sorted(kw)), max_size=1), label="hostile")
    for key in sorted(bad):
        kw[key] = data.draw(hostile(), label=key)
    if not _quick(kw):
        return
    hand = kw.pop("hand")
    res = outcome(lambda: call(hand, **kw), names=("hand", *kw),
                  returns=lambda r: isinstance(r, list) and ranked(r))
    if not bad:
        assert res.ok, f"a valid call was refused: {res.value!r}"


@FUZZ
@given(data=st.data())
def test_choose_void(data: st.DataObject) -> None:
    sets = data.draw(st.sampled_from([4, 3, 2]), label="sets")
    case = data.draw(cases(void_rule=True, form="all", melds=0, sets=sets))
    kw: dict[str, Any] = {"hand": case.hand, "draws": data.draw(st.integers(0, 1)),
                          "objective": "value", "exchanges": 0, "sets": sets}
    _check_choices(data, kw, mjfast.choose_void,
                   lambda r: len(r) == 3 and all(isinstance(c, mjfast.VoidChoice) for c in r))


@FUZZ
@given(data=st.data())
def test_choose_plan(data: st.DataObject) -> None:
    case = data.draw(cases(void_rule=True, form="all", max_melds=1))
    kw: dict[str, Any] = {"hand": case.hand, "draws": data.draw(st.integers(0, 2)),
                          "melds": case.api_melds, "void_suit": case.void_suit,
                          "objective": "value", "exchanges": 0}
    _check_choices(data, kw, mjfast.choose_plan,
                   lambda r: 1 <= len(r) <= 4 and all(isinstance(c, mjfast.PlanChoice) for c in r))


@FUZZ
@given(data=st.data())
def test_forecast_caps(data: st.DataObject) -> None:
    """Any hand, draws and exchanges under small caps: a result, or InvalidArgumentError naming
    the hand (the state, byte and work caps), never a hang or a crash."""
    from mjfast.forecast import api

    case = data.draw(cases(visible=True, void_rule=True, form="all", max_melds=2))
    caps = {"MAX_STATES": data.draw(st.integers(1, 5000)),
            "MAX_BYTES": data.draw(st.integers(1, 4 << 20)),
            "MAX_WORK": data.draw(st.integers(1, 200_000))}
    saved = {k: getattr(api, k) for k in caps}
    try:
        for k, v in caps.items():
            setattr(api, k, v)
        kw = {"draws": data.draw(st.integers(0, 27)),
              "exchanges": data.draw(st.sampled_from([0, 1, None])),
              "melds": case.api_melds, "void_suit": case.void_suit, "visible": case.visible}
        res = outcome(lambda: mjfast.forecast(case.hand, **kw), names=("hand", "visible"),
                      returns=lambda r: isinstance(r, mjfast.Forecast))
    finally:
        for k, v in saved.items():
            setattr(api, k, v)
    if not res.ok:
        assert "the forecast needs more than" in str(res.value) or "visible" in str(res.value) \
            or "nothing is left to draw" in str(res.value), res.value
