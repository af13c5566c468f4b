"""Fuzz: Rules (the constructor, preset, replace and the methods) with hostile field values."""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import mjfast
from mjfast import Fan, Rules
from mjfast.rules import MAX_AMOUNT, MAX_FAN, rules_from_json, rules_to_json
from tests.fuzz.hostile import FUZZ, hostile, outcome

FIELDS = [f.name for f in dataclasses.fields(Rules)]
GOOD: dict[str, st.SearchStrategy[Any]] = {
    "name": st.sampled_from(["chengdu", "qq", "house", ""]),
    "base_fan": st.dictionaries(st.sampled_from([f for f in Fan if f.is_base]),
                                st.integers(0, MAX_FAN), max_size=4),
    "self_draw": st.sampled_from(["add_base", "add_fan", "none"]),
    "cha_da_jiao": st.sampled_from(["max", "min"]),
    "model": st.sampled_from(["doubling", "points"]),
    "guo_shui": st.sampled_from(["off", "fan", "tile"]),
    "gang_shang_pao_kong": st.sampled_from(["transfer", "refund", "keep"]),
    "cap": st.one_of(st.none(), st.integers(0, MAX_FAN + 2)),
    "hua_zhu": st.one_of(st.none(), st.integers(0, MAX_AMOUNT)),
}
for _name in Rules._FAN_FIELDS:
    GOOD[_name] = st.integers(0, MAX_FAN)
for _name in Rules._AMOUNT_FIELDS:
    GOOD[_name] = st.integers(0, MAX_AMOUNT)
for _name in Rules._BOOL_FIELDS:
    GOOD[_name] = st.booleans()
BAD_KEYS = st.sampled_from(["fan", "Cap", "", "base_fan ", "__class__", "_hash", "rules"])
HOSTILE_FAN_TABLE = st.one_of(
    hostile(), st.dictionaries(st.one_of(st.sampled_from(list(Fan)), hostile().filter(
        lambda k: getattr(type(k), "__hash__", None) is not None)), hostile(), max_size=3),
    st.dictionaries(st.sampled_from([f.name for f in Fan] + [f.value for f in Fan] + ["xx", ""]),
                    st.integers(-1, 2**64), max_size=3))


def _check_rules(r: Rules) -> None:
    """An accepted Rules works everywhere: hash, repr, pickle, JSON, payments, scoring."""
    hash(r)
    repr(r)
    assert pickle.loads(pickle.dumps(r)) == r
    assert rules_from_json(rules_to_json(r)) == r
    for f in (0, 1, MAX_FAN):  # points pay the points themselves: 0 points pay nothing
        assert (0 if r.model == "points" else 1) <= r.multiplier(f) <= 2**MAX_FAN
    outcome(r.hua_zhu_amount, returns=lambda a: type(a) is int and 0 <= a <= MAX_AMOUNT)
    m = mjfast.max_fan("1112345678999m", rules=r)
    assert m.payment <= 2**MAX_FAN
    assert mjfast.fan("11223344556677m", "7m", rules=r, self_drawn=True) >= 0


@st.composite
def rule_fields(draw: st.DrawFn) -> tuple[dict[str, Any], bool]:
    """Keyword arguments of Rules: valid ones, some replaced by hostile values or bad keys."""
    keys = draw(st.sets(st.sampled_from(FIELDS), max_size=6))
    kw = {k: draw(GOOD[k]) for k in sorted(keys)}
    bad = draw(st.sets(st.sampled_from(FIELDS), max_size=2))
    for k in sorted(bad):
        kw[k] = draw(HOSTILE_FAN_TABLE if k == "base_fan" else hostile(), label=k)
    if draw(st.integers(0, 9)) == 0:
        kw[draw(BAD_KEYS)] = 1
    return kw, bool(bad)


@FUZZ
@given(fields=rule_fields())
def test_rules(fields: tuple[dict[str, Any], bool]) -> None:
    kw, _ = fields
    res = outcome(lambda: Rules(**kw), names=("Rules", *kw),
                  returns=lambda r: type(r) is Rules)
    if res.ok:
        _check_rules(res.value)


@FUZZ
@given(name=st.one_of(st.sampled_from(["chengdu", "qq", "points"]), hostile()),
       fields=rule_fields())
def test_rules_preset(name: object, fields: tuple[dict[str, Any], bool]) -> None:
    kw, _ = fields
    res = outcome(lambda: Rules.preset(name, **kw),  # type: ignore[arg-type]
                  names=("Rules", "preset", *kw), returns=lambda r: type(r) is Rules)
    if res.ok:
        _check_rules(res.value)


@FUZZ
@given(base=st.sampled_from([Rules(), Rules.preset("qq"), Rules(cap=None), Rules.preset("points")]),
       fields=rule_fields())
def test_rules_replace(base: Rules, fields: tuple[dict[str, Any], bool]) -> None:
    kw, _ = fields
    res = outcome(lambda: base.replace(**kw), names=("Rules", *kw),
                  returns=lambda r: type(r) is Rules)
    if res.ok:
        _check_rules(res.value)


@FUZZ
@given(rules=st.sampled_from([Rules(), Rules.preset("qq"), Rules(cap=MAX_FAN + 1),
                              Rules.preset("points")]),
       value=st.one_of(hostile(), st.integers(-5, 2 * MAX_FAN)),
       method=st.sampled_from(["multiplier", "display_fan"]))
def test_rules_methods(rules: Rules, value: object, method: str) -> None:
    call = getattr(rules, method)
    top = 2**MAX_FAN if method == "multiplier" else None
    outcome(lambda: call(value), names=(method, "fan"),
            returns=lambda r: type(r) is int and 0 <= r and (top is None or r <= top))
