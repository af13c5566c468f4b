"""Batched self-play: N complete hands with built-in (or given) players, results as arrays."""

from __future__ import annotations

import multiprocessing
import warnings
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from mjfast._args import as_choice, as_flag, as_int, as_rules, as_workers
from mjfast._deprecated import renamed
from mjfast.errors import InvalidArgumentError
from mjfast.rules import Rules
from mjfast.settlement import Reason
from mjfast.table.cengine import PLAYER_KINDS, deal_wall, run_selfplay, session_ranges
from mjfast.table.engine import MAX_TABLE_PLAYERS, Table
from mjfast.table.match import BatchPlayer, play_batched
from mjfast.table.players import Player, as_players, play_hand

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["SelfPlayResult", "hand_seeds", "selfplay", "summary"]

_INT_FIELDS = ("won", "order", "fan", "net", "hua_zhu", "cha_da_jiao", "dealt_in")
_HAND_FIELDS = ("turns", "drawn", "tian_hu", "yi_pao_duo_xiang", "dealer")


@dataclass(frozen=True)
class SelfPlayResult:
    """Per-hand results of :func:`selfplay` (N hands, P seats).

    Attributes:
        won: (N, P) bool, the seat won. order: (N, P) int8, 0 for the first winner of the hand,
            1 for the next win event..., -1 for none (winners on one discard share a number).
        fan: (N, P) int16, the fan of the seat's win (display numbering, uncapped), -1 for none.
        net: (N, P) int64, net payments of the hand (each row sums to zero).
        hua_zhu: (N, P) bool, found 花猪 at the draw. cha_da_jiao: (N, P) bool, paid 查大叫.
        dealt_in: (N, P) bool, a win was made on the seat's discard (点炮) or added kong (抢杠).
        turns: (N,) int32, own turns taken. drawn: (N,) bool, the wall ran out (流局 with two or
            more seats in). tian_hu: (N,) bool. yi_pao_duo_xiang: (N,) bool, one discard won
            for several seats. dealer: (N,) int8, the hand's dealer (seat 0, or within a
            session the previous hand's :attr:`~mjfast.table.Table.next_dealer`).
        session: hands per session (1: every hand dealt by seat 0).
        logs: the hands' ``Round.to_json()`` event logs when asked for, else None.
    """

    won: np.ndarray
    order: np.ndarray
    fan: np.ndarray
    net: np.ndarray
    hua_zhu: np.ndarray
    cha_da_jiao: np.ndarray
    dealt_in: np.ndarray
    turns: np.ndarray
    drawn: np.ndarray
    tian_hu: np.ndarray
    yi_pao_duo_xiang: np.ndarray
    dealer: np.ndarray
    session: int = 1
    logs: tuple[str, ...] | None = None

    @property
    def n_hands(self) -> int:
        """The number of hands."""
        return len(self.turns)

    @property
    def hands(self) -> int:
        """Deprecated since 0.2: :attr:`n_hands`."""
        warnings.warn("SelfPlayResult.hands is deprecated since 0.2: use n_hands",
                      DeprecationWarning, stacklevel=2)
        return self.n_hands

    @renamed(players="labels")
    def plot(self, fig: Figure | None = None, labels: Sequence[str] | None = None) -> Figure:
        """Win rate and mean net per seat with 95% intervals, and the fan histogram of the
        wins, as three panels of ``fig`` (a new figure by default; :func:`mjfast.plot.selfplay`,
        the ``plot`` extra). ``labels`` names the seats (the bots played). Returns the Figure.

        >>> fig = selfplay(50, seed=3).plot()
        >>> [ax.get_ylabel() for ax in fig.axes]
        ['win rate', 'mean net per hand', 'share of wins']
        """
        from mjfast import plot

        return plot.selfplay(summary(self), fig, labels)

    def session_net(self) -> np.ndarray:
        """(S, P) int64: the net of each session (its hands summed; the last may be short).

        >>> r = selfplay(5, ("efficient",) * 3, seed=4, session=2)
        >>> r.session_net().shape, bool((r.session_net().sum(axis=0) == r.net.sum(axis=0)).all())
        ((3, 3), True)
        """
        starts = np.arange(0, self.n_hands, self.session)
        if not len(starts):
            return np.zeros((0, self.net.shape[1]), np.int64)
        return np.add.reduceat(self.net, starts, axis=0)


def hand_seeds(seed: int, index: int) -> tuple[int, int]:
    """Two seeds for hand ``index`` of a run seeded ``seed`` (the same whatever the number of
    workers): the second seeds the Python players' generator."""
    a, b = np.random.SeedSequence([seed, index]).generate_state(2)
    return int(a), int(b)


