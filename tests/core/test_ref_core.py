"""Known answers and independent checks for the pure-Python reference mjfast._ref.core.

The reference is the oracle for the compiled kernels, so it is checked here against:
- known answers: the classic multi-wait shapes of one suit and hand-computed shanten values;
- a literal enumeration of set multisets (the per-suit pattern costs);
- a brute-force win test by recursive decomposition, and the exchange definition of shanten
  (ready = one draw wins; 1-shanten = draw, discard, then one draw wins);
- invariants (suit permutation, rank mirror) and identities between the functions.
"""

from __future__ import annotations

import random
import time
from functools import cache
from itertools import combinations_with_replacement, permutations

import pytest

from mjfast._ref import core
from mjfast._ref.core import (
    NOT_HELD,
    UNWINNABLE,
    advise,
    discards,
    effective_tiles,
    is_win,
    shanten,
    suit_costs,
    waits,
)
from mjfast.tiles import Meld, format_hand, melds_to_counts, parse_hand, parse_tile
from tests.strategies import SEED_WAITS


def H(text: str) -> list[int]:
    return parse_hand(text).tolist()


def M(*melds: str) -> list[int]:
    return melds_to_counts(list(melds)).tolist()


def tiles_of_mask(mask: int) -> str:
    return format_hand([(mask >> t) & 1 for t in range(27)])


def mask_of(text: str) -> int:
    return sum(1 << t for t, c in enumerate(H(text)) if c)


# ------------------------------------------------------------------------------ seed waits

# Complete the shape to 13 tiles with sets (and a pair where the shape has 3k+2 tiles) in a
# second suit; the filler adds no waits of its own (the shape suit cannot be completed
# around a filler wait), so the hand's waits are exactly the shape's.
FILLER = {4: "123456789", 5: "12345699", 7: "123456", 10: "123", 13: ""}


def seed_hand(shape: str, shape_suit: str, filler_suit: str) -> str:
    filler = FILLER[len(shape)]
    return shape + shape_suit + (filler + filler_suit if filler else "")


@pytest.mark.parametrize("shape, ranks", SEED_WAITS)
def test_seed_wait_shapes(shape, ranks):
    hand = H(seed_hand(shape, "m", "p"))
    assert shanten(hand) == 0
    assert tiles_of_mask(waits(hand)) == ranks + "m"
    # the same in every pair of suits, with a declared void suit in the third
    for a, b in permutations("mps", 2):
        third = "mps".replace(a, "").replace(b, "")
        hand = H(seed_hand(shape, a, b))
        assert tiles_of_mask(waits(hand)) == ranks + a
        assert tiles_of_mask(waits(hand, void_suit="mps".index(third))) == ranks + a
        assert tiles_of_mask(waits(hand, void_rule=False)) == ranks + a
        # declaring the shape's suit void: nothing wins without discarding it first
        assert waits(hand, void_suit="mps".index(a)) == 0


def test_nine_gates_waits_on_all_nine():
    hand = H("1112345678999m")
    assert tiles_of_mask(waits(hand)) == "123456789m"
    assert shanten(hand) == 0
    # each completion is a win, and a tenth kind (another suit) is not
    for t in range(9):
        assert is_win([c + (i == t) for i, c in enumerate(hand)])
    assert not is_win([c + (i == 9) for i, c in enumerate(hand)])


# ------------------------------------------------------------------------------ known shanten


@pytest.mark.parametrize(
    "text, expected",
    [
        ("123m456m789m123p55p", -1),
        ("11223344556677m", -1),  # both forms
        ("11112345678999m", -1),  # 111 123 456 789 99
        ("123m456m789m12p55p", 0),  # 13 tiles, waits on 3p
        ("123m456m789m123p5p", 0),  # single wait 5p
        ("2345m123p456p789p", 0),
        ("1112345678999m", 0),
    ],
)
def test_shanten_known(text, expected):
    assert shanten(H(text)) == expected


