"""Generator of the suit tables behind the shanten kernels (run at development time).

``python tools/tablegen.py`` (numpy only, no compiled core needed) rewrites
``src/mjfast_tables.h``; ``tests/core/test_core_tables.py`` regenerates the tables and checks the
shipped header byte for byte. It is not part of the wheel.

The scheme: a suit pattern is 9 counts, indexed in base 5. For every pattern and
every target of ``k`` sets (0-4) with or without the pair, the *distance* is the least number of
tiles to add so that the suit holds that target (tiles beyond the target are ignored)::

    d[k, p](c) = min over complete suit patterns T (k sets, p pairs, T <= 4) of sum(max(0, T - c))
               = 3k + 2p - max{ |x| : x <= c and x <= T for some complete T }

The second form is two cumulative passes over the 5**9 lattice: a suffix-OR along every axis marks
the sub-patterns of complete patterns, and a prefix-max along every axis finds the largest one
under ``c``. Only 126 distinct 10-value distance vectors occur among the patterns of at most 14
tiles: the pattern's *class*. Suits of a meld-free hand combine with small class tables: ``two``
(the distance of two suits to 4 sets + the pair: the void rule's case), ``pair`` (the class of
two suits' combined vector) and ``final`` (that class with a third suit). The void rule's
every-form case folds seven pairs in: a suit's *void class* (its class, pairs and singles; 256 of
them) indexes ``void_two``, the better form of two live suits, so full Sichuan shanten is three
lookups, as the regular form is.

The 1.95 MB table of classes ships in a compact split form: the index splits into ranks 1-3 (125
values) and ranks 4-9 (15,625 values), each part maps to the class of its equivalence (parts that
give the same class with every other part), and a 110 x 1024 table combines the two (350 KB in
all, 55 KB LZ-packed). At import the kernels expand it back to one byte per index, since one
load per suit is what the hot loops want.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np

MAX_SETS = 4
MAX_TILES = 14  # no suit pattern that a kernel looks up holds more
HEADER = Path(__file__).resolve().parents[1] / "src" / "mjfast_tables.h"


def complete_patterns(length: int, k: int, pair: int) -> set[tuple[int, ...]]:
    """Every count pattern over ``length`` ranks made of ``k`` sets plus ``pair`` pairs."""
    kinds = [("triplet", r) for r in range(length)] + [("run", r) for r in range(length - 2)]
    found: set[tuple[int, ...]] = set()
    for combo in itertools.combinations_with_replacement(kinds, k):
        counts = [0] * length
        for kind, r in combo:
            if kind == "triplet":
                counts[r] += 3
            else:
                counts[r] += 1
                counts[r + 1] += 1
                counts[r + 2] += 1
        if counts and max(counts) > 4:
            continue
        if not pair:
            found.add(tuple(counts))
            continue
        for r in range(length):
            if counts[r] <= 2:
                with_pair = list(counts)
                with_pair[r] += 2
                found.add(tuple(with_pair))
    return found


RANKS = 9


def tile_counts() -> np.ndarray:
    """Number of tiles of every base-5 suit index."""
    counts = np.zeros((5,) * RANKS, np.int8)
    for axis in range(RANKS):
        shape = [1] * RANKS
        shape[axis] = 5
        counts = counts + np.arange(5, dtype=np.int8).reshape(shape)
    return counts.reshape(-1)


def distances() -> np.ndarray:
    """(5**9, 10) int8: d[k, p] at column 2k + p, for every suit index (rank 1 most significant)."""
    shape = (5,) * RANKS
    n = tile_counts().reshape(shape)
    out = np.zeros(shape + (2 * (MAX_SETS + 1),), np.int8)
    for k in range(MAX_SETS + 1):
        for pair in range(2):
            sub = np.zeros(shape, bool)
            for pattern in complete_patterns(RANKS, k, pair):
                sub[pattern] = True
            for axis in range(RANKS):
                flipped = np.flip(sub, axis)
                sub = np.flip(np.logical_or.accumulate(flipped, axis=axis), axis)
            best = np.where(sub, n, -1).astype(np.int8)
            for axis in range(RANKS):
                best = np.maximum.accumulate(best, axis=axis)
            out[..., 2 * k + pair] = 3 * k + 2 * pair - best
    return out.reshape(-1, 2 * (MAX_SETS + 1))


def _combine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Min-plus combination of two distance vectors (sets add up, at most one pair)."""
    out = np.full(10, 127, np.int16)
    for ka in range(MAX_SETS + 1):
        for kb in range(MAX_SETS + 1 - ka):
            for pa in range(2):
                for pb in range(2 - pa):
                    col = 2 * (ka + kb) + pa + pb
                    out[col] = min(out[col], int(a[2 * ka + pa]) + int(b[2 * kb + pb]))
    return out


