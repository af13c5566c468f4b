"""Batch fan: the capped fan of many wins and the 大叫 of many ready hands, in one compiled call.

:func:`fan` is :func:`mjfast.scoring.score` ``.fan`` and ``max_fan`` (the kernel of the array
form of :func:`mjfast.max_fan`, not public: call that) is :func:`mjfast.scoring.max_fan`
``.fan`` (and ``.best_wait``), row by row over an ``(N, 27)``
uint8 array, without per-hand Python: the readings of every suit pattern come from a table
(``src/mjfast_fan.h``), the rules from a small numeric table compiled once per
:class:`~mjfast.rules.Rules` (:func:`~mjfast.scoring.patterns.compile_rules`). A single hand
(tile string or 27 counts) gives a Python int.

>>> import numpy as np
>>> from mjfast.tiles import parse_hand
>>> hands = np.stack([parse_hand("22244455577799m"), parse_hand("123333m45566799s"),
...                   parse_hand("123m456p789s11155m")])
>>> fan(hands, [8, 0, 4]).tolist()              # 清对, 平胡 + 1 root, three suits: no win
[3, 1, -1]
>>> fan("11224444557799m", "1m", rules="qq")    # 清龙七对 5, shown as 6
6
>>> f, best = max_fan(np.stack([parse_hand("2224445557779m"), parse_hand("1112345678999m"),
...                             parse_hand("1234567m159p123s")]), best_wait=True)
>>> f.tolist(), best.tolist()                  # 9m gives 清对; 九莲 waits 1m-9m; not ready
([3, 3, -1], [8, 0, -1])

Melds: ``None``; meld strings or :class:`~mjfast.tiles.Meld` objects (one set for every row;
their kinds are known); or a ``(27,)`` / ``(N, 27)`` count array (0, 3 = pung, 4 = kong, as in
the core kernels). A count array cannot tell a concealed kong (暗杠, which keeps 门清) from an
exposed one: mark concealed kongs with ``concealed_kongs=`` (a bool array of the same shape);
unmarked kongs count as exposed. Only the 门清 option depends on this.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, Literal, Union, overload

import numpy as np
import numpy.typing as npt

from mjfast._args import FLAG_NAMES, as_flag, as_tile, shown
from mjfast._batch import Result, run_chunks
from mjfast._core import _fan
from mjfast._typing import (
    Errors,
    HandsLike,
    ManyHands,
    MeldsLike,
    OneHand,
    RulesLike,
    TileLike,
    VoidSuits,
)
from mjfast._validate import Prepared, prepare, refuse_overlap, row_error
from mjfast.errors import InvalidArgumentError, InvalidHandError
from mjfast.scoring.inputs import FLAG_BITS, meld_info, situation
from mjfast.scoring.patterns import compile_rules
from mjfast.tiles import Meld, MeldKind, format_tile, melds_to_counts, parse_melds, parse_tile

__all__ = [
    "INVALID_FAN", "Flag", "Fans", "ManyHands", "OneHand", "WinTiles", "Waits", "best_wait_arg", "fan",
]

INVALID_FAN: int = _fan.INVALID
"""Written for a bad row with ``errors="coerce"`` (-100); -1 means "no win" / "not ready"."""

Fans = npt.NDArray[np.int16]
"""The fans of a batch."""
Waits = npt.NDArray[np.int8]
"""The best waits of a batch."""
WinTiles = Union[TileLike, Sequence[TileLike], np.ndarray]
"""One win tile for every row, or one per row."""
Flag = Union[bool, np.bool_, np.ndarray]
"""A situational flag for every row, or an ``(N,)`` bool array."""


# ---------------------------------------------------------------------------------------------
# Argument checks
# ---------------------------------------------------------------------------------------------

def _is_meld_list(value: object) -> bool:
    return isinstance(value, (str, Meld)) or (
        isinstance(value, (list, tuple)) and bool(value)
        and all(isinstance(m, (str, Meld)) for m in value))


def _melds_and_marks(melds: object, concealed_kongs: object) -> tuple[Any, np.ndarray | None]:
    """(melds for prepare, concealed-kong marks as a uint8 array or None; shape unchecked)."""
    if _is_meld_list(melds):
        if concealed_kongs is not None:
            raise InvalidArgumentError(
                "concealed_kongs: meld strings / Meld objects already say which kongs are "
                "concealed; pass concealed_kongs only with count arrays")
        parsed = parse_melds(melds)  # type: ignore[arg-type]
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
        raise InvalidArgumentError(
            f"concealed_kongs: expected a bool array, got dtype {arr.dtype}")
    marks = np.ascontiguousarray(arr != 0, dtype=np.uint8)
    return melds, (marks if marks.any() else None)


def _check_marks(concealed_kongs: object, n: int | None) -> None:
    if concealed_kongs is None:
        return
    shape = np.shape(concealed_kongs)  # type: ignore[call-overload]
    if shape != (27,) and not (n is not None and shape == (n, 27)):
        expect = "(27,)" if n is None else f"(27,) or ({n}, 27)"
        raise InvalidArgumentError(f"concealed_kongs: expected shape {expect}, got {shape}")


def _win_tiles(value: object, n: int | None, coerce: bool) -> tuple[np.ndarray | None, int]:
    """(per-row int8 array or None, scalar). With *coerce*, rows out of range become -1, which
    the kernel reports as bad rows."""
    if isinstance(value, (str, int, np.integer, bool, np.bool_)) or n is None:
        return None, as_tile(value, "win_tiles" if n is not None else "win_tile")
    arr = np.asarray(value)
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        if arr.dtype.kind in "US" and arr.shape == (n,):
            arr = np.array([parse_tile(str(t)) for t in arr.tolist()], np.int64)
        else:
            raise InvalidArgumentError(f"win_tiles: expected an integer array of kinds 0..26, "
                                       f"got dtype {arr.dtype}")
    if arr.shape != (n,):
        raise InvalidArgumentError(
            f"win_tiles: expected shape ({n},) like hands, got {arr.shape}")
    out_of_range = (arr < 0) | (arr > 26)
    bad = np.nonzero(out_of_range)[0]
    if bad.size:
        if not coerce:
            raise InvalidArgumentError(f"win_tiles[{bad[0]}]: {int(arr[bad[0]])} is not a kind index 0..26")
        arr = np.where(out_of_range, -1, arr)
    return np.ascontiguousarray(arr, dtype=np.int8), 0


def _flags(values: tuple[object, ...], n: int | None) -> tuple[np.ndarray | None, int]:
    """The situational flags packed one bit each (:data:`~mjfast.scoring.inputs.FLAG_BITS`):
    (per-row uint8 array or None, scalar bits)."""
    scalar = 0
    rows = None
    for name, v in zip(FLAG_NAMES, values):
        bit = FLAG_BITS[name]
        if n is None or not isinstance(v, np.ndarray):
            if n is not None and not isinstance(v, (bool, np.bool_)):
                raise InvalidArgumentError(
                    f"{name}: expected a bool or a ({n},) bool array, got {shown(v)}")
            if as_flag(v, name):
                scalar |= bit
            continue
        if v.dtype != np.bool_:
            raise InvalidArgumentError(f"{name}: expected a bool array, got dtype {v.dtype}")
        if v.shape != (n,):
            raise InvalidArgumentError(f"{name}: expected shape ({n},) like hands, got {v.shape}")
        if rows is None:
            rows = np.zeros(n, np.uint8)
        rows |= v.view(np.uint8) * np.uint8(bit)
    if rows is not None:
        rows |= scalar
        return rows, 0
    return None, scalar


def best_wait_arg(best_wait: object, best_tile: object) -> bool:
    """``best_wait=`` checked, with ``best_tile=``, its deprecated name, still honoured."""
    if best_tile is not None:
        warnings.warn("max_fan: best_tile= is deprecated, use best_wait= (the name of "
                      "MaxFan.best_wait)", DeprecationWarning, stacklevel=3)
        if best_wait is not False:
            raise InvalidArgumentError("max_fan: pass best_wait= only (best_tile= is its "
                                       "deprecated name)")
        best_wait = best_tile
    return as_flag(best_wait, "best_wait")


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------

def _error(res: Result, p: Prepared, size_rule: str, marks: np.ndarray | None) -> Exception:
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
        return _flags_error(row, a, b, p, marks)
    return row_error(code, a, b, row, batch, size_rule, p.sets)


def _flags_error(row: int, w: int, bits: int, p: Prepared, marks: np.ndarray | None) -> ValueError:
    """score()'s own message for the contradictory flags of one row."""
    meld_row = None
    if p.melds is not None:
        meld_row = p.melds if p.melds.ndim == 1 else p.melds[row]
    mark_row = None if marks is None else (marks if marks.ndim == 1 else marks[row])
    melds = []
    if meld_row is not None:
        for t in np.nonzero(meld_row)[0].tolist():
            if meld_row[t] == 3:
                kind = MeldKind.PUNG
            elif mark_row is not None and mark_row[t]:
                kind = MeldKind.KONG_CONCEALED
            else:
                kind = MeldKind.KONG
            melds.append(Meld(kind, t))
    flags = [bool(bits & FLAG_BITS[name]) for name in FLAG_NAMES]
    try:
        situation(bytes(p.hands[row]), meld_info(melds), w, *flags)
    except ValueError as exc:
        msg = str(exc)
    else:  # pragma: no cover - the kernel and scoring agree on what contradicts
        msg = "contradictory flags"
    return ValueError(f"hands[{row}]: {msg}" if p.batch else msg)


