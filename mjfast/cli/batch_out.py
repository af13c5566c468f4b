"""Output of ``mjfast batch``: results written as they come to ``OUT.part`` with plain, checked
writes, renamed to OUT once every row is written.

No memory map: a full disk or a file size limit is an OSError here (a bus error under a map),
reported as ``cannot write OUT: reason`` with the .part removed. :class:`NpyWriter` writes a
``.npy`` whose row count, unknown until a streamed input ends, is patched into its fixed-size
header at the end; :class:`TextWriter` writes ``.csv`` or ``.jsonl``; :class:`NpzWriter` writes
the arrays of ``--what forecast`` into a ``.npz``.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import shutil
import tempfile
import zipfile
from collections.abc import Sequence
from typing import Any

import numpy as np

from mjfast.tiles import Style, format_tile

from .batch_io import NOT_READY, Rows
from .common import CLIError

__all__ = ["NpyWriter", "NpzWriter", "TextWriter", "Writer"]

# OUT.part paths not yet renamed or removed. A path is listed before its file is opened, so a
# Ctrl-C at any point (even before the writer exists for the caller to discard) leaves no
# OUT.part: whatever is still listed is removed at exit.
_PENDING: set[str] = set()


@atexit.register
def _remove_pending() -> None:
    for part in list(_PENDING):
        with contextlib.suppress(OSError):
            os.remove(part)
        _PENDING.discard(part)


_NPY_FIELDS = {"shanten": ("i1", ()), "waits": ("<u4", ()), "effective": ("i1", (27,)),
               "max_fan": ("<i2", ())}


class Writer:
    """``OUT.part`` opened for writing; :meth:`finish` completes it and renames it to OUT,
    :meth:`discard` removes it. Every OSError is ``cannot write OUT: reason``."""

    def __init__(self, path: str, head: bytes) -> None:
        """Create OUT.part and write ``head`` (what comes before the rows)."""
        self.path, self.part = path, path + ".part"
        _PENDING.add(self.part)
        try:
            self.f = open(self.part, "wb")  # closed by finish() or discard()
        except OSError as exc:
            _PENDING.discard(self.part)  # not ours to remove
            raise self._error(exc) from None
        try:
            self._put(head)
        except BaseException:
            self.discard()
            raise

    def _error(self, exc: OSError) -> CLIError:
        return CLIError(f"cannot write {self.path}: {exc.strerror or exc}")

    def _put(self, data: bytes) -> None:
        try:
            self.f.write(data)
        except OSError as exc:
            raise self._error(exc) from None

    def write(self, rows: Rows, cols: dict[str, np.ndarray], errors: dict[int, str]) -> None:
        """Append one chunk: the columns of ``rows``, and the error of each bad row."""
        raise NotImplementedError

    def _end(self) -> None:
        """What the format writes once every row is in."""

    def finish(self) -> None:
        """Complete the file and rename it to OUT."""
        try:
            self._end()
            self.f.close()
            os.replace(self.part, self.path)
            _PENDING.discard(self.part)
        except OSError as exc:
            self.discard()
            raise self._error(exc) from None

    def discard(self) -> None:
        """Close and remove OUT.part (after an error or an interrupt)."""
        with contextlib.suppress(OSError):
            self.f.close()  # a failed flush still closes the file
        with contextlib.suppress(OSError):
            os.remove(self.part)
        _PENDING.discard(self.part)


class NpyWriter(Writer):
    """A .npy of one plain array for one quantity, else a structured array with one field per
    quantity. The header is written first with 0 rows and rewritten at the end."""

    def __init__(self, path: str, what: Sequence[str]) -> None:
        self.what = list(what)
        if len(what) == 1:
            base, self.row_shape = _NPY_FIELDS[what[0]]
            self.dtype = np.dtype(base)
        else:
            self.dtype = np.dtype([(w, *_NPY_FIELDS[w]) for w in what])
            self.row_shape = ()
        # The same length for any row count, padded to the 64-byte alignment of np.save.
        self.header_len = -(-(len(self._dict(2**63 - 1)) + 11) // 64) * 64
        self.n = 0
        super().__init__(path, self._header())

    def _dict(self, n: int) -> bytes:
        descr = np.lib.format.dtype_to_descr(self.dtype)
        return repr({"descr": descr, "fortran_order": False, "shape": (n, *self.row_shape)}).encode()

    def _header(self) -> bytes:
        text = self._dict(self.n)
        return b"\x93NUMPY\x01\x00" + (self.header_len - 10).to_bytes(2, "little") + \
            text.ljust(self.header_len - 11) + b"\n"

    def write(self, rows: Rows, cols: dict[str, np.ndarray], errors: dict[int, str]) -> None:
        """Append one chunk (bad rows hold the sentinels already; ``errors`` are not stored)."""
        del errors  # the .npy has no room for them
        if len(self.what) == 1:
            block = np.ascontiguousarray(cols[self.what[0]], self.dtype)
        else:
            block = np.empty(rows.counts.shape[0], self.dtype)
            for w in self.what:
                block[w] = cols[w]
        self._put(block.tobytes())
        self.n += block.shape[0]

    def _end(self) -> None:
        self.f.seek(0)
        self._put(self._header())


class TextWriter(Writer):
    """CSV (header + one row per hand) or JSON Lines; tiles in the chosen style."""

    def __init__(self, path: str, what: Sequence[str], pos_name: str, style: Style,
                 jsonl: bool) -> None:
        self.what, self.pos_name, self.jsonl = list(what), pos_name, jsonl
        self.names = [format_tile(k, style) for k in range(27)]
        header = "" if jsonl else ",".join([pos_name, *self.what, "error"]) + "\n"
        super().__init__(path, header.encode())

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
            self._put(("\n".join(out) + "\n").encode("utf-8", "replace"))


class NpzWriter(Writer):
    """A ``.npz`` of named arrays given chunk by chunk (memory: one chunk). Each array's rows go
    to an unnamed temporary file beside OUT (gone when closed, even after a crash); at the end
    one pass copies each behind its .npy header (the row count now known) into the zip (stored,
    zip64), as :func:`numpy.savez` writes it."""

    def __init__(self, path: str) -> None:
        self.parts: dict[str, Any] = {}  # name -> temporary file of its rows
        self.shapes: dict[str, tuple[np.dtype, tuple[int, ...]]] = {}
        self.n = 0
        super().__init__(path, b"")

    def write(self, rows: Rows, cols: dict[str, np.ndarray], errors: dict[int, str]) -> None:
        """Append one chunk's arrays: the same names, dtypes and row shapes as the first chunk
        (the caller checks that; a mismatch here is a bug)."""
        del errors  # a forecast batch stops at its first bad row
        for name, value in cols.items():
            shape = (value.dtype, value.shape[1:])
            if self.shapes.setdefault(name, shape) != shape:
                raise AssertionError(f"NpzWriter: {name} {shape} after {self.shapes[name]}")
            try:
                if name not in self.parts:
                    self.parts[name] = tempfile.TemporaryFile(
                        dir=os.path.dirname(os.path.abspath(self.path)))
                self.parts[name].write(np.ascontiguousarray(value).tobytes())
            except OSError as exc:
                raise self._error(exc) from None
        self.n += rows.counts.shape[0]

    def _end(self) -> None:
        with zipfile.ZipFile(self.f, "w", zipfile.ZIP_STORED, allowZip64=True) as zf:
            for name, tmp in self.parts.items():
                dtype, row = self.shapes[name]
                header = {"descr": np.lib.format.dtype_to_descr(dtype), "fortran_order": False,
                          "shape": (self.n, *row)}
                with zf.open(name + ".npy", "w", force_zip64=True) as fh:
                    np.lib.format.write_array_header_2_0(fh, header)
                    tmp.seek(0)
                    shutil.copyfileobj(tmp, fh, 1 << 20)
        self._close_parts()

    def _close_parts(self) -> None:
        for tmp in self.parts.values():
            with contextlib.suppress(OSError):
                tmp.close()

    def discard(self) -> None:
        self._close_parts()
        super().discard()
