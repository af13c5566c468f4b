# Included by _ext.pyx before the areas: the row checks and argument plumbing that every compiled
# fast path shares (the areas' run_rows and the single-hand paths of _fan_single.pxi).

from libc.stdint cimport int64_t, uint8_t

cdef object _ndarray = __import__("numpy").ndarray


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
