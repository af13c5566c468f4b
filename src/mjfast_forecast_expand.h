/* mjfast forecast engine, step 1: the breadth-first build of the state graph (the overview is in
 * mjfast_forecast.h). Owns the expansion of a state (fc_expand) into its draws and the edge groups
 * of successor states (fc_group, fc_successors, remembered per 14 - 3m hand: fc_memo_t).
 *
 * Breadth first from the start hands, so a state's depth is the fewest draws that reach it. A
 * state of shanten s first reached after j draws is expanded only when s <= T - j (else it can
 * neither become ready nor win in time: it stays a leaf worth 0). Expanding it loads the hand
 * from its stored counts (fc_fill) and sorts the 27 draws with 27-bit masks and one probe pass
 * (fc_classify): a winning draw adds to the state's win probability and expected payment, a
 * fifth copy (and, without exchanges left, a draw that does not lower the shanten) to its stay
 * probability; any other draw becomes one edge group listing the successor states of its allowed
 * discards in tile order.
 * Exact pruning. On the frontier (s = T - j) every successor is worth 0 after the draw, so the
 * pick is the lowest allowed discard: a group lists only it, and only when it lowers the shanten
 * (else the mass can neither win nor be ready in time, and is dropped). One draw short of it with
 * exchanges (s = T - j - 1), successors that keep the shanten are worth 0 at every t the state
 * sees, so only the first of them (the all-zero pick) is listed. Without exchanges left, under
 * objective "win" a group whose successors are all ready leaves lists only its best
 * (fc_collapse). Plain C, no Python.
 */
#ifndef MJFAST_FORECAST_EXPAND_H
#define MJFAST_FORECAST_EXPAND_H

#include "mjfast_forecast_flush.h" /* the flush plan's dead phase and ready pick */

static int fc_expand(fc_work_t *w, int64_t s);


/* Whether fc_collapse may pass over ready leaves (objective "win" with a budget): then a leaf's
 * payment waits until the build is done (fc_leaf_pays), for the leaves some group lists. */
static inline int fc_lazy_pay(const fc_work_t *w) {
    return w->budget >= 0 && w->job->objective == FC_OBJ_WIN;
}

/* Whether a ready leaf's payment waits for fc_leaf_pays (fc_lazy_pay with exchanges left to
 * spend: many leaves fc_collapse weighs are passed over). Without exchanges nearly every leaf
 * it weighs is one that a group lists (98.5% on two-suit 2-shanten hands), so it is paid at its
 * expansion, while its hand is loaded. */
static inline int fc_pay_later(const fc_work_t *w) { return fc_lazy_pay(w) && w->budget > 0; }

/* The one successor a group of count > 1 successors (edges[at..]) picks at every t, or -1. Under
 * objective "win" with a budget, when every successor is a ready leaf (no exchange left; expanded
 * here: a leaf creates no states), V_t = 1 - (1 - pwin)^t grows with pwin for t >= 1, so the pick
 * is the highest pwin (the lowest discard within FC_TIE); with no draw left after it (t = 1)
 * every successor is worth 0 and counts as ready alike, so the curves are the same. */
static int64_t fc_collapse(fc_work_t *w, int64_t at, int count, int *code) {
    if (!fc_lazy_pay(w)) return -1;
    double best = -1.0;
    for (int i = 0; i < count; i++) {
        int32_t x = w->g.edges[at + i];
        if (w->g.sh[x] != 0 || w->g.depth[x] >= w->T || w->g.ex[x] != w->budget) return -1; /* (no leaf) */
        if (w->g.mark[x] == FC_NEW && (*code = fc_expand(w, x)) != MJ_OK) return -1;
        if (w->g.mark[x] != FC_LEAF) return -1;
        if (w->g.pwin[x] > best) best = w->g.pwin[x];
    }
    for (int i = 0; i < count; i++)
        if (w->g.pwin[w->g.edges[at + i]] >= best - FC_TIE * best) return w->g.edges[at + i];
    return -1;
}

/* What fc_expand knows of the state it expands, for its groups. */
typedef struct {
    int64_t s;
    mj_hand_t *h; /* (fc_successors draws onto it and back) */
    uint32_t held, vmask;
    int dh, front, near, held_void, last_void;
    int pv;   /* the state's plan (fc_plan_of), or -1 */
    int ex;   /* discards allowed beyond progress: 0 none, 1 same shanten, 2 backward too */
    int e;    /* exchanges spent (with a budget) */
} fc_from_t;

