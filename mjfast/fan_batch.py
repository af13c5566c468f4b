"""Batch fan: the capped fan of many wins and the 大叫 of many ready hands, in one compiled call.

:func:`fan` is :func:`mjfast.scoring.score` ``.fan`` and :func:`max_fan` is
:func:`mjfast.scoring.max_fan` ``.fan`` (and ``.best_wait``), row by row over an ``(N, 27)``
uint8 array, without per-hand Python: the readings of every suit pattern come from a table
(``src/mjfast_fan.h``), the rules from a small numeric table compiled once per
:class:`~mjfast.rules.Rules` object. A single hand (tile string or 27 counts) gives a Python int.

>>> import numpy as np
>>> from mjfast.tiles import parse_hand
>>> hands = np.stack([parse_hand("22244455577799m"), parse_hand("123333m45566799s"),
...                   parse_hand("123m456p789s11155m")])
>>> fan(hands, [8, 0, 4]).tolist()              # 清对, 平胡 + 1 root, three suits: no win
[3, 1, -1]
>>> fan("11224444557799m", "1m", rules=Rules.preset("qq"))   # 清龙七对 5, shown as 6
6
>>> f, best = max_fan(np.stack([parse_hand("2224445557779m"), parse_hand("1112345678999m"),
...                             parse_hand("1234567m159p123s")]), best_tile=True)
>>> f.tolist(), best.tolist()                  # 9m gives 清对; 九莲 waits 1m-9m; not ready
([3, 3, -1], [8, 0, -1])

Melds: ``None``; meld strings or :class:`~mjfast.tiles.Meld` objects (one set for every row;
their kinds are known); or a ``(27,)`` / ``(N, 27)`` count array (0, 3 = pung, 4 = kong, as in
the core kernels). A count array cannot tell a concealed kong (暗杠, which keeps 门清) from an
exposed one: mark concealed kongs with ``concealed_kongs=`` (a bool array of the same shape);
unmarked kongs count as exposed. Only the 门清 option depends on this.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._batch import Result, run_chunks
from ._core import _fan
from ._validate import prepare, row_error
from .errors import InvalidHandError
from .rules import CHENGDU, Fan, Rules
from .tiles import Meld, MeldKind, format_tile, melds_to_counts, parse_melds, parse_tile

__all__ = ["INVALID_FAN", "fan", "max_fan"]

INVALID_FAN = _fan.INVALID
"""Written for a bad row with ``errors="coerce"`` (-100); -1 means "no win" / "not ready"."""

_FLAG_NAMES = ("self_drawn", "after_kong", "after_kong_discard", "robbing_kong", "last_tile",
               "tian_hu", "di_hu")


# ---------------------------------------------------------------------------------------------
# Rules -> numeric table
# ---------------------------------------------------------------------------------------------

_LONG = (Fan.LONG_QI_DUI, Fan.QING_LONG_QI_DUI)
_INT16_MAX = 32767


def compile_rules(rules: Rules | None) -> np.ndarray:
    """The int32 table the kernels read for *rules* (layout ``MF_R_*`` in src/mjfast_fan.h).

    Cached on the Rules object. Regular-reading values per context (flush, all 2/5/8, melds all
    terminal, four melds, 天胡/地胡) and combined reading bits; seven-pairs values per context;
    then root fan, the situational extras, 门清, 中张, cap (-1: none), display offset, 死叫, 赔小.
    """
    r = CHENGDU if rules is None else rules
    if not isinstance(r, Rules):
        raise TypeError(f"rules must be a Rules object or None, got {type(rules).__name__}")
    cache = r._scoring_cache  # type: ignore[attr-defined]
    table = cache.get("fan_batch")
    if table is not None:
        return table

    def value(patterns: list[Fan]) -> int:
        best = None
        for p in patterns:
            v = r.base_fan[p]
            if r.long_qi_dui_uses_root and p in _LONG:
                v -= r.root_fan
            best = v if best is None or v > best else best
        return best  # type: ignore[return-value]

    fixed_pattern = {1: Fan.TIAN_HU, 2: Fan.DI_HU}
    reg = np.empty((48, 32), np.int64)
    for ctx in range(48):
        qing, all258, meld_yj, four = ctx & 1, ctx >> 1 & 1, ctx >> 2 & 1, ctx >> 3 & 1
        fixed = ctx >> 4
        for bits in range(32):
            if fixed:
                pats = [fixed_pattern[fixed]]
            else:
                pats = [Fan.PING_HU]
                if bits & 1:
                    pats.append(Fan.DUI_DUI_HU)
                    if all258:
                        pats.append(Fan.JIANG_DUI)
                    if qing:
                        pats.append(Fan.QING_DUI)
                if bits & 2 and meld_yj:
                    pats.append(Fan.DAI_YAO_JIU)
                    if qing:
                        pats.append(Fan.QING_YAO_JIU)
                if qing:
                    pats.append(Fan.QING_YI_SE)
                if r.jin_gou_diao and four:
                    pats.append(Fan.JIN_GOU_DIAO)
                    if qing:
                        pats.append(Fan.QING_JIN_GOU_DIAO)
            reg[ctx, bits] = (value(pats) + (r.qia_xin_wu if bits & 4 else 0)
                              + (r.zi_mei_dui if bits & 8 else 0)
                              + (r.yi_tiao_long if bits & 16 else 0))
    seven = np.empty(12, np.int64)
    for ctx in range(12):
        qing, root, fixed = ctx & 1, ctx >> 1 & 1, ctx >> 2
        if fixed:
            pats = [fixed_pattern[fixed]]
        else:
            pats = [Fan.PING_HU, Fan.QI_DUI]
            if qing:
                pats += [Fan.QING_YI_SE, Fan.QING_QI_DUI]
            if root:
                pats.append(Fan.LONG_QI_DUI)
                if qing:
                    pats.append(Fan.QING_LONG_QI_DUI)
        seven[ctx] = value(pats)
    extras = [r.gang_shang_hua, r.gang_shang_pao, r.qiang_gang_hu,
              1 if r.self_draw == "add_fan" else 0, r.hai_di, r.men_qing, r.zhong_zhang]
    # No hand holds more than four roots: the largest total must fit the int16 output.
    top = max(int(reg.max()), int(seven.max())) + 4 * r.root_fan + sum(extras) + \
        r.fan_display_offset
    if top > _INT16_MAX:
        raise ValueError(f"rules: fan values this large (up to {top}) do not fit the int16 "
                         f"output of the batch kernels (max {_INT16_MAX})")
    cap = -1 if r.cap is None else min(r.cap, _INT16_MAX)
    scalars = [r.root_fan, *extras, cap, r.fan_display_offset, int(r.si_jiao),
               int(r.cha_da_jiao == "min")]
    table = np.ascontiguousarray(np.concatenate([reg.ravel(), seven, scalars]), dtype=np.int32)
    assert table.shape == (_fan.RULES_SIZE,)
    table.flags.writeable = False
    cache["fan_batch"] = table
    return table


# ---------------------------------------------------------------------------------------------
# Argument checks
# ---------------------------------------------------------------------------------------------

def _is_meld_list(value: Any) -> bool:
    return isinstance(value, (str, Meld)) or (
        isinstance(value, (list, tuple)) and bool(value)
        and all(isinstance(m, (str, Meld)) for m in value))


def _melds_and_marks(melds: Any, concealed_kongs: Any) -> tuple[Any, Any]:
    """(melds for prepare, concealed-kong marks as a uint8 array or None; shape unchecked)."""
    if _is_meld_list(melds):
        if concealed_kongs is not None:
            raise ValueError("concealed_kongs: meld strings / Meld objects already say which "
                             "kongs are concealed; pass concealed_kongs only with count arrays")
        parsed = parse_melds(melds)
        counts = melds_to_counts(parsed)
        marks = np.zeros(27, np.uint8)
        for m in parsed:
            if m.kind is MeldKind.KONG_CONCEALED:
                marks[m.tile] = 1
        return counts, (marks if marks.any() else None)
    if concealed_kongs is None:
        return melds, None
    arr = np.asarray(concealed_kongs)
    if arr.dtype != np.bool_ and not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"concealed_kongs: expected a bool array, got dtype {arr.dtype}")
    marks = np.ascontiguousarray(arr != 0, dtype=np.uint8)
    return melds, (marks if marks.any() else None)


def _check_marks(marks: np.ndarray | None, concealed_kongs: Any, n: int | None) -> None:
    if concealed_kongs is None:
        return
    shape = np.shape(concealed_kongs)
    if shape != (27,) and not (n is not None and shape == (n, 27)):
        expect = "(27,)" if n is None else f"(27,) or ({n}, 27)"
        raise ValueError(f"concealed_kongs: expected shape {expect}, got {shape}")


def _tile_value(value: Any, name: str) -> int:
    if isinstance(value, str):
        return parse_tile(value)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name}: expected a tile ('5p') or a kind index 0..26, got "
                        f"{type(value).__name__}")
    if not 0 <= value <= 26:
        raise ValueError(f"{name}: expected a kind index 0..26, got {int(value)}")
    return int(value)


def _win_tiles(value: Any, n: int | None, coerce: bool) -> tuple[np.ndarray | None, int]:
    """(per-row int8 array or None, scalar). With *coerce*, rows out of range become -1, which
    the kernel reports as bad rows."""
    if isinstance(value, (str, int, np.integer, bool, np.bool_)) or n is None:
        return None, _tile_value(value, "win_tiles" if n is not None else "win_tile")
    arr = np.asarray(value)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        if arr.dtype.kind in "US" and arr.shape == (n,):
            arr = np.array([parse_tile(str(t)) for t in arr.tolist()], np.int64)
        else:
            raise TypeError(f"win_tiles: expected an integer array of kinds 0..26, got dtype "
                            f"{arr.dtype}")
    if arr.shape != (n,):
        raise ValueError(f"win_tiles: expected shape ({n},) like hands, got {arr.shape}")
    out_of_range = (arr < 0) | (arr > 26)
    bad = np.nonzero(out_of_range)[0]
    if bad.size:
        if not coerce:
            raise ValueError(f"win_tiles[{bad[0]}]: {int(arr[bad[0]])} is not a kind index 0..26")
        arr = np.where(out_of_range, -1, arr)
    return np.ascontiguousarray(arr, dtype=np.int8), 0


def _flags(values: tuple[Any, ...], n: int | None) -> tuple[np.ndarray | None, int]:
    """The situational flags packed one bit each: (per-row uint8 array or None, scalar bits)."""
    scalar = 0
    rows = None
    for bit, (name, v) in enumerate(zip(_FLAG_NAMES, values)):
        if isinstance(v, (bool, np.bool_)):
            scalar |= int(bool(v)) << bit
            continue
        if n is None or not isinstance(v, np.ndarray):
            what = "a bool" if n is None else f"a bool or a ({n},) bool array"
            raise TypeError(f"{name}: expected {what}, got {type(v).__name__}")
        if v.dtype != np.bool_:
            raise TypeError(f"{name}: expected a bool array, got dtype {v.dtype}")
        if v.shape != (n,):
            raise ValueError(f"{name}: expected shape ({n},) like hands, got {v.shape}")
        if rows is None:
            rows = np.zeros(n, np.uint8)
        rows |= v.view(np.uint8) << bit
    if rows is not None:
        rows |= scalar
        return rows, 0
    return None, scalar


# ---------------------------------------------------------------------------------------------
# Chunked, threaded execution
# ---------------------------------------------------------------------------------------------

def _error(res: Result, p: Any, size_rule: str, ctx: dict[str, Any]) -> Exception:
    row, code, a, b = res
    batch = p.batch
    if code == _fan.ERR_WIN_NOT_HELD:
        if batch:
            return InvalidHandError(f"win_tiles[{row}]: {format_tile(a)} is not in hands[{row}]")
        return InvalidHandError(f"win_tile {format_tile(a)} is not in the hand")
    if code == _fan.ERR_WIN_RANGE:  # only with errors="coerce", which reports nothing
        return ValueError(f"win_tiles[{row}]: not a kind index 0..26")
    if code == _fan.ERR_CONCEALED:
        where = f"concealed_kongs[{row}]" if batch else "concealed_kongs"
        held = "no meld" if b == 0 else f"a meld of {b} tiles"
        return InvalidHandError(f"{where}: {format_tile(a)} is marked as a concealed kong but "
                                f"has {held}")
    if code == _fan.ERR_FLAGS:
        return _flags_error(row, a, b, p, ctx)
    return row_error(code, a, b, row, batch, size_rule)


def _flags_error(row: int, w: int, bits: int, p: Any, ctx: dict[str, Any]) -> ValueError:
    """score()'s own message for the contradictory flags of one row."""
    from . import scoring  # lazy: scoring imports this module

    meld_row = None
    if p.melds is not None:
        meld_row = p.melds if p.melds.ndim == 1 else p.melds[row]
    marks = ctx["marks"]
    mark_row = None if marks is None else (marks if marks.ndim == 1 else marks[row])
    melds = []
    if meld_row is not None:
        for t in np.nonzero(meld_row)[0].tolist():
            if meld_row[t] == 3:
                kind = MeldKind.PUNG
            else:
                kind = MeldKind.KONG_CONCEALED if mark_row is not None and mark_row[t] else MeldKind.KONG
            melds.append(Meld(kind, t))
    mi = scoring._meld_info(melds)
    flags = [bool(bits >> i & 1) for i in range(len(_FLAG_NAMES))]
    try:
        scoring._situation(bytes(p.hands[row]), mi, w, *flags)
    except ValueError as exc:
        msg = str(exc)
    else:  # pragma: no cover - the kernel and scoring agree on what contradicts
        msg = "contradictory flags"
    return ValueError(f"hands[{row}]: {msg}" if p.batch else msg)


