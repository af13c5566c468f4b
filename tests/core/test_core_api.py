"""The public core API (shanten, is_win, waits, effective_tiles, discards, advise): known answers,
invariances, workers and threads, and every documented input check and error message.

Known answers come from the classic multi-wait shapes of one suit (听牌的型态 · 听多门), RULES.md
sections 2-3 and 8 (void rule, UNWINNABLE, the 4-copy limit counting melds; a wait is never a
kind already held four times, melds included).
"""

from __future__ import annotations

import doctest
import threading
from itertools import permutations

import numpy as np
import pytest

import mjfast
import mjfast._batch
from mjfast import (
    INVALID_MASK,
    INVALID_ROW,
    NOT_HELD,
    UNWINNABLE,
    InvalidHandError,
    Meld,
    advise,
    discards,
    effective_tiles,
    format_tile,
    is_win,
    mask_to_tiles,
    melds_to_counts,
    parse_hand,
    parse_tile,
    shanten,
    waits,
)
from mjfast._ref import core as ref
from mjfast.errors import InvalidArgumentError
from tests.strategies import SEED_WAITS, random_deals, random_meld_batch
from tests.twins import TWINS, check

SUITS = "mps"


def tiles(mask: int) -> list[str]:
    return [format_tile(t) for t in mask_to_tiles(mask)]


def mask(text: str) -> int:
    return sum(1 << t for t, c in enumerate(parse_hand(text)) if c)


# ------------------------------------------------------------------------ seed 002 wait shapes

# Tiles of another suit completing the shape to 13: sets only (shape of 3k+1 tiles, the pair is
# in the shape) or two sets and a pair (the 5-tile shape). No filler tile can add a wait: one
# more tile makes the filler 3k+1 (or 3k) tiles and the shape cannot be complete alone.
FILLER = {13: "", 10: "789", 7: "123789", 4: "123456789", 5: "11456789"}


def _seed_cases():
    for shape, ranks in SEED_WAITS:
        for a in range(3):
            for b in range(3):
                if b != a and (FILLER[len(shape)] or b == (a + 1) % 3):
                    yield shape, ranks, a, b


@pytest.mark.parametrize("shape,ranks,a,b", list(_seed_cases()))
def test_seed_002_wait_shapes(shape, ranks, a, b):
    filler = FILLER[len(shape)]
    hand = shape + SUITS[a] + (filler + SUITS[b] if filler else "")
    want = mask(ranks + SUITS[a])
    third = 3 - a - b
    assert shanten(hand) == 0
    assert waits(hand) == want, tiles(waits(hand))
    assert waits(hand, void_rule=False) == want
    assert waits(hand, void_suit=third) == want
    assert waits(hand, void_suit=SUITS[third]) == want
    # holding a tile of the declared void suit: never a win
    assert waits(hand, void_suit=a) == 0
    if filler:
        assert waits(hand, void_suit=b) == 0
    counts = parse_hand(hand)
    eff = effective_tiles(hand)
    assert [t for t in range(27) if eff[t] >= 0] == mask_to_tiles(want)
    assert all(eff[t] == 4 - counts[t] for t in mask_to_tiles(want))
    for t in mask_to_tiles(want):
        won = counts.copy()
        won[t] += 1
        assert is_win(won) and shanten(won) == -1
        assert discards(won)[t] == 0


def test_seed_waits_in_a_batch_every_suit():
    rows, want = [], []
    for shape, ranks, a, b in _seed_cases():
        filler = FILLER[len(shape)]
        rows.append(parse_hand(shape + SUITS[a] + (filler + SUITS[b] if filler else "")))
        want.append(mask(ranks + SUITS[a]))
    got = waits(np.array(rows))
    assert got.tolist() == want


# ------------------------------------------------------------------------ rules: known answers


def test_void_rule_examples():
    assert shanten("123m456p789s11s23m") == 3
    assert shanten("123m456p789s11s23m", void_rule=False) == 0
    assert shanten("123m456p789s11s23m", form="regular", void_rule=False) == 0
    assert waits("123m456p789s11s23m") == 0
    assert waits("123m456p789s11s23m", void_rule=False) == mask("14m")
    assert is_win("123m456p789s11s234m", void_rule=False)
    assert not is_win("123m456p789s11s234m")
    # a two-suit win is a win unless one of its suits is declared void
    assert is_win("123456789m11p234p")
    assert is_win("123456789m11p234p", void_suit="s")
    assert not is_win("123456789m11p234p", void_suit="p")
    assert not is_win("123456789m11p234p", void_suit=0)


def test_seven_pairs_quads_count_as_two_pairs():
    assert is_win("11223344556677m")
    assert is_win("1111m4477m225588p")  # a quad is two pairs (unlike riichi)
    assert is_win("1111m4477m225588p", void_rule=False)
    assert shanten("1111m4477m225588p", form="seven_pairs") == -1
    assert shanten("1111m4477m225588p", form="seven_pairs", void_rule=False) == -1
    assert shanten("1111m4477m225588p", form="regular") > 0
    assert shanten("1111444477m2255p") == -1  # two quads
    assert not is_win("1111m4477m2255p88s")  # three suits
    assert is_win("1111m4477m2255p88s", void_rule=False)
    # 1111223344556m: seven pairs waits on 6m; the regular form adds 2m 3m 5m
    assert waits("1111223344556m") == mask("2356m")
    assert shanten("1122334455667m", form="seven_pairs") == 0
    # seven pairs never with melds
    assert shanten("1122334455m", melds=["pung:9p"], form="seven_pairs") == UNWINNABLE


