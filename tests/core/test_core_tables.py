"""The shipped suit tables (src/mjfast_tables.h): reproducible from the generator, small, and
right: every suit pattern's class vector equals the exact per-suit DP, and the combiner tables
equal the min-plus combination of the class vectors.

Speed is measured in benchmarks, never asserted here; what is asserted is the memory the tables
take (the shipped class tables plus the 5**9 class and wait-mask tables built at import).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from mjfast._core import _kernels

ROOT = Path(__file__).resolve().parents[2]
HEADER = ROOT / "src" / "mjfast_tables.h"
SPLIT = 5**6


def _tool(name: str) -> ModuleType:
    """A dev-time generator of tools/ (not part of the package), imported by path."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tablegen = _tool("tablegen")


@pytest.fixture(scope="module")
def generated():
    return tablegen.build()


@pytest.fixture(scope="module")
def shipped():
    """The tables the extension loaded, cut out of table_bytes() in the generator's ORDER."""
    blob = _kernels.table_bytes()
    shapes = {
        "left": ((125,), np.uint8),
        "right": ((SPLIT,), np.uint16),
    }
    out, off = {}, 0
    for name in ("left", "right"):
        shape, dtype = shapes[name]
        size = int(np.prod(shape)) * np.dtype(dtype).itemsize
        out[name] = np.frombuffer(blob, dtype, int(np.prod(shape)), off).reshape(shape)
        off += size
    n_left = int(out["left"].max()) + 1
    n_right = int(out["right"].max()) + 1
    # left_right is n_left x n_right; the class count follows from the remaining bytes:
    # rest = 10 nf + nf^2 + nf^2 + npair * nf  (vec, pair, two, final)
    out["left_right"] = np.frombuffer(blob, np.uint8, n_left * n_right, off).reshape(n_left, n_right)
    off += n_left * n_right
    nf = int(out["left_right"].max()) + 1
    out["vec"] = np.frombuffer(blob, np.int8, nf * 10, off).reshape(nf, 10)
    off += nf * 10
    out["pair"] = np.frombuffer(blob, np.uint8, nf * nf, off).reshape(nf, nf)
    off += nf * nf
    out["two"] = np.frombuffer(blob, np.int8, nf * nf, off).reshape(nf, nf)
    off += nf * nf
    npair = int(out["pair"].max()) + 1
    out["final"] = np.frombuffer(blob, np.int8, npair * nf, off).reshape(npair, nf)
    off += npair * nf
    out["void_class"] = np.frombuffer(blob, np.uint8, nf * 64, off).reshape(nf, 8, 8)
    off += nf * 64
    out["void_two"] = np.frombuffer(blob, np.int8, 256 * 256, off).reshape(256, 256)
    off += 256 * 256
    assert off == len(blob), "table_bytes() holds more or less than the nine tables"
    return out


def test_generator_reproduces_the_shipped_header(generated):
    """tablegen.build() + header_text() == src/mjfast_tables.h, byte for byte.

    (The header stores the tables LZ-packed by tablegen.lz_pack, with their FNV-1a hash.)"""
    text = tablegen.header_text(generated)
    assert text.encode() == HEADER.read_bytes()


def test_generator_reproduces_the_loaded_tables(generated, shipped):
    blob = b"".join(np.ascontiguousarray(generated[name]).tobytes() for name in tablegen.ORDER)
    assert blob == _kernels.table_bytes()
    for name in tablegen.ORDER:
        assert generated[name].shape == shipped[name].shape, name
        assert np.array_equal(generated[name], shipped[name]), name


def test_table_memory_under_8_mb():
    class_tables = len(_kernels.table_bytes())
    built = 5**9 * np.dtype(np.uint16).itemsize  # wait masks, built at import (mj_build_wmask)
    built += 5**9  # one class byte per suit index, expanded at import (mj_build_full)
    total = class_tables + built
    print(f"shipped tables: {class_tables} B + built at import: {built} B = {total / 2**20:.2f} MiB")
    assert total < 8 * 2**20
    assert class_tables < 1 * 2**20  # what ships stays small (~350 KB)