# ---------------------------------------------------------------------------------------------
# Public kernels
# ---------------------------------------------------------------------------------------------

@overload
def fan(hands: OneHand, win_tiles: WinTiles, *, melds: MeldsLike = ...,  # type: ignore[overload-overlap]
        concealed_kongs: np.ndarray | None = ..., void_suit: VoidSuits = ..., rules: RulesLike = ...,
        sets: int = ...,
        self_drawn: Flag = ..., after_kong: Flag = ..., after_kong_discard: Flag = ...,
        robbing_kong: Flag = ..., last_tile: Flag = ..., tian_hu: Flag = ...,
        di_hu: Flag = ..., jue_zhang: Flag = ..., workers: int = ..., out: Fans | None = ...,
        errors: Errors = ...) -> int: ...
@overload
def fan(hands: ManyHands, win_tiles: WinTiles, *,
        melds: MeldsLike = ..., concealed_kongs: np.ndarray | None = ..., void_suit: VoidSuits = ...,
        rules: RulesLike = ..., sets: int = ..., self_drawn: Flag = ..., after_kong: Flag = ...,
        after_kong_discard: Flag = ..., robbing_kong: Flag = ..., last_tile: Flag = ...,
        tian_hu: Flag = ..., di_hu: Flag = ..., jue_zhang: Flag = ..., workers: int = ...,
        out: Fans | None = ...,
        errors: Errors = ...) -> Fans: ...
