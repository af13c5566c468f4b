"""The compiled table engine (``src/mjfast_table.h`` through ``mjfast._core._table``): the rules
as the numbers it reads, and the walls it deals (the Python engine replays them exactly)."""

from __future__ import annotations

import functools
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from mjfast._core import _table
from mjfast.errors import InvalidArgumentError
from mjfast.rules import Rules
from mjfast.scoring.patterns import compile_rules

__all__ = ["CHECKS", "C_MAX_PLAYERS", "LOG_ACTIONS", "PLAYER_KINDS",
           "check_seats", "deal_wall", "engine_rules", "run_selfplay", "session_ranges"]

PLAYER_KINDS = {"random": 0, "efficient": 1}
"""The built-in players the C engine plays, by its codes."""

_GUO_SHUI = {"off": 0, "fan": 1, "tile": 2}
_CAP = 1556  # MF_R_CAP of src/mjfast_fan.h: the engine scores uncapped and caps the payments


@functools.lru_cache(maxsize=16)
def engine_rules(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """(fan table with no cap, the 16 numbers of ``mt_rules_t``) for ``rules``.

    Raises ValueError when a 花猪 could not be paid (no cap and no ``hua_zhu``), like a draw
    with a 花猪 would in :class:`~mjfast.Round`.
    """
    table = compile_rules(rules)
    fan = table.copy()
    fan[_CAP] = -1
    params = np.array([table[_CAP], rules.fan_display_offset, rules.exposed_kong,
                       rules.added_kong, rules.concealed_kong, rules.hua_zhu_amount(),
                       rules.jia_jia_you, rules.hu_jiao_zhuan_yi, rules.self_draw == "add_base",
                       rules.kong_refund, _GUO_SHUI[rules.guo_shui], rules.zui_hou_bi_hu,
                       rules.xue_zhan, rules.ding_que, rules.di_hu_on_discard,
                       rules.jue_zhang > 0],
                      dtype=np.int64)
    fan.flags.writeable = False
    params.flags.writeable = False
    return fan, params


C_MAX_PLAYERS = 4
"""Seats the compiled engine plays: 2 to 4 (the short hands of 5 and 6 seats are played by
``engine="python"``)."""


def check_seats(players: int) -> None:
    """Refuse a table the compiled engine does not play (5 or 6 seats), naming the way out."""
    if players > C_MAX_PLAYERS:
        raise InvalidArgumentError(
            f"players: the compiled table engine plays 2 to {C_MAX_PLAYERS} seats, got "
            f"{players}; the short hands of 5 and 6 seats play with engine=\"python\"")


def deal_wall(seed: int, index: int) -> np.ndarray:
    """The (108,) uint8 wall the C engine deals for hand ``index`` of a run seeded ``seed``."""
    return _table.deal_wall(seed, index)


LOG_ACTIONS = 1024
"""Room for the actions of one hand in a C run's log (a hand takes a few hundred at most)."""


CHECKS = {1: "tiles not conserved", 2: "payments do not sum to zero",
          3: "a win that does not score", 4: "a discard against the 定缺 rule",
          5: "a kind held more than 4 times"}
"""The invariants ``run_selfplay(check=True)`` tests after every step (MT_BAD_* codes)."""


def run_selfplay(hands: int, kinds: list[int], rules: Rules, seed: int, workers: int,
                 logs: bool, check: bool = False, session: int = 1
                 ) -> tuple[dict[str, np.ndarray], np.ndarray | None]:
    """Hands [0, hands) of the run ``seed`` in C, in sessions of ``session`` consecutive hands
    (the dealer passes on within one), split over ``workers`` threads at session boundaries (the
    GIL is released). Returns the result arrays of :class:`~mjfast.table.SelfPlayResult` and,
    with ``logs``, the (hands, LOG_ACTIONS) int16 actions of each hand (-1 padded). ``check``
    tests :data:`CHECKS` after every step; a failure raises AssertionError (an engine bug)."""
    check_seats(len(kinds))
    fan, params = engine_rules(rules)
    p = len(kinds)
    out: dict[str, np.ndarray] = {
        "order": np.full((hands, p), -1, np.int8), "fan": np.full((hands, p), -1, np.int16),
        "net": np.zeros((hands, p), np.int64), "hua_zhu": np.zeros((hands, p), np.uint8),
        "cha_da_jiao": np.zeros((hands, p), np.uint8), "turns": np.zeros(hands, np.int32)}
    flags = np.zeros((hands, 3), np.uint8)
    dealers = np.zeros(hands, np.int8)
    actions = np.full((hands, LOG_ACTIONS), -1, np.int16) if logs else None
    codes = np.array(kinds, dtype=np.int32)

    def run(start: int, end: int) -> list[tuple[int, int]]:
        bad = _table.selfplay(fan, params, codes, seed, start, end, out["order"][start:end],
                              out["fan"][start:end], out["net"][start:end],
                              out["hua_zhu"][start:end], out["cha_da_jiao"][start:end],
                              out["turns"][start:end], flags[start:end], dealers[start:end],
                              None if actions is None else actions[start:end], session, check)
        return [(start + row, code) for row, code in bad]

    ranges = session_ranges(hands, session, workers)
    if len(ranges) == 1:
        overflow = run(*ranges[0])
    else:
        with ThreadPoolExecutor(len(ranges), thread_name_prefix="mjfast-table") as pool:
            overflow = [r for part in pool.map(lambda b: run(*b), ranges) for r in part]
    for row, code in overflow:
        what = f"more than {LOG_ACTIONS} actions" if code < 0 else CHECKS.get(code, str(code))
        raise AssertionError(f"selfplay: hand {row} of seed {seed}: {what}")
    result = {"won": out["order"] >= 0, "order": out["order"], "fan": out["fan"],
              "net": out["net"], "hua_zhu": out["hua_zhu"].astype(np.bool_),
              "cha_da_jiao": out["cha_da_jiao"].astype(np.bool_), "turns": out["turns"],
              "drawn": flags[:, 0].astype(np.bool_), "tian_hu": flags[:, 1].astype(np.bool_),
              "yi_pao_duo_xiang": flags[:, 2].astype(np.bool_), "dealer": dealers}
    return result, actions


def session_ranges(hands: int, session: int, workers: int) -> list[tuple[int, int]]:
    """[start, end) ranges of hands for ``workers``, cut at multiples of ``session`` (the
    hands of one session are played in order, by one worker).

    >>> session_ranges(10, 3, 2)
    [(0, 6), (6, 10)]
    """
    sessions = -(-hands // session)
    bounds = np.linspace(0, sessions, min(workers, max(sessions, 1)) + 1).astype(int) * session
    bounds = np.minimum(bounds, hands).tolist()
    return list(zip(bounds[:-1], bounds[1:]))
