"""Fuzz: tile notation (parse_hand, parse_tile, parse_melds, melds_to_counts, format_hand,
format_tile, Meld, Meld.parse) with hostile text and values."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import mjfast
from mjfast import Meld, MeldKind
from tests.fuzz.hostile import FUZZ, arrays, containers, hostile, outcome, scalars, texts

TILE_TEXT = st.text(alphabet="123456789mps 0z筒条万饼索🀇🀝🀘🀀\u3000\t:：,，", max_size=40)
MELD_TEXT = st.builds(
    lambda kind, sep, tile: f"{kind}{sep}{tile}",
    st.sampled_from(["pung", "kong", "kong_added", "kong_concealed", "碰", "暗杠", "chow", "",
                     " pung", "PUNG"]),
    st.sampled_from([":", "：", "", "::", " : "]),
    st.sampled_from(["5p", "9s", "", "55p", "0m", "1z", "🀝", "5筒", " 5p ", "5p\x00"]))
ANY_TEXT = st.one_of(texts(), TILE_TEXT, MELD_TEXT, st.text())
STYLES = st.sampled_from(["mpsz", "zh", "unicode"])


def _counts_ok(r: object) -> bool:
    return isinstance(r, np.ndarray) and r.dtype == np.uint8 and r.shape == (27,) and \
        int(r.max()) <= 4


@FUZZ
@given(s=st.one_of(ANY_TEXT, hostile()))
def test_parse_hand(s: object) -> None:
    res = outcome(lambda: mjfast.parse_hand(s), returns=_counts_ok)  # type: ignore[arg-type]
    if res.ok:  # what was read prints and reads back the same
        assert (mjfast.parse_hand(mjfast.format_hand(res.value)) == res.value).all()


@FUZZ
@given(s=st.one_of(ANY_TEXT, hostile()))
def test_parse_tile(s: object) -> None:
    res = outcome(lambda: mjfast.parse_tile(s),  # type: ignore[arg-type]
                  returns=lambda r: type(r) is int and 0 <= r < 27)
    if res.ok:
        assert mjfast.parse_tile(mjfast.format_tile(res.value)) == res.value


def _melds_value() -> st.SearchStrategy[object]:
    meld = st.builds(Meld, st.sampled_from(list(MeldKind)), st.integers(0, 26))
    return st.one_of(
        ANY_TEXT, hostile(), meld, st.lists(st.one_of(MELD_TEXT, meld, scalars()), max_size=6),
        st.lists(MELD_TEXT, max_size=6).map(", ".join), st.lists(meld, max_size=6).map(tuple))


@FUZZ
@given(melds=_melds_value())
def test_parse_melds(melds: object) -> None:
    outcome(lambda: mjfast.parse_melds(melds),  # type: ignore[arg-type]
            names=("meld",),
            returns=lambda r: type(r) is tuple and all(type(m) is Meld for m in r))


@FUZZ
@given(melds=_melds_value())
def test_melds_to_counts(melds: object) -> None:
    res = outcome(lambda: mjfast.melds_to_counts(melds),  # type: ignore[arg-type]
                  names=("meld",), returns=lambda r: _counts_ok(r) and set(r.tolist()) <= {0, 3, 4})
    if res.ok:
        assert int((res.value > 0).sum()) <= 4


@FUZZ
@given(counts=st.one_of(hostile(), arrays(shapes=[(27,), (26,), (1, 27)]),
                        st.lists(st.integers(-3, 300), min_size=27, max_size=27),
                        st.lists(st.integers(0, 4), min_size=27, max_size=27)),
       style=st.one_of(STYLES, STYLES, hostile()))
def test_format_hand(counts: object, style: object) -> None:
    res = outcome(lambda: mjfast.format_hand(counts, style),  # type: ignore[arg-type]
                  names=("counts", "style"), returns=lambda r: type(r) is str)
    if res.ok and style in ("mpsz", "zh", "unicode"):
        values = [int(c) for c in counts]  # type: ignore[attr-defined]
        if max(values) <= 4:
            assert mjfast.parse_hand(res.value).tolist() == values


@FUZZ
@given(kind=st.one_of(st.integers(-2, 28), hostile()), style=st.one_of(STYLES, hostile()))
def test_format_tile(kind: object, style: object) -> None:
    outcome(lambda: mjfast.format_tile(kind, style),  # type: ignore[arg-type]
            names=("kind", "style"), returns=lambda r: type(r) is str and len(r) <= 2)


@FUZZ
@given(kind=st.one_of(st.sampled_from(["pung", "kong", "kong_added", "kong_concealed", "碰",
                                       MeldKind.KONG]), hostile()),
       tile=st.one_of(st.integers(-1, 27), hostile()))
def test_meld(kind: object, tile: object) -> None:
    res = outcome(lambda: Meld(kind, tile),  # type: ignore[arg-type]
                  names=("meld",), returns=lambda r: type(r) is Meld)
    if res.ok:
        m: Any = res.value
        assert Meld.parse(str(m)) == m and 0 <= m.tile < 27 and type(m.tile) is int


@FUZZ
@given(s=st.one_of(MELD_TEXT, ANY_TEXT, hostile(), containers()))
def test_meld_parse(s: object) -> None:
    res = outcome(lambda: Meld.parse(s),  # type: ignore[arg-type]
                  returns=lambda r: type(r) is Meld)
    if res.ok:
        assert Meld.parse(str(res.value)) == res.value