def build() -> dict[str, np.ndarray]:
    """All tables, as arrays, in the layout the C kernels read."""
    dist = distances()
    keep = np.nonzero(tile_counts() <= MAX_TILES)[0]
    vec, inverse = np.unique(dist[keep], axis=0, return_inverse=True)
    n_full = len(vec)
    suit = np.full(5**RANKS, -1, np.int16)  # patterns of more than 14 tiles are never looked up
    suit[keep] = inverse.ravel()
    left, right, left_right = split_classes(suit)

    pair_vectors: dict[tuple[int, ...], int] = {}
    pair = np.zeros((n_full, n_full), np.uint8)
    combined: list[tuple[int, ...]] = []
    for a in range(n_full):
        for b in range(n_full):
            key = tuple(int(x) for x in _combine(vec[a], vec[b]))
            if key not in pair_vectors:
                pair_vectors[key] = len(combined)
                combined.append(key)
            pair[a, b] = pair_vectors[key]
    vec2 = np.array(combined, np.int16)
    # Only meld-free hands use these (4 sets + the pair); hands with melds combine the class
    # vectors directly. One byte per entry keeps each table in the L1/L2 cache.
    want = 2 * MAX_SETS + 1
    two = vec2[pair][:, :, want].astype(np.int8)
    final = np.zeros((len(combined), n_full), np.int8)
    for c2, row in enumerate(vec2):
        for c in range(n_full):
            final[c2, c] = _combine(row, vec[c])[want]
    void_class, void_two = void_tables(suit, vec, two)
    return {"left": left, "right": right, "left_right": left_right, "vec": vec, "pair": pair,
            "two": two, "final": final, "void_class": void_class, "void_two": void_two}


MAX_PAIRS = 7  # seven pairs counts at most 7 pairs, and needs at most 7 singles