def test_void_rule_three_suits():
    hand = H("123456789m11p123s")  # a riichi-style win, but three suits
    assert shanten(hand, void_rule=False) == -1
    assert not is_win(hand)
    assert is_win(hand, void_rule=False)
    # drop the 11p pair for a pair in m or s (2 tiles) -> 1; replacing 123s costs 3 -> 2
    assert shanten(hand) == 1
    assert shanten(hand, void_suit=1) == 1
    assert shanten(hand, void_suit=2) == 2
    # void m: C holds no m at all: keep 11p 123s, add three sets (9 tiles) -> 8
    assert shanten(hand, void_suit=0) == 8
    # a declared void suit is part of the void rule: asking for both is an error
    with pytest.raises(ValueError, match="void_rule"):
        shanten(hand, void_suit=0, void_rule=False)
    with pytest.raises(ValueError, match="void_suit"):
        shanten(hand, void_suit=3)


def test_hand_entirely_in_the_void_suit():
    # C may hold no tile of H: |C - H| = |C| = 14 - 3m
    assert shanten(H("1112345678999m"), void_suit=0) == 13
    assert shanten(H("11112345678999m"), void_suit=0) == 13
    assert shanten(H("1112345678m"), melds=M("pung:5p"), void_suit=0) == 10
    assert shanten(H("1112345678999m")) == 0


def test_seven_pairs_quad_counts_as_two_pairs():
    hand = H("1111m3355m7799p22p")  # 1m x4 = two pairs, + 33 55 m, 22 77 99 p
    assert shanten(hand, form="seven_pairs") == -1
    assert shanten(hand) == -1
    assert is_win(hand)
    assert shanten(hand, form="regular") > -1
    assert shanten(hand, form="seven_pairs", void_rule=False) == -1  # Sichuan reading kept
    # 13 tiles: 1111m 33 55 m 77 99 p + 2p: waits 2p only (a fifth 1m does not exist)
    hand13 = H("1111m3355m7799p2p")
    assert tiles_of_mask(waits(hand13)) == "2p"


def test_seven_pairs_void_rule():
    # 11 22 33 55 77 m, 99p, 1s: a seven-pairs wait on 1s, but that makes three suits
    hand = H("1122335577m99p1s")
    assert shanten(hand, void_rule=False) == 0
    assert tiles_of_mask(waits(hand, void_rule=False)) == "1s"
    # Sichuan: C may not hold 1s, so C holds at most 12 of H's tiles: |C - H| >= 2; and
    # 11 22 33 55 77 77 m 99p (7777m = two pairs) reaches 2 -> shanten 1
    assert shanten(hand, form="seven_pairs") == 1
    assert shanten(hand) == 1
    assert waits(hand) == 0


def test_melds_cap_a_kind():
    hand = H("13m456p789p11p")  # 10 concealed tiles + 1 meld: 1_3 waits on 2m
    assert tiles_of_mask(waits(hand, melds=M("pung:2m"))) == "2m"  # a fourth 2m exists
    assert shanten(hand, melds=M("pung:2m")) == 0
    # with a kong of 2m no 2m is left: 13m can never become 123m. Best: 11m pair + 111p
    # (or 33m + 111p, 111m/333m + ...) = 2 added tiles -> shanten 1
    assert waits(hand, melds=M("kong:2m")) == 0
    assert shanten(hand, melds=M("kong:2m")) == 1
    assert shanten(hand, melds=M("kong_concealed:2m"), void_rule=False) == 1


def test_pung_plus_fourth_copy_concealed():
    hand = H("5m123p456p789p")  # tanki on 5m
    assert tiles_of_mask(waits(hand, melds=M("pung:1m"))) == "5m"
    assert shanten(hand, melds=M("pung:1m")) == 0
    # pung 5m + the fourth 5m concealed: all four held, no fifth copy -> not ready;
    # 5m cannot be paired (cap 1), so the pair costs 2 tiles -> shanten 1
    assert waits(hand, melds=M("pung:5m")) == 0
    assert shanten(hand, melds=M("pung:5m")) == 1
    eff = effective_tiles(hand, melds=M("pung:5m"))
    assert eff[4] == -1


def test_four_melds():
    melds = M("kong:1m", "pung:2m", "pung:3p", "kong_concealed:9p")
    assert shanten(H("5m"), melds=melds) == 0
    assert tiles_of_mask(waits(H("5m"), melds=melds)) == "5m"
    assert is_win(H("55m"), melds=melds)
    assert is_win(H("55p"), melds=melds)
    assert not is_win(H("55s"), melds=melds)  # three suits
    assert is_win(H("55s"), melds=melds, void_rule=False)
    assert shanten(H("5s"), melds=melds) == 1  # the pair must be in m or p: 2 tiles
    assert waits(H("5s"), melds=melds) == 0
    assert shanten(H("1m"), melds=melds) == 1  # 1m: all four in the kong (cap 0), cannot pair
    # 2m: the pung + this one = all four held, so it cannot pair either
    assert shanten(H("2m"), melds=melds) == 1
    assert waits(H("2m"), melds=melds) == 0
    assert shanten(H("4p"), melds=melds) == 0
    assert tiles_of_mask(waits(H("4p"), melds=melds)) == "4p"


