"""The differential harness itself (tests/twins.py): the twins share a signature, the harness
fails when the two sides disagree, and both sides refuse the same bad input.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any

import numpy as np
import pytest

from mjfast.tiles import parse_hand
from tests.twins import TWINS, Twin, agree, check, check_refused, check_spellings, spellings

# Options only a fast function has: threads, output buffers, batch error policy, batch outputs.
FAST_ONLY = {"workers", "out", "errors", "best_wait", "best_tile"}

REFERENCE_TWINS = sorted(name for name, twin in TWINS.items()
                         if twin.ref.__module__.startswith("mjfast._ref"))


def test_registry_covers_every_public_twin() -> None:
    assert set(REFERENCE_TWINS) == {
        "shanten", "is_win", "waits", "effective_tiles", "discards", "advise", "score",
        "decompose", "max_fan", "settle_draw", "round"}
    assert {"fan rows", "max_fan rows", "shanten rows", "suit_costs"} <= set(TWINS)


@pytest.mark.parametrize("name", REFERENCE_TWINS)
def test_reference_has_the_fast_signature(name: str) -> None:
    """Same parameters, in the same order, of the same kind, with the same defaults; the fast
    function may add only its batch options."""
    twin = TWINS[name]
    fast = inspect.signature(twin.fast).parameters
    ref = inspect.signature(twin.ref).parameters
    shared = [p for p in fast if p not in FAST_ONLY]
    assert list(ref) == shared, (list(ref), shared)
    for p in shared:
        assert (ref[p].kind, ref[p].default) == (fast[p].kind, fast[p].default), p


# ------------------------------------------------------------------------ the harness fails


def _off_by_one(*args: Any, **kwargs: Any) -> int:
    return TWINS["shanten"].ref(*args, **kwargs) + 1


def _refuses(*args: Any, **kwargs: Any) -> int:
    raise ValueError("refused")


READY = "123m456m789m11p23p"


def test_check_fails_on_a_different_answer() -> None:
    broken = dataclasses.replace(TWINS["shanten"], ref=_off_by_one)
    with pytest.raises(AssertionError, match=r"fast 0 != reference 1"):
        check(broken, READY)
    with pytest.raises(AssertionError, match=r"fast 0 != reference 1"):
        check_spellings(broken, spellings(parse_hand(READY)))
    with pytest.raises(AssertionError, match=r"fast 0 != reference 1"):
        agree(broken, 0, READY)


def test_check_fails_on_a_refusal_of_either_side() -> None:
    with pytest.raises(AssertionError, match="the reference side refused"):
        check(dataclasses.replace(TWINS["shanten"], ref=_refuses), READY)
    with pytest.raises(AssertionError, match="the fast side refused"):
        check(dataclasses.replace(TWINS["shanten"], fast=_refuses), READY)
    with pytest.raises(AssertionError, match="the reference side answered"):
        check_refused(dataclasses.replace(TWINS["shanten"], fast=_refuses), READY)


def test_check_fails_on_the_wrong_answer_type() -> None:
    numpy_int = dataclasses.replace(TWINS["shanten"],
                                    fast=lambda *a, **k: np.int8(TWINS["shanten"].fast(*a, **k)))
    with pytest.raises(AssertionError, match="unexpected fast answer"):
        check(numpy_int, READY)


def test_rows_name_the_first_difference() -> None:
    twin = TWINS["shanten rows"]
    hands = np.stack([parse_hand(READY), parse_hand("123m456m789m11p29p")])
    assert check(twin, hands) == [0, 1]
    shifted = Twin("shifted", lambda h: twin.fast(h) + np.array([0, 1], np.int8), twin.ref,
                   expect=twin.expect)
    with pytest.raises(AssertionError, match=r"first at \[1\]: fast 2, reference 1"):
        check(shifted, hands)


# ------------------------------------------------------------------------ refused by both


BAD_CORE = [  # (twin, args, kwargs): input both sides refuse
    ("shanten", ("11111m23456789p",), {}),                       # five 1m
    ("shanten", ("123m456m789m11p2p",), {}),                     # 12 tiles
    ("shanten", (READY,), {"form": "thirteen_orphans"}),
    ("shanten", (READY,), {"void_suit": 0, "void_rule": False}),
    ("shanten", (READY,), {"void_suit": 3}),
    ("is_win", ("123m456m789m11p23p4p",), {"melds": ["pung:1m"]}),  # 14 + a meld
    ("waits", ("123m456m789m11p23p4p",), {}),                    # waits needs 13 tiles
    ("effective_tiles", (READY,), {"visible": [0] * 26}),
    ("discards", (READY,), {}),                                  # discards needs 14 tiles
    ("advise", (READY,), {}),
    ("shanten", ("123m456m789m1p",), {"melds": [0] * 26 + [2]}),  # 2 is no meld
    ("score", ("22244455577799m",), {"win_tile": "1p"}),          # not in the hand
    ("score", ("22244455577799m",), {"win_tile": "9m", "tian_hu": True, "di_hu": True}),
    ("decompose", ("2224445557779m9p9p",), {}),                   # 15 tiles
    ("max_fan", ("22244455577799m",), {}),                        # 14 tiles
]


@pytest.mark.parametrize("name,args,kwargs", BAD_CORE)
def test_bad_input_is_refused_by_both(name: str, args: tuple[Any, ...],
                                      kwargs: dict[str, Any]) -> None:
    check_refused(TWINS[name], *args, **kwargs)
