# Included by _ext.pyx before the areas: the row checks and argument plumbing that every compiled
# fast path shares (the areas' run_rows), and the declaration of the one reader of a single hand
# as the public calls take it (C, in _glue.h: the single-hand paths of _kernels.pxi and
# _fan_single.pxi).

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

cdef extern from "_glue.h":
    int mjg_bind(object ndarray, object empty) except -1
    # Copy one hand into a row of 27 counts: a (27,) array of native ints, 27 ints or an ASCII
    # tile string (the fast paths' one tile-string parser); False: the general path reads it
    # (another type or dtype, or anything it would refuse, so that path words the error).
    bint _load_hand "mjg_load_hand"(object hand, uint8_t *row) except -1

mjg_bind(__import__("numpy").ndarray, __import__("numpy").empty)


cdef int _check_rows(str name, Py_ssize_t rows, Py_ssize_t width, Py_ssize_t end,
                     Py_ssize_t want=27) except -1:
    """A kernel reads or writes rows [0, end) of ``want`` entries: refuse arrays that are smaller."""
    if rows < end or width != want:
        raise ValueError(f"{name}: shape ({rows}, {width}) does not cover rows [0, {end}) x {want}")
    return 0


cdef const uint8_t *_row_ptr(str name, arr, Py_ssize_t end, int64_t *stride) except? NULL:
    """The row pointer of an optional (27,) or (n, 27) uint8 array (None: NULL) covering rows
    [0, end); its stride into ``stride``: 0 broadcasts the one row to all."""
    cdef const uint8_t[::1] m1
    cdef const uint8_t[:, ::1] m2
    stride[0] = 0
    if arr is None:
        return NULL
    if arr.ndim == 1:
        m1 = arr
        _check_rows(name, 1, m1.shape[0], 0)
        return &m1[0]
    m2 = arr
    _check_rows(name, m2.shape[0], m2.shape[1], end)
    stride[0] = 27
    return &m2[0, 0]