/* The plan pv of a state holding n tiles of its suit: with a budget none when it holds none (its
 * packing would change nothing: the states of such hands are those fc_suit_left leaves without
 * one, so that a hand is one state whatever path reached it). */
static inline int fc_plan_held(const fc_work_t *w, int pv, int n) {
    return w->budget > 0 && !n ? -1 : pv;
}

/* Whether the loaded 14 - 3m hand g less a tile of kind d holds no tile of some suit q. Then q
 * is its best void suit, if one is (a win of the other two suits costs no more than one of q and
 * another: the hand holds no q tile to match), so its plan would pack nothing: with a budget such
 * hands go without one (fc_plan_of's probes saved). */
static inline int fc_suit_left(const mj_hand_t *g, int d) {
    return !(g->n[0] - (d < 9)) || !(g->n[1] - (d / 9 == 1)) || !(g->n[2] - (d >= 18));
}

/* The successor state of discard d from the loaded 14 - 3m hand g of key gkey (drawn onto state
 * f->s), with e exchanges spent and shanten sh. With a plan the discard of a tile of its suit takes
 * the one that keeps the suit packed; a state without one, in a row with plans, gives its
 * successors without an exchange left theirs (fc_plan_of), so the discards of several tiles of
 * that suit may give the same state. Returns its id, or -FC_ERR_*. */
static MJ_ALWAYS_INLINE int64_t fc_next(fc_work_t *w, const fc_from_t *f, const mj_hand_t *g, int d,
                                        uint64_t gkey, int e, int sh) {
    int depth = w->g.depth[f->s] + 1;
    if (f->pv >= 0) {
        int drop = d / 9 == f->pv ? fc_plan_drop(f->pv, g->n[f->pv]) : d;
        int pv = fc_plan_held(w, f->pv, g->n[f->pv] - (drop / 9 == f->pv));
        return fc_state(w, gkey - w->wt[drop], e, pv, sh, depth, g->c, drop);
    }
    if (!w->plans || e < w->budget || (w->budget > 0 && fc_suit_left(g, d)))
        return fc_state(w, gkey - w->wt[d], e, -1, sh, depth, g->c, d);
    mj_hand_t x = *g;
    fc_adjust(&x, d, -1);
    int pv = fc_plan_of(&x);
    if (pv < 0) return fc_state(w, gkey - w->wt[d], e, -1, sh, depth, g->c, d);
    fc_pack_plan(x.c, pv);
    return fc_state(w, fc_key(x.c), e, pv, sh, depth, x.c, -1);
}

/* The successors of state f->s after draw k (the 14 - 3m hand of key gkey): the states of its
 * allowed discards in tile order, appended to the edges. With a budget each has its exchanges
 * spent (RULES.md 9): progress and forced discards cost 0; the drawn tile back 0, or 1 when a
 * discard would make progress (declining it is priced as an exchange, so that a budget of 0 is
 * the riichi engines' class); any other discard (same shanten, or backward) 1. Returns their
 * count, or -FC_ERR_*. */
