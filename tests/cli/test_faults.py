"""Fault suite of ``mjfast batch`` (subprocess): a full disk, a file size limit, an input that
shrinks mid-run, stdin / pipe / FIFO input, SIGINT, bad paths, hostile text and CSV. Each run
must end with its exit status and one line ``mjfast: error: ...`` (130 and ``interrupted`` for
SIGINT), and leave neither OUT nor OUT.part behind."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import mjfast
from mjfast import datagen
from tests.processes import loaded, start

ENV = dict(os.environ, OPENBLAS_NUM_THREADS="1")
MJFAST = [sys.executable, "-m", "mjfast"]
LINUX = sys.platform.startswith("linux")


def batch(*args: str, stdin: bytes | None = None, timeout: float = 120,
          **kw: object) -> subprocess.CompletedProcess:
    """``mjfast batch ARGS`` -> CompletedProcess (stdout / stderr as text)."""
    res = subprocess.run([*MJFAST, "batch", *args], input=stdin, capture_output=True, env=ENV,
                         timeout=timeout, **kw)
    res.stdout, res.stderr = res.stdout.decode(), res.stderr.decode()
    return res


def assert_error(res: subprocess.CompletedProcess, *fragments: str) -> str:
    """Exit status 2 and one line ``mjfast: error: ...`` on stderr, no traceback."""
    assert res.returncode == 2, (res.returncode, res.stderr)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mjfast: error: "), res.stderr
    for f in fragments:
        assert f in lines[0], (f, lines[0])
    return lines[0]


def assert_no_output(dst: Path) -> None:
    assert not dst.exists(), dst
    assert not Path(f"{dst}.part").exists(), f"{dst}.part left behind"


@pytest.fixture(scope="module")
def hands() -> np.ndarray:
    return np.concatenate([datagen.deal(2000, 13, seed=15), datagen.ready_hands(100, seed=16)])


def text_of(hands: np.ndarray) -> bytes:
    return ("\n".join(mjfast.format_hand(h) for h in hands) + "\n").encode()


def npy_bytes(arr: np.ndarray) -> bytes:
    import io

    buf = io.BytesIO()
    np.save(buf, arr)
    return buf.getvalue()


# ------------------------------------------------------------------- stdin, pipes and FIFOs

@pytest.mark.parametrize("src", ["-", "/dev/stdin"])
def test_text_from_a_pipe_is_read_once(tmp_path, hands, src):
    if src == "/dev/stdin" and not os.path.exists(src):
        pytest.skip("no /dev/stdin")
    res = batch(src, str(tmp_path / "o.npy"), stdin=text_of(hands))
    assert res.returncode == 0, res.stderr
    assert np.array_equal(np.load(tmp_path / "o.npy"), mjfast.shanten(hands))
    res = batch(src, str(tmp_path / "o.csv"), "--what", "shanten,waits", stdin=text_of(hands))
    assert res.returncode == 0, res.stderr
    rows = (tmp_path / "o.csv").read_text(encoding="utf-8").splitlines()
    assert len(rows) == len(hands) + 1
    assert [int(r.split(",")[1]) for r in rows[1:]] == mjfast.shanten(hands).tolist()


def test_npy_from_stdin(tmp_path, hands):
    res = batch("-", str(tmp_path / "o.npy"), "--what", "shanten,waits", "--chunk", "300",
                stdin=npy_bytes(hands))
    assert res.returncode == 0, res.stderr
    out = np.load(tmp_path / "o.npy")
    assert np.array_equal(out["shanten"], mjfast.shanten(hands))
    assert np.array_equal(out["waits"], mjfast.waits(hands))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_named_pipe_input(tmp_path, hands):
    fifo = tmp_path / "hands.txt"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "wb") as f:
            f.write(text_of(hands))

    threading.Thread(target=feed, daemon=True).start()
    res = batch(str(fifo), str(tmp_path / "o.npy"), timeout=60)
    assert res.returncode == 0, res.stderr
    assert np.array_equal(np.load(tmp_path / "o.npy"), mjfast.shanten(hands))


# ----------------------------------------------------------------------- full disk / size limit

def _limit_file_size(limit: int) -> None:
    # Python ignores SIGXFSZ, so a write past the limit fails with EFBIG ("File too large").
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


@pytest.mark.parametrize(("out", "what"), [("o.npy", "effective"), ("o.npy", "shanten,effective"),
                                           ("o.csv", "shanten,effective"), ("o.jsonl", "effective")])
def test_file_size_limit(tmp_path, hands, out, what):
    src, dst = tmp_path / "h.npy", tmp_path / out
    np.save(src, hands)
    res = batch(str(src), str(dst), "--what", what, "--chunk", "500",
                preexec_fn=lambda: _limit_file_size(20_000))
    assert_error(res, f"cannot write {dst}: File too large")
    assert_no_output(dst)


@pytest.mark.parametrize("out", ["o.npy", "o.csv"])
def test_no_byte_can_be_written(tmp_path, hands, out):
    src, dst = tmp_path / "h.txt", tmp_path / out
    src.write_bytes(text_of(hands[:3]))
    res = batch(str(src), str(dst), preexec_fn=lambda: _limit_file_size(0))
    assert_error(res, f"cannot write {dst}: File too large")
    assert_no_output(dst)


def _in_small_tmpfs(tmp_path: Path, script: str, *args: str) -> subprocess.CompletedProcess:
    """Run ``sh -c script`` with $1 a fresh 64 KiB tmpfs (in a private mount namespace); skip
    where the system cannot mount one."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    if not LINUX or shutil.which("unshare") is None:
        pytest.skip("no unshare")
    body = f'mount -t tmpfs -o size=64k none "$1" || exit 99\n{script}'
    for ns in (["-m"], ["-Urm"]) if os.geteuid() == 0 else (["-Urm"],):
        res = subprocess.run(["unshare", *ns, "sh", "-c", body, "sh", str(mnt), *args],
                             capture_output=True, env=ENV, timeout=120)
        if res.returncode != 99 and b"unshare:" not in res.stderr[:200]:
            res.stdout, res.stderr = res.stdout.decode(), res.stderr.decode()
            return res
    pytest.skip("cannot mount a tmpfs here")


