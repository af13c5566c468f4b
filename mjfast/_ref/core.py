"""Pure-Python reference for the core kernels, written from the definitions of RULES.md 2-3.

This module is the oracle the compiled kernels are tested against, so it aims to be obviously
correct rather than fast. Every function has the signature of its public twin (:mod:`mjfast`)
less the batch options (``workers``, ``out``, ``errors``), and takes one hand: 27 ints (kind
0..26 = 1m..9m, 1p..9p, 1s..9s) or a tile string; ``melds`` is None, meld strings / ``Meld``
objects, or 27 meld tiles per kind (0, 3 for a pung, 4 for a kong). Inputs are normalised to
count tuples first (through :mod:`mjfast.tiles`), so no spelling takes a path of its own.

Shanten (RULES.md 3) is, by definition, ``min |C - H| - 1`` over every winning hand ``C`` with
the same melds, concealed size ``14 - 3m``, no kind above 4 copies counting melds, and obeying
the void rule (C plus the melds hold at most two suits, none of them a declared void suit).
``|C - H|`` is the multiset difference, ``sum over kinds of max(0, C[t] - H[t])``.

How the minimum is computed, and why it is exact:

* ``|C - H|`` is a sum over kinds, so it splits into one term per suit. Under the void rule we
  fix a set ``S`` of live suits (two suits, neither the declared void one, holding every
  melded kind); tiles of the dead suit are not in ``C`` and cost nothing. Every rule-abiding
  ``C`` lives in some such ``S``, so minimising over the (at most three) choices of ``S`` is
  the minimum over all ``C``. Without the void rule ``S`` is all three suits.
* Regular form: ``C`` restricted to a suit is a *suit pattern*: ``k`` sets (sequences or
  triplets) plus 0 or 1 pair, with counts within the caps ``4 - melds[t]``. For each suit and
  each ``(k, p)`` we compute ``cost[k][p]`` = the least ``sum max(0, T[r] - H[r])`` over every
  such pattern ``T`` (:func:`suit_costs`), then take the minimum over every way to split the
  ``4 - m`` sets and the one pair among the live suits.
  :func:`suit_costs` enumerates the patterns rank by rank: a pattern is a choice, for each rank
  ``r``, of how many sequences start at ``r`` (ranks 1-7 only), whether ``r`` holds a triplet
  and whether it holds the pair; the count at ``r`` is then determined (sequences started at
  ``r-2``, ``r-1`` and ``r``, plus 3 or 2). The dynamic programme merely merges enumeration
  branches that agree on everything that can still matter (sequences still open, sets and pair
  used so far), keeping the cheaper one, so it is an exhaustive enumeration of all patterns.
  (``tests/core/test_ref_core.py`` also checks it against a literal enumeration of set multisets.)
* Seven pairs: ``C`` gives each live kind 0, 2 or 4 tiles (a quad is two pairs), 7 pairs in
  all, and only without melds. We choose the number of pairs per kind by a small exact
  knapsack over the live kinds (:func:`_seven_pairs_cost`), no greedy argument needed.

A form that has no winning hand at all (melds in three suits or in the declared void suit
under the void rule, seven pairs with melds) gives :data:`UNWINNABLE` (127); with
``form="all"`` a form that cannot win is ignored.

Short hands (RULES.md 7, the 5- and 6-player tables): every function takes ``sets`` (4 by
default, 3 or 2), the sets of a complete hand. The concealed sizes become ``3 * sets + 1 - 3m`` /
``3 * sets + 2 - 3m``, the regular form splits ``sets - m`` sets among the live suits, and seven
pairs, which needs 14 tiles, does not exist (``form="seven_pairs"`` gives UNWINNABLE).

``void_rule=False`` drops the void rule (the unconstrained, riichi-style variant); the declared
``void_suit`` is part of that rule, so passing one with ``void_rule=False`` raises ValueError
(as the public API does). Seven pairs keeps the Sichuan reading
(a quad counts as two pairs) either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import combinations
from typing import Any, Literal, Optional, Union

from mjfast.tiles import Meld, melds_to_counts, parse_hand

__all__ = [
    "NOT_HELD",
    "UNWINNABLE",
    "advise",
    "discards",
    "effective_tiles",
    "is_win",
    "shanten",
    "suit_costs",
    "waits",
]

UNWINNABLE = 127
"""Shanten of a hand that can never win."""

NOT_HELD = -128
"""Entry of :func:`discards` for a kind not held in the concealed hand."""

_INF = 10**6

Form = Literal["all", "regular", "seven_pairs"]


# --------------------------------------------------------------------------------------------
# Input handling


Hand = Union[Sequence[int], str]
"""One hand: 27 counts or a tile string."""

Melds = Optional[Union[Sequence[Any], str, Meld]]
"""Melds: None, meld strings / ``Meld`` objects, or 27 meld tiles per kind."""


def _meld_counts(melds: Melds) -> tuple[int, ...]:
    """Meld tiles per kind; strings and ``Meld`` objects go through :func:`melds_to_counts`."""
    if melds is None:
        return (0,) * 27
    if isinstance(melds, (str, Meld)):
        return tuple(int(c) for c in melds_to_counts(melds))
    items: list[Any] = list(melds)
    if all(isinstance(m, (str, Meld)) for m in items):
        return tuple(int(c) for c in melds_to_counts(items))
    return tuple(int(c) for c in items)


def _prepare(hands: Hand, melds: Melds,
             sets: int = 4) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Return (hand, melds, number of melds) as tuples of ints."""
    if type(sets) is not int or sets not in (2, 3, 4):
        raise ValueError(f"sets must be 2, 3 or 4, got {sets!r}")
    hand = tuple(int(c) for c in (parse_hand(hands) if isinstance(hands, str) else hands))
    if len(hand) != 27:
        raise ValueError(f"expected 27 counts, got {len(hand)}")
    meld_tiles = _meld_counts(melds)
    if melds is not None:
        if len(meld_tiles) != 27:
            raise ValueError(f"expected 27 meld counts, got {len(meld_tiles)}")
        bad = [c for c in meld_tiles if c not in (0, 3, 4)]
        if bad:
            raise ValueError(f"meld counts must be 0, 3 or 4 per kind, got {bad[0]}")
    n_melds = sum(1 for c in meld_tiles if c)
    if n_melds > sets:
        raise ValueError(f"{n_melds} melds (max {sets})")
    return hand, meld_tiles, n_melds