static MJ_ALWAYS_INLINE int fc_successors_of(fc_work_t *w, const fc_from_t *f, int k, uint64_t gkey,
                                             mj_hand_t *g) {
    const int ex = f->ex, priced = w->budget > 0;
    int forced = f->held_void || (f->vmask >> k & 1); /* 定缺 (or the flush): discard a dead tile */
    int count = 0;
    uint8_t d13[27];
    /* one successor (a forced discard of the packed void tile, or the frontier's lowest allowed
     * discard): probe the discards one by one until it is found; else all at once */
    int one = f->front || (forced && w->canon);
    if (!one) fc_probes_of(w, g, -1, d13);
    uint32_t cand = f->held | 1u << k; /* the allowed discards among the tiles held */
    /* (on the frontier only progress is listed, so the drawn tile's price is not needed there) */
    int progress = priced && ex && !one && !forced && (cand & fc_below(d13, f->dh));
    if (!one && !forced) cand &= fc_below(d13, f->dh + ex);
    if (forced) cand &= w->canon ? 1u << f->last_void : f->vmask;
    else if (w->flush >= 0 && !ex && f->dh == 2 && !f->front && fc_lazy_pay(w) && (cand & (cand - 1)))
        cand = 1u << fc_flush_ready(w, g, cand); /* fc_collapse's pick, no leaf made */
    uint32_t pm = f->pv >= 0 ? 0x1FFu << (9 * f->pv) : 0u;
    if (cand & pm) cand = (cand & ~pm) | ((cand & pm) & (~(cand & pm) + 1)); /* one: all alike */
    for (; cand; cand &= cand - 1) {
        int d = mj_ctz(cand);
        uint64_t slot;
        if (one && forced && !f->front) { /* a forced discard's successor: its distance only if new */
            int64_t id = fc_find(w, gkey - w->wt[d], fc_tag(f->e, -1), &slot);
            if (id >= 0) {
                w->g.edges[w->g.ne++] = (int32_t)id;
                return 1;
            }
        }
        if (one) {
            d13[d] = (uint8_t)fc_without(w, g, d);
            if (!forced && d13[d] >= f->dh + ex) continue;
        }
        if (f->front && d13[d] >= f->dh) break; /* on the frontier: dropped (fc_expand) */
        if (f->near && count && d13[d] >= f->dh) continue;
        int e = f->e + (priced && !forced && d13[d] >= f->dh && (d != k || progress));
        int64_t id = f->s;
        if (d != k || e != f->e) {
            id = fc_next(w, f, g, d, gkey, e, mj_shanten_of(d13[d]));
            if (id < 0) return (int)id;
            if (count && w->g.edges[w->g.ne - 1] == id) continue; /* (packed alike: fc_next) */
        }
        w->g.edges[w->g.ne++] = (int32_t)id;
        count++;
        if (one) break;
    }
    return count;
}

/* fc_successors_of on the hand of f with the drawn tile, in place (fc_adjust there and back:
 * no copy of the hand per draw; its classes are stale after, which nothing reads unloaded). */
static MJ_ALWAYS_INLINE int fc_successors(fc_work_t *w, const fc_from_t *f, int k, uint64_t gkey) {
    fc_adjust(f->h, k, +1);
    int count = fc_successors_of(w, f, k, gkey, f->h);
    fc_adjust(f->h, k, -1);
    return count;
}

/* The memo key of draw k onto the state of f, whose draws share mkey: with a budget and
 * exchanges left the drawn tile's price depends on the draw. */
static inline int fc_mkey(const fc_work_t *w, const fc_from_t *f, int k, int mkey) {
    return w->budget > 0 && f->ex ? mkey | (k + 1) << 15 : mkey;
}

/* Whether memo entry m holds key under mkey for this row (else it is another's, or stale). */
static inline int fc_memo_hit(const fc_work_t *w, const fc_memo_t *m, uint64_t key, int mkey) {
    return m->row == w->g.row && m->key == key && (m->tag & 0xFFFFFF) == (uint32_t)mkey;
}

/* The memo entry of the 14 - 3m hand gkey under mkey. A small graph uses the first 4 hcap
 * entries of the memo: they stay in cache. */
static inline fc_memo_t *fc_memo_at(const fc_work_t *w, uint64_t gkey, int mkey) {
    return w->g.memo + (fc_hash(gkey * 31 + (uint64_t)mkey) & (uint64_t)(fc_memo_span(w) - 1));
}

/* The group of state f->s for draw k at the end of the edges: its successors (remembered per
 * 14 - 3m hand of key gkey under mkey: fc_memo_t, at m), one if fc_collapse says so. With a
 * budget a group that lists only the state itself (the drawn tile back, every other discard
 * barred) is none: its draw stays (*stay). Returns MJ_OK or an FC_ERR_*. */
