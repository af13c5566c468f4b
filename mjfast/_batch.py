"""Runs a compiled kernel over a batch: chunks (so Ctrl-C gets through), threads, first-bad-row errors.

Every chunk runs with the GIL released. ``workers=1`` never starts a thread; ``workers>1`` hands
chunks to a process-wide thread pool (recreated after ``fork``), and the results do not depend on
the worker count because each row is independent.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from typing import Any

import numpy as np

from ._core import _kernels
from ._validate import Prepared, prepare, row_error

CHUNK = 1 << 16
GROW_BELOW = 0.02  # seconds: run_chunks(grow_to=...) doubles a chunk that took less
SIZE_RULES = {
    _kernels.OP_SHANTEN: "either",
    _kernels.OP_IS_WIN: "either",
    _kernels.OP_WAITS: "waiting",
    _kernels.OP_EFFECTIVE: "waiting",
    _kernels.OP_DISCARDS: "complete",
}

_pool: ThreadPoolExecutor | None = None
_pool_size = 0
_pool_lock = threading.Lock()


def _forget_pool() -> None:
    global _pool, _pool_size
    _pool, _pool_size = None, 0


os.register_at_fork(after_in_child=_forget_pool)


def _get_pool(size: int) -> ThreadPoolExecutor:
    global _pool, _pool_size
    with _pool_lock:
        if _pool is None or _pool_size < size:
            # The old pool is not shut down: another call may be about to submit to it. Its idle
            # threads end once nothing references it.
            _pool, _pool_size = ThreadPoolExecutor(max_workers=size, thread_name_prefix="mjfast"), size
        return _pool


Result = tuple[int, int, int, int]


def run_chunks(run: Callable[[int, int], Result], n: int, workers: int, coerce: bool,
               chunk: int = CHUNK, grow_to: int = 0,
               on_stop: Callable[[], None] | None = None) -> Result | None:
    """Call ``run(start, end)`` over ``chunk``-row chunks of ``n`` rows on up to ``workers``
    threads; return the first bad row's ``(row, code, a, b)``, or None.

    ``run`` returns ``(first bad row or -1, code, a, b)`` for its chunk. Exactly ``workers`` tasks
    pull chunks in order, so no more threads run than asked for, and every chunk before a bad one
    is finished: the smallest bad row reported is the first. Without ``coerce`` no chunk starts
    after a bad row is seen. With ``grow_to`` (rows whose cost varies widely), one worker's chunks
    double while each takes under ``GROW_BELOW`` seconds, up to ``grow_to`` rows: fewer calls
    where rows are fast, and Ctrl-C still gets through soon where they are slow. ``on_stop`` is
    called when Ctrl-C (or any error) reaches this thread while workers run: it tells their
    running chunks to end early (a forecast row can take long), before they are waited for.
    """
    results: list[Result] = []
    if workers == 1 or n <= chunk:
        start = 0
        while start < n:
            began = time.perf_counter()
            res = run(start, min(n, start + chunk))
            results.append(res)
            if res[0] >= 0 and not coerce:
                break
            start += chunk
            if chunk < grow_to and time.perf_counter() - began < GROW_BELOW:
                chunk = min(2 * chunk, grow_to)
    else:
        chunks = [(start, min(n, start + chunk)) for start in range(0, n, chunk)]
        claim = itertools.count()
        stop = threading.Event()

        def worker() -> None:
            while not stop.is_set():
                i = next(claim)
                if i >= len(chunks):
                    return
                res = run(*chunks[i])
                results.append(res)
                if res[0] >= 0 and not coerce:
                    stop.set()

        futures = [_get_pool(workers).submit(worker) for _ in range(min(workers, len(chunks)))]
        try:
            pending = set(futures)
            while pending:  # wake up now and then so Ctrl-C gets through
                _, pending = wait(pending, timeout=0.05, return_when=FIRST_EXCEPTION)
        except BaseException:
            stop.set()
            if on_stop is not None:
                on_stop()
            wait(futures)
            raise
        for f in futures:
            f.result()
    bad = [r for r in results if r[0] >= 0]
    return min(bad) if bad else None


def execute(op: int, p: Prepared) -> None:
    """Fill ``p.out`` with core kernel ``op``; raise the first bad row's error unless ``p.coerce``
    (with ``p.check_first``, before any row is written)."""

    def rows(out: np.ndarray | None) -> Callable[[int, int], Result]:
        def run(start: int, end: int) -> Result:
            return _kernels.run_rows(op, p.hands, p.melds, p.voids, p.void_scalar, p.visible,
                                     p.void_rule, p.form, p.sets, p.coerce, out, start, end)
        return run

    n = p.hands.shape[0]
    bad = run_chunks(rows(None), n, p.workers, p.coerce) if p.check_first else None
    if bad is None:
        bad = run_chunks(rows(p.out), n, p.workers, p.coerce)
    if bad is not None and not p.coerce:
        row, code, a, b = bad
        raise row_error(code, a, b, row, p.batch, SIZE_RULES[op], p.sets)


def call(op: int, hands: object, *, out_dtype: object, out_row: tuple[int, ...] = (),
         form: Any = "all", melds: Any = None, void_suit: Any = None, void_rule: Any = True,
         visible: Any = None, workers: Any = 1, out: Any = None, errors: Any = "raise",
         sets: Any = 4) -> Any:
    """One public kernel call: the single-hand fast path when it takes the arguments as they
    are, else validate and run ``op`` over the batch.

    Returns the batch output array, or the single hand's result: a Python int / bool for a
    scalar output (``out_row == ()``), a (27,) array otherwise.
    """
    res = _kernels.one(op, hands, form, void_suit, void_rule, melds, visible, out, workers, errors,
                       sets)
    if res is not None:
        return res
    # the 27-wide outputs (discards, effective tiles): checking the rows first and writing out=
    # in place costs less than a temporary as large as the hands and its copy; the narrow ones
    # are cheaper to copy than to read the hands twice
    p = prepare(hands, out_dtype=out_dtype, out_row=out_row, form=form, melds=melds,
                void_suit=void_suit, void_rule=void_rule, visible=visible, workers=workers,
                out=out, errors=errors, sets=sets, check_first=bool(out_row))
    execute(op, p)
    if p.batch:
        return p.finish()
    return p.out[0] if out_row else p.out[0].item()
