"""The batch kernels over Dask: lazy arrays and dataframes of hands, computed on a cluster.

``pip install "mjfast[dask]"``. Each function takes an ``(N, 27)`` integer :mod:`dask.array`
of counts (uint8 avoids a copy) chunked by rows only, and the keyword options of the numpy
function of the same name; it returns a dask array with the same row chunks, the numpy
function's dtype and its trailing shape, without computing anything. Each block runs the numpy
function with ``workers=1``: Dask owns the parallelism, so ``workers=`` and ``out=`` are refused.

An option that is one value per row in the numpy API (``void_suit``, ``win_tiles`` and the
situational flags as ``(N,)``; ``melds``, ``visible`` and ``concealed_kongs`` as ``(N, 27)``)
may be a numpy or dask array: it is cut into the row chunks of ``hands``. Options are checked
when the graph is built (the numpy function runs on zero rows), so a bad ``form=`` fails at
once; a bad row fails at compute time, named by its row in the whole array
(``hands[70001]: ...``; blocks run in parallel, so where several rows are bad the one named is
the first of the first block to fail), or with ``errors="coerce"`` is marked as in numpy.

>>> import dask.array as da
>>> import numpy as np
>>> from mjfast import parse_hand
>>> hands = da.from_array(np.stack([parse_hand("123m456m789m11p23p"),
...                                 parse_hand("1112345678999m"),
...                                 parse_hand("123m456p789s11s23m")]), chunks=(2, 27))
>>> sh = shanten(hands)
>>> sh.chunks, sh.dtype
(((2, 1),), dtype('int8'))
>>> sh.compute().tolist()
[0, 0, 3]

:func:`map_partitions` adds result columns to a dataframe of hands (mpsz strings or 27 count
columns ``c0``..``c26``). Adding a kernel is one entry of :data:`KERNELS`. :func:`forecast`
gives several arrays per row whose shapes depend on ``draws``, so it packs them into one float64
block per task (through the same :func:`apply` machinery) and slices them apart lazily.
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import dask.array as da
import dask.dataframe as dd
import numpy as np
import pandas as pd

from . import analysis, efficiency
from ._args import FLAG_NAMES, as_choice, as_flag, as_int
from ._lines import COUNT_COLUMNS, hand_column, parse_lines
from .errors import InvalidArgumentError, InvalidHandError
from .forecast import forecast as np_forecast
from .scoring import batch as fan_batch

__all__ = [
    "COUNT_COLUMNS",
    "KERNELS",
    "Kernel",
    "apply",
    "discards",
    "effective_tiles",
    "fan",
    "forecast",
    "is_win",
    "map_partitions",
    "max_fan",
    "result_columns",
    "shanten",
    "waits",
]


@dataclass(frozen=True)
class Kernel:
    """One numpy batch function as Dask sees it: what it returns per row, which arguments come
    one per row."""

    func: Callable[..., Any]
    dtype: type
    row: tuple[int, ...] = ()  # the trailing shape of one row's result
    positional: tuple[str, ...] = ()  # arguments after ``hands`` passed by position

    def takes(self, option: str) -> bool:
        """Whether the numpy function has an argument of this name."""
        return option in inspect.signature(self.func).parameters


def _max_fan_pair(hands: np.ndarray, **options: Any) -> np.ndarray:
    """F and the best wait side by side, so one task computes both."""
    f, best = fan_batch.max_fan(hands, best_wait=True, **options)
    return np.stack([f, best.astype(np.int16)], axis=1)


KERNELS: dict[str, Kernel] = {
    "shanten": Kernel(analysis.shanten, np.int8),
    "waits": Kernel(analysis.waits, np.uint32),
    "is_win": Kernel(analysis.is_win, np.bool_),
    "effective_tiles": Kernel(efficiency.effective_tiles, np.int8, (27,)),
    "discards": Kernel(efficiency.discards, np.int8, (27,)),
    "fan": Kernel(fan_batch.fan, np.int16, positional=("win_tiles",)),
    "max_fan": Kernel(fan_batch.max_fan, np.int16),
}
"""name -> the numpy function, its result dtype and trailing shape: the one place a kernel is
declared for :mod:`mjfast.dask` (arrays and dataframes alike)."""

_MAX_FAN_PAIR = Kernel(_max_fan_pair, np.int16, (2,))  # max_fan(best_wait=True) as (N, 2)

# Options given one per row: how many dimensions a per-row value has.
_ROW_NDIM: dict[str, int] = {"void_suit": 1, "win_tiles": 1, "melds": 2, "visible": 2,
                             "concealed_kongs": 2, **dict.fromkeys(FLAG_NAMES, 1)}
_ROW_NAME = re.compile(r"\b(\w+)\[(\d+)\]")


def _per_row(name: str, value: object) -> bool:
    """Whether an option value holds one entry per row (and is then cut into row chunks)."""
    ndim = _ROW_NDIM.get(name)
    if ndim is None:
        return False
    if isinstance(value, (da.Array, np.ndarray)):
        return value.ndim == ndim
    return ndim == 1 and isinstance(value, (list, tuple)) and name != "melds"


def _hands_array(hands: object) -> da.Array:
    """``hands`` checked: a 2-D dask array of 27 integer columns, in one chunk along columns."""
    if not isinstance(hands, da.Array):
        raise InvalidArgumentError(f"hands: expected a dask array of shape (N, 27), got "
                                   f"{type(hands).__name__} (use the numpy API, mjfast.shanten "
                                   "and so on, for numpy arrays)")
    if hands.ndim != 2 or hands.shape[1] != 27:
        raise InvalidArgumentError(f"hands: expected shape (N, 27), got {hands.shape}")
    if hands.dtype == np.bool_ or not np.issubdtype(hands.dtype, np.integer):
        raise InvalidArgumentError(f"hands: expected an integer dtype (uint8 preferred), got "
                                   f"{hands.dtype}")
    if len(hands.chunks[1]) != 1:
        raise InvalidArgumentError(
            f"hands: chunked along columns (column chunks {hands.chunks[1]}); each chunk must "
            "hold whole rows: hands.rechunk({1: -1})")
    return hands


def _row_chunks(name: str, value: object, hands: da.Array) -> da.Array:
    """A per-row option as a dask array in the row chunks of ``hands``, as (n, 1) or (n, 27)
    so that it lines up with the hands' blocks."""
    n = hands.shape[0]
    arr = value if isinstance(value, da.Array) else np.asarray(value)
    if not math.isnan(n) and not math.isnan(arr.shape[0]) and arr.shape[0] != n:
        raise InvalidArgumentError(f"{name}: expected {n} rows like hands, got {arr.shape[0]}")
    if isinstance(arr, np.ndarray):
        if any(math.isnan(c) for c in hands.chunks[0]):
            raise InvalidArgumentError(f"{name}: hands has unknown chunk sizes; pass {name} as a "
                                       "dask array, or call hands.compute_chunk_sizes()")
        arr = da.from_array(arr, chunks=(hands.chunks[0],) + arr.shape[1:])
    elif arr.chunks[0] != hands.chunks[0]:
        arr = arr.rechunk({0: hands.chunks[0]})
    if arr.ndim == 1:
        return arr[:, None]
    return arr.rechunk({1: -1})


