"""``out=`` of the 27-wide kernels (discards, effective_tiles) with ``errors="raise"``: every row
is checked before the kernel writes (mjfast._batch.execute, src/mjfast_check.h), then out= is
written in place. A refused batch leaves out= untouched and names the same first bad row, with
the same message, as the kernel does without out=; good rows come out as without out=.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import mjfast
import mjfast._batch
from mjfast import InvalidHandError
from mjfast.datagen import deal

N = 11  # groups of four rows (the bulk check's) and a tail


def _spoil(kind: str, hands: np.ndarray, visible: np.ndarray, row: int) -> None:
    """Make one row bad in the way `kind` names."""
    if kind == "count":
        hands[row, 5] = 5
    elif kind == "big count":  # 255: a sum of the row that a byte would wrap
        hands[row, 20] = 255
    elif kind == "size":
        hands[row, np.flatnonzero(hands[row])[0]] -= 1
    elif kind == "visible":
        visible[row, np.flatnonzero(hands[row])[0]] = 4


OPS: dict[str, tuple[int, Callable[..., Any]]] = {
    "discards": (14, mjfast.discards), "effective_tiles": (13, mjfast.effective_tiles)}


@pytest.mark.parametrize("op", list(OPS))
@pytest.mark.parametrize("kind", ["count", "big count", "size", "visible"])
@pytest.mark.parametrize("options", [{}, {"melds": True}, {"void_suit": True}, {"form": "regular"}])
def test_refused_batch_leaves_out_untouched(op: str, kind: str, options: dict[str, Any]) -> None:
    tiles, call = OPS[op]
    rng = np.random.default_rng(len(kind) + 7 * len(options))
    for row in range(N):
        kw: dict[str, Any] = {"form": options.get("form", "all")}
        if options.get("melds"):  # a pung per row: the general path's check
            hands = deal(N, tiles - 3, seed=row)
            kw["melds"] = np.zeros((N, 27), np.uint8)
            kw["melds"][np.arange(N), np.argmax(hands <= 1, axis=1)] = 3  # a kind held once at most
        else:
            hands = deal(N, tiles, seed=row)
        if options.get("void_suit"):
            kw["void_suit"] = rng.integers(-1, 3, N).astype(np.int8)
        visible = np.zeros((N, 27), np.uint8)
        _spoil(kind, hands, visible, row)
        if kind == "visible" or rng.random() < 0.5:
            kw["visible"] = visible
        with pytest.raises(InvalidHandError) as without:
            call(hands, **kw)
        out = np.full((N, 27), 7, np.int8)
        with pytest.raises(InvalidHandError) as checked:
            call(hands, out=out, **kw)
        assert str(checked.value) == str(without.value)
        assert f"[{row}]" in str(checked.value)
        assert (out == 7).all()


@pytest.mark.parametrize("op", list(OPS))
def test_checked_rows_pass(op: str) -> None:
    """Good rows in every place of the bulk check's groups of four (batches of every length mod
    4, a declared void per row, visible as one row for all or per row) are written in place."""
    tiles, call = OPS[op]
    hands = deal(1003, tiles, seed=3)
    voids = np.random.default_rng(1).integers(-1, 3, 1003).astype(np.int8)
    rng = np.random.default_rng(2)
    for n in (1000, 1001, 1002, 1003):
        one_seen = 4 - hands[:n].max(axis=0)  # fills some row's kind to 4, none past it
        seen = rng.integers(0, 5 - hands[:n]).astype(np.uint8)
        for kw in ({}, {"void_suit": voids[:n]}, {"visible": one_seen}, {"visible": seen}):
            out = np.full((n, 27), 7, np.int8)
            assert call(hands[:n], out=out, **kw) is out
            assert (out == call(hands[:n], **kw)).all()


def test_visible_row_for_all_refuses_the_row_it_overfills() -> None:
    """One visible row for every hand: the first hand that row overfills is named."""
    hands = deal(40, 13, seed=2)
    seen = np.zeros(27, np.uint8)
    kind = int(np.argmax(hands[:, :].max(axis=0)))  # a kind some hand holds most of
    first = int(np.argmax(hands[:, kind] == hands[:, kind].max()))
    seen[kind] = 4 - hands[:, kind].max() + 1
    out = np.full((40, 27), 7, np.int8)
    with pytest.raises(InvalidHandError, match=rf"^visible\[{first}\]: "):
        mjfast.effective_tiles(hands, visible=seen, out=out)
    assert (out == 7).all()


@pytest.mark.parametrize("workers", [1, 2])
def test_refused_in_a_later_chunk(workers: int) -> None:
    """A bad row past the first chunk (mjfast._batch.CHUNK rows), on one thread or two: every
    chunk is checked before any is written."""
    n = mjfast._batch.CHUNK + 1000
    hands = deal(n, 14, seed=4)
    hands[n - 10, 3] = 6
    out = np.full((n, 27), 7, np.int8)
    with pytest.raises(InvalidHandError, match=rf"^hands\[{n - 10}\]: tile 4m appears 6 times"):
        mjfast.discards(hands, out=out, workers=workers)
    assert (out == 7).all()