def test_size_rules_for_is_win():
    assert is_win("123m456m789m11p23p") is False  # 3k+1: never complete
    assert is_win("123m456m789m11p234p") is True
    with pytest.raises(InvalidHandError, match=r"^hand: 12 concealed tiles with 0 melds; expected 13 or 14$"):
        is_win("123m456m789m11p2p")


def test_unwinnable_hands():
    three = ["pung:1m", "pung:1p", "pung:1s"]
    assert shanten("2m3m4m5m", melds=three) == UNWINNABLE
    assert shanten("2m3m4m5m", melds=three, form="regular") == UNWINNABLE
    assert shanten("2m3m4m5m", melds=three, void_rule=False) == 0
    assert waits("2m3m4m5m", melds=three) == 0
    assert waits("2m3m4m5m", melds=three, void_rule=False) == mask("25m")
    assert is_win("2m3m4m5m5m", melds=three) is False
    assert is_win("2m3m4m5m5m", melds=three, void_rule=False) is True
    assert (effective_tiles("2m3m4m5m", melds=three) == -1).all()
    d = discards("2m3m4m5m5m", melds=three)
    assert d.tolist() == [UNWINNABLE if c else NOT_HELD for c in parse_hand("2345m5m")]
    # a meld in the declared void suit
    assert shanten("123m456m789m1m", melds=["pung:5p"], void_suit="p") == UNWINNABLE
    assert shanten("123m456m789m1m", melds=["pung:5p"], void_suit="s") == 0
    assert waits("123m456m789m1m", melds=["pung:5p"], void_suit="s") == mask("147m")
    assert waits("123m456m789m1m", melds=["pung:5p"], void_suit=1) == 0
    # melds in two suits fix the void suit: a third-suit tile is dead weight
    assert shanten("2m", melds=["pung:1m", "pung:3m", "pung:1s", "pung:2s"], void_suit=1) == 0
    assert shanten("2m", melds=["pung:1m", "pung:3m", "pung:1s", "pung:2s"], void_suit=2) == UNWINNABLE
    # seven pairs asked for with melds; "all" ignores the form that cannot win
    assert shanten("1122334455m", melds=["kong:9m"], form="seven_pairs", void_rule=False) == UNWINNABLE
    assert shanten("1122334455m", melds=["kong:9m"], form="all") == \
        shanten("1122334455m", melds=["kong:9m"], form="regular")
    # the constant in int8 batch arrays
    batch = np.stack([melds_to_counts(three)] * 2)
    hands = np.stack([parse_hand("2345m")] * 2)
    out = shanten(hands, melds=batch)
    assert out.dtype == np.int8 and out.tolist() == [UNWINNABLE, UNWINNABLE]
    assert UNWINNABLE == 127 == ref.UNWINNABLE


# RULES.md 3 and 8: a wait is never a kind held four times, melds included; a pung leaves one copy.
FOUR_COPY_CASES = [
    # (hand, melds, shanten, waits)
    ("1m123456789p", ["pung:1m"], 1, ""),          # tanki on the 5th 1m
    ("1111m123456789p", None, 1, ""),              # the same, all four concealed
    ("1111m23m456p789p1p", None, 0, "1p"),
    ("46m123p456p99p", ["pung:5m"], 0, "5m"),      # the last free 5m
    ("46m123p456p99p", ["kong:5m"], 1, ""),        # no 5m left
    ("46m123p456p99p", ["kong_concealed:5m"], 1, ""),
    ("46m123p456p99p", ["kong_added:5m"], 1, ""),
    ("23m456p789p11p", ["pung:1m"], 0, "14m"),
    ("23m456p789p11p", ["kong:1m"], 0, "4m"),
    ("23m456p789p11p", ["kong:4m"], 0, "1m"),
    ("1111223344556m", None, 0, "2356m"),
]


@pytest.mark.parametrize("hand,melds,sh,wait", FOUR_COPY_CASES)
def test_four_copies_counting_melds(hand, melds, sh, wait):
    assert shanten(hand, melds=melds) == sh
    assert waits(hand, melds=melds) == mask(wait), tiles(waits(hand, melds=melds))
    counts = parse_hand(hand) + melds_to_counts(melds)
    eff = effective_tiles(hand, melds=melds)
    assert all(eff[t] == -1 for t in range(27) if counts[t] >= 4)
    for t in mask_to_tiles(mask(wait)):
        assert eff[t] == 4 - counts[t]
    m_counts = melds_to_counts(melds).tolist() if melds else None
    assert check(TWINS["shanten"], parse_hand(hand).tolist(), melds=m_counts) == sh
    assert check(TWINS["waits"], parse_hand(hand).tolist(), melds=m_counts) == mask(wait)


