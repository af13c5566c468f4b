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
 *  - the dead phase (a dead tile held; without exchanges it is not expanded at all but taken
 *    in closed form, mjfast_forecast_entry.h, so this serves the budgets): no draw can win (13 - 3m suit tiles at
 *    most before the discard, and a win needs 14 - 3m), and no discard is a choice, so a draw of
 *    suit f not held four times is one group of one successor, the suit counts plus that tile
 *    with one dead tile less (fc_flush_dead); on the frontier only a draw that lowers the
 *    shanten is kept (the others cannot be ready in time: dropped, as fc_successors does);
 *  - the last move into ready (no dead tile, no exchange left, shanten 1, objective "win"):
 *    the ready hands a progress draw can leave are leaves worth 1 - (1 - pwin)^t, so the pick is
 *    the one with the most winning copies, the lowest discard among equals (fc_collapse's rule);
 *    it is found from the suit's wait table (fc_flush_ready) before any state is made, instead
 *    of making and expanding every candidate leaf.
 * The values, picks and curves are the general ones. Plain C, no Python.
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
    if (!fc_grow(w, (void **)&w->g.edges, &w->g.ecap, w->g.ne + 27, sizeof(int32_t))) return FC_ERR_NOMEM;
    w->g.e0[s] = w->g.ne;
    for (; rest; rest &= rest - 1) {
        int k = mj_ctz(rest);
        uint64_t key = w->g.key[s] + w->wt[k] - w->wt[last], slot;
        int64_t id = front ? -1 : fc_find(w, key, fc_tag(e, -1), &slot);
        if (id < 0) {
            int dist = fc_flush_plus(w, c, k);
            if (front && dist > sh) continue; /* (dropped: never ready in time) */
            c[k]++;
            id = fc_state(w, key, e, -1, mj_shanten_of(dist), depth + 1, c, last);
            c[k]--;
            if (id < 0) return (int)-id;
        }
        fc_edge_one(w, k, id);
    }
    w->g.e1[s] = w->g.ne;
    w->g.stay[s] = (double)fc_copies(w, stay) / w->total;
    w->g.pwin[s] = w->g.ppay[s] = 0.0;
    w->g.mark[s] = FC_EXPANDED;
    w->g.nv[s] = (uint8_t)ndead;
    return MJ_OK;
}

/* The drawable winning kinds of the ready hand of suit-f counts x (base-5 index idx, odd kinds
 * odd) with the row's melds: regular waits from the suit's wait table (the other suits are
 * empty, so complete), seven pairs' single odd kind (meld-free, 4 sets); no fifth copy (as
 * mj_hand_waits and fc_stays). */
static uint32_t fc_flush_winmask(const fc_work_t *w, const uint8_t *x, int32_t idx, int odd) {
    const int f = w->flush;
    uint32_t m = MJ.wmask[idx] & 0x1FFu;
    if (!w->melds && w->tmpl.sets == 4 && odd == 1)
        for (int r = 0; r < 9; r++) m |= (uint32_t)(x[r] & 1) << r;
    for (int r = 0; r < 9; r++)
        if (x[r] + (w->melds ? w->melds[9 * f + r] : 0) >= 4) m &= ~(1u << r);
    return (m << (9 * f)) & w->pool;
}

/* Their copies. */
static inline int fc_flush_wins(const fc_work_t *w, const uint8_t *x, int32_t idx, int odd) {
    return fc_copies(w, fc_flush_winmask(w, x, idx, odd));
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
