"""Short hands (RULES.md 7: the 5- and 6-player tables): every core kernel with ``sets=3``
(10 / 11 concealed tiles less 3 per meld) and ``sets=2`` (7 / 8), against the pure-Python
reference (mjfast._ref.core, which reads the definitions of RULES.md 3 with ``sets - m`` sets to
place), one hand at a time through every spelling and as batches; known answers; seven pairs
not existing there; and the refusals of sizes and ``sets`` values that do not fit.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mjfast
from mjfast.errors import InvalidArgumentError, InvalidHandError
from mjfast.stats import exact
from mjfast.tiles import format_tile, parse_hand
from tests.strategies import FORMS, batch_arrays, batches, cases, hand_text
from tests.twins import TWINS, check, check_refused, check_spellings, spellings

SHORT = st.sampled_from([2, 3])


@settings(max_examples=400)
@given(SHORT.flatmap(lambda n: cases(sets=n)))
def test_shanten_and_is_win_match_reference(case):
    for form in FORMS:
        check_spellings(TWINS["shanten"], spellings(case.hand), form=form, melds=case.api_melds,
                        **case.opts())
    check_spellings(TWINS["is_win"], spellings(case.hand), melds=case.api_melds, **case.opts())


@settings(max_examples=150)
@given(SHORT.flatmap(lambda n: cases(size="waiting", visible=True, sets=n)))
def test_waits_and_effective_tiles_match_reference(case):
    args = dict(melds=case.api_melds, **case.opts())
    hands = spellings(case.hand)
    check_spellings(TWINS["waits"], hands, **args)
    check_spellings(TWINS["effective_tiles"], hands, visible=np.array(case.visible, np.uint8),
                    form=case.form, **args)


@settings(max_examples=150)
@given(SHORT.flatmap(lambda n: cases(size="complete", visible=True, sets=n)))
def test_discards_and_advise_match_reference(case):
    args = dict(melds=case.api_melds, **case.opts())
    check_spellings(TWINS["discards"], spellings(case.hand), form=case.form, **args)
    check(TWINS["advise"], hand_text(case.hand), visible=np.array(case.visible, np.uint8),
          form=case.form, **args)


@settings(max_examples=80)
@given(SHORT.flatmap(lambda n: batches(visible=True, sets=n)))
def test_batch_equals_rows(batch):
    rows, void_rule, form = batch
    hands, melds, voids, visible = batch_arrays(rows)
    sets = rows[0].sets
    opts = dict(melds=melds if melds.any() else None, void_rule=void_rule,
                void_suit=voids if void_rule else None, sets=sets)
    check(TWINS["shanten rows"], hands, form=form, **opts)
    check(TWINS["is_win rows"], hands, **opts)
    assert (mjfast.shanten(hands, form=form, workers=2, **opts)
            == mjfast.shanten(hands, form=form, **opts)).all()


@pytest.mark.parametrize(("hand", "sets", "expect"), [
    ("123m456m11p23p", 3, 0),        # 5 players: waits on 1p / 4p
    ("123m456m11p23p4p", 3, -1),     # complete, 11 tiles
    ("123m11p23p", 2, 0),            # 6 players
    ("123m11p234p", 2, -1),          # complete, 8 tiles
    ("159m159p5s", 2, 4),            # e.g. 11m 555m 999p: five tiles to draw
    ("11335577m", 2, 1),             # four pairs: no seven pairs with 8 tiles
    ("1199m1199p55s", 3, 2),         # three suits: the 5s go for two tiles
])
def test_known_shanten(hand, sets, expect):
    assert mjfast.shanten(hand, sets=sets) == expect
    assert mjfast.shanten(np.stack([parse_hand(hand)] * 3), sets=sets).tolist() == [expect] * 3


def test_waits_of_short_hands():
    tiles = [format_tile(t) for t in mjfast.mask_to_tiles(mjfast.waits("1112345m", sets=2))]
    assert tiles == ["2m", "3m", "5m", "6m"]
    tiles = [format_tile(t) for t in mjfast.mask_to_tiles(
        mjfast.waits("2345m", melds=["pung:9m"], sets=2))]
    assert tiles == ["2m", "5m"]
    # with all sets melded the hand is a single tile waiting on its pair
    melds = ["pung:1m", "kong:9m"]
    assert mjfast.mask_to_tiles(mjfast.waits("5p", melds=melds, sets=2)) == [13]
    assert mjfast.mask_to_tiles(mjfast.waits("5p", melds=melds, void_suit="p", sets=2)) == []
    assert mjfast.mask_to_tiles(mjfast.waits("1m", melds=melds, sets=2)) == []  # no fifth 1m


def test_no_seven_pairs_in_short_hands():
    assert mjfast.shanten("1133557m", sets=2, form="seven_pairs") == mjfast.UNWINNABLE
    assert mjfast.shanten("11335577m", sets=2, form="seven_pairs") == mjfast.UNWINNABLE
    assert mjfast.shanten("11335577m", sets=2, form="all") == mjfast.shanten(
        "11335577m", sets=2, form="regular") == 1
    assert not mjfast.is_win("1133557799m", sets=3)
    assert mjfast.waits("1133557m", sets=2) == 0


def test_default_is_four_sets():
    hand = "123m456m789m11p23p"
    assert mjfast.shanten(hand, sets=4) == mjfast.shanten(hand) == 0
    assert mjfast.waits(hand, sets=4) == mjfast.waits(hand)


@pytest.mark.parametrize("sets", [1, 5, 0, -1, True, 3.0, "3", None])
def test_bad_sets_are_refused(sets):
    with pytest.raises(InvalidArgumentError, match="sets"):
        mjfast.shanten("123m11p23p", sets=sets)
    with pytest.raises(InvalidArgumentError, match="sets"):
        mjfast.shanten(np.stack([parse_hand("123m11p23p")]), sets=sets)


def test_sizes_that_do_not_fit_the_sets():
    with pytest.raises(InvalidHandError, match=r"hand: 13 concealed tiles with 0 melds; "
                                               r"expected 7 or 8 \(sets=2\)"):
        mjfast.shanten("123m456m789m11p23p", sets=2)
    with pytest.raises(InvalidHandError, match=r"hands\[1\]: 8 concealed tiles .* expected 10 "
                                               r"\(sets=3\)"):
        mjfast.waits(np.stack([parse_hand("123m456m11p23p"), parse_hand("123m11p234p")]), sets=3)
    with pytest.raises(InvalidHandError, match=r"3 melds \(max 2 with sets=2\)"):
        mjfast.shanten("5m", melds=["pung:1m", "pung:2m", "pung:3m"], sets=2)
    check_refused(TWINS["shanten"], "123m456m789m11p23p", sets=3)
    check_refused(TWINS["discards"], "123m11p23p", sets=2)
    check_refused(TWINS["waits"], "123m11p234p", sets=2)


def _single_suit(size: int) -> np.ndarray:
    rows = [c for c in itertools.product(range(5), repeat=9) if sum(c) == size]
    hands = np.zeros((len(rows), 27), np.uint8)
    hands[:, :9] = rows
    return hands


def _complete_patterns(sets: int) -> set[tuple[int, ...]]:
    """Every one-suit multiset of `sets` sets plus a pair, enumerated directly."""
    shapes = [(r, r, r) for r in range(9)] + [(r, r + 1, r + 2) for r in range(7)]
    out = set()
    for combo in itertools.combinations_with_replacement(shapes, sets):
        for pair in range(9):
            c = [0] * 9
            for t in (*itertools.chain.from_iterable(combo), pair, pair):
                c[t] += 1
            if max(c) <= 4:
                out.add(tuple(c))
    return out


@pytest.mark.parametrize("sets", [2, 3])
def test_every_single_suit_pattern(sets):
    """Every one-suit hand of 3 * sets + 2 tiles: is_win exactly on the enumerated complete
    patterns, shanten -1 there; every one of 3 * sets + 1 tiles: waits exactly the kinds that
    complete it. A sample of both sizes against the reference's shanten."""
    complete = _complete_patterns(sets)
    full = _single_suit(3 * sets + 2)
    wins = mjfast.is_win(full, sets=sets)
    assert {tuple(h[:9]) for h in full[wins]} == complete
    assert ((mjfast.shanten(full, sets=sets) == -1) == wins).all()
    short = _single_suit(3 * sets + 1)
    masks = mjfast.waits(short, sets=sets)
    for h, mask in zip(short, masks.tolist()):
        want = 0
        for r in range(9):
            c = h[:9].copy()
            c[r] += 1
            if c[r] <= 4 and tuple(c) in complete:
                want |= 1 << r
        assert mask == want, hand_text(h)
    rng = np.random.default_rng(sets)
    for hands in (full, short):
        sample = hands[rng.choice(len(hands), 150, replace=False)]
        check(TWINS["shanten rows"], sample, sets=sets)


