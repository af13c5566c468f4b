"""Input and output of ``mjfast batch``: hands read in chunks, results written as they come.

Readers give :class:`Rows` (counts, input positions, per-row errors): :func:`text_rows` for text
and CSV files (one hand per line, parsed by :func:`parse_lines`) and :func:`npy_rows` for an
(N, 27) ``.npy`` array read with mmap. Writers take the computed columns: :class:`NpyWriter`
(``.npy``) and :class:`TextWriter` (``.csv`` / ``.jsonl``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from mjfast._args import hand_bytes
from mjfast.errors import InvalidHandError, TileParseError
from mjfast.tiles import Style, format_tile, parse_hand

from .common import CLIError

__all__ = [
    "NOT_READY",
    "NpyWriter",
    "Rows",
    "TextWriter",
    "count_text_rows",
    "npy_rows",
    "open_npy",
    "parse_lines",
    "text_rows",
]

NOT_READY = -1
"""What the ``max_fan`` column holds for a hand that is not ready."""

_NPY_FIELDS = {"shanten": ("i1", ()), "waits": ("<u4", ()), "effective": ("i1", (27,)),
               "max_fan": ("<i2", ())}


class Rows:
    """One chunk of input: counts, the input position of each row, and per-row parse errors."""

    def __init__(self, counts: np.ndarray, where: np.ndarray, errors: dict[int, str]) -> None:
        self.counts, self.where, self.errors = counts, where, errors


# The fast path reads plain mpsz text only; every other line goes to parse_hand.
_ALLOWED = np.zeros(256, bool)
_ALLOWED[list(b"123456789mps \t\r\n\x0b\x0c")] = True
_SUIT = np.full(256, -1, np.int16)
_SUIT[ord("m")], _SUIT[ord("p")], _SUIT[ord("s")] = 0, 1, 2
_WS = b" \t\r\n\x0b\x0c"


def _fast_counts(lines: Sequence[bytes]) -> tuple[np.ndarray, np.ndarray]:
    """Counts of every line of plain mpsz digits and suit letters, read at once with numpy,
    and a mask of the lines it leaves to :func:`mjfast.parse_hand`."""
    n = len(lines)
    a = np.frombuffer(b"\n".join(lines) + b"\n", np.uint8)
    is_nl = a == 10
    line_of = np.cumsum(is_nl) - is_nl
    is_digit = (a >= 49) & (a <= 57)
    suit = _SUIT[a]
    is_suit = suit >= 0
    nxt_ok = np.zeros(a.size, bool)
    nxt_ok[:-1] = is_digit[1:] | is_suit[1:]
    prev_digit = np.zeros(a.size, bool)
    prev_digit[1:] = is_digit[:-1]
    bad = ~_ALLOWED[a] | (is_digit & ~nxt_ok) | (is_suit & ~prev_digit)
    slow = np.zeros(n, bool)
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


def _hand_text(line: bytes, csv: bool) -> bytes:
    """The hand of one input line: the whole line, or a CSV file's first field."""
    return line.split(b",", 1)[0].strip().strip(b'"').strip() if csv else line.strip(_WS)


def _hand_lines(path: str) -> Iterator[tuple[int, bytes]]:
    """(line number, hand text) of every hand of a text or CSV file.

    Blank lines are skipped; in a ``.csv`` file the hand is the first field (quotes stripped)
    and a first row whose first field is ``hand`` is a header.
    """
    csv = path.lower().endswith(".csv")
    first = True
    with open(path, "rb") as f:
        for lineno, line in enumerate(f, 1):
            text = _hand_text(line, csv)
            if not text:
                continue
            if first:
                first = False
                if csv and text.lower() == b"hand":
                    continue
            yield lineno, text


def text_rows(path: str, chunk: int) -> Iterator[Rows]:
    """The hands of a text or CSV file, ``chunk`` lines at a time."""
    batch: list[bytes] = []
    where: list[int] = []
    for lineno, text in _hand_lines(path):
        batch.append(text)
        where.append(lineno)
        if len(batch) == chunk:
            yield _rows(batch, where)
            batch, where = [], []
    if batch:
        yield _rows(batch, where)


def _rows(batch: list[bytes], where: list[int]) -> Rows:
    counts, errors = parse_lines(batch)
    return Rows(counts, np.array(where), errors)


def count_text_rows(path: str) -> int:
    """How many hands :func:`text_rows` will give (for the progress bar and the .npy size)."""
    return sum(1 for _ in _hand_lines(path))


def open_npy(path: str) -> np.ndarray:
    """An (N, 27) integer array of tile counts, memory-mapped."""
    try:
        arr = np.load(path, mmap_mode="r", allow_pickle=False)
    except FileNotFoundError:
        raise CLIError(f"{path}: no such file") from None
    except (OSError, ValueError) as exc:
        raise CLIError(f"{path}: not a readable .npy array: {exc}") from None
    if not isinstance(arr, np.ndarray) or arr.ndim != 2 or arr.shape[1] != 27:
        raise CLIError(f"{path}: expected an (N, 27) array of tile counts, got shape "
                       f"{getattr(arr, 'shape', '?')}")
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise CLIError(f"{path}: expected an integer dtype (uint8), got {arr.dtype}")
    return arr


