"""Runs a compiled kernel over a batch: chunks (so Ctrl-C gets through), threads, first-bad-row errors.

Every chunk runs with the GIL released. ``workers=1`` never starts a thread; ``workers>1`` hands
chunks to a process-wide thread pool (recreated after ``fork``), and the results do not depend on
the worker count because each row is independent.
"""

from __future__ import annotations

import itertools
import os
import threading
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait

from ._core import _kernels
from ._validate import Prepared, prepare, row_error

CHUNK = 1 << 16
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
            if _pool is not None:
                _pool.shutdown(wait=False)
            _pool, _pool_size = ThreadPoolExecutor(max_workers=size, thread_name_prefix="mjfast"), size
        return _pool


def execute(op: int, p: Prepared) -> None:
    """Fill ``p.out``; raise the first bad row's error unless ``p.coerce``."""
    n = p.hands.shape[0]
    chunks = [(start, min(n, start + CHUNK)) for start in range(0, n, CHUNK)]

    def run(bounds: tuple[int, int]) -> tuple[int, int, int, int]:
        return _kernels.run_rows(op, p.hands, p.melds, p.voids, p.void_scalar, p.visible,
                                 p.void_rule, p.form, p.coerce, p.out, bounds[0], bounds[1])

    results: list[tuple[int, int, int, int]] = []
    if p.workers == 1 or len(chunks) < 2:
        for bounds in chunks:
            res = run(bounds)
            results.append(res)
            if res[0] >= 0 and not p.coerce:
                break
    else:
        # Exactly `workers` tasks pull chunks in order, so no more threads run than asked for, and
        # every chunk before a bad one is finished: the smallest bad row reported is the first.
        claim = itertools.count()
        stop = threading.Event()

        def worker() -> None:
            while not stop.is_set():
                i = next(claim)
                if i >= len(chunks):
                    return
                res = run(chunks[i])
                results.append(res)
                if res[0] >= 0 and not p.coerce:
                    stop.set()

        futures = [_get_pool(p.workers).submit(worker) for _ in range(min(p.workers, len(chunks)))]
        try:
            pending = set(futures)
            while pending:
                _, pending = wait(pending, timeout=0.05, return_when=FIRST_EXCEPTION)
        except BaseException:
            stop.set()
            wait(futures)
            raise
        for f in futures:
            f.result()
    bad = [r for r in results if r[0] >= 0]
    if bad and not p.coerce:
        row, code, a, b = min(bad)
        raise row_error(code, a, b, row, p.batch, SIZE_RULES[op])


def call(op: int, hands: object, *, out_dtype: object, out_row: tuple[int, ...] = (), **options: object):
    """Validate, run ``op`` and return the batch output array, or the single hand's row."""
    p = prepare(hands, out_dtype=out_dtype, out_row=out_row, **options)
    execute(op, p)
    return p.out if p.batch else p.out[0]
