"""The one source of the base patterns: which apply to a reading, what each is worth under a
:class:`~mjfast.rules.Rules`, and the per-Rules tables both scorers read.

:func:`applicable` decides from the shape of a reading alone (no rules) which base patterns it
qualifies for; :func:`best_pattern` values them under the rules (base fan, less one root for
龙七对 / 清龙七对 with ``long_qi_dui_uses_root``; 金钩钓 only with ``jin_gou_diao``) and keeps the
best (highest value, then highest base fan, then the later pattern). :func:`view` tabulates that
per context for the single-hand scorer, and :func:`compile_rules` flattens the same tables into
the int32 array the C batch kernels read. Both are cached here, per Rules (a Rules is plain
data and carries no caches of its own).

Contexts use the C layout (``src/mjfast_fan.h``). A regular reading's context is
``flush | all-258 << 1 | melds all terminal << 2 | every set melded << 3 | fixed << 4`` (48 values;
fixed: 0 none, 1 天胡, 2 地胡) and its shape bits are :data:`~mjfast.scoring.readings.R_ALL_TRIPLETS`
and :data:`~mjfast.scoring.readings.R_YAO_JIU` ANDed over the three suits; a seven-pairs
reading's context is ``flush | root << 1 | fixed << 2`` (12 values).

>>> from mjfast.rules import Rules
>>> [f.name for f in applicable(seven_pairs=True, qing=True, root=True)]
['PING_HU', 'QING_YI_SE', 'QI_DUI', 'QING_QI_DUI', 'LONG_QI_DUI', 'QING_LONG_QI_DUI']
>>> p = best_pattern(Rules(), applicable(seven_pairs=True, qing=True, root=True))
>>> BASE_PATTERNS[p.position].name, p.value, p.base     # 5 fan, one root used up
('QING_LONG_QI_DUI', 4, 5)
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Iterable
from typing import NamedTuple

import numpy as np

from mjfast._args import as_rules
from mjfast._core import _fan
from mjfast._typing import RulesLike
from mjfast.rules import BASE_PATTERNS, Fan, Rules, set_bytes_compiler
from mjfast.scoring.readings import R_ALL_TRIPLETS, R_DRAGON, R_SEQ_456, R_TWIN_SEQ, R_YAO_JIU

__all__ = [
    "REGULAR_CONTEXTS",
    "SEVEN_CONTEXTS",
    "Pattern",
    "RulesView",
    "applicable",
    "best_pattern",
    "compile_rules",
    "rules_blob",
    "view",
]

REGULAR_CONTEXTS = 48
"""Number of regular-reading contexts."""
SEVEN_CONTEXTS = 12
"""Number of seven-pairs contexts."""

_INDEX = {f: i for i, f in enumerate(BASE_PATTERNS)}
_LONG = (Fan.LONG_QI_DUI, Fan.QING_LONG_QI_DUI)
_JIN_GOU = (Fan.JIN_GOU_DIAO, Fan.QING_JIN_GOU_DIAO)
_FIXED = (None, Fan.TIAN_HU, Fan.DI_HU)
_INT16_MAX = 32767


def applicable(*, seven_pairs: bool = False, qing: bool = False, fixed: int = 0,
               all_triplets: bool = False, yao_jiu: bool = False, all_258: bool = False,
               melds_terminal: bool = True, four_melds: bool = False,
               root: bool = False) -> tuple[Fan, ...]:
    """The base patterns a reading qualifies for by its shape (RULES.md section 4), in
    :class:`~mjfast.rules.Fan` order.

    Args:
        seven_pairs: the seven-pairs reading (else a regular one: sets + pair).
        qing: one suit (清一色).
        fixed: 1 for 天胡, 2 for 地胡 (they replace every other base pattern), else 0.
        all_triplets: no sequence (对对胡); yao_jiu: every set and the pair hold a 1 or a 9;
            all_258: every tile is a 2, 5 or 8; melds_terminal: every meld is of a 1 or a 9
            (true without melds); four_melds: every set melded (four melds; all ``sets`` of a
            short hand): the 金钩钓 shape.
        root: a kind held four times (龙七对).
    """
    if fixed:
        return (_FIXED[fixed],)  # type: ignore[return-value]
    pats = [Fan.PING_HU]
    if seven_pairs:
        pats.append(Fan.QI_DUI)
        if qing:
            pats += [Fan.QING_YI_SE, Fan.QING_QI_DUI]
        if root:
            pats.append(Fan.LONG_QI_DUI)
            if qing:
                pats.append(Fan.QING_LONG_QI_DUI)
    else:
        if all_triplets:
            pats.append(Fan.DUI_DUI_HU)
            if all_258:
                pats.append(Fan.JIANG_DUI)
            if qing:
                pats.append(Fan.QING_DUI)
        if yao_jiu and melds_terminal:
            pats.append(Fan.DAI_YAO_JIU)
            if qing:
                pats.append(Fan.QING_YAO_JIU)
        if qing:
            pats.append(Fan.QING_YI_SE)
        if four_melds:
            pats.append(Fan.JIN_GOU_DIAO)
            if qing:
                pats.append(Fan.QING_JIN_GOU_DIAO)
    return tuple(sorted(pats, key=_INDEX.__getitem__))


class Pattern(NamedTuple):
    """The base pattern that names a reading: its position in
    :data:`~mjfast.rules.BASE_PATTERNS`, its value (what it adds to the total) and its base fan."""

    position: int
    value: int
    base: int


def best_pattern(rules: Rules, patterns: Iterable[Fan]) -> Pattern:
    """The best of *patterns* under *rules*: value = base fan, less one root's fan for
    龙七对 / 清龙七对 when ``rules.long_qi_dui_uses_root``; 金钩钓 / 清金钩钓 only count with
    ``rules.jin_gou_diao``. Best = highest value, then highest base fan, then the later pattern.
    """
    best: tuple[int, int, int] | None = None
    for p in patterns:
        if p in _JIN_GOU and not rules.jin_gou_diao:
            continue
        base = rules.base_fan[p]
        value = base - rules.root_fan if rules.long_qi_dui_uses_root and p in _LONG else base
        key = (value, base, _INDEX[p])
        if best is None or key > best:
            best = key
    if best is None:
        raise ValueError("best_pattern: no pattern counts")  # PING_HU always applies
    return Pattern(best[2], best[0], best[1])


def _regular_shape(ctx: int, bits: int) -> tuple[Fan, ...]:
    return applicable(qing=bool(ctx & 1), all_258=bool(ctx & 2), melds_terminal=bool(ctx & 4),
                      four_melds=bool(ctx & 8), fixed=ctx >> 4,
                      all_triplets=bool(bits & R_ALL_TRIPLETS), yao_jiu=bool(bits & R_YAO_JIU))


def _seven_shape(ctx: int) -> tuple[Fan, ...]:
    return applicable(seven_pairs=True, qing=bool(ctx & 1), root=bool(ctx & 2), fixed=ctx >> 2)


# The shapes do not depend on the rules: tabulated once.
_SHAPE_BITS = R_ALL_TRIPLETS | R_YAO_JIU
_REGULAR_SHAPES = tuple(tuple(_regular_shape(ctx, bits) for bits in range(_SHAPE_BITS + 1))
                        for ctx in range(REGULAR_CONTEXTS))
_SEVEN_SHAPES = tuple(_seven_shape(ctx) for ctx in range(SEVEN_CONTEXTS))
_SHAPES = frozenset(_SEVEN_SHAPES).union(*_REGULAR_SHAPES)  # the distinct ones (about 20)


class RulesView(NamedTuple):
    """What the single-hand scorer reads of a Rules: the best pattern per context, and the
    extras as plain ints (0 = off)."""

    regular: tuple[tuple[Pattern, ...], ...]  # [context][AND of R_ALL_TRIPLETS | R_YAO_JIU]
    seven: tuple[Pattern, ...]  # [seven-pairs context]
    base_values: tuple[int, ...]  # base fan per BASE_PATTERNS index
    root_fan: int
    cap: int | None
    offset: int
    men_qing: int
    zhong_zhang: int
    qia_xin_wu: int
    zi_mei_dui: int
    yi_tiao_long: int
    gang_shang_hua: int
    gang_shang_pao: int
    qiang_gang_hu: int
    zi_mo: int  # 自摸加番
    hai_di: int
    jue_zhang: int
    hand_extras: bool  # 门清 or 中张 is on: extras that need no situational flag
    points: bool  # the additive model: a win pays its (capped) points, not 2 ** fan


@functools.lru_cache(maxsize=64)
def _build_view(rules: Rules) -> RulesView:
    best = {shape: best_pattern(rules, shape) for shape in _SHAPES}
    return RulesView(
        regular=tuple(tuple(best[shape] for shape in row) for row in _REGULAR_SHAPES),
        seven=tuple(best[shape] for shape in _SEVEN_SHAPES),
        base_values=tuple(rules.base_fan[f] for f in BASE_PATTERNS),
        root_fan=rules.root_fan,
        cap=rules.cap,
        offset=rules.fan_display_offset,
        men_qing=rules.men_qing,
        zhong_zhang=rules.zhong_zhang,
        qia_xin_wu=rules.qia_xin_wu,
        zi_mei_dui=rules.zi_mei_dui,
        yi_tiao_long=rules.yi_tiao_long,
        gang_shang_hua=rules.gang_shang_hua,
        gang_shang_pao=rules.gang_shang_pao,
        qiang_gang_hu=rules.qiang_gang_hu,
        zi_mo=1 if rules.self_draw == "add_fan" else 0,
        hai_di=rules.hai_di,
        jue_zhang=rules.jue_zhang,
        hand_extras=bool(rules.men_qing or rules.zhong_zhang),
        points=rules.model == "points",
    )


_last_view: tuple[Rules | None, RulesView | None] = (None, None)


def view(rules: Rules) -> RulesView:
    """The :class:`RulesView` of *rules* (cached for the 64 most recent Rules; the one used last
    is found without hashing it)."""
    global _last_view
    last = _last_view
    if last[0] is rules:
        return last[1]  # type: ignore[return-value]
    v = _build_view(rules)
    _last_view = (rules, v)
    return v


def compile_rules(rules: RulesLike) -> np.ndarray:
    """The int32 table the batch kernels read for *rules* (a Rules or a preset name; layout
    ``MF_R_*`` in src/mjfast_fan.h), read-only and cached.

    Regular-reading values per context and combined reading bits (the best pattern of
    :func:`view` plus 掐心五 / 姊妹对 / 一条龙 by bits 4, 8, 16); seven-pairs values per context;
    then root fan, the situational extras, 门清, 中张, cap (-1: none), display offset, 死叫, 赔小,
    绝张.
    """
    return _compile(as_rules(rules))


@functools.lru_cache(maxsize=64)
def _compile(r: Rules) -> np.ndarray:
    v = _build_view(r)
    reg = np.empty((REGULAR_CONTEXTS, 32), np.int64)
    for ctx in range(REGULAR_CONTEXTS):
        row = v.regular[ctx]
        for bits in range(32):
            reg[ctx, bits] = (row[bits & _SHAPE_BITS].value
                              + (v.qia_xin_wu if bits & R_SEQ_456 else 0)
                              + (v.zi_mei_dui if bits & R_TWIN_SEQ else 0)
                              + (v.yi_tiao_long if bits & R_DRAGON else 0))
    seven = np.array([p.value for p in v.seven], np.int64)
    extras = [v.gang_shang_hua, v.gang_shang_pao, v.qiang_gang_hu, v.zi_mo, v.hai_di,
              v.men_qing, v.zhong_zhang]
    top_extras = sum(extras) + v.jue_zhang
    # No hand holds more than four roots: the largest total must fit the int16 output. The
    # bounds of Rules (every fan value <= MAX_FAN) keep it far below; this guards them.
    top = max(int(reg.max()), int(seven.max())) + 4 * v.root_fan + top_extras + v.offset
    if top > _INT16_MAX:
        raise AssertionError(f"compile_rules: fan values up to {top} passed the Rules bounds "
                             f"but do not fit the int16 output of the batch kernels")
    cap = -1 if v.cap is None else min(v.cap, _INT16_MAX)
    scalars = [v.root_fan, *extras, cap, v.offset, int(r.si_jiao), int(r.cha_da_jiao == "min"),
               v.jue_zhang]
    table = np.ascontiguousarray(np.concatenate([reg.ravel(), seven, scalars]), dtype=np.int32)
    if table.shape != (_fan.RULES_SIZE,):
        raise AssertionError(f"compile_rules: {table.shape[0]} values, the kernels read "
                             f"{_fan.RULES_SIZE}")
    table.flags.writeable = False
    return table


RULES_BLOB_MAGIC = b"mjrules\0"
"""The first 8 bytes of :func:`rules_blob`."""


def rules_blob(rules: RulesLike) -> bytes:
    """:func:`compile_rules` as the bytes ``mj_rules_from_bytes`` (the C library) reads: the magic
    ``b"mjrules\\0"``, the format (1) and the value count as uint32, then the int32 values, all
    little-endian (what :meth:`~mjfast.rules.Rules.to_bytes` returns)."""
    table = compile_rules(rules)
    return (RULES_BLOB_MAGIC + struct.pack("<II", 1, table.shape[0])
            + table.astype("<i4").tobytes())


set_bytes_compiler(rules_blob)