def _check_size(hand: tuple[int, ...], n_melds: int, allowed: tuple[int, ...],
                sets: int = 4) -> None:
    """*allowed* names sizes of 4-set hands without melds (13 waiting, 14 complete)."""
    size = sum(hand)
    sizes = tuple(a - 3 * n_melds - 3 * (4 - sets) for a in allowed)
    if size not in sizes:
        want = " or ".join(str(s) for s in sizes)
        raise ValueError(
            f"hand has {size} concealed tiles; with {n_melds} meld(s) expected {want}"
        )


def _live_suit_sets(
    meld_tiles: tuple[int, ...], void_suit: int | None, void_rule: bool
) -> list[tuple[int, ...]]:
    """The choices of live suits S a winning hand may use (see the module docstring)."""
    if void_suit is not None and void_suit not in (0, 1, 2):
        raise ValueError(f"void_suit must be None, 0, 1 or 2, got {void_suit!r}")
    if not void_rule:
        if void_suit is not None:
            raise ValueError("void_suit: a declared void suit needs void_rule=True")
        return [(0, 1, 2)]
    meld_suits = {t // 9 for t in range(27) if meld_tiles[t]}
    out: list[tuple[int, ...]] = []
    for pair in combinations((0, 1, 2), 2):
        if void_suit is not None and void_suit in pair:
            continue
        if meld_suits <= set(pair):
            out.append(pair)
    return out


# --------------------------------------------------------------------------------------------
# Regular form


@lru_cache(maxsize=1 << 16)
def suit_costs(
    hand9: tuple[int, ...], caps9: tuple[int, ...] = (4,) * 9
) -> tuple[tuple[int, int], ...]:
    """Least tiles to add so one suit becomes a complete pattern.

    Returns ``cost`` with ``cost[k][p]`` (k = 0..4 sets, p = 0/1 pair) = the minimum over
    every suit pattern ``T`` of k sets (sequences or triplets) plus p pairs with
    ``T[r] <= caps9[r]`` of ``sum(max(0, T[r] - hand9[r]))``; ``_INF`` (10**6) where no such
    pattern exists.

    >>> suit_costs((1, 1, 1, 0, 0, 0, 0, 0, 0))[1][0]   # 123 is a set already
    0
    >>> suit_costs((1, 0, 1, 0, 0, 0, 0, 0, 0))[1][1]   # 13 -> 123 + a pair
    3
    """
    # state -> least cost so far; state = (sequences started at r-1, at r-2, sets, pair)
    states: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 0}
    for r in range(9):
        nxt: dict[tuple[int, int, int, int], int] = {}
        for (open1, open2, sets, pair), cost in states.items():
            max_new = 4 - sets if r <= 6 else 0  # a sequence starting at r needs r+1, r+2
            for new in range(max_new + 1):
                for trip in (0, 1):
                    if sets + new + trip > 4:
                        continue
                    for pr in ((0, 1) if pair == 0 else (0,)):
                        tiles = open1 + open2 + new + 3 * trip + 2 * pr
                        if tiles > caps9[r]:
                            continue
                        key = (new, open1, sets + new + trip, pair + pr)
                        c = cost + max(0, tiles - hand9[r])
                        if c < nxt.get(key, _INF):
                            nxt[key] = c
        states = nxt
    table = [[_INF, _INF] for _ in range(5)]
    for (_open1, _open2, sets, pair), cost in states.items():
        # open1 == open2 == 0 here: no sequence may start at ranks 8 or 9.
        if cost < table[sets][pair]:
            table[sets][pair] = cost
    return tuple((a, b) for a, b in table)