static MJ_ALWAYS_INLINE int fc_group(fc_work_t *w, const fc_from_t *f, int k, uint64_t gkey, int mkey,
                                     fc_memo_t *m, int *stay) {
    int64_t head = w->g.ne;
    w->g.ne += 2;
    if (fc_memo_hit(w, m, gkey, mkey)) {
        int mc = (int)(m->tag >> 24);
        const int32_t *from = w->g.edges + m->off;
        for (int i = 0; i < mc; i++) w->g.edges[w->g.ne + i] = from[i]; /* a few: no memcpy call */
        w->g.ne += mc;
        w->g.edges[head] = FC_HEAD(k, mc);
        /* the same successors: the first group's picks serve (it covers every t this one needs:
         * its state is expanded first, so it has no greater depth, and the same shanten) */
        w->g.edges[head + 1] = mc > 1 ? (w->g.edges[m->off - 1] | FC_SHARED) : -1;
        if (!mc) w->g.ne = head;
        return MJ_OK;
    }
    int count = fc_successors(w, f, k, gkey);
    if (count < 0) return -count;
    if (w->budget > 0 && count == 1 && w->g.edges[head + 2] == f->s) { /* (never remembered: k is in mkey) */
        w->g.ne = head;
        *stay = 1;
        return MJ_OK;
    }
    if (count > 1) {
        int code = MJ_OK;
        int64_t pick = fc_collapse(w, head + 2, count, &code);
        if (code != MJ_OK) return code;
        if (pick >= 0) {
            w->g.edges[head + 2] = (int32_t)pick;
            w->g.ne = head + 3;
            count = 1;
        }
    }
    for (int i = 0; i < count; i++) {
        w->g.ref[w->g.edges[head + 2 + i]] = 1;
        if (w->g.edges[head + 2 + i] == f->s && w->budget >= 0) w->g.loop[f->s] = 1;
    }
    w->g.edges[head] = FC_HEAD(k, count);
    w->g.edges[head + 1] = count > 1 ? (int32_t)w->g.ngroups++ : -1; /* one successor: no pick */
    *m = (fc_memo_t){gkey, head + 2, w->g.row, (uint32_t)mkey | (uint32_t)count << 24};
    if (!count) w->g.ne = head;
    return MJ_OK;
}

/* The unneeded kinds of the state of f (no exchange left: only progress is allowed): the held
 * kinds whose discard keeps the distance dh (one discard probe of the 13 - 3m hand X). Only they
 * can make progress after a draw: a draw lowers a distance by at most 1, so X - d of distance
 * dh + 1 gives X + k - d of at least dh. With one, f (a floater), the groups are the draws k that
 * lower the distance of the core C = X - f, each with the one successor C + k, the same for every
 * hand of that core (fc_expand_core). */
static uint32_t fc_unneeded(const fc_work_t *w, const fc_from_t *f, mj_hand_t *h) {
    uint8_t d12[27];
    fc_probes_of(w, h, -1, d12);
    return f->held & fc_below(d12, f->dh + 1);
}

#define FC_CORE (1 << 23) /* a memo tag bit: the groups of a core (fc_expand_core), not a hand's */

/* The groups of draws groups onto the state of f whose floater is fl (fc_unneeded): each the one
 * successor X + k - fl, a distance lower. Returns MJ_OK or an FC_ERR_*. */
static int fc_groups_floater(fc_work_t *w, const fc_from_t *f, uint32_t groups, int fl) {
    uint8_t c[27];
    memcpy(c, w->g.cnt[f->s].c, 27);
    int pv = f->pv; /* (a draw of its suit never lowers the distance: not among the groups) */
    if (pv >= 0) pv = fc_plan_held(w, pv, f->h->n[pv] - (fl / 9 == pv));
    for (; groups; groups &= groups - 1) {
        int k = mj_ctz(groups);
        c[k]++;
        int64_t id = fc_state(w, w->g.key[f->s] + w->wt[k] - w->wt[fl], f->e, pv,
                              mj_shanten_of(f->dh - 1), w->g.depth[f->s] + 1, c, fl);
        c[k]--;
        if (id < 0) return (int)-id;
        fc_edge_one(w, k, id);
    }
    return MJ_OK;
}

/* Expand the spent state of f (no exchange left, shanten >= 1, no dead suit, no flush; loaded as
 * h) whose floater is fl: its groups are its core's (fc_unneeded), remembered per core (the memo
 * under FC_CORE, with the distance and the frontier flag) and copied for the next hand of that
 * core, which then needs no probe of its draws either; its stay: every other draw (on the
 * frontier: only fifth copies, the rest dropped, as fc_classify), and no winning draw. The first
 * hand of a core is expanded first (breadth first), so its successors' depths serve. */