def test_unwinnable():
    melds3 = M("pung:1m", "pung:1p", "pung:1s")
    hand = H("2345m")
    for form in ("all", "regular", "seven_pairs"):
        assert shanten(hand, melds=melds3, form=form) == UNWINNABLE
    assert waits(hand, melds=melds3) == 0
    assert effective_tiles(hand, melds=melds3) == [-1] * 27
    # the unconstrained variant can win: 2345m waits 2m/5m
    assert shanten(hand, melds=melds3, void_rule=False) == 0
    assert tiles_of_mask(waits(hand, melds=melds3, void_rule=False)) == "25m"
    # a meld in the declared void suit
    hand = H("123p456p789p1s")
    assert shanten(hand, melds=M("pung:1m"), void_suit=0) == UNWINNABLE
    assert shanten(hand, melds=M("pung:1m"), void_suit=1) != UNWINNABLE
    assert shanten(hand, melds=M("pung:1m"), void_rule=False) == 0
    # seven pairs with melds; with form "all" the impossible form is ignored
    assert shanten(hand, melds=M("pung:1m"), form="seven_pairs") == UNWINNABLE
    assert shanten(hand, melds=M("pung:1m"), form="seven_pairs", void_rule=False) == UNWINNABLE
    assert shanten(hand, melds=M("pung:1m")) == shanten(hand, melds=M("pung:1m"), form="regular") == 1
    # 14-tile versions
    assert discards(H("2345m6m"), melds=melds3) == [
        UNWINNABLE if t in (1, 2, 3, 4, 5) else NOT_HELD for t in range(27)]
    assert not is_win(H("234m55m"), melds=melds3)
    assert is_win(H("234m55m"), melds=melds3, void_rule=False)


def test_is_win_and_sizes():
    assert is_win(H("123m456m789m123p55p"))
    assert not is_win(H("123m456m789m12p55p"))  # 13 tiles: never a win
    assert not is_win(H("123m456m789m124p55p"))
    for bad in ("123m", "123m456m789m123p5p55p", ""):
        with pytest.raises(ValueError):
            is_win(H(bad))
        with pytest.raises(ValueError):
            shanten(H(bad))
    with pytest.raises(ValueError):
        shanten(H("123m456m789m12p55p"), melds=M("pung:1s"))  # 13 concealed + 1 meld
    with pytest.raises(ValueError):
        waits(H("123m456m789m123p55p"))  # waits needs 13 - 3m
    with pytest.raises(ValueError):
        effective_tiles(H("123m456m789m123p55p"))
    with pytest.raises(ValueError):
        discards(H("123m456m789m12p55p"))  # discards needs 14 - 3m
    with pytest.raises(ValueError):
        advise(H("123m456m789m12p55p"))
    with pytest.raises(ValueError):
        shanten(H("123m456m789m12p55p"), form="kokushi")  # type: ignore[arg-type]


def test_inputs_spelled_as_the_public_api_takes_them():
    """A hand as counts or a tile string, melds as counts, strings or Meld objects: one answer
    (the reference takes what its public twin takes, so the harness passes both the same)."""
    want = shanten(H("46m12p"), melds=M("pung:5m", "kong:5p", "kong:9p"))
    for melds in (["pung:5m", "kong:5p", "kong_concealed:9p"], "pung:5m, kong:5p, kong:9p",
                  [Meld("pung", 4), Meld("kong", 13), Meld("kong_added", 17)]):
        assert shanten("46m12p", melds=melds) == want, melds
    assert shanten("123m456m789m11p23p", melds=[]) == shanten(H("123m456m789m11p23p")) == 0
    with pytest.raises(ValueError):
        shanten("46m12p", melds=["pung:5m", "pung:5m"])        # a kind melded twice
    with pytest.raises(ValueError):
        discards(H("123m456m789m123p55p"), visible=[0] * 26)   # visible is checked, unused


