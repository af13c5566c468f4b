# Included by _ext.pyx (the one extension module); its C declarations are _table.pxd.
"""Compiled table engine: self-play of whole hands and batched stepping, by the C state machine
of ``src/mjfast_table.h`` (the port of :mod:`mjfast.table`), on the C library's tables.

Everything here takes validated arrays; :mod:`mjfast.table.selfplay` and
:mod:`mjfast.table.batch` check the arguments and compile the rules.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from mjfast._core._table cimport *

# The loops of Batch over its tables (C in _glue_table.h, compiled at -O3: they run once per table
# and step).
cdef extern from "_glue_table.h" nogil:
    ctypedef struct mjg_obs_t:
        int64_t *scalars
        uint8_t *hand
        int8_t *melds
        int8_t *discards
        uint8_t *taken
        int8_t *voids
        uint8_t *out
        int64_t *scores
        Py_ssize_t w[8]

    void mjg_deal(mt_table_t *t, const mt_rules_t *R, int players, uint64_t seed,
                  uint64_t *dealt)
    int64_t mjg_step(mt_table_t *tables, int n, const int64_t *actions, int64_t *rewards,
                     Py_ssize_t width, uint8_t *done, int deal, const mt_rules_t *R, int players,
                     uint64_t seed, uint64_t *dealt)
    void mjg_observe_rows(const mt_table_t *tables, Py_ssize_t n, const int32_t *which,
                          const int8_t *seats, const mjg_obs_t *o)
    void mjg_observe(const mt_table_t *tables, Py_ssize_t n, const mjg_obs_t *o)
    void mjg_masks(const mt_table_t *tables, int n, uint8_t *out, Py_ssize_t width)
    void mjg_sample(const mt_table_t *tables, int n, int64_t *out, uint64_t *rng)

import numpy as np

NUM_ACTIONS = MT_ACTIONS
MAX_DISCARDS = MT_MAX_DISCARDS
MAX_PLAYERS = MT_MAX_PLAYERS
SCALARS = ("seat", "phase", "current", "dealer", "drawn", "tile", "wall")
"""The scalar observations, in the order of the (n, 7) ``scalars`` output of :meth:`Batch.observe`."""


PARAMS = ("offset", "exposed_kong", "added_kong", "concealed_kong", "hua_zhu", "jia_jia_you",
          "pao_kong", "add_base", "kong_refund", "guo_shui", "zui_hou", "cha_hua_zhu",
          "one_suit", "shai_tai_yang", "dian_gang_hua", "immediate", "rob_transfer", "xue_zhan",
          "ding_que", "di_hu_discard", "jue_zhang")
"""The numbers of ``mt_rules_t`` in the order of a ``params`` array; :data:`MULT` payment
multipliers of internal fan 0, 1, ... follow them."""
MULT = MT_MULT


cdef int _rules(mt_rules_t *R, const int32_t[::1] fan, const int64_t[::1] params) except -1:
    """``params``: the :data:`PARAMS` values, then the :data:`MULT` multipliers."""
    cdef int k = len(PARAMS)
    if params.shape[0] != k + MT_MULT:
        raise ValueError(f"params: expected {k + MT_MULT} values, got {params.shape[0]}")
    R.fan = &fan[0]
    R.mult = &params[k]
    R.offset = <int>params[0]
    R.exposed_kong = params[1]
    R.added_kong = params[2]
    R.concealed_kong = params[3]
    R.hua_zhu = params[4]
    R.jia_jia_you = <int>params[5]
    R.pao_kong = <int>params[6]
    R.add_base = <int>params[7]
    R.kong_refund = <int>params[8]
    R.guo_shui = <int>params[9]
    R.zui_hou = <int>params[10]
    R.cha_hua_zhu = <int>params[11]
    R.one_suit = <int>params[12]
    R.shai_tai_yang = <int>params[13]
    R.dian_gang_hua = <int>params[14]
    R.immediate = <int>params[15]
    R.rob_transfer = <int>params[16]
    R.xue_zhan = <int>params[17]
    R.ding_que = <int>params[18]
    R.di_hu_discard = <int>params[19]
    R.jue_zhang = <int>params[20]
    return 0


def deal_wall(uint64_t seed, uint64_t index):
    """The (108,) uint8 wall of hand ``index`` of a run seeded ``seed``."""
    out = np.empty(108, np.uint8)
    cdef uint8_t[::1] w = out
    mt_deal_wall(seed, index, &w[0])
    return out


cdef inline void _deal_hand(mt_table_t *t, const mt_rules_t *R, int players, int dealer,
                            uint64_t seed, int64_t i, uint64_t *rng) noexcept nogil:
    """Hand i of the run ``seed``: its wall dealt to table t with ``dealer``, and its players'
    random stream seeded (the same for :func:`selfplay` and :class:`Runner`)."""
    cdef uint8_t wall[108]
    mt_deal_wall(seed, <uint64_t>i, wall)
    mt_init(t, R, players, dealer, wall)
    rng[0] = seed ^ (<uint64_t>i * 0xD1B54A32D192ED03ULL)
    mt_next(rng)


cdef class _Results:
    """The per-hand outputs of :func:`selfplay` and :class:`Runner`, one row per hand."""

    cdef int8_t[:, ::1] order
    cdef int16_t[:, ::1] fans
    cdef int64_t[:, ::1] net
    cdef uint8_t[:, ::1] pig
    cdef uint8_t[:, ::1] cha
    cdef uint8_t[:, ::1] dealin
    cdef int32_t[::1] turns
    cdef uint8_t[:, ::1] flags

    def __cinit__(self, int8_t[:, ::1] order, int16_t[:, ::1] fans, int64_t[:, ::1] net,
                  uint8_t[:, ::1] pig, uint8_t[:, ::1] cha, uint8_t[:, ::1] dealin,
                  int32_t[::1] turns, uint8_t[:, ::1] flags):
        self.order, self.fans, self.net, self.pig, self.cha = order, fans, net, pig, cha
        self.dealin, self.turns, self.flags = dealin, turns, flags

    cdef void put(self, const mt_table_t *t, int players, int64_t row) noexcept nogil:
        """Row ``row`` gets table t's finished hand (flags: drawn, 天胡, 一炮多响)."""
        cdef int p
        for p in range(players):
            self.order[row, p] = t.win_order[p]
            self.fans[row, p] = t.win_fan[p]
            self.net[row, p] = t.scores[p]
            self.pig[row, p] = t.hua_zhu[p]
            self.cha[row, p] = t.cha[p]
            self.dealin[row, p] = t.dealt_in[p]
        self.turns[row] = t.turns
        self.flags[row, 0] = <uint8_t>t.ended_drawn
        self.flags[row, 1] = <uint8_t>t.tian_hu
        self.flags[row, 2] = <uint8_t>t.multi


