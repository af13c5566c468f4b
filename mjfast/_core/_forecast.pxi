# Included by _ext.pyx (the one extension module); its C declarations are _forecast.pxd.
"""Compiled forecasts: runs the engine of ``src/mjfast_forecast.h`` on the C library's tables.

The C declarations live in ``_forecast.pxd``; this part of ``_ext`` is the glue. Everything here works on
validated arrays; :mod:`mjfast.forecast` does the checking, the rules compilation and threading.
"""

import threading

from cpython.ref cimport PyObject
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t

from mjfast._core._forecast cimport *

MAX_DRAWS = FC_MAX_DRAWS
OBJ_WIN = FC_OBJ_WIN
OBJ_VALUE = FC_OBJ_VALUE
ERR_STATES = FC_ERR_STATES
ERR_NOMEM = FC_ERR_NOMEM
ERR_EMPTY_POOL = FC_ERR_EMPTY_POOL
ERR_BYTES = FC_ERR_BYTES
ERR_WORK = FC_ERR_WORK
ERR_STOPPED = FC_ERR_STOPPED
POLL = FC_POLL
ERR_FLUSH = FC_ERR_FLUSH


_MAIN_THREAD = threading.main_thread().ident


# The C API itself, without Cython's exception checks: _poll keeps what a handler raised.
cdef extern from "Python.h":
    int _check_signals "PyErr_CheckSignals" () noexcept
    void _fetch "PyErr_Fetch" (PyObject **, PyObject **, PyObject **) noexcept
    void _restore "PyErr_Restore" (PyObject *, PyObject *, PyObject *) noexcept


cdef struct _stop_t:
    int32_t *stop  # set by another thread (run_chunks after Ctrl-C) or by _poll
    bint signals   # the main thread: Python's signal handlers run here
    PyObject *error[3]  # what a signal handler raised (type, value, traceback), or NULLs


cdef int _poll(void *ctx) noexcept nogil:
    """The engine's poll (every FC_POLL of work): stop when the flag is set, or, on the main
    thread, when a signal handler raised (Ctrl-C: KeyboardInterrupt, kept for forecast_run_rows)."""
    cdef _stop_t *c = <_stop_t *>ctx
    if (<volatile int32_t *>c.stop)[0]:
        return 1
    if c.signals:
        with gil:
            if _check_signals() < 0:
                _fetch(&c.error[0], &c.error[1], &c.error[2])
                c.stop[0] = 1
                return 1
    return 0


cdef int _raise_pending() except -1:
    """Propagate the exception set on the thread (see _poll and forecast_run_rows)."""
    return -1


def forecast_run_rows(const uint8_t[:, ::1] hands, melds, voids, int void_scalar, visible,
                      int draws, int exchanges, bint backward, int flush, bint keep,
                      int objective, int sets, bint complete, const int32_t[::1] rules,
                      const double[::1] pay, int64_t max_states, int64_t max_bytes,
                      int64_t max_work, int32_t[::1] stop, double[:, ::1] ready,
                      double[:, ::1] win, double[::1] value, int8_t[::1] best,
                      uint8_t[::1] is_win, Py_ssize_t start, Py_ssize_t end):
    """Forecast rows [start, end) with the GIL released.

    Limits per row: ``max_states`` states, ``max_bytes`` bytes of the engine's buffers (held per
    thread across its rows), ``max_work`` work (an expansion counts 1 + the edge entries it
    writes; 0: none). ``stop``: an int32 flag of one
    entry; another thread sets it to end the run (the row gets ERR_STOPPED); on the main thread
    Ctrl-C is checked every FC_POLL of work and raises KeyboardInterrupt here.

    ``melds``/``visible``: None or C-contiguous uint8 (27,) (one row for all) or (n, 27);
    ``voids``: None (``void_scalar`` for all) or int8 (n,); ``exchanges``: the budget, -1 for
    none; ``flush``: the suit of the flush plan or -1; ``keep``: complete rows evaluate only the
    discards of the lowest shanten; ``sets``: 2..4 (hands of
    ``3 * sets + 1 - 3m`` tiles, one more with ``complete``). Outputs: ``ready``/``win`` (n, T) or,
    with ``complete``, (n * 27, T); ``value`` (n,) or (n * 27,); ``best``/``is_win`` (n,).
    Returns (first bad row or -1, code, detail, detail, peak states, peak bytes, peak work).
    """
    cdef fc_job_t job
    cdef _stop_t flag
    cdef const int8_t[::1] vo
    cdef int64_t bad
    cdef Py_ssize_t per = 27 if complete else 1
    if start >= end:
        return (-1, 0, 0, 0, 0, 0, 0)
    if start < 0 or end > hands.shape[0] or hands.shape[1] != 27:
        raise IndexError(f"rows [{start}, {end}) outside the {hands.shape[0]} hands")
    if (not 0 <= draws <= FC_MAX_DRAWS or not 2 <= sets <= 4 or rules.shape[0] < 1561
            or pay.shape[0] < 1 or exchanges < -1 or not -1 <= flush <= 2
            or (backward and exchanges < 0)):
        raise ValueError("draws, sets, rules, pay, exchanges, backward or flush out of range")
    _check_rows("ready", ready.shape[0], ready.shape[1], end * per, draws)
    _check_rows("win", win.shape[0], win.shape[1], end * per, draws)
    _check_rows("value", value.shape[0], 1, end * per, 1)
    job.hands = &hands[0, 0]
    job.melds = _row_ptr("melds", melds, end, &job.melds_stride)
    job.visible = _row_ptr("visible", visible, end, &job.visible_stride)
    job.voids = NULL
    job.void_scalar = void_scalar
    if voids is not None:
        vo = voids
        _check_rows("voids", vo.shape[0], 1, end, 1)
        job.voids = &vo[0]
    job.draws = draws
    job.exchanges = exchanges
    job.backward = backward
    job.flush = flush
    job.keep = keep
    job.objective = objective
    job.sets = sets
    job.complete = complete
    job.rules = &rules[0]
    job.pay = &pay[0]
    job.n_pay = <int>pay.shape[0]
    job.max_states = max_states
    job.max_bytes = max_bytes
    job.max_work = max_work
    if stop.shape[0] != 1:
        raise ValueError("stop: one int32 flag")
    flag.stop = &stop[0]
    flag.signals = threading.get_ident() == _MAIN_THREAD
    flag.error[0] = flag.error[1] = flag.error[2] = NULL
    job.poll = _poll
    job.poll_ctx = &flag
    job.ready = &ready[0, 0] if ready.shape[1] else NULL
    job.win = &win[0, 0] if win.shape[1] else NULL
    job.value = &value[0]
    job.best = NULL
    job.is_win = NULL
    if complete:
        _check_rows("best", best.shape[0], 1, end, 1)
        _check_rows("is_win", is_win.shape[0], 1, end, 1)
        job.best = &best[0]
        job.is_win = &is_win[0]
    job.peak_states = 0
    job.peak_bytes = 0
    job.peak_work = 0
    job.err[0] = job.err[1] = job.err[2] = 0
    with nogil:
        bad = fc_run(&job, start, end)
    if flag.error[0] != NULL:  # a signal handler raised (KeyboardInterrupt): raise it here
        _restore(flag.error[0], flag.error[1], flag.error[2])
        _raise_pending()
    return (bad, job.err[0], job.err[1], job.err[2], job.peak_states, job.peak_bytes,
            job.peak_work)
