# cython: boundscheck=False, wraparound=False, initializedcheck=False
"""A downstream extension of mjfast: per-hand C calls in tight loops with the GIL released.

``from mjfast cimport capi`` declares the C library (mjfast.h); ``capi.load()`` returns the
function table of the library the installed mjfast loaded, so this module carries no copy of the
library or of its tables.
"""

from libc.stdint cimport int8_t, int16_t, uint8_t, uint32_t
from mjfast cimport capi

import time

import numpy as np

cdef const capi.mj_capi_t *mj = capi.load()


def shanten(const uint8_t[:, ::1] hands, int void_suit=-1, int options=0):
    """Shanten of each row of an (n, 27) uint8 array (mj_shanten per hand), as int16 (errors
    are MJ_E_* codes, -100 and below). ``options``: the MJ_* bits, ``sets(3)`` for the short
    hands of 5 players."""
    cdef Py_ssize_t i, n = hands.shape[0]
    out = np.empty(n, np.int16)
    cdef int16_t[::1] o = out
    with nogil:
        for i in range(n):
            o[i] = <int16_t>mj.shanten(&hands[i, 0], NULL, void_suit, options)
    return out


def sets(int n):
    """The options bits of a hand of ``n`` sets (MJ_SETS: 3 / 2 for 5 / 6 players)."""
    return capi.MJ_SETS(n)


def waits(const uint8_t[:, ::1] hands, int void_suit=-1, int options=0):
    """Wait masks of 13-tile rows (mj_waits per hand)."""
    cdef Py_ssize_t i, n = hands.shape[0]
    out = np.empty(n, np.uint32)
    cdef uint32_t[::1] o = out
    with nogil:
        for i in range(n):
            o[i] = mj.waits(&hands[i, 0], NULL, void_suit, options)
    return out


def max_fan(const uint8_t[:, ::1] hands, bytes rules=None, int options=0):
    """The 大叫 of each 13-tile row under ``rules`` (a ``Rules.to_bytes()`` blob; default the
    chengdu preset), as int16. ``options``: ``sets(n)`` for short hands (mj_max_fan_ex, a field
    appended to the function table: checked against its size)."""
    if options and mj.size < sizeof(capi.mj_capi_t):
        raise RuntimeError("the installed mjfast has no max_fan_ex: upgrade it")
    cdef capi.mj_rules_t compiled
    cdef const capi.mj_rules_t *r = mj.rules_preset(b"chengdu")
    if rules is not None:
        if mj.rules_from_bytes(&compiled, <const char *>rules, len(rules)) != 0:
            raise ValueError("rules: not a Rules.to_bytes() blob")
        r = &compiled
    cdef Py_ssize_t i, n = hands.shape[0]
    out = np.empty(n, np.int16)
    cdef int16_t[::1] o = out
    with nogil:
        for i in range(n):
            if options:
                o[i] = <int16_t>mj.max_fan_ex(r, &hands[i, 0], NULL, NULL, -1, NULL, NULL, options)
            else:
                o[i] = <int16_t>mj.max_fan(r, &hands[i, 0], NULL, NULL, -1, NULL, NULL)
    return out


def bench_shanten(const uint8_t[:, ::1] hands, int repeat=5):
    """Best rate (hands per second) of the nogil mj_shanten loop over the rows."""
    cdef Py_ssize_t i, n = hands.shape[0]
    cdef long total = 0
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        with nogil:
            for i in range(n):
                total += mj.shanten(&hands[i, 0], NULL, -1, 0)
        best = min(best, time.perf_counter() - t)
    return n / best
