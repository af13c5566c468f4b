# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Compiled table engine: self-play of whole hands and batched stepping, by the C state machine
of ``src/mjfast_table.h`` (the port of :mod:`mjfast.table`), on the C library's tables.

Everything here takes validated arrays; :mod:`mjfast.table.selfplay` and
:mod:`mjfast.table.batch` check the arguments and compile the rules.
"""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from mjfast._core._capi cimport mj_shared_t, shared_tables
from mjfast._core._kernels cimport MJ, mj_tables_t

import numpy as np

cdef extern from "mjfast_fan.h" nogil:
    uint32_t *MF_TAB

# The tables are the C library's (mjfast._core._capi builds them once per process).
cdef const mj_shared_t *_shared = shared_tables()
MJ = (<mj_tables_t *>_shared.tables)[0]
MF_TAB = <uint32_t *>_shared.fan_table

NUM_ACTIONS = MT_ACTIONS
MAX_DISCARDS = MT_MAX_DISCARDS
SCALARS = ("seat", "phase", "current", "dealer", "drawn", "tile", "wall")
"""The scalar observations, in the order of the (n, 7) ``scalars`` output of :meth:`Batch.observe`."""


PARAMS = ("offset", "exposed_kong", "added_kong", "concealed_kong", "hua_zhu", "jia_jia_you",
          "pao_kong", "add_base", "kong_refund", "guo_shui", "zui_hou", "cha_hua_zhu",
          "one_suit", "shai_tai_yang", "dian_gang_hua", "immediate", "rob_transfer", "xue_zhan",
          "ding_que")
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
    return 0


def deal_wall(uint64_t seed, uint64_t index):
    """The (108,) uint8 wall of hand ``index`` of a run seeded ``seed``."""
    out = np.empty(108, np.uint8)
    cdef uint8_t[::1] w = out
    mt_deal_wall(seed, index, &w[0])
    return out


def selfplay(const int32_t[::1] fan, const int64_t[::1] params, const int32_t[::1] kinds,
             uint64_t seed, int64_t start, int64_t end, int8_t[:, ::1] order,
             int16_t[:, ::1] fans, int64_t[:, ::1] net, uint8_t[:, ::1] pig,
             uint8_t[:, ::1] cha, int32_t[::1] turns, uint8_t[:, ::1] flags, int8_t[::1] dealers,
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
    cdef uint8_t wall[108]
    cdef int ks[4]
    cdef int n = kinds.shape[0], p, steps, dealer = 0
    cdef int64_t i, row
    cdef uint64_t rng
    cdef int16_t[:, ::1] lg
    cdef int16_t *lp = NULL
    cdef int cap = 0
    cdef list overflow = []
    cdef mt_memo_t *memo
    _rules(&R, fan, params)
    for p in range(n):
        ks[p] = kinds[p]
    if log is not None:
        lg = log
        cap = lg.shape[1]
    memo = mt_memo_new()  # NULL (out of memory) only makes the efficient players slower
    try:
        for i in range(start, end):
            row = i - start
            with nogil:
                mt_deal_wall(seed, <uint64_t>i, wall)
                if i % session == 0:
                    dealer = 0
                dealers[row] = <int8_t>dealer
                mt_init(&t, &R, n, dealer, wall)
                rng = seed ^ (<uint64_t>i * 0xD1B54A32D192ED03ULL)
                mt_next(&rng)
                if cap:
                    lp = &lg[row, 0]
                steps = mt_play(&t, ks, &rng, lp, cap, check, memo)
                for p in range(n):
                    order[row, p] = t.win_order[p]
                    fans[row, p] = t.win_fan[p]
                    net[row, p] = t.scores[p]
                    pig[row, p] = t.hua_zhu[p]
                    cha[row, p] = t.cha[p]
                turns[row] = t.turns
                flags[row, 0] = <uint8_t>t.ended_drawn
                flags[row, 1] = <uint8_t>t.tian_hu
                flags[row, 2] = <uint8_t>t.multi
                dealer = mt_next_dealer(&t)
            if steps < 0:
                overflow.append((row, -1 if steps == -1 else -100 - steps))
    finally:
        free(memo)
    return overflow


cdef class Batch:
    """n C tables stepped together (see :class:`mjfast.table.TableBatch`)."""

    cdef mt_table_t *tables
    cdef mt_rules_t R
    cdef object _fan, _params
    cdef int n, players
    cdef uint64_t seed, dealt, rng

    def __cinit__(self, int n, int players, const int32_t[::1] fan, const int64_t[::1] params,
                  uint64_t seed):
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
        cdef uint8_t wall[108]
        mt_deal_wall(self.seed, self.dealt, wall)
        self.dealt += 1
        mt_init(&self.tables[i], &self.R, self.players, 0, wall)

    def reset(self):
        """Deal every table again, from the first hand of the seed."""
        cdef int i
        self.dealt = 0
        for i in range(self.n):
            self._deal(i)

    def masks(self, uint8_t[:, ::1] out):
        """The (n, 140) legal masks of the seats to act."""
        cdef int i
        with nogil:
            for i in range(self.n):
                mt_mask(&self.tables[i], &out[i, 0])

    def step(self, const int64_t[::1] actions, int64_t[:, ::1] rewards, uint8_t[::1] done):
        """One action per table; returns the first illegal row or -1 (nothing moved then)."""
        cdef int i, a
        cdef uint8_t m[140]
        with nogil:
            for i in range(self.n):
                a = <int>actions[i]
                mt_mask(&self.tables[i], m)
                if a < 0 or a >= MT_ACTIONS or not m[a]:
                    with gil:
                        return i
            for i in range(self.n):
                mt_step(&self.tables[i], <int>actions[i])
                memcpy(&rewards[i, 0], self.tables[i].rewards, sizeof(int64_t) * self.players)
                done[i] = self.tables[i].phase == MT_OVER
                if done[i]:
                    self._deal(i)
        return -1

    def observe(self, int64_t[:, ::1] scalars, uint8_t[:, ::1] hand, int8_t[:, :, :, ::1] melds,
                int8_t[:, :, ::1] discards, uint8_t[:, :, ::1] taken, int8_t[:, ::1] voids,
                uint8_t[:, ::1] out, int64_t[:, ::1] scores):
        """The observations of the seats to act, into (n, ...) arrays."""
        cdef int i
        with nogil:
            for i in range(self.n):
                mt_observe(&self.tables[i], self.tables[i].current, &scalars[i, 0],
                           &hand[i, 0], &melds[i, 0, 0, 0], &discards[i, 0, 0], &taken[i, 0, 0],
                           &voids[i, 0], &out[i, 0], &scores[i, 0])

    def sample(self, int64_t[::1] out):
        """A uniformly random legal action per table (the batch's own generator)."""
        cdef int i
        cdef uint8_t m[140]
        with nogil:
            for i in range(self.n):
                mt_mask(&self.tables[i], m)
                out[i] = mt_random_action(m, &self.rng)

    def current(self, int8_t[::1] out):
        cdef int i
        for i in range(self.n):
            out[i] = self.tables[i].current