def _empty(value: object) -> np.ndarray:
    """Zero rows of a per-row option, for the eager check."""
    arr = value if isinstance(value, da.Array) else np.asarray(value)
    return np.empty((0,) + arr.shape[1:], arr.dtype)


def _block(kernel: Kernel, names: tuple[str, ...], options: dict[str, Any],
           offsets: tuple[int, ...] | None, hands: np.ndarray, *rows: np.ndarray,
           block_id: tuple[int, ...] | None = None) -> np.ndarray:
    """One block: the numpy function over the block's rows, its errors naming whole-array rows."""
    per_row = {name: (r[:, 0] if _ROW_NDIM[name] == 1 else r) for name, r in zip(names, rows)}
    kw = {**options, **{k: np.ascontiguousarray(v) for k, v in per_row.items()}}
    args = [kw.pop(name) for name in kernel.positional]
    try:
        return kernel.func(np.ascontiguousarray(hands), *args, workers=1, **kw)
    except ValueError as exc:  # InvalidHandError, InvalidArgumentError: renumber the rows
        block = 0 if block_id is None else block_id[0]

        def whole(m: re.Match[str]) -> str:
            if m[1] != "hands" and m[1] not in _ROW_NDIM:
                return m[0]
            return (f"{m[1]}[{offsets[block] + int(m[2])}]" if offsets is not None
                    else f"{m[1]}[{m[2]} of block {block}]")

        text = _ROW_NAME.sub(whole, str(exc))
        if text == str(exc):
            raise
        raise type(exc)(text) from None