def selfplay(const int32_t[::1] fan, const int64_t[::1] params, const int32_t[::1] kinds,
             uint64_t seed, int64_t start, int64_t end, int8_t[:, ::1] order,
             int16_t[:, ::1] fans, int64_t[:, ::1] net, uint8_t[:, ::1] pig,
             uint8_t[:, ::1] cha, uint8_t[:, ::1] dealin, int32_t[::1] turns,
             uint8_t[:, ::1] flags, int8_t[::1] dealers,
             log, int64_t session=1, bint check=False):
    """Play hands [start, end) of the run ``seed`` with players ``kinds`` (0 random,
    1 efficient), the GIL released; row i - start of each output gets hand i. ``flags``:
    (drawn, 天胡, 一炮多响). ``dealers``: the dealer of each hand: seat 0 for the first hand of
    each session of ``session`` hands (``start`` is the first of one), then the previous hand's
    next dealer. ``log``: None or an (n, L) int16 array for the actions of each hand
    (-1 padded). ``check``: test the engine's invariants after every step (mt_check). Returns
    (row, code) pairs: code -1 for a log that did not fit, else the MT_BAD_* code found."""
    cdef mt_rules_t R
    cdef mt_table_t t
    cdef int ks[MT_MAX_PLAYERS]
    cdef int n = kinds.shape[0], p, steps, dealer = 0
    cdef int64_t i, row
    cdef uint64_t rng
    cdef int16_t[:, ::1] lg
    cdef int16_t *lp = NULL
    cdef int cap = 0
    cdef list overflow = []
    cdef mt_memo_t *memo
    cdef _Results results = _Results(order, fans, net, pig, cha, dealin, turns, flags)
    if not 2 <= n <= MT_MAX_PLAYERS:
        raise ValueError(f"kinds: expected 2 to {MT_MAX_PLAYERS} seats, got {n}")
    _rules(&R, fan, params)
    for p in range(n):
        ks[p] = kinds[p]
    if log is not None:
        lg = log
        cap = lg.shape[1]
    memo = NULL  # for efficient seats (NULL, out of memory, only makes them slower)
    if MT_PLAYER_EFFICIENT in list(kinds):
        memo = mt_memo_new()
    try:
        for i in range(start, end):
            row = i - start
            with nogil:
                if i % session == 0:
                    dealer = 0
                dealers[row] = <int8_t>dealer
                _deal_hand(&t, &R, n, dealer, seed, i, &rng)
                if cap:
                    lp = &lg[row, 0]
                steps = mt_play(&t, ks, &rng, lp, cap, check, memo)
                results.put(&t, n, row)
                dealer = mt_next_dealer(&t)
            if steps < 0:
                overflow.append((row, -1 if steps == -1 else -100 - steps))
    finally:
        free(memo)
    return overflow