def test_advise_form():
    hand = H("1122m3344p5566p89p")
    assert advise(hand) == advise(hand, form="all")
    seven = advise(hand, form="seven_pairs")
    assert seven[0][:2] == (16, 0) and seven[0][3] == [17] == \
        [t for t, e in enumerate(effective_tiles(H("1122m3344p5566p9p"), form="seven_pairs"))
         if e >= 0]
    assert [row[1] for row in seven] == [discards(hand, form="seven_pairs")[row[0]] for row in seven]


# ----------------------------------------------------------------- effective tiles, discards, advise


def test_effective_tiles_known():
    hand = H("2345m123p456p789p")
    eff = effective_tiles(hand)
    assert {t: c for t, c in enumerate(eff) if c >= 0} == {1: 3, 4: 3}
    vis = [0] * 27
    vis[1], vis[4] = 3, 4
    eff = effective_tiles(hand, visible=vis)
    assert {t: c for t, c in enumerate(eff) if c >= 0} == {1: 0, 4: 0}  # still listed
    # nine gates: every m kind; 1m and 9m have one copy left
    eff = effective_tiles(H("1112345678999m"))
    assert eff[:9] == [1, 3, 3, 3, 3, 3, 3, 3, 1] and eff[9:] == [-1] * 18
    # regular vs seven-pairs forms
    hand = H("1122m3344p5566p8p")  # 6 pairs + 8p: seven pairs waits on 8p
    assert shanten(hand, form="seven_pairs") == 0
    sp = effective_tiles(hand, form="seven_pairs")
    assert {t: c for t, c in enumerate(sp) if c >= 0} == {16: 3}
    # regular: 1122m 3344p 5566p 8p is 1-shanten (e.g. 345p 456p + 12m->123m needs 3m ...);
    # whatever the regular value, its effective kinds are exactly those lowering it
    assert shanten(hand, form="regular") >= 1


def test_discards_known():
    hand = H("2345m123p456p789p9s")  # three suits: discard the 9s
    d = discards(hand)
    assert d[26] == 0
    assert all(d[t] == NOT_HELD for t in range(27) if not hand[t])
    assert all(d[t] >= 1 for t in range(27) if hand[t] and t != 26)
    assert discards(hand, void_rule=False)[26] == 0
    assert discards(H("123m456m789m123p55p")) == [
        0 if c else NOT_HELD for c in H("123m456m789m123p55p")]


def test_advise_known():
    rows = advise(H("23456m123p456p789p"))
    assert rows[:4] == [
        (1, 0, 6, [2, 5]),  # cut 2m: 3456m waits 3m 6m
        (5, 0, 6, [1, 4]),  # cut 6m: 2345m waits 2m 5m
        (2, 0, 3, [1]),     # cut 3m: 456m + 2m tanki
        (4, 0, 3, [5]),     # cut 5m: 234m + 6m tanki
    ]
    assert all(row[1] >= 1 for row in rows[4:])
    assert sorted(row[0] for row in rows) == [t for t, c in enumerate(H("23456m123p456p789p")) if c]


def test_advise_counts_the_discarded_copy_as_seen():
    # 11112345678999m is complete; cutting one 1m leaves nine gates, which waits on 1m too,
    # but all four 1m are then accounted for (three held, one discarded): listed with 0.
    rows = {row[0]: row for row in advise(H("11112345678999m"))}
    assert rows[0] == (0, 0, 0 + 3 * 7 + 1, list(range(9)))
    # effective_tiles on the 13-tile hand counts only the held copies
    assert effective_tiles(H("1112345678999m"))[0] == 1


# ------------------------------------------------------------------------------ per-suit pattern costs

_SETS = [tuple(1 if r in (s, s + 1, s + 2) else 0 for r in range(9)) for s in range(7)] + [
    tuple(3 if r == s else 0 for r in range(9)) for s in range(9)]


@cache
def literal_patterns() -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """Every (k, p, T): T = k sets (multiset of sequences/triplets) + p pairs, counts <= 4."""
    out = set()
    for k in range(5):
        for combo in combinations_with_replacement(range(len(_SETS)), k):
            vec = [sum(_SETS[i][r] for i in combo) for r in range(9)]
            if max(vec) > 4:
                continue
            out.add((k, 0, tuple(vec)))
            for r in range(9):
                if vec[r] + 2 <= 4:
                    v2 = list(vec)
                    v2[r] += 2
                    out.add((k, 1, tuple(v2)))
    return tuple(sorted(out))