def _empty(n: int, p: int) -> dict[str, np.ndarray]:
    return {"won": np.zeros((n, p), np.bool_), "order": np.full((n, p), -1, np.int8),
            "fan": np.full((n, p), -1, np.int16), "net": np.zeros((n, p), np.int64),
            "hua_zhu": np.zeros((n, p), np.bool_), "cha_da_jiao": np.zeros((n, p), np.bool_),
            "dealt_in": np.zeros((n, p), np.bool_), "turns": np.zeros(n, np.int32),
            "drawn": np.zeros(n, np.bool_),
            "tian_hu": np.zeros(n, np.bool_), "yi_pao_duo_xiang": np.zeros(n, np.bool_),
            "dealer": np.zeros(n, np.int8)}


def _dealt_in(t: Table) -> np.ndarray:
    """(P,) bool: the seats a win was made on (the discarder, or the robbed kong)."""
    out = np.zeros(t.players, np.bool_)
    for ev in t.round.events:
        if ev["type"] == "win" and ev.get("from_player") is not None:
            out[ev["from_player"]] = True
    return out


def record(out: dict[str, np.ndarray], i: int, t: Table) -> None:
    """Row ``i`` of the result arrays from the finished table ``t``."""
    s = t.state
    out["won"][i] = s.won
    out["order"][i] = s.win_order
    out["fan"][i] = s.win_fan
    out["net"][i] = s.scores
    out["turns"][i] = s.turns
    out["dealer"][i] = s.dealer
    out["dealt_in"][i] = _dealt_in(t)
    for ev in t.round.events:
        if ev["type"] == "draw":  # the wall ran out with two or more in (not 晒太阳's one)
            out["drawn"][i] |= sum(p is not None for p in ev["players"]) >= 2
        elif ev["type"] == "win":
            out["tian_hu"][i] |= bool(ev.get("tian_hu"))
            out["yi_pao_duo_xiang"][i] |= isinstance(ev["players"], list) and len(ev["players"]) > 1
    for x in t.round.transfers:
        if x.reason is Reason.HUA_ZHU:
            out["hua_zhu"][i, x.payer] = True
        elif x.reason is Reason.CHA_DA_JIAO:
            out["cha_da_jiao"][i, x.payer] = True


# The job of a run, inherited by forked worker processes (callables need not pickle).
_JOB: dict[str, Any] = {}


def _play_range(start: int, end: int) -> tuple[dict[str, np.ndarray], list[str] | None]:
    job = _JOB
    seats: list[Player] = job["bots"]
    out = _empty(end - start, len(seats))
    logs: list[str] | None = [] if job["logs"] else None
    dealer = 0
    for i in range(start, end):
        _, player_seed = hand_seeds(job["seed"], i)
        if i % job["session"] == 0:
            dealer = 0
        t = Table(job["rules"], players=len(seats), wall=deal_wall(job["seed"], i),
                  dealer=dealer)
        play_hand(t, seats, player_seed)
        dealer = t.next_dealer
        record(out, i - start, t)
        if logs is not None:
            logs.append(t.to_json())
    return out, logs


@renamed(hands="n_hands", players="bots")
def selfplay(n_hands: int, bots: Sequence[str | Player] = ("efficient",) * 4, *,
             rules: Rules | str | None = None, seed: int = 0, workers: int = 1,
             logs: bool = False, engine: str = "c", session: int = 1) -> SelfPlayResult:
    """Play ``n_hands`` complete hands of 血战到底 and return per-hand results as arrays.

    ``bots``: one per seat (2-6 seats; 5 and 6 with ``engine="python"``): ``"efficient"``,
    ``"random"``, ``"forecast"`` (:class:`~mjfast.table.forecast_player.ForecastPlayer`, also as
    a configured instance) or a callable ``(observation, mask, rng) -> action``. Hand i is dealt
    from ``(seed, i)`` (seed 0 to 2**64 - 1), so results do not depend on ``workers`` (-1 = every
    core). ``logs=True`` keeps every hand's event log (``Round.to_json()``, replayable with
    ``mjfast settle``).

    ``engine``: ``"c"`` (default) plays in the compiled engine (``src/mjfast_table.h``) with
    the GIL released, ``workers`` threads; a ``forecast`` seat decides in Python for many tables
    at once (:mod:`mjfast.table.match`). ``"python"`` plays in :class:`~mjfast.table.Table`,
    the reference, ``workers`` forked processes; callables, and ``forecast`` seats with
    ``logs``, always play there. Both deal the same walls and play ``efficient`` and
    ``forecast`` alike, so their results agree; ``random`` players draw from each engine's own
    generator.

    ``session``: hands per session: the hands of a run are played in sessions of that many
    consecutive hands, the first dealt by seat 0 and each next one by the previous hand's
    :attr:`~mjfast.table.Table.next_dealer` (sessions in parallel, the hands of one in order);
    :meth:`SelfPlayResult.session_net` sums them.

    >>> r = selfplay(4, ("efficient",) * 4, seed=1)
    >>> r.net.shape, r.net.sum(axis=1).tolist()
    ((4, 4), [0, 0, 0, 0])
    >>> bool((selfplay(4, seed=1, engine="python").net == r.net).all())
    True
    """
    n = as_int(n_hands, "n_hands", minimum=0)
    if isinstance(bots, str) or not isinstance(bots, Sequence) \
            or not 2 <= len(bots) <= MAX_TABLE_PLAYERS:
        raise InvalidArgumentError(
            f"bots: expected 2 to {MAX_TABLE_PLAYERS} bots (names or callables)")
    workers = as_workers(workers)
    rules = as_rules(rules)
    seats = as_players(bots, len(bots), rules)
    seed = as_int(seed, "seed", minimum=0, maximum=2**64 - 1)
    logs = as_flag(logs, "logs")
    engine = as_choice(engine, "engine", ("c", "python"))
    session = as_int(session, "session", minimum=1)
    builtin = [isinstance(p, str) and p in PLAYER_KINDS for p in bots]
    batched = [isinstance(q, BatchPlayer) for q in seats]
    if engine == "c" and all(builtin):
        codes = [PLAYER_KINDS[str(p)] for p in bots]
        out, actions = run_selfplay(n, codes, rules, seed, workers, logs, session=session)
        return SelfPlayResult(**out, session=session, logs=None if actions is None else
                              tuple(_replay(rules, len(codes), seed, i, int(out["dealer"][i]),
                                            actions[i]) for i in range(n)))
    if engine == "c" and not logs and all(b or q for b, q in zip(builtin, batched)):
        kinds = [PLAYER_KINDS[str(p)] if b else cast(BatchPlayer, q)
                 for p, q, b in zip(bots, seats, builtin)]
        return SelfPlayResult(**play_batched(n, kinds, rules, seed, workers, session),
                              session=session, logs=None)
    _JOB.update(bots=seats, rules=rules, seed=seed, logs=logs, session=session)
    ranges = session_ranges(n, session, workers)
    if len(ranges) == 1:
        parts = [_play_range(*ranges[0])]
    else:
        ctx = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(len(ranges), mp_context=ctx) as pool:
            parts = list(pool.map(_play_range, *zip(*ranges)))
    out = {k: np.concatenate([p[0][k] for p in parts]) for k in _INT_FIELDS + _HAND_FIELDS}
    all_logs = tuple(x for p in parts for x in (p[1] or ())) if logs else None
    return SelfPlayResult(**out, session=session, logs=all_logs)


