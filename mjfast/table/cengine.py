"""The compiled table engine (``src/mjfast_table.h`` through ``mjfast._core._table``): the rules
as the numbers it reads, and the walls it deals (the Python engine replays them exactly)."""

from __future__ import annotations

import dataclasses
import functools
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from mjfast._core import _table
from mjfast.errors import InvalidArgumentError
from mjfast.rules import Rules
from mjfast.scoring.patterns import compile_rules

__all__ = ["CHECKS", "FAN_TABLE_FIELDS", "LOG_ACTIONS", "PARAM_FIELDS", "PLAYED", "PLAYER_KINDS",
           "check_played", "deal_wall", "engine_rules", "run_selfplay", "session_ranges"]

PLAYER_KINDS = {"random": 0, "efficient": 1}
"""The built-in players the C engine plays, by its codes."""

_GUO_SHUI = {"off": 0, "fan": 1, "tile": 2}
_CAP = 1556  # MF_R_CAP of src/mjfast_fan.h: the engine scores uncapped and caps the payments

FAN_TABLE_FIELDS = ("base_fan", "root_fan", "long_qi_dui_uses_root", "gang_shang_hua",
                    "gang_shang_pao", "qiang_gang_hu", "self_draw", "hai_di", "men_qing",
                    "zhong_zhang", "qia_xin_wu", "zi_mei_dui", "yi_tiao_long", "jin_gou_diao",
                    "fan_display_offset", "si_jiao", "cha_da_jiao", "jue_zhang")
"""The Rules fields the engine plays through the fan table (``compile_rules``)."""

PARAM_FIELDS = ("cap", "model", "exposed_kong", "jia_jia_you", "added_kong",
                "added_kong_immediate", "concealed_kong", "gang_shang_pao_kong",
                "qiang_gang_transfer", "hua_zhu", "kong_refund",
                "zui_hou_bi_hu", "cha_hua_zhu", "hua_zhu_one_suit", "shai_tai_yang",
                "dian_gang_hua", "self_draw", "guo_shui", "xue_zhan", "ding_que",
                "di_hu_on_discard", "jue_zhang")
"""The Rules fields the engine plays through ``mt_rules_t`` (cap and model as the payment
multipliers; self_draw also there, as 自摸加底)."""

PLAYED = frozenset(FAN_TABLE_FIELDS + PARAM_FIELDS + ("name",))
"""Every Rules field the compiled engine plays as Table / Round do (name is informational).
Any other field is played only at its default: another value is refused by name."""

_PAO_KONG = {"keep": 0, "transfer": 1, "refund": 2}  # MT_PAO_* of src/mjfast_table.h


def check_played(rules: Rules) -> None:
    """Refuse (InvalidArgumentError naming the field) rules the compiled engine does not play:
    a field outside :data:`PLAYED` set to another value than its default."""
    for f in dataclasses.fields(Rules):
        if f.name in PLAYED:
            continue
        value = getattr(rules, f.name)
        if value != f.default:
            raise InvalidArgumentError(
                f"Rules.{f.name}={value!r}: the compiled engine (engine='c') does not play this "
                f"option; play it with engine='python' (mjfast.table.Table)")


