/* What the C library built, for the Python package's own extensions (mjfast/_core/_kernels,
 * _fan, _stats): they run the kernels of the component headers on these tables, reached through
 * the PyCapsule mjfast._core._capi.SHARED, instead of building copies of their own. Not part of
 * the C API (mjfast.h). */
#ifndef MJFAST_SHARED_H
#define MJFAST_SHARED_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const void *tables;         /* the mj_tables_t of mjfast_kernels.h, filled */
    const uint32_t *fan_table;  /* MF_TAB of mjfast_fan_table.h: MF_HASH_SIZE entries */
    int complete_patterns;      /* what mf_build returned */
    const uint8_t *raw;         /* the unpacked tables of mjfast_tables.h */
    size_t raw_size;
} mj_shared_t;

/* The library's tables (built on the first call), or NULL when they fail their check. */
const mj_shared_t *mj_shared(void);

#endif
