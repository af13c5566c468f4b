"""Parquet in and out of ``mjfast batch`` (one process): the documented schemas, streaming by
record batch, ``--errors coerce``, and clear refusals of files that do not fit."""

from __future__ import annotations

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

import mjfast  # noqa: E402
from mjfast import cli  # noqa: E402
from mjfast.cli.batch_parquet import output_schema  # noqa: E402

from .conftest import hands, write_shard  # noqa: E402

H13 = hands(5000, 13, seed=21)
WHAT = "shanten,waits,effective,max_fan"


def batch(capsys, *args: str) -> tuple[int, str]:
    code = cli.main(["batch", *map(str, args)])
    return code, capsys.readouterr().err


def effective(table) -> np.ndarray:
    return np.column_stack([table[f"effective_c{k}"].to_numpy() for k in range(27)])


def check_results(table, h: np.ndarray) -> None:
    """The result columns of an output table equal the numpy API on ``h``."""
    np.testing.assert_array_equal(table["row"].to_numpy(), np.arange(len(h)))
    np.testing.assert_array_equal(table["shanten"].to_numpy(), mjfast.shanten(h))
    np.testing.assert_array_equal(table["waits"].to_numpy(), mjfast.waits(h))
    np.testing.assert_array_equal(effective(table), mjfast.effective_tiles(h))
    fan = mjfast.max_fan(h)
    np.testing.assert_array_equal(table["max_fan"].to_numpy(), fan)
    assert table["error"].null_count == len(h)


@pytest.mark.parametrize("strings", [False, True])
def test_parquet_in_parquet_out(tmp_path, capsys, strings):
    write_shard(tmp_path / "h.parquet", H13, strings=strings, row_group=700)
    code, err = batch(capsys, tmp_path / "h.parquet", tmp_path / "o.parquet", "--what", WHAT,
                      "--chunk", "1000")
    assert code == 0, err
    assert "5,000 rows" in err
    out = pq.ParquetFile(tmp_path / "o.parquet")
    assert out.schema_arrow == output_schema(WHAT.split(","), "row")
    assert out.metadata.num_row_groups >= 5  # one per chunk: streamed, never the whole file
    check_results(out.read(), H13)


def test_parquet_output_matches_the_npy_output(tmp_path, capsys):
    np.save(tmp_path / "h.npy", H13)
    assert batch(capsys, tmp_path / "h.npy", tmp_path / "o.parquet", "--what", WHAT)[0] == 0
    assert batch(capsys, tmp_path / "h.npy", tmp_path / "o.npy", "--what", WHAT)[0] == 0
    table, ref = pq.read_table(tmp_path / "o.parquet"), np.load(tmp_path / "o.npy")
    for w in ("shanten", "waits", "max_fan"):
        np.testing.assert_array_equal(table[w].to_numpy(), ref[w])
    np.testing.assert_array_equal(effective(table), ref["effective"])


def test_text_input_gives_line_numbers(tmp_path, capsys):
    (tmp_path / "h.txt").write_text("123m456m789m11p23p\n\n1112345678999m\n")
    assert batch(capsys, tmp_path / "h.txt", tmp_path / "o.parquet", "--what", "max_fan")[0] == 0
    table = pq.read_table(tmp_path / "o.parquet")
    assert table.column_names == ["line", "max_fan", "error"]
    assert table["line"].to_pylist() == [1, 3] and table["max_fan"].to_pylist() == [0, 3]


def test_coerce_marks_bad_rows_with_their_reason(tmp_path, capsys):
    counts = {f"c{k}": pa.array(H13[:6, k].astype(np.int16)) for k in range(27)}
    counts["c0"] = pa.array([0, 9, None, -1, 0, 0], pa.int16())
    pq.write_table(pa.table(counts), tmp_path / "h.parquet")
    code, err = batch(capsys, tmp_path / "h.parquet", tmp_path / "o.parquet", "--what", WHAT)
    assert code == 2 and "h.parquet: row 1: tile 1m appears 9 times (max 4)" in err
    assert not list(tmp_path.glob("o.parquet*"))  # nothing left behind
    code, err = batch(capsys, tmp_path / "h.parquet", tmp_path / "o.parquet", "--what", WHAT,
                      "--errors", "coerce")
    assert code == 0 and "3 bad rows marked" in err
    table = pq.read_table(tmp_path / "o.parquet")
    assert table["error"].to_pylist()[:4] == [
        None, "tile 1m appears 9 times (max 4)", "no hand (null)", "tile 1m has a negative count (-1)"]
    assert table["shanten"].to_pylist()[1:4] == [mjfast.INVALID_ROW] * 3
    assert table["waits"].to_pylist()[1:4] == [mjfast.INVALID_MASK] * 3
    good = [0, 4, 5]
    want = H13[good].copy()
    want[:, 0] = 0
    np.testing.assert_array_equal(table["shanten"].to_numpy()[good], mjfast.shanten(want))


def test_string_column_bad_rows(tmp_path, capsys):
    pq.write_table(pa.table({"hand": ["123m456m789m11p23p", "1z", None, "11111m"]}),
                   tmp_path / "h.parquet")
    code, err = batch(capsys, tmp_path / "h.parquet", tmp_path / "o.csv", "--errors", "coerce")
    assert code == 0 and "3 bad rows marked" in err
    lines = (tmp_path / "o.csv").read_text().splitlines()
    assert lines[0] == "row,shanten,error" and lines[1] == "0,0,"
    assert lines[3] == '2,,"no hand (null)"' and "appears 5 times" in lines[4]


@pytest.mark.parametrize(("table", "message"), [
    ({"x": [1]}, "expected a 'hand' column of tile strings or the 27 count columns c0..c26"),
    ({"hand": [1]}, "column 'hand' holds int64, expected strings"),
    ({f"c{k}": [0.0] for k in range(27)}, "column 'c0' holds double, expected an integer type"),
])
def test_schemas_that_do_not_fit_are_refused(tmp_path, capsys, table, message):
    pq.write_table(pa.table(table), tmp_path / "h.parquet")
    code, err = batch(capsys, tmp_path / "h.parquet", tmp_path / "o.npy")
    assert code == 2 and message in err and err.count("\n") == 1


def test_a_file_that_is_not_parquet(tmp_path, capsys):
    (tmp_path / "h.parquet").write_text("123m\n")
    code, err = batch(capsys, tmp_path / "h.parquet", tmp_path / "o.npy")
    assert code == 2 and "h.parquet: not a readable Parquet file" in err