def apply(name: str, hands: da.Array, *args: Any, **options: Any) -> da.Array:
    """The kernel ``name`` of :data:`KERNELS` over ``hands``, lazily.

    >>> import dask.array as da, numpy as np
    >>> apply("waits", da.zeros((4, 27), dtype=np.uint8, chunks=(2, 27))).chunks
    ((2, 2),)
    """
    return _apply(KERNELS[as_choice(name, "name", tuple(KERNELS))], name, hands, args, options)


def _apply(kernel: Kernel, name: str, hands: da.Array, args: tuple[Any, ...],
           options: dict[str, Any]) -> da.Array:
    hands = _hands_array(hands)
    for refused in ("workers", "out"):
        if refused in options:
            raise InvalidArgumentError(f"{refused}: not taken by mjfast.dask (Dask runs the "
                                       "blocks; each block's result is a new array)")
    options.update(zip(kernel.positional, args))
    names = tuple(k for k, v in options.items() if _per_row(k, v))
    shared = {k: v for k, v in options.items() if k not in names}
    check = {**shared, **{k: _empty(options[k]) for k in names}}
    kernel.func(np.empty((0, 27), hands.dtype), *[check.pop(k) for k in kernel.positional],
                **check)
    rows = [_row_chunks(k, options[k], hands) for k in names]
    offsets = None
    if not any(math.isnan(c) for c in hands.chunks[0]):
        offsets = tuple(int(x) for x in np.cumsum((0,) + hands.chunks[0][:-1]))
    layout: dict[str, Any] = ({"drop_axis": 1} if not kernel.row
                              else {"chunks": (hands.chunks[0], kernel.row)})
    return da.map_blocks(_block, kernel, names, shared, offsets, hands, *rows,
                         dtype=kernel.dtype, meta=np.empty((0,) + kernel.row, kernel.dtype),
                         name=f"mjfast-{name}", **layout)


def shanten(hands: da.Array, **options: Any) -> da.Array:
    """:func:`mjfast.shanten` per row: an (N,) int8 dask array.

    >>> import dask.array as da
    >>> from mjfast import parse_hand
    >>> shanten(da.from_array(parse_hand("123m456p789s11s23m")[None]), void_rule=False).compute()
    array([0], dtype=int8)
    """
    return apply("shanten", hands, **options)


def waits(hands: da.Array, **options: Any) -> da.Array:
    """:func:`mjfast.waits` per row: (N,) uint32 27-bit masks.

    >>> import dask.array as da
    >>> from mjfast import mask_to_tiles, parse_hand
    >>> mask_to_tiles(int(waits(da.from_array(parse_hand("1112345678999m")[None]))[0]))
    [0, 1, 2, 3, 4, 5, 6, 7, 8]
    """
    return apply("waits", hands, **options)


def is_win(hands: da.Array, **options: Any) -> da.Array:
    """:func:`mjfast.is_win` per row: (N,) bool.

    >>> import dask.array as da
    >>> from mjfast import parse_hand
    >>> is_win(da.from_array(parse_hand("11223344556677m")[None])).compute()
    array([ True])
    """
    return apply("is_win", hands, **options)


