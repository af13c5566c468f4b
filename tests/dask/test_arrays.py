"""mjfast.dask over dask arrays, computed on the LocalCluster: equal to the numpy API on the same
hands, with the hands' row chunks and the numpy dtypes, lazily; clear errors for bad chunking,
arguments and rows."""

from __future__ import annotations

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
mdask = pytest.importorskip("mjfast.dask")

import mjfast  # noqa: E402
from mjfast.errors import InvalidArgumentError, InvalidHandError  # noqa: E402

from .conftest import hands  # noqa: E402

CHUNKS = (700, 300, 1000, 2000)  # uneven row chunks, 4,000 hands
H13 = hands(4000, 13, seed=1)
H14 = hands(4000, 14, seed=2)
RNG = np.random.default_rng(3)
VOIDS = RNG.integers(-1, 3, 4000)
VISIBLE = np.minimum(RNG.integers(0, 2, (4000, 27)), 4 - H13).astype(np.uint8)


def lazy(h: np.ndarray) -> da.Array:
    return da.from_array(h, chunks=(CHUNKS, 27))


@pytest.mark.parametrize(("name", "h", "options"), [
    ("shanten", H14, {}),
    ("shanten", H13, {"form": "regular", "void_rule": False}),
    ("shanten", H13, {"void_suit": VOIDS}),
    ("waits", H13, {"void_suit": "p"}),
    ("is_win", H14, {}),
    ("effective_tiles", H13, {"visible": VISIBLE, "void_suit": VOIDS}),
    ("discards", H14, {"form": "seven_pairs"}),
    ("max_fan", H13, {"rules": "qq", "visible": VISIBLE}),
])
def test_kernel_equals_numpy(client, name, h, options):
    got = getattr(mdask, name)(lazy(h), **options)
    want = getattr(mjfast, name)(h, **options)
    assert isinstance(got, da.Array) and got.dtype == want.dtype
    assert got.chunks[0] == CHUNKS and got.shape == want.shape
    np.testing.assert_array_equal(got.compute(), want)


def test_fan_with_per_row_win_tiles_as_a_dask_array(client):
    wins = mjfast.datagen.complete_hands(3000, seed=4)
    h = np.ascontiguousarray(wins)
    tiles = np.array([RNG.choice(np.flatnonzero(row)) for row in h])
    got = mdask.fan(da.from_array(h, chunks=(1000, 27)), da.from_array(tiles, chunks=700),
                    self_drawn=True)
    np.testing.assert_array_equal(got.compute(), mjfast.fan(h, tiles, self_drawn=True))


def test_max_fan_best_wait_is_two_arrays_from_one_task(client):
    f, best = mdask.max_fan(lazy(H13), best_wait=True)
    want_f, want_best = mjfast.max_fan(H13, best_wait=True)
    assert (f.dtype, best.dtype) == (np.int16, np.int8)
    got_f, got_best = client.compute([f, best], sync=True)
    np.testing.assert_array_equal(got_f, want_f)
    np.testing.assert_array_equal(got_best, want_best)


def test_coerce_marks_bad_rows_like_numpy(client):
    h = H13.copy()
    h[[5, 1500, 3999], 2] = 5
    got = mdask.waits(lazy(h), errors="coerce").compute()
    np.testing.assert_array_equal(got, mjfast.waits(h, errors="coerce"))
    assert got[1500] == mjfast.INVALID_MASK


@pytest.mark.parametrize("dtype", [np.int16, np.int64])
def test_coerce_marks_counts_out_of_uint8(client, dtype):
    """Issue 23, item 6: a count below 0 or above 255 marks its row, not the run."""
    h = H13.astype(dtype)
    h[10, 3], h[2900, 26] = -2, 300
    got = mdask.shanten(lazy(h), errors="coerce").compute()
    assert got[10] == got[2900] == mjfast.INVALID_ROW
    np.testing.assert_array_equal(np.delete(got, [10, 2900]),
                                  mjfast.shanten(np.delete(H13, [10, 2900], axis=0)))


def test_lazy_until_computed_and_the_bad_row_is_named_in_the_whole_array(client):
    h = H13.copy()
    h[2345, 0] = 9
    result = mdask.shanten(lazy(h))  # nothing runs yet
    with pytest.raises(InvalidHandError, match=r"^hands\[2345\]: tile 1m appears 9 times"):
        result.compute()


def test_per_row_option_errors_name_the_whole_array_row(client):
    voids = VOIDS.copy()
    voids[3100] = 7
    with pytest.raises(InvalidArgumentError, match=r"^void_suit\[3100\]: 7 is not"):
        mdask.shanten(lazy(H13), void_suit=voids).compute()  # row 100 of the last block
    tiles = H14.argmax(axis=1)  # a held kind: only hands that do not win, no bad row
    tiles[2345] = np.flatnonzero(H14[2345] == 0)[0]
    with pytest.raises(InvalidHandError, match=r"^win_tiles\[2345\]: \w+ is not in hands\[2345\]$"):
        mdask.fan(lazy(H14), tiles).compute()


def test_unknown_chunk_sizes_still_work(client):
    arr = lazy(H14)
    unknown = arr[arr[:, 0] >= 0]  # a boolean filter: row chunks unknown (nan)
    np.testing.assert_array_equal(mdask.shanten(unknown).compute(), mjfast.shanten(H14))
    with pytest.raises(InvalidArgumentError, match="unknown chunk sizes"):
        mdask.shanten(unknown, void_suit=VOIDS)


@pytest.mark.parametrize(("value", "message"), [
    (lambda: da.from_array(H13, chunks=(1000, 9)), r"chunked along columns .*hands.rechunk\(\{1: -1\}\)"),
    (lambda: da.from_array(H13[:, :26]), r"expected shape \(N, 27\)"),
    (lambda: da.from_array(H13.astype(float), chunks=(1000, 27)), "integer dtype"),
    (lambda: H13, "expected a dask array"),
])
def test_bad_hands_arrays_are_refused_at_once(value, message):
    with pytest.raises(InvalidArgumentError, match=message):
        mdask.shanten(value())


@pytest.mark.parametrize(("options", "message"), [
    ({"form": "x"}, "form: expected"),
    ({"workers": 2}, "workers: not taken by mjfast.dask"),
    ({"out": np.empty(4000, np.int8)}, "out: not taken"),
    ({"void_suit": VOIDS[:10]}, r"void_suit: expected 4000 rows like hands, got 10"),
    ({"melds": "pung:9z"}, "melds"),
])
def test_bad_options_are_refused_when_the_graph_is_built(options, message):
    with pytest.raises(ValueError, match=message):
        mdask.shanten(lazy(H13), **options)


def test_every_declared_kernel_has_a_function():
    assert set(mdask.KERNELS) <= set(mdask.__all__)
    for name, kernel in mdask.KERNELS.items():  # the numpy API's batch function of that name
        assert kernel.func in (getattr(mjfast, name), getattr(mjfast.scoring.batch, name, None))
