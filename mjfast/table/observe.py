"""What one seat may see of a table, as numpy arrays (RULES.md section 10)."""

from __future__ import annotations

from typing import TypedDict

import numpy as np
import numpy.typing as npt

from mjfast.table.state import PHASE_CLAIM, PHASE_ROB, PHASE_TURN, PHASE_VOID, TableState

__all__ = ["OBSERVATION_KEYS", "Observation", "observation"]

OBSERVATION_KEYS = ("seat", "phase", "current", "dealer", "hand", "drawn", "tile", "melds",
                    "discards", "discards_taken", "void", "wall", "out", "scores")
"""The keys of an observation, in order."""


class Observation(TypedDict):
    """One seat's view (:func:`observation`): the keys of :data:`OBSERVATION_KEYS`, P seats."""

    seat: int
    phase: int
    current: int
    dealer: int
    hand: npt.NDArray[np.uint8]
    drawn: int
    tile: int
    melds: npt.NDArray[np.int8]
    discards: npt.NDArray[np.int8]
    discards_taken: npt.NDArray[np.bool_]
    void: npt.NDArray[np.int8]
    wall: int
    out: npt.NDArray[np.bool_]
    scores: npt.NDArray[np.int64]


def observation(s: TableState, p: int) -> Observation:
    """Seat ``p``'s view: only its own concealed tiles, and of the others what is public.

    ``seat``, ``phase`` (0 void, 1 turn, 2 claim, 3 rob, 4 over), ``current`` (the seat to
    act), ``dealer``: ints. ``hand``: (27,) uint8, own concealed tiles. ``drawn``: the tile
    just drawn when it is the seat's own turn, else -1. ``tile``: the discard being claimed or
    the kong being robbed, else -1. ``melds``: (P, 4, 2) int8 (kind, type 0 pung / 1 exposed
    kong / 2 added kong / 3 concealed kong; -1 empty), the kind of another seat's concealed
    kong hidden (-1). ``discards``: (P, 48) int8 each seat's discards in order (-1 padded),
    ``discards_taken``: (P, 48) bool, those claimed. ``void``: (P,) int8 declared void suits
    (others' are -1 until everyone has declared). ``wall``: tiles left. ``out``: (P,) bool,
    seats that have won. ``scores``: (P,) int64 net payments so far.
    """
    melds = s.melds.copy()
    for q in range(s.n):
        if q != p:
            melds[q, :, 0][melds[q, :, 1] == 3] = -1
    void = s.void.copy()
    if s.phase == PHASE_VOID:
        void[np.arange(s.n) != p] = -1
    own_turn = s.phase == PHASE_TURN and s.current == p
    return {
        "seat": p,
        "phase": s.phase,
        "current": s.current,
        "dealer": s.dealer,
        "hand": s.hands[p].copy(),
        "drawn": s.drawn if own_turn else -1,
        "tile": s.tile if s.phase in (PHASE_CLAIM, PHASE_ROB) else -1,
        "melds": melds,
        "discards": s.river.copy(),
        "discards_taken": s.river_taken.copy(),
        "void": void,
        "wall": s.wall_left,
        "out": s.won.copy(),
        "scores": s.scores.copy(),
    }