def effective_tiles(hands: da.Array, **options: Any) -> da.Array:
    """:func:`mjfast.effective_tiles` per row: (N, 27) int8, -1 where a kind is not effective.

    >>> import dask.array as da
    >>> from mjfast import parse_hand, parse_tile
    >>> eff = effective_tiles(da.from_array(parse_hand("123m456m789m23p55p")[None]),
    ...                       visible=parse_hand("4p"))
    >>> int(eff[0, parse_tile("1p")]), int(eff[0, parse_tile("4p")]), int(eff[0, 0])
    (4, 3, -1)
    """
    return apply("effective_tiles", hands, **options)


def discards(hands: da.Array, **options: Any) -> da.Array:
    """:func:`mjfast.discards` per row: (N, 27) int8, the shanten after each discard.

    >>> import dask.array as da
    >>> from mjfast import parse_hand, parse_tile
    >>> d = discards(da.from_array(parse_hand("123m456m789m23p55p9s")[None])).compute()
    >>> int(d[0, parse_tile("9s")]), int(d[0, parse_tile("1p")])
    (0, -128)
    """
    return apply("discards", hands, **options)


def fan(hands: da.Array, win_tiles: Any, **options: Any) -> da.Array:
    """:func:`mjfast.fan` per row: (N,) int16, -1 for a row that does not win.

    ``win_tiles``: one tile for every row, or one per row (a numpy or dask array).

    >>> import dask.array as da, numpy as np
    >>> from mjfast import parse_hand
    >>> h = da.from_array(np.stack([parse_hand("22244455577799m"), parse_hand("123333m45566799s")]),
    ...                   chunks=(1, 27))
    >>> fan(h, np.array([8, 26])).compute().tolist()
    [3, 1]
    """
    return apply("fan", hands, win_tiles, **options)


def max_fan(hands: da.Array, *, best_wait: bool = False,
            **options: Any) -> da.Array | tuple[da.Array, da.Array]:
    """:func:`mjfast.max_fan` per row: (N,) int16 大叫 fan, -1 when not ready; with
    ``best_wait=True`` also the (N,) int8 wait giving it, from the same tasks.

    >>> import dask.array as da
    >>> from mjfast import parse_hand
    >>> f, best = max_fan(da.from_array(parse_hand("2224445557779m")[None]), best_wait=True)
    >>> int(f[0]), int(best[0])
    (3, 8)
    """
    if best_wait is False:
        return apply("max_fan", hands, **options)
    pair = _apply(_MAX_FAN_PAIR, "max_fan", hands, (), options)
    return pair[:, 0], pair[:, 1].astype(np.int8)


def _forecast_packed(hands: np.ndarray, *, per_discard: bool, **options: Any) -> np.ndarray:
    """One block's :func:`mjfast.forecast.forecast` as one float64 row per hand: ready, win,
    value (per discard with ``per_discard``), then best_discard and is_win."""
    f = np_forecast(hands, **options)
    n, k, t = hands.shape[0], 27 if per_discard else 1, f.draws
    if n == 0:  # the eager check of the options
        return np.empty((0, 2 * k * t + k + 2 * per_discard))
    if f.complete != per_discard:
        raise InvalidHandError(
            f"hands[0]: {'one more tile' if f.complete else 'one tile fewer'} than "
            f"per_discard={per_discard} takes (3 * sets + {2 if per_discard else 1} - 3m)")
    cols = [f.ready.reshape(n, k * t), f.win.reshape(n, k * t), np.reshape(f.value, (n, k))]
    if per_discard:
        cols += [np.asarray(f.best_discard).reshape(n, 1), np.asarray(f.is_win).reshape(n, 1)]
    return np.concatenate(cols, axis=1, dtype=np.float64)