def _replay(rules: Rules, n_seats: int, seed: int, index: int, dealer: int,
            actions: np.ndarray) -> str:
    """The event log of a hand the C engine played: its actions replayed on the reference."""
    t = Table(rules, players=n_seats, wall=deal_wall(seed, index), dealer=dealer)
    for a in actions[actions >= 0].tolist():
        t.step(a)
    if not t.is_over:
        raise AssertionError(f"selfplay: hand {index} did not end on replay")
    return t.to_json()


def _interval(x: np.ndarray) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal interval."""
    if len(x) == 0:
        return 0.0, 0.0
    sd = float(x.std(ddof=1)) if len(x) > 1 else 0.0
    return float(x.mean()), 1.96 * sd / np.sqrt(len(x))


def summary(r: SelfPlayResult) -> dict[str, Any]:
    """Win rates, mean fan and mean net per seat (with 95% intervals), the per-hand rates of
    天胡 / 一炮多响 / 花猪 / 查大叫 / 流局 and the histogram of the fan of wins; with sessions of
    several hands, also ``"sessions"``: their count, length and per seat the mean total of a
    session (95% interval) and the hands dealt.

    >>> s = summary(selfplay(8, ("efficient",) * 4, seed=2))
    >>> sorted(s), len(s["seats"])
    (['fan_histogram', 'hands', 'rates', 'seats'], 4)
    """
    seats = []
    for p in range(r.won.shape[1]):
        win, win_ci = _interval(r.won[:, p].astype(np.float64))
        net, net_ci = _interval(r.net[:, p].astype(np.float64))
        fans = r.fan[r.won[:, p], p]
        seats.append({"win_rate": win, "win_rate_ci": win_ci,
                      "mean_fan": float(fans.mean()) if len(fans) else None,
                      "mean_net": net, "mean_net_ci": net_ci})
    n = max(r.n_hands, 1)
    rates = {"tian_hu": int(r.tian_hu.sum()) / n,
             "yi_pao_duo_xiang": int(r.yi_pao_duo_xiang.sum()) / n,
             "hua_zhu": int(r.hua_zhu.any(axis=1).sum()) / n,
             "cha_da_jiao": int(r.cha_da_jiao.any(axis=1).sum()) / n,
             "drawn": int(r.drawn.sum()) / n}
    fans = r.fan[r.won]
    hist = {int(f): int(c) for f, c in zip(*np.unique(fans, return_counts=True))}
    out = {"hands": r.n_hands, "seats": seats, "rates": rates, "fan_histogram": hist}
    if r.session > 1:
        totals = r.session_net()
        per_seat = []
        for p in range(totals.shape[1]):
            mean, ci = _interval(totals[:, p].astype(np.float64))
            per_seat.append({"mean_net": mean, "mean_net_ci": ci,
                             "dealt": int((r.dealer == p).sum())})
        out["sessions"] = {"count": len(totals), "hands": r.session, "seats": per_seat}
    return out
