"""Exact deal statistics (mjfast.stats.exact): brute force over every multiset of a reduced wall,
the full wall against a 10**6-hand sample, the API, the CLI's --exact and the 99% intervals."""

from __future__ import annotations

import functools
import json
import math
import subprocess
import sys
import time
from fractions import Fraction

import numpy as np
import pytest

import mjfast
from mjfast import stats
from mjfast.errors import InvalidArgumentError

UNWINNABLE = stats.UNWINNABLE


def wall_of(suits: tuple[int, ...] = (0, 1, 2), ranks: int = 9) -> list[int]:
    """4 copies of ranks 1..ranks of each suit in ``suits``, none of the rest."""
    return [4 if k // 9 in suits and k % 9 < ranks else 0 for k in range(27)]


def multisets(wall: list[int], n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every hand of n tiles the wall can deal, as (M, 27) counts, with the number of deals of
    each (the product of C(copies, count))."""
    return _multisets(tuple(wall), n)


@functools.lru_cache(maxsize=4)
def _multisets(wall: tuple[int, ...], n: int) -> tuple[np.ndarray, np.ndarray]:
    rows = np.zeros((1, 27), np.uint8)
    weight = np.ones(1, np.int64)
    kinds = [k for k in range(27) if wall[k]]
    for i, k in enumerate(kinds):
        room = 4 * (len(kinds) - i - 1)  # what the kinds after k can still hold
        held = rows.sum(axis=1, dtype=np.int64)
        parts, weights = [], []
        for c in range(min(4, wall[k]) + 1):
            keep = (held + c <= n) & (held + c + room >= n)
            part = rows[keep].copy()
            part[:, k] = c
            parts.append(part)
            weights.append(weight[keep] * math.comb(wall[k], c))
        rows, weight = np.concatenate(parts), np.concatenate(weights)
    return rows, weight


def melds_for(n: int, suit: int) -> np.ndarray | None:
    """Pungs of the first (14 - n) // 3 kinds of ``suit``: the melds that give n concealed tiles
    (None for 13 and 14)."""
    m = (14 - n) // 3
    if m == 0:
        return None
    melds = np.zeros(27, np.uint8)
    melds[9 * suit:9 * suit + m] = 3
    return melds


def brute(wall: list[int], n: int, *, void_rule: bool, form: str = "all",
          meld_suit: int | None = None) -> dict[int, int]:
    """The shanten histogram over every deal, from mjfast.shanten on each hand."""
    hands, weight = multisets(wall, n)
    melds = melds_for(n, meld_suit) if meld_suit is not None else None
    s = np.asarray(mjfast.shanten(hands, melds=melds, void_rule=void_rule, form=form))
    out: dict[int, int] = {}
    for v in np.unique(s):
        out[int(v)] = int(weight[s == v].sum())
    return out


# ------------------------------------------------------------------------------ brute force

@pytest.mark.parametrize("n", [1, 2, 4, 5, 7, 8, 10, 11, 13, 14])
@pytest.mark.parametrize("form", ["all", "regular", "seven_pairs"])
def test_one_suit_wall_every_size(n, form):
    wall = wall_of((0,))
    for void_rule in (True, False):
        st = stats.exact(n, void_rule=void_rule, form=form, wall=wall)
        # melds in a suit outside the wall: the hand's own suit stays live under the void rule
        assert st.shanten == brute(wall, n, void_rule=void_rule, form=form, meld_suit=1), (n, form)
        assert st.total == math.comb(36, n) == sum(st.shanten.values())


@pytest.mark.parametrize("n", [1, 2, 4, 5, 7])
def test_two_suit_wall_small_hands(n):
    wall = wall_of((0, 1))
    free = stats.exact(n, void_rule=False, wall=wall)
    assert free.shanten == brute(wall, n, void_rule=False, meld_suit=2)
    # the third suit holds nothing, so the void rule changes nothing
    assert stats.exact(n, void_rule=True, wall=wall).shanten == free.shanten


@pytest.mark.parametrize("n", [13, 14])
@pytest.mark.parametrize(("suits", "ranks"), [((0, 1), 6), ((0, 1, 2), 4), ((0, 1, 2), 3)])
def test_reduced_walls_full_hands(n, suits, ranks):
    """Two suits, and three suits of a few ranks each: the void rule's choice among three suits
    and seven pairs across suits, every form."""
    wall = wall_of(suits, ranks)
    for void_rule in (True, False):
        for form in ("all", "regular", "seven_pairs"):
            st = stats.exact(n, void_rule=void_rule, form=form, wall=wall)
            assert st.shanten == brute(wall, n, void_rule=void_rule, form=form), (void_rule, form)


@pytest.mark.parametrize(("suits", "ranks"), [((0,), 9), ((0, 1, 2), 3)])
def test_ready_after_discard_is_the_best_discard(suits, ranks):
    """A deal counts when its best discard leaves shanten 0, which a complete hand's does."""
    wall = wall_of(suits, ranks)
    hands, weight = multisets(wall, 14)
    after = np.asarray(mjfast.discards(hands)).astype(np.int64)
    best = np.where(after == mjfast.NOT_HELD, 127, after).min(axis=1)
    assert (best >= 0).all()  # no discard leaves a complete 13-tile hand
    st = stats.exact(14, wall=wall)
    assert st.ready_after_discard == int(weight[best == 0].sum())
    assert st.ready_after_discard == st.count(-1) + st.count(0)
    assert st.wins == int(weight[np.asarray(mjfast.is_win(hands))].sum())


# -------------------------------------------------------------------------------- full wall

@pytest.fixture(scope="module")
def sample14() -> dict:
    return stats.run_stats(1_000_000, 14, seed=2024, workers=2)


def test_full_wall_agrees_with_a_sample(sample14):
    void, free = stats.exact(14), stats.exact(14, void_rule=False)
    check = stats.compare(sample14, void, free)
    bad = [(rule, s, row) for rule, rows in check["shanten"].items()
           for s, row in rows.items() if not row["inside"]]
    assert not bad, bad
    assert check["inside"] and check["complete_rate"]["void_rule"]["inside"]
    sample13 = stats.run_stats(1_000_000, 13, seed=2025, workers=2)
    assert stats.compare(sample13, stats.exact(13), stats.exact(13, void_rule=False))["inside"]


def test_full_wall_table_is_fast_and_adds_up():
    t0 = time.process_time()
    st = stats.exact(14)
    seconds = time.process_time() - t0
    assert seconds < 60, seconds  # issue 11: the full 14-tile table in under 60 s on one core
    assert st.total == math.comb(108, 14) == sum(st.shanten.values())
    assert st.shanten == {-1: 1_180_592_035_056, 0: 198_557_272_280_352,
                          1: 5_066_975_086_876_464, 2: 35_401_600_663_558_848,
                          3: 74_154_752_670_028_464, 4: 24_763_813_446_537_216,
                          5: 151_047_792_230_400}
    assert st.wins == 1_180_592_035_056
    assert st.ready_after_discard == 199_737_864_315_408
    free = stats.exact(14, void_rule=False)
    assert free.wins == 7_402_104_845_520 and max(free.shanten) == 4


def test_void_rule_never_lowers_shanten():
    for n in (5, 11, 13, 14):
        void, free = stats.exact(n), stats.exact(n, void_rule=False)
        cum_void = cum_free = 0
        for s in range(-1, 9):  # P(shanten <= s) is never higher under the void rule
            cum_void += void.count(s)
            cum_free += free.count(s)
            assert cum_void <= cum_free


# ------------------------------------------------------------------------------------- API

def test_probability_count_and_dict():
    st = stats.exact(14)
    assert st.probability("wins") == Fraction(st.wins, st.total)
    assert isinstance(st.probability(0), Fraction) and st.rate(0) == pytest.approx(0.00142093, rel=1e-5)
    assert st.probability("ready_after_discard") == Fraction(st.count(-1) + st.count(0), st.total)
    assert st.count(9) == 0 and st.mean_shanten() == Fraction(
        sum(s * c for s, c in st.shanten.items()), st.total)
    doc = json.loads(json.dumps(st.to_dict()))
    assert doc["total"] == st.total and doc["shanten"]["-1"] == st.wins
    assert doc["probability"]["3"] == pytest.approx(st.rate(3))
    thirteen = stats.exact(13)
    assert thirteen.wins == 0 and thirteen.ready_after_discard is None and -1 not in thirteen.shanten
    with pytest.raises(InvalidArgumentError, match="ready_after_discard"):
        thirteen.count("ready_after_discard")
    with pytest.raises(InvalidArgumentError, match="event"):
        st.count("nonsense")


def test_sizes_forms_and_multiples_of_three():
    for n in (3, 6, 9, 12):
        st = stats.exact(n)
        assert st.shanten == {} and st.wins == 0 and st.total == math.comb(108, n)
    assert stats.exact(1).shanten == {0: 108}  # one tile waits on its pair
    assert stats.exact(2).shanten == {-1: 27 * 6, 0: math.comb(108, 2) - 27 * 6}
    assert stats.exact(10, form="seven_pairs").shanten == {UNWINNABLE: math.comb(108, 10)}
    assert stats.exact(10, form="seven_pairs").mean_shanten() is None


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"tiles": 0}, "tiles"), ({"tiles": 15}, "tiles"), ({"tiles": 2.0}, "tiles"),
    ({"form": "chiitoi"}, "form"), ({"void_rule": 1}, "void_rule"),
    ({"wall": [5] + [4] * 26}, "wall"), ({"wall": [4] * 26}, "wall"),
    ({"tiles": 14, "wall": [4] * 3 + [0] * 24}, "tiles"),
])
def test_refuses_bad_arguments(kwargs, name):
    with pytest.raises(ValueError, match=f"^{name}"):
        stats.exact(**kwargs)


