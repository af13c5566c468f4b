# C declarations of the table engine (src/mjfast_table*.h), for _table.pxi and for other Cython
# code that cimports them. The headers ship in mjfast/_core/include (copied from src/ at build
# time); compile against that folder.

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint64_t

cdef extern from "mjfast_table_play.h" nogil:
    ctypedef struct mt_rules_t:
        const int32_t *fan
        const int64_t *mult
        int offset
        int64_t exposed_kong, added_kong, concealed_kong, hua_zhu
        int jia_jia_you, pao_kong, add_base, kong_refund, guo_shui, zui_hou
        int cha_hua_zhu, one_suit, shai_tai_yang, dian_gang_hua, immediate, rob_transfer
        int xue_zhan, ding_que, di_hu_discard, jue_zhang

    ctypedef struct mt_table_t:
        int n, sets, phase, current, turns, ended_drawn, tian_hu, multi, source
        uint8_t hands[6][27]
        uint8_t meld_counts[6][27]
        int8_t void_[6]
        uint8_t won[6]
        int8_t win_order[6]
        int16_t win_fan[6]
        int64_t scores[6]
        int64_t rewards[6]
        uint8_t hua_zhu[6]
        uint8_t cha[6]
        uint8_t dealt_in[6]

    enum: MT_MAX_PLAYERS  # 6 (the arrays above: [MT_MAX_PLAYERS])
    int MT_ACTIONS, MT_OVER, MT_MAX_DISCARDS, MT_MULT, MT_PLAYER_EFFICIENT
    void mt_deal_wall(uint64_t seed, uint64_t index, uint8_t *wall)
    void mt_init(mt_table_t *t, const mt_rules_t *R, int n, int dealer, const uint8_t *wall)
    ctypedef struct mt_acts_t:
        uint64_t w[3]

    void mt_legal(const mt_table_t *t, mt_acts_t *s)
    int mt_acts_has(const mt_acts_t *s, int a)
    int mt_acts_count(const mt_acts_t *s)
    int mt_acts_first(const mt_acts_t *s)
    void mt_mask(const mt_table_t *t, uint8_t *m)
    void mt_step(mt_table_t *t, int a)
    ctypedef struct mt_memo_t:
        pass

    mt_memo_t *mt_memo_new()
    int mt_next_dealer(const mt_table_t *t)
    int mt_play(mt_table_t *t, const int *kinds, uint64_t *rng, int16_t *log, int cap,
                int check, mt_memo_t *memo)
    uint64_t mt_next(uint64_t *s)
    int mt_random_action(const mt_acts_t *s, uint64_t *rng)
    int mt_choose(const mt_table_t *t, int kind, const mt_acts_t *s, uint64_t *rng,
                  mt_memo_t *memo)
    int mt_efficient_action(const mt_table_t *t, const mt_acts_t *s, mt_memo_t *memo)
    int mt_shanten(const uint8_t *hand, const uint8_t *melds, int v, int sets)
    void mt_observe(const mt_table_t *t, int p, int64_t *scalars, uint8_t *hand, int8_t *melds,
                    int8_t *discards, uint8_t *taken, int8_t *voids, uint8_t *out,
                    int64_t *scores)
