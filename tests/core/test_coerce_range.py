"""``errors="coerce"`` on counts a uint8 cannot hold (issue 23, item 6): in an int16 / int64 batch
a count below 0 or above 255 marks its row bad, like a count of 5, instead of aborting the
run; without coerce it still raises naming the row. The Dask forms are in tests/dask."""

from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast.errors import InvalidHandError
from mjfast.scoring import batch

GOOD13 = mjfast.parse_hand("123m456m789m23p55p")


def _batch(dtype: type, low: int, high: int) -> np.ndarray:
    h = np.stack([GOOD13] * 4).astype(dtype)
    h[1, 0] = low  # below 0
    h[3, 26] = high  # above 255
    return h


@pytest.mark.parametrize("dtype", [np.int16, np.int32, np.int64])
@pytest.mark.parametrize(("func", "bad"), [
    (mjfast.shanten, -100), (mjfast.waits, 2**32 - 1), (batch.max_fan, -100),
])
def test_coerce_marks_rows_out_of_uint8(dtype: type, func: object, bad: int) -> None:
    h = _batch(dtype, -3, 300)
    got = np.asarray(func(h, errors="coerce"))  # type: ignore[operator]
    want = np.asarray(func(np.stack([GOOD13] * 4)))  # type: ignore[operator]
    assert got[1] == bad and got[3] == bad
    assert got[0] == want[0] and got[2] == want[2]


@pytest.mark.parametrize(("func", "hand"), [(mjfast.effective_tiles, GOOD13),
                                            (mjfast.discards, GOOD13 + mjfast.parse_hand("9s"))])
def test_coerce_marks_rows_of_row_kernels(func: object, hand: np.ndarray) -> None:
    h = np.stack([hand] * 4).astype(np.int64)
    h[1, 0], h[3, 26] = -1, 2**40
    got = func(h, errors="coerce")  # type: ignore[operator]
    assert (got[1] == -100).all() and (got[3] == -100).all()
    np.testing.assert_array_equal(got[0], func(hand))  # type: ignore[operator]


def test_coerce_single_hand_and_per_row_melds_visible() -> None:
    one = GOOD13.astype(np.int16)
    one[4] = -7
    assert mjfast.shanten(one, errors="coerce") == -100
    h = np.stack([GOOD13] * 2)
    visible = np.zeros((2, 27), np.int16)
    visible[1, 5] = -2
    eff = mjfast.effective_tiles(h, visible=visible, errors="coerce")
    assert (eff[1] == -100).all() and (eff[0] != -100).all()
    melds = np.zeros((2, 27), np.int64)
    melds[0, 3] = 1000
    assert mjfast.shanten(h, melds=melds, errors="coerce").tolist()[0] == -100


def test_raise_still_names_the_row() -> None:
    with pytest.raises(InvalidHandError, match=r"hands\[1\]: tile 1m has a negative count \(-3\)"):
        mjfast.shanten(_batch(np.int16, -3, 300))
    with pytest.raises(InvalidHandError, match=r"hands\[3\]: tile 9s appears 300 times"):
        mjfast.shanten(_batch(np.int16, 0, 300))
