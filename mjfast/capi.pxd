# The Cython API of mjfast: `from mjfast cimport capi`, then call the C library that the
# installed mjfast loaded (its tables are built once per process) through its function table,
# with or without the GIL:
#
#     from mjfast cimport capi
#     cdef const capi.mj_capi_t *mj = capi.load()
#     with nogil:
#         for i in range(n):
#             out[i] = mj.shanten(&rows[i, 0], NULL, -1, 0)
#
# Compile with include_dirs=[mjfast.get_include()] (the folder of mjfast.h). The functions and
# constants are those of mjfast.h; the table is the PyCapsule mjfast.capi.CAPSULE (the numpy.random
# bit-generator pattern), so the extension needs no copy of the library or the tables.

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t
from cpython.pycapsule cimport PyCapsule_GetPointer

cdef extern from "mjfast.h" nogil:
    const char *MJFAST_VERSION
    int MJFAST_ABI_VERSION
    int MJ_FORM_REGULAR, MJ_FORM_SEVEN_PAIRS, MJ_NO_VOID_RULE
    int MJ_COMPLETE, MJ_UNWINNABLE, MJ_NOT_HELD, MJ_INVALID_ROW
    uint32_t MJ_INVALID_MASK
    int MJ_E_INVALID, MJ_E_COUNT, MJ_E_MELD, MJ_E_HELD, MJ_E_SIZE, MJ_E_VISIBLE, MJ_E_VOID
    int MJ_E_OPTIONS, MJ_E_NULL, MJ_E_RULES, MJ_E_TABLES, MJ_E_RANGE
    int MJ_E_WIN_NOT_HELD, MJ_E_FLAGS, MJ_E_CONCEALED, MJ_E_WIN_TILE
    int MJ_SELF_DRAWN, MJ_AFTER_KONG, MJ_AFTER_KONG_DISCARD, MJ_ROBBING_KONG, MJ_LAST_TILE
    int MJ_TIAN_HU, MJ_DI_HU
    int MJ_SETS(int n)
    int MJ_RULES_SIZE

    ctypedef struct mj_rules_t:
        int32_t v[1560]  # MJ_RULES_SIZE

    ctypedef struct mj_capi_t:
        int abi_version
        size_t size
        const char *(*version)() noexcept nogil
        int (*shanten)(const uint8_t *counts, const uint8_t *melds, int void_suit,
                       int options) noexcept nogil
        int (*is_win)(const uint8_t *counts, const uint8_t *melds, int void_suit,
                      int options) noexcept nogil
        uint32_t (*waits)(const uint8_t *counts, const uint8_t *melds, int void_suit,
                          int options) noexcept nogil
        int (*effective)(const uint8_t *counts, const uint8_t *melds, int void_suit, int options,
                         const uint8_t *visible, int8_t *out) noexcept nogil
        int (*discards)(const uint8_t *counts, const uint8_t *melds, int void_suit, int options,
                        int8_t *out) noexcept nogil
        int64_t (*shanten_n)(const uint8_t *rows, size_t n, const uint8_t *melds, int void_suit,
                             int options, int8_t *out) noexcept nogil
        const mj_rules_t *(*rules_preset)(const char *name) noexcept nogil
        int (*rules_from_bytes)(mj_rules_t *rules, const void *data,
                                size_t size) noexcept nogil
        int (*fan)(const mj_rules_t *rules, const uint8_t *counts, const uint8_t *melds,
                   const uint8_t *concealed, int void_suit, int win_tile,
                   int flags) noexcept nogil
        int (*max_fan)(const mj_rules_t *rules, const uint8_t *counts, const uint8_t *melds,
                       const uint8_t *concealed, int void_suit, const uint8_t *visible,
                       int *best_wait) noexcept nogil
        # appended (short hands: options = MJ_SETS(n)); present when size covers them
        int (*fan_ex)(const mj_rules_t *rules, const uint8_t *counts, const uint8_t *melds,
                      const uint8_t *concealed, int void_suit, int win_tile, int flags,
                      int options) noexcept nogil
        int (*max_fan_ex)(const mj_rules_t *rules, const uint8_t *counts, const uint8_t *melds,
                          const uint8_t *concealed, int void_suit, const uint8_t *visible,
                          int *best_wait, int options) noexcept nogil


cdef inline const mj_capi_t *load() except NULL:
    """The function table of the loaded mjfast (its tables built). Raises ImportError when the
    installed mjfast speaks another ABI than the mjfast.h this code was compiled against."""
    from mjfast.capi import CAPSULE
    cdef const mj_capi_t *api = <const mj_capi_t *>PyCapsule_GetPointer(CAPSULE, "mjfast.capi")
    if api.abi_version != MJFAST_ABI_VERSION:
        raise ImportError(f"mjfast: compiled against C API {MJFAST_ABI_VERSION}, the installed "
                          f"mjfast has {api.abi_version}; rebuild this extension")
    return api
