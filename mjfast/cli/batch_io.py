"""Input of ``mjfast batch``: hands read once, front to back, in chunks bounded by rows and bytes.

An input is read with plain reads, never a memory map (a file that shrinks under a map kills
the process with SIGBUS), and only once, so pipes, FIFOs and standard input (``-``) work like
files. It is an (N, 27) ``.npy`` array (by its name, or by its first bytes) or text, one hand
per line (a ``.csv`` file: the first field, read with the csv module's quoting). A UTF-8 BOM is
dropped; a line over :data:`LINE_MAX` bytes is a bad row, skipped without being held.
:class:`Input` gives :class:`Rows` (counts, input positions, per-row errors).
"""

from __future__ import annotations

import csv
import os
import sys
from collections.abc import Iterator
from types import TracebackType
from typing import BinaryIO

import numpy as np

from mjfast._args import hand_bytes
from mjfast._lines import parse_lines
from mjfast.errors import InvalidHandError

from .common import CLIError

__all__ = ["CHUNK_BYTES", "LINE_MAX", "NOT_READY", "Input", "Rows", "count_rows", "parse_lines"]

NOT_READY = -1
"""What the ``max_fan`` column holds for a hand that is not ready."""

CHUNK_BYTES = 1 << 20
"""Input bytes per chunk at most: parsing takes tens of times a chunk's text in memory."""

LINE_MAX = 1 << 16
"""The longest line read; a hand is a few dozen bytes, a CSV row with notes a few hundred."""

_BLOCK = 1 << 20  # bytes per read of a text input
_NPY_MAGIC = b"\x93NUMPY"
_BOM = b"\xef\xbb\xbf"
_TOO_LONG = f"too long: over {LINE_MAX:,} bytes (a hand is a few dozen)"


class Rows:
    """One chunk of input: counts, the input position of each row, and per-row errors."""

    def __init__(self, counts: np.ndarray, where: np.ndarray, errors: dict[int, str]) -> None:
        self.counts, self.where, self.errors = counts, where, errors


# ------------------------------------------------------------------------------ the stream

class Source:
    """An input opened once: a file, a FIFO or standard input (``-``, named ``<stdin>``).

    ``read(n)`` gives n bytes, fewer only at the end of the input; an OSError becomes
    ``cannot read NAME: reason``. ``head`` is the first bytes, kept to tell .npy from text.
    """

    def __init__(self, path: str) -> None:
        self.name = "<stdin>" if path == "-" else path
        self._head, self._own = b"", path != "-"
        try:
            if self._own:
                self.stream: BinaryIO = open(path, "rb")  # closed by close()
            elif sys.stdin is None:
                raise OSError("standard input is closed")
            else:
                self.stream = sys.stdin.buffer
        except OSError as exc:
            raise self._error(exc) from None
        self.head = self._head = self.read(len(_NPY_MAGIC))

    def _error(self, exc: OSError) -> CLIError:
        return CLIError(f"cannot read {self.name}: {exc.strerror or exc}")

    def read(self, n: int = -1, /) -> bytes:
        """n bytes (n < 0: all that is left), fewer only at the end of the input."""
        head = self._head if n < 0 else self._head[:n]
        self._head = self._head[len(head):]
        if len(head) == n:
            return head
        try:
            return head + self.stream.read(n if n < 0 else n - len(head))
        except OSError as exc:
            raise self._error(exc) from None

    def pread(self, n: int, offset: int) -> bytes:
        """n bytes at ``offset`` (fewer past the end), for a seekable file."""
        try:
            return os.pread(self.stream.fileno(), n, offset)
        except OSError as exc:
            raise self._error(exc) from None

    def close(self) -> None:
        if self._own:
            self.stream.close()


# ------------------------------------------------------------------------------------- .npy

def _npy_header(src: Source) -> tuple[tuple[int, ...], bool, np.dtype]:
    """(shape, Fortran order, dtype) of a .npy stream, checked to be (N, 27) integer counts."""
    fmt = np.lib.format
    if not src.head:
        raise CLIError(f"{src.name}: not a readable .npy array: the file is empty")
    try:
        version = fmt.read_magic(src)
        if version not in ((1, 0), (2, 0)):
            raise ValueError(f"unsupported .npy format version {version}")
        read = fmt.read_array_header_1_0 if version == (1, 0) else fmt.read_array_header_2_0
        shape, fortran, dtype = read(src)
    except (ValueError, TypeError, SyntaxError) as exc:
        raise CLIError(f"{src.name}: not a readable .npy array: {exc}") from None
    if len(shape) != 2 or shape[1] != 27:
        raise CLIError(f"{src.name}: expected an (N, 27) array of tile counts, got shape {shape}")
    if dtype.kind not in "iu":
        raise CLIError(f"{src.name}: expected an integer dtype (uint8), got {dtype}")
    return shape, fortran, dtype