@pytest.mark.skipif(not LINUX, reason="tmpfs")
@pytest.mark.parametrize("out", ["o.npy", "o.csv"])
def test_full_disk(tmp_path, hands, out):
    src = tmp_path / "h.npy"
    np.save(src, np.tile(hands, (3, 1)))
    script = ('"$2" -m mjfast batch "$3" "$1/$4" --what shanten,effective --chunk 500; rc=$?\n'
              'ls -A "$1"; exit $rc')
    res = _in_small_tmpfs(tmp_path, script, sys.executable, str(src), out)
    dst = tmp_path / "mnt" / out
    assert_error(res, f"cannot write {dst}: No space left on device")
    assert res.stdout.strip() == "", f"left on the full disk: {res.stdout}"


# -------------------------------------------------------------------- runs stopped mid-way

def _start_slow_run(tmp_path: Path, rows: int = 200_000) -> tuple[subprocess.Popen, Path, Path]:
    """A batch run of one row per chunk (seconds of work), once its OUT.part exists."""
    src, dst = tmp_path / "big.npy", tmp_path / "o.npy"
    np.save(src, datagen.deal(rows, 13, seed=3))
    proc = start([*MJFAST, "batch", str(src), str(dst), "--chunk", "1",
                             "--workers", "1"], stderr=subprocess.PIPE, env=ENV)
    deadline = time.monotonic() + 60
    while not Path(f"{dst}.part").exists():
        assert proc.poll() is None, proc.communicate()[1]
        assert time.monotonic() < deadline, "no OUT.part after 60 s"
        time.sleep(0.01)
    return proc, src, dst


def test_npy_input_shrinks_mid_run(tmp_path):
    proc, src, dst = _start_slow_run(tmp_path)
    proc.send_signal(signal.SIGSTOP)
    try:
        os.truncate(src, 128)  # only the header is left
    finally:
        proc.send_signal(signal.SIGCONT)
    _, err = proc.communicate(timeout=60)
    res = subprocess.CompletedProcess(proc.args, proc.returncode, "", err.decode())
    assert_error(res, f"cannot read {src}: ", "200,000 rows")
    assert_no_output(dst)


def test_truncated_npy(tmp_path, hands):
    src, dst = tmp_path / "h.npy", tmp_path / "o.npy"
    data = npy_bytes(hands)
    src.write_bytes(data[:len(data) - 27 * 5 - 3])
    assert_error(batch(str(src), str(dst)), f"cannot read {src}: ",
                 f"{len(hands) - 6:,} of {len(hands):,} rows")
    assert_no_output(dst)


def test_sigint_mid_run(tmp_path):
    proc, _, dst = _start_slow_run(tmp_path)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=10)
    assert proc.returncode == 130, err
    assert err.decode().strip().splitlines() == ["mjfast: interrupted"]
    assert_no_output(dst)


def test_interrupt_before_the_writer_is_handed_over_leaves_no_part(tmp_path):
    """A Ctrl-C after OUT.part is created but before the caller holds the writer to discard it
    (the sanitizer's slow build hit that window): the .part is removed at exit all the same."""
    dst = tmp_path / "o.npy"
    code = (f"from mjfast.cli.batch_out import NpyWriter; NpyWriter({str(dst)!r}, ['shanten']); "
            "raise KeyboardInterrupt")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, env=ENV, timeout=120)
    assert run.returncode == -signal.SIGINT and b"KeyboardInterrupt" in run.stderr, run.stderr
    assert_no_output(dst)


