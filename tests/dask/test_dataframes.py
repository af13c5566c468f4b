"""mjfast.dask.map_partitions over dask dataframes of hands (mpsz strings or c0..c26), computed
on the LocalCluster: the added columns equal the numpy API."""

from __future__ import annotations

import numpy as np
import pytest

dd = pytest.importorskip("dask.dataframe")
pd = pytest.importorskip("pandas")
mdask = pytest.importorskip("mjfast.dask")

import mjfast  # noqa: E402
from mjfast.errors import InvalidArgumentError  # noqa: E402

from .conftest import hands  # noqa: E402

H13 = hands(3000, 13, seed=11)
STRINGS = [mjfast.format_hand(h) for h in H13]


def frame(**cols) -> dd.DataFrame:
    return dd.from_pandas(pd.DataFrame(cols), npartitions=4)


def test_string_column(client):
    out = mdask.map_partitions(frame(id=np.arange(3000), hand=STRINGS),
                               ["shanten", "waits", "effective_tiles", "max_fan"],
                               void_suit="s").compute()
    assert list(out.columns[:5]) == ["id", "hand", "shanten", "waits", "effective_tiles_c0"]
    assert out["shanten"].dtype == np.int8 and out["waits"].dtype == np.uint32
    np.testing.assert_array_equal(out["shanten"], mjfast.shanten(H13, void_suit="s"))
    np.testing.assert_array_equal(out["waits"], mjfast.waits(H13, void_suit="s"))
    np.testing.assert_array_equal(out[mdask.result_columns("effective_tiles")],
                                  mjfast.effective_tiles(H13, void_suit="s"))
    np.testing.assert_array_equal(out["max_fan"], mjfast.max_fan(H13, void_suit="s"))


def test_count_columns_and_a_per_row_option_column(client):
    h = hands(2000, 14, seed=12)
    voids = np.random.default_rng(1).integers(-1, 3, 2000)
    cols = {f"c{k}": h[:, k] for k in range(27)}
    out = mdask.map_partitions(frame(**cols, void=voids), ["shanten", "discards", "is_win"],
                               columns={"void_suit": "void"}, form="regular").compute()
    np.testing.assert_array_equal(out["shanten"], mjfast.shanten(h, void_suit=voids, form="regular"))
    np.testing.assert_array_equal(out[mdask.result_columns("discards")],
                                  mjfast.discards(h, void_suit=voids, form="regular"))
    np.testing.assert_array_equal(out["is_win"], mjfast.is_win(h, void_suit=voids))


def test_fan_takes_win_tiles_from_a_column(client):
    h = np.ascontiguousarray(mjfast.datagen.complete_hands(1000, seed=13))
    win = np.array([np.flatnonzero(row)[-1] for row in h])
    out = mdask.map_partitions(frame(hand=[mjfast.format_hand(x) for x in h], win=win), "fan",
                               columns={"win_tiles": "win"}, rules="qq").compute()
    np.testing.assert_array_equal(out["fan"], mjfast.fan(h, win, rules="qq"))


def test_coerce_marks_strings_that_are_not_hands(client):
    texts = STRINGS[:100] + ["1z", None, "11111m"]
    out = mdask.map_partitions(frame(hand=texts), ["shanten", "waits"], errors="coerce").compute()
    assert out["shanten"].tolist()[-3:] == [mjfast.INVALID_ROW] * 3
    assert out["waits"].tolist()[-3:] == [mjfast.INVALID_MASK] * 3
    np.testing.assert_array_equal(out["shanten"][:100], mjfast.shanten(H13[:100]))


def test_coerce_marks_count_columns_out_of_uint8(client):
    """Issue 23, item 6: int64 count columns with -1 or 256 mark their rows."""
    counts = H13[:50].astype(np.int64)
    counts[7, 0], counts[40, 13] = -1, 256
    df = pd.DataFrame(counts, columns=list(mdask.COUNT_COLUMNS))
    out = mdask.map_partitions(dd.from_pandas(df, npartitions=3), ["shanten", "max_fan"],
                               errors="coerce").compute()
    assert out["shanten"][7] == out["max_fan"][40] == mjfast.INVALID_ROW
    np.testing.assert_array_equal(out["shanten"][:7], mjfast.shanten(H13[:7]))


def test_a_bad_string_raises_naming_its_index_label(client):
    df = dd.from_pandas(pd.DataFrame({"hand": STRINGS[:10] + ["1z"]}, index=range(100, 111)),
                        npartitions=2)
    with pytest.raises(InvalidArgumentError, match=r"^hands\[110\]: position 1 of '1z'"):
        mdask.map_partitions(df, "shanten").compute()


def test_parquet_shards_through_read_parquet(client, tmp_path):
    """The README's path for a table on disk: dd.read_parquet, then a dataframe or an array."""
    pytest.importorskip("pyarrow")
    from .conftest import write_shard

    parts = [hands(500, 14, seed=20 + i) for i in range(3)]
    for i, h in enumerate(parts):
        write_shard(tmp_path / f"p{i}.parquet", h)
    df = dd.read_parquet(str(tmp_path / "*.parquet"))
    want = mjfast.shanten(np.concatenate(parts))
    out = mdask.map_partitions(df, "shanten").compute()
    np.testing.assert_array_equal(out["shanten"], want)
    arr = df[list(mdask.COUNT_COLUMNS)].to_dask_array(lengths=True)
    np.testing.assert_array_equal(mdask.shanten(arr).compute(), want)


def test_a_pandas_frame_is_computed_at_once():
    out = mdask.map_partitions(pd.DataFrame({"hand": STRINGS[:50]}), "shanten")
    np.testing.assert_array_equal(out["shanten"], mjfast.shanten(H13[:50]))


@pytest.mark.parametrize(("what", "options", "message"), [
    ("shanten", {"form": "x"}, "form: expected"),
    ("nothing", {}, "what: expected"),
    ("shanten", {"rules": "qq"}, "rules: none of shanten takes this option"),
    ("fan", {}, r"fan needs win_tiles="),
    ("shanten", {"workers": 2}, "workers: not taken"),
    ("shanten", {"hand": "missing"}, "hand: no column 'missing'"),
    ("shanten", {"columns": {"void_suit": "nope"}}, "columns: 'void_suit' -> 'nope'"),
])
def test_bad_arguments_are_refused_at_once(what, options, message):
    with pytest.raises(InvalidArgumentError, match=message):
        mdask.map_partitions(frame(hand=STRINGS[:10]), what, **options)


def test_a_frame_without_hands_is_refused():
    with pytest.raises(InvalidArgumentError, match="expected a 'hand' column .* got columns x"):
        mdask.map_partitions(frame(x=[1, 2]), "shanten")