# ---------------------------------------------------------------------------------------------
# Public kernels
# ---------------------------------------------------------------------------------------------

def fan(
    hands: Any,
    win_tiles: Any,
    *,
    melds: Any = None,
    concealed_kongs: Any = None,
    void_suit: Any = None,
    rules: Rules | None = None,
    self_drawn: Any = False,
    after_kong: Any = False,
    after_kong_discard: Any = False,
    robbing_kong: Any = False,
    last_tile: Any = False,
    tian_hu: Any = False,
    di_hu: Any = False,
    workers: int = 1,
    out: np.ndarray | None = None,
    errors: str = "raise",
) -> Any:
    """Capped fan (display numbering) of complete hands; -1 for a row that does not win.

    Row by row equal to ``mjfast.scoring.score(...).fan`` (``-1`` where ``is_win`` is False:
    no reading, three suits, a tile of the declared void suit).

    Args:
        hands: ``(N, 27)`` uint8 counts of the 14 - 3m concealed tiles *including* the win
            tile, or one hand (tile string / 27 counts: the result is an int).
        win_tiles: the winning tile: one for all rows (``"5p"`` or 0..26) or an ``(N,)`` int
            array.
        melds: None, meld strings / Meld objects (shared by all rows), or a ``(27,)`` /
            ``(N, 27)`` count array (3 = pung, 4 = kong).
        concealed_kongs: with a count array, the kongs that are concealed (bool, same shape).
        void_suit: None, ``"m"``/``"p"``/``"s"``/0..2 for all rows, or an ``(N,)`` int array
            (-1 = none).
        rules: a :class:`~mjfast.rules.Rules` (default ``chengdu``).
        self_drawn, after_kong, after_kong_discard, robbing_kong, last_tile, tian_hu, di_hu:
            situational flags as in :func:`~mjfast.scoring.score`, each a bool or an ``(N,)``
            bool array.
        workers: threads (-1 = all cores); the result does not depend on it.
        out: an ``(N,)`` int16 C-contiguous array to write into.
        errors: ``"raise"`` (the first bad row raises) or ``"coerce"`` (bad rows get
            :data:`INVALID_FAN`).

    Returns:
        ``(N,)`` int16 (or an int for one hand).

    Raises:
        InvalidHandError: a bad row (counts, melds, size other than 14 - 3m, win tile not in
            the hand), naming it.
        ValueError: contradictory flags in a row (as :func:`~mjfast.scoring.score` words them).

    >>> fan("123m 234m 678m 99m", "9m", melds=["pung:5m"], self_drawn=True)
    2
    """
    rules_table = compile_rules(rules)
    meld_arg, marks = _melds_and_marks(melds, concealed_kongs)
    p = prepare(hands, melds=meld_arg, void_suit=void_suit, workers=workers, out=out,
                errors=errors, out_dtype=np.int16)
    n = p.hands.shape[0] if p.batch else None
    _check_marks(marks, concealed_kongs, n)
    wins, win_scalar = _win_tiles(win_tiles, n, p.coerce)
    flags, flag_scalar = _flags((self_drawn, after_kong, after_kong_discard, robbing_kong,
                                 last_tile, tian_hu, di_hu), n)

    def run(start: int, end: int) -> Result:
        return _fan.run_rows(_fan.OP_FAN, p.hands, p.melds, marks, p.voids, p.void_scalar,
                             wins, win_scalar, flags, flag_scalar, None, rules_table, p.coerce,
                             p.out, None, start, end)

    res = run_chunks(run, p.hands.shape[0], p.workers, p.coerce)
    if res is not None and not p.coerce:
        raise _error(res, p, "complete", {"marks": marks})
    return p.out if p.batch else int(p.out[0])


