"""The state of one 血战 table as flat arrays (so that a C port is mechanical), the seeded deal
and the tile-level helpers the engine and the legal-action masks share."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from mjfast._args import as_kind
from mjfast.analysis import is_win
from mjfast.errors import InvalidArgumentError, shown
from mjfast.rules import Rules
from mjfast.table.kernels import waits_of
from mjfast.tiles import NUM_KINDS, Meld, MeldKind, format_tile, parse_tile

__all__ = ["MAX_DISCARDS", "MELD_KINDS", "PHASE_CLAIM", "PHASE_NAMES", "PHASE_OVER", "PHASE_ROB",
           "PHASE_TURN", "PHASE_VOID", "WALL_TILES", "TableState", "as_wall", "deal",
           "tile_sequence"]

WALL_TILES = 4 * NUM_KINDS
"""108 tiles: 27 kinds x 4 copies."""
MAX_DISCARDS = 48
"""Discards one seat can make in a hand: turns alternate (a seat never acts twice in a row
without another seat's turn between), so with at most 81 wall draws, one dealt 14th tile and
8 pungs a seat has at most 45 turns."""

PHASE_VOID, PHASE_TURN, PHASE_CLAIM, PHASE_ROB, PHASE_OVER = range(5)
PHASE_NAMES = ("void", "turn", "claim", "rob", "over")
"""What the player to act decides: 定缺, an own turn (win / kong / discard), a claim on a
discard, robbing an added kong (抢杠胡), nothing (the hand is over)."""

MELD_KINDS = (MeldKind.PUNG, MeldKind.KONG, MeldKind.KONG_ADDED, MeldKind.KONG_CONCEALED)
"""Meld type codes 0-3 of ``TableState.melds[..., 1]``."""


@dataclass
class TableState:
    """Everything one table knows. Arrays are indexed by seat first.

    ``melds[p, i] = (kind, type)`` with type a :data:`MELD_KINDS` index (-1 = none);
    ``river[p]`` the seat's discards in order (-1 padded), ``river_taken`` marks those claimed
    (pung, kong or win). ``won_tiles`` counts the tiles won from another seat (one per event).
    """

    n: int
    rules: Rules
    dealer: int
    wall: np.ndarray
    pos: int
    hands: np.ndarray
    melds: np.ndarray = field(init=False)
    n_melds: np.ndarray = field(init=False)
    meld_counts: np.ndarray = field(init=False)
    river: np.ndarray = field(init=False)
    river_len: np.ndarray = field(init=False)
    river_taken: np.ndarray = field(init=False)
    void: np.ndarray = field(init=False)
    won: np.ndarray = field(init=False)
    win_order: np.ndarray = field(init=False)
    win_fan: np.ndarray = field(init=False)
    waits: np.ndarray = field(init=False)
    passed_fan: np.ndarray = field(init=False)
    passed_tiles: np.ndarray = field(init=False)
    draws: np.ndarray = field(init=False)
    scores: np.ndarray = field(init=False)
    won_tiles: np.ndarray = field(init=False)
    phase: int = PHASE_VOID
    current: int = 0
    drawn: int = -1          # the tile the current player drew (the dealer's 14th at first)
    after_kong: bool = False  # the current player's last draw replaced a kong
    after_pung: bool = False  # the current player just punged: discard only
    tile: int = -1           # the tile a claim / robbing decision is about
    source: int = -1         # its discarder / the player adding the kong
    kong_discard: bool = False  # that discard came right after the discarder's kong
    turn_drawn: int = 0      # bit k: the current player drew kind k this turn (即时加杠)
    queue: list[int] = field(default_factory=list)
    claims: dict[int, int] = field(default_factory=dict)
    any_meld: bool = False   # some seat has declared a meld (no 地胡 after that)
    turns: int = 0
    winners: int = 0

    def __post_init__(self) -> None:
        n = self.n
        self.melds = np.full((n, 4, 2), -1, dtype=np.int8)
        self.n_melds = np.zeros(n, dtype=np.int8)
        self.meld_counts = np.zeros((n, NUM_KINDS), dtype=np.uint8)
        self.river = np.full((n, MAX_DISCARDS), -1, dtype=np.int8)
        self.river_len = np.zeros(n, dtype=np.int16)
        self.river_taken = np.zeros((n, MAX_DISCARDS), dtype=np.bool_)
        self.void = np.full(n, -1, dtype=np.int8)
        self.won = np.zeros(n, dtype=np.bool_)
        self.win_order = np.full(n, -1, dtype=np.int8)
        self.win_fan = np.full(n, -1, dtype=np.int16)
        self.waits = np.zeros(n, dtype=np.uint32)
        self.passed_fan = np.full(n, -1, dtype=np.int16)
        self.passed_tiles = np.zeros(n, dtype=np.uint32)  # 过水不胡 "tile": bit k = kind k
        self.draws = np.zeros(n, dtype=np.int16)
        self.scores = np.zeros(n, dtype=np.int64)
        self.won_tiles = np.zeros(NUM_KINDS, dtype=np.uint8)

    # ------------------------------------------------------------------ reading
    @property
    def wall_left(self) -> int:
        """Tiles not yet drawn."""
        return WALL_TILES - self.pos

    def meld_list(self, p: int) -> list[Meld]:
        """Seat ``p``'s melds as :class:`~mjfast.tiles.Meld` objects."""
        return [Meld(MELD_KINDS[int(t)], int(k)) for k, t in self.melds[p, :self.n_melds[p]]]

    def has_pung(self, p: int, k: int) -> int:
        """The meld slot of seat ``p``'s pung of kind ``k``, or -1."""
        for i in range(int(self.n_melds[p])):
            if self.melds[p, i, 0] == k and self.melds[p, i, 1] == 0:
                return i
        return -1

    def void_held(self, p: int) -> bool:
        """Seat ``p`` still holds a tile of its declared void suit (it must discard those)."""
        v = int(self.void[p])
        return v >= 0 and bool(self.hands[p, 9 * v:9 * v + 9].any())

    def next_in(self, seat: int) -> int:
        """The first seat after ``seat`` (in turn order) that has not won."""
        for i in range(1, self.n + 1):
            q = (seat + i) % self.n
            if not self.won[q]:
                return q
        raise AssertionError("every seat has won")

    def tile_total(self) -> np.ndarray:
        """Copies of each kind over wall, hands, melds, live discards, won tiles and a kong's
        tile waiting for robbers (every count is 4)."""
        total = np.bincount(self.wall[self.pos:], minlength=NUM_KINDS).astype(np.int64)
        total += self.hands.sum(axis=0, dtype=np.int64) + self.meld_counts.sum(axis=0, dtype=np.int64)
        total += self.won_tiles
        if self.phase == PHASE_ROB:
            total[self.tile] += 1  # the copy being added to a kong, in nobody's hand yet
        for p in range(self.n):
            live = self.river[p, :self.river_len[p]][~self.river_taken[p, :self.river_len[p]]]
            total += np.bincount(live, minlength=NUM_KINDS)
        return total

    # ------------------------------------------------------------------ analysis
    def update_waits(self, p: int) -> None:
        """Recompute the waits of seat ``p``'s 13-3m hand (the win checks read them)."""
        self.waits[p] = waits_of(self.hands[p], self.meld_counts[p], int(self.void[p]))

    def wins_on(self, p: int, k: int) -> bool:
        """Would tile ``k`` complete seat ``p``'s 13-3m hand?"""
        return bool(int(self.waits[p]) >> k & 1)

    def self_win(self, p: int) -> bool:
        """Is seat ``p``'s 14-3m hand a win (the drawn tile completes it)?"""
        if self.draws[p] == 0:  # the dealer's dealt 14 tiles: no waits computed yet
            return bool(is_win(self.hands[p], void_suit=int(self.void[p])))
        return self.wins_on(p, self.drawn)


def tile_sequence(text: str, name: str = "wall") -> list[int]:
    """Tiles in the order written (``"5m3p1m"`` -> 5m, 3p, 1m; ``"123m"`` -> 1m, 2m, 3m)."""
    out: list[int] = []
    pos = 0
    for m in re.finditer(r"\s*([1-9]+)([mps])\s*", text):
        if m.start() != pos:
            break
        out += [parse_tile(d + m[2]) for d in m[1]]
        pos = m.end()
    if pos != len(text):
        raise InvalidArgumentError(f"{name}: cannot read the tiles from position {pos} of "
                                   f"{shown(text)} (digits 1-9 then m, p or s)")
    return out


def as_wall(value: object) -> np.ndarray:
    """A stacked wall: 108 tiles in draw order (kind indices, or text read in order) holding
    every kind 4 times."""
    items = tile_sequence(value) if isinstance(value, str) else counts_list_like(value)
    kinds = [as_kind(k, f"wall[{i}]") for i, k in enumerate(items)]
    if len(kinds) != WALL_TILES:
        raise InvalidArgumentError(f"wall: expected {WALL_TILES} tiles, got {len(kinds)}")
    counts = np.bincount(kinds, minlength=NUM_KINDS)
    if (counts != 4).any():
        k = int(np.flatnonzero(counts != 4)[0])
        raise InvalidArgumentError(f"wall: tile {format_tile(k)} appears {int(counts[k])} "
                                   "times (every kind exactly 4)")
    return np.array(kinds, dtype=np.uint8)


def counts_list_like(value: object) -> list[object]:
    """The items of a sequence or 1-D array (not a str, bytes or mapping)."""
    if isinstance(value, np.ndarray) and value.ndim == 1:
        return list(value.tolist())
    if isinstance(value, (bytes, bytearray, Mapping)) or not isinstance(value, Sequence):
        raise InvalidArgumentError(f"wall: expected 108 tiles, got {shown(value)}")
    return list(value)


def deal(n: int, rules: Rules, dealer: int, seed: int | None,
         wall: np.ndarray | None = None) -> TableState:
    """Shuffle the 108 tiles (``numpy.random.default_rng(seed)``), or take the stacked ``wall``,
    and deal: the dealer 14, the others 13, in seat order from the dealer."""
    if wall is None:
        wall = np.random.default_rng(seed).permutation(np.arange(WALL_TILES) // 4).astype(np.uint8)
    hands = np.zeros((n, NUM_KINDS), dtype=np.uint8)
    pos = 0
    for i in range(n):
        p = (dealer + i) % n
        size = 14 if i == 0 else 13
        np.add.at(hands[p], wall[pos:pos + size], 1)
        pos += size
    s = TableState(n, rules, dealer, wall, pos, hands)
    s.drawn = int(wall[13])
    s.current = dealer
    return s