def test_seven_pairs_without_void_rule_by_hand():
    """Complete seven-pairs deals without the void rule: 7 distinct kinds held twice, or a
    quad counted as two pairs (k quads and 7 - 2k more pairs)."""
    want = sum(math.comb(27, k) * math.comb(27 - k, 7 - 2 * k) * 6 ** (7 - 2 * k)
               for k in range(4))
    assert stats.exact(14, void_rule=False, form="seven_pairs").wins == want


# ------------------------------------------------------------------------------- intervals

def _exact_interval(n: int, p: Fraction, level: float) -> tuple[int, int]:
    pmf = [Fraction(math.comb(n, k)) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]
    alpha = Fraction(1 - level).limit_denominator(10**6) / 2
    lo = 0
    while sum(pmf[:lo + 1]) <= alpha:
        lo += 1
    hi = n
    while sum(pmf[hi:]) <= alpha:
        hi -= 1
    return lo, hi


@pytest.mark.parametrize(("n", "p"), [(40, Fraction(3, 10)), (200, Fraction(1, 50)),
                                      (60, Fraction(19, 20)), (25, Fraction(1, 2))])
def test_binomial_interval_is_the_exact_central_interval(n, p):
    assert stats.binomial_interval(n, p, 0.99) == _exact_interval(n, p, 0.99)
    assert stats.binomial_interval(n, p, 0.9) == _exact_interval(n, p, 0.9)