cdef void _obs_rows(mjg_obs_t *o, int64_t[:, ::1] scalars, uint8_t[:, ::1] hand,
                    int8_t[:, :, :, ::1] melds, int8_t[:, :, ::1] discards,
                    uint8_t[:, :, ::1] taken, int8_t[:, ::1] voids, uint8_t[:, ::1] out,
                    int64_t[:, ::1] scores) noexcept:
    """The first rows of the observation arrays of :meth:`Batch.observe` and their widths."""
    o.scalars, o.w[0] = &scalars[0, 0], scalars.shape[1]
    o.hand, o.w[1] = &hand[0, 0], hand.shape[1]
    o.melds, o.w[2] = &melds[0, 0, 0, 0], melds.shape[1] * melds.shape[2] * melds.shape[3]
    o.discards, o.w[3] = &discards[0, 0, 0], discards.shape[1] * discards.shape[2]
    o.taken, o.w[4] = &taken[0, 0, 0], taken.shape[1] * taken.shape[2]
    o.voids, o.w[5] = &voids[0, 0], voids.shape[1]
    o.out, o.w[6] = &out[0, 0], out.shape[1]
    o.scores, o.w[7] = &scores[0, 0], scores.shape[1]


cdef class Batch:
    """n C tables stepped together (see :class:`mjfast.table.TableBatch`)."""

    cdef mt_table_t *tables
    cdef mt_rules_t R
    cdef object _fan, _params
    cdef int n, players
    cdef uint64_t seed, dealt, rng

    def __cinit__(self, int n, int players, const int32_t[::1] fan, const int64_t[::1] params,
                  uint64_t seed):
        if not 2 <= players <= MT_MAX_PLAYERS:
            raise ValueError(f"players: expected 2 to {MT_MAX_PLAYERS} seats, got {players}")
        self.tables = <mt_table_t *>malloc(sizeof(mt_table_t) * max(n, 1))
        if self.tables == NULL:
            err = MemoryError(f"TableBatch: {n:,} tables need {sizeof(mt_table_t) * n:,} bytes")
            raise err  # (Cython turns `raise MemoryError(...)` into a bare MemoryError)
        self._fan = np.asarray(fan)  # keep the rules tables alive
        self._params = np.asarray(params)
        _rules(&self.R, fan, params)
        self.n = n
        self.players = players
        self.seed = seed
        self.rng = seed ^ 0x5DEECE66DULL
        self.reset()

    def __dealloc__(self):
        free(self.tables)

    cdef void _deal(self, int i) noexcept nogil:
        mjg_deal(&self.tables[i], &self.R, self.players, self.seed, &self.dealt)

    def reset(self, seed=None):
        """Deal every table again, from the first hand of the seed (a new seed if given)."""
        cdef int i
        if seed is not None:
            self.seed = seed
            self.rng = self.seed ^ 0x5DEECE66DULL
        self.dealt = 0
        for i in range(self.n):
            self._deal(i)

    def masks(self, uint8_t[:, ::1] out):
        """The (n, 140) legal masks of the seats to act."""
        with nogil:
            mjg_masks(self.tables, self.n, &out[0, 0], out.shape[1])

    def step(self, const int64_t[::1] actions, int64_t[:, ::1] rewards, uint8_t[::1] done,
             bint deal=True):
        """One action per table; returns the first illegal row or -1 (nothing moved then).
        A finished table is dealt its next hand at once, or with ``deal=False`` left over (for
        :meth:`observe_rows`) until :meth:`deal_done`."""
        cdef int64_t bad
        with nogil:
            bad = mjg_step(self.tables, self.n, &actions[0], &rewards[0, 0], rewards.shape[1],
                           &done[0], deal, &self.R, self.players, self.seed, &self.dealt)
        return bad

    def deal_done(self, const uint8_t[::1] done):
        """Deal the next hand into the tables flagged in ``done``."""
        cdef int i
        with nogil:
            for i in range(self.n):
                if done[i]:
                    self._deal(i)

    def observe_rows(self, const int32_t[::1] which, const int8_t[::1] seats,
                     int64_t[:, ::1] scalars, uint8_t[:, ::1] hand, int8_t[:, :, :, ::1] melds,
                     int8_t[:, :, ::1] discards, uint8_t[:, :, ::1] taken,
                     int8_t[:, ::1] voids, uint8_t[:, ::1] out, int64_t[:, ::1] scores):
        """Seat ``seats[i]``'s observation of table ``which[i]``, into row ``which[i]``."""
        cdef Py_ssize_t i
        cdef mjg_obs_t o
        for i in range(which.shape[0]):
            if not 0 <= which[i] < self.n or not 0 <= seats[i] < self.players:
                raise IndexError(f"which[{i}] / seats[{i}] out of range")
        _obs_rows(&o, scalars, hand, melds, discards, taken, voids, out, scores)
        with nogil:
            mjg_observe_rows(self.tables, which.shape[0], &which[0], &seats[0], &o)

    def observe(self, int64_t[:, ::1] scalars, uint8_t[:, ::1] hand, int8_t[:, :, :, ::1] melds,
                int8_t[:, :, ::1] discards, uint8_t[:, :, ::1] taken, int8_t[:, ::1] voids,
                uint8_t[:, ::1] out, int64_t[:, ::1] scores):
        """The observations of the seats to act, into (n, ...) arrays."""
        cdef mjg_obs_t o
        _obs_rows(&o, scalars, hand, melds, discards, taken, voids, out, scores)
        with nogil:
            mjg_observe(self.tables, self.n, &o)

    def sample(self, int64_t[::1] out):
        """A uniformly random legal action per table (the batch's own generator)."""
        with nogil:
            mjg_sample(self.tables, self.n, &out[0], &self.rng)

    def current(self, int8_t[::1] out):
        cdef int i
        for i in range(self.n):
            out[i] = self.tables[i].current