def test_effective_tiles_and_visible_counts():
    hand = "123m456m789m23p55p"
    eff = effective_tiles(hand)
    assert {format_tile(t): int(n) for t, n in enumerate(eff) if n >= 0} == {"1p": 4, "4p": 4}
    eff = effective_tiles(hand, visible="4p")
    assert {format_tile(t): int(n) for t, n in enumerate(eff) if n >= 0} == {"1p": 4, "4p": 3}
    # an effective kind whose copies are all seen is still listed, with 0
    eff = effective_tiles(hand, visible="1111p444p")
    assert {format_tile(t): int(n) for t, n in enumerate(eff) if n >= 0} == {"1p": 0, "4p": 1}
    with pytest.raises(InvalidHandError, match=r"^visible: tile 5p is held and seen 5 times \(max 4\)$"):
        effective_tiles(hand, visible="555p")


def test_advise_counts_the_discard_as_seen():
    best = advise("123m456m789m23p55p9s")
    assert str(best[0]) == "discard 9s: shanten 0, 8 tiles (1p 4p)"
    keys = [(d.shanten, -d.effective_count, d.tile) for d in best]
    assert keys == sorted(keys)
    assert sorted(d.tile for d in best) == mask_to_tiles(mask("123m456m789m23p55p9s"))
    # discard a 5p from 555p: 5p is still effective, with 4 - 3 (held before) = 1 copy left
    five = parse_tile("5p")
    d5 = next(d for d in advise("123m456m789m1p555p9s") if d.tile == five)
    rest = "123m456m789m1p55p9s"
    assert effective_tiles(rest)[five] == 2
    eff = effective_tiles(rest, visible="5p")
    assert eff[five] == 1
    assert d5.shanten == shanten(rest)
    assert d5.effective == tuple(t for t in range(27) if eff[t] >= 0)
    assert d5.effective_count == int(eff[eff > 0].sum())
    with pytest.raises(ValueError, match="advise takes one hand"):
        advise(np.stack([parse_hand("123m456m789m23p55p9s")] * 2))


# ------------------------------------------------------------------------ invariances


def _suit_perm_index(perm):
    """Column index so that new[:, 9 * perm[s] + r] = old[:, 9 * s + r]."""
    idx = np.empty(27, np.int64)
    for s in range(3):
        idx[9 * perm[s]: 9 * perm[s] + 9] = np.arange(9 * s, 9 * s + 9)
    return idx