def _regular_cost(
    hand: tuple[int, ...],
    meld_tiles: tuple[int, ...],
    n_melds: int,
    suit_sets: list[tuple[int, ...]],
    sets: int = 4,
) -> int:
    """min |C - hand| over regular-form winning hands C of *sets* sets; _INF if none."""
    need_sets = sets - n_melds
    tables = [
        suit_costs(hand[9 * s: 9 * s + 9], tuple(4 - c for c in meld_tiles[9 * s: 9 * s + 9]))
        for s in range(3)
    ]
    best = _INF
    for live in suit_sets:
        for pair_suit in live:
            # every split of need_sets sets among the live suits
            for split in _splits(need_sets, len(live)):
                total = 0
                for s, k in zip(live, split):
                    total += tables[s][k][1 if s == pair_suit else 0]
                best = min(best, total)
    return best


@cache
def _splits(total: int, parts: int) -> tuple[tuple[int, ...], ...]:
    """All tuples of `parts` non-negative ints summing to `total`."""
    if parts == 1:
        return ((total,),)
    return tuple((first,) + rest for first in range(total + 1)
                 for rest in _splits(total - first, parts - 1))


# --------------------------------------------------------------------------------------------
# Seven pairs


def _seven_pairs_cost(hand: tuple[int, ...], suit_sets: list[tuple[int, ...]]) -> int:
    """min |C - hand| over seven-pairs hands C (kinds 0, 2 or 4 tiles, 7 pairs, live suits)."""
    best = _INF
    for live in suit_sets:
        # dp[j] = least cost using j pairs on the kinds seen so far (exact knapsack)
        dp = [0] + [_INF] * 7
        for s in live:
            for t in range(9 * s, 9 * s + 9):
                h = hand[t]
                new = dp[:]
                for j in range(8):
                    if dp[j] >= _INF:
                        continue
                    for pairs in (1, 2):  # 2 tiles or a quad (two pairs)
                        if j + pairs <= 7:
                            c = dp[j] + max(0, 2 * pairs - h)
                            if c < new[j + pairs]:
                                new[j + pairs] = c
                dp = new
        best = min(best, dp[7])
    return best


# --------------------------------------------------------------------------------------------
# Public reference functions


