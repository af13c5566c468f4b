"""Fuzz: Round.from_json with mutated logs (values replaced, keys dropped or added, deep nesting,
huge numbers, invalid JSON) given as text, bytes or a parsed document, and Round.to_json."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from mjfast import PlayerState, Round
from mjfast.errors import InvalidArgumentError
from tests.fuzz.hostile import FUZZ, hostile, outcome, pick


def _logs() -> list[str]:
    a = Round()
    a.kong(1, "5s", "kong_concealed")
    a.win(0, "6p", from_player=2, hands="234567m11234567p")
    a.draw([None, PlayerState("1379p137999s", melds=["kong_concealed:5s"]),
            PlayerState("4455m1688p22669s"), PlayerState("1112345678999m")])
    b = Round("qq", players=3, dealer=2)
    b.kong(2, "2s", "kong_concealed")
    b.win([0, 1], "5p", from_player=2, after_kong_discard=True,
          hands=["123456789m34555p", "112233445566m55p"])
    return [a.to_json(), b.to_json(), Round().to_json()]


LOGS = _logs()
PLACEHOLDER = "\u2603placeholder\u2603"
JSON_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(), st.text(max_size=20),
    st.sampled_from([10**4000, -1, 4, 2**63, 1e308, "5p", "kong", "win", "draw", "chengdu", [],
                     {}, [None], {"type": "win"}, {"preset": "qq", "overrides": {"cap": 10**30}},
                     {"preset": "qq", "overrides": {"base_fan": {"QI_DUI": 2**70}}}]).map(
                         copy.deepcopy),  # fresh each time: a later mutation may change it
    st.recursive(st.none() | st.integers() | st.text(max_size=5),
                 lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                     st.text(max_size=8), inner, max_size=3), max_leaves=10))
RAW = ["[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000, "1" * 5000,
       "NaN", "-Infinity", '"\\ud800"', "[" * 1000 + "]" * 999]


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into *doc* (dicts and lists), down to a depth of 12 (hostile values nest)."""
    out = [prefix]
    if len(prefix) >= 12:
        return out
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, prefix + (i,))
    return out


def _mutate(data: st.DataObject, doc: Any) -> tuple[Any, str | None, bool]:
    """Mutate *doc* in place at a random path; (doc, raw JSON text for the placeholder, whether
    to stop: a shared hostile object now sits in the document and must not be mutated)."""
    path = data.draw(st.sampled_from(_paths(doc)[1:]), label="path")
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    how = data.draw(st.sampled_from(["value", "value", "drop", "add", "raw", "python"]))
    stop = how in ("raw", "python")
    if how == "drop":
        del parent[key]
    elif how == "add" and isinstance(parent, dict):
        parent[data.draw(st.text(max_size=10), label="new key")] = data.draw(JSON_VALUES)
    elif how == "raw":
        parent[key] = PLACEHOLDER
        return doc, data.draw(pick(RAW), label="raw"), stop
    elif how == "python":  # only a parsed document can hold these
        parent[key] = data.draw(hostile(), label="python value")
    else:
        parent[key] = data.draw(JSON_VALUES, label="value")
    return doc, None, stop


@FUZZ
@given(data=st.data(), log=st.sampled_from(LOGS), rounds=st.integers(1, 3),
       form=st.sampled_from(["text", "bytes", "doc"]))
def test_from_json_mutated(data: st.DataObject, log: str, rounds: int, form: str) -> None:
    doc = json.loads(log)
    raw = None
    for _ in range(rounds):
        doc, raw, stop = _mutate(data, doc)
        if stop:
            break
    arg: Any = doc
    if form != "doc" or raw is not None:
        try:
            text = json.dumps(doc, ensure_ascii=False)
        except (TypeError, ValueError, RecursionError):  # not JSON: pass the document
            arg = doc
        else:
            text = text.replace(json.dumps(PLACEHOLDER, ensure_ascii=False), raw or "null")
            arg = text.encode("utf-8", "surrogatepass") if form == "bytes" else text
    res = outcome(lambda: Round.from_json(arg), names=("from_json",),
                  returns=lambda r: type(r) is Round)
    if res.ok:  # an accepted log replays the same after a round trip
        r: Round = res.value
        assert Round.from_json(r.to_json()).transfers == r.transfers
    else:
        assert isinstance(res.value, InvalidArgumentError) or not isinstance(res.value, ValueError)


@FUZZ
@given(value=st.one_of(hostile(), pick(RAW), st.text()))
def test_from_json_not_a_log(value: object) -> None:
    res = outcome(lambda: Round.from_json(value),  # type: ignore[arg-type]
                  names=("from_json",), returns=lambda r: type(r) is Round)
    assert not res.ok


@FUZZ
@given(kwargs=st.dictionaries(st.sampled_from(["sort_keys", "separators", "default",
                                               "ensure_ascii", "cls", "x"]), hostile(),
                              max_size=2))
def test_to_json_options(kwargs: dict[str, Any]) -> None:
    r = Round()
    r.kong(1, "5s", "kong_concealed")
    outcome(lambda: r.to_json(**kwargs), names=("to_json", *kwargs),
            returns=lambda t: type(t) is str)
