"""Differential tests: mjfast.scoring against its pure-Python twin mjfast._ref.scoring.

Every comparison goes through the harness of twins.py (the same arguments to both; the result
types are shared, so the answers compare as they are).

Winning hands are built from random sets, pairs, seven pairs, melds and kongs (always within
the 4-copy limit); ready hands are winning hands less one concealed tile; rules are both
presets under random option overrides. Plus invariants (suit permutation, rank mirror) and an
exhaustive pass over single-suit patterns.
"""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mjfast.rules import BASE_PATTERNS, PRESETS, Rules
from mjfast.scoring import decompose, max_fan, score, suit_features
from mjfast.tiles import Meld, MeldKind
from tests.twins import TWINS, check

SETTINGS = settings(max_examples=400)
SCORE, DECOMPOSE, MAX_FAN = TWINS["score"], TWINS["decompose"], TWINS["max_fan"]

# ------------------------------------------------------------------------- strategies

small = st.integers(0, 2)
OVERRIDES = st.fixed_dictionaries({}, optional={
    "root_fan": small,
    "long_qi_dui_uses_root": st.booleans(),
    "gang_shang_hua": small,
    "gang_shang_pao": small,
    "qiang_gang_hu": small,
    "self_draw": st.sampled_from(["add_base", "add_fan", "none"]),
    "hai_di": small,
    "men_qing": small,
    "zhong_zhang": small,
    "qia_xin_wu": small,
    "zi_mei_dui": small,
    "yi_tiao_long": small,
    "jin_gou_diao": st.booleans(),
    "cap": st.none() | st.integers(0, 6),
    "cha_da_jiao": st.sampled_from(["max", "min"]),
    "si_jiao": st.booleans(),
    "fan_display_offset": small,
    "base_fan": st.dictionaries(st.sampled_from(BASE_PATTERNS), st.integers(0, 6),
                                max_size=3),
})


@st.composite
def rules_st(draw):
    return Rules.preset(draw(st.sampled_from(PRESETS)), **draw(OVERRIDES))


def _rotate(draw, kinds, ok):
    """The first kind satisfying *ok*, scanning *kinds* from a drawn start; None if none."""
    start = draw(st.integers(0, len(kinds) - 1))
    for k in kinds[start:] + kinds[:start]:
        if ok(k):
            return k
    return None


@st.composite
def winning_hands(draw, allow_three_suits=False, sets=4):
    """(concealed counts, melds): a complete hand of *sets* sets (seven pairs only with 4);
    three suits only when allowed."""
    suits = draw(st.lists(st.integers(0, 2), min_size=1, max_size=3 if allow_three_suits else 2,
                          unique=True))
    kinds = sorted(s * 9 + r for s in suits for r in range(9))
    total = [0] * 27
    c = [0] * 27
    if sets == 4 and draw(st.integers(0, 4)) == 0:  # seven pairs (fours allowed)
        for _ in range(7):
            k = _rotate(draw, kinds, lambda k: total[k] <= 2)
            total[k] += 2
            c[k] += 2
        return c, ()
    melds = []
    for _ in range(draw(st.sampled_from([m for m in (0, 0, 0, 1, 2, 3, 4) if m <= sets]))):
        kind = draw(st.sampled_from(list(MeldKind)))
        k = _rotate(draw, kinds, lambda k: total[k] == 0)
        total[k] = kind.size
        melds.append(Meld(kind, k))
    for _ in range(sets - len(melds)):
        if draw(st.booleans()):
            k = _rotate(draw, kinds, lambda k: k % 9 <= 6 and all(
                total[k + i] < 4 for i in range(3)))
            if k is not None:
                for i in range(3):
                    total[k + i] += 1
                    c[k + i] += 1
                continue
        k = _rotate(draw, kinds, lambda k: total[k] <= 1)
        total[k] += 3
        c[k] += 3
    k = _rotate(draw, kinds, lambda k: total[k] <= 2)
    total[k] += 2
    c[k] += 2
    order = draw(st.permutations(range(len(melds))))
    return c, tuple(melds[i] for i in order)


