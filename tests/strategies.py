"""Shared hypothesis strategies and hand helpers of the tests (the core kernels above all).

Hands are drawn the way a game produces them: tiles come from the 108-tile wall (4 copies of
each of the 27 kinds), melds take their copies out of the wall first, so no kind ever exceeds
4 copies counting concealed tiles and melds. On top of random deals the strategies build
adversarial hands: complete hands (sets + pair, or seven pairs with quads) that are then
broken by one or two tile swaps (ready and 1-shanten hands), flushes and two-suit hands, and
hands around a melded kind whose last free copy matters (a pung of 5m with 46m concealed).

Test modules import these helpers as ``from tests.strategies import ...``. The hypothesis
profile that makes every run reproducible is in ``conftest.py``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np
from hypothesis import strategies as st

from mjfast.tiles import format_hand, format_tile, melds_to_counts, parse_hand

FORMS = ("all", "regular", "seven_pairs")

#: The classic multi-wait shapes of one suit (听牌的型态 · 听多门) and the ranks they wait on.
SEED_WAITS = [
    ("2345", "25"),
    ("23456", "147"),
    ("4567778", "3689"),
    ("3334555", "23456"),
    ("3334567", "24578"),
    ("1112345678", "235689"),
    ("1112223334567", "1234578"),
    ("2223334567888", "23456789"),
    ("1112345678999", "123456789"),
]

MELD_KINDS = ("pung", "kong", "kong_added", "kong_concealed")

# The sets of one suit, as (rank offsets): 9 triplets and 7 runs.
_SET_SHAPES = [(r, r, r) for r in range(9)] + [(r, r + 1, r + 2) for r in range(7)]


def mask_of(text: str) -> int:
    """The 27-bit tile mask of the kinds a hand text holds (the waits kernels' answer form)."""
    return sum(1 << t for t, c in enumerate(parse_hand(text)) if c)


def counts_of(tiles) -> list[int]:
    out = [0] * 27
    for t in tiles:
        out[t] += 1
    return out


def hand_text(counts) -> str:
    """mpsz text of a count row ('-' for the empty hand), for failure messages."""
    counts = [int(c) for c in counts]
    return format_hand(counts) if any(counts) else "-"


@dataclass
class Case:
    """One hand and the options of one analysis call."""

    hand: list[int]
    melds: tuple[str, ...] = ()
    void_suit: int | None = None
    void_rule: bool = True
    form: str = "all"
    visible: list[int] = field(default_factory=lambda: [0] * 27)
    style: str = "deal"
    sets: int = 4  # sets of a complete hand (3 / 2: the short hands of 5 / 6 players)

    @property
    def meld_counts(self) -> list[int]:
        return melds_to_counts(list(self.melds)).tolist()

    @property
    def ref_melds(self) -> list[int] | None:
        return self.meld_counts if self.melds else None

    @property
    def api_melds(self) -> list[str] | None:
        return list(self.melds) if self.melds else None

    @property
    def held(self) -> list[int]:
        m = self.meld_counts
        return [h + x for h, x in zip(self.hand, m)]

    @property
    def size(self) -> int:
        return sum(self.hand)

    @property
    def waiting(self) -> bool:
        return self.size == 3 * (self.sets - len(self.melds)) + 1

    def opts(self) -> dict:
        """Options shared by the public API and the reference (``sets`` only when short)."""
        short = {} if self.sets == 4 else {"sets": self.sets}
        return {"void_suit": self.void_suit, "void_rule": self.void_rule, **short}

    def __repr__(self) -> str:  # a reproduction line for failure reports
        return (f"Case({hand_text(self.hand)!r}, melds={list(self.melds)}, "
                f"void_suit={self.void_suit}, void_rule={self.void_rule}, form={self.form!r}, "
                f"visible={hand_text(self.visible)!r}, style={self.style!r}, sets={self.sets})")


def _pool_tiles(pool: list[int], suits) -> list[int]:
    return [t for t in range(27) if t // 9 in suits for _ in range(pool[t])]


def _take(pool: list[int], hand: list[int], tiles) -> bool:
    """Move tiles from pool to hand if all are available."""
    need = counts_of(tiles)
    if any(need[t] > pool[t] for t in range(27)):
        return False
    for t in range(27):
        pool[t] -= need[t]
        hand[t] += need[t]
    return True


def _fill(rnd: random.Random, pool, hand, size, suits) -> None:
    """Trim or pad hand to `size` tiles with random wall tiles (preferring `suits`)."""
    while sum(hand) > size:
        t = rnd.choice([t for t in range(27) if hand[t]])
        hand[t] -= 1
        pool[t] += 1
    while sum(hand) < size:
        tiles = _pool_tiles(pool, suits) or _pool_tiles(pool, (0, 1, 2))
        t = rnd.choice(tiles)
        hand[t] += 1
        pool[t] -= 1


def _swap(rnd: random.Random, pool, hand, suits, stray: float) -> None:
    """Exchange one hand tile for one wall tile (sometimes from outside `suits`)."""
    t = rnd.choice([t for t in range(27) if hand[t]])
    hand[t] -= 1
    pool[t] += 1
    use = (0, 1, 2) if rnd.random() < stray else suits
    tiles = [u for u in (_pool_tiles(pool, use) or _pool_tiles(pool, (0, 1, 2))) if u != t]
    u = rnd.choice(tiles) if tiles else t
    hand[u] += 1
    pool[u] -= 1


def _add_sets(rnd, pool, hand, suits, n_sets, pair=True) -> None:
    """Add up to n_sets random sets (and a pair) of `suits` that the wall still holds."""
    for _ in range(n_sets):
        options = [[9 * s + r for r in shape] for s in suits for shape in _SET_SHAPES]
        rnd.shuffle(options)
        for tiles in options:
            if _take(pool, hand, tiles):
                break
    if pair:
        kinds = [t for t in range(27) if t // 9 in suits and pool[t] >= 2]
        if kinds:
            _take(pool, hand, [rnd.choice(kinds)] * 2)


@st.composite
def cases(draw, size: str | None = None, max_melds: int = 4, melds: int | None = None,
          min_melds: int = 0,
          visible: bool = False, form: str | None = None, void_rule: bool | None = None,
          styles: tuple[str, ...] = ("deal", "complete", "complete", "pairs", "capped"),
          sets: int = 4):
    """A :class:`Case`: hand from the wall with 0-4 melds, void options, a form.

    size: "waiting" (13-3m), "complete" (14-3m) or None (either); with ``sets`` (3 or 2: short
    hands) 3 * sets + 1 - 3m / 3 * sets + 2 - 3m and at most ``sets`` melds, no seven-pairs
    style. styles: how the hand is built
    ("deal": random tiles; "complete": sets + pair, then trimmed and swapped; "pairs": seven
    pairs with quads, then swapped; "capped": a pung with its neighbours, sometimes its fourth
    copy, in the hand).
    """
    rnd = draw(st.randoms(use_true_random=False))
    if void_rule is None:
        void_rule = draw(st.booleans().map(lambda b: b or rnd.random() < 0.5))  # ~3/4 True
    void_suit = draw(st.sampled_from([None, 0, 1, 2])) if void_rule else None
    shape = draw(st.sampled_from(["any", "two", "two", "one", "one"]))
    base = rnd.randrange(3)
    suits = {"any": (0, 1, 2), "two": tuple(sorted({base, (base + 1 + rnd.randrange(2)) % 3})),
             "one": (base,)}[shape]
    if void_suit is not None and rnd.random() < 0.7:
        # usually play as the declared void asks: the live suits avoid it
        live = [s for s in suits if s != void_suit] or [s for s in range(3) if s != void_suit]
        suits = tuple(live)
    max_melds = min(max_melds, sets)
    if melds is None:
        n_melds = draw(st.sampled_from([m for m in (0, 0, 0, 1, 2, 3, 4) if min_melds <= m <= max_melds]))
    else:
        n_melds = melds
    style = draw(st.sampled_from(styles))
    if style == "pairs" and (n_melds or sets < 4):
        style = "complete"
    if style == "capped" and not n_melds:
        style = "complete"

    pool = [4] * 27
    meld_list: list[str] = []
    hand = [0] * 27
    meld_kinds = []
    if n_melds:
        stray_melds = rnd.random() < 0.15  # melds anywhere: three suits / the void suit
        candidates = [t for t in range(27) if stray_melds or t // 9 in suits]
        if style == "capped":
            # a pung whose neighbours are in the hand: the last free copy may be a wait
            t = rnd.choice([t for t in candidates if t % 9 not in (0, 8)] or candidates)
            meld_kinds.append(t)
            meld_list.append(f"pung:{format_tile(t)}")
            pool[t] -= 3
            s, r = divmod(t, 9)
            near = [9 * s + x for x in (r - 2, r - 1, r + 1, r + 2) if 0 <= x <= 8]
            pick = rnd.sample(near, min(len(near), rnd.choice([2, 2, 3])))
            if rnd.random() < 0.4:
                pick.append(t)  # the fourth copy concealed
            _take(pool, hand, pick)
        rest = [t for t in candidates if t not in meld_kinds and pool[t] == 4]
        for t in rnd.sample(rest, min(len(rest), n_melds - len(meld_kinds))):
            kind = rnd.choice(MELD_KINDS)
            meld_list.append(f"{kind}:{format_tile(t)}")
            pool[t] -= 3 if kind == "pung" else 4
            meld_kinds.append(t)
        n_melds = len(meld_list)
    if size is None:
        size = draw(st.sampled_from(["waiting", "complete"]))
    target = 3 * (sets - n_melds) + (1 if size == "waiting" else 2)

    if style == "deal":
        tiles = _pool_tiles(pool, suits)
        if len(tiles) < target:
            tiles = _pool_tiles(pool, (0, 1, 2))
        idx = draw(st.lists(st.integers(0, len(tiles) - 1), min_size=target, max_size=target,
                            unique=True))
        for i in idx:
            hand[tiles[i]] += 1
            pool[tiles[i]] -= 1
    else:
        if style == "pairs":
            kinds = [t for t in range(27) if t // 9 in suits]
            pairs = 0
            while pairs < 7:
                t = rnd.choice(kinds)
                quad = rnd.random() < 0.25 and pairs <= 5
                if _take(pool, hand, [t] * (4 if quad else 2)):
                    pairs += 2 if quad else 1
                elif not any(pool[k] >= 2 for k in kinds):
                    break
        else:
            n_sets = max(0, (target - sum(hand)) // 3)
            _add_sets(rnd, pool, hand, suits, n_sets, pair=True)
        _fill(rnd, pool, hand, target + 1 if size == "waiting" else target, suits)
        if size == "waiting":
            _fill(rnd, pool, hand, target, suits)  # drop one tile: often ready
        swaps = draw(st.sampled_from([0, 0, 1, 1, 2]))
        for _ in range(swaps):
            _swap(rnd, pool, hand, suits, stray=0.2)

    if form is None:
        # seven pairs with melds can never win: keep that case, but rare
        form = draw(st.sampled_from(FORMS if not n_melds else ("all", "regular") * 4 + FORMS))
    vis = [0] * 27
    if visible:
        dens = rnd.random()
        for t in range(27):
            if pool[t] and rnd.random() < dens:
                vis[t] = rnd.randint(0, pool[t])
    return Case(hand=hand, melds=tuple(meld_list), void_suit=void_suit, void_rule=void_rule,
                form=form, visible=vis, style=style, sets=sets)


@st.composite
def batches(draw, size: str | None = None, min_rows: int = 1, max_rows: int = 12,
            visible: bool = False, max_melds: int = 4, sets: int = 4):
    """(cases, void_rule, form): rows sharing void_rule, form and sets, as one batch call
    takes them."""
    void_rule = draw(st.booleans())
    form = draw(st.sampled_from(FORMS))
    rows = draw(st.lists(cases(size=size, visible=visible, form=form, void_rule=void_rule,
                               max_melds=max_melds, sets=sets),
                         min_size=min_rows, max_size=max_rows))
    return rows, void_rule, form


def batch_arrays(rows: list[Case]):
    """(hands, melds, voids, visible) arrays for a batch call built from cases."""
    hands = np.array([c.hand for c in rows], np.uint8).reshape(-1, 27)
    melds = np.array([c.meld_counts for c in rows], np.uint8).reshape(-1, 27)
    voids = np.array([-1 if c.void_suit is None else c.void_suit for c in rows], np.int8)
    visible = np.array([c.visible for c in rows], np.uint8).reshape(-1, 27)
    return hands, melds, voids, visible


# ---------------------------------------------------------------------------- numpy helpers


def random_deals(rng: np.random.Generator, n: int, size: int, suits=(0, 1, 2)) -> np.ndarray:
    """(n, 27) uint8 hands of `size` tiles dealt from the wall of `suits` (vectorised)."""
    kinds = np.array([t for t in range(27) if t // 9 in suits for _ in range(4)], np.int64)
    keys = rng.random((n, kinds.size))
    pick = np.argpartition(keys, size, axis=1)[:, :size]
    out = np.zeros((n, 27), np.uint8)
    np.add.at(out, (np.repeat(np.arange(n), size), kinds[pick].ravel()), 1)
    return out


def random_meld_batch(rng: np.random.Generator, n: int, waiting: bool | None = None):
    """(hands, melds, voids) for n rows with 0-4 melds each, sizes 13-3m or 14-3m."""
    hands = np.zeros((n, 27), np.uint8)
    melds = np.zeros((n, 27), np.uint8)
    voids = rng.integers(-1, 3, n).astype(np.int8)
    for i in range(n):
        m = int(rng.integers(0, 5))
        suits = rng.permutation(3)[: int(rng.integers(1, 4))]
        allowed = [t for t in range(27) if t // 9 in suits]
        kinds = rng.choice(allowed if len(allowed) >= m else 27, m, replace=False)
        pool = np.full(27, 4)
        for t in kinds:
            melds[i, t] = 3 if rng.random() < 0.5 else 4
            pool[t] -= melds[i, t]
        w = waiting if waiting is not None else bool(rng.random() < 0.5)
        size = (13 if w else 14) - 3 * m
        wall = np.array([t for t in allowed for _ in range(pool[t])] or
                        [t for t in range(27) for _ in range(pool[t])])
        if wall.size < size:
            wall = np.array([t for t in range(27) for _ in range(pool[t])])
        np.add.at(hands[i], rng.choice(wall, size, replace=False), 1)
    return hands, melds, voids
