"""Duplicate comparison of two players (the way strong mahjong AIs are compared): the same walls
are played with the tested player in each seat in turn against the opponent in the others, and
with the opponent in every seat, so the luck of the deal cancels.

Per wall w the score is the tested player's net, averaged over its P seats, minus the opponent's
net in the same seats of the opponent-only game (which averages to 0: a hand's payments sum to
zero); its mean over the walls and the 95% normal interval are the headline. The other numbers
are per hand played in the tested seat: win rate, mean fan of wins (display numbering), deal-in
rate (点炮 or a robbed kong), 花猪 and 查大叫 rates, for the tested player and for the opponent
in the same seats.

>>> d = duplicate(8, "forecast", "efficient", seed=1)
>>> d.n_hands, d.seats, sorted(d.summary()["tested"])
(8, 4, ['cha_da_jiao', 'dealt_in', 'hua_zhu', 'mean_fan', 'mean_net', 'win_rate'])
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from mjfast._args import as_int
from mjfast._deprecated import renamed
from mjfast.rules import Rules
from mjfast.table.engine import MAX_TABLE_PLAYERS
from mjfast.table.players import Player
from mjfast.table.selfplay import SelfPlayResult, selfplay

__all__ = ["DuplicateResult", "duplicate"]


@dataclass(frozen=True)
class DuplicateResult:
    """:func:`duplicate`'s runs: ``tested[s]`` the hands with the tested player in seat s,
    ``baseline`` the opponent-only hands (the same walls)."""

    tested: tuple[SelfPlayResult, ...]
    baseline: SelfPlayResult

    @property
    def n_hands(self) -> int:
        """Walls played (each in every seat)."""
        return self.baseline.n_hands

    @property
    def hands(self) -> int:
        """Deprecated since 0.2: :attr:`n_hands`."""
        warnings.warn("DuplicateResult.hands is deprecated since 0.2: use n_hands",
                      DeprecationWarning, stacklevel=2)
        return self.n_hands

    @property
    def seats(self) -> int:
        """Seats at the table."""
        return len(self.tested)

    def per_wall(self) -> np.ndarray:
        """(n_hands,) float64: the tested player's net minus the opponent's in the same seats,
        averaged over the seats."""
        diff = [r.net[:, s] - self.baseline.net[:, s] for s, r in enumerate(self.tested)]
        return np.asarray(np.mean(diff, axis=0, dtype=np.float64))

    def summary(self) -> dict[str, Any]:
        """``mean_net`` and its 95% half-width ``mean_net_ci`` (per hand, the duplicate
        difference), and per player (``tested``, ``opponent`` in the same seats) the mean net
        and the rates per hand."""
        x = self.per_wall()
        ci = 1.96 * float(x.std(ddof=1)) / float(np.sqrt(len(x))) if len(x) > 1 else 0.0
        runs = [(r, s) for s, r in enumerate(self.tested)]
        return {"hands": self.n_hands, "seats": self.seats, "mean_net": float(x.mean()) if len(x)
                else 0.0, "mean_net_ci": ci, "tested": _rates(runs),
                "opponent": _rates([(self.baseline, s) for s in range(self.seats)])}


def _rates(runs: list[tuple[SelfPlayResult, int]]) -> dict[str, Any]:
    def cat(name: str) -> np.ndarray:
        return np.concatenate([getattr(r, name)[:, s] for r, s in runs])

    won, fan = cat("won"), cat("fan")
    n = max(len(won), 1)
    return {"mean_net": float(cat("net").mean()) if len(won) else 0.0,
            "win_rate": int(won.sum()) / n,
            "mean_fan": float(fan[won].mean()) if won.any() else None,
            "dealt_in": int(cat("dealt_in").sum()) / n, "hua_zhu": int(cat("hua_zhu").sum()) / n,
            "cha_da_jiao": int(cat("cha_da_jiao").sum()) / n}


@renamed(hands="n_hands")
def duplicate(n_hands: int, tested: str | Player, opponent: str | Player = "efficient", *,
              players: int = 4, rules: Rules | str | None = None, seed: int = 0,
              workers: int = 1) -> DuplicateResult:
    """Play ``n_hands`` walls ``players`` + 1 times: the tested bot in each seat against the
    opponent in the others, and the opponent alone (bots as :func:`selfplay` takes them;
    hand i dealt from ``(seed, i)``, dealer seat 0).

    >>> s = duplicate(4, "efficient", "efficient").summary()
    >>> s["mean_net"], s["mean_net_ci"]
    (0.0, 0.0)
    """
    n = as_int(players, "players", minimum=2, maximum=MAX_TABLE_PLAYERS)
    runs = tuple(selfplay(n_hands, [tested if q == s else opponent for q in range(n)], rules=rules,
                          seed=seed, workers=workers) for s in range(n))
    base = selfplay(n_hands, [opponent] * n, rules=rules, seed=seed, workers=workers)
    return DuplicateResult(runs, base)