@st.composite
def situations(draw, c, melds):
    """A win tile and a consistent set of situational flags."""
    w = draw(st.sampled_from([k for k in range(27) if c[k]]))
    modes = ["discard", "self"]
    if any(m.is_kong for m in melds):
        modes.append("after_kong")
    modes.append("after_kong_discard")
    if c[w] == 1 and all(m.tile != w for m in melds):
        modes.append("robbing_kong")
    if not melds:
        modes += ["tian_hu", "di_hu"]
    mode = draw(st.sampled_from(modes))
    flags = {name: mode == name for name in
             ("after_kong", "after_kong_discard", "robbing_kong", "tian_hu", "di_hu")}
    flags["self_drawn"] = mode == "self" or (mode == "after_kong" and draw(st.booleans()))
    flags["last_tile"] = mode not in ("tian_hu", "di_hu") and draw(st.booleans())
    return w, flags


void_st = st.none() | st.integers(0, 2) | st.sampled_from(["m", "p", "s"])


@st.composite
def random_hands(draw, complete, sets=4):
    """Arbitrary hands from the wall (mostly not winning) with 0-2 random melds, of the size
    of *sets* sets."""
    suits = draw(st.lists(st.integers(0, 2), min_size=1, max_size=3, unique=True))
    kinds = sorted(s * 9 + r for s in suits for r in range(9))
    total = [0] * 27
    melds = []
    for _ in range(draw(st.integers(0, 2))):
        k = _rotate(draw, kinds, lambda k: total[k] == 0)
        kind = draw(st.sampled_from(list(MeldKind)))
        total[k] = kind.size
        melds.append(Meld(kind, k))
    c = [0] * 27
    for _ in range(3 * (sets - len(melds)) + (2 if complete else 1)):
        k = _rotate(draw, kinds, lambda k: total[k] < 4)
        total[k] += 1
        c[k] += 1
    return c, tuple(melds)


# ------------------------------------------------------------------------------ score

@SETTINGS
@given(data=st.data(), hand=winning_hands(allow_three_suits=True), rules=rules_st(),
       void=void_st)
