"""The compiled single-hand fast paths of score and max_fan (issue 11).

A call the fast path takes (a hand as an array of native ints, 27 ints or an ASCII tile string,
melds, plain option values) gets its numbers from the C kernels and a result whose costly
fields (``items`` / ``decomposition``, ``waits``) are built on first read. Here: the fast path
equals the general path (forced by disabling the fast path) and the pure-Python twin on random
wins and ready hands under random rules, void suits, flags and short hands; the lazy results
behave like the eager ones (equality, hash, repr, pickling, immutability, input copied); bad
inputs raise exactly what the general path raises.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjfast.rules import PRESETS, Rules
from mjfast.scoring import FanResult, max_fan, score, single
from mjfast.scoring.types import LAZY
from mjfast.tiles import format_hand, format_tile, parse_hand
from tests.scoring.test_scoring_diff import random_hands, rules_st, situations, void_st, winning_hands
from tests.twins import TWINS

SCORE, MAX_FAN = TWINS["score"], TWINS["max_fan"]
SETS = st.sampled_from([4, 4, 4, 3, 2])
RULES_ARG = rules_st() | st.none() | st.sampled_from(PRESETS)


@contextmanager
def general_path() -> Iterator[None]:
    """Calls inside take the general (Python) path: the fast paths answer None."""
    saved = single._score_one, single._max_fan_fast
    single._score_one = single._max_fan_fast = lambda *_: None  # type: ignore[assignment]
    try:
        yield
    finally:
        single._score_one, single._max_fan_fast = saved


def general(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    with general_path():
        return fn(*args, **kwargs)


def fast_spellings(counts: list[int]) -> list[Any]:
    """The hand in each form the fast path reads."""
    return [np.array(counts, np.uint8), np.array(counts, np.int64), counts, tuple(counts),
            format_hand(counts) if any(counts) else "", np.array(counts, np.uint8).repeat(2)[::2]]


def fields(result: Any) -> tuple[Any, ...]:
    return tuple(getattr(result, f.name) for f in dataclasses.fields(result))


def assert_same(fast: Any, want: Any) -> None:
    """Equal field by field, equal as objects, printed alike."""
    assert fields(fast) == fields(want)
    assert fast == want and hash(fast) == hash(want)
    assert repr(fast) == repr(want) and str(fast) == str(want)


# ------------------------------------------------------------------------------------ score

@settings(max_examples=400)
@given(data=st.data(), sets=SETS, rules=RULES_ARG, void=void_st)
def test_score_fast_equals_general_and_twin_on_wins(data, sets, rules, void):
    c, melds = data.draw(winning_hands(allow_three_suits=True, sets=sets))
    w, flags = data.draw(situations(c, melds))
    kwargs = dict(melds=list(melds) or None, void_suit=void, rules=rules, sets=sets, **flags)
    want = general(score, c, win_tile=w, **kwargs)
    ref_rules = rules if rules is None or isinstance(rules, Rules) else Rules.preset(rules)
    assert want == SCORE.ref(c, win_tile=w, **{**kwargs, "rules": ref_rules})
    for hand in fast_spellings(c):
        for tile in (w, format_tile(w)):
            got = score(hand, win_tile=tile, **kwargs)
            assert (LAZY in got.__dict__) == got.is_win
            assert_same(got, want)


@settings(max_examples=200)
@given(data=st.data(), sets=SETS, rules=rules_st(), void=void_st)
def test_score_fast_equals_general_on_random_hands(data, sets, rules, void):
    c, melds = data.draw(random_hands(complete=True, sets=sets))
    w = data.draw(st.sampled_from([k for k in range(27) if c[k]]))
    flag = data.draw(st.sampled_from(["self_drawn", "last_tile", "after_kong_discard", None]))
    kwargs: dict[str, Any] = dict(melds=list(melds) or None, void_suit=void, rules=rules,
                                  sets=sets)
    if flag:
        kwargs[flag] = True
    want = general(score, c, win_tile=w, **kwargs)
    assert_same(score(np.array(c, np.uint8), win_tile=w, **kwargs), want)
    assert_same(score(format_hand(c), win_tile=format_tile(w), **kwargs), want)


# ---------------------------------------------------------------------------------- max_fan

@settings(max_examples=300)
@given(data=st.data(), sets=SETS, rules=RULES_ARG, void=void_st)
def test_max_fan_fast_equals_general_and_twin(data, sets, rules, void):
    c, melds = data.draw(winning_hands(allow_three_suits=True, sets=sets))
    k = data.draw(st.sampled_from([k for k in range(27) if c[k]]))
    c[k] -= 1
    if data.draw(st.booleans()):  # a random hand, mostly not ready
        c, melds = data.draw(random_hands(complete=False, sets=sets))
    held = [c[i] + sum(m.size for m in melds if m.tile == i) for i in range(27)]
    visible = data.draw(st.none() | st.lists(st.integers(0, 4), min_size=27, max_size=27))
    if visible is not None:
        visible = [min(v, 4 - h) for v, h in zip(visible, held)]
    kwargs = dict(melds=list(melds) or None, void_suit=void, rules=rules, sets=sets)
    want = general(max_fan, c, visible=visible, **kwargs)
    ref_rules = rules if rules is None or isinstance(rules, Rules) else Rules.preset(rules)
    assert want == MAX_FAN.ref(c, visible=visible, **{**kwargs, "rules": ref_rules})
    for hand in fast_spellings(c):
        seen = visible
        if visible is not None and isinstance(hand, np.ndarray):
            seen = np.array(visible, np.uint8)
        got = max_fan(hand, visible=seen, **kwargs)
        assert LAZY in got.__dict__
        assert_same(got, want)


# -------------------------------------------------------------------------------- laziness

def _lazy_results() -> list[Any]:
    hand = parse_hand("123333m45566799s")
    return [score(hand, win_tile="9s", rules="qq"), max_fan("1112345678999m"),
            score("123m 234m 678m 99m", win_tile="9m", melds=["kong_concealed:5m"],
                  after_kong=True, rules=Rules(men_qing=1)),
            max_fan("1345678999m", melds=["pung:1m"]),
            max_fan("1112345678999m", visible="1m", rules=Rules(si_jiao=True)),
            max_fan("1357m2468p13579s", void_suit="s")]  # not ready: waits empty, still lazy


@pytest.mark.parametrize("index", range(6))
def test_lazy_results_behave_like_eager_ones(index):
    result = _lazy_results()[index]
    assert LAZY in result.__dict__
    state = result.__getstate__()
    assert LAZY not in state and set(state) == {f.name for f in dataclasses.fields(result)}
    for twin in (pickle.loads(pickle.dumps(_lazy_results()[index])),
                 copy.copy(_lazy_results()[index]), copy.deepcopy(_lazy_results()[index]),
                 dataclasses.replace(_lazy_results()[index])):
        assert LAZY not in twin.__dict__ and twin == result and hash(twin) == hash(result)
    assert dataclasses.asdict(_lazy_results()[index]) == dataclasses.asdict(result)
    name = "items" if isinstance(result, FanResult) else "waits"
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(_lazy_results()[index], name, ())
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(_lazy_results()[index], name)


def test_a_lazy_result_reads_its_own_copy_of_the_hand():
    hand, ready = parse_hand("22244455577799m"), parse_hand("2224445557779m")
    r, m = score(hand, win_tile="9m"), max_fan(ready)
    hand[:] = ready[:] = 0
    assert str(r.decomposition) == "222m 444m 555m 777m 99m" and r.items[0][1] == 3
    assert [format_tile(w.tile) for w in m.waits] == ["8m", "9m"]


def test_fields_are_built_once_on_first_read():
    r = score("11224444557799m", win_tile="1m")
    assert set(r.__dict__) == {LAZY, "is_win", "fan", "raw_fan", "multiplier"}
    items = r.items
    assert LAZY not in r.__dict__ and r.items is items and r.decomposition.seven_pairs
    m = max_fan("2224445557779m")
    assert (m.fan, m.payment, m.best_wait) == (3, 8, 8) and LAZY in m.__dict__
    assert [w.fan for w in m.waits] == [2, 3] and LAZY not in m.__dict__


def test_non_wins_are_the_shared_result():
    assert score(parse_hand("123m456p789s11155m"), win_tile="5m") is single.NOT_WIN


def test_rules_cache_follows_each_rules_object():
    """Many Rules objects in turn (more than the cache keeps), presets by name and None."""
    hand = parse_hand("22244455577799m")
    for round_ in range(2):
        for cap in range(70):
            rules = Rules(cap=cap % 7, fan_display_offset=round_)
            assert score(hand, win_tile=8, rules=rules) == general(score, hand, win_tile=8,
                                                                    rules=rules)
        for name in (*PRESETS, None):
            assert score(hand, win_tile=8, rules=name) == general(score, hand, win_tile=8,
                                                                   rules=name)


# ----------------------------------------------------------------------------- refusals

GOOD = "123333m45566799s"
SCORE_CALLS: list[tuple[Any, dict[str, Any]]] = [
    (np.array([5] + [0] * 26, np.uint8), {"win_tile": 0}),
    (np.array([1] * 27, np.uint8), {"win_tile": 0}),
    (np.zeros(27, np.uint8), {"win_tile": 0}),
    (np.ones(28, np.uint8), {"win_tile": 0}),
    (np.array([-1] + [0] * 26, np.int8), {"win_tile": 0}),
    (np.array([True] * 27), {"win_tile": 0}),
    (np.zeros((1, 27), np.uint8), {"win_tile": 0}),
    ([1.0] * 27, {"win_tile": 0}),
    ("123z", {"win_tile": 0}),
    ("1234m", {"win_tile": 0}),
    ("55555m", {"win_tile": 0}),
    ("12m 3", {"win_tile": 0}),
    ("123", {"win_tile": 0}),
    (GOOD, {"win_tile": "1p"}),
    (GOOD, {"win_tile": 27}),
    (GOOD, {"win_tile": -1}),
    (GOOD, {"win_tile": True}),
    (GOOD, {"win_tile": "0m"}),
    (GOOD, {"win_tile": "11m"}),
    (GOOD, {"win_tile": 1.0}),
    (GOOD, {"win_tile": 0, "void_suit": "x"}),
    (GOOD, {"win_tile": 0, "void_suit": 3}),
    (GOOD, {"win_tile": 0, "void_suit": True}),
    (GOOD, {"win_tile": 0, "rules": "nope"}),
    (GOOD, {"win_tile": 0, "rules": 3}),
    (GOOD, {"win_tile": 0, "sets": 5}),
    (GOOD, {"win_tile": 0, "sets": True}),
    (GOOD, {"win_tile": 0, "sets": 3}),
    (GOOD, {"win_tile": 0, "self_drawn": 1}),
    (GOOD, {"win_tile": 0, "self_drawn": True, "robbing_kong": True}),
    (GOOD, {"win_tile": 0, "tian_hu": True, "di_hu": True}),
    (GOOD, {"win_tile": 0, "after_kong": True}),
    (GOOD, {"win_tile": 2, "robbing_kong": True}),
    ("123m 234m 678m 99m", {"win_tile": 0, "melds": ["pung:0m"]}),
    ("123m 234m 678m 99m", {"win_tile": 0, "melds": "bogus"}),
    ("123m 234m 678m 99m", {"win_tile": 0, "melds": 5}),
    ("123m 234m 678m 99m", {"win_tile": 0, "melds": ["pung:5m", "kong:5m"]}),
    ("123m 234m 678m 99m", {"win_tile": 0, "melds": ["pung:1m", "kong:1m"]}),
    ("123m 234m 678m 99m", {"win_tile": 0, "melds": ["kong:2m"]}),
    ("123m 234m 678m 99m", {"win_tile": 0, "melds": ["pung:5m"] * 5}),
    ("123m 99m", {"win_tile": 0, "melds": ["pung:5m", "pung:6m", "pung:7m"], "sets": 2}),
    ("123m 234m 678m 99m", {"win_tile": 0, "melds": ["pung:5m"], "after_kong": True}),
    ("123m 234m 678m 99m", {"win_tile": 0, "melds": ["pung:5m"], "tian_hu": True}),
]
MAX_FAN_CALLS: list[tuple[Any, dict[str, Any]]] = [
    (np.array([5] + [0] * 26, np.uint8), {}),
    ("1112345678999m", {"visible": "11m"}),
    ("1112345678999m", {"visible": np.ones(26, np.uint8)}),
    ("1112345678999m", {"visible": "5z"}),
    ("112345678999m", {"workers": 0}),
    ("112345678999m", {"errors": "coerce"}),
    ("112345678999m", {"errors": "nope"}),
    ("112345678999m", {"best_wait": True}),
    ("112345678999m", {"out": np.empty(1, np.int16)}),
    ("112345678999m", {"void_suit": "x"}),
    ("112345678999m", {"rules": "nope"}),
    ("112345678999m", {"sets": 1}),
    ("1345678999m", {"melds": ["pung:1m", "kong:1m"]}),
    ("1345678999m", {"melds": ["kong:1m"]}),
]


def _refusal(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[type, str]:
    with pytest.raises((ValueError, TypeError)) as info:
        fn(*args, **kwargs)
    return type(info.value), str(info.value)


@pytest.mark.parametrize(("hand", "kwargs"), SCORE_CALLS)
def test_score_refusals_are_the_general_paths(hand, kwargs):
    assert _refusal(score, hand, **kwargs) == general(_refusal, score, hand, **kwargs)


@pytest.mark.parametrize(("hand", "kwargs"), MAX_FAN_CALLS)
def test_max_fan_refusals_are_the_general_paths(hand, kwargs):
    assert _refusal(max_fan, hand, **kwargs) == general(_refusal, max_fan, hand, **kwargs)


def test_threads_reading_one_lazy_result_see_its_fields():
    results = [score("11224444557799m", win_tile="1m") for _ in range(200)]
    want = general(score, "11224444557799m", win_tile="1m")

    def read(r: Any) -> tuple[Any, Any]:
        return r.items, r.decomposition

    with ThreadPoolExecutor(4) as pool:
        for r in results:
            a, b = pool.submit(read, r), pool.submit(read, r)
            assert a.result() == b.result() == (want.items, want.decomposition)
