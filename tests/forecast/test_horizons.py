"""The forecast engine against its twin at longer horizons than the random cases reach.

These horizons exercise what only shows after a few draws: the frontier (a state whose shanten
equals the draws left keeps one successor per draw, or none), the state-by-state values of the
graph without exchanges (in (shanten, void tiles) order, held void tiles included), shared pick
rows of groups with the same successors, and the ready leaves of the forward pass."""

from __future__ import annotations

import pytest

from mjfast import parse_hand
from tests.forecast.test_twin import RULES, _check
from tests.strategies import Case

# (hand, void suit, draws, exchanges): 13 and 14 tiles, 0-2 shanten, with and without void tiles
CASES = [
    ("2m34789p4455789s", None, 6, 0),
    ("2m34789p4455789s", 0, 6, 0),           # holds 2m of the void suit
    ("2234677m4444p99s", None, 6, 0),        # every 4p held: fifth copies
    ("123m456m78m2p55p19s", 2, 3, 0),        # 14 tiles, two void tiles: void first
    ("11456669m456p28s", None, 4, 0),
    ("123m456m78m2p55p19s", 2, 3, None),
    ("123m456m789m2p55p9s", None, 2, None),
]


@pytest.mark.parametrize(("hand", "void", "draws", "exchanges"), CASES)
@pytest.mark.parametrize("objective", ["win", "value"])
def test_twin_longer_horizons(hand: str, void: int | None, draws: int, exchanges: int | None,
                              objective: str) -> None:
    case = Case(hand=[int(x) for x in parse_hand(hand)], void_suit=void)
    _check(case, draws, objective, exchanges, RULES[0])
