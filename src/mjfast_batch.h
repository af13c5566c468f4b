/* mjfast batch driver: runs a batch job (mj_job_t of mjfast_kernels.h) over a range of rows,
 * meld-free rows through the fast paths (mj_plain_rows, mj_plain_waits), every other row, and
 * a bad one, through the general path of one hand.
 *
 * Plain C, no Python. The layers, each compiling alone: mjfast_row.h (rows) < mjfast_kernels.h
 * (tables, distances, waits, the job) < mjfast_probes.h (one tile more or less) and
 * mjfast_waits.h (the win test and waits of meld-free rows) < this header.
 */
#ifndef MJFAST_BATCH_H
#define MJFAST_BATCH_H

#include "mjfast_column_rows.h" /* mj_plain_rows; mj_probes, mj_job_t, mj_plain_shanten */
#include "mjfast_waits.h"  /* mj_plain_waits */
#include "mjfast_check.h"  /* mj_rows_fit */

static inline int mj_size_rule(int op) {
    return (op == MJ_OP_SHANTEN || op == MJ_OP_IS_WIN) ? MJ_SIZE_EITHER
         : op == MJ_OP_DISCARDS ? MJ_SIZE_COMPLETE : MJ_SIZE_WAITING;
}

static inline void mj_write_invalid(mj_job_t *job, int64_t i) {
    switch (job->op) {
    case MJ_OP_SHANTEN: ((int8_t *)job->out)[i] = MJ_INVALID_ROW; break;
    case MJ_OP_IS_WIN: ((uint8_t *)job->out)[i] = 0; break;
    case MJ_OP_WAITS: ((uint32_t *)job->out)[i] = MJ_INVALID_MASK; break;
    default: memset((int8_t *)job->out + 27 * i, MJ_INVALID_ROW, 27); break;
    }
}

/* Read and check row i of a job as the general path takes it (from copies of the caller's rows:
 * mj_row_t) into h, its visible counts into seen (*visible: seen, or NULL without). Returns MJ_OK,
 * or an error code with details in err: the one set of row rules mj_run and mj_check share. */
static inline int mj_row_load(const mj_job_t *job, int64_t i, mj_hand_t *h, uint8_t *seen,
                              const uint8_t **visible, int *void_suit, int32_t *err) {
    *void_suit = job->voids ? mj_once_i8(job->voids + i) : job->void_scalar;
    const uint8_t *melds = job->melds ? job->melds + job->melds_stride * i : NULL;
    *visible = job->visible ? mj_copy27(seen, job->visible + job->visible_stride * i) : NULL;
    int code = mj_load(h, job->hands + 27 * i, melds, *void_suit, job->void_rule, job->form,
                       mj_size_rule(job->op), job->sets, err);
    if (code == MJ_OK && *visible) code = mj_check_visible(h, *visible, err);
    return code;
}

/* One row through the general path. Returns MJ_OK, or an error code with details in err. */
static inline int mj_row(mj_job_t *job, int64_t i, int32_t *err) {
    mj_hand_t h;
    uint8_t seen[27];
    const uint8_t *visible;
    int void_suit;
    int code = mj_row_load(job, i, &h, seen, &visible, &void_suit, err);
    if (code != MJ_OK) return code;
    if (job->op != MJ_OP_IS_WIN && job->op != MJ_OP_WAITS) mj_classes(&h);
    switch (job->op) {
    case MJ_OP_SHANTEN: ((int8_t *)job->out)[i] = (int8_t)mj_shanten_of(mj_distance(&h)); break;
    case MJ_OP_IS_WIN: ((uint8_t *)job->out)[i] = (uint8_t)mj_hand_is_win(&h, void_suit); break;
    case MJ_OP_WAITS: ((uint32_t *)job->out)[i] = mj_hand_waits(&h, void_suit); break;
    case MJ_OP_EFFECTIVE: mj_hand_effective(&h, visible, (int8_t *)job->out + 27 * i); break;
    default: mj_hand_discards(&h, (int8_t *)job->out + 27 * i); break;
    }
    return MJ_OK;
}

/* Run rows [start, end). Returns the first bad row (details in job->err), or -1. Without
 * coerce it stops there; with coerce the bad rows get the sentinel and the run goes on. */
static inline int64_t mj_run(mj_job_t *job, int64_t start, int64_t end) {
    int64_t first_bad = -1;
    int plain = !job->melds && job->sets == 4;
    int waits = job->op == MJ_OP_WAITS || job->op == MJ_OP_IS_WIN;
    int32_t err[3];
    for (int64_t i = start; i < end; i++) {
        if (plain) {
            int64_t done = waits ? mj_plain_waits(job, i, end) : mj_plain_rows(job, i, end);
            if (done == MJ_BLOCK || i + done == end) {
                i += done - 1;
                continue;
            }
            i += done; /* a row the fast path left: through the general path */
        }
        int code = mj_row(job, i, err);
        if (code != MJ_OK) {
            first_bad = mj_first_bad(first_bad, i, code, err, job->err);
            if (!job->coerce) return first_bad;
            mj_write_invalid(job, i);
        }
    }
    return first_bad;
}

/* Check rows [start, end) as mj_run does, writing nothing (job->out is not read): the first bad
 * row (details in job->err) or -1. So a caller can refuse a batch before any row is written, and
 * then run it in place. Meld-free 4-set rows pass by the fast paths' check (mj_rows_fit); a row
 * it stops at, and every other row, by the general path's (mj_row_load), which names the error. */
static MJ_GLUE_ONLY int64_t mj_check(mj_job_t *job, int64_t start, int64_t end) {
    int plain = !job->melds && job->sets == 4;
    int32_t err[3];
    for (int64_t i = start; i < end; i++) {
        if (plain) {
            i = mj_rows_fit(job, i, end, mj_size_rule(job->op));
            if (i == end) break;
        }
        mj_hand_t h;
        uint8_t seen[27];
        const uint8_t *visible;
        int void_suit;
        int code = mj_row_load(job, i, &h, seen, &visible, &void_suit, err);
        if (code != MJ_OK) return mj_first_bad(-1, i, code, err, job->err);
    }
    return -1;
}

#endif