def _count_error(row: np.ndarray) -> str:
    """The library's words for a row with a count outside 0..4."""
    try:
        hand_bytes(row, "row")
    except InvalidHandError as exc:
        return str(exc).partition(": ")[2]
    raise AssertionError("a row with a bad count passed the check")  # pragma: no cover


def npy_rows(arr: np.ndarray, chunk: int) -> Iterator[Rows]:
    """The rows of an (N, 27) array, ``chunk`` at a time; counts outside 0..4 are bad rows."""
    for start in range(0, arr.shape[0], chunk):
        block = np.asarray(arr[start:start + chunk])
        errors: dict[int, str] = {}
        if block.dtype != np.uint8:
            out_of_range = (block < 0) | (block > 4)
            for i in np.flatnonzero(out_of_range.any(axis=1)):
                errors[int(i)] = _count_error(block[i])
            block = np.where(out_of_range, 0, block)
        yield Rows(np.ascontiguousarray(block, dtype=np.uint8),
                   np.arange(start, start + block.shape[0]), errors)


class NpyWriter:
    """A .npy written in place (``open_memmap``): one plain array for one quantity, else a
    structured array with one field per quantity."""

    def __init__(self, path: str, what: Sequence[str], n: int) -> None:
        self.what = list(what)
        if len(what) == 1:
            base, shape = _NPY_FIELDS[what[0]]
            dtype, full = np.dtype(base), (n, *shape)
        else:
            dtype, full = np.dtype([(w, *_NPY_FIELDS[w]) for w in what]), (n,)
        self.out = np.lib.format.open_memmap(path, mode="w+", dtype=dtype, shape=full)
        self.pos = 0

    def write(self, rows: Rows, cols: dict[str, np.ndarray], errors: dict[int, str]) -> None:
        """Append one chunk (bad rows hold the sentinels already; ``errors`` are not stored)."""
        del errors  # the .npy has no room for them
        n = rows.counts.shape[0]
        sl = slice(self.pos, self.pos + n)
        if len(self.what) == 1:
            self.out[sl] = cols[self.what[0]]
        else:
            for w in self.what:
                self.out[w][sl] = cols[w]
        self.pos += n

    def close(self) -> None:
        self.out.flush()
        del self.out


class TextWriter:
    """CSV (header + one row per hand) or JSON Lines; tiles in the chosen style."""

    def __init__(self, path: str, what: Sequence[str], pos_name: str, style: Style,
                 jsonl: bool) -> None:
        self.what, self.pos_name, self.jsonl = list(what), pos_name, jsonl
        self.f = open(path, "w", encoding="utf-8", newline="")  # closed by close()
        if not self.jsonl:
            self.f.write(",".join([pos_name, *self.what, "error"]) + "\n")
        self.names = [format_tile(k, style) for k in range(27)]

    def _record(self, where: int, values: dict[str, Any], err: str | None) -> dict[str, Any]:
        """One hand's JSON record: tiles by name, None for a bad row or a hand not ready."""
        rec: dict[str, Any] = {self.pos_name: where}
        for w in self.what:
            v = values[w]
            if err is not None:
                v = None
            elif w == "waits":
                v = [self.names[t] for t in range(27) if v >> t & 1]
            elif w == "effective":
                v = {self.names[k]: c for k, c in enumerate(v) if c >= 0}
            elif w == "max_fan" and v == NOT_READY:
                v = None
            rec[w] = v
        if err is not None:
            rec["error"] = err
        return rec

    def _csv_line(self, rec: dict[str, Any]) -> str:
        cells = [str(rec[self.pos_name])]
        for w in self.what:
            v = rec[w]
            if v is None:
                cells.append("")
            elif w == "waits":
                cells.append(" ".join(v))
            elif w == "effective":
                cells.append(" ".join(f"{k}:{c}" for k, c in v.items()))
            else:
                cells.append(str(v))
        err = rec.get("error")
        cells.append("" if err is None else '"' + err.replace('"', '""') + '"')
        return ",".join(cells)

    def write(self, rows: Rows, cols: dict[str, np.ndarray], errors: dict[int, str]) -> None:
        """Append one chunk; a bad row gets empty values and its error."""
        lists = {w: cols[w].tolist() for w in self.what}
        out = []
        for i, where in enumerate(rows.where.tolist()):
            rec = self._record(where, {w: lists[w][i] for w in self.what}, errors.get(i))
            out.append(json.dumps(rec, ensure_ascii=False) if self.jsonl else self._csv_line(rec))
        if out:
            self.f.write("\n".join(out) + "\n")

    def close(self) -> None:
        self.f.close()