static int fc_expand_core(fc_work_t *w, const fc_from_t *f, mj_hand_t *h, int fl) {
    int64_t s = f->s;
    uint64_t core = w->g.key[s] - w->wt[fl];
    int mkey = FC_CORE | f->dh | f->front << 8 | f->e << 10 | (f->pv + 1) << 20;
    fc_memo_t *m = fc_memo_at(w, core, mkey);
    uint32_t groups = 0, stays, wins;
    if (!fc_grow(w, (void **)&w->g.edges, &w->g.ecap, w->g.ne + 27 * 3, sizeof(int32_t))) return FC_ERR_NOMEM;
    w->g.e0[s] = w->g.ne;
    if (fc_memo_hit(w, m, core, mkey)) {
        int n = (int)(m->tag >> 24);
        const int32_t *from = w->g.edges + m->off;
        for (int i = 0; i < n; i++) groups |= 1u << fc_head_p(from[3 * i]);
        memcpy(w->g.edges + w->g.ne, from, (size_t)(3 * n) * sizeof(int32_t));
        w->g.ne += 3 * n;
    } else {
        int dh;
        groups = fc_classify(w, s, h, 0, f->front, 0, 0u, &dh, &stays, &wins);
        int code = fc_groups_floater(w, f, groups, fl);
        if (code != MJ_OK) return code;
        *m = (fc_memo_t){core, w->g.e0[s], w->g.row, (uint32_t)mkey | (uint32_t)mj_popcount(groups) << 24};
    }
    stays = f->front ? fc_stays(w, h) : w->pool & ~groups;
    w->g.e1[s] = w->g.ne;
    w->g.stay[s] = (double)fc_copies(w, stays) / w->total;
    w->g.pwin[s] = w->g.ppay[s] = 0.0;
    w->g.mark[s] = FC_EXPANDED;
    w->g.nv[s] = 0;
    return MJ_OK;
}

/* Expand the ready leaf s (no exchange left, no dead tile held): every draw wins or leaves the
 * hand as it was (a stay), so it has no edge group. A lazily paid leaf (fc_pay_later) keeps its
 * winning draws (a 27-bit mask, exact as a double) in ppay for fc_leaf_pays. */
static void fc_expand_leaf(fc_work_t *w, int64_t s) {
    mj_hand_t h;
    fc_fill(w, s, &h);
    uint32_t wins = fc_leaf_wins(w, &h);
    int won = fc_copies(w, wins);
    w->g.e0[s] = w->g.e1[s] = w->g.ne;
    w->g.stay[s] = (double)(w->total - won) / w->total;
    w->g.pwin[s] = (double)won / w->total;
    w->g.ppay[s] = fc_pay_later(w) ? (double)wins : fc_paid(w, &h, wins);
    w->g.mark[s] = FC_LEAF;
    w->g.nv[s] = 0;
}

/* Expand state s: its aggregated win / pay / stay probabilities and its edge groups
 * (FC_HEAD(k, count), pick id, then count successor ids in discard order). On the frontier
 * (shanten = draws left at the state's first depth) every successor is worth 0 with the draws
 * left after it, so the pick is the lowest allowed discard: only it is listed. One draw short of
 * it (with exchanges), a successor that keeps the shanten is worth 0 at every t the state sees:
 * it can only be picked as the lowest allowed discard (when every successor is worth 0), so only
 * the first of them is listed. Returns MJ_OK or an FC_ERR_*. */