def _deals(wall: list[int], n: int) -> tuple[np.ndarray, list[int]]:
    """Every multiset of n tiles from `wall` (27 copies per kind) and its number of deals."""
    kinds = [t for t in range(27) if wall[t]]
    rows: list[list[int]] = []
    weights: list[int] = []

    def walk(i: int, left: int, row: list[int], w: int) -> None:
        if i == len(kinds):
            if left == 0:
                rows.append(row.copy())
                weights.append(w)
            return
        t = kinds[i]
        for c in range(min(wall[t], left) + 1):
            row[t] = c
            walk(i + 1, left - c, row, w * math.comb(wall[t], c))
        row[t] = 0

    walk(0, n, [0] * 27, 1)
    return np.array(rows, np.uint8), weights


@pytest.mark.parametrize(("n", "sets"), [(7, 2), (8, 2), (10, 3), (11, 3)])
def test_exact_deal_statistics_are_short_hand_shanten(n, sets):
    """mjfast.stats.exact(n) (a hand of n tiles aims at (n - 1) // 3 sets) counts the deals of
    a short hand by the shanten of sets=...: every deal of a small wall, weighted."""
    wall = [2] * 9 + [1] * 6 + [0] * 12
    hands, weights = _deals(wall, n)
    got: dict[int, int] = {}
    for s, w in zip(mjfast.shanten(hands, sets=sets).tolist(), weights):
        got[s] = got.get(s, 0) + w
    assert got == exact(n, wall=wall).shanten
