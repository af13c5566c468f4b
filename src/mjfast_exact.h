/* mjfast exact deal statistics: the shanten distribution over every deal of n tiles, without
 * enumerating hands.
 *
 * Plain C, no Python: mjfast/_core/_stats.pxi calls mx_exact with the GIL released.
 *
 * The distance of a meld-free hand depends on each suit only through its key: the class (the
 * distance vector of the suit tables), the tile count and the pairs (sum c // 2; the odd kinds are
 * the tile count less twice the pairs). So each suit's base-5 patterns are grouped by key, each
 * weighted by the number of ways the wall deals it, prod C(copies_k, c_k), and the three suits'
 * keys are convolved: every key triple whose tile counts sum to n adds the product of its weights
 * to the bin of its distance. About 400 keys per suit; a few million triples for n = 14.
 *
 * The target of n tiles is the concealed part of a hand with (14 - n) / 3 melds elsewhere:
 * k = (n - 1) / 3 sets and the pair (n = 3k + 1 or 3k + 2), seven pairs only for n = 13, 14
 * (hands without melds), 4 free copies of every kind. Under the void rule the distance is the
 * least over the void suit q of the two live suits' distance (no declared void).
 *
 * Counts: every partial sum counts a subset of the deals, so none exceeds C(108, 14) < 2^55 and
 * uint64 holds them exactly (the caller also checks that the bins add up to C(wall, n)).
 */
#ifndef MJFAST_EXACT_H
#define MJFAST_EXACT_H

#include <stdlib.h>

#include "mjfast_kernels.h" /* MJ tables, mj_class, mj_comb2, mj_comb3, mj_seven_of */

#define MX_MAX_TILES 14
#define MX_BINS 16 /* distance 0..14, and MX_BINS - 1 for a hand that cannot win */
#define MX_NP 8    /* pairs 0..7 */

typedef struct {
    int k, n, p;
    uint64_t w;
} mx_key_t;

/* One suit's keys, grouped by tile count: keys[start[n] .. start[n + 1]). */
typedef struct {
    mx_key_t *keys;
    int start[MX_MAX_TILES + 2];
} mx_suit_t;

static const uint64_t MX_BINOM[5][5] = {
    {1, 0, 0, 0, 0}, {1, 1, 0, 0, 0}, {1, 2, 1, 0, 0}, {1, 3, 3, 1, 0}, {1, 4, 6, 4, 1}};

/* Weight of every key of a suit whose kinds have copies[0..8] (0-4) in the wall, into
 * dense[(k * 15 + n) * MX_NP + p] (zeroed by the caller): one pass over the 5^9 patterns with an
 * odometer of the digits (rank 9 is the least significant). */
static void mx_weigh(const uint8_t *copies, uint64_t *dense) {
    uint8_t d[9] = {0};
    int n = 0;
    for (int32_t i = 0; i < 1953125; i++) {
        if (n <= MX_MAX_TILES) {
            uint64_t w = 1;
            int p = 0;
            for (int r = 0; r < 9; r++) {
                w *= MX_BINOM[copies[r]][d[r]]; /* 0 beyond the copies */
                p += d[r] >> 1;
            }
            if (w) dense[(mj_class(i) * (MX_MAX_TILES + 1) + n) * MX_NP + p] += w;
        }
        for (int r = 8; r >= 0; r--) {
            if (d[r] < 4) {
                d[r]++;
                n++;
                break;
            }
            n -= 4;
            d[r] = 0;
        }
    }
}

/* The keys of one suit with a nonzero weight, grouped by tile count. Returns -1 when out of
 * memory (nothing left allocated), else 0; free s->keys after use. */
static int mx_suit(const uint8_t *copies, mx_suit_t *s) {
    size_t cells = (size_t)MJ.n_full * (MX_MAX_TILES + 1) * MX_NP;
    uint64_t *dense = (uint64_t *)calloc(cells, sizeof *dense);
    s->keys = (mx_key_t *)malloc(cells * sizeof *s->keys);
    if (!dense || !s->keys) {
        free(dense);
        free(s->keys);
        s->keys = NULL;
        return -1;
    }
    mx_weigh(copies, dense);
    int m = 0;
    for (int n = 0; n <= MX_MAX_TILES; n++) {
        s->start[n] = m;
        for (int k = 0; k < MJ.n_full; k++) {
            for (int p = 0; p < MX_NP; p++) {
                uint64_t w = dense[(k * (MX_MAX_TILES + 1) + n) * MX_NP + p];
                if (w) s->keys[m++] = (mx_key_t){k, n, p, w};
            }
        }
    }
    s->start[MX_MAX_TILES + 1] = m;
    free(dense);
    return 0;
}

typedef struct {
    int sets, reg, sev;
} mx_target_t;