def literal_costs(h, caps):
    best = [[core._INF, core._INF] for _ in range(5)]
    for k, p, vec in literal_patterns():
        if any(v > c for v, c in zip(vec, caps)):
            continue
        cost = sum(max(0, v - x) for v, x in zip(vec, h))
        if cost < best[k][p]:
            best[k][p] = cost
    return tuple(tuple(row) for row in best)


def test_suit_costs_against_literal_enumeration():
    rng = random.Random(2024)
    cases = [((0,) * 9, (4,) * 9), ((4,) * 9, (4,) * 9), ((1,) * 9, (4,) * 9),
             ((3, 1, 1, 1, 1, 1, 1, 1, 3), (4,) * 9),
             ((0, 1, 0, 1, 0, 1, 0, 1, 0), (0, 4, 1, 4, 0, 4, 1, 4, 0)),
             ((1, 0, 1, 0, 0, 0, 0, 0, 0), (4, 0, 4, 4, 4, 4, 4, 4, 4))]
    for _ in range(30):
        n = rng.randint(0, 14)
        h = [0] * 9
        while sum(h) < n:
            r = rng.randrange(9)
            if h[r] < 4:
                h[r] += 1
        caps = [rng.choice((4, 4, 4, 4, 1, 0)) for _ in range(9)]
        caps = [max(c, 0) for c in caps]
        h = [min(x, c) if c < 4 else x for x, c in zip(h, caps)]
        cases.append((tuple(h), tuple(caps)))
    for h, caps in cases:
        assert suit_costs(h, caps) == literal_costs(h, caps), (h, caps)


# ----------------------------------------------------------------- brute-force win and exchange checks


def sets_only(c: list[int]) -> bool:
    t = next((i for i in range(27) if c[i]), None)
    if t is None:
        return True
    if c[t] >= 3:
        c[t] -= 3
        ok = sets_only(c)
        c[t] += 3
        if ok:
            return True
    if t % 9 <= 6 and c[t + 1] and c[t + 2]:
        for i in (t, t + 1, t + 2):
            c[i] -= 1
        ok = sets_only(c)
        for i in (t, t + 1, t + 2):
            c[i] += 1
        if ok:
            return True
    return False