@functools.lru_cache(maxsize=16)
def engine_rules(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """(fan table with no cap, the ``mt_rules_t`` numbers: :data:`_table.PARAMS` then the
    payment multipliers of internal fan 0..48) for ``rules``.

    Raises InvalidArgumentError for rules the engine does not play (:func:`check_played`) and
    when a 花猪 could not be paid (查花猪 on, no cap and no ``hua_zhu``), like a draw with a 花猪
    would in :class:`~mjfast.Round`.
    """
    check_played(rules)
    table = compile_rules(rules)
    fan = table.copy()
    fan[_CAP] = -1
    values = {"offset": rules.fan_display_offset, "exposed_kong": rules.exposed_kong,
              "added_kong": rules.added_kong, "concealed_kong": rules.concealed_kong,
              "hua_zhu": rules.hua_zhu_amount() if rules.cha_hua_zhu else 0,
              "jia_jia_you": rules.jia_jia_you, "pao_kong": _PAO_KONG[rules.gang_shang_pao_kong],
              "add_base": rules.self_draw == "add_base", "kong_refund": rules.kong_refund,
              "guo_shui": _GUO_SHUI[rules.guo_shui], "zui_hou": rules.zui_hou_bi_hu,
              "cha_hua_zhu": rules.cha_hua_zhu, "one_suit": rules.hua_zhu_one_suit,
              "shai_tai_yang": rules.shai_tai_yang, "dian_gang_hua": rules.dian_gang_hua,
              "immediate": rules.added_kong_immediate, "rob_transfer": rules.qiang_gang_transfer,
              "xue_zhan": rules.xue_zhan, "ding_que": rules.ding_que,
              "di_hu_discard": rules.di_hu_on_discard, "jue_zhang": rules.jue_zhang > 0}
    mult = [rules.multiplier(f) for f in range(_table.MULT)]
    params = np.array([int(values[k]) for k in _table.PARAMS] + mult, dtype=np.int64)
    fan.flags.writeable = False
    params.flags.writeable = False
    return fan, params


def deal_wall(seed: int, index: int) -> np.ndarray:
    """The (108,) uint8 wall the C engine deals for hand ``index`` of a run seeded ``seed``."""
    return _table.deal_wall(seed, index)


LOG_ACTIONS = 1024
"""Room for the actions of one hand in a C run's log (a hand takes a few hundred at most)."""


CHECKS = {1: "tiles not conserved", 2: "payments do not sum to zero",
          3: "a win that does not score", 4: "a discard against the 定缺 rule",
          5: "a kind held more than 4 times",
          6: "a hand's kept suit indices or held kinds differ from its counts"}
"""The invariants ``run_selfplay(check=True)`` tests after every step (MT_BAD_* codes)."""


def run_selfplay(hands: int, kinds: list[int], rules: Rules, seed: int, workers: int,
                 logs: bool, check: bool = False, session: int = 1
                 ) -> tuple[dict[str, np.ndarray], np.ndarray | None]:
    """Hands [0, hands) of the run ``seed`` in C, in sessions of ``session`` consecutive hands
    (the dealer passes on within one), split over ``workers`` threads at session boundaries (the
    GIL is released). Returns the result arrays of :class:`~mjfast.table.SelfPlayResult` and,
    with ``logs``, the (hands, LOG_ACTIONS) int16 actions of each hand (-1 padded). ``check``
    tests :data:`CHECKS` after every step; a failure raises AssertionError (an engine bug).
    2 to 6 seats (``kinds``), at 5 and 6 the short hands of RULES.md 7, dealt as ``Table``
    deals them."""
    fan, params = engine_rules(rules)
    p = len(kinds)
    out: dict[str, np.ndarray] = {
        "order": np.full((hands, p), -1, np.int8), "fan": np.full((hands, p), -1, np.int16),
        "net": np.zeros((hands, p), np.int64), "hua_zhu": np.zeros((hands, p), np.uint8),
        "cha_da_jiao": np.zeros((hands, p), np.uint8), "dealt_in": np.zeros((hands, p), np.uint8),
        "turns": np.zeros(hands, np.int32)}
    flags = np.zeros((hands, 3), np.uint8)
    dealers = np.zeros(hands, np.int8)
    actions = np.full((hands, LOG_ACTIONS), -1, np.int16) if logs else None
    codes = np.array(kinds, dtype=np.int32)

    def run(start: int, end: int) -> list[tuple[int, int]]:
        bad = _table.selfplay(fan, params, codes, seed, start, end, out["order"][start:end],
                              out["fan"][start:end], out["net"][start:end],
                              out["hua_zhu"][start:end], out["cha_da_jiao"][start:end],
                              out["dealt_in"][start:end], out["turns"][start:end],
                              flags[start:end], dealers[start:end],
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
              "cha_da_jiao": out["cha_da_jiao"].astype(np.bool_),
              "dealt_in": out["dealt_in"].astype(np.bool_), "turns": out["turns"],
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