def _shanten(
    hand: tuple[int, ...],
    meld_tiles: tuple[int, ...],
    n_melds: int,
    form: str,
    void_suit: int | None,
    void_rule: bool,
    sets: int = 4,
) -> int:
    if form not in ("all", "regular", "seven_pairs"):
        raise ValueError(f"form must be 'all', 'regular' or 'seven_pairs', got {form!r}")
    suit_sets = _live_suit_sets(meld_tiles, void_suit, void_rule)
    best = _INF
    if form in ("all", "regular"):
        best = min(best, _regular_cost(hand, meld_tiles, n_melds, suit_sets, sets))
    if form in ("all", "seven_pairs") and n_melds == 0 and sets == 4:
        best = min(best, _seven_pairs_cost(hand, suit_sets))
    return UNWINNABLE if best >= _INF else best - 1


def shanten(
    hands: Hand,
    *,
    form: Form = "all",
    melds: Melds = None,
    void_suit: int | None = None,
    void_rule: bool = True,
    sets: int = 4,
) -> int:
    """Shanten number by definition (RULES.md 3): ``min |C - hand| - 1`` over winning ``C``.

    *hands* (one hand) holds ``13 - 3m`` or ``14 - 3m`` concealed tiles (m = number of melds). -1 =
    complete, 0 = ready, :data:`UNWINNABLE` (127) = no winning hand exists.

    >>> h = [0] * 27
    >>> for t in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 18, 19, 20): h[t] += 1  # 123456789m11p123s
    >>> shanten(h), shanten(h, void_rule=False)   # three suits: not a Sichuan win
    (1, -1)
    >>> h[20] -= 1                                  # 123456789m11p12s: waits on 3s
    >>> shanten(h), shanten(h, void_rule=False), shanten(h, void_suit=2)
    (2, 0, 2)
    """
    hand, meld_tiles, n_melds = _prepare(hands, melds, sets)
    _check_size(hand, n_melds, (13, 14), sets)
    return _shanten(hand, meld_tiles, n_melds, form, void_suit, void_rule, sets)


def is_win(
    hands: Hand,
    *,
    melds: Melds = None,
    void_suit: int | None = None,
    void_rule: bool = True,
    sets: int = 4,
) -> bool:
    """True when the ``14 - 3m`` concealed tiles plus the melds form a winning hand.

    A ``13 - 3m`` hand is never a win (False); any other size raises ValueError.
    """
    hand, meld_tiles, n_melds = _prepare(hands, melds, sets)
    _check_size(hand, n_melds, (13, 14), sets)
    if sum(hand) == 3 * (sets - n_melds) + 1:
        return False
    return _shanten(hand, meld_tiles, n_melds, "all", void_suit, void_rule, sets) == -1


def _held(hand: tuple[int, ...], meld_tiles: tuple[int, ...], t: int) -> int:
    return hand[t] + meld_tiles[t]


def _plus(hand: tuple[int, ...], t: int, d: int = 1) -> tuple[int, ...]:
    return hand[:t] + (hand[t] + d,) + hand[t + 1:]


def waits(
    hands: Hand,
    *,
    melds: Melds = None,
    void_suit: int | None = None,
    void_rule: bool = True,
    sets: int = 4,
) -> int:
    """27-bit mask of the kinds t such that hand + t wins (a ``13 - 3m`` hand).

    Kinds the player already holds 4 times (melds included) are left out.
    """
    hand, meld_tiles, n_melds = _prepare(hands, melds, sets)
    _check_size(hand, n_melds, (13,), sets)
    mask = 0
    for t in range(27):
        if _held(hand, meld_tiles, t) >= 4:
            continue
        if _shanten(_plus(hand, t), meld_tiles, n_melds, "all", void_suit, void_rule, sets) == -1:
            mask |= 1 << t
    return mask