def brute_win(c14, melds, void_suit=None, void_rule=True) -> bool:
    """RULES.md 2, by recursive decomposition (independent of the reference's method)."""
    c14 = list(c14)
    if void_rule:
        suits = {t // 9 for t in range(27) if c14[t] + melds[t]}
        if len(suits) > 2 or (void_suit is not None and void_suit in suits):
            return False
    if not any(melds) and all(c in (0, 2, 4) for c in c14):
        return True
    for p in range(27):
        if c14[p] >= 2:
            c14[p] -= 2
            ok = sets_only(c14)
            c14[p] += 2
            if ok:
                return True
    return False


def random_winning(rng: random.Random, n_melds: int, live: tuple[int, ...]):
    """A random winning hand (concealed, melds) using only the suits in `live`."""
    while True:
        total = [0] * 27
        melds = [0] * 27
        kinds = [t for t in range(27) if t // 9 in live]
        for _ in range(n_melds):
            t = rng.choice(kinds)
            if melds[t] or total[t]:
                break
            melds[t] = rng.choice((3, 4))
            total[t] = melds[t]
        else:
            conc = [0] * 27
            if rng.random() < 0.15 and n_melds == 0:  # seven pairs, maybe with quads
                for _ in range(7):
                    t = rng.choice(kinds)
                    conc[t] += 2
            else:
                for _ in range(4 - n_melds):
                    t = rng.choice(kinds)
                    if t % 9 <= 6 and rng.random() < 0.6:
                        for i in (t, t + 1, t + 2):
                            conc[i] += 1
                    else:
                        conc[t] += 3
                conc[rng.choice(kinds)] += 2
            if all(conc[t] + melds[t] <= 4 for t in range(27)):
                return conc, melds


def perturb(rng, conc, melds, n):
    """Replace n concealed tiles at random (staying within 4 copies)."""
    conc = list(conc)
    for _ in range(n):
        held = [t for t in range(27) if conc[t]]
        conc[rng.choice(held)] -= 1
        while True:
            t = rng.randrange(27)
            if conc[t] + melds[t] < 4:
                conc[t] += 1
                break
    return conc


def random_cases(seed: int, count: int):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n_melds = rng.choice((0, 0, 0, 1, 2, 3, 4))
        live = rng.choice(((0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2)))
        conc, melds = random_winning(rng, n_melds, live)
        conc = perturb(rng, conc, melds, rng.choice((0, 0, 1, 1, 2, 3)))
        void_suit = rng.choice((None, None, 0, 1, 2))
        out.append((conc, melds, void_suit))
    return out


@pytest.mark.parametrize("void_rule", [True, False])
def test_is_win_matches_brute_force(void_rule):
    n_wins = 0
    for conc, melds, void_suit in random_cases(7 + void_rule, 400):
        void_suit = void_suit if void_rule else None
        expected = brute_win(conc, melds, void_suit, void_rule)
        n_wins += expected
        assert is_win(conc, melds=melds, void_suit=void_suit, void_rule=void_rule) == expected, (
            format_hand(conc), melds, void_suit)
        assert (shanten(conc, melds=melds, void_suit=void_suit, void_rule=void_rule) == -1) == expected
    assert n_wins > 50  # the generator does produce wins


def brute_waits(conc13, melds, void_suit, void_rule) -> int:
    mask = 0
    for t in range(27):
        if conc13[t] + melds[t] < 4:
            conc13[t] += 1
            if brute_win(conc13, melds, void_suit, void_rule):
                mask |= 1 << t
            conc13[t] -= 1
    return mask


@pytest.mark.parametrize("void_rule", [True, False])
def test_waits_and_readiness_match_brute_force(void_rule):
    ready = 0
    for conc, melds, void_suit in random_cases(11 + void_rule, 300):
        void_suit = void_suit if void_rule else None
        # remove one tile to get a 13 - 3m hand
        held = [t for t in range(27) if conc[t]]
        conc = list(conc)
        conc[held[len(held) // 2]] -= 1
        expected = brute_waits(list(conc), melds, void_suit, void_rule)
        assert waits(conc, melds=melds, void_suit=void_suit, void_rule=void_rule) == expected
        s = shanten(conc, melds=melds, void_suit=void_suit, void_rule=void_rule)
        assert (s == 0) == (expected != 0)
        ready += s == 0
    assert ready > 30


def test_one_shanten_by_exchange():
    """shanten <= 1 iff some draw, discard, draw reaches a win (checked by brute force)."""

    @cache
    def ready(c13, melds, void_suit):
        return brute_waits(list(c13), melds, void_suit, True) != 0

    def one_shanten_or_better(c13, melds, void_suit):
        c = list(c13)
        for t in range(27):
            if c[t] + melds[t] >= 4:
                continue
            c[t] += 1
            if brute_win(c, melds, void_suit):
                return True
            for d in range(27):
                if c[d]:
                    c[d] -= 1
                    if ready(tuple(c), melds, void_suit):
                        return True
                    c[d] += 1
            c[t] -= 1
        return False

    rng = random.Random(5)
    checked = {0: 0, 1: 0, 2: 0}
    for conc, melds, void_suit in random_cases(99, 200):
        held = [t for t in range(27) if conc[t]]
        conc = list(conc)
        conc[rng.choice(held)] -= 1
        s = shanten(conc, melds=melds, void_suit=void_suit)
        bucket = min(s, 2)
        if bucket < 0 or checked[bucket] >= 5:
            continue
        checked[bucket] += 1
        melds_t = tuple(melds)
        assert one_shanten_or_better(tuple(conc), melds_t, void_suit) == (s <= 1), (
            format_hand(conc), melds, void_suit, s)
    assert checked[1] >= 3 and checked[2] >= 3


# ------------------------------------------------------------------------------ identities and invariants


def test_exchange_identities():
    """shanten13(H) = 1 + min_t shanten14(H + t);  shanten14(X) = min_d shanten13(X - d)."""
    for conc, melds, void_suit in random_cases(3, 60):
        kw = dict(void_suit=void_suit)
        for form in ("all", "regular", "seven_pairs"):
            s14 = shanten(conc, melds=melds, form=form, **kw)
            d = discards(conc, melds=melds, form=form, **kw)
            if s14 == UNWINNABLE:
                assert all(x in (UNWINNABLE, NOT_HELD) for x in d)
                continue
            if s14 >= 0:
                assert s14 == min(x for x in d if x != NOT_HELD)
            # one 13-tile hand: the best discard
            best_d = min((x, t) for t, x in enumerate(d) if x != NOT_HELD)[1]
            c13 = list(conc)
            c13[best_d] -= 1
            s13 = shanten(c13, melds=melds, form=form, **kw)
            draws = []
            for t in range(27):
                if c13[t] + melds[t] < 4:
                    c13[t] += 1
                    draws.append(shanten(c13, melds=melds, form=form, **kw))
                    c13[t] -= 1
            assert s13 == 1 + min(draws)
            eff = effective_tiles(c13, melds=melds, form=form, **kw)
            assert [e >= 0 for e in eff] == [
                c13[t] + melds[t] < 4 and shanten(
                    [c + (i == t) for i, c in enumerate(c13)], melds=melds, form=form, **kw) < s13
                for t in range(27)]


def test_advise_matches_discards_and_effective_tiles():
    rng = random.Random(17)
    for conc, melds, void_suit in random_cases(23, 25):
        vis = [rng.randint(0, 4 - conc[t] - melds[t]) for t in range(27)]
        rows = advise(conc, melds=melds, visible=vis, void_suit=void_suit)
        d = discards(conc, melds=melds, void_suit=void_suit)
        assert sorted(r[0] for r in rows) == [t for t in range(27) if conc[t]]
        assert rows == sorted(rows, key=lambda r: (r[1], -r[2], r[0]))
        for kind, s, count, kinds in rows:
            assert s == d[kind]
            c13 = list(conc)
            c13[kind] -= 1
            eff = effective_tiles(c13, melds=melds, visible=vis, void_suit=void_suit)
            assert kinds == [t for t in range(27) if eff[t] >= 0]
            # the discarded copy counts as seen
            expected = sum(eff[t] for t in kinds) - (1 if kind in kinds and eff[kind] > 0 else 0)
            assert count == expected


def _permute(counts, perm):
    out = [0] * 27
    for t, c in enumerate(counts):
        out[perm[t // 9] * 9 + t % 9] = c
    return out


def _mirror(counts):
    return [counts[(t // 9) * 9 + 8 - t % 9] for t in range(27)]


def test_suit_permutation_and_mirror_invariance():
    for conc, melds, void_suit in random_cases(31, 40):
        base = shanten(conc, melds=melds, void_suit=void_suit)
        for perm in permutations(range(3)):
            vs = None if void_suit is None else perm[void_suit]
            assert shanten(_permute(conc, perm), melds=_permute(melds, perm), void_suit=vs) == base
        assert shanten(_mirror(conc), melds=_mirror(melds), void_suit=void_suit) == base
        for form in ("regular", "seven_pairs"):
            assert shanten(_mirror(conc), melds=_mirror(melds), form=form, void_suit=void_suit) == \
                shanten(conc, melds=melds, form=form, void_suit=void_suit)


def test_void_rule_only_ever_raises_shanten():
    for conc, melds, void_suit in random_cases(41, 60):
        free = shanten(conc, melds=melds, void_rule=False)
        assert shanten(conc, melds=melds) >= free
        assert shanten(conc, melds=melds, void_suit=void_suit) >= shanten(conc, melds=melds)
        # declared void vs. the best choice: the undeclared value is the min over the three
        vals = [shanten(conc, melds=melds, void_suit=q) for q in range(3)]
        assert shanten(conc, melds=melds) == min(vals)


def test_all_is_min_of_forms():
    for conc, melds, void_suit in random_cases(43, 60):
        kw = dict(void_suit=void_suit)
        reg = shanten(conc, melds=melds, form="regular", **kw)
        sp = shanten(conc, melds=melds, form="seven_pairs", **kw)
        assert shanten(conc, melds=melds, **kw) == min(reg, sp)
        if any(melds):
            assert sp == UNWINNABLE


def test_typical_call_is_fast():
    core.suit_costs.cache_clear()
    cases = random_cases(47, 50)
    start = time.perf_counter()
    for conc, melds, void_suit in cases:
        shanten(conc, melds=melds, void_suit=void_suit)
    per_call = (time.perf_counter() - start) / len(cases)
    assert per_call < 0.05


def test_parse_tile_helper_consistency():
    assert mask_of("25m") == (1 << 1) | (1 << 4)
    assert parse_tile("5m") == 4