def forecast(hands: da.Array, *, draws: int, per_discard: bool = False,
             **options: Any) -> dict[str, da.Array]:
    """:func:`mjfast.forecast.forecast` per row, lazily: a dict of dask arrays in the row chunks
    of ``hands``, ``ready`` and ``win`` (N, T), ``value`` (N,) for 13 - 3m rows; with
    ``per_discard=True`` (14 - 3m rows, every legal discard) ``ready``/``win`` (N, 27, T),
    ``value`` (N, 27), ``best_discard`` (N,) int8 and ``is_win`` (N,) bool. The size must be
    known before computing, hence ``per_discard``; a row of the other size fails at compute time.
    One task computes every array of its rows.

    >>> import dask.array as da
    >>> from mjfast import parse_hand
    >>> f = forecast(da.from_array(parse_hand("123m456m789m23p55p")[None]), draws=2)
    >>> f["win"].compute().round(4).tolist()
    [[0.0842, 0.1613]]
    >>> f = forecast(da.from_array(parse_hand("123m456m789m23p55p9s")[None]), draws=3,
    ...              per_discard=True)
    >>> int(f["best_discard"][0]), f["ready"].shape
    (26, (1, 27, 3))
    """
    t = as_int(draws, "draws", minimum=0)
    wide = as_flag(per_discard, "per_discard")
    k = 27 if wide else 1
    kernel = Kernel(_forecast_packed, np.float64, (2 * k * t + k + 2 * wide,))
    packed = _apply(kernel, "forecast", hands, (),
                    {**options, "draws": t, "per_discard": wide})
    curve = (27, t) if wide else (t,)
    width = 2 * k * t + k + 2 * wide
    out = {"ready": _columns_of(packed, 0, curve), "win": _columns_of(packed, k * t, curve),
           "value": _columns_of(packed, 2 * k * t, (27,) if wide else ())}
    if wide:
        out["best_discard"] = _columns_of(packed, width - 2, (), np.int8)
        out["is_win"] = _columns_of(packed, width - 1, (), np.bool_)
    return out


def _unpack(block: np.ndarray, start: int, shape: tuple[int, ...], dtype: type) -> np.ndarray:
    size = math.prod(shape)
    return block[:, start:start + size].reshape((block.shape[0], *shape)).astype(dtype, copy=False)


def _columns_of(packed: da.Array, start: int, shape: tuple[int, ...],
                dtype: type = np.float64) -> da.Array:
    """Columns ``start``.. of the packed blocks as (N, *shape), block by block (a dask reshape
    would need known chunk sizes, and divides by zero on zero columns at draws=0)."""
    return da.map_blocks(_unpack, packed, start, shape, dtype, dtype=dtype,
                             chunks=(packed.chunks[0], *shape), meta=np.empty((0, *shape), dtype),
                             drop_axis=[] if shape else 1, new_axis=list(range(2, 1 + len(shape))))


# --------------------------------------------------------------------------------- dataframes

def result_columns(name: str) -> list[str]:
    """The columns a kernel's result takes: its name, or ``NAME_c0``..``NAME_c26`` per kind.

    >>> result_columns("shanten"), result_columns("discards")[:2]
    (['shanten'], ['discards_c0', 'discards_c1'])
    """
    return [name] if not KERNELS[name].row else [f"{name}_c{k}" for k in range(27)]


def _partition_counts(part: pd.DataFrame, hand: str | None,
                      coerce: bool) -> np.ndarray:
    """(n, 27) counts of a partition; a string that is not a hand raises, or with ``coerce``
    becomes a row the kernels mark as bad (a count of 5)."""
    if hand is None:
        return np.ascontiguousarray(part[list(COUNT_COLUMNS)].to_numpy())
    texts = part[hand].tolist()
    lines = [t.encode("utf-8", "surrogateescape") if isinstance(t, str) else b"" for t in texts]
    counts, errors = parse_lines(lines)
    errors.update((i, "no hand (null)") for i, t in enumerate(texts) if not isinstance(t, str))
    if errors and not coerce:
        i = min(errors)
        raise InvalidArgumentError(f"hands[{part.index[i]!r}]: {errors[i]}")
    counts[list(errors), 0] = 5
    return counts