static int fc_expand(fc_work_t *w, int64_t s) {
    int ndead = w->dead_suits ? fc_dead_held(w, w->g.cnt[s].c) : 0;
    if (ndead && w->flush >= 0 && w->canon) return fc_flush_dead(w, s, ndead); /* its own expansion */
    if (!ndead && w->budget >= 0 && w->g.ex[s] >= w->budget && w->g.sh[s] == 0) {
        fc_expand_leaf(w, s);
        return MJ_OK;
    }
    mj_hand_t h;
    fc_fill(w, s, &h);
    int ds = w->dead_suits;
    /* exchanges left: none without a budget, else while some are unspent (backward with them) */
    int ex = w->budget < 0 ? 1 : w->g.ex[s] < w->budget ? 1 + w->job->backward : 0;
    fc_from_t f = {s, &h, 0u, w->dead, 1,
                   w->g.sh[s] == w->T - w->g.depth[s], ex && w->g.sh[s] == w->T - w->g.depth[s] - 1,
                   ndead > 0, -1, w->g.pv[s], ex, w->g.ex[s]};
    /* spent (rows with a budget, whose spent states are most of the graph): a 1-shanten hand with
     * a floater takes its core's groups (fc_expand_core; hands further away hardly ever have one) */
    if (!ex && w->budget > 0 && !ds && w->flush < 0 && w->g.sh[s] == 1) {
        f.dh = w->g.sh[s] + 1;
        f.held = ~fc_below(w->g.cnt[s].c, 1) & 0x7FFFFFFu;
        uint32_t unneeded = fc_unneeded(w, &f, &h);
        if (unneeded && !(unneeded & (unneeded - 1))) return fc_expand_core(w, &f, &h, mj_ctz(unneeded));
    }
    uint32_t stays, wins;
    uint32_t groups = fc_classify(w, s, &h, f.held_void, f.front, ex, f.vmask, &f.dh, &stays, &wins);
    if (!fc_grow(w, (void **)&w->g.edges, &w->g.ecap, w->g.ne + 27 * 16, sizeof(int32_t))) return FC_ERR_NOMEM;
    w->g.e0[s] = w->g.ne;
    for (int t = 0; f.held_void && t < 27; t++) /* the packed dead tile a forced discard takes */
        if (h.c[t] && (ds >> (t / 9) & 1)) f.last_void = t;
    int mkey = f.dh | f.front << 8 | f.near << 9 | f.e << 10 | (f.pv + 1) << 20;
    f.held = groups ? ~fc_below(w->g.cnt[s].c, 1) & 0x7FFFFFFu : 0u;
    fc_memo_t *at[27];
    int mk[27];
    for (uint32_t b = groups; b; b &= b - 1) { /* the memo entries are cache misses: ask early */
        int k = mj_ctz(b);
        mk[k] = fc_mkey(w, &f, k, mkey);
        at[k] = fc_memo_at(w, w->g.key[s] + w->wt[k], mk[k]);
        MJ_PREFETCH(at[k]);
    }
    for (uint32_t b = groups; b; b &= b - 1) {
        int k = mj_ctz(b), back = 0;
        int code = fc_group(w, &f, k, w->g.key[s] + w->wt[k], mk[k], at[k], &back);
        if (code != MJ_OK) return code;
        if (back) stays |= 1u << k;
    }
    w->g.e1[s] = w->g.ne;
    w->g.stay[s] = (double)fc_copies(w, stays) / w->total;
    w->g.pwin[s] = (double)fc_copies(w, wins) / w->total;
    w->g.ppay[s] = fc_paid(w, &h, wins);
    w->g.mark[s] = w->g.e1[s] == w->g.e0[s] && w->g.sh[s] <= 0 ? FC_LEAF : FC_EXPANDED;
    w->g.nv[s] = (uint8_t)ndead;
    return MJ_OK;
}

/* The expected payment of the ready leaves a group lists (fc_pay_later: the others are never
 * read), from the winning draws fc_expand left in their ppay (the leaves without an exchange left
 * or a dead tile held: a state whose groups all went is paid already). */
static void fc_leaf_pays(fc_work_t *w) {
    mj_hand_t h;
    for (int64_t s = 0; s < w->g.n; s++) {
        if (w->g.mark[s] != FC_LEAF || !w->g.ref[s] || w->g.ex[s] < w->budget || w->g.nv[s]) continue;
        fc_fill(w, s, &h);
        w->g.ppay[s] = fc_paid(w, &h, (uint32_t)w->g.ppay[s]);
    }
}

/* Breadth first from the n start states already created; then the payments fc_expand left. */
static int fc_build(fc_work_t *w) {
    for (int64_t s = 0; s < w->g.n; s++) {
        int left = w->T - w->g.depth[s];
        if (left < 1 || w->g.sh[s] > left || w->g.mark[s] != FC_NEW) continue; /* a leaf fc_collapse expanded */
        int code = fc_expand(w, s);
        if (code != MJ_OK || (code = fc_tick(w, w->g.e1[s] - w->g.e0[s])) != MJ_OK) return code;
    }
    if (fc_pay_later(w)) fc_leaf_pays(w);
    return MJ_OK;
}

#endif