def test_sigint_while_waiting_for_stdin(tmp_path):
    dst = tmp_path / "o.csv"
    proc = start([*MJFAST, "batch", "-", str(dst)], stdin=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=ENV)
    assert proc.stdin is not None
    proc.stdin.write(b"123m456m789m11p23p\n123m")  # then the pipe stays open, silent
    proc.stdin.flush()
    deadline = time.monotonic() + 60
    while not Path(f"{dst}.part").exists():
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.01)
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=10)
    assert proc.returncode == 130, err
    assert time.monotonic() - t0 < loaded(2.0)
    assert_no_output(dst)


# --------------------------------------------------------------------- bad paths and files

def test_empty_npy(tmp_path):
    src, dst = tmp_path / "h.npy", tmp_path / "o.npy"
    src.write_bytes(b"")
    assert_error(batch(str(src), str(dst)), str(src), "empty")
    assert_no_output(dst)
    assert_error(batch("-", str(dst), stdin=b"\x93NUMPY\x01"), "<stdin>", ".npy")
    assert_no_output(dst)


def test_output_is_a_directory(tmp_path, hands):
    src, dst = tmp_path / "h.npy", tmp_path / "o.npy"
    np.save(src, hands)
    dst.mkdir()
    assert_error(batch(str(src), str(dst)), f"cannot write {dst}: ", "directory")
    assert not Path(f"{dst}.part").exists()


def test_output_folder_missing(tmp_path, hands):
    src, dst = tmp_path / "h.npy", tmp_path / "nowhere" / "o.csv"
    np.save(src, hands)
    assert_error(batch(str(src), str(dst)), f"cannot write {dst}: No such file or directory")


# ----------------------------------------------------------------------------- text and CSV

def test_csv_bom_and_quoting(tmp_path):
    src, dst = tmp_path / "h.csv", tmp_path / "o.jsonl"
    src.write_bytes("\ufeffhand,note\n"
                    '"123m456m789m23p55p,9s",x\n'
                    '123m456m789m11p23p,"a, b"\n'
                    ' "1112345678999m" ,"two\nlines"\n'
                    "123m456m789m11p23p\n".encode())
    res = batch(str(src), str(dst), "--errors", "coerce")
    assert res.returncode == 0, res.stderr
    recs = [json.loads(x) for x in dst.read_text(encoding="utf-8").splitlines()]
    assert [r["line"] for r in recs] == [2, 3, 4, 6]
    assert recs[0]["shanten"] is None and "','" in recs[0]["error"]
    assert [r["shanten"] for r in recs[1:]] == [0, 0, 0]


def test_text_bom(tmp_path, hands):
    src, dst = tmp_path / "h.txt", tmp_path / "o.npy"
    src.write_bytes(b"\xef\xbb\xbf" + text_of(hands[:50]))
    res = batch(str(src), str(dst))
    assert res.returncode == 0, res.stderr
    assert np.array_equal(np.load(dst), mjfast.shanten(hands[:50]))


_PEAK = ("import resource, sys\nfrom mjfast.cli import main\nrc = main(sys.argv[1:])\n"
         "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
         "sys.exit(rc)\n")


def _peak_mib(*args: str) -> tuple[subprocess.CompletedProcess, float]:
    """Run the command line in a fresh interpreter: (result, its peak RSS in MiB)."""
    res = subprocess.run([sys.executable, "-c", _PEAK, *args], capture_output=True, text=True,
                         env=ENV, timeout=120)
    *rest, peak = res.stderr.strip().splitlines()
    res.stderr = "\n".join(rest)
    return res, int(peak) / 1024


@pytest.mark.skipif(not LINUX, reason="ru_maxrss in KiB")
def test_memory_is_bounded_by_bytes(tmp_path):
    """Long lines (blanks inside the hand): a chunk of 65,536 rows is 20 MB here, and one line
    is 10 MB."""
    def hand(blanks: int) -> bytes:
        return b"123m" + b" " * blanks + b"456m789m11p23p"

    src, dst = tmp_path / "wide.txt", tmp_path / "o.jsonl"
    with open(src, "wb") as f:
        f.write(hand(1) + b"\n" + hand(10_000_000) + b"\n" + (hand(980) + b"\n") * 20_000)
    (tmp_path / "one.txt").write_bytes(hand(1) + b"\n")
    _, base = _peak_mib("batch", str(tmp_path / "one.txt"), str(tmp_path / "one.jsonl"))
    res, peak = _peak_mib("batch", str(src), str(dst), "--errors", "coerce", "--workers", "1")
    assert res.returncode == 0, res.stderr
    assert peak - base < 150, f"peak {peak:.0f} MiB, {base:.0f} MiB at start"
    with open(dst, encoding="utf-8") as f:
        recs = [json.loads(f.readline()) for _ in range(3)]
    assert recs[0] == {"line": 1, "shanten": 0}
    assert recs[1]["line"] == 2 and "too long" in recs[1]["error"]
    assert recs[2] == {"line": 3, "shanten": 0}
    assert "1 bad row" in res.stderr