def _mirror_index():
    return np.array([9 * (t // 9) + 8 - t % 9 for t in range(27)])


def _permute_mask(masks, idx):
    out = np.zeros_like(masks)
    for new, old in enumerate(idx):
        out |= ((masks >> np.uint32(old)) & np.uint32(1)) << np.uint32(new)
    return out


def _all_results(hands13, melds13, voids13, vis13, hands14, melds14, voids14, form):
    return dict(
        sh13=shanten(hands13, melds=melds13, void_suit=voids13, form=form),
        sh14=shanten(hands14, melds=melds14, void_suit=voids14, form=form),
        win=is_win(hands14, melds=melds14, void_suit=voids14),
        waits=waits(hands13, melds=melds13, void_suit=voids13),
        eff=effective_tiles(hands13, melds=melds13, void_suit=voids13, visible=vis13, form=form),
        disc=discards(hands14, melds=melds14, void_suit=voids14, form=form),
    )


@pytest.fixture(scope="module")
def mixed_batches():
    rng = np.random.default_rng(11)
    h13, m13, v13 = random_meld_batch(rng, 1500, waiting=True)
    h14, m14, v14 = random_meld_batch(rng, 1500, waiting=False)
    # plain deals too (the meld-free fast paths)
    p13, p14 = random_deals(rng, 1500, 13), random_deals(rng, 1500, 14, suits=(0, 2))
    h13, h14 = np.concatenate([h13, p13]), np.concatenate([h14, p14])
    z = np.zeros((1500, 27), np.uint8)
    m13, m14 = np.concatenate([m13, z]), np.concatenate([m14, z])
    v13 = np.concatenate([v13, rng.integers(-1, 3, 1500).astype(np.int8)])
    v14 = np.concatenate([v14, rng.integers(-1, 3, 1500).astype(np.int8)])
    held = h13 + m13
    vis13 = np.floor(rng.random(h13.shape) * (5 - held)).astype(np.uint8)
    return h13, m13, v13, vis13, h14, m14, v14


@pytest.mark.parametrize("form", ["all", "regular", "seven_pairs"])
def test_suit_permutation_and_rank_mirror(mixed_batches, form):
    h13, m13, v13, vis13, h14, m14, v14 = mixed_batches
    base = _all_results(h13, m13, v13, vis13, h14, m14, v14, form)
    suit_perms = [(p, _suit_perm_index(p)) for p in permutations(range(3)) if p != (0, 1, 2)]
    for perm, idx in suit_perms + [(None, _mirror_index())]:
        # new column j holds old column idx[j]
        def move(a, idx=idx):
            return np.ascontiguousarray(a[:, idx])

        def move_void(v, perm=perm):
            if perm is None:
                return v
            out = v.copy()
            for s in range(3):
                out[v == s] = perm[s]
            return out

        got = _all_results(move(h13), move(m13), move_void(v13), move(vis13),
                           move(h14), move(m14), move_void(v14), form)
        for key in ("sh13", "sh14", "win"):
            assert (got[key] == base[key]).all(), (perm, key)
        assert (got["waits"] == _permute_mask(base["waits"], idx)).all(), perm
        assert (got["eff"] == base["eff"][:, idx]).all(), perm
        assert (got["disc"] == base["disc"][:, idx]).all(), perm


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


# ------------------------------------------------------------------------ errors="coerce"


def test_coerce_sentinels():
    good13, good14 = parse_hand("123m456m789m11p23p"), parse_hand("123m456m789m11p234p")
    bad = parse_hand("123m456m789m11p2p")  # 12 tiles
    five = good13.copy()
    five[0] = 5
    h13 = np.stack([good13, bad, five, good13])
    h14 = np.stack([good14, bad, good14])
    sh = shanten(h13, errors="coerce")
    assert sh.tolist() == [0, INVALID_ROW, INVALID_ROW, 0] and INVALID_ROW == -100
    assert is_win(h14, errors="coerce").tolist() == [True, False, True]
    w = waits(h13, errors="coerce")
    assert w.dtype == np.uint32 and INVALID_MASK == 0xFFFFFFFF
    assert w.tolist() == [mask("14p"), INVALID_MASK, INVALID_MASK, mask("14p")]
    eff = effective_tiles(h13, errors="coerce")
    assert (eff[1] == INVALID_ROW).all() and (eff[2] == INVALID_ROW).all()
    assert eff[0].tolist() == effective_tiles(good13).tolist()
    d = discards(h14, errors="coerce")
    assert (d[1] == INVALID_ROW).all() and d[2].tolist() == discards(good14).tolist()
    # a 14-tile row is bad for waits; a 13-tile row for discards
    assert waits(np.stack([good14, good13]), errors="coerce").tolist() == [INVALID_MASK, mask("14p")]
    assert (discards(np.stack([good13]), errors="coerce") == INVALID_ROW).all()
    # bad melds / voids / visible rows are coerced too
    melds = np.zeros((2, 27), np.uint8)
    melds[1, 0] = 2
    assert shanten(np.stack([good13, good13]), melds=melds, errors="coerce").tolist() == [0, INVALID_ROW]
    vis = np.zeros((2, 27), np.uint8)
    vis[0, parse_tile("1p")] = 3
    eff = effective_tiles(np.stack([good13, good13]), visible=vis, errors="coerce")
    assert (eff[0] == INVALID_ROW).all() and eff[1].tolist() == effective_tiles(good13).tolist()
    with pytest.raises(ValueError, match="errors: expected 'raise' or 'coerce', got 'ignore'"):
        shanten(good13, errors="ignore")


def test_coerce_on_a_single_hand():
    assert shanten("123m456m789m11p2p", errors="coerce") == INVALID_ROW
    assert is_win("123m456m789m11p2p", errors="coerce") is False
    assert waits("123m456m789m11p2p", errors="coerce") == INVALID_MASK


# ------------------------------------------------------------------------ out=


def test_out_argument():
    hands = np.stack([parse_hand("123m456m789m11p23p")] * 5)
    out = np.full(5, 99, np.int8)
    res = shanten(hands, out=out)
    assert res is out and out.tolist() == [0] * 5
    wout = np.zeros(5, np.uint32)
    assert waits(hands, out=wout) is wout and (wout == mask("14p")).all()
    eout = np.zeros((5, 27), np.int8)
    assert effective_tiles(hands, out=eout) is eout
    bout = np.zeros(5, np.bool_)
    hands14 = np.stack([parse_hand("123m456m789m11p234p")] * 5)
    assert is_win(hands14, out=bout) is bout and bout.all()
    with pytest.raises(TypeError, match=r"^out: expected dtype int8, got int16$"):
        shanten(hands, out=np.zeros(5, np.int16))
    with pytest.raises(TypeError, match=r"^out: expected dtype uint32, got int64$"):
        waits(hands, out=np.zeros(5, np.int64))
    with pytest.raises(TypeError, match=r"^out: expected a numpy array, got list$"):
        shanten(hands, out=[0] * 5)
    with pytest.raises(ValueError, match=r"^out: expected shape \(5,\), got \(4,\)$"):
        shanten(hands, out=np.zeros(4, np.int8))
    with pytest.raises(ValueError, match=r"^out: expected shape \(5, 27\), got \(5,\)$"):
        effective_tiles(hands, out=np.zeros(5, np.int8))
    with pytest.raises(ValueError, match=r"^out: the array is not C-contiguous$"):
        shanten(hands, out=np.zeros(10, np.int8)[::2])
    with pytest.raises(ValueError, match=r"^out: the array is not C-contiguous$"):
        effective_tiles(hands, out=np.zeros((27, 5), np.int8).T)
    ro = np.zeros(5, np.int8)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match=r"^out: the array is read-only$"):
        shanten(hands, out=ro)
    with pytest.raises(ValueError, match=r"^out: only batch calls"):
        shanten(hands[0], out=np.zeros(1, np.int8))
    with pytest.raises(ValueError, match=r"^out: only batch calls"):
        shanten("123m456m789m11p23p", out=np.zeros(1, np.int8))


# ------------------------------------------------------------------------ input forms


def test_read_only_memmap_and_strided_inputs(tmp_path):
    rng = np.random.default_rng(3)
    hands = random_deals(rng, 300, 13)
    want = shanten(hands)
    ro = hands.copy()
    ro.flags.writeable = False
    assert (shanten(ro) == want).all()
    assert (waits(ro) == waits(hands)).all()
    assert shanten(ro[4]) == want[4]
    mm = np.memmap(tmp_path / "hands.u8", dtype=np.uint8, mode="w+", shape=hands.shape)
    mm[:] = hands
    mm.flush()
    mm_ro = np.memmap(tmp_path / "hands.u8", dtype=np.uint8, mode="r", shape=hands.shape)
    assert (shanten(mm_ro) == want).all()
    assert (effective_tiles(mm_ro) == effective_tiles(hands)).all()
    assert shanten(mm_ro[7]) == want[7]
    # a strided single hand is fine (one row); a strided batch is refused
    wide = np.zeros((300, 54), np.uint8)
    wide[:, ::2] = hands
    assert shanten(wide[9, ::2]) == want[9]
    assert effective_tiles(wide[9, ::2]).tolist() == effective_tiles(hands[9]).tolist()
    with pytest.raises(ValueError, match=r"^hands: the array is not C-contiguous; pass "
                                         r"np.ascontiguousarray\(hands\)$"):
        shanten(wide[:, ::2])
    with pytest.raises(ValueError, match="not C-contiguous"):
        shanten(np.asfortranarray(hands))
    # other integer dtypes are accepted and cast
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint64):
        assert (shanten(hands.astype(dtype)) == want).all(), dtype
    assert shanten(hands[0].tolist()) == want[0]
    assert shanten(tuple(hands[0].tolist())) == want[0]
    # a list of tile strings is a batch, and its errors name the row
    got = shanten(["123m456m789m11p23p", "123m456p789s11s23m"])
    assert isinstance(got, np.ndarray) and got.tolist() == [0, 3]
    with pytest.raises(InvalidHandError, match=r"^hands\[1\]: 12 concealed tiles with 0 melds; expected 13 "
                                               r"or 14$"):
        shanten(["123m456m789m11p23p", "123m456p789s11s2m"])
    with pytest.raises(mjfast.TileParseError, match=r"^hands\[1\]: position 16 of"):
        shanten(["123m456m789m11p23p", "123m456p789s11s2x"])
    # a nested list is a batch; a (1, 27) array is a batch of one
    assert (shanten(hands[:5].tolist()) == want[:5]).all()
    one = shanten(hands[:1])
    assert isinstance(one, np.ndarray) and one.shape == (1,) and one[0] == want[0]


def test_wrong_dtype_raises_type_error():
    h = parse_hand("123m456m789m11p23p")
    with pytest.raises(TypeError, match=r"^hands: expected an integer dtype \(uint8 preferred\), got "
                                        r"float64$"):
        shanten(h.astype(float))
    with pytest.raises(TypeError, match=r"^hands: expected an integer dtype \(uint8 preferred\), got bool$"):
        shanten(h.astype(bool))
    with pytest.raises(TypeError, match="got bool"):
        shanten(np.stack([h, h]).astype(bool))
    with pytest.raises(TypeError):
        shanten([1.5] * 27)
    with pytest.raises(TypeError):
        shanten(None)
    with pytest.raises(TypeError, match=r"^melds: expected an integer dtype"):
        shanten(h, melds=np.zeros(27))
    with pytest.raises(TypeError, match=r"^visible: expected an integer dtype"):
        effective_tiles(h, visible=np.zeros(27))


def test_out_of_range_counts_never_wrap():
    h = parse_hand("123m456m789m11p23p")
    batch = np.stack([h] * 20).astype(np.int64)
    batch[17, 13] = 260  # would wrap to 4 as uint8
    with pytest.raises(InvalidHandError, match=r"^hands\[17\]: tile 5p appears 260 times \(max 4\)$"):
        shanten(batch)
    batch[17, 13] = 256  # would wrap to 0
    with pytest.raises(InvalidHandError, match=r"^hands\[17\]: tile 5p appears 256 times \(max 4\)$"):
        waits(batch)
    batch[17, 13] = -1
    with pytest.raises(InvalidHandError, match=r"^hands\[17\]: tile 5p has a negative count \(-1\)$"):
        shanten(batch)
    melds = np.zeros(27, np.int64)
    melds[0] = 259
    with pytest.raises(InvalidHandError, match=r"^melds: tile 1m appears 259 times \(max 4\)$"):
        shanten(h, melds=melds)
    with pytest.raises(InvalidHandError, match=r"appears 300 times"):
        shanten([300] + [0] * 26)


def test_out_of_range_single_hand_is_named_hand():
    h = parse_hand("123m456m789m11p23p").astype(np.int64)
    h[13] = 260
    with pytest.raises(InvalidHandError, match=r"^hand: tile 5p appears 260 times \(max 4\)$"):
        shanten(h)


def test_wrong_shapes():
    h = parse_hand("123m456m789m11p23p")
    with pytest.raises(ValueError, match=r"^hands: expected 27 counts \(1m..9m, 1p..9p, 1s..9s\), got 26$"):
        shanten(h[:26])
    with pytest.raises(ValueError, match=r"^hands: expected shape \(N, 27\), got \(2, 28\)$"):
        shanten(np.zeros((2, 28), np.uint8))
    with pytest.raises(ValueError, match=r"^hands: expected shape \(27,\) or \(N, 27\), got 3-D shape \(1, "
                                         r"2, 27\)$"):
        shanten(np.zeros((1, 2, 27), np.uint8))
    with pytest.raises(ValueError, match=r"got 0-D"):
        shanten(np.uint8(3))
    with pytest.raises(ValueError, match=r"^melds: expected 3 rows like hands, got 2$"):
        shanten(np.stack([h] * 3), melds=np.zeros((2, 27), np.uint8))
    with pytest.raises(ValueError, match=r"^visible: expected 3 rows like hands, got 1$"):
        effective_tiles(np.stack([h] * 3), visible=np.zeros((1, 27), np.uint8))
    with pytest.raises(ValueError, match=r"^melds: expected shape \(27,\), got 2-D"):
        shanten(h, melds=np.zeros((1, 27), np.uint8))


def test_wrong_hand_sizes_and_counts_are_worded():
    h = parse_hand("123m456m789m11p23p")
    batch = np.stack([h] * 20)
    batch[17, 13] = 5
    with pytest.raises(InvalidHandError, match=r"^hands\[17\]: tile 5p appears 5 times \(max 4\)$"):
        shanten(batch)
    batch[17, 13] = 0
    batch[17, 9] = 1
    with pytest.raises(InvalidHandError, match=r"^hands\[17\]: 12 concealed tiles with 0 melds; expected "
                                               r"13 or 14$"):
        shanten(batch)
    with pytest.raises(InvalidHandError, match=r"^hands\[17\]: 12 concealed tiles with 0 melds; expected "
                                               r"13$"):
        waits(batch)
    with pytest.raises(InvalidHandError, match=r"^hands\[0\]: 13 concealed tiles with 0 melds; expected 14$"):
        discards(batch)
    with pytest.raises(InvalidHandError, match=r"^hand: 14 concealed tiles with 0 melds; expected 13$"):
        waits("123m456m789m11p234p")
    with pytest.raises(InvalidHandError, match=r"^hand: 14 concealed tiles with 0 melds; expected 13$"):
        effective_tiles(parse_hand("123m456m789m11p234p"))
    with pytest.raises(InvalidHandError, match=r"^hand: 13 concealed tiles with 1 meld; expected 10 or 11$"):
        shanten("123m456m789m11p23p", melds=["pung:9s"])
    with pytest.raises(InvalidHandError, match=r"^hand: 13 concealed tiles with 2 melds; expected 7 or 8$"):
        shanten("123m456m789m11p23p", melds=["pung:9s", "kong:8s"])
    with pytest.raises(InvalidHandError, match=r"^hand: tile 5p appears 5 times \(max 4\)$"):
        shanten([0] * 13 + [5] + [1] * 8 + [0] * 5)
    b = h.copy()
    b[13] = 5
    with pytest.raises(InvalidHandError, match=r"^hand: tile 5p appears 5 times \(max 4\)$"):
        shanten(b)  # the uint8 single-hand path words it the same
    with pytest.raises(InvalidHandError, match=r"^hand: 0 concealed tiles with 0 melds; expected 13 or 14$"):
        shanten(np.zeros(27, np.uint8))


# ------------------------------------------------------------------------ melds


def test_melds_in_every_form():
    hand = "46m123p456p99p"
    want_sh, want_w = 0, mask("5m")
    forms = [
        ["pung:5m"],
        "pung:5m",
        [Meld("pung", 4)],
        Meld.parse("pung:5m"),
        melds_to_counts(["pung:5m"]),
        melds_to_counts(["pung:5m"]).astype(np.int64),
        melds_to_counts(["pung:5m"]).tolist(),
    ]
    for melds in forms:
        assert shanten(hand, melds=melds) == want_sh, melds
        assert waits(hand, melds=melds) == want_w, melds
    # mixed strings and Meld objects
    assert shanten("46m12p", melds=["pung:5m", Meld("kong", 13), "kong_concealed:9p"]) == \
        check(TWINS["shanten"], parse_hand("46m12p").tolist(),
              melds=melds_to_counts(["pung:5m", "kong:5p", "kong:9p"]).tolist())
    # per-row melds (N, 27) and one row broadcast to all
    hands = np.stack([parse_hand(hand)] * 3)
    rows = np.stack([melds_to_counts(["pung:5m"]), melds_to_counts(["kong:5m"]),
                     melds_to_counts(["pung:9s"])])
    assert shanten(hands, melds=rows, void_rule=False).tolist() == [0, 1, 0]
    assert waits(hands, melds=rows, void_rule=False).tolist() == [mask("5m"), 0, mask("5m")]
    assert waits(hands, melds=rows).tolist() == [mask("5m"), 0, 0]  # 9s: three suits
    assert (shanten(hands, melds=melds_to_counts(["pung:5m"])) == 0).all()
    assert (shanten(hands, melds=["pung:5m"]) == 0).all()
    # no melds in any spelling
    for none in (None, [], (), np.zeros(27, np.uint8)):
        assert shanten("123m456m789m11p23p", melds=none) == 0


def test_bad_melds():
    with pytest.raises(InvalidHandError, match=r"^melds: tile 1m has 2 meld tiles \(must be 0, 3 or 4\)$"):
        shanten("123m456m789m11p23p", melds=[2] + [0] * 26)
    with pytest.raises(InvalidHandError, match=r"^hand: tile 2p appears 5 times counting melds \(max 4\)$"):
        shanten("23m456p789p11p2p", melds=["kong:2p"])
    with pytest.raises(InvalidHandError, match=r"^hand: tile 5m appears 5 times counting melds \(max 4\)$"):
        shanten("56m123p456p99p", melds=["kong:5m"])
    hands = np.stack([parse_hand("56m123p456p99p")] * 4)
    melds = np.zeros((4, 27), np.uint8)
    melds[:, 26] = 3
    melds[2, 4] = 4
    with pytest.raises(InvalidHandError, match=r"^hands\[2\]: tile 5m appears 5 times counting melds \(max "
                                               r"4\)$"):
        shanten(hands, melds=melds)
    melds[2, 4] = 1
    with pytest.raises(InvalidHandError,
                       match=r"^melds\[2\]: tile 5m has 1 meld tiles \(must be 0, 3 or 4\)$"):
        shanten(hands, melds=melds)
    five = np.zeros(27, np.uint8)
    five[[0, 3, 9, 12, 18]] = 3
    with pytest.raises(InvalidHandError, match=r"^melds: 5 melds \(max 4\)$"):
        shanten(np.zeros(27, np.uint8), melds=five)
    with pytest.raises(InvalidHandError):
        shanten("12m", melds=["pung:5m", "kong:5m", "pung:1p", "pung:2p"])  # a kind melded twice
    with pytest.raises(ValueError):
        shanten("123m456m789m11p23p", melds=["chow:123m"])


# ------------------------------------------------------------------------ void_suit, options


def test_void_suit_values():
    hand = "123456789m11p234p"
    for value, win in [(None, True), (-1, True), ("m", False), ("p", False), ("s", True),
                       (0, False), (1, False), (2, True), (np.int64(2), True),
                       (np.int8(0), False)]:
        assert is_win(hand, void_suit=value) is win, value
    hands = np.stack([parse_hand(hand)] * 4)
    assert is_win(hands, void_suit=np.array([-1, 0, 1, 2])).tolist() == [True, False, False, True]
    assert is_win(hands, void_suit=[-1, 0, 1, 2]).tolist() == [True, False, False, True]
    assert is_win(hands, void_suit="s").tolist() == [True] * 4
    for bad in ("z", "mp", 3, -2, 1.0):
        with pytest.raises(InvalidArgumentError, match=r"^void_suit: expected None, -1, 0, 1, 2, 'm', 'p', "
                                                       r"'s', '万', '筒', '饼', '条' or '索', got "):
            shanten(hand, void_suit=bad)
    with pytest.raises(TypeError, match=r"^void_suit: expected None, -1, 0, 1, 2, 'm', 'p', 's', '万', '筒', "
                                        r"'饼', '条' or '索', got True$"):
        shanten(hand, void_suit=True)
    with pytest.raises(TypeError, match=r"^void_suit: expected None, -1, 0, 1, 2, 'm', 'p', 's', '万', '筒', "
                                        r"'饼', '条' or '索', got ndarray$"):
        shanten(hand, void_suit=np.array([1]))  # arrays are for batches
    with pytest.raises(ValueError, match=r"^void_suit\[3\]: 5 is not -1 \(none\), 0, 1 or 2$"):
        shanten(hands, void_suit=np.array([0, 1, 2, 5]))
    with pytest.raises(ValueError, match=r"^void_suit\[0\]: -3 is not -1 \(none\), 0, 1 or 2$"):
        shanten(hands, void_suit=np.array([-3, 1, 2, 0]))
    with pytest.raises(ValueError, match=r"^void_suit: expected shape \(4,\) like hands, got \(3,\)$"):
        shanten(hands, void_suit=np.array([0, 1, 2]))
    with pytest.raises(TypeError, match=r"^void_suit: expected an integer array \(-1 for none\), got "
                                        r"float64$"):
        shanten(hands, void_suit=np.zeros(4))
    with pytest.raises(TypeError, match=r"got bool"):
        shanten(hands, void_suit=np.zeros(4, bool))
    for name, code in [("万", 0), ("筒", 1), ("饼", 1), ("条", 2), ("索", 2)]:
        assert shanten(hand, void_suit=name) == shanten(hand, void_suit=code)
    with pytest.raises(ValueError, match=r"^void_suit: a declared void suit needs void_rule=True$"):
        shanten(hand, void_suit="m", void_rule=False)
    with pytest.raises(ValueError, match=r"^void_suit: a declared void suit needs void_rule=True$"):
        shanten(hands, void_suit=np.array([0, 1, 2, 0]), void_rule=False)


def test_other_option_checks():
    h = parse_hand("123m456m789m11p23p")
    for hand in (h, "123m456m789m11p23p", h.tolist()):
        with pytest.raises(ValueError, match=r"^form: expected 'all', 'regular' or 'seven_pairs', got 'x'$"):
            shanten(hand, form="x")
        with pytest.raises(TypeError, match=r"^void_rule: expected a bool, got 1$"):
            shanten(hand, void_rule=1)
        with pytest.raises(ValueError, match=r"^workers: expected a positive int or -1 \(every core\), got "
                                             r"0$"):
            shanten(hand, workers=0)
        with pytest.raises(ValueError, match=r"^errors: expected 'raise' or 'coerce', got 'no'$"):
            shanten(hand, errors="no")
    assert shanten(h, void_rule=np.bool_(True)) == 0


@pytest.mark.parametrize("workers", [True, 1.0])
def test_workers_type_checked_on_every_path(workers):
    h = parse_hand("123m456m789m11p23p")
    with pytest.raises(TypeError, match=r"^workers: expected a positive int or -1 \(every core\), got "):
        shanten(h.tolist(), workers=workers)
    with pytest.raises(TypeError, match=r"^workers: expected a positive int or -1 \(every core\), got "):
        shanten(h, workers=workers)


# ------------------------------------------------------------------------ result types


def test_single_hand_result_types():
    h13, h14 = parse_hand("123m456m789m11p23p"), parse_hand("123m456m789m11p234p")
    for hand in (h13, "123m456m789m11p23p", h13.tolist()):
        assert type(shanten(hand)) is int
        assert type(is_win(hand)) is bool
        assert type(waits(hand)) is int
        eff = effective_tiles(hand)
        assert isinstance(eff, np.ndarray) and eff.shape == (27,) and eff.dtype == np.int8
    d = discards(h14)
    assert isinstance(d, np.ndarray) and d.shape == (27,) and d.dtype == np.int8
    assert type(shanten(h14)) is int and type(is_win(h14)) is bool


def test_empty_batch():
    empty = np.zeros((0, 27), np.uint8)
    for fn, dtype, shape in [(shanten, np.int8, (0,)), (is_win, np.bool_, (0,)),
                             (waits, np.uint32, (0,)), (effective_tiles, np.int8, (0, 27)),
                             (discards, np.int8, (0, 27))]:
        for workers in (1, 2):
            res = fn(empty, workers=workers)
            assert isinstance(res, np.ndarray) and res.dtype == dtype and res.shape == shape
    assert shanten(empty, melds=np.zeros((0, 27), np.uint8), void_suit=np.zeros(0, np.int8)).shape == (0,)


def test_mask_to_tiles():
    assert mask_to_tiles(0) == []
    assert mask_to_tiles((1 << 27) - 1) == list(range(27))
    assert mask_to_tiles(np.uint32(0b1001)) == [0, 3]
    with pytest.raises(ValueError, match="27-bit"):
        mask_to_tiles(1 << 27)
    with pytest.raises(ValueError, match="27-bit"):
        mask_to_tiles(INVALID_MASK)


# ------------------------------------------------------------------------ docstrings


@pytest.mark.parametrize("module", ["mjfast", "mjfast.analysis"])
def test_docstring_examples(module):
    import importlib

    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_docstring_examples_efficiency():
    import mjfast.efficiency

    result = doctest.testmod(mjfast.efficiency, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_docstring_examples_efficiency_values():
    """The efficiency examples' values hold once the tile helpers are in scope."""
    import mjfast.efficiency

    result = doctest.testmod(mjfast.efficiency, optionflags=doctest.ELLIPSIS,
                             extraglobs={"format_tile": format_tile, "parse_tile": parse_tile})
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("tiles", [13, 14])
def test_void_class_path_equals_the_general_path(tiles):
    """Meld-free rows under the void rule (every form) take the void-class tables; an all-zero
    melds array sends the same rows through the general path (classes + seven pairs apart).
    Pair-rich rows make seven pairs the better form often."""
    rng = np.random.default_rng(23)
    dealt = random_deals(rng, 20_000, tiles)
    pairs = np.zeros((5_000, 27), np.uint8)
    for row in pairs:  # seven pairs (a quad now and then), one tile off for 13
        kinds = rng.choice(27, 6, replace=False)
        row[kinds] = 2
        row[kinds[0] if rng.random() < 0.2 else rng.choice(np.setdiff1d(np.arange(27), kinds))] += 2
        row[kinds[1]] -= 14 - tiles
    hands = np.concatenate([dealt, pairs])
    voids = rng.integers(-1, 3, len(hands)).astype(np.int8)
    zeros = np.zeros_like(hands)
    for void in (None, voids):
        fast = shanten(hands, void_suit=void)
        general = shanten(hands, void_suit=void, melds=zeros)
        assert np.array_equal(fast, general)
        assert (fast == shanten(hands, void_suit=void, form="seven_pairs")).mean() > 0.1


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