def void_tables(suit: np.ndarray, vec: np.ndarray, two: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The void rule's all-forms tables: with suit q void, a meld-free hand's distance is
    ``void_two[v_a, v_b]`` for its two live suits, the lesser of the regular form (``two``) and
    seven pairs. A suit's *void class* ``v = void_class[class, pairs, singles]`` (pairs and
    singles capped at 7) keeps what both forms need; classes giving the same row of distances are
    one. Seven pairs of two suits: need = 7 - min(7, pairs), distance = need when the singles
    cover it, else 2 * need - singles (RULES.md 3: a quad is two pairs).
    """
    keep = np.nonzero(suit >= 0)[0]
    digits = np.stack([(keep // 5 ** (RANKS - 1 - r)) % 5 for r in range(RANKS)], axis=1)
    pairs = np.minimum((digits // 2).sum(axis=1), MAX_PAIRS)
    singles = np.minimum((digits % 2).sum(axis=1), MAX_PAIRS)
    keys = np.unique(np.stack([suit[keep], pairs, singles], axis=1), axis=0)
    cls, p, s = keys.T
    need = MAX_PAIRS - np.minimum(p[:, None] + p[None, :], MAX_PAIRS)
    have = s[:, None] + s[None, :]
    seven = np.where(need <= have, need, 2 * need - have)
    both = np.minimum(two[cls[:, None], cls[None, :]], seven)
    rows, inverse = np.unique(both, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    assert len(rows) <= 256, "void classes no longer fit a byte"
    void_class = np.zeros((len(vec), MAX_PAIRS + 1, MAX_PAIRS + 1), np.uint8)
    void_class[cls, p, s] = inverse
    first = np.unique(inverse, return_index=True)[1]
    void_two = np.zeros((256, 256), np.int8)  # a fixed stride for the kernels; unused rows stay 0
    void_two[: len(rows), : len(rows)] = both[np.ix_(first, first)]
    return void_class, void_two


SPLIT = 5**6  # index = left * SPLIT + right: left = ranks 1-3, right = ranks 4-9


def split_classes(suit: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two-step class lookup: class = left_right[left[i // SPLIT], right[i % SPLIT]] (i valid)."""
    grid = suit.reshape(-1, SPLIT)  # -1 marks combinations of more than 14 tiles
    rows, left = np.unique(grid, axis=0, return_inverse=True)
    _, first_col, right = np.unique(grid.T, axis=0, return_index=True, return_inverse=True)
    left_right = np.maximum(rows[:, first_col], 0).astype(np.uint8)
    left, right = left.ravel().astype(np.uint8), right.ravel().astype("<u2")  # read little-endian
    valid = suit >= 0
    check = left_right[left[np.arange(suit.size) // SPLIT], right[np.arange(suit.size) % SPLIT]]
    assert np.array_equal(check[valid], suit[valid]), "split class tables disagree"
    return left, right, left_right


ORDER = ("left", "right", "left_right", "vec", "pair", "two", "final", "void_class", "void_two")


_WINDOW = 65535
_MAX_MATCH = 130  # token 255
_MIN_MATCH = 3
_CHAIN = 16  # candidates tried per position


def lz_pack(data: bytes) -> bytes:
    """Greedy LZ77 in the format mj_unpack (src/mjfast_api.c) reads: token t < 128 is followed
    by t + 1 literals; t >= 128 copies t - 125 bytes from a 2-byte little-endian offset back."""
    out = bytearray()
    lits = bytearray()
    heads: dict[bytes, list[int]] = {}
    n, i = len(data), 0

    def flush() -> None:
        for k in range(0, len(lits), 128):
            chunk = lits[k:k + 128]
            out.append(len(chunk) - 1)
            out.extend(chunk)
        lits.clear()

    while i < n:
        best_len, best_off = 0, 0
        key = data[i:i + _MIN_MATCH]
        cands = heads.get(key, ()) if len(key) == _MIN_MATCH else ()
        limit = min(_MAX_MATCH, n - i)
        for c in reversed(cands[-_CHAIN:]):
            if i - c > _WINDOW:
                break
            length = _MIN_MATCH
            while length < limit and data[c + length] == data[i + length]:
                length += 1
            if length > best_len:
                best_len, best_off = length, i - c
                if length == limit:
                    break
        step = best_len if best_len >= _MIN_MATCH else 1
        for j in range(i, min(i + step, n - _MIN_MATCH + 1)):
            heads.setdefault(data[j:j + _MIN_MATCH], []).append(j)
        if best_len >= _MIN_MATCH:
            flush()
            out += bytes((best_len + 125, best_off & 0xFF, best_off >> 8))
        else:
            lits.append(data[i])
        i += step
    flush()
    return bytes(out)


def lz_unpack(packed: bytes) -> bytes:
    """The inverse of :func:`lz_pack` (mj_unpack in Python, for the tests)."""
    out = bytearray()
    i = 0
    while i < len(packed):
        t = packed[i]
        i += 1
        if t < 128:
            out += packed[i:i + t + 1]
            i += t + 1
        else:
            off = packed[i] | packed[i + 1] << 8
            i += 2
            for _ in range(t - 125):
                out.append(out[-off])
    return bytes(out)


def fnv1a(data: bytes) -> int:
    h = 2166136261
    for b in data:
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h


def packed_header(comment: list[str], guard: str, prefix: str, defines: list[str],
                  blob: bytes) -> str:
    """A generated C header holding ``blob`` LZ-packed (:func:`lz_pack`; mj_unpack of
    src/mjfast_api.c expands it, so the C library needs no zlib) as ``mj_<prefix>_lz``, with
    ``MJ_<PREFIX>_RAW_SIZE`` and its FNV-1a hash ``MJ_<PREFIX>_HASH``, which the library checks
    after unpacking; ``defines``: the lines that come before those."""
    packed = lz_pack(blob)
    upper = prefix.upper()
    lines = [*comment, f"#ifndef {guard}", f"#define {guard}", "", "#include <stdint.h>", "",
             *defines,
             f"#define MJ_{upper}_RAW_SIZE {len(blob)}",
             f"#define MJ_{upper}_HASH 0x{fnv1a(blob):08X}u",
             f"static const uint8_t mj_{prefix}_lz[{len(packed)}] = {{"]
    for start in range(0, len(packed), 32):
        lines.append(",".join(str(b) for b in packed[start : start + 32]) + ",")
    lines += ["};", "", "#endif", ""]
    return "\n".join(lines)


def header_text(tables: dict[str, np.ndarray]) -> str:
    """src/mjfast_tables.h: the tables' bytes in ORDER, packed (:func:`packed_header`)."""
    blob = b"".join(np.ascontiguousarray(tables[name]).tobytes() for name in ORDER)
    return packed_header(
        ["/* Generated by `python tools/tablegen.py`; do not edit. */"], "MJFAST_TABLES_H", "tables",
        [f"#define MJ_NCLASS {tables['vec'].shape[0]}",
         f"#define MJ_NLEFT {tables['left_right'].shape[0]}",
         f"#define MJ_NRIGHT {tables['left_right'].shape[1]}",
         f"#define MJ_NPAIR {tables['final'].shape[0]}"], blob)


def main(argv: list[str] | None = None) -> int:
    target = Path(argv[0]) if argv else HEADER
    tables = build()
    target.write_text(header_text(tables))
    sizes = ", ".join(f"{name} {tables[name].nbytes}" for name in ORDER)
    print(f"wrote {target} ({sizes} bytes; {tables['vec'].shape[0]} classes)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
