"""The main job at kernel speed (mjfast.stats.run_stats on src/mjfast_stats.h): every per-hand
statistic against the public kernels and mjfast.advise, the tallies against those per-hand
results, the dealer, reproducibility, and Ctrl-C (issue 15)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import mjfast
from mjfast import datagen, efficiency, stats
from mjfast._core import _stats
from tests.processes import loaded, start

ENV = dict(os.environ, OPENBLAS_NUM_THREADS="1")


def analyse(hands: np.ndarray, tiles: int) -> np.ndarray:
    """Per hand: void-rule distance, no-void distance, best discard, effective kinds, effective
    copies, waiting kinds when ready (else -1), from the compiled main job."""
    out = np.empty((len(hands), 6), np.int32)
    assert _stats.analyse_rows(np.ascontiguousarray(hands, np.uint8), tiles, out) == -1
    return out


def popcount(masks: np.ndarray) -> np.ndarray:
    return np.array([bin(int(m)).count("1") for m in masks], np.int64)


def best_discards(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """mjfast.advise's first choice for every 14-tile hand, from the batch kernels (the numpy
    statistics loop that the compiled job replaced): (shanten after, kind, copies, kinds)."""
    after = efficiency.discards(hands)
    after = np.where(after == efficiency.NOT_HELD, np.int8(127), after)
    best = after.min(axis=1)
    rows, kinds = np.nonzero(after == best[:, None])
    m = rows.size
    rest = hands[rows]
    rest[np.arange(m), kinds] -= 1
    seen = np.zeros_like(rest)
    seen[np.arange(m), kinds] = 1  # the discarded copy is seen, as in advise
    eff = efficiency.effective_tiles(rest, visible=seen)
    copies = np.where(eff > 0, eff, 0).sum(axis=1, dtype=np.int64)
    nkinds = (eff >= 0).sum(axis=1).astype(np.int64)
    key = copies * 1024 + (31 - kinds.astype(np.int64)) * 32 + nkinds
    starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
    top = np.maximum.reduceat(key, starts)
    return best, 31 - (top // 32) % 32, top // 1024, top % 32


@pytest.fixture(scope="module")
def hands14() -> np.ndarray:
    """Random hands, two-suit hands, complete hands (seven pairs too) and hands with quads."""
    quads = datagen.deal(3000, 14, seed=4)
    quads[:, 0] = 0
    quads[np.arange(3000), 0] = 4
    quads = quads[quads.sum(axis=1) == 14]
    return np.concatenate([datagen.deal(60_000, 14, seed=1), datagen.two_suit_hands(10_000, seed=2),
                           datagen.complete_hands(3000, seed=3, seven_pairs=0.3), quads])


def test_14_tiles_agrees_with_the_kernels(hands14):
    got = analyse(hands14, 14)
    assert (got[:, 0] - 1 == mjfast.shanten(hands14)).all()
    assert (got[:, 1] - 1 == mjfast.shanten(hands14, void_rule=False)).all()
    best, kind, copies, kinds = best_discards(hands14)
    assert (got[:, 2] == kind).all()
    assert (got[:, 4] == copies).all() and (got[:, 3] == kinds).all()
    ready = best <= 0
    rest = hands14[ready].copy()
    rest[np.arange(rest.shape[0]), kind[ready]] -= 1
    assert (got[ready, 5] == popcount(mjfast.waits(rest))).all()
    assert (got[~ready, 5] == -1).all()


def test_14_tiles_agrees_with_advise(hands14):
    got = analyse(hands14[::40], 14)
    for h, row in zip(hands14[::40], got):
        first = mjfast.advise(h)[0]
        assert (row[2], row[3], row[4]) == (first.tile, len(first.effective),
                                            first.effective_count), mjfast.format_hand(h)


def test_13_tiles_agrees_with_the_kernels():
    hands = np.concatenate([datagen.deal(60_000, 13, seed=5), datagen.ready_hands(3000, seed=6),
                            datagen.two_suit_hands(5000, 13, seed=7)])
    got = analyse(hands, 13)
    s = np.asarray(mjfast.shanten(hands))
    assert (got[:, 0] - 1 == s).all() and (got[:, 2] == -1).all()
    assert (got[:, 1] - 1 == mjfast.shanten(hands, void_rule=False)).all()
    eff = np.asarray(mjfast.effective_tiles(hands))
    assert (got[:, 3] == (eff >= 0).sum(axis=1)).all()
    assert (got[:, 4] == np.where(eff > 0, eff, 0).sum(axis=1)).all()
    ready = s == 0
    assert (got[ready, 5] == popcount(mjfast.waits(hands[ready]))).all()
    assert (got[~ready, 5] == -1).all()


def test_analyse_rows_refuses_bad_rows():
    out = np.empty((3, 6), np.int32)
    hands = datagen.deal(3, 14, seed=1)
    hands[1, 0] = 5
    assert _stats.analyse_rows(hands, 14, out) == 1
    assert _stats.analyse_rows(datagen.deal(3, 13, seed=1), 14, out) == 0
    with pytest.raises(ValueError, match="tiles"):
        _stats.analyse_rows(hands, 12, out)


# ---------------------------------------------------------------------------------- tallies

@pytest.mark.parametrize("tiles", [13, 14])
def test_run_stats_is_the_sum_of_its_hands(tiles):
    n = stats.STATS_CHUNK + 4464  # one full chunk and part of the next
    doc = stats.run_stats(n, tiles, seed=11, workers=1)
    hands = np.concatenate([stats.chunk_hands(11, tiles, 0),
                            stats.chunk_hands(11, tiles, 1, n_hands=4464)])
    got = analyse(hands, tiles)
    void = np.bincount(got[:, 0], minlength=16)
    assert doc["shanten"]["void_rule"] == {str(d - 1): int(c) for d, c in enumerate(void) if c}
    free = np.bincount(got[:, 1], minlength=16)
    assert doc["shanten"]["no_void_rule"] == {str(d - 1): int(c) for d, c in enumerate(free) if c}
    assert doc["mean_effective"]["kinds"] == pytest.approx(got[:, 3].sum() / n)
    assert doc["mean_effective"]["tiles"] == pytest.approx(got[:, 4].sum() / n)
    ready = got[:, 5] >= 0
    assert doc["ready_hands"] == ready.sum()
    assert doc["mean_waits"] == pytest.approx(got[ready, 5].mean())
    s = np.asarray(mjfast.shanten(hands))
    assert doc["ready_hands"] == ((s <= 0) if tiles == 14 else (s == 0)).sum()
    assert doc["complete_hands"] == (None if tiles == 13 else int((s == -1).sum()))


def test_result_does_not_depend_on_workers():
    a = stats.run_stats(300_000, 14, seed=3, workers=1)
    for w in (2, 3):
        b = stats.run_stats(300_000, 14, seed=3, workers=w)
        for key in ("shanten", "ready_rate", "mean_waits", "mean_effective", "complete_hands"):
            assert a[key] == b[key], (w, key)
    assert stats.run_stats(1000, 14, seed=4)["shanten"] != stats.run_stats(1000, 14, seed=5)["shanten"]


def test_dealer():
    a = stats.chunk_hands(1, 14)
    assert a.shape == (stats.STATS_CHUNK, 27) and a.dtype == np.uint8
    assert (a.sum(axis=1) == 14).all() and a.max() <= 4
    assert np.array_equal(a, stats.chunk_hands(1, 14))  # seeded
    assert not np.array_equal(a, stats.chunk_hands(1, 14, chunk=1))
    assert not np.array_equal(a, stats.chunk_hands(2, 14))
    assert np.array_equal(stats.chunk_hands(1, 14, n_hands=10), a[:10])
    big = stats.chunk_hands(2**80 + 1, 13, n_hands=5)  # a huge seed is hashed, not refused
    assert (big.sum(axis=1) == 13).all()
    # every kind 14/27 per hand on average; each of the 108 tiles as likely: chi-square, 26 dof
    counts = a.sum(axis=0, dtype=np.int64)
    expect = 14 * stats.STATS_CHUNK / 27
    chi2 = ((counts - expect) ** 2 / expect).sum()
    assert chi2 < 60, chi2  # P(chi2 > 60) ~ 2e-4 with 26 degrees of freedom
    # a kind's count per hand follows the hypergeometric law: P(4 copies) = C(104, 10) / C(108, 14)
    four = (a == 4).sum() / (27 * stats.STATS_CHUNK)
    assert four == pytest.approx(0.00018679, rel=0.25)


# ---------------------------------------------------------------------------- interruption

@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="watches threads in /proc")
def test_ctrl_c_stops_a_huge_threaded_run_within_a_second():
    """Issue 15: SIGINT while a huge run is under way with 2 workers ends it with status 130
    at once (it once ran on for ~550 s: every chunk was queued before the first was done)."""
    proc = start([sys.executable, "-m", "mjfast", "stats", "--hands", str(10**10),
                             "--workers", "2", "--seed", "1"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=ENV)
    try:
        deadline = time.monotonic() + 60
        task = Path(f"/proc/{proc.pid}/task")
        # wait for the worker threads: the chunks are being queued and run from then on
        while not (task.exists() and len(list(task.iterdir())) >= 3):
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.005)
        time.sleep(0.3)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        elapsed = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, err
    assert err.decode().strip().splitlines() == ["mjfast: interrupted"]
    assert elapsed < loaded(1.0), elapsed