def _all_patterns() -> np.ndarray:
    idx = np.arange(5**9)
    digits = np.stack([(idx // 5 ** (8 - r)) % 5 for r in range(9)], axis=1).astype(np.uint8)
    return idx, digits


def test_every_suit_pattern_class_equals_the_exact_dp(shipped):
    """All 405,350 suit patterns of at most 14 tiles: the two-step class lookup gives the distance
    vector that the exact rank-by-rank DP (mj_capped_vector, caps of 4) computes."""
    idx, digits = _all_patterns()
    keep = digits.sum(axis=1) <= 14
    idx, digits = idx[keep], digits[keep]
    assert idx.size == 405350
    cls = shipped["left_right"][shipped["left"][idx // SPLIT], shipped["right"][idx % SPLIT]]
    table_vec = shipped["vec"][cls]
    caps = np.full(9, 4, np.uint8)
    dp = np.array([_kernels.capped_vector(row, caps) for row in digits], np.int8)
    bad = np.nonzero((table_vec != dp).any(axis=1))[0]
    assert bad.size == 0, (digits[bad[0]].tolist(), table_vec[bad[0]].tolist(), dp[bad[0]].tolist())
    # every class occurs, and the vectors are distinct
    assert np.unique(cls).size == shipped["vec"].shape[0]
    assert np.unique(shipped["vec"], axis=0).shape[0] == shipped["vec"].shape[0]


def _combine_all(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Min-plus combination of distance vectors, broadcast: [..., 10] x [..., 10] -> [..., 10]."""
    shape = np.broadcast_shapes(x.shape, y.shape)
    out = np.full(shape, 10**4, np.int16)
    x, y = x.astype(np.int16), y.astype(np.int16)
    for k in range(5):
        for p in range(2):
            for i in range(k + 1):
                for pi in range(p + 1):
                    v = x[..., 2 * i + pi] + y[..., 2 * (k - i) + p - pi]
                    out[..., 2 * k + p] = np.minimum(out[..., 2 * k + p], v)
    return out


def test_combiner_tables_are_min_plus_of_the_class_vectors(shipped):
    vec = shipped["vec"].astype(np.int16)
    nf = vec.shape[0]
    want_col = 2 * 4 + 1  # 4 sets with the pair (meld-free hands)
    xy = _combine_all(vec[:, None, :], vec[None, :, :])  # (nf, nf, 10)
    assert np.array_equal(shipped["two"], xy[:, :, want_col]), "two"
    # pair[a][b] names the combined vector of a and b: equal vectors, equal names
    flat = xy.reshape(nf * nf, 10)
    names = shipped["pair"].reshape(-1)
    for name in range(int(names.max()) + 1):
        rows = flat[names == name]
        assert rows.size and (rows == rows[0]).all(), name
    # final[pair[a][b]][c] = the three-suit distance, for every a, b, c
    xyz = _combine_all(xy[:, :, None, :], vec[None, None, :, :])  # (nf, nf, nf, 10)
    got = shipped["final"][shipped["pair"]]  # (nf, nf, nf)
    assert np.array_equal(got, xyz[..., want_col]), "final"


def test_void_tables_give_the_better_form_of_two_live_suits(shipped):
    """void_two[void_class a][void_class b] == min(regular, seven pairs) of the two suits, for
    pairs of suit patterns drawn from all patterns of at most 7 tiles (two suits of a hand)."""
    idx, digits = _all_patterns()
    keep = digits.sum(axis=1) <= 7
    idx, digits = idx[keep], digits[keep]
    cls = shipped["left_right"][shipped["left"][idx // SPLIT], shipped["right"][idx % SPLIT]]
    digits = digits.astype(np.int64)
    pairs, singles = (digits // 2).sum(axis=1), (digits % 2).sum(axis=1)
    vcls = shipped["void_class"][cls, np.minimum(pairs, 7), np.minimum(singles, 7)]
    rng = np.random.default_rng(7)
    a, b = rng.integers(0, idx.size, 200_000), rng.integers(0, idx.size, 200_000)
    regular = shipped["two"][cls[a], cls[b]].astype(int)
    # seven pairs (RULES.md 3): 7 distinct-or-quad pairs; each missing pair takes one tile onto a
    # single, or two tiles when no single is left
    have = pairs[a] + pairs[b]
    need = 7 - np.minimum(have, 7)
    odd = singles[a] + singles[b]
    seven = np.minimum(need, odd) + 2 * np.maximum(need - odd, 0)
    got = shipped["void_two"][vcls[a], vcls[b]]
    assert np.array_equal(got, np.minimum(regular, seven))


def test_void_two_never_holds_the_unwinnable_distance(shipped):
    """The meld-free shanten fast path takes void_two - 1 as the shanten without a test for
    MJ_INF (100): seven pairs of two live suits is at most 14 tiles away, so no entry reaches it."""
    assert 0 <= shipped["void_two"].min() and shipped["void_two"].max() <= 14