def _count_error(row: np.ndarray) -> str:
    """The library's words for a row with a count outside 0..4."""
    try:
        hand_bytes(row, "row")
    except InvalidHandError as exc:
        return str(exc).partition(": ")[2]
    raise AssertionError("a row with a bad count passed the check")  # pragma: no cover


def count_rows(block: np.ndarray, start: int) -> Rows:
    """Rows of counts from ``start``; a count outside 0..4 makes a bad row."""
    errors: dict[int, str] = {}
    if block.dtype != np.uint8:
        out_of_range = (block < 0) | (block > 4)
        for i in np.flatnonzero(out_of_range.any(axis=1)):
            errors[int(i)] = _count_error(block[i])
        block = np.where(out_of_range, 0, block)
    return Rows(np.ascontiguousarray(block, dtype=np.uint8),
                np.arange(start, start + block.shape[0]), errors)


def _npy_rows(src: Source, n: int, dtype: np.dtype, chunk: int, base: int | None) -> Iterator[Rows]:
    """The rows of an (n, 27) .npy stream after its header; a short read is a truncated file.

    A Fortran-order array (``base``: the offset of its data) is read column by column, 27
    reads at known offsets a chunk."""
    width = 27 * dtype.itemsize
    step = max(1, min(chunk, CHUNK_BYTES // width))
    for start in range(0, n, step):
        rows = min(step, n - start)
        if base is None:
            data = src.read(rows * width)
        else:
            data = b"".join(src.pread(rows * dtype.itemsize, base + (j * n + start) * dtype.itemsize)
                            for j in range(27))
        if len(data) < rows * width:
            got = start if base is not None else start + len(data) // width
            raise CLIError(f"cannot read {src.name}: its data ends after {got:,} of {n:,} rows "
                           "(truncated?)")
        block = np.frombuffer(data, dtype)
        yield count_rows(block.reshape(rows, 27) if base is None else block.reshape(27, rows).T,
                          start)


def _open_npy(src: Source, chunk: int) -> tuple[int, Iterator[Rows]]:
    """(rows in all, the chunks) of a .npy stream, its header read and checked."""
    shape, fortran, dtype = _npy_header(src)
    if fortran and not src.stream.seekable():
        raise CLIError(f"{src.name}: a Fortran-order .npy must be a seekable file, not a pipe "
                       "(save it in C order: np.ascontiguousarray)")
    base = src.stream.tell() if fortran else None
    return shape[0], _npy_rows(src, shape[0], dtype, chunk, base)


# ------------------------------------------------------------------------------------- text

def _physical_lines(src: Source) -> Iterator[tuple[list[bytes], list[int]]]:
    """The lines of a text stream (without b"\\n"), a block at a time, and the indices in the
    block of lines over LINE_MAX bytes: those are left empty, their bytes dropped unread."""
    pending, overlong = b"", False  # the line not yet ended; whether it is already too long
    data = src.read(_BLOCK)
    if data.startswith(_BOM):
        data = data[len(_BOM):] or src.read(_BLOCK)
    while data:
        parts = data.split(b"\n")
        tail = parts.pop()
        if parts:
            parts[0] = b"" if overlong else pending + parts[0]
            long = [0] if overlong else []
            if max(map(len, parts)) > LINE_MAX:
                long = sorted({*long, *(i for i, x in enumerate(parts) if len(x) > LINE_MAX)})
                for i in long:
                    parts[i] = b""
            pending, overlong = b"", False
            yield parts, long
        if not overlong:
            pending += tail
            if len(pending) > LINE_MAX:
                pending, overlong = b"", True
        data = src.read(_BLOCK)
    if pending or overlong:
        yield [pending], [0] if overlong else []


_Batch = tuple[list[bytes], np.ndarray, dict[int, str]]
"""Hand texts, their line numbers, and ``{index: error}`` of the lines that have no hand."""

_CSV_BATCH = 4096  # CSV rows per batch


def _text_batches(src: Source) -> Iterator[_Batch]:
    """The hands of a plain text stream (every non-blank line), a block at a time."""
    lineno = 0
    for lines, long in _physical_lines(src):
        texts = [x.strip() for x in lines]
        for i in long:
            texts[i] = b"-"  # kept: a bad row
        where = np.flatnonzero(np.fromiter(map(len, texts), np.intp, len(texts))) + lineno + 1
        hands = list(filter(None, texts))
        errors: dict[int, str] = {}
        for i in long:
            k = int(np.searchsorted(where, lineno + 1 + i))
            hands[k], errors[k] = b"", _TOO_LONG
        lineno += len(lines)
        yield hands, where, errors


def _csv_batches(src: Source) -> Iterator[_Batch]:
    """The hands of a CSV stream (the first field of each row with one), a few thousand rows at
    a time; a first row whose first field is ``hand`` is a header. Bytes that are not UTF-8
    are kept, so the parser reports them."""
    too_long: set[int] = set()

    def text_lines() -> Iterator[str]:
        n = 0
        for lines, long in _physical_lines(src):
            too_long.update(n + 1 + i for i in long)
            n += len(lines)
            for line in lines:
                yield line.decode("utf-8", "surrogateescape") + "\n"

    reader = csv.reader(text_lines(), skipinitialspace=True)
    hands: list[bytes] = []
    where: list[int] = []
    errors: dict[int, str] = {}
    start, header = 1, True
    while True:
        try:
            row, error = next(reader, None), None
        except csv.Error as exc:
            row, error = [], f"not valid CSV: {exc}"
        if row is None or len(hands) == _CSV_BATCH:
            yield hands, np.array(where, np.intp), errors
            hands, where, errors = [], [], {}
        if row is None:
            return
        lineno, start = start, reader.line_num + 1
        error = _TOO_LONG if lineno in too_long else error
        hand = row[0].strip() if row else ""
        if error is not None:
            errors[len(hands)] = error
        if error is not None or (hand and not (header and hand.lower() == "hand")):
            hands.append(b"" if error else hand.encode("utf-8", "surrogateescape"))
            where.append(lineno)
        header = header and not (hand or error)


def _text_rows(batches: Iterator[_Batch], chunk: int) -> Iterator[Rows]:
    """Parsed chunks of at most ``chunk`` rows and CHUNK_BYTES bytes of hand text (a line
    holds at most LINE_MAX)."""
    texts: list[bytes] = []
    where: list[np.ndarray] = []
    errors: dict[int, str] = {}
    size = 0
    for hands, lines, errs in batches:
        ends = np.cumsum(np.fromiter(map(len, hands), np.int64, len(hands)))
        bad, j, pos = sorted(errs.items()), 0, 0
        while pos < len(hands):
            fit = int(np.searchsorted(ends, ends[pos] - len(hands[pos]) + CHUNK_BYTES - size,
                                      "right")) - pos
            take = min(len(hands) - pos, chunk - len(texts), fit if texts else max(fit, 1))
            while j < len(bad) and bad[j][0] < pos + take:
                errors[len(texts) + bad[j][0] - pos] = bad[j][1]
                j += 1
            texts += hands[pos:pos + take]
            where.append(lines[pos:pos + take])
            size += sum(map(len, hands[pos:pos + take]))
            pos += take
            if pos < len(hands) or len(texts) == chunk:  # full: rows or bytes
                yield _parsed(texts, where, errors)
                texts, where, errors, size = [], [], {}, 0
    if texts:
        yield _parsed(texts, where, errors)


def _parsed(texts: list[bytes], where: list[np.ndarray], errors: dict[int, str]) -> Rows:
    counts, parse_errors = parse_lines(texts)
    return Rows(counts, np.concatenate(where), {**parse_errors, **errors})


# ------------------------------------------------------------------------------------ input

class Input:
    """``path`` (``-``: standard input) opened to be read in chunks of at most ``chunk`` rows:
    ``rows`` (the chunks), ``total`` (rows in all; None for text, where it is known only at
    the end), ``pos_name`` (what a position is called: row or line) and ``name`` (of the
    input, for messages). A context manager that closes the stream."""

    def __init__(self, path: str, chunk: int) -> None:
        self.source = src = Source(path)
        self.name = src.name
        self.rows: Iterator[Rows]
        self.total: int | None
        if path.lower().endswith(".npy") or src.head == _NPY_MAGIC:
            try:
                self.total, self.rows = _open_npy(src, chunk)
            except BaseException:
                src.close()
                raise
            self.pos_name = "row"
        else:
            csv_file = path.lower().endswith(".csv")
            self.total, self.pos_name = None, "line"
            self.rows = _text_rows((_csv_batches if csv_file else _text_batches)(src), chunk)

    def __enter__(self) -> Input:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.source.close()

