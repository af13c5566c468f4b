"""``mjfast batch IN_GLOB OUT_DIR --dask ADDRESS`` on the LocalCluster: several Parquet shards,
one output shard each equal to the numpy API; resumable; a worker killed mid-run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("distributed")
pq = pytest.importorskip("pyarrow.parquet")

import mjfast  # noqa: E402
from mjfast import cli  # noqa: E402
from mjfast.cli.batch_cluster import run_shards, shards_of  # noqa: E402
from mjfast.cli.parser import build_parser  # noqa: E402

from .conftest import hands, write_shard  # noqa: E402

WHAT = "shanten,waits,effective,max_fan"


def make_shards(folder, count: int, rows: int) -> list[np.ndarray]:
    """``count`` shards of ``rows`` 13-tile hands, every other one as strings."""
    folder.mkdir()
    out = []
    for i in range(count):
        h = hands(rows, 13, seed=100 + i)
        write_shard(folder / f"part-{i:02d}.parquet", h, strings=i % 2 == 1, row_group=rows // 3)
        out.append(h)
    return out


def check_outputs(out_dir, shards: list[np.ndarray]) -> None:
    """Every output shard is complete and equals the numpy API on its input's hands."""
    assert sorted(p.name for p in out_dir.iterdir()) == [f"part-{i:02d}.parquet"
                                                          for i in range(len(shards))]
    for i, h in enumerate(shards):
        table = pq.read_table(out_dir / f"part-{i:02d}.parquet")
        np.testing.assert_array_equal(table["row"].to_numpy(), np.arange(len(h)))
        np.testing.assert_array_equal(table["shanten"].to_numpy(), mjfast.shanten(h))
        np.testing.assert_array_equal(table["waits"].to_numpy(), mjfast.waits(h))
        eff = np.column_stack([table[f"effective_c{k}"].to_numpy() for k in range(27)])
        np.testing.assert_array_equal(eff, mjfast.effective_tiles(h))
        np.testing.assert_array_equal(table["max_fan"].to_numpy(), mjfast.max_fan(h))


def test_cli_over_shards_then_resume(cluster, tmp_path, capsys):
    shards = make_shards(tmp_path / "in", 5, 2000)
    argv = ["batch", str(tmp_path / "in" / "*.parquet"), str(tmp_path / "out"), "--what", WHAT,
            "--dask", cluster.scheduler_address]
    assert cli.main(argv) == 0
    err = capsys.readouterr().err
    assert "batch: 5 shards (0 already done)" in err and "10,000 rows" in err
    assert "on 2 workers" in err
    check_outputs(tmp_path / "out", shards)

    kept = tmp_path / "out" / "part-01.parquet"
    stamp = kept.stat().st_mtime_ns
    (tmp_path / "out" / "part-03.parquet").unlink()
    assert cli.main(argv) == 0
    assert "batch: 1 shards (4 already done)" in capsys.readouterr().err
    assert kept.stat().st_mtime_ns == stamp  # written shards are skipped, not redone
    check_outputs(tmp_path / "out", shards)

    assert cli.main(argv) == 0  # all done: no cluster is even contacted
    assert "0 shards (5 already done)" in capsys.readouterr().err


def test_a_bad_row_stops_the_run_and_names_its_shard(cluster, tmp_path, capsys):
    shards = make_shards(tmp_path / "in", 2, 300)
    shards[1][7, 3] = 5
    write_shard(tmp_path / "in" / "part-01.parquet", shards[1])
    argv = ["batch", str(tmp_path / "in" / "*.parquet"), str(tmp_path / "out"),
            "--dask", cluster.scheduler_address]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "part-01.parquet: row 7: tile 4m appears 5 times (max 4)" in err
    assert not (tmp_path / "out" / "part-01.parquet").exists()
    assert cli.main([*argv, "--errors", "coerce"]) == 0
    assert "1 bad row marked" in capsys.readouterr().err
    table = pq.read_table(tmp_path / "out" / "part-01.parquet")
    assert table["shanten"][7].as_py() == mjfast.INVALID_ROW


