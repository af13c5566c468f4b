"""Many hands at once: :func:`parse_lines` reads a batch of mpsz lines with numpy, and
:func:`hand_column` finds the hands in a table (Parquet, a dataframe).

Shared by ``mjfast batch`` (text, CSV and Parquet) and :mod:`mjfast.dask` (dataframes); a line
the fast path cannot read goes through :func:`mjfast.parse_hand`, which gives the error message.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .errors import InvalidArgumentError, TileParseError
from .tiles import parse_hand

__all__ = ["COUNT_COLUMNS", "hand_column", "parse_lines"]

COUNT_COLUMNS: tuple[str, ...] = tuple(f"c{k}" for k in range(27))
"""The 27 count columns of a table of hands (``c0`` = 1m .. ``c26`` = 9s)."""


def hand_column(columns: Sequence[str], hand: str | None = None) -> str | None:
    """Where a table holds its hands: the string column to read, or None for the count columns
    ``c0``..``c26``. ``hand`` names the string column; by default the count columns when all
    27 are there, else the column ``hand``.

    >>> hand_column(["id", "hand"]), hand_column(["hand", *COUNT_COLUMNS]), hand_column(["h"], "h")
    ('hand', None, 'h')
    """
    if hand is not None:
        if hand not in columns:
            raise InvalidArgumentError(f"hand: no column {hand!r} (columns: {shown_columns(columns)})")
        return hand
    if all(c in columns for c in COUNT_COLUMNS):
        return None
    if "hand" in columns:
        return "hand"
    raise InvalidArgumentError("expected a 'hand' column of tile strings or the 27 count columns "
                               f"c0..c26, got columns {shown_columns(columns)}")


def shown_columns(columns: Sequence[str]) -> str:
    """Column names for a message, the list cut after a few."""
    names = [str(c) for c in columns]
    return ", ".join(names[:8]) + (f", ... ({len(names)} in all)" if len(names) > 8 else "")

# The fast path reads plain mpsz text only; every other line goes to parse_hand.
_ALLOWED = np.zeros(256, bool)
_ALLOWED[list(b"123456789mps \t\r\x0b\x0c")] = True
_SUIT = np.full(256, -1, np.int16)
_SUIT[ord("m")], _SUIT[ord("p")], _SUIT[ord("s")] = 0, 1, 2


def _fast_counts(lines: Sequence[bytes]) -> tuple[np.ndarray, np.ndarray]:
    """Counts of every line of plain mpsz digits and suit letters, read at once with numpy,
    and a mask of the lines it leaves to :func:`mjfast.parse_hand`.

    The lines are joined with b"\\n", so a line that holds one itself (a quoted CSV field, a
    Parquet string) is left out of the join and sent to parse_hand: counting it here would
    shift every later line."""
    n = len(lines)
    slow = np.fromiter((b"\n" in x for x in lines), bool, n)
    joined = [b"" if s else x for x, s in zip(lines, slow.tolist())] if slow.any() else lines
    a = np.frombuffer(b"\n".join(joined) + b"\n", np.uint8)
    is_nl = a == 10
    line_of = np.cumsum(is_nl) - is_nl
    is_digit = (a >= 49) & (a <= 57)
    suit = _SUIT[a]
    is_suit = suit >= 0
    nxt_ok = np.zeros(a.size, bool)
    nxt_ok[:-1] = is_digit[1:] | is_suit[1:]
    prev_digit = np.zeros(a.size, bool)
    prev_digit[1:] = is_digit[:-1]
    bad = ~(_ALLOWED[a] | is_nl) | (is_digit & ~nxt_ok) | (is_suit & ~prev_digit)
    slow[line_of[bad]] = True
    pos = np.where(is_suit, np.arange(a.size), a.size - 1)
    next_suit = np.minimum.accumulate(pos[::-1])[::-1]
    digits = np.flatnonzero(is_digit & ~slow[line_of])
    kind = suit[next_suit[digits]].astype(np.intp) * 9 + (a[digits].astype(np.intp) - 49)
    flat = np.bincount(line_of[digits] * 27 + kind, minlength=n * 27).reshape(n, 27)
    slow |= (flat > 4).any(axis=1)  # a fifth copy: parse_hand words the error
    return flat, slow


def parse_lines(lines: Sequence[bytes]) -> tuple[np.ndarray, dict[int, str]]:
    """Parse hand strings (UTF-8 bytes, one per item) into (n, 27) uint8 counts.

    Lines of plain mpsz digits and suit letters are parsed at once with numpy; any other line
    (Chinese or Unicode tiles, or a mistake) goes through :func:`mjfast.parse_hand`, which gives
    the error message. Returns the counts (zero rows where parsing failed) and ``{index: message}``.

    >>> from mjfast import format_hand
    >>> c, err = parse_lines([b"123m 55p", b"1z", "1筒".encode()])
    >>> format_hand(c[0]), format_hand(c[2])
    ('123m55p', '1p')
    >>> err
    {1: "position 1 of '1z': honour tiles (z) are not used in Sichuan mahjong (only m, p, s)"}
    """
    n = len(lines)
    counts = np.zeros((n, 27), np.uint8)
    errors: dict[int, str] = {}
    if n == 0:
        return counts, errors
    flat, slow = _fast_counts(lines)
    counts[~slow] = flat[~slow]
    for i in np.flatnonzero(slow):
        try:
            counts[i] = parse_hand(lines[int(i)].decode("utf-8"))
        except UnicodeDecodeError:
            errors[int(i)] = "not valid UTF-8 text"
        except TileParseError as exc:
            errors[int(i)] = str(exc)
    return counts, errors
