"""Fuzz: mjfast.dask (arrays, forecast, dataframes) with hostile arguments and rows, computed on
the synchronous scheduler (no cluster): every refusal is documented and names its argument, a
coerced bad row is marked, never an abort (issue 23, items 6 and 7)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

da = pytest.importorskip("dask.array")
pd = pytest.importorskip("pandas")
mdask = pytest.importorskip("mjfast.dask")

from mjfast import datagen, format_hand  # noqa: E402
from tests.fuzz.hostile import FUZZ, hostile, outcome  # noqa: E402

H13 = datagen.ready_hands(12, seed=3)
NAMES = ("shanten", "waits", "is_win", "effective_tiles", "discards", "max_fan")
OPTIONS = ("void_suit", "form", "errors", "void_rule", "sets", "rules", "visible")


@st.composite
def _counts(draw: st.DrawFn) -> np.ndarray:
    """Twelve 13-tile hands, some rows made bad: counts a uint8 holds or not, in a wide dtype."""
    dtype = draw(st.sampled_from([np.uint8, np.int16, np.int64]))
    h = H13.astype(dtype)
    for _ in range(draw(st.integers(0, 3))):
        i, k = draw(st.integers(0, 11)), draw(st.integers(0, 26))
        info = np.iinfo(dtype)
        h[i, k] = draw(st.integers(int(info.min), int(info.max)))
    return h


@FUZZ
@given(data=st.data(), hands=_counts())
def test_arrays(data: st.DataObject, hands: np.ndarray) -> None:
    name = data.draw(st.sampled_from(NAMES[:4] + ("max_fan",)), label="name")
    kw: dict[str, Any] = {"errors": data.draw(st.sampled_from(["raise", "coerce"]))}
    bad = data.draw(st.sets(st.sampled_from(OPTIONS[:5]), max_size=2), label="hostile")
    for key in sorted(bad):
        kw[key] = data.draw(hostile(), label=key)
    lazy = da.from_array(hands, chunks=(5, 27))
    res = outcome(lambda: mdask.apply(name, lazy, **kw).compute(scheduler="sync"),
                  names=("hands", *kw))
    if not bad and kw["errors"] == "coerce":
        assert res.ok, f"coerce aborted: {res.value!r}"


@FUZZ
@given(data=st.data())
def test_forecast(data: st.DataObject) -> None:
    kw: dict[str, Any] = {"draws": data.draw(st.integers(0, 2)), "exchanges": 0,
                          "per_discard": False, "objective": "win"}
    bad = data.draw(st.sets(st.sampled_from(sorted(kw)), max_size=1), label="hostile")
    for key in sorted(bad):
        kw[key] = data.draw(hostile(), label=key)
    draws = kw["draws"]
    if isinstance(draws, int) and not isinstance(draws, bool) and draws > 3:
        return  # valid but slow: the fuzz checks refusals
    lazy = da.from_array(H13, chunks=(5, 27))
    if data.draw(st.booleans(), label="unknown chunks"):
        lazy = lazy[lazy[:, 0] < 5]
    res = outcome(lambda: {k: v.compute(scheduler="sync") for k, v in
                           mdask.forecast(lazy, **kw).items()}, names=("hands", *kw))
    if not bad:
        assert res.ok, f"a valid call was refused: {res.value!r}"


@FUZZ
@given(data=st.data())
def test_map_partitions(data: st.DataObject) -> None:
    texts = [format_hand(h) for h in H13]
    for i in data.draw(st.sets(st.integers(0, 11), max_size=3), label="bad rows"):
        texts[i] = data.draw(st.text(max_size=20) | st.sampled_from(["1z", "55555p", ""]))
    frame = pd.DataFrame({"hand": texts})
    what = data.draw(st.lists(st.sampled_from(NAMES[:4] + ("max_fan",)), min_size=1, max_size=3))
    kw: dict[str, Any] = {"errors": "coerce"}
    bad = data.draw(st.sets(st.sampled_from(["what", "errors", "void_suit", "form"]), max_size=1),
                    label="hostile")
    for key in sorted(bad):
        value = data.draw(hostile(), label=key)
        if key == "what":
            what = value  # type: ignore[assignment]
        else:
            kw[key] = value
    res = outcome(lambda: mdask.map_partitions(frame, what, **kw), names=("what", "hands", *kw))
    if not bad:
        assert res.ok, f"coerce aborted: {res.value!r}"