@overload
def fan(hands: np.ndarray, win_tiles: WinTiles, *, melds: MeldsLike = ...,
        concealed_kongs: np.ndarray | None = ..., void_suit: VoidSuits = ..., rules: RulesLike = ...,
        sets: int = ...,
        self_drawn: Flag = ..., after_kong: Flag = ..., after_kong_discard: Flag = ...,
        robbing_kong: Flag = ..., last_tile: Flag = ..., tian_hu: Flag = ...,
        di_hu: Flag = ..., jue_zhang: Flag = ..., workers: int = ..., out: Fans | None = ...,
        errors: Errors = ...) -> int | Fans: ...
def fan(
    hands: OneHand | ManyHands | np.ndarray,
    win_tiles: WinTiles,
    *,
    melds: MeldsLike = None,
    concealed_kongs: np.ndarray | None = None,
    void_suit: VoidSuits = None,
    rules: RulesLike = None,
    sets: int = 4,
    self_drawn: Flag = False,
    after_kong: Flag = False,
    after_kong_discard: Flag = False,
    robbing_kong: Flag = False,
    last_tile: Flag = False,
    tian_hu: Flag = False,
    di_hu: Flag = False,
    jue_zhang: Flag = False,
    workers: int = 1,
    out: Fans | None = None,
    errors: Errors = "raise",
) -> int | Fans:
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
        void_suit: one void suit for all rows (as in :func:`~mjfast.scoring.score`), or an
            ``(N,)`` int array (-1 = none).
        rules: a :class:`~mjfast.rules.Rules` or a preset name (default ``chengdu``).
        sets: the sets of a complete hand: 4, or 3 / 2 for the short hands of the 5- and
            6-player tables (3 * sets + 2 - 3m tiles; no seven pairs there).
        self_drawn, after_kong, after_kong_discard, robbing_kong, last_tile, tian_hu, di_hu, jue_zhang:
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
        InvalidArgumentError: an argument of the wrong type or outside its accepted set.
        ValueError: contradictory flags in a row (as :func:`~mjfast.scoring.score` words them).

    >>> fan("123m 234m 678m 99m", "9m", melds=["pung:5m"], self_drawn=True)
    2
    """
    rules_table = compile_rules(rules)
    meld_arg, marks = _melds_and_marks(melds, concealed_kongs)
    p = prepare(hands, melds=meld_arg, void_suit=void_suit, workers=workers, out=out,
                errors=errors, out_dtype=np.int16, sets=sets)
    n = p.hands.shape[0] if p.batch else None
    _check_marks(concealed_kongs, n)
    wins, win_scalar = _win_tiles(win_tiles, n, p.coerce)
    if out is not None and wins is not None:
        refuse_overlap(p.dest, win_tiles=wins)
    flags, flag_scalar = _flags((self_drawn, after_kong, after_kong_discard, robbing_kong,
                                 last_tile, tian_hu, di_hu, jue_zhang), n)

    def run(start: int, end: int) -> Result:
        return _fan.run_rows(_fan.OP_FAN, p.hands, p.melds, marks, p.voids, p.void_scalar,
                             wins, win_scalar, flags, flag_scalar, None, rules_table, p.sets,
                             p.coerce, p.out, None, start, end)

    res = run_chunks(run, p.hands.shape[0], p.workers, p.coerce)
    if res is not None and not p.coerce:
        raise _error(res, p, "complete", marks)
    return p.finish() if p.batch else int(p.out[0])


@overload
def max_fan(hands: OneHand, *,  # type: ignore[overload-overlap]
            melds: MeldsLike = ..., concealed_kongs: np.ndarray | None = ...,
            void_suit: VoidSuits = ..., visible: HandsLike | None = ..., rules: RulesLike = ...,
            sets: int = ...,
            workers: int = ..., out: Fans | None = ..., best_wait: Literal[False] = ...,
            errors: Errors = ..., best_tile: None = ...) -> int: ...
@overload
def max_fan(hands: OneHand, *,  # type: ignore[overload-overlap]
            melds: MeldsLike = ..., concealed_kongs: np.ndarray | None = ...,
            void_suit: VoidSuits = ..., visible: HandsLike | None = ..., rules: RulesLike = ...,
            sets: int = ...,
            workers: int = ..., out: Fans | None = ..., best_wait: Literal[True],
            errors: Errors = ..., best_tile: None = ...) -> tuple[int, int]: ...
@overload
def max_fan(hands: ManyHands, *, melds: MeldsLike = ..., concealed_kongs: np.ndarray | None = ...,
            void_suit: VoidSuits = ..., visible: HandsLike | None = ..., rules: RulesLike = ...,
            sets: int = ...,
            workers: int = ..., out: Fans | None = ..., best_wait: Literal[False] = ...,
            errors: Errors = ..., best_tile: None = ...) -> Fans: ...
@overload
def max_fan(hands: ManyHands, *, melds: MeldsLike = ..., concealed_kongs: np.ndarray | None = ...,
            void_suit: VoidSuits = ..., visible: HandsLike | None = ..., rules: RulesLike = ...,
            sets: int = ...,
            workers: int = ..., out: Fans | None = ..., best_wait: Literal[True],
            errors: Errors = ..., best_tile: None = ...) -> tuple[Fans, Waits]: ...
@overload
def max_fan(hands: np.ndarray, *, melds: MeldsLike = ..., concealed_kongs: np.ndarray | None = ...,
            void_suit: VoidSuits = ..., visible: HandsLike | None = ..., rules: RulesLike = ...,
            sets: int = ...,
            workers: int = ..., out: Fans | None = ..., best_wait: Literal[False] = ...,
            errors: Errors = ..., best_tile: None = ...) -> int | Fans: ...
@overload
def max_fan(hands: np.ndarray, *, melds: MeldsLike = ..., concealed_kongs: np.ndarray | None = ...,
            void_suit: VoidSuits = ..., visible: HandsLike | None = ..., rules: RulesLike = ...,
            sets: int = ...,
            workers: int = ..., out: Fans | None = ..., best_wait: Literal[True],
            errors: Errors = ..., best_tile: None = ...) -> tuple[int, int] | tuple[Fans, Waits]: ...
@overload
def max_fan(hands: OneHand | ManyHands | np.ndarray, *, melds: MeldsLike = ...,
            concealed_kongs: np.ndarray | None = ...,
            void_suit: VoidSuits = ..., visible: HandsLike | None = ..., rules: RulesLike = ...,
            sets: int = ...,
            workers: int = ..., out: Fans | None = ..., best_wait: bool = ...,
            errors: Errors = ..., best_tile: bool | None = ...) -> Any: ...
def max_fan(
    hands: OneHand | ManyHands | np.ndarray,
    *,
    melds: MeldsLike = None,
    concealed_kongs: np.ndarray | None = None,
    void_suit: VoidSuits = None,
    visible: HandsLike | None = None,
    rules: RulesLike = None,
    sets: int = 4,
    workers: int = 1,
    out: Fans | None = None,
    best_wait: bool = False,
    errors: Errors = "raise",
    best_tile: bool | None = None,
) -> Any:
    """The 大叫 F of 13 - 3m hands (uncapped, display numbering); -1 when not ready.

    Row by row equal to ``mjfast.scoring.max_fan(...).fan`` (None -> -1): the maximum (赔小,
    ``rules.cha_da_jiao == "min"``: the minimum) over the waits of the fan of a discard win
    with no situational extras; with ``rules.si_jiao`` a wait whose copies are all gone
    (``4 - held - visible <= 0``) does not count.

    Args:
        hands: ``(N, 27)`` uint8 counts of 13 - 3m concealed tiles, or one hand.
        melds, concealed_kongs, void_suit, rules, sets, workers, errors: as in :func:`fan`
            (short hands: 3 * sets + 1 - 3m tiles).
        visible: copies seen outside the player's hand and melds: ``(27,)`` or ``(N, 27)``.
        out: an ``(N,)`` int16 C-contiguous array for F.
        best_wait: also return the wait giving F (what :attr:`~mjfast.scoring.MaxFan.best_wait`
            holds: ``(N,)`` int8, ties -> the lowest kind, -1 when not ready), as ``(F, best)``.
        best_tile: the deprecated name of *best_wait* (a DeprecationWarning).

    Returns:
        ``(N,)`` int16 F, or ``(F, best)`` with *best_wait*; ints for one hand.

    >>> max_fan("2224445557779m", best_wait=True)
    (3, 8)
    """
    want_best = best_wait_arg(best_wait, best_tile)
    rules_table = compile_rules(rules)
    meld_arg, marks = _melds_and_marks(melds, concealed_kongs)
    p = prepare(hands, melds=meld_arg, void_suit=void_suit, visible=visible, workers=workers,
                out=out, errors=errors, out_dtype=np.int16, sets=sets)
    _check_marks(concealed_kongs, p.hands.shape[0] if p.batch else None)
    best = np.empty(p.hands.shape[0], np.int8) if want_best else None

    def run(start: int, end: int) -> Result:
        return _fan.run_rows(_fan.OP_MAX_FAN, p.hands, p.melds, marks, p.voids, p.void_scalar,
                             None, 0, None, 0, p.visible, rules_table, p.sets, p.coerce, p.out,
                             best, start, end)

    res = run_chunks(run, p.hands.shape[0], p.workers, p.coerce)
    if res is not None and not p.coerce:
        raise _error(res, p, "waiting", marks)
    if p.batch:
        return (p.finish(), best) if best is not None else p.finish()
    f = int(p.out[0])
    return (f, int(best[0])) if best is not None else f