cdef enum:
    _EXTERNAL = 2

EXTERNAL = _EXTERNAL
"""The kind of a seat :class:`Runner` leaves to its caller."""


cdef class Runner:
    """Hands [start, end) of a run seeded ``seed`` (hand i dealt, seeded and given its dealer as
    :func:`selfplay` does: a table plays the hands of one session of ``session`` in order),
    ``k`` tables at a time: seats of kind 0 (random) or 1 (efficient) play in C; a seat of kind
    :data:`EXTERNAL` stops its table whenever it has more than one legal action, until
    :meth:`act` gives the action. Row i - start of the outputs gets hand i's results (as
    :func:`selfplay` writes them) and ``dealin``: the seats whose discard or added kong was won
    on. ``start`` is the first hand of a session."""

    cdef mt_table_t *tables
    cdef int64_t *hand
    cdef uint64_t *rngs
    cdef mt_memo_t *memo
    cdef mt_rules_t R
    cdef object _keep
    cdef int k, players
    cdef int kinds[MT_MAX_PLAYERS]
    cdef uint64_t seed
    cdef int64_t start, next_hand, end, session
    cdef int8_t[::1] dealers
    cdef _Results results

    def __cinit__(self, int k, const int32_t[::1] kinds, const int32_t[::1] fan,
                  const int64_t[::1] params, uint64_t seed, int64_t start, int64_t end,
                  int8_t[:, ::1] order, int16_t[:, ::1] fans, int64_t[:, ::1] net,
                  uint8_t[:, ::1] pig, uint8_t[:, ::1] cha, uint8_t[:, ::1] dealin,
                  int32_t[::1] turns, uint8_t[:, ::1] flags, int8_t[::1] dealers,
                  int64_t session=1):
        cdef int j
        if (not 2 <= kinds.shape[0] <= MT_MAX_PLAYERS or k < 1 or end - start > order.shape[0]
                or session < 1 or start % session):
            raise ValueError("kinds, k, session or the outputs out of range")
        self.tables = <mt_table_t *>malloc(sizeof(mt_table_t) * k)
        self.hand = <int64_t *>malloc(sizeof(int64_t) * k)
        self.rngs = <uint64_t *>malloc(sizeof(uint64_t) * k)
        self.memo = mt_memo_new()  # NULL only makes the efficient players slower
        if self.tables == NULL or self.hand == NULL or self.rngs == NULL:
            raise MemoryError()
        self._keep = (np.asarray(fan), np.asarray(params))  # R points into both
        _rules(&self.R, fan, params)
        self.k, self.players, self.seed = k, kinds.shape[0], seed
        for j in range(self.players):
            self.kinds[j] = kinds[j]
        self.start, self.next_hand, self.end, self.session = start, start, end, session
        self.dealers = dealers
        self.results = _Results(order, fans, net, pig, cha, dealin, turns, flags)
        for j in range(k):
            self.hand[j] = -1
            self._deal(j)

    def __dealloc__(self):
        free(self.tables)
        free(self.hand)
        free(self.rngs)
        free(self.memo)

    cdef void _deal(self, int j) noexcept nogil:
        """The next hand of table j's session (dealt by the last hand's next dealer), else the
        first of the next session (dealt by seat 0), or mark the table idle (-1)."""
        cdef int64_t i = self.hand[j] + 1
        cdef int dealer = 0
        if self.hand[j] >= 0 and i % self.session != 0 and i < self.end:
            dealer = mt_next_dealer(&self.tables[j])
        elif self.next_hand < self.end:
            i = self.next_hand
            self.next_hand = min(i + self.session, self.end)
        else:
            self.hand[j] = -1
            return
        self.hand[j] = i
        self.dealers[i - self.start] = <int8_t>dealer
        _deal_hand(&self.tables[j], &self.R, self.players, dealer, self.seed, i, &self.rngs[j])

    def advance(self, int32_t[::1] waiting):
        """Play every table until its seat to act is EXTERNAL with a choice, or its hands are
        done; the waiting tables go to ``waiting`` (k entries), their number is returned (0:
        every hand of the range is played)."""
        cdef int j, a, nw = 0
        cdef mt_table_t *t
        cdef mt_acts_t s
        if waiting.shape[0] < self.k:
            raise ValueError("waiting: expected room for k tables")
        with nogil:
            for j in range(self.k):
                while self.hand[j] >= 0:
                    t = &self.tables[j]
                    if t.phase == MT_OVER:
                        self.results.put(t, self.players, self.hand[j] - self.start)
                        self._deal(j)
                        continue
                    mt_legal(t, &s)
                    if self.kinds[t.current] == _EXTERNAL:
                        if mt_acts_count(&s) > 1:
                            waiting[nw] = j
                            nw += 1
                            break
                        a = mt_acts_first(&s)
                    else:
                        a = mt_choose(t, self.kinds[t.current], &s, &self.rngs[j], self.memo)
                    mt_step(t, a)
        return nw

    def act(self, const int32_t[::1] which, const int64_t[::1] actions):
        """The actions of the waiting tables ``which``; returns the first illegal entry or -1
        (nothing moved then)."""
        cdef Py_ssize_t i
        cdef int j
        cdef mt_acts_t s
        if actions.shape[0] != which.shape[0]:
            raise ValueError("actions: expected one per table")
        for i in range(which.shape[0]):
            j = which[i]
            if not 0 <= j < self.k or self.hand[j] < 0:
                raise ValueError(f"which[{i}]: table {j} is not waiting")
            mt_legal(&self.tables[j], &s)
            if not 0 <= actions[i] < MT_ACTIONS or not mt_acts_has(&s, <int>actions[i]):
                return i
        for i in range(which.shape[0]):
            mt_step(&self.tables[which[i]], <int>actions[i])
        return -1

    def observe(self, const int32_t[::1] which, int64_t[:, ::1] scalars, uint8_t[:, ::1] hand,
                int8_t[:, :, :, ::1] melds, int8_t[:, :, ::1] discards, uint8_t[:, :, ::1] taken,
                int8_t[:, ::1] voids, uint8_t[:, ::1] out, int64_t[:, ::1] scores,
                uint8_t[:, ::1] masks, int64_t[::1] hints, int8_t[::1] shanten, int seat=-1):
        """Row i of each output: table ``which[i]``'s seat to act (or ``seat``): its observation
        (as :meth:`Batch.observe`), legal mask, the efficient player's action and the shanten
        of its concealed hand (with its melds and void); -1 for both once the hand is over (a
        finished table keeps its last state until it is dealt again)."""
        cdef Py_ssize_t i
        cdef mt_table_t *t
        cdef mt_acts_t s
        cdef int p
        if seat >= self.players:
            raise ValueError(f"seat: expected -1 or a seat below {self.players}")
        with nogil:
            for i in range(which.shape[0]):
                t = &self.tables[which[i]]
                p = t.current if seat < 0 else seat
                mt_observe(t, p, &scalars[i, 0], &hand[i, 0], &melds[i, 0, 0, 0],
                           &discards[i, 0, 0], &taken[i, 0, 0], &voids[i, 0], &out[i, 0],
                           &scores[i, 0])
                if t.phase == MT_OVER or p != t.current:
                    memset(&masks[i, 0], 0, MT_ACTIONS)
                    hints[i] = -1
                    shanten[i] = -1
                    continue
                mt_mask(t, &masks[i, 0])
                mt_legal(t, &s)
                hints[i] = mt_efficient_action(t, &s, self.memo)
                shanten[i] = <int8_t>mt_shanten(t.hands[p], t.meld_counts[p], t.void_[p], t.sets)