def max_fan(
    hands: Any,
    *,
    melds: Any = None,
    concealed_kongs: Any = None,
    void_suit: Any = None,
    visible: Any = None,
    rules: Rules | None = None,
    workers: int = 1,
    out: np.ndarray | None = None,
    best_tile: bool = False,
    errors: str = "raise",
) -> Any:
    """The 大叫 F of 13 - 3m hands (uncapped, display numbering); -1 when not ready.

    Row by row equal to ``mjfast.scoring.max_fan(...).fan`` (None -> -1): the maximum (赔小,
    ``rules.cha_da_jiao == "min"``: the minimum) over the waits of the fan of a discard win
    with no situational extras; with ``rules.si_jiao`` a wait whose copies are all gone
    (``4 - held - visible <= 0``) does not count.

    Args:
        hands: ``(N, 27)`` uint8 counts of 13 - 3m concealed tiles, or one hand.
        melds, concealed_kongs, void_suit, rules, workers, errors: as in :func:`fan`.
        visible: copies seen outside the player's hand and melds: ``(27,)`` or ``(N, 27)``.
        out: an ``(N,)`` int16 C-contiguous array for F.
        best_tile: also return the wait giving F (``(N,)`` int8, ties -> the lowest kind,
            -1 when not ready), as ``(F, best)``.

    Returns:
        ``(N,)`` int16 F, or ``(F, best)`` with *best_tile*; ints for one hand.

    >>> max_fan("2224445557779m", best_tile=True)
    (3, 8)
    """
    rules_table = compile_rules(rules)
    if not isinstance(best_tile, (bool, np.bool_)):
        raise TypeError(f"best_tile: expected a bool, got {type(best_tile).__name__}")
    meld_arg, marks = _melds_and_marks(melds, concealed_kongs)
    p = prepare(hands, melds=meld_arg, void_suit=void_suit, visible=visible, workers=workers,
                out=out, errors=errors, out_dtype=np.int16)
    _check_marks(marks, concealed_kongs, p.hands.shape[0] if p.batch else None)
    best = np.empty(p.hands.shape[0], np.int8) if best_tile else None

    def run(start: int, end: int) -> Result:
        return _fan.run_rows(_fan.OP_MAX_FAN, p.hands, p.melds, marks, p.voids, p.void_scalar,
                             None, 0, None, 0, p.visible, rules_table, p.coerce, p.out, best,
                             start, end)

    res = run_chunks(run, p.hands.shape[0], p.workers, p.coerce)
    if res is not None and not p.coerce:
        raise _error(res, p, "waiting", {"marks": marks})
    if p.batch:
        return (p.out, best) if best_tile else p.out
    f = int(p.out[0])
    return (f, int(best[0])) if best_tile else f  # type: ignore[index]
