"""The public core API's answers (shanten, is_win, waits, effective_tiles, discards, advise):
known answers and invariances.

Known answers come from the classic multi-wait shapes of one suit (听牌的型态 · 听多门), RULES.md
sections 2-3 and 8 (void rule, UNWINNABLE, the 4-copy limit counting melds; a wait is never a
kind already held four times, melds included). The invariances: suit permutations and the rank
mirror, and the void-class tables against the general path."""

from __future__ import annotations

from itertools import permutations

import numpy as np
import pytest

from mjfast import (
    NOT_HELD,
    UNWINNABLE,
    InvalidHandError,
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
from tests.strategies import SEED_WAITS, mask_of, random_deals, random_meld_batch
from tests.twins import TWINS, check

SUITS = "mps"


def tiles(mask: int) -> list[str]:
    return [format_tile(t) for t in mask_to_tiles(mask)]


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
    want = mask_of(ranks + SUITS[a])
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
        want.append(mask_of(ranks + SUITS[a]))
    got = waits(np.array(rows))
    assert got.tolist() == want


# ------------------------------------------------------------------------ rules: known answers


def test_void_rule_examples():
    assert shanten("123m456p789s11s23m") == 3
    assert shanten("123m456p789s11s23m", void_rule=False) == 0
    assert shanten("123m456p789s11s23m", form="regular", void_rule=False) == 0
    assert waits("123m456p789s11s23m") == 0
    assert waits("123m456p789s11s23m", void_rule=False) == mask_of("14m")
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
    assert waits("1111223344556m") == mask_of("2356m")
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
    assert waits("2m3m4m5m", melds=three, void_rule=False) == mask_of("25m")
    assert is_win("2m3m4m5m5m", melds=three) is False
    assert is_win("2m3m4m5m5m", melds=three, void_rule=False) is True
    assert (effective_tiles("2m3m4m5m", melds=three) == -1).all()
    d = discards("2m3m4m5m5m", melds=three)
    assert d.tolist() == [UNWINNABLE if c else NOT_HELD for c in parse_hand("2345m5m")]
    # a meld in the declared void suit
    assert shanten("123m456m789m1m", melds=["pung:5p"], void_suit="p") == UNWINNABLE
    assert shanten("123m456m789m1m", melds=["pung:5p"], void_suit="s") == 0
    assert waits("123m456m789m1m", melds=["pung:5p"], void_suit="s") == mask_of("147m")
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
    assert waits(hand, melds=melds) == mask_of(wait), tiles(waits(hand, melds=melds))
    counts = parse_hand(hand) + melds_to_counts(melds)
    eff = effective_tiles(hand, melds=melds)
    assert all(eff[t] == -1 for t in range(27) if counts[t] >= 4)
    for t in mask_to_tiles(mask_of(wait)):
        assert eff[t] == 4 - counts[t]
    m_counts = melds_to_counts(melds).tolist() if melds else None
    assert check(TWINS["shanten"], parse_hand(hand).tolist(), melds=m_counts) == sh
    assert check(TWINS["waits"], parse_hand(hand).tolist(), melds=m_counts) == mask_of(wait)


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
    assert sorted(d.tile for d in best) == mask_to_tiles(mask_of("123m456m789m23p55p9s"))
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
