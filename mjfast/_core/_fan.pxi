# Included by _ext.pyx (the one extension module); its C declarations are _fan.pxd.
"""Compiled fan kernels: runs the C kernels of ``src/mjfast_fan.h`` on the C library's suit table.

The C declarations live in ``_fan.pxd``; this part of ``_ext`` is the glue. Everything here works on
validated arrays; :mod:`mjfast.scoring.batch` does the checking, the rules compilation, chunking and
threading.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t
from libc.string cimport memset
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.long cimport PyLong_FromLongLong

from mjfast._core._fan cimport *

import numpy as np

RULES_SIZE = MF_R_SIZE
INVALID = MF_INVALID
ERR_WIN_NOT_HELD = MF_ERR_WIN_NOT_HELD
ERR_FLAGS = MF_ERR_FLAGS
ERR_CONCEALED = MF_ERR_CONCEALED
ERR_WIN_RANGE = MF_ERR_WIN_RANGE
OP_FAN = MF_OP_FAN
OP_MAX_FAN = MF_OP_MAX_FAN
# C's copies of the reading bits and the situational-flag bits (tests compare them with
# mjfast.scoring.readings.R_* and mjfast.scoring.inputs.FLAG_BITS).
READING_BITS = (MF_AT, MF_YJ, MF_456, MF_TWIN, MF_DRAGON)
FLAG_BITS = (MF_SD, MF_AK, MF_AKD, MF_ROB, MF_LAST, MF_TIAN, MF_DI, MF_JUE)

# The suit table is the C library's (MF_TAB of mjfast_fan.h, built by mj_init in _capi.pxi).
COMPLETE_PATTERNS = mj_shared().complete_patterns


def suit_table():
    """The suit table as (keys, codes) int arrays sorted by key (for tests): every complete suit
    pattern's base-5 index and its maximal reading masks ``mask1 | mask2 << 5``."""
    keys = []
    codes = []
    cdef int h
    for h in range(MF_HASH_SIZE):
        if MF_TAB[h] != 0xFFFFFFFF:
            keys.append(MF_TAB[h] & 0x1FFFFF)
            codes.append(MF_TAB[h] >> 21)
    keys_a = np.array(keys, np.int32)
    order = np.argsort(keys_a)
    return keys_a[order], np.array(codes, np.int32)[order]


def lookup(int idx):
    """Code of one suit index (-1: not a complete pattern)."""
    if not 0 <= idx < 1953125:
        raise ValueError("suit index out of range")
    return mf_lookup(idx)


def fan_run_rows(int op, const uint8_t[:, ::1] hands, melds, conc, voids, int void_scalar,
                 wins, int win_scalar, flags, int flag_scalar, visible, const int32_t[::1] rules,
                 int sets, bint coerce, int16_t[::1] out, best, Py_ssize_t start, Py_ssize_t end):
    """Run kernel ``op`` (OP_FAN / OP_MAX_FAN) over rows [start, end) with the GIL released.

    ``melds`` / ``conc`` / ``visible``: None or C-contiguous uint8 (27,) (one row for all) or
    (n, 27). ``voids`` / ``wins``: None (the scalar for every row) or int8 (n,). ``flags``: None
    or uint8 (n,). ``best``: None or int8 (n,). ``sets``: the sets of a complete hand (2..4).
    Returns (first bad row or -1, code, a, b).
    """
    cdef mf_job_t job
    cdef const int8_t[::1] vo
    cdef const int8_t[::1] wi
    cdef const uint8_t[::1] fl
    cdef int8_t[::1] be
    cdef int64_t bad
    if start >= end or hands.shape[0] == 0:
        return (-1, 0, 0, 0)
    if rules.shape[0] != MF_R_SIZE:
        raise ValueError("compiled rules have the wrong size")
    if not 2 <= sets <= 4:
        raise ValueError(f"sets: {sets} is not 2, 3 or 4")
    job.sets = sets
    job.coerce = coerce
    job.err[0] = 0
    job.err[1] = 0
    job.err[2] = 0
    job.hands = &hands[0, 0]
    job.melds = _row_ptr("melds", melds, end, &job.melds_stride)
    job.conc = _row_ptr("conc", conc, end, &job.conc_stride)
    job.visible = _row_ptr("visible", visible, end, &job.visible_stride)
    job.voids = NULL
    job.void_scalar = void_scalar
    if voids is not None:
        vo = voids
        job.voids = &vo[0]
    job.wins = NULL
    job.win_scalar = win_scalar
    if wins is not None:
        wi = wins
        job.wins = &wi[0]
    job.flags = NULL
    job.flag_scalar = flag_scalar
    if flags is not None:
        fl = flags
        job.flags = &fl[0]
    job.rules = &rules[0]
    job.out = &out[0]
    job.best = NULL
    if best is not None:
        be = best
        job.best = &be[0]
    with nogil:
        bad = mf_run(&job, op, start, end)
    return (bad, job.err[0], job.err[1], job.err[2])



# ---- the single-hand fast paths of mjfast.scoring.score and max_fan (_fan_single.pxi) -------
include "_fan_single.pxi"
