"""``mjfast batch --what forecast`` streamed (issue 23, items 3 and 7): memory bounded by
``--chunk``, the output checked before any work, bad rows and size changes named by their line
in the file."""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import mjfast
from mjfast import cli, datagen
from mjfast.forecast import forecast


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = cli.main(["batch", *args, "--what", "forecast"])
    return code, capsys.readouterr().err


def test_memory_is_bounded_by_the_chunk(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """40,000 ready hands at 27 draws: 17.6 MB of results (440 bytes a row). Held and then
    concatenated, the peak was 44 MB; streamed in chunks of 1,000 it is about 2 MB."""
    hands = datagen.ready_hands(40_000, seed=5)
    src, dst = tmp_path / "h.npy", tmp_path / "out.npz"
    np.save(src, hands)
    tracemalloc.start()
    try:
        code, err = _run(capsys, str(src), str(dst), "--draws", "27", "--chunk", "1000")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 0, err
    assert peak < 8_000_000, f"peak {peak:,} bytes"
    got = np.load(dst)
    assert got["ready"].shape == (40_000, 27) and got["value"].shape == (40_000,)
    want = forecast(hands[39_000:], draws=27, exchanges=0)  # the last chunk, as computed
    np.testing.assert_array_equal(got["ready"][39_000:], want.ready)
    np.testing.assert_array_equal(got["value"][39_000:], want.value)


def test_output_checked_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "h.txt"
    src.write_text("123m456m789m23p55p\n" * 3)
    code, err = _run(capsys, str(src), str(tmp_path / "no" / "out.npz"), "--draws", "27")
    assert code == 2 and "cannot write" in err and "No such file or directory" in err
    (tmp_path / "d.npz").mkdir()
    code, err = _run(capsys, str(src), str(tmp_path / "d.npz"), "--draws", "2")
    assert code == 2 and "is a directory" in err


def test_14_tile_arrays_stream_like_one_call(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    texts = ["123m456m789m23p55p9s", "1123m456m789p235p9s", "123456789m1235p9s"]
    src, dst = tmp_path / "h.txt", tmp_path / "out.npz"
    src.write_text("\n".join(texts) + "\n")
    code, err = _run(capsys, str(src), str(dst), "--draws", "4", "--chunk", "1")
    assert code == 0, err
    got = np.load(dst)
    for i, text in enumerate(texts):
        want = forecast(text, draws=4, exchanges=0)
        np.testing.assert_array_equal(got["win"][i], want.win)
        assert got["best_discard"][i] == want.best_discard and got["is_win"][i] == want.is_win
    assert sorted(got.files) == ["best_discard", "is_win", "ready", "value", "win"]
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".part")]


def test_bad_row_is_named_by_its_line_in_the_file(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Item 7: the bad row was numbered within its chunk (hands[1] for line 4)."""
    rows = ["123m456m789m23p55p"] * 6
    rows[3] = "123m456m789m23p55p9s"  # 14 tiles in a 13-tile file, line 4
    src, dst = tmp_path / "h.txt", tmp_path / "out.npz"
    src.write_text("\n".join(rows) + "\n")
    code, err = _run(capsys, str(src), str(dst), "--draws", "2", "--chunk", "3")
    assert code == 2
    assert "h.txt: line 4: 14 tiles, but line 1 has 13" in err and "hands[" not in err
    counts = np.stack([mjfast.parse_hand("123m456m789m23p55p")] * 5)
    counts[3, :5] = (5, 0, 0, 0, 0)  # five 1m, still 13 tiles: the kernel refuses row 3
    np.save(tmp_path / "c.npy", counts)
    code, err = _run(capsys, str(tmp_path / "c.npy"), str(dst), "--draws", "2", "--chunk", "2")
    assert code == 2 and "c.npy: row 3: tile 1m appears 5 times (max 4)" in err, err
    assert not dst.exists()


def test_13_and_14_tile_chunks_name_the_line(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Item 7: a 14-tile chunk after 13-tile ones failed only at the end, with numpy's words."""
    rows = ["123m456m789m23p55p"] * 4 + ["123m456m789m23p55p9s"] * 4
    src, dst = tmp_path / "h.txt", tmp_path / "out.npz"
    src.write_text("\n".join(rows) + "\n")
    code, err = _run(capsys, str(src), str(dst), "--draws", "2", "--chunk", "4")
    assert code == 2 and "line 5: 14 tiles, but line 1 has 13" in err
