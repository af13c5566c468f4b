# Included by _ext.pyx (the one extension module); its C declarations are _kernels.pxd.
"""Compiled core: runs the C kernels of ``src/mjfast_kernels.h`` on the C library's tables.

The C declarations live in ``_kernels.pxd``; this part of ``_ext`` is the glue. Everything here works on
validated arrays; ``mjfast._batch`` does the checking, chunking and threading, and the public
wrappers live in ``mjfast.analysis`` and ``mjfast.efficiency``.
"""

from libc.stdint cimport int8_t, int64_t, uint8_t, uint32_t
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.long cimport PyLong_AsLongAndOverflow

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
    output array for the op. Returns (first bad row or -1, error code, detail, detail).
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


cdef object _empty = __import__("numpy").empty
cdef dict _SUIT_CODES = {None: -1, 0: 0, 1: 1, 2: 2, "m": 0, "p": 1, "s": 2}
cdef dict _FORMS = {"all": 0, "regular": 1, "seven_pairs": 2}


def one(int op, object hand, object form, object void_suit, object void_rule, object melds,
        object visible, object out, object workers, object errors, object sets):
    """Fast path for one meld-free hand as _load_hand reads it (a (27,) array of native ints,
    27 ints or an ASCII tile string), with plain options.

    Takes the public call's arguments as they came. Returns the result (int, bool, or a (27,)
    int8 array), or None when the call needs the general path (mjfast._validate): another input
    type, melds, visible counts, an out array, any option value it does not take as is, or an
    invalid hand (whose error the general path words). So both paths answer alike.
    """
    cdef uint8_t row[27]
    cdef mj_job_t job
    cdef int8_t s8 = 0
    cdef uint8_t b8 = 0
    cdef uint32_t u32 = 0
    cdef int8_t[::1] arr
    cdef object result = None  # the (27,) array of the effective / discards ops
    cdef int form_code
    cdef long nsets
    cdef int overflow = 0
    if (melds is not None or visible is not None or out is not None
            or type(workers) is not int or workers != 1 or type(form) is not str
            or type(errors) is not str or errors != "raise"
            or (void_rule is not True and void_rule is not False) or type(sets) is not int):
        return None
    nsets = PyLong_AsLongAndOverflow(sets, &overflow)  # an int: no error is possible
    if overflow or nsets < 2 or nsets > 4:
        return None
    form_code = _FORMS.get(form, -1)
    if form_code < 0:
        return None
    code = _SUIT_CODES.get(void_suit, -2) if (void_suit is None or type(void_suit) is int
                                               or type(void_suit) is str) else -2
    if code == -2 or (void_rule is False and code >= 0):
        return None
    if not _load_hand(hand, row):
        return None
    job.op = op
    job.form = form_code
    job.void_rule = void_rule is True
    job.sets = <int>nsets
    job.coerce = 0
    job.hands = row
    job.melds = NULL
    job.melds_stride = 0
    job.voids = NULL
    job.void_scalar = code
    job.visible = NULL
    job.visible_stride = 0
    if op == MJ_OP_SHANTEN:
        job.out = &s8
    elif op == MJ_OP_IS_WIN:
        job.out = &b8
    elif op == MJ_OP_WAITS:
        job.out = &u32
    else:
        result = _empty(27, "int8")
        arr = result
        job.out = &arr[0]
    if mj_run(&job, 0, 1) >= 0:
        return None
    if op == MJ_OP_SHANTEN:
        return s8
    if op == MJ_OP_IS_WIN:
        return b8 != 0
    if op == MJ_OP_WAITS:
        return u32
    return result
