"""Built-in players: ``random`` (uniform over the legal actions), ``efficient`` (the kernels'
shanten and discard ranking) and ``forecast`` (the exact forecasts,
:class:`~mjfast.table.forecast_player.ForecastPlayer`). A player is a callable
``(observation, mask, rng) -> action`` that sees only its seat's observation."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from mjfast._deprecated import renamed
from mjfast.errors import InvalidArgumentError, shown
from mjfast.rules import Rules
from mjfast.settlement.model import sets_for
from mjfast.table.actions import (
    DISCARD,
    KONG_ADDED,
    KONG_CONCEALED,
    KONG_EXPOSED,
    PASS,
    PUNG,
    VOID,
    WIN,
)
from mjfast.table.engine import Table
from mjfast.table.kernels import discards_after, effective_counts, shanten_of
from mjfast.tiles import NUM_KINDS

__all__ = ["PLAYERS", "Player", "as_players", "efficient_player", "play_hand", "random_player"]

Player = Callable[[Mapping[str, Any], np.ndarray, np.random.Generator], int]
"""``(observation, legal mask, rng) -> action index``."""


def random_player(obs: Mapping[str, Any], mask: np.ndarray, rng: np.random.Generator) -> int:
    """Uniform over the legal actions.

    >>> m = np.zeros(140, bool); m[[3, 9]] = True
    >>> random_player({}, m, np.random.default_rng(0)) in (3, 9)
    True
    """
    del obs  # a random player looks at nothing
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def _meld_counts(obs: Mapping[str, Any]) -> np.ndarray:
    counts = np.zeros(NUM_KINDS, dtype=np.uint8)
    for kind, typ in obs["melds"][obs["seat"]]:
        if typ >= 0:
            counts[kind] = 3 if typ == 0 else 4
    return counts


def _visible(obs: Mapping[str, Any]) -> np.ndarray:
    """Copies seen outside the own hand: live discards and the others' open melds."""
    seen = np.zeros(NUM_KINDS, dtype=np.int64)
    live = obs["discards"][(obs["discards"] >= 0) & ~obs["discards_taken"]]
    seen += np.bincount(live, minlength=NUM_KINDS)
    for q, melds in enumerate(obs["melds"]):
        if q != obs["seat"]:
            for kind, typ in melds:
                if kind >= 0:
                    seen[kind] += 3 if typ == 0 else 4
    return np.minimum(seen, 4 - obs["hand"] - _meld_counts(obs)).astype(np.uint8)


def _best_void(hand: np.ndarray, allowed: np.ndarray, sets: int) -> int:
    """The allowed suit whose void gives the lowest shanten (then the fewest tiles, the lower
    suit)."""
    return min(np.flatnonzero(allowed).tolist(),
               key=lambda v: (shanten_of(hand, np.zeros(NUM_KINDS, np.uint8), v, sets),
                              int(hand[9 * v:9 * v + 9].sum()), v))


def _best_discard(obs: Mapping[str, Any], mask: np.ndarray, melds: np.ndarray, void: int,
                  sets: int) -> int:
    """The legal discard ranked first by (shanten after, effective copies left, kind)."""
    hand = obs["hand"]
    after = discards_after(hand, melds, void, sets)
    legal = np.flatnonzero(mask[DISCARD:DISCARD + NUM_KINDS])
    best = int(after[legal].min())
    tied = [int(k) for k in legal if after[k] == best]
    if len(tied) == 1:
        return DISCARD + tied[0]
    seen = _visible(obs)
    rest = np.repeat(hand[None, :], len(tied), axis=0)
    vis = np.repeat(seen[None, :], len(tied), axis=0)
    for i, k in enumerate(tied):  # the discarded copy is seen, so it is not left to draw
        rest[i, k] -= 1
        vis[i, k] = min(int(vis[i, k]) + 1, 4 - int(rest[i, k]) - int(melds[k]))
    eff = effective_counts(rest, melds, void, vis, sets)
    counts = np.where(eff > 0, eff, 0).sum(axis=1)
    return DISCARD + tied[int(np.argmax(counts))]


def efficient_player(obs: Mapping[str, Any], mask: np.ndarray, rng: np.random.Generator) -> int:
    """Declares the void with the best shanten, always wins when it can, pungs and kongs when
    that does not raise the shanten, and discards by the kernels' discard ranking (shanten
    after the discard, then effective copies left, then the lowest kind). ``rng`` is unused:
    the player is deterministic."""
    del rng
    sets = sets_for(len(obs["void"]))  # 3 or 2 at 5 or 6 seats
    if mask[VOID:VOID + 3].any():
        return VOID + _best_void(obs["hand"], mask[VOID:VOID + 3], sets)
    if mask[WIN]:
        return WIN
    hand = obs["hand"]
    seat = obs["seat"]
    void = int(obs["void"][seat])
    melds = _meld_counts(obs)
    now = shanten_of(hand, melds, void, sets)
    for base, used, kept in ((KONG_CONCEALED, 4, 4), (KONG_ADDED, 1, 4), (KONG_EXPOSED, 3, 4),
                             (PUNG, 2, 3)):
        for k in np.flatnonzero(mask[base:base + NUM_KINDS]):
            h = hand.copy()
            h[k] -= used
            m = melds.copy()
            m[k] = kept
            if shanten_of(h, m, void, sets) <= now:
                return base + int(k)
    if mask[PASS]:
        return PASS
    return _best_discard(obs, mask, melds, void, sets)


PLAYERS: dict[str, Player] = {"random": random_player, "efficient": efficient_player}
"""The built-in players by name (:mod:`mjfast.table.forecast_player` adds ``forecast``, with its
default parameters)."""


def as_players(bots: Sequence[str | Player], n: int, rules: Rules | None = None,
               name: str = "bots") -> list[Player]:
    """One player per seat from ``bots`` (the argument ``name``): built-in names or callables;
    a player with a ``with_rules`` method
    (:class:`~mjfast.table.forecast_player.ForecastPlayer`) is bound to ``rules`` (the
    table's)."""
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise InvalidArgumentError(f"{name}: expected a sequence of {n} bots (names or "
                                   f"callables), got {shown(bots)}")
    if len(bots) != n:
        raise InvalidArgumentError(f"{name}: expected {n} bots, got {len(bots)}")
    out = []
    for i, p in enumerate(bots):
        if isinstance(p, str):
            if p not in PLAYERS:
                raise InvalidArgumentError(f"{name}[{i}]: expected one of "
                                           f"{', '.join(PLAYERS)} or a callable, got {shown(p)}")
            out.append(PLAYERS[p])
        elif callable(p):
            out.append(p)
        else:
            raise InvalidArgumentError(f"{name}[{i}]: expected a name or a callable, "
                                       f"got {shown(p)}")
        bind = getattr(out[-1], "with_rules", None)
        if rules is not None and bind is not None:
            out[-1] = bind(rules)
    return out


@renamed(players="bots")
def play_hand(table: Table, bots: Sequence[str | Player], seed: int | None = None) -> Table:
    """Play ``table`` to the end with ``bots``, one per seat (``rng`` seeded by ``seed``)."""
    seats = as_players(bots, table.players, table.rules)
    rng = np.random.default_rng(seed)
    while not table.is_over:
        p = table.current_player
        table.step(seats[p](table.observation(p), table.legal_actions(p), rng))
    return table
