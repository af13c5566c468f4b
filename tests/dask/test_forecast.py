"""mjfast.dask.forecast on the LocalCluster: lazy dask arrays equal to the numpy forecast, for
13 - 3m rows and per discard for 14 - 3m rows; options per row; errors naming whole-array rows."""

from __future__ import annotations

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
mdask = pytest.importorskip("mjfast.dask")

from mjfast import datagen, parse_hand  # noqa: E402
from mjfast.errors import InvalidArgumentError, InvalidHandError  # noqa: E402
from mjfast.forecast import forecast  # noqa: E402

from .conftest import hands  # noqa: E402

CHUNKS = (70, 30, 100)  # uneven row chunks, 200 hands
H13 = hands(200, 13, seed=11)
H14 = np.ascontiguousarray(datagen.deal(200, 14, seed=12))
VOIDS = np.random.default_rng(13).integers(-1, 3, 200)


def lazy(h: np.ndarray) -> da.Array:
    return da.from_array(h, chunks=(CHUNKS, 27))


def _same(got: dict, want: object, names: tuple[str, ...]) -> None:
    for name in names:
        arr, ref = got[name], getattr(want, name)
        assert isinstance(arr, da.Array) and arr.chunks[0] == CHUNKS
        np.testing.assert_array_equal(arr.compute(), ref)


@pytest.mark.parametrize("options", [
    {"draws": 3, "exchanges": 0},
    {"draws": 2, "exchanges": 0, "objective": "value", "rules": "points", "void_suit": VOIDS},
    {"draws": 2, "exchanges": 1, "backward": True},  # the policy options pass through
])
def test_waiting_rows_equal_numpy(client, options):
    got = mdask.forecast(lazy(H13), **options)
    want = forecast(H13, **options)
    assert set(got) == {"ready", "win", "value"}
    assert got["win"].shape == (200, options["draws"]) and got["value"].shape == (200,)
    _same(got, want, ("ready", "win", "value"))


def test_per_discard_rows_equal_numpy(client):
    got = mdask.forecast(lazy(H14), draws=2, exchanges=0, per_discard=True, void_suit=VOIDS)
    want = forecast(H14, draws=2, exchanges=0, void_suit=VOIDS)
    assert got["ready"].shape == (200, 27, 2) and got["value"].shape == (200, 27)
    assert (got["best_discard"].dtype, got["is_win"].dtype) == (np.int8, np.bool_)
    _same(got, want, ("ready", "win", "value", "best_discard", "is_win"))


def test_flush_and_candidates(client):
    got = mdask.forecast(lazy(H14), draws=2, per_discard=True, flush="m", candidates="keep")
    want = forecast(H14, draws=2, flush="m", candidates="keep")
    _same(got, want, ("ready", "win", "value", "best_discard"))


def test_short_hands(client):
    h = np.ascontiguousarray(np.stack([parse_hand("123m23p55p"), parse_hand("456m78p11s")] * 50))
    got = mdask.forecast(da.from_array(h, chunks=(30, 27)), draws=2, sets=2)
    np.testing.assert_array_equal(got["win"].compute(), forecast(h, draws=2, sets=2).win)


def test_lazy_and_checked_at_once():
    f = mdask.forecast(lazy(H13), draws=1)
    assert all(isinstance(v, da.Array) for v in f.values())  # no cluster: nothing computed
    with pytest.raises(InvalidArgumentError, match="objective"):
        mdask.forecast(lazy(H13), draws=1, objective="fast")
    with pytest.raises(InvalidArgumentError, match="workers"):
        mdask.forecast(lazy(H13), draws=1, workers=2)


def test_wrong_size_row_named_in_the_whole_array(client):
    h = H13.copy()
    h[150] = H14[0]
    with pytest.raises(InvalidHandError, match=r"hands\[150\]"):
        mdask.forecast(lazy(h), draws=1)["win"].compute()
    # blocks run in parallel: the row named is the first of whichever block failed first
    with pytest.raises(InvalidHandError,
                       match=r"hands\[(0|70|100)\]: one tile fewer than per_discard=True"):
        mdask.forecast(lazy(H13), draws=1, per_discard=True)["win"].compute()


@pytest.mark.parametrize("per_discard", [False, True])
def test_zero_draws_and_unknown_chunk_sizes(client, per_discard):
    """Issue 23, item 7: draws=0 divided by zero and rows of unknown chunk sizes (a boolean
    selection) failed inside dask's reshape."""
    h = H14 if per_discard else H13
    names = ("ready", "win", "value") + (("best_discard", "is_win") if per_discard else ())
    for draws in (0, 2):
        got = mdask.forecast(lazy(h), draws=draws, exchanges=0, per_discard=per_discard)
        want = forecast(h, draws=draws, exchanges=0)
        _same(got, want, names)
    x = lazy(h)
    keep = x[:, 0] < 2  # a boolean mask: chunk sizes unknown until computed
    got = mdask.forecast(x[keep], draws=2, exchanges=0, per_discard=per_discard)
    assert np.isnan(got["win"].shape[0])
    rows = h[h[:, 0] < 2]
    want = forecast(rows, draws=2, exchanges=0)
    for name in names:
        np.testing.assert_array_equal(got[name].compute(), getattr(want, name))
