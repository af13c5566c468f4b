"""The core API over batches: workers and threads (results independent of the worker count,
the first bad row reported, threads sharing the kernels, the pool after fork) and how
``mjfast._batch.run_chunks`` sizes its chunks."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import mjfast._batch
from mjfast import (
    INVALID_ROW,
    InvalidHandError,
    discards,
    effective_tiles,
    is_win,
    parse_hand,
    parse_tile,
    shanten,
    waits,
)
from tests.strategies import random_deals, random_meld_batch

# ------------------------------------------------------------------------ workers and threads


@pytest.fixture(scope="module")
def big_batches():
    """~200k rows (more than 3 chunks of 65536), 1 row in 50 with melds, per-row voids."""
    rng = np.random.default_rng(5)
    n = 3 * mjfast._batch.CHUNK + 4321
    out = {}
    for waiting in (True, False):
        hands = random_deals(rng, n, 13 if waiting else 14)
        hands[::7] = random_deals(rng, len(hands[::7]), 13 if waiting else 14, suits=(1, 2))
        melds = np.zeros_like(hands)
        mh, mm, _ = random_meld_batch(rng, 400, waiting=waiting)
        rows = np.arange(0, n, 50)
        hands[rows] = mh[np.arange(rows.size) % 400]
        melds[rows] = mm[np.arange(rows.size) % 400]
        voids = rng.integers(-1, 3, n).astype(np.int8)
        out[waiting] = (hands, melds, voids)
    return out


def _run_all(big, workers):
    h13, m13, v13 = big[True]
    h14, m14, v14 = big[False]
    res = {}
    for form in ("all", "regular", "seven_pairs"):
        res[f"sh13-{form}"] = shanten(h13, melds=m13, void_suit=v13, form=form, workers=workers)
    res["sh14"] = shanten(h14, melds=m14, void_suit=v14, workers=workers)
    res["sh14-norule"] = shanten(h14, melds=m14, void_rule=False, workers=workers)
    res["win"] = is_win(h14, melds=m14, void_suit=v14, workers=workers)
    res["waits"] = waits(h13, melds=m13, void_suit=v13, workers=workers)
    res["eff"] = effective_tiles(h13, melds=m13, void_suit=v13, workers=workers)
    res["disc"] = discards(h14, melds=m14, void_suit=v14, workers=workers)
    return res


def test_workers_do_not_change_results(big_batches):
    one = _run_all(big_batches, 1)
    for workers in (2, -1, 3):
        other = _run_all(big_batches, workers)
        for key in one:
            assert np.array_equal(one[key], other[key]), (workers, key)
    # and the rows agree with single-hand calls (a sample across all chunks)
    h13, m13, v13 = big_batches[True]
    for i in range(0, h13.shape[0], 9973):
        melds = m13[i] if m13[i].any() else None
        vs = int(v13[i]) if v13[i] >= 0 else None
        assert one["waits"][i] == waits(h13[i], melds=melds, void_suit=vs)
        assert one["sh13-all"][i] == shanten(h13[i], melds=melds, void_suit=vs)


def test_first_bad_row_is_reported_with_workers(big_batches):
    hands, melds = big_batches[True][0].copy(), big_batches[True][1].copy()
    bad_late, bad_early = hands.shape[0] - 3, 2 * mjfast._batch.CHUNK + 17
    hands[bad_late] = 0
    hands[bad_early] = 0
    hands[bad_early, 0] = 13
    melds[[bad_late, bad_early]] = 0
    for workers in (1, 2, -1):
        with pytest.raises(InvalidHandError,
                           match=rf"^hands\[{bad_early}\]: tile 1m appears 13 times \(max 4\)$"):
            shanten(hands, melds=melds, workers=workers)
        out = shanten(hands, melds=melds, workers=workers, errors="coerce")
        assert out[bad_early] == INVALID_ROW and out[bad_late] == INVALID_ROW
        assert (out != INVALID_ROW).sum() == hands.shape[0] - 2


def test_python_threads_share_the_kernels(big_batches):
    """Several Python threads calling batch kernels at once get the serial answers."""
    h13, m13, v13 = big_batches[True]
    h14, m14, v14 = big_batches[False]
    parts = [slice(i * 40000, (i + 1) * 40000) for i in range(4)]
    jobs = []
    for k, part in enumerate(parts):
        jobs.append(("shanten", lambda p=part: shanten(h13[p], melds=m13[p], void_suit=v13[p])))
        jobs.append(("waits", lambda p=part: waits(h13[p], melds=m13[p], void_suit=v13[p])))
        jobs.append(("effective", lambda p=part: effective_tiles(h13[p], melds=m13[p], void_rule=False)))
        jobs.append(("discards", lambda p=part, k=k: discards(h14[p], melds=m14[p],
                                                              workers=1 + k % 2)))
        jobs.append(("is_win", lambda p=part: is_win(h14[p], melds=m14[p], void_suit=v14[p])))
    serial = [fn() for _, fn in jobs]
    results: list = [None] * len(jobs)
    errors: list = []
    barrier = threading.Barrier(8)

    def worker(ids):
        try:
            barrier.wait()
            for _ in range(2):
                for i in ids:
                    results[i] = jobs[i][1]()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(list(range(j, len(jobs), 8)),))
               for j in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    for (name, _), want, got in zip(jobs, serial, results):
        assert np.array_equal(want, got), name


def test_concurrent_calls_with_different_worker_counts(monkeypatch):
    """Thread A takes the shared pool (2 workers); before it submits, thread B asks for 3 workers.
    Both calls must still succeed. The interleaving is forced by pausing A right after it got
    the pool (the pool used to be shut down under A: "cannot schedule new futures after
    shutdown"; under load 12 threads calling with workers 2..37 at once hit it ~100 times in 20
    rounds)."""
    rng = np.random.default_rng(9)
    hands = random_deals(rng, 2 * mjfast._batch.CHUNK + 10, 13)
    want = shanten(hands)
    get_pool = mjfast._batch._get_pool
    a_has_pool, b_done = threading.Event(), threading.Event()

    def paused_get_pool(size):
        pool = get_pool(size)
        if threading.current_thread().name == "caller-A" and not a_has_pool.is_set():
            a_has_pool.set()
            b_done.wait(10)
        return pool

    monkeypatch.setattr(mjfast._batch, "_get_pool", paused_get_pool)
    mjfast._batch._forget_pool()
    results = {}

    def call(name, workers):
        try:
            results[name] = shanten(hands, workers=workers)
        except BaseException as exc:
            results[name] = exc

    a = threading.Thread(target=call, args=("A", 2), name="caller-A")
    a.start()
    a_has_pool.wait(10)
    call("B", 3)
    b_done.set()
    a.join(30)
    for name in "AB":
        assert isinstance(results[name], np.ndarray), (name, results[name])
        assert (results[name] == want).all(), name


def test_single_array_fast_path_equals_general_path():
    """A (27,) uint8 array takes the single-hand fast path; a list the validated general path."""
    rng = np.random.default_rng(21)
    h13 = random_deals(rng, 300, 13, suits=(0, 1))
    h13[::3] = random_deals(rng, 100, 13)
    h14 = random_deals(rng, 300, 14, suits=(1, 2))
    h14[::3] = random_deals(rng, 100, 14)
    voids = [None, 0, 1, 2, "m", "p", "s"]
    for i in range(300):
        vs = voids[i % len(voids)]
        form = ("all", "regular", "seven_pairs")[i % 3]
        a, b = h13[i], h14[i]
        assert shanten(a, form=form, void_suit=vs) == shanten(a.tolist(), form=form, void_suit=vs)
        assert shanten(b, form=form, void_rule=False) == shanten(b.tolist(), form=form, void_rule=False)
        assert is_win(b, void_suit=vs) == is_win(b.tolist(), void_suit=vs)
        assert waits(a, void_suit=vs) == waits(a.tolist(), void_suit=vs)
        assert (effective_tiles(a, form=form, void_suit=vs) ==
                effective_tiles(a.tolist(), form=form, void_suit=vs)).all()
        assert (discards(b, form=form, void_suit=vs) == discards(b.tolist(), form=form, void_suit=vs)).all()
        # negative and non-unit strides on the fast path: reversing all 27 kinds maps suit s to
        # 2 - s and rank r to 10 - r, which changes nothing without a declared void
        assert shanten(a[::-1], form=form) == shanten(a, form=form)
        assert waits(np.ascontiguousarray(a[::-1])) == waits(a[::-1])
        assert (discards(b[::-1], form=form) == discards(np.ascontiguousarray(b[::-1]), form=form)).all()


def test_visible_broadcast_and_checks():
    hands = np.stack([parse_hand("123m456m789m23p55p")] * 3)
    one = parse_hand("4p")
    eff = effective_tiles(hands, visible=one)
    assert (eff[:, parse_tile("4p")] == 3).all() and (eff[:, parse_tile("1p")] == 4).all()
    per_row = np.zeros((3, 27), np.uint8)
    per_row[1, parse_tile("1p")] = 4
    eff = effective_tiles(hands, visible=per_row)
    assert eff[:, parse_tile("1p")].tolist() == [4, 0, 4]
    with pytest.raises(InvalidHandError, match=r"^visible\[2\]: tile 5p is held and seen 5 times \(max 4\)$"):
        bad = per_row.copy()
        bad[2, parse_tile("5p")] = 3
        effective_tiles(hands, visible=bad)
    with pytest.raises(InvalidHandError, match=r"^visible: tile 1m has a negative count \(-1\)$"):
        effective_tiles(hands[0], visible=[-1] + [0] * 26)
    # discards takes the same visible counts (checked, no effect on shanten)
    h14 = "123m456m789m23p55p9s"
    assert discards(h14, visible="999s").tolist() == discards(h14).tolist()
    with pytest.raises(InvalidHandError, match=r"^visible: tile 9s is held and seen 5 times \(max 4\)$"):
        discards(h14, visible="9999s")


def test_thread_pool_after_fork(tmp_path):
    """The worker pool is recreated in a forked child (threads do not survive fork)."""
    import subprocess
    import sys

    script = (
        "import os, numpy as np, mjfast, mjfast._batch as b\n"
        "h = np.zeros((2 * b.CHUNK + 5, 27), np.uint8)\n"
        "h[:, :13] = 1\n"
        "h[::3, 13:26], h[::3, :13] = 1, 0\n"
        "want = mjfast.shanten(h, workers=2)\n"
        "r, w = os.pipe()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    ok = (mjfast.shanten(h, workers=2) == want).all()\n"
        "    os.write(w, b'ok' if ok else b'no')\n"
        "    os._exit(0)\n"
        "os.waitpid(pid, 0)\n"
        "print(os.read(r, 2).decode())\n"
    )
    # run outside the checkout, so the child imports the installed mjfast like this process
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "ok", (res.stdout, res.stderr)





def _chunk_calls(n: int, chunk: int, grow_to: int, bad: int = -1, workers: int = 1) -> list[int]:
    sizes: list[int] = []

    def run(start: int, end: int) -> tuple[int, int, int, int]:
        sizes.append(end - start)
        return (bad, 1, 0, 0) if start <= bad < end else (-1, 0, 0, 0)

    mjfast._batch.run_chunks(run, n, workers, False, chunk=chunk, grow_to=grow_to)
    return sizes


def test_run_chunks_grow_while_fast(monkeypatch):
    """One worker's chunks double up to grow_to while each is fast; not past a bad row."""
    assert _chunk_calls(100, 4, 32) == [4, 8, 16, 32, 32, 8]
    assert _chunk_calls(100, 4, 0) == [4] * 25
    assert _chunk_calls(100, 4, 32, bad=13) == [4, 8, 16]
    assert sorted(_chunk_calls(100, 4, 32, workers=2)) == [4] * 25  # threads: fixed chunks
    monkeypatch.setattr(mjfast._batch, "GROW_BELOW", 0.0)  # every chunk counts as slow
    assert _chunk_calls(20, 4, 32) == [4] * 5
