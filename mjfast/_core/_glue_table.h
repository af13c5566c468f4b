/* The loops of TableBatch (_table.pxi) over its tables, in C: they run once per table and step,
 * so _ext.pxd includes them after the C library (mjfast_table_play.h) and ahead of the pragma
 * that compiles the Cython glue for size, at the library's -O3. */
#ifndef MJFAST_GLUE_TABLE_H
#define MJFAST_GLUE_TABLE_H

#include <Python.h>
#include <stdint.h>
#include <string.h>

/* Deal table t the next hand of the batch's run (hand *dealt of seed). */
static void mjg_deal(mt_table_t *t, const mt_rules_t *R, int players, uint64_t seed,
                     uint64_t *dealt) {
    uint8_t wall[108];
    mt_deal_wall(seed, (*dealt)++, wall);
    mt_init(t, R, players, 0, wall);
}

/* One action per table: the first illegal row (nothing moved then), else -1 after every table
 * stepped, its rewards (players of each row of width `width`) and done flag written, and each
 * finished table dealt its next hand if `deal`. */
static int64_t mjg_step(mt_table_t *tables, int n, const int64_t *actions, int64_t *rewards,
                        Py_ssize_t width, uint8_t *done, int deal, const mt_rules_t *R,
                        int players, uint64_t seed, uint64_t *dealt) {
    int i;
    mt_acts_t s;
    for (i = 0; i < n; i++) {
        int64_t a = actions[i];
        mt_legal(&tables[i], &s);
        if (a < 0 || a >= MT_ACTIONS || !mt_acts_has(&s, (int)a))
            return i;
    }
    for (i = 0; i < n; i++) {
        mt_step(&tables[i], (int)actions[i]);
        memcpy(rewards + i * width, tables[i].rewards, sizeof(int64_t) * (size_t)players);
        done[i] = tables[i].phase == MT_OVER;
        if (done[i] && deal)
            mjg_deal(&tables[i], R, players, seed, dealt);
    }
    return -1;
}

/* The rows of the observation arrays of mt_observe, and their widths (entries per row). */
typedef struct {
    int64_t *scalars;
    uint8_t *hand;
    int8_t *melds;
    int8_t *discards;
    uint8_t *taken;
    int8_t *voids;
    uint8_t *out;
    int64_t *scores;
    Py_ssize_t w[8];
} mjg_obs_t;

/* Seat p's observation of table t into row j of each array of o. */
static inline void mjg_observe_row(const mt_table_t *t, int p, const mjg_obs_t *o, Py_ssize_t j) {
    mt_observe(t, p, o->scalars + j * o->w[0], o->hand + j * o->w[1], o->melds + j * o->w[2],
               o->discards + j * o->w[3], o->taken + j * o->w[4], o->voids + j * o->w[5],
               o->out + j * o->w[6], o->scores + j * o->w[7]);
}

/* Table which[i]'s seat seats[i] into row which[i] of each array, for i < n. */
static void mjg_observe_rows(const mt_table_t *tables, Py_ssize_t n, const int32_t *which,
                             const int8_t *seats, const mjg_obs_t *rows) {
    const mjg_obs_t o = *rows; /* a local copy: the byte stores cannot change it */
    Py_ssize_t i;
    for (i = 0; i < n; i++)
        mjg_observe_row(&tables[which[i]], seats[i], &o, which[i]);
}

/* Each of the n tables' seat to act into row i of each array. */
static void mjg_observe(const mt_table_t *tables, Py_ssize_t n, const mjg_obs_t *rows) {
    const mjg_obs_t o = *rows;
    Py_ssize_t i;
    for (i = 0; i < n; i++)
        mjg_observe_row(&tables[i], tables[i].current, &o, i);
}

/* The legal masks of the seats to act into n rows of MT_ACTIONS. */
static void mjg_masks(const mt_table_t *tables, int n, uint8_t *out, Py_ssize_t width) {
    int i;
    for (i = 0; i < n; i++)
        mt_mask(&tables[i], out + i * width);
}

/* A uniformly random legal action per table. */
static void mjg_sample(const mt_table_t *tables, int n, int64_t *out, uint64_t *rng) {
    int i;
    mt_acts_t s;
    for (i = 0; i < n; i++) {
        mt_legal(&tables[i], &s);
        out[i] = mt_random_action(&s, rng);
    }
}

#endif /* MJFAST_GLUE_TABLE_H */