def test_score_matches_ref_on_wins(data, hand, rules, void):
    c, melds = hand
    w, flags = data.draw(situations(c, melds))
    fast = check(SCORE, c, win_tile=w, melds=melds, void_suit=void, rules=rules, **flags)
    suits = {k // 9 for k in range(27) if c[k]} | {m.tile // 9 for m in melds}
    void_i = {"m": 0, "p": 1, "s": 2}.get(void, void)  # type: ignore[arg-type]
    assert fast.is_win == (len(suits) <= 2 and void_i not in suits)
    if fast.is_win:
        assert sum(n for _, n in fast.items) == fast.raw_fan
        internal = fast.raw_fan - rules.fan_display_offset
        assert fast.multiplier == rules.multiplier(internal)
        assert fast.decomposition in decompose(c, melds=melds)


@SETTINGS
@given(data=st.data(), hand=random_hands(complete=True), rules=rules_st(), void=void_st)
def test_score_matches_ref_on_random_hands(data, hand, rules, void):
    c, melds = hand
    w = data.draw(st.sampled_from([k for k in range(27) if c[k]]))
    self_drawn = data.draw(st.booleans())
    check(SCORE, c, win_tile=w, melds=melds, void_suit=void, self_drawn=self_drawn, rules=rules)
    check(DECOMPOSE, c, melds=melds)


@SETTINGS
@given(hand=winning_hands(allow_three_suits=True))
def test_decompose_matches_ref(hand):
    c, melds = hand
    fast = check(DECOMPOSE, c, melds=melds)
    assert fast  # a built hand always has a reading
    assert len(set(fast)) == len(fast)


@SETTINGS
@given(data=st.data(), hand=winning_hands(), rules=rules_st())
def test_score_invariant_under_suit_permutation_and_mirror(data, hand, rules):
    c, melds = hand
    w, flags = data.draw(situations(c, melds))
    perm = data.draw(st.permutations(range(3)))
    mirror = data.draw(st.booleans())

    def f(k):
        r = k % 9
        return perm[k // 9] * 9 + (8 - r if mirror else r)

    c2 = [0] * 27
    for k in range(27):
        c2[f(k)] = c[k]
    melds2 = tuple(Meld(m.kind, f(m.tile)) for m in melds)
    a = score(c, win_tile=w, melds=melds, rules=rules, **flags)
    b = score(c2, win_tile=f(w), melds=melds2, rules=rules, **flags)
    assert (a.is_win, a.fan, a.raw_fan, a.multiplier) == (b.is_win, b.fan, b.raw_fan,
                                                          b.multiplier)
    assert sorted(f.name for f, _ in a.items) == sorted(f.name for f, _ in b.items)


@SETTINGS
@given(data=st.data(), hand=winning_hands(), rules=rules_st())
def test_exposed_kongs_score_alike(data, hand, rules):
    """An exposed kong counts the same, however it was made (from a discard or added to a
    pung): the batch kernels, which see meld counts and concealed-kong marks only, rely on it."""
    c, melds = hand
    w, flags = data.draw(situations(c, melds))
    swap = {MeldKind.KONG: MeldKind.KONG_ADDED, MeldKind.KONG_ADDED: MeldKind.KONG}
    melds2 = tuple(Meld(swap.get(m.kind, m.kind), m.tile) for m in melds)
    a = score(c, win_tile=w, melds=melds, rules=rules, **flags)
    b = score(c, win_tile=w, melds=melds2, rules=rules, **flags)
    assert (a.is_win, a.fan, a.raw_fan, a.items, a.multiplier) == \
        (b.is_win, b.fan, b.raw_fan, b.items, b.multiplier)
    c[w] -= 1
    ma, mb = max_fan(c, melds=melds, rules=rules), max_fan(c, melds=melds2, rules=rules)
    assert (ma.fan, ma.best_wait, ma.payment) == (mb.fan, mb.best_wait, mb.payment)


# ----------------------------------------------------------------------------- max_fan

@settings(max_examples=150)
@given(data=st.data(), hand=winning_hands(allow_three_suits=True), rules=rules_st(),
       void=void_st)
def test_max_fan_matches_ref_on_ready_hands(data, hand, rules, void):
    c, melds = hand
    k = data.draw(st.sampled_from([k for k in range(27) if c[k]]))
    c[k] -= 1
    held = [c[i] + sum(m.size for m in melds if m.tile == i) for i in range(27)]
    visible = data.draw(st.none() | st.tuples(*[st.integers(0, 4 - h) for h in held]))
    fast = check(MAX_FAN, c, melds=melds, void_suit=void, visible=visible, rules=rules)
    # consistency with score: each wait's fan is the discard-win score of the full hand
    for wf in fast.waits:
        full = list(c)
        full[wf.tile] += 1
        r = score(full, win_tile=wf.tile, melds=melds, void_suit=void, rules=rules)
        assert (r.raw_fan, r.items, r.decomposition) == (wf.fan, wf.items, wf.decomposition)
    if fast.fan is not None:
        assert fast.payment == rules.multiplier(fast.fan - rules.fan_display_offset)


@settings(max_examples=100)
@given(hand=random_hands(complete=False), rules=rules_st(), void=void_st)
def test_max_fan_matches_ref_on_random_hands(hand, rules, void):
    c, melds = hand
    check(MAX_FAN, c, melds=melds, void_suit=void, rules=rules)


# ------------------------------------------------------------------ exhaustive, one suit

def _suit_patterns(n):
    for combo in itertools.combinations_with_replacement(range(9), n):
        counts = [0] * 9
        for r in combo:
            counts[r] += 1
        if max(counts) <= 4:
            yield counts


def test_every_single_suit_pattern_of_8_tiles_matches_ref():
    """All 8-tile one-suit concealed parts (+ two melds in another suit) vs the reference."""
    melds = (Meld("pung", 9), Meld("kong_concealed", 17))
    rules = Rules(cap=None, hua_zhu=8, zhong_zhang=1, qia_xin_wu=1, zi_mei_dui=1,
                  yi_tiao_long=1, men_qing=1)
    n_wins = 0
    for counts in _suit_patterns(8):
        c = counts + [0] * 18
        readings = suit_features(tuple(counts)).readings
        check(DECOMPOSE, c, melds=melds)
        if readings:
            n_wins += 1
            w = next(k for k in (4, 0, 1, 2, 3, 5, 6, 7, 8) if c[k])
            check(SCORE, c, win_tile=w, melds=melds, rules=rules)
    assert n_wins > 100


def test_every_single_suit_pattern_of_7_tiles_max_fan_matches_ref():
    melds = (Meld("pung", 9), Meld("kong", 17))
    for counts in _suit_patterns(7):
        c = np.array(counts + [0] * 18, dtype=np.uint8)
        check(MAX_FAN, c, melds=melds)
