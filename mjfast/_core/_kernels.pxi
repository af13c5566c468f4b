# Included by _ext.pyx (the one extension module); its C declarations are _kernels.pxd.
"""Compiled core: runs the C kernels of ``src/mjfast_kernels.h`` on the C library's tables.

The C declarations live in ``_kernels.pxd``; this part of ``_ext`` is the glue. Everything here works on
validated arrays; ``mjfast._batch`` does the checking, chunking and threading, and the public
wrappers live in ``mjfast.analysis`` and ``mjfast.efficiency``.
"""

from libc.stdint cimport int8_t, int64_t, uint8_t, uint32_t
from cpython.bytes cimport PyBytes_FromStringAndSize

from mjfast._core._kernels cimport *

OP_SHANTEN = MJ_OP_SHANTEN
OP_IS_WIN = MJ_OP_IS_WIN
OP_WAITS = MJ_OP_WAITS
OP_EFFECTIVE = MJ_OP_EFFECTIVE
OP_DISCARDS = MJ_OP_DISCARDS
UNWINNABLE = MJ_UNWINNABLE
NOT_HELD = MJ_NOT_HELD
INVALID_ROW = MJ_INVALID_ROW
INVALID_MASK = MJ_INVALID_MASK

# The C library's tables (MJ of mjfast_kernels.h, built by mj_init in _capi.pxi), unpacked.
cdef const mj_shared_t *_shared = mj_shared()
_TABLES = PyBytes_FromStringAndSize(<const char *>_shared.raw, <Py_ssize_t>_shared.raw_size)


def table_bytes():
    """The shipped tables, unpacked (for tests that regenerate and compare them)."""
    return _TABLES


def kernels_run_rows(int op, const uint8_t[:, ::1] hands, melds, voids, int void_scalar,
                     visible, bint void_rule, int form, int sets, bint coerce, out,
                     Py_ssize_t start, Py_ssize_t end):
    """Run kernel ``op`` over rows [start, end) with the GIL released.

    ``sets``: the sets of a complete hand (2..4, checked by the caller: mjfast._args.as_sets).

    ``melds``/``visible``: None, or a C-contiguous uint8 array of shape (27,) (one row for all) or
    (n, 27). ``voids``: None (``void_scalar`` for every row) or an int8 array (n,). ``out``: the
    output array for the op, or None: check the rows only, as the op would, writing nothing.
    Returns (first bad row or -1, error code, detail, detail).
    """
    cdef mj_job_t job
    cdef const int8_t[::1] vo
    cdef int8_t[::1] o8
    cdef uint8_t[::1] ob
    cdef uint32_t[::1] o32
    cdef int8_t[:, ::1] o27
    cdef int64_t bad
    if start >= end or hands.shape[0] == 0:
        return (-1, 0, 0, 0)
    if start < 0 or end > hands.shape[0]:
        raise IndexError(f"rows [{start}, {end}) outside the {hands.shape[0]} hands")
    if not 2 <= sets <= 4:
        raise ValueError(f"sets: {sets} is not 2, 3 or 4")
    job.op = op
    job.form = form
    job.void_rule = void_rule
    job.sets = sets
    job.coerce = coerce
    job.err[0] = 0
    job.err[1] = 0
    job.err[2] = 0
    job.hands = &hands[0, 0]
    job.melds = _row_ptr("melds", melds, end, &job.melds_stride)
    job.visible = _row_ptr("visible", visible, end, &job.visible_stride)
    job.voids = NULL
    job.void_scalar = void_scalar
    if voids is not None:
        vo = voids
        _check_rows("voids", vo.shape[0], 27, end)
        job.voids = &vo[0]
    if out is None:
        with nogil:
            bad = mj_check(&job, start, end)
        return (bad, job.err[0], job.err[1], job.err[2])
    if op == MJ_OP_SHANTEN:
        o8 = out
        _check_rows("out", o8.shape[0], 27, end)
        job.out = &o8[0]
    elif op == MJ_OP_IS_WIN:
        ob = out.view("uint8")
        _check_rows("out", ob.shape[0], 27, end)
        job.out = &ob[0]
    elif op == MJ_OP_WAITS:
        o32 = out
        _check_rows("out", o32.shape[0], 27, end)
        job.out = &o32[0]
    else:
        o27 = out
        _check_rows("out", o27.shape[0], o27.shape[1], end)
        job.out = &o27[0, 0]
    with nogil:
        bad = mj_run(&job, start, end)
    return (bad, job.err[0], job.err[1], job.err[2])


def capped_vector(const uint8_t[::1] counts, const uint8_t[::1] caps):
    """Distance vector of one suit (9 counts) under per-kind caps, from the exact DP (for tests)."""
    if counts.shape[0] != 9 or caps.shape[0] != 9:
        raise ValueError("capped_vector takes 9 counts and 9 caps")
    cdef int8_t out[10]
    mj_capped_vector(&counts[0], &caps[0], out)
    return [out[i] for i in range(10)]


cdef extern from "_glue.h":
    object mjg_one_function(object module_name)

# one(op, hand, form, void_suit, void_rule, melds, visible, out, workers, errors, sets): the
# fast path for one meld-free hand with plain options, or None for the general path (C, in
# _glue.h: it runs once per single-hand call).
one = mjg_one_function("mjfast._core._ext")