def test_binomial_interval_large_and_edges():
    lo, hi = stats.binomial_interval(10**8, 0.25)
    sd = math.sqrt(10**8 * 0.25 * 0.75)
    assert abs((hi - 25_000_000) / sd - 2.5758) < 0.01 and abs((25_000_000 - lo) / sd - 2.5758) < 0.01
    assert stats.binomial_interval(10, 0) == (0, 0) and stats.binomial_interval(10, 1) == (10, 10)
    assert stats.binomial_interval(10**7, 1e-9)[0] == 0


# ------------------------------------------------------------------------------------- CLI

def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mjfast", "stats", *args], capture_output=True,
                          text=True, timeout=120)


def test_cli_exact_json_and_text():
    res = run_cli("--exact", "--json")
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["tiles"] == 14 and doc["total"] == math.comb(108, 14)
    assert doc["void_rule"]["shanten"]["-1"] == 1_180_592_035_056
    assert doc["no_void_rule"]["wins"] == 7_402_104_845_520
    res = run_cli("--exact", "--tiles", "13")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].startswith("exact: all 20,592,957,740,312,160 deals of 13 tiles")
    assert any(x.startswith("ready (shanten 0): 0.015928% (void rule)") for x in lines)
    res = run_cli("--exact")
    assert "天胡 (complete dealt hand, void rule): 1,180,592,035,056 deals" in res.stdout
    assert "1 in 118,363" in res.stdout
    bad = run_cli("--exact", "--tiles", "15")
    assert bad.returncode == 2 and bad.stderr.startswith("mjfast: error: --tiles")


def test_cli_sample_rows_show_the_exact_values():
    res = run_cli("--hands", "200000", "--seed", "5", "--workers", "1", "--json")
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    exact14 = stats.exact(14)
    row = doc["exact"]["shanten"]["void_rule"]["2"]
    assert row["probability"] == pytest.approx(exact14.rate(2))
    assert row["count"] == doc["shanten"]["void_rule"]["2"]
    assert row["inside"] == (row["interval"][0] <= row["count"] <= row["interval"][1])
    text = run_cli("--hands", "200000", "--seed", "5", "--workers", "1").stdout
    assert f"{exact14.rate(2):.4%}" in text and " in" in text