def _effective(
    hand: tuple[int, ...],
    meld_tiles: tuple[int, ...],
    n_melds: int,
    visible: tuple[int, ...],
    form: str,
    void_suit: int | None,
    void_rule: bool,
    held_before: Sequence[int] | None = None,
    sets: int = 4,
) -> tuple[int, list[int]]:
    """(shanten, per-kind list) for a 13-3m hand; see effective_tiles."""
    base = _shanten(hand, meld_tiles, n_melds, form, void_suit, void_rule, sets)
    out = []
    for t in range(27):
        held = _held(hand, meld_tiles, t)
        if held >= 4:
            out.append(-1)
            continue
        after = _shanten(_plus(hand, t), meld_tiles, n_melds, form, void_suit, void_rule, sets)
        if after < base:
            seen = held if held_before is None else held_before[t]
            out.append(max(0, 4 - seen - visible[t]))
        else:
            out.append(-1)
    return base, out


def _visible(visible: Sequence[int] | None) -> tuple[int, ...]:
    if visible is None:
        return (0,) * 27
    vis = tuple(int(v) for v in visible)
    if len(vis) != 27:
        raise ValueError(f"expected 27 visible counts, got {len(vis)}")
    return vis


def effective_tiles(
    hands: Hand,
    *,
    visible: Sequence[int] | None = None,
    form: Form = "all",
    melds: Melds = None,
    void_suit: int | None = None,
    void_rule: bool = True,
    sets: int = 4,
) -> list[int]:
    """Per kind, for a ``13 - 3m`` hand: copies left of each kind whose draw lowers shanten.

    -1 where drawing the kind does not lower shanten (or the player holds all 4 copies,
    melds included); otherwise ``max(0, 4 - held - visible[t])`` (an effective kind with no
    copies left is still listed, with 0).
    """
    hand, meld_tiles, n_melds = _prepare(hands, melds, sets)
    _check_size(hand, n_melds, (13,), sets)
    return _effective(hand, meld_tiles, n_melds, _visible(visible), form, void_suit, void_rule,
                      sets=sets)[1]


def discards(
    hands: Hand,
    *,
    visible: Sequence[int] | None = None,
    form: Form = "all",
    melds: Melds = None,
    void_suit: int | None = None,
    void_rule: bool = True,
    sets: int = 4,
) -> list[int]:
    """Per kind, for a ``14 - 3m`` hand: the shanten after discarding one tile of that kind.

    :data:`NOT_HELD` (-128) where the kind is not in the concealed hand. *visible* is taken
    (its length checked) as the public function takes it; it changes no shanten.
    """
    hand, meld_tiles, n_melds = _prepare(hands, melds, sets)
    _check_size(hand, n_melds, (14,), sets)
    _visible(visible)
    return [
        _shanten(_plus(hand, d, -1), meld_tiles, n_melds, form, void_suit, void_rule, sets)
        if hand[d] else NOT_HELD
        for d in range(27)
    ]


def advise(
    hand: Hand,
    *,
    visible: Sequence[int] | None = None,
    form: Form = "all",
    melds: Melds = None,
    void_suit: int | None = None,
    void_rule: bool = True,
    sets: int = 4,
) -> list[tuple[int, int, int, list[int]]]:
    """Discard advice for a ``14 - 3m`` hand (the shanten of *form*, "all" by default).

    One entry per held kind: ``(discard_kind, shanten_after, effective_count,
    effective_kinds)``, ranked by shanten ascending, effective count descending, kind
    ascending. Effective kinds are those of the 13-tile hand left after the discard; their
    copies are counted against all 14 tiles (the discarded copy counts as seen):
    ``max(0, 4 - held_before_discard - visible[t])``.
    """
    tiles, meld_tiles, n_melds = _prepare(hand, melds, sets)
    _check_size(tiles, n_melds, (14,), sets)
    vis = _visible(visible)
    held_before = [_held(tiles, meld_tiles, t) for t in range(27)]
    rows = []
    for d in range(27):
        if not tiles[d]:
            continue
        s, eff = _effective(_plus(tiles, d, -1), meld_tiles, n_melds, vis, form,
                            void_suit, void_rule, held_before, sets)
        kinds = [t for t in range(27) if eff[t] >= 0]
        rows.append((d, s, sum(eff[t] for t in kinds), kinds))
    rows.sort(key=lambda row: (row[1], -row[2], row[0]))
    return rows
