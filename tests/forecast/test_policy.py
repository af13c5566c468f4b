"""The policy classes of RULES.md 9 (an exchange budget, backward moves, the 清一色 plan, the
candidates kept) against the twin on random small cases of every class, their order (more
budget never lowers the objective), their limits (a budget of T or more is no budget) and the
arguments refused."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjfast import discards, parse_hand
from mjfast._ref.forecast import Model
from mjfast.errors import InvalidArgumentError
from mjfast.forecast import forecast
from mjfast.rules import Rules
from tests.forecast.test_twin import RULES, _check
from tests.strategies import Case, cases

CASES = cases(visible=True, void_rule=True, form="all", max_melds=2)


def _fits(case: Case, most: int, flush: int | None = None) -> bool:
    """Cases the twin finishes quickly: shanten (under the plan) at most ``most``."""
    model = Model(case.hand, melds=case.ref_melds, void_suit=case.void_suit, flush=flush,
                  sets=case.sets)
    starts = model.starts().values()
    return (min(model.sh(x) for x in starts) <= most and sum(case.visible) + sum(case.held) < 108
            and (flush is None or flush != case.void_suit))


@settings(max_examples=20, deadline=None)
@given(CASES, st.sampled_from([2, 1]), st.sampled_from([1, 2]), st.booleans(),
       st.sampled_from(["win", "value"]))
def test_twin_budgets(case: Case, draws: int, budget: int, backward: bool, objective: str) -> None:
    if _fits(case, 1):
        _check(case, draws, objective, budget, RULES[0], backward)


@settings(max_examples=30, deadline=None)
@given(CASES, st.sampled_from([0, 1, 2]), st.sampled_from([2, 1]), st.sampled_from([0, 1]),
       st.booleans(), st.sampled_from(["win", "value"]))
def test_twin_flush(case: Case, suit: int, draws: int, budget: int, backward: bool,
                    objective: str) -> None:
    if _fits(case, 1, suit):
        _check(case, draws, objective, budget, RULES[0], backward and budget > 0, suit)


@pytest.mark.parametrize(("hand", "void", "draws"), [
    ("123m456m789m2p55p9s", 2, 2),     # a held void tile goes first
    ("11234567m99m23p5p", 2, 2),       # flush m: 23p 5p are dead
])
@pytest.mark.parametrize(("budget", "backward", "flush"), [
    (1, False, None), (1, True, None), (2, True, None), (0, False, 0), (1, True, 0)])
def test_twin_fixed_hands(hand: str, void: int | None, draws: int, budget: int, backward: bool,
                          flush: int | None) -> None:
    case = Case(hand=[int(x) for x in parse_hand(hand)], void_suit=void)
    for objective in ("win", "value"):
        _check(case, draws, objective, budget, RULES[0], backward, flush)


def _pool_of(case: Case, left: dict[str, int]) -> Case:
    """The case with every copy seen but ``left`` (tile -> copies still drawable): a small pool,
    so that the twin reaches the draws that many dead tiles need."""
    held = case.held
    keep = {int(np.flatnonzero(parse_hand(t))[0]): n for t, n in left.items()}
    case.visible = [4 - held[k] - keep.get(k, 0) for k in range(27)]
    return case


@pytest.mark.parametrize(("hand", "left", "budget", "backward", "objective"), [
    ("123456m78m25p99s1s", {"6m": 2, "9m": 2, "3p": 2, "4p": 1, "1s": 1, "9s": 1}, 1, True, "win"),
    ("123456s78s12m12p9s", {"9s": 2, "6s": 1, "3m": 2, "3p": 1, "8s": 1}, 2, True, "value"),
])
def test_twin_budget_plans(hand: str, left: dict[str, int], budget: int, backward: bool,
                           objective: str) -> None:
    """Three suits, no declared void, a budget: the states with no exchange left whose hand has
    one best void suit hold that suit's tiles packed (fc_plan_of), the others as they are (a
    small pool, so that the twin reaches 3 draws)."""
    case = _pool_of(Case(hand=[int(x) for x in parse_hand(hand)], void_suit=None), left)
    _check(case, 3, objective, budget, RULES[0], backward)


@pytest.mark.parametrize(("hand", "melds", "void", "left", "draws"), [
    # flush m with 5 to 7 dead tiles (p and s; with a void, its tiles too), which take as many
    # draws of m: the dead phase and what follows it; a dead draw is discarded at once
    ("1112345m2p5p8p7s9s1s8s", (), None, {"6m": 2, "9m": 2, "5s": 1}, 7),  # every discard
    ("11234m2p5p7s9s1p6m", ("pung:9m",), None, {"1m": 1, "5m": 2, "2s": 1}, 6),
    ("11123456m2p5p7s9s8s", (), None, {"6m": 2, "9m": 1, "5p": 1}, 6),
    ("11123456m2p5p7s9s8s1s", (), 2, {"6m": 2, "9m": 1, "5s": 1}, 6),  # void s held: s first
])
@pytest.mark.parametrize(("budget", "backward"), [(0, False), (1, True), (None, False)])
def test_twin_flush_dead_tiles(hand: str, melds: tuple[str, ...], void: int | None,
                               left: dict[str, int], draws: int, budget: int | None,
                               backward: bool) -> None:
    case = _pool_of(Case(hand=[int(x) for x in parse_hand(hand)], melds=melds, void_suit=void),
                    left)
    for objective in ("win", "value"):
        _check(case, draws, objective, budget, RULES[0], backward, 0)


@pytest.mark.parametrize("hand", ["123m456m78m23p55p9s", "11234567m99m23p5p"])
def test_more_budget_never_lowers(hand: str) -> None:
    """0 <= 1 <= 2 <= 2 with backward moves, at 4 draws; a budget of T or more is no budget (one
    exchange per draw at most), so it equals None."""
    kw: dict[str, Any] = {"draws": 4, "void_suit": "s", "objective": "value"}
    score = {b: forecast(hand, exchanges=b, **kw).score() for b in (0, 1, 2)}
    score["back"] = forecast(hand, exchanges=2, backward=True, **kw).score()
    assert score[0] <= score[1] + 1e-12 and score[1] <= score[2] + 1e-12
    assert score[2] <= score["back"] + 1e-12 and score[0] < score["back"]
    short: dict[str, Any] = {"draws": 3, "void_suit": "s"}
    none = forecast(hand, exchanges=None, **short)
    for b in (3, 50):
        f = forecast(hand, exchanges=b, **short)
        np.testing.assert_allclose(f.win, none.win, rtol=0, atol=1e-12)
        np.testing.assert_allclose(f.value, none.value, rtol=0, atol=1e-12)


def test_budget_rows_alike_in_a_batch() -> None:
    """A ready leaf with an exchange left (its one draw wins or stays) stands only for leaves of
    its own class: here one listed by a state of that class once stood for an exhausted one, and
    the row's values read a row not made yet (the earlier row's numbers, in a batch)."""
    hand, before = parse_hand("2233356m3558899s"), parse_hand("2488m1113334679s")
    kw: dict[str, Any] = {"draws": 4, "exchanges": 2}
    alone = forecast(hand, **kw)
    batch = forecast(np.stack([before, hand]), workers=1, **kw)
    np.testing.assert_array_equal(batch.win[1], alone.win)
    np.testing.assert_array_equal(np.asarray(batch.value)[1], alone.value)


def test_candidates_keep() -> None:
    """Only the discards of the lowest shanten are evaluated, with the numbers of "all"."""
    hand = "123m456m78m23p55p99s"
    every = forecast(hand, draws=8, void_suit="s")
    kept = forecast(hand, draws=8, void_suit="s", candidates="keep")
    after = discards(parse_hand(hand), void_suit=2)
    rows = np.flatnonzero(~np.isnan(kept.value)).tolist()
    assert rows == [26] == np.flatnonzero(after == after[after > -100].min()).tolist()
    np.testing.assert_array_equal(kept.win[rows], every.win[rows])
    assert kept.best_discard == every.best_discard == 26
    assert kept.candidates == "keep" and np.isnan(kept.win[0]).all()


def test_policy_refused() -> None:
    with pytest.raises(InvalidArgumentError, match="exchanges=0 for False"):
        forecast("123m456m789m23p55p", draws=2, exchanges=False)
    with pytest.raises(InvalidArgumentError, match="exchanges=None for True"):
        forecast("123m456m789m23p55p", draws=2, exchanges=True)
    with pytest.raises(InvalidArgumentError, match="backward"):
        forecast("123m456m789m23p55p", draws=2, exchanges=None, backward=True)
    with pytest.raises(InvalidArgumentError, match="flush"):
        forecast("123m456m789m23p55p", draws=2, flush="z")
    with pytest.raises(InvalidArgumentError, match="candidates"):
        forecast("123m456m789m23p55p", draws=2, candidates="best")
    with pytest.raises(InvalidArgumentError, match=r"flush.*void"):
        forecast("123m456m789m23p55p", draws=2, flush="s", void_suit="s")
    hands = np.stack([parse_hand("123m456m789m23p55p")] * 2)
    with pytest.raises(InvalidArgumentError, match=r"hands\[1\]: flush"):
        forecast(hands, draws=2, flush="p", void_suit=np.array([2, 1], np.int8))


def test_choose_plan_and_void() -> None:
    """choose_plan: as it stands against each flush the hand may keep, each its own forecast;
    choose_void with a flush leaves the flush suit out."""
    from mjfast import choose_plan, choose_void

    hand = "1123456789m23p5s9m"
    plans = choose_plan(hand, draws=6, void_suit="s")
    assert sorted(("" if p.flush is None else "mps"[p.flush]) for p in plans) == ["", "m", "p"]
    for p in plans:
        f = forecast(hand, draws=6, void_suit="s", flush=p.flush)
        assert p.discard == f.best_discard and p.win == float(f.win[f.best_discard, -1])
    assert [p.score for p in plans] == sorted((p.score for p in plans), reverse=True)
    with_meld = choose_plan("112345678m2p", draws=3, melds=["pung:5s"])
    assert [p.flush for p in with_meld if p.flush is not None] == [2]  # only s holds the meld
    voids = choose_void("1234567m123p1559s", draws=3, flush="m")
    assert sorted(v.suit for v in voids) == [1, 2]


@pytest.mark.parametrize(("hand", "left", "draws"), [
    # flush m without exchanges, objective "win": the pass over suit patterns (ready, 1-shanten,
    # and one of the 16 2-shanten 13-tile hands, which picks per draws left) against the twin
    ("1224457778999m5p", {"3m": 2, "6m": 2, "9p": 1}, 4),      # discard 5p: 2-shanten 13 m tiles
    ("11123459m2p5p8p7s9s1s", {"6m": 2, "9m": 2, "5s": 1}, 6),  # 6 dead tiles: entries
    ("12356799m1p4p5p3s6s8s", {"4m": 2, "8m": 2, "9m": 1}, 6),  # 8 m tiles, 6 dead
    ("2m3m5p7p8p1s4s6s9s1p2p4s5s7s", {"2m": 2, "3m": 1, "4m": 2, "1p": 1}, 6),  # no entry in time
])
def test_twin_flush_pass(hand: str, left: dict[str, int], draws: int) -> None:
    case = _pool_of(Case(hand=[int(x) for x in parse_hand(hand)]), left)
    _check(case, draws, "win", 0, RULES[0], False, 0)


def test_flush_pass_rows_alike() -> None:
    """The flush pass remembers its hands' numbers per row (the pool changes them) and the fans
    per rules table: rows of one batch (each with its own pool and suit) give what each gives
    alone, and a second call what the first (its fans then cached) gave."""
    hands = np.stack([parse_hand(h) for h in (
        "1239m1258p234679s",    # 4 tiles of m, 4 of p, 6 of s: many entries in s's plan
        "2378m35p11224489s",    # 8 of s
        "1123345m469p278s8s",   # 7 of m
    )])
    suits = [2, 2, 0]
    visible = np.zeros((3, 27), np.uint8)
    visible[1, 18:27] = 1  # one copy of each s rank seen: another pool
    alone = [forecast(h, draws=18, flush=f, visible=v) for h, f, v in zip(hands, suits, visible)]
    for suit in (2, 0):
        rows = [i for i in range(3) if suits[i] == suit]
        batch = forecast(hands[rows], draws=18, flush=suit, visible=visible[rows], workers=1)
        for j, i in enumerate(rows):
            np.testing.assert_array_equal(batch.win[j], alone[i].win)
            np.testing.assert_array_equal(batch.ready[j], alone[i].ready)
            np.testing.assert_array_equal(np.asarray(batch.value)[j], alone[i].value)
    again = forecast(hands[0], draws=18, flush=2)
    np.testing.assert_array_equal(again.win, alone[0].win)
    np.testing.assert_array_equal(np.asarray(again.value), np.asarray(alone[0].value))
    qq = Rules.preset("qq")  # other rules: their own fans, scored at the first call
    first, second = (forecast(hands[0], draws=18, flush=2, rules=qq) for _ in range(2))
    np.testing.assert_array_equal(np.asarray(second.value), np.asarray(first.value))
    assert not np.array_equal(np.asarray(first.value), np.asarray(again.value), equal_nan=True)