/* Distance of two live suits (the void rule's term for the third suit void). */
static inline int mx_two(const mx_key_t *x, const mx_key_t *y, const mx_target_t *g) {
    int best = g->reg ? mj_comb2(MJ.vec + 10 * x->k, MJ.vec + 10 * y->k, g->sets) : MJ_INF;
    if (g->sev) {
        int sv = mj_seven_of(x->p + y->p, x->n + y->n - 2 * (x->p + y->p));
        best = sv < best ? sv : best;
    }
    return best;
}

static inline int mx_three(const mx_key_t *x, const mx_key_t *y, const mx_key_t *z,
                           const mx_target_t *g) {
    int best = g->reg ? mj_comb3(MJ.vec + 10 * x->k, MJ.vec + 10 * y->k, MJ.vec + 10 * z->k, g->sets)
                      : MJ_INF;
    if (g->sev) {
        int p = x->p + y->p + z->p;
        int sv = mj_seven_of(p, x->n + y->n + z->n - 2 * p);
        best = sv < best ? sv : best;
    }
    return best;
}

static inline int mx_bin(int distance) { return distance < MX_BINS - 1 ? distance : MX_BINS - 1; }

/* Two-suit distances of every key pair of suits a and b (n_a + n_b <= n), as bytes in a
 * table of [keys of a][keys of b]; NULL when out of memory. */
static uint8_t *mx_pair_table(const mx_suit_t *a, const mx_suit_t *b, int n, const mx_target_t *g) {
    int na = a->start[MX_MAX_TILES + 1], nb = b->start[MX_MAX_TILES + 1];
    uint8_t *t = (uint8_t *)malloc((size_t)na * nb + 1);
    if (!t) return NULL;
    for (int i = 0; i < na; i++) {
        for (int j = 0; j < nb; j++) {
            const mx_key_t *x = &a->keys[i], *y = &b->keys[j];
            t[(size_t)i * nb + j] = (uint8_t)(x->n + y->n <= n ? mx_two(x, y, g) : MJ_INF);
        }
    }
    return t;
}

/* Convolve the keys of suits 0, 1 (x, y) with suit 2's keys of the remaining tile count. */
static void mx_convolve(const mx_suit_t *s, int n, int void_rule, const mx_target_t *g,
                        const uint8_t *d02, const uint8_t *d12, uint64_t *hist) {
    int n2 = s[2].start[MX_MAX_TILES + 1];
    for (int i = 0; i < s[0].start[n + 1]; i++) {
        const mx_key_t *x = &s[0].keys[i];
        for (int j = 0; j < s[1].start[n - x->n + 1]; j++) {
            const mx_key_t *y = &s[1].keys[j];
            int rest = n - x->n - y->n;
            uint64_t acc[MX_BINS] = {0};
            int dxy = void_rule ? mx_two(x, y, g) : 0;
            for (int l = s[2].start[rest]; l < s[2].start[rest + 1]; l++) {
                const mx_key_t *z = &s[2].keys[l];
                int dist;
                if (void_rule) {
                    int a = d02[(size_t)i * n2 + l], b = d12[(size_t)j * n2 + l];
                    dist = dxy < a ? dxy : a;
                    dist = b < dist ? b : dist;
                } else {
                    dist = mx_three(x, y, z, g);
                }
                acc[mx_bin(dist)] += z->w;
            }
            uint64_t wxy = x->w * y->w;
            for (int b = 0; b < MX_BINS; b++) hist[b] += wxy * acc[b];
        }
    }
}

/* Deals of n tiles (1-14, not a multiple of 3) from a wall with copies[27] (0-4) of each kind,
 * per distance: hist[MX_BINS] (last bin: cannot win). form: MJ_FORM_*. Returns -1 when out of
 * memory, else 0. */
static int mx_exact(int n, const uint8_t *copies, int void_rule, int form, uint64_t *hist) {
    mx_suit_t s[3] = {{NULL, {0}}, {NULL, {0}}, {NULL, {0}}};
    uint8_t *d02 = NULL, *d12 = NULL;
    mx_target_t g = {(n - 1) / 3, form != MJ_FORM_SEVEN_PAIRS, form != MJ_FORM_REGULAR && n >= 13};
    int rc = 0;
    memset(hist, 0, MX_BINS * sizeof *hist);
    for (int i = 0; i < 3 && rc == 0; i++) rc = mx_suit(copies + 9 * i, &s[i]);
    if (rc == 0 && void_rule) {
        d02 = mx_pair_table(&s[0], &s[2], n, &g);
        d12 = mx_pair_table(&s[1], &s[2], n, &g);
        rc = d02 && d12 ? 0 : -1;
    }
    if (rc == 0) mx_convolve(s, n, void_rule, &g, d02, d12, hist);
    free(d02);
    free(d12);
    for (int i = 0; i < 3; i++) free(s[i].keys);
    return rc;
}

#endif