@pytest.mark.parametrize(("args", "message"), [
    (["nothing-*.parquet", "out"], "no file matches"),
    (["-", "out"], "a glob of files"),
    (["{in}/*.parquet", "out", "--dask", "nowhere"], "expected local:N or a scheduler address"),
    (["{in}/*.parquet", "out", "--dask", "local:0"], "--dask local:N: expected an int >= 1"),
    (["{in}/*.parquet", "{in}/part-00.parquet"], "the output is a directory"),
    (["{in}/*.parquet", "{in}"], "part-00.parquet: its output would overwrite it"),
])
def test_refusals(tmp_path, capsys, monkeypatch, args, message):
    make_shards(tmp_path / "in", 1, 30)
    monkeypatch.chdir(tmp_path)
    argv = [a.format(**{"in": tmp_path / "in"}) for a in args]
    if "--dask" not in argv:
        argv += ["--dask", "local:1"]
    assert cli.main(["batch", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_worker_killed_mid_run_still_gives_complete_correct_output(client, tmp_path):
    shards = make_shards(tmp_path / "in", 10, 6000)
    args = build_parser().parse_args(["batch", str(tmp_path / "in" / "*.parquet"),
                                      str(tmp_path / "out"), "--what", WHAT, "--chunk", "500"])
    todo = shards_of(args.input, args.output)
    os.makedirs(args.output)
    pids = client.run(os.getpid)  # worker address -> its process
    killed: list[str] = []

    def kill_a_busy_worker(_result) -> None:
        if killed:
            return
        busy = [w for w, keys in client.processing().items() if keys]
        if busy:
            os.kill(pids[busy[0]], signal.SIGKILL)
            killed.append(busy[0])

    results = run_shards(client, todo, args, kill_a_busy_worker)
    assert killed, "no worker was busy after the first shard: nothing was killed"
    assert len(results) == 10 and sum(r.rows for r in results) == 60_000
    assert not list((tmp_path / "out").glob("*.part"))
    check_outputs(tmp_path / "out", shards)


def test_forecast_is_refused_up_front(tmp_path, capsys, monkeypatch):
    """Issue 23, item 4: a KeyError traceback, exit 1 and an empty output folder before."""
    make_shards(tmp_path / "in", 1, 30)
    monkeypatch.chdir(tmp_path)
    argv = ["batch", "in/*.parquet", "out", "--what", "forecast", "--draws", "2",
            "--dask", "local:1"]
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "--what forecast: not with --dask" in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_a_rerun_with_other_options_recomputes(cluster, tmp_path, capsys):
    """Issue 23, item 5: a rerun with another --what / --rules / --void / --option counted the
    shards as done and kept their stale columns."""
    shards = make_shards(tmp_path / "in", 2, 200)
    base = ["batch", str(tmp_path / "in" / "*.parquet"), str(tmp_path / "out"),
            "--dask", cluster.scheduler_address]
    out = tmp_path / "out" / "part-00.parquet"
    assert cli.main([*base, "--what", "shanten"]) == 0
    assert "2 shards (0 already done)" in capsys.readouterr().err
    assert cli.main([*base, "--what", "shanten"]) == 0
    assert "0 shards (2 already done)" in capsys.readouterr().err
    runs = [(["--what", "shanten,max_fan"], lambda h: mjfast.max_fan(h)),
            (["--what", "shanten,max_fan", "--rules", "qq"], lambda h: mjfast.max_fan(h, rules="qq")),
            (["--what", "shanten,max_fan", "--rules", "qq", "--option", "cap=1"],
             lambda h: mjfast.max_fan(h, rules=mjfast.Rules.preset("qq", cap=1))),
            (["--what", "shanten,max_fan", "--rules", "qq", "--option", "cap=1", "--void", "m"],
             lambda h: mjfast.max_fan(h, rules=mjfast.Rules.preset("qq", cap=1), void_suit=0))]
    for extra, want in runs:
        assert cli.main([*base, *extra]) == 0
        err = capsys.readouterr().err
        assert "2 shards (0 already done, 2 written with other options redone)" in err, extra
        got = pq.read_table(out)["max_fan"].to_numpy()
        np.testing.assert_array_equal(got, want(shards[0]))
    assert cli.main([*base, *runs[-1][0]]) == 0
    assert "0 shards (2 already done)" in capsys.readouterr().err
    assert cli.main([*base, *runs[-1][0][:-2]]) == 0  # --void dropped
    assert "2 shards (0 already done, 2 written" in capsys.readouterr().err


def test_a_failing_shard_prints_one_line(tmp_path):
    """Issue 23, item 7: the worker's "Compute Failed" traceback block came before the one-line
    error (worker processes write to the terminal's stderr: run as a real command)."""
    shards = make_shards(tmp_path / "in", 1, 50)
    shards[0][7, 3] = 5
    write_shard(tmp_path / "in" / "part-00.parquet", shards[0])
    run = subprocess.run([sys.executable, "-m", "mjfast", "batch", str(tmp_path / "in" / "*.parquet"),
                          str(tmp_path / "out"), "--dask", "local:1"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1, run.stderr
    assert "part-00.parquet: row 7: tile 4m appears 5 times (max 4)" in run.stderr