def _add_columns(part: pd.DataFrame, what: tuple[str, ...], hand: str | None,
                 columns: Mapping[str, str], options: dict[str, Any]) -> pd.DataFrame:
    """One partition with the result columns added; each kernel gets the options it takes."""
    counts = _partition_counts(part, hand, options.get("errors") == "coerce")
    given = {**options, **{opt: part[col].to_numpy() for opt, col in columns.items()}}
    out = part.copy()
    for name in what:
        kernel = KERNELS[name]
        kw = {k: v for k, v in given.items() if kernel.takes(k)}
        args = [kw.pop(k) for k in kernel.positional]
        res: np.ndarray = np.asarray(kernel.func(counts, *args, workers=1, **kw), kernel.dtype)
        if kernel.row:
            out[result_columns(name)] = pd.DataFrame(res, index=part.index)
        else:
            out[name] = res
    return out


def map_partitions(df: dd.DataFrame | pd.DataFrame, what: str | Iterable[str], *,
                   hand: str | None = None, columns: Mapping[str, str] | None = None,
                   **options: Any) -> dd.DataFrame | pd.DataFrame:
    """``df`` with result columns added, one task per partition (a pandas frame works too).

    Hands are the string column ``hand`` (mpsz or any notation :func:`mjfast.parse_hand` reads;
    by default the column ``hand``) or the 27 count columns ``c0``..``c26`` (used when all are
    present and ``hand`` is not given). ``what``: kernel names of :data:`KERNELS`; each adds a
    column of its name, or 27 columns ``NAME_c0``..``NAME_c26`` (:func:`result_columns`).
    ``options`` are the numpy API's, one value for every row, each passed to the kernels that
    take it; ``columns`` maps a per-row option to a column of ``df``, e.g.
    ``{"win_tiles": "win"}`` for :func:`fan`. With ``errors="coerce"`` a bad row (a string that
    is not a hand too) gets the numpy API's marks. Checked at once on an empty frame.

    >>> import pandas as pd
    >>> frame = pd.DataFrame({"hand": ["123m456m789m11p23p", "1112345678999m", "x"]})
    >>> out = map_partitions(frame, ["shanten", "max_fan"], errors="coerce")
    >>> out[["shanten", "max_fan"]].to_numpy().tolist()
    [[0, 0], [0, 3], [-100, -100]]
    """
    names = (what,) if isinstance(what, str) else tuple(what)
    if not names:
        raise InvalidArgumentError("what: expected at least one kernel name")
    names = tuple(dict.fromkeys(as_choice(w, "what", tuple(KERNELS)) for w in names))
    columns = dict(columns or {})
    for opt in ("workers", "out", "best_wait", *columns):
        if opt in options:
            raise InvalidArgumentError(f"{opt}: not taken by map_partitions" + (
                " (it is given by columns=)" if opt in columns else ""))
    for opt, col in columns.items():
        if _ROW_NDIM.get(opt) != 1 or col not in df.columns:
            raise InvalidArgumentError(f"columns: {opt!r} -> {col!r} is not a per-row option "
                                       "(void_suit, win_tiles, a flag) from a column of df")
    for opt in (*options, *columns):
        if not any(KERNELS[n].takes(opt) for n in names):
            raise InvalidArgumentError(f"{opt}: none of {', '.join(names)} takes this option")
    for n in names:
        missing = [k for k in KERNELS[n].positional if k not in options and k not in columns]
        if missing:
            raise InvalidArgumentError(f"{n} needs {missing[0]}= (or columns={{{missing[0]!r}: "
                                       "column}})")
    hand = hand_column(list(df.columns), hand)
    args = (names, hand, columns, options)
    if isinstance(df, pd.DataFrame):
        return _add_columns(df, *args)
    meta = _add_columns(df._meta, *args)  # checks the options, and gives dask the result's columns
    return df.map_partitions(_add_columns, *args, meta=meta)
