/* mjfast forecast engine, step 1: the flush plan's own expansions (the overview is in
 * mjfast_forecast.h; RULES.md 9 defines the plan).
 *
 * Under a flush of suit f the tiles of the other two suits (and of the void suit) are dead:
 * they count for neither the shanten nor a win, and while one is held every discard must be
 * one (cost 0, any one). So a state is (the suit-f counts, the number of dead tiles held, the
 * exchanges spent): fc_pack_dead writes the dead tiles as a count, and the probabilities see a
 * dead draw only as "not of suit f" (discarded at once: a stay, its mass the copies of all dead
 * kinds). Two phases follow from the rules, and each has a lean expansion here in place of the
 * general one (fc_expand), with the same graph as the result:
 *  - the dead phase (a dead tile held, at any budget): no draw can win (13 - 3m suit tiles at
 *    most before the discard, and a win needs 14 - 3m), and no discard is a choice, so a draw of
 *    suit f not held four times is one group of one successor, the suit counts plus that tile
 *    with one dead tile less (fc_flush_dead); on the frontier only a draw that lowers the
 *    shanten is kept (the others cannot be ready in time: dropped, as fc_successors does);
 *  - the last move into ready (no dead tile, no exchange left, shanten 1, objective "win"):
 *    the ready hands a progress draw can leave are leaves worth 1 - (1 - pwin)^t, so the pick is
 *    the one with the most winning copies, the lowest discard among equals (fc_collapse's rule);
 *    it is found from the suit's wait table (fc_flush_ready) before any state is made, instead
 *    of making and expanding every candidate leaf.
 * A ready leaf of the flush (no dead tile, no exchange left, objective "win") is worth, and
 * flows, by its win, stay and payment numbers only, and those come from its drawable waits and
 * the capped fan of each: its state is keyed by those (fc_flush_leaf_key), so the many ready
 * hands of one suit that are alike are one state from the start (fc_merge did it after they
 * were all made). The values, picks and curves are the general ones. Plain C, no Python.
 */
#ifndef MJFAST_FORECAST_FLUSH_H
#define MJFAST_FORECAST_FLUSH_H

#include "mjfast_forecast_graph.h"

/* Dead tiles (of the row's dead suits) in the counts c. */
static inline int fc_dead_held(const fc_work_t *w, const uint8_t *c) {
    int n = 0;
    for (int q = 0; q < 3; q++)
        if (w->dead_suits >> q & 1)
            for (int r = 0; r < 9; r++) n += c[9 * q + r];
    return n;
}

/* The flush distance of the counts c plus one tile of kind k (of suit f). */
static int fc_flush_plus(const fc_work_t *w, const uint8_t *c, int k) {
    uint8_t x[27];
    memcpy(x, c, 27);
    x[k]++;
    return fc_flush_dist(&w->tmpl, x, w->flush);
}

/* The key of the ready leaf that discard d leaves from the loaded 14 - 3m hand g of suit f (no
 * dead tile, no exchange left, objective "win": fc_lazy_pay): not the hand but what its numbers
 * come from, so that leaves alike are one state from the start (as fc_merge would make them):
 * the drawable waits (fc_leaf_wins: its win and stay) and, per rank, 1 + the capped fan of a
 * wait that pays (fc_paid: its payment), 6 bits each, above every hand key (5^27 < 2^63). */
static uint64_t fc_flush_leaf_key(const fc_work_t *w, const mj_hand_t *g, int d) {
    const int f = w->flush, n_pay = w->job->n_pay;
    mj_hand_t u = *g;
    fc_adjust(&u, d, -1);
    uint32_t wins = fc_leaf_wins(w, &u);
    uint64_t fans = 0;
    if (wins) {
        mf_info_t fi;
        int32_t err[3];
        int val[27];
        mf_info(&u, NULL, &fi, err); /* no concealed-kong marks: no error */
        uint32_t paid = wins & mf_wait_totals(w->job->rules, &u, &fi, w->vs, val);
        for (; paid; paid &= paid - 1) {
            int k = mj_ctz(paid), fan = mf_capped(w->job->rules, val[k] + w->job->rules[MF_R_ZIMO]);
            fans |= (uint64_t)(1 + (fan < 0 ? 0 : fan >= n_pay ? n_pay - 1 : fan)) << (6 * (k - 9 * f));
        }
    }
    return 1ULL << 63 | (uint64_t)(wins >> (9 * f)) << 54 | fans;
}

/* Whether the flush plan's ready leaves are keyed by fc_flush_leaf_key (objective "win" with a
 * budget, and the payment table's fans fit its 6 bits). */
static inline int fc_flush_leaves(const fc_work_t *w) {
    return w->flush >= 0 && w->budget >= 0 && w->job->objective == FC_OBJ_WIN && w->job->n_pay < 63;
}

