# Included by _ext.pyx before the areas: the row checks and argument plumbing that every compiled
# fast path shares (the areas' run_rows), and the one reader of a single hand as the public calls
# take it (the single-hand paths of _kernels.pxi and _fan_single.pxi).

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.buffer cimport PyBUF_RECORDS_RO, PyBuffer_Release, PyObject_GetBuffer

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)
    const unsigned char *PyUnicode_1BYTE_DATA(object)

cdef object _ndarray = __import__("numpy").ndarray
cdef int _PLAIN_CHARS = 256  # longer strings go to the general path, as in parse_counts


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


cdef bint _parse(const unsigned char *s, Py_ssize_t n, uint8_t *row) noexcept:
    """The counts of an ASCII hand string (digits 1-9 each group followed by m, p or s; spaces
    between groups) into row; False for anything else, or a fifth copy."""
    cdef Py_ssize_t i, k, start = -1
    cdef int base
    cdef unsigned char ch
    memset(row, 0, 27)
    for i in range(n):
        ch = s[i]
        if 0x31 <= ch <= 0x39:  # 1-9
            if start < 0:
                start = i
            continue
        if ch == 0x6D or ch == 0x70 or ch == 0x73:  # m p s
            if start < 0:
                return False
            base = 0 if ch == 0x6D else 9 if ch == 0x70 else 18
            for k in range(start, i):
                row[base + s[k] - 0x31] += 1
                if row[base + s[k] - 0x31] > 4:
                    return False
            start = -1
        elif ch == 0x20 or 0x09 <= ch <= 0x0D:  # ASCII whitespace
            if start >= 0:
                return False
        else:
            return False
    return start < 0


cdef int64_t _item(const char *p, Py_ssize_t size, bint signed) noexcept:
    """One native int of *size* bytes at p (unsigned 64-bit values above INT64_MAX turn
    negative: refused like any count below 0)."""
    cdef uint8_t u8
    cdef uint16_t u16
    cdef uint32_t u32
    cdef uint64_t u64
    if size == 1:
        memcpy(&u8, p, 1)
        return <int8_t>u8 if signed else u8
    if size == 2:
        memcpy(&u16, p, 2)
        return <int16_t>u16 if signed else u16
    if size == 4:
        memcpy(&u32, p, 4)
        return <int32_t>u32 if signed else u32
    memcpy(&u64, p, 8)
    return <int64_t>u64


cdef bint _over4(const uint8_t *row) noexcept:
    """Whether one of the 27 counts is over 4, a word of 8 at a time (bytes of 8 and up have a
    bit of 0xF8; 5..7 reach 8 with 3 added, without a carry)."""
    cdef uint64_t w, bad = 0
    cdef Py_ssize_t k
    for k in range(0, 24, 8):
        memcpy(&w, row + k, 8)
        bad |= w | (w + 0x0303030303030303ULL)
    for k in range(24, 27):
        bad |= row[k] | (row[k] + 3)
    return (bad & 0xF8F8F8F8F8F8F8F8ULL) != 0


cdef bint _load_buffer(const Py_buffer *view, uint8_t *row) noexcept:
    """The 27 counts of a 1-D buffer of native ints (any size, signed or not); False for any
    other buffer or a count outside 0..4."""
    cdef char fmt
    cdef Py_ssize_t k, size = view.itemsize, stride = view.strides[0]
    cdef const char *p = <const char *>view.buf
    cdef bint signed
    cdef int64_t v
    if (view.ndim != 1 or view.shape[0] != 27 or view.format == NULL or view.format[0] == 0
            or view.format[1] != 0):
        return False
    fmt = view.format[0]
    if fmt not in b"bBhHiIlLqQ" or size not in (1, 2, 4, 8):
        return False
    if size == 1:  # uint8 / int8, the common case (an int8 below 0 reads as over 4)
        if stride == 1:
            memcpy(row, p, 27)
        else:
            for k in range(27):
                row[k] = <uint8_t>p[k * stride]
        return not _over4(row)
    signed = fmt in b"bhilq"
    for k in range(27):
        v = _item(p + k * stride, size, signed)
        if v < 0 or v > 4:
            return False
        row[k] = <uint8_t>v
    return True


cdef bint _load_hand(object hand, uint8_t *row) except -1:
    """Copy one hand into row: a (27,) array of native ints, 27 ints (list or tuple) or an
    ASCII tile string; False: the general path reads it (another type or dtype, or anything it
    would refuse, so that path words the error)."""
    cdef Py_buffer view
    cdef Py_ssize_t k
    cdef bint ok
    if type(hand) is str:
        n = PyUnicode_GET_LENGTH(hand)
        return (PyUnicode_IS_ASCII(hand) and n <= _PLAIN_CHARS
                and _parse(PyUnicode_1BYTE_DATA(hand), n, row))
    if type(hand) is list or type(hand) is tuple:
        if len(hand) != 27:
            return False
        for k in range(27):
            x = hand[k]
            if type(x) is not int or not 0 <= x <= 4:
                return False
            row[k] = <uint8_t>(<long>x)
        return True
    if type(hand) is not _ndarray:
        return False
    try:
        PyObject_GetBuffer(hand, &view, PyBUF_RECORDS_RO)
    except (ValueError, BufferError):  # dtypes without a buffer format (datetime64)
        return False
    ok = _load_buffer(&view, row)
    PyBuffer_Release(&view)
    return ok
