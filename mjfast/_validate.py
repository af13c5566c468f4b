"""Input checks shared by the public kernel wrappers, with errors worded in the domain.

Every public kernel accepts one hand (a tile string, a length-27 sequence or a 1-D array) or a
batch (an (N, 27) array). Checks that need no per-row work (types, dtypes, shapes, option values)
happen here, before any cast; per-row checks (counts, melds, sizes) run inside the kernel, which
reports the first bad row and :func:`row_error` words it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ._args import FORMS, as_errors, as_flag, as_form, as_sets, as_void, as_workers, hand_sizes
from .errors import InvalidArgumentError, InvalidHandError
from .tiles import Meld, format_tile, melds_to_counts, parse_hand

__all__ = ["Prepared", "prepare", "refuse_overlap", "row_error"]


# kernel error codes (src/mjfast_kernels.h)
ERR_COUNT, ERR_MELD_VALUE, ERR_HELD, ERR_SIZE, ERR_VISIBLE, ERR_VOID = 1, 2, 3, 4, 5, 6


def _counts_array(value: Any, name: str, *, batch_ok: bool, coerce: bool = False) -> np.ndarray:
    """A 27-column uint8 count array (1-D or 2-D) from user input, checked before any cast.

    A tile string (``"55p9s"``) is one row of counts. A count outside 0..255 cannot be cast:
    it raises, or with *coerce* becomes 255, which the kernels then mark as a bad row (a value
    of 260 must never wrap to 4)."""
    if isinstance(value, np.ndarray):
        arr = value
    elif isinstance(value, str):
        arr = parse_hand(value)
    else:
        try:
            arr = np.asarray(value)
        except (TypeError, ValueError) as exc:
            raise InvalidArgumentError(
                f"{name}: expected tile counts, got {type(value).__name__}") from exc
        if arr.dtype == object:
            raise InvalidArgumentError(
                f"{name}: expected integer tile counts, got {type(value).__name__}")
        if arr.size == 0 and arr.ndim == 1:
            raise InvalidHandError(f"{name}: expected 27 counts (1m..9m, 1p..9p, 1s..9s), got 0")
    if arr.dtype.kind not in "iu":  # not bool, and not timedelta64 (numpy ranks it an integer)
        raise InvalidArgumentError(
            f"{name}: expected an integer dtype (uint8 preferred), got {arr.dtype}")
    if arr.ndim == 1:
        if arr.shape[0] != 27:
            raise InvalidHandError(
                f"{name}: expected 27 counts (1m..9m, 1p..9p, 1s..9s), got {arr.shape[0]}")
        arr = np.ascontiguousarray(arr)  # one row: a strided view is copied, not refused
    elif arr.ndim == 2 and batch_ok:
        if arr.shape[1] != 27:
            raise InvalidHandError(f"{name}: expected shape (N, 27), got {arr.shape}")
        if not arr.flags.c_contiguous:
            raise InvalidArgumentError(
                f"{name}: the array is not C-contiguous; pass np.ascontiguousarray({name})")
    else:
        expect = "shape (27,) or (N, 27)" if batch_ok else "shape (27,)"
        raise InvalidHandError(f"{name}: expected {expect}, got {arr.ndim}-D shape {arr.shape}")
    if arr.dtype != np.uint8:
        if arr.size and (arr.min() < 0 or arr.max() > 255):
            if not coerce:
                _raise_first_out_of_range(arr, name)
            arr = np.where((arr < 0) | (arr > 255), 255, arr)
        arr = arr.astype(np.uint8)
    return arr


def _raise_first_out_of_range(arr: np.ndarray, name: str) -> None:
    bad = np.argwhere((arr < 0) | (arr > 4))[0]
    value = int(arr[tuple(bad)])
    where = f"{name}[{bad[0]}]" if arr.ndim == 2 else ("hand" if name == "hands" else name)
    kind = format_tile(int(bad[-1]))
    if value < 0:
        raise InvalidHandError(f"{where}: tile {kind} has a negative count ({value})")
    raise InvalidHandError(f"{where}: tile {kind} appears {value} times (max 4)")


def _hand(value: Any, coerce: bool) -> tuple[np.ndarray, bool]:
    """(counts, is_batch). A list of tile strings is a batch."""
    if isinstance(value, str):
        return parse_hand(value), False
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
        rows = []
        for i, text in enumerate(value):
            try:
                rows.append(parse_hand(text))
            except ValueError as exc:
                raise type(exc)(f"hands[{i}]: {exc}") from None
        return np.stack(rows), True
    arr = _counts_array(value, "hands", batch_ok=True, coerce=coerce)
    return arr, arr.ndim == 2


def _melds(value: Any, n: int | None, coerce: bool) -> np.ndarray | None:
    if value is None:
        return None
    if isinstance(value, (str, Meld)) or (
        isinstance(value, (list, tuple)) and value and isinstance(value[0], (str, Meld))
    ):
        counts = melds_to_counts(value)
    elif isinstance(value, (list, tuple)) and not value:
        return None
    else:
        counts = _counts_array(value, "melds", batch_ok=n is not None, coerce=coerce)
        if counts.ndim == 2 and counts.shape[0] != n:
            raise InvalidArgumentError(f"melds: expected {n} rows like hands, got {counts.shape[0]}")
    return counts if counts.any() else None


def _void(value: Any, n: int | None) -> tuple[np.ndarray | None, int]:
    """(per-row int8 array or None, scalar code); -1 = no declared void."""
    if n is None or not isinstance(value, (np.ndarray, list, tuple)):
        return None, as_void(value)
    arr = np.asarray(value)
    if arr.dtype.kind not in "iu":
        raise InvalidArgumentError(
            f"void_suit: expected an integer array (-1 for none), got {arr.dtype}")
    if arr.shape != (n,):
        raise InvalidArgumentError(f"void_suit: expected shape ({n},) like hands, got {arr.shape}")
    bad = np.nonzero((arr < -1) | (arr > 2))[0]
    if bad.size:
        raise InvalidArgumentError(f"void_suit[{bad[0]}]: {int(arr[bad[0]])} is not -1 (none), 0, 1 or 2")
    return np.ascontiguousarray(arr, dtype=np.int8), -1


class Prepared(NamedTuple):
    """Validated arguments of one kernel call, in the form the kernel takes."""

    hands: np.ndarray  # (n, 27) uint8, C-contiguous (a single hand as one row)
    batch: bool  # False: the caller gave one hand and gets one row back
    melds: np.ndarray | None  # (27,) or (n, 27) uint8, None without melds
    voids: np.ndarray | None  # (n,) int8, or None: void_scalar for every row
    void_scalar: int
    visible: np.ndarray | None  # (27,) or (n, 27) uint8
    void_rule: bool
    form: int
    sets: int  # sets of a complete hand (4, or 3 / 2: short hands)
    coerce: bool
    workers: int
    out: np.ndarray  # what the kernel writes
    target: np.ndarray | None = None  # the caller's out=, filled from out only on success
    check_first: bool = False  # out is the caller's: every row must pass before the kernel runs

    @property
    def dest(self) -> np.ndarray:
        """The array the caller gets back (their out=, or the kernel's own output)."""
        return self.out if self.target is None else self.target

    def finish(self) -> np.ndarray:
        """The result array: a caller's out= is written only once every row succeeded, so a
        refused batch leaves it untouched."""
        if self.target is None:
            return self.out
        self.target[...] = self.out
        return self.target


def prepare(
    hands: Any,
    *,
    melds: Any = None,
    void_suit: Any = None,
    void_rule: bool = True,
    form: str = "all",
    visible: Any = None,
    workers: Any = 1,
    out: Any = None,
    errors: str = "raise",
    out_dtype: Any = np.int8,
    out_row: tuple[int, ...] = (),
    sets: Any = 4,
    check_first: bool = False,
) -> Prepared:
    """Check every argument of a kernel call; the result holds arrays the kernel can take.

    A refused batch (``errors="raise"``) leaves the caller's ``out=`` as it was: the kernel
    writes a temporary that :meth:`Prepared.finish` copies into it, or, with *check_first*, the
    caller's array itself once the caller has checked every row (``Prepared.check_first``: a
    second read of the rows, cheaper than the copy where output rows are as wide as the hands).
    """
    coerce = as_errors(errors)
    counts, batch = _hand(hands, coerce)
    n = counts.shape[0] if batch else None
    form_code = FORMS.index(as_form(form))
    nsets = as_sets(sets)
    void_rule = as_flag(void_rule, "void_rule")
    voids, void_scalar = _void(void_suit, n)
    if not void_rule and ((voids is not None and (voids >= 0).any()) or void_scalar >= 0):
        raise InvalidArgumentError("void_suit: a declared void suit needs void_rule=True")
    meld_counts = _melds(melds, n, coerce)
    visible_counts = None if visible is None else _counts_array(visible, "visible", batch_ok=batch,
                                                                coerce=coerce)
    if visible_counts is not None and visible_counts.ndim == 2 and visible_counts.shape[0] != n:
        raise InvalidArgumentError(f"visible: expected {n} rows like hands, got {visible_counts.shape[0]}")
    nworkers = as_workers(workers)
    target, checked = None, False
    if n is not None:
        shape = (n,) + out_row
        if out is None:
            out = np.empty(shape, dtype=out_dtype)
        else:
            _check_out(out, shape, np.dtype(out_dtype))
            refuse_overlap(out, hands=counts, melds=meld_counts, visible=visible_counts,
                           void_suit=voids)
            if not coerce:  # a refused batch must leave the caller's array as it was
                if check_first:
                    checked = True
                else:
                    target, out = out, np.empty_like(out)
    elif out is not None:
        raise InvalidArgumentError("out: only batch calls (an (N, 27) array of hands) take an output array")
    else:
        counts = counts.reshape(1, 27)
        out = np.empty((1,) + out_row, dtype=out_dtype)
    return Prepared(hands=np.ascontiguousarray(counts), batch=batch, melds=meld_counts, voids=voids,
                    void_scalar=void_scalar, visible=visible_counts, void_rule=void_rule,
                    form=form_code, sets=nsets, coerce=coerce, workers=nworkers, out=out,
                    target=target, check_first=checked)


def _check_out(out: Any, shape: tuple[int, ...], dtype: np.dtype) -> None:
    if not isinstance(out, np.ndarray):
        raise InvalidArgumentError(f"out: expected a numpy array, got {type(out).__name__}")
    if out.dtype != dtype:
        raise InvalidArgumentError(f"out: expected dtype {dtype}, got {out.dtype}")
    if out.shape != shape:
        raise InvalidArgumentError(f"out: expected shape {shape}, got {out.shape}")
    if not out.flags.c_contiguous:
        raise InvalidArgumentError("out: the array is not C-contiguous")
    if not out.flags.writeable:
        raise InvalidArgumentError("out: the array is read-only")
    if not out.flags.aligned:
        raise InvalidArgumentError(f"out: the array is not aligned (its address is not a multiple of "
                         f"{dtype.alignment}); pass a fresh array")


def refuse_overlap(out: np.ndarray, **inputs: np.ndarray | None) -> None:
    """Refuse an ``out=`` array that shares memory with an input array the kernel reads: the
    kernel would overwrite rows it has yet to read."""
    for name, arr in inputs.items():
        if arr is not None and np.shares_memory(out, arr):
            raise InvalidArgumentError(
                f"out: shares memory with {name}; pass a separate output array")


def row_error(code: int, a: int, b: int, row: int, batch: bool, size_rule: str,
              sets: int = 4) -> InvalidHandError:
    """The error for the first bad row that a kernel reported (hands of *sets* sets)."""
    where = (lambda name: f"{name}[{row}]") if batch else (lambda name: "hand" if name == "hands" else name)
    if code == ERR_COUNT:
        return InvalidHandError(f"{where('hands')}: tile {format_tile(a)} appears {b} times (max 4)")
    if code == ERR_MELD_VALUE:
        return InvalidHandError(
            f"{where('melds')}: tile {format_tile(a)} has {b} meld tiles (must be 0, 3 or 4)")
    if code == ERR_HELD:
        return InvalidHandError(
            f"{where('hands')}: tile {format_tile(a)} appears {b} times counting melds (max 4)")
    if code == ERR_SIZE:
        if a > sets:
            return InvalidHandError(f"{where('melds')}: {a} melds (max {sets}"
                                    + (")" if sets == 4 else f" with sets={sets})"))
        waiting, complete = hand_sizes(sets, a)
        sizes = {"waiting": f"{waiting}", "complete": f"{complete}",
                 "either": f"{waiting} or {complete}"}[size_rule]
        short = "" if sets == 4 else f" (sets={sets})"
        return InvalidHandError(f"{where('hands')}: {b} concealed tiles with {a} "
                                f"meld{'s' if a != 1 else ''}; expected {sizes}{short}")
    if code == ERR_VISIBLE:
        return InvalidHandError(
            f"{where('visible')}: tile {format_tile(a)} is held and seen {b} times (max 4)")
    return InvalidHandError(f"{where('void_suit')}: {a} is not -1 (none), 0, 1 or 2")