/* Expand state s of the dead phase (ndead > 0 dead tiles held, packed): each draw of suit f not
 * held four times (melds included) keeps that tile and discards the packed dead tile (the
 * highest dead kind held: the rest stays packed), the same exchanges spent; every other draw is
 * a stay. No draw wins. Returns MJ_OK or an FC_ERR_*. */
static int fc_flush_dead(fc_work_t *w, int64_t s, int ndead) {
    uint8_t c[27];
    memcpy(c, w->g.cnt[s].c, 27);
    const int sh = w->g.sh[s], depth = w->g.depth[s], e = w->g.ex[s];
    const int front = sh == w->T - depth; /* only a draw that lowers the shanten is kept */
    int last = 26;
    while (!c[last] || !(w->dead_suits >> (last / 9) & 1)) last--;
    uint32_t full = 0;
    for (int t = 9 * w->flush; t < 9 * w->flush + 9; t++)
        full |= (uint32_t)(c[t] + (w->melds ? w->melds[t] : 0) >= 4) << t;
    uint32_t stay = w->pool & (full | w->dead), rest = w->pool & ~stay;
    const int leafy = ndead == 1 && e == w->budget && fc_flush_leaves(w) && !front;
    if (!fc_grow(w, (void **)&w->g.edges, &w->g.ecap, w->g.ne + 27, sizeof(int32_t))) return FC_ERR_NOMEM;
    w->g.e0[s] = w->g.ne;
    for (; rest; rest &= rest - 1) {
        int k = mj_ctz(rest);
        uint64_t key = w->g.key[s] + w->wt[k] - w->wt[last], slot;
        int64_t id = front ? -1 : fc_find(w, key, fc_tag(e, -1), &slot);
        if (id < 0 && leafy) { /* the last dead tile goes: a ready hand is a leaf (by its key) */
            int dist = fc_flush_plus(w, c, k);
            if (dist == 1) {
                mj_hand_t g;
                fc_fill(w, s, &g);
                fc_adjust(&g, k, +1);
                uint64_t leaf = fc_flush_leaf_key(w, &g, last);
                id = fc_state(w, fc_flush_leaf_key(w, &g, last), e, -1, 0, depth + 1, g.c, last);
                if (id < 0) return (int)-id;
            }
        }
        if (id < 0) {
            int dist = fc_flush_plus(w, c, k);
            if (front && dist > sh) continue; /* (dropped: never ready in time) */
            c[k]++;
            id = fc_state(w, key, e, -1, mj_shanten_of(dist), depth + 1, c, last);
            c[k]--;
            if (id < 0) return (int)-id;
        }
        w->g.ref[id] = 1;
        w->g.edges[w->g.ne++] = FC_HEAD(k, 1);
        w->g.edges[w->g.ne++] = -1;
        w->g.edges[w->g.ne++] = (int32_t)id;
    }
    w->g.e1[s] = w->g.ne;
    w->g.stay[s] = (double)fc_copies(w, stay) / w->total;
    w->g.pwin[s] = w->g.ppay[s] = 0.0;
    w->g.mark[s] = FC_EXPANDED;
    w->g.nv[s] = (uint8_t)ndead;
    return MJ_OK;
}

/* The drawable winning copies of the ready hand of suit-f counts x (base-5 index idx, odd kinds
 * odd) with the row's melds: regular waits from the suit's wait table (the other suits are
 * empty, so complete), seven pairs' single odd kind (meld-free, 4 sets); no fifth copy (as
 * mj_hand_waits and fc_stays). */
static int fc_flush_wins(const fc_work_t *w, const uint8_t *x, int32_t idx, int odd) {
    const int f = w->flush;
    uint32_t m = MJ.wmask[idx] & 0x1FFu;
    if (!w->melds && w->tmpl.sets == 4 && odd == 1)
        for (int r = 0; r < 9; r++) m |= (uint32_t)(x[r] & 1) << r;
    for (int r = 0; r < 9; r++)
        if (x[r] + (w->melds ? w->melds[9 * f + r] : 0) >= 4) m &= ~(1u << r);
    return fc_copies(w, (m << (9 * f)) & w->pool);
}

/* Of the discards cand of the 14 - 3m hand g (all of suit f, each leaving a ready leaf), the
 * one whose leaf has the most winning copies; the lowest among equals (fc_collapse). */
static int fc_flush_ready(const fc_work_t *w, const mj_hand_t *g, uint32_t cand) {
    const int f = w->flush;
    uint8_t x[9];
    memcpy(x, g->c + 9 * f, 9);
    const int32_t idx = g->idx[f];
    int odd = 0, best = -1, pick = mj_ctz(cand);
    for (int r = 0; r < 9; r++) odd += x[r] & 1;
    for (; cand; cand &= cand - 1) {
        int d = mj_ctz(cand), r = d - 9 * f;
        x[r]--;
        int won = fc_flush_wins(w, x, idx - MJ_POW[r], odd + ((x[r] & 1) ? 1 : -1));
        x[r]++;
        if (won > best) {
            best = won;
            pick = d;
        }
    }
    return pick;
}

#endif
