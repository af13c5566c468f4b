"""Fuzz: mjfast.stats (run_stats, chunk_hands, exact and ExactStats, binomial_interval, compare)
with hostile arguments."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from mjfast import stats
from tests.fuzz.hostile import FUZZ, arrays, hostile, outcome

EXACT_13 = stats.exact(13)
EXACT_13_FREE = stats.exact(13, void_rule=False)
SAMPLE_13 = stats.run_stats(2000, 13, seed=1)


def _small(value: object) -> bool:
    """Not a count of hands large enough to run for minutes (those are valid, just slow)."""
    try:
        return operator.index(value) <= 10**5  # type: ignore[arg-type]
    except Exception:
        return True


def _args(data: st.DataObject, good: dict[str, Any], small: tuple[str, ...] = ()) -> dict[str, Any]:
    kw = dict(good)
    for key in sorted(data.draw(st.sets(st.sampled_from(sorted(good)), min_size=1, max_size=2))):
        value = hostile()
        kw[key] = data.draw(value.filter(_small) if key in small else value, label=key)
    return kw


@FUZZ
@given(data=st.data())
def test_run_stats(data: st.DataObject) -> None:
    kw = _args(data, {"n_hands": 100, "tiles": 13, "seed": 7, "workers": 1,
                      "progress": None}, small=("n_hands", "workers"))
    outcome(lambda: stats.run_stats(**kw), names=tuple(kw),
            returns=lambda r: type(r) is dict and r["hands"] >= 1)


@FUZZ
@given(data=st.data())
def test_chunk_hands(data: st.DataObject) -> None:
    kw = _args(data, {"seed": 7, "tiles": 14, "chunk": 0, "n_hands": 10}, small=("n_hands",))
    outcome(lambda: stats.chunk_hands(**kw), names=tuple(kw),
            returns=lambda r: isinstance(r, np.ndarray) and r.dtype == np.uint8 and r.ndim == 2)


@FUZZ
@given(data=st.data())
def test_exact(data: st.DataObject) -> None:
    good = {"tiles": data.draw(st.integers(1, 14)), "void_rule": True, "form": "all",
            "wall": [4] * 9 + [0] * 18}
    kw = dict(good)
    for key in sorted(data.draw(st.sets(st.sampled_from(sorted(good)), min_size=1, max_size=2))):
        kw[key] = data.draw(hostile() | arrays(shapes=[(27,), (26,), (1, 27)]), label=key)
    tiles = kw.pop("tiles")
    outcome(lambda: stats.exact(tiles, **kw), names=("tiles", *kw),
            returns=lambda r: type(r) is stats.ExactStats)


@FUZZ
@given(event=st.one_of(hostile(), st.integers(-3, 130), st.sampled_from(
    ["wins", "ready_after_discard", "Wins"])),
       method=st.sampled_from(["count", "probability", "rate"]),
       which=st.sampled_from([EXACT_13, stats.exact(14), stats.exact(3)]))
def test_exact_stats_methods(event: object, method: str, which: stats.ExactStats) -> None:
    outcome(lambda: getattr(which, method)(event), names=("event",),
            returns=lambda r: isinstance(r, (int, float)) or type(r).__name__ == "Fraction")


@FUZZ
@given(n=st.one_of(st.integers(0, 10**6), hostile().filter(_small)),
       p=st.one_of(st.floats(0, 1), hostile()),
       level=st.one_of(st.just(0.99), st.floats(0, 1), hostile()))
def test_binomial_interval(n: object, p: object, level: object) -> None:
    res = outcome(lambda: stats.binomial_interval(n, p, level),  # type: ignore[arg-type]
                  names=("n", "p", "level"))
    valid = type(n) is int and type(p) is float and type(level) is float and n >= 0 \
        and 0 <= p <= 1 and 0 < level < 1
    if res.ok and valid:  # what hostile arguments give is pinned in test_known_defects.py
        lo, hi = res.value
        assert type(lo) is int and type(hi) is int and 0 <= lo <= hi <= n


@FUZZ
@given(data=st.data())
def test_compare(data: st.DataObject) -> None:
    doc: Any = {k: v for k, v in SAMPLE_13.items()}
    args: dict[str, Any] = {"doc": doc, "void": EXACT_13, "free": EXACT_13_FREE, "level": 0.99}
    key = data.draw(st.sampled_from(["doc", "void", "free", "level", "field"]))
    if key == "field":
        field = data.draw(st.sampled_from(sorted(doc)))
        doc[field] = data.draw(hostile(), label=field)
    else:
        args[key] = data.draw(hostile(), label=key)
    outcome(lambda: stats.compare(**args), names=("doc", "void", "free", "level", "compare"),
            returns=lambda r: type(r) is dict and "inside" in r)
