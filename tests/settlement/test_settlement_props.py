"""Property tests for mjfast.settlement on random, physically consistent hands of 血战到底.

A generator plays a random hand: kongs (some robbed), wins (self-drawn, on a discard, several
winners on one discard, 杠上花 / 杠上炮), then possibly a draw, drawing every tile from one
108-tile wall so that no kind exceeds four copies. Winning hands are built from sets and a
pair in the player's two suits; the draw mixes ready hands, random hands and 花猪. The ledger
and the draw settlement are checked against the pure-Python twin (mjfast._ref.settlement)
through the harness of twins.py.
"""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mjfast.rules import Rules
from mjfast.settlement import PlayerState, Reason, Round, settle_draw
from mjfast.settlement.model import sets_for
from mjfast.tiles import Meld
from tests.settlement.short import TABLE_SIZES
from tests.twins import TWINS, agree, check

RULE_SETS = [
    Rules(),
    Rules.preset("qq"),
    Rules(jia_jia_you=True, self_draw="add_fan", gang_shang_pao_kong="keep", kong_refund=False,
          cha_da_jiao="min", si_jiao=True),
    Rules(self_draw="none", cap=None, hua_zhu=12, exposed_kong=3, concealed_kong=3,
          added_kong=2),
    Rules.preset("points"),
    Rules.preset("points", exposed_kong=1, concealed_kong=2, cap=6, cha_hua_zhu=True, hua_zhu=5),
    # the options of RULES.md 7: 晒太阳, the 花猪 exception, 点杠花, 擦挂 (= 家家有)
    Rules(shai_tai_yang=True, hua_zhu_one_suit=True, dian_gang_hua=True, ca_gua=True),
    # the table options of RULES.md 7: 杠上炮 refund, 转雨 on 抢杠 (即时加杠 is on in chengdu)
    Rules(gang_shang_pao_kong="refund", qiang_gang_transfer=True),
]
# A seed drives the game generator (it makes hundreds of random choices per hand, too many
# for hypothesis to draw one by one).
SEEDS = st.integers(0, 2**32 - 1)
KONG_REASONS = {Reason.GANG_ZHI, Reason.GANG_BU, Reason.GANG_AN}
REFUNDS = {Reason.KONG_REFUND, Reason.PAO_REFUND}


class Hand:
    """Plays one random hand; ``self.round`` is the ledger."""

    def __init__(self, rnd: random.Random, rules: Rules, n: int):
        self.rnd = rnd
        self.n = n
        self.pool = [4] * 27
        self.suits = [sorted(rnd.sample(range(3), 2)) for _ in range(n)]
        self.melds: list[list[Meld]] = [[] for _ in range(n)]
        self.round = Round(rules, players=n, dealer=rnd.randrange(n))
        self.sets = sets_for(n)                # sets of a winning hand at this table
        self.last_kong: int | None = None      # player whose kong was the last event
        self.kong_discarded = False            # ... who has discarded since (杠上炮 only)

    # -------------------------------------------------------------- tile helpers
    def kinds(self, suits):
        return [k for s in suits for k in range(9 * s, 9 * s + 9)]

    def take_component(self, pool, counts, suits):
        """Add a random set (triplet or sequence) from the pool; False if none fits."""
        for _ in range(20):
            k = self.rnd.choice(self.kinds(suits))
            if self.rnd.random() < 0.4:
                need = [k, k, k]
            elif k % 9 <= 6:
                need = [k, k + 1, k + 2]
            else:
                continue
            if all(pool[x] >= need.count(x) for x in set(need)):
                for x in need:
                    pool[x] -= 1
                    counts[x] += 1
                return True
        return False

    def take_pair(self, pool, counts, suits):
        for _ in range(20):
            k = self.rnd.choice(self.kinds(suits))
            if pool[k] >= 2:
                pool[k] -= 2
                counts[k] += 2
                return True
        return False

    def build_win(self, player, tile, exact_one=False):
        """A winning concealed hand (27 counts, with ``tile``, which is not taken from the pool).

        Returns (counts, pool) or None.
        """
        suits = self.suits[player]
        if tile // 9 not in suits:
            return None
        sets = self.sets - len(self.melds[player])
        for _ in range(15):
            pool = list(self.pool)
            counts = [0] * 27
            counts[tile] += 1
            r = self.rnd.random()
            rank = tile % 9
            if exact_one or r < 0.6:                  # tile in a sequence
                starts = [tile - j for j in range(3) if 0 <= rank - j <= 6]
                start = self.rnd.choice(starts)
                others = [x for x in (start, start + 1, start + 2) if x != tile]
                ok = all(pool[x] >= 1 for x in others)
                for x in others:
                    pool[x] -= 1
                    counts[x] += 1
                used_sets, used_pair = 1, 0
            elif r < 0.8:                             # tile in the pair
                ok = pool[tile] >= 1
                pool[tile] -= 1
                counts[tile] += 1
                used_sets, used_pair = 0, 1
            else:                                     # tile in a triplet
                ok = pool[tile] >= 2
                pool[tile] -= 2
                counts[tile] += 2
                used_sets, used_pair = 1, 0
            if not ok or used_sets > sets:
                continue
            if exact_one:
                pool[tile] = 0
            ok = all(self.take_component(pool, counts, suits) for _ in range(sets - used_sets))
            if ok and not used_pair:
                ok = self.take_pair(pool, counts, suits)
            if ok:
                if exact_one:
                    pool[tile] = self.pool[tile]
                return counts, pool
        return None

    def random_tiles(self, pool, counts, kinds, size):
        avail = [k for k in kinds for _ in range(pool[k])]
        if len(avail) < size:
            return False
        for k in self.rnd.sample(avail, size):
            pool[k] -= 1
            counts[k] += 1
        return True

    # -------------------------------------------------------------- events
    def still_in(self):
        return list(self.round.still_in)

    def void_of(self, player):
        if self.rnd.random() < 0.4:
            return "mps"[({0, 1, 2} - set(self.suits[player])).pop()]
        return None

    def kong(self):
        still = self.still_in()
        p = self.rnd.choice(still)
        if len(self.melds[p]) >= self.sets:
            return
        options = [k for k in self.kinds(self.suits[p]) if self.pool[k] == 4]
        if not options:
            return
        t = self.rnd.choice(options)
        kind = self.rnd.choice(["kong", "kong_added", "kong_concealed"])
        others = [q for q in still if q != p]
        src = self.rnd.choice(others) if kind == "kong" else None
        immediate = kind != "kong_added" or self.rnd.random() < 0.7   # 即时加杠 or late
        self.round.kong(p, t, kind, from_player=src, immediate=immediate)
        self.pool[t] = 0
        self.melds[p].append(Meld(kind, t))
        self.last_kong = p
        self.kong_discarded = False
        if kind == "kong_added" and self.rnd.random() < 0.4:
            self.rob(p, t, others)

    def rob(self, p, t, others):
        winners, hands = [], []
        for w in self.rnd.sample(others, self.rnd.randint(1, len(others))):
            built = self.build_win(w, t, exact_one=True)
            if built is None:
                continue
            counts, pool = built
            self.pool = pool              # later winners draw from what is left
            winners.append(w)
            hands.append(counts)
        if not winners:
            return
        self.win_call(winners, t, p, hands, robbing_kong=True)
        self.melds[p][-1] = Meld("pung", t)

    def win(self):
        still = self.still_in()
        self_drawn = self.rnd.random() < 0.4
        if self_drawn:
            w = self.rnd.choice(still)
            options = [k for k in self.kinds(self.suits[w]) if self.pool[k] >= 1]
            if not options:
                return
            t = self.rnd.choice(options)
            saved = list(self.pool)
            self.pool[t] -= 1
            built = self.build_win(w, t)
            if built is None:
                self.pool = saved
                return
            self.pool = built[1]
            flags = {}
            if self.last_kong == w and not self.kong_discarded and self.melds[w] \
                    and self.rnd.random() < 0.7:
                flags["after_kong"] = True
            elif not self.round.events and w == self.round.dealer and not self.melds[w] \
                    and self.rnd.random() < 0.5:
                flags["tian_hu"] = True
            elif w != self.round.dealer and not self.melds[w] and self.rnd.random() < 0.1:
                flags["di_hu"] = True
            if self.rnd.random() < 0.1 and not flags:
                flags["last_tile"] = True
            self.win_call([w], t, None, [built[0]], **flags)
            return
        d = self.rnd.choice(still)
        candidates = [q for q in still if q != d]
        chosen = self.rnd.sample(candidates, self.rnd.randint(1, len(candidates)))
        options = [k for k in self.kinds(self.suits[chosen[0]]) if self.pool[k] >= 1]
        if not options:
            return
        t = self.rnd.choice(options)
        saved = list(self.pool)
        self.pool[t] -= 1
        winners, hands = [], []
        for w in chosen:
            built = self.build_win(w, t)
            if built is None:
                continue
            self.pool = built[1]
            winners.append(w)
            hands.append(built[0])
        if not winners:
            self.pool = saved
            return
        flags = {}
        if self.last_kong == d and self.rnd.random() < 0.7:
            flags["after_kong_discard"] = True
        self.win_call(winners, t, d, hands, **flags)

    def win_call(self, winners, tile, src, hands, **flags):
        single = len(winners) == 1 and self.rnd.random() < 0.5
        melds = [list(self.melds[w]) for w in winners]
        voids = [self.void_of(w) for w in winners]
        hands = [np.array(h, dtype=np.uint8) if self.rnd.random() < 0.5 else h for h in hands]
        if single:
            self.round.win(winners[0], tile, from_player=src, hands=hands[0], melds=melds[0],
                           void_suit=voids[0], **flags)
        else:
            self.round.win(winners, tile, from_player=src, hands=hands, melds=melds,
                           void_suit=voids, **flags)
        self.last_kong = None

    def discard(self):
        """A discard of any kind (discards are not in the copy accounting): by the konger just
        after a kong, it keeps 杠上炮 possible."""
        p = self.rnd.choice(self.still_in())
        self.round.discard(p, self.rnd.randrange(27))
        if p == self.last_kong and not self.kong_discarded:
            self.kong_discarded = True
        else:
            self.last_kong = None

    def draw(self):
        states = []
        for p in range(self.n):
            if p not in self.round.still_in:
                states.append(None if self.rnd.random() < 0.5 else PlayerState("", won=True))
                continue
            size = 3 * self.sets + 1 - 3 * len(self.melds[p])
            counts = None
            mode = self.rnd.random()
            if mode < 0.5:
                options = [k for k in self.kinds(self.suits[p]) if self.pool[k] >= 1]
                if options:
                    t = self.rnd.choice(options)
                    self.pool[t] -= 1
                    built = self.build_win(p, t)
                    if built is None:
                        self.pool[t] += 1
                    else:
                        counts, self.pool = built
                        k = self.rnd.choice([k for k in range(27) if counts[k]])
                        counts[k] -= 1
                        self.pool[k] += 1
            if counts is None:
                kinds = self.kinds(self.suits[p]) if mode < 0.8 else list(range(27))
                counts = [0] * 27
                if not self.random_tiles(self.pool, counts, kinds, size):
                    assert self.random_tiles(self.pool, counts, list(range(27)), size)
            visible = None
            if self.rnd.random() < 0.3:
                held = np.add(counts, PlayerState("", melds=self.melds[p]).counts)
                visible = [self.rnd.randint(0, 4 - int(h)) for h in held]
            income = self.round.kong_income(p) if self.rnd.random() < 0.3 else ()
            states.append(PlayerState(counts, melds=self.melds[p], void_suit=self.void_of(p),
                                      kong_income=income, visible=visible))
        self.round.draw(states)

    def play(self):
        for _ in range(self.rnd.randint(0, 10)):
            if self.round.is_over:
                return
            a = self.rnd.random()
            if a < 0.4:
                self.kong()
            elif a < 0.7:
                self.win()
            elif a < 0.85:
                self.discard()
        sun = self.round.rules.shai_tai_yang and len(self.round.still_in) == 1
        if (sun or not self.round.is_over) and self.rnd.random() < 0.85:
            self.draw()


def check_round(r: Round) -> None:
    transfers = r.transfers
    assert int(r.net.sum()) == 0
    assert r.net.tolist() == (r.matrix.sum(axis=0) - r.matrix.sum(axis=1)).tolist()
    for t in transfers:
        assert t.amount > 0 and t.payer != t.receiver
        assert 0 <= t.event < len(r.events)
    # A winner neither pays nor receives after the win, except refunds owed to them.
    win_event = {}
    for e, ev in enumerate(r.events):
        if ev["type"] == "win":
            ws = ev["players"] if isinstance(ev["players"], list) else [ev["players"]]
            for w in ws:
                win_event[w] = e
    for w, e in win_event.items():
        for t in transfers:
            if t.event > e and w in (t.payer, t.receiver):
                assert t.reason in REFUNDS and t.receiver == w, (w, e, t)
    # Refunds never exceed what was paid for kongs, per (payer, konger).
    paid, refunded = {}, {}
    for t in transfers:
        if t.reason in KONG_REASONS:
            paid[t.payer, t.receiver] = paid.get((t.payer, t.receiver), 0) + t.amount
        if t.reason in REFUNDS:
            key = (t.receiver, t.payer)
            refunded[key] = refunded.get(key, 0) + t.amount
    for key, amount in refunded.items():
        assert amount <= paid.get(key, 0)
    if not r.rules.kong_refund and r.rules.gang_shang_pao_kong != "refund":
        assert not refunded
    # Draw transfers come only from the last event, a draw.
    for t in transfers:
        if t.reason in (Reason.HUA_ZHU, Reason.CHA_DA_JIAO, Reason.KONG_REFUND):
            assert r.events[t.event]["type"] == "draw" and t.event == len(r.events) - 1


@settings(max_examples=1000)
@given(seed=SEEDS, rules=st.sampled_from(RULE_SETS), n=st.sampled_from(TABLE_SIZES))
def test_random_rounds(seed, rules, n):
    hand = Hand(random.Random(seed), rules, n)
    hand.play()
    r = hand.round
    check_round(r)
    replay = Round.from_json(r.to_json())
    assert replay.transfers == r.transfers
    assert replay.to_json() == r.to_json()
    assert replay.net.tolist() == r.net.tolist()
    # The pure-Python twin, written from RULES.md, agrees on every player's net.
    assert check(TWINS["round"], r.to_json()) == r.net.tolist()


@settings(max_examples=300)
@given(seed=SEEDS, rules=st.sampled_from(RULE_SETS))
def test_draw_settlement_conserves_money(seed, rules):
    """settle_draw on random tables: net sums to zero; 花猪 and ready players are disjoint."""
    rnd = random.Random(seed)
    hand = Hand(rnd, rules, 4)
    states = []
    for p in range(4):
        if rnd.random() < 0.2:
            states.append(None)
            continue
        counts = [0] * 27
        kinds = hand.kinds(hand.suits[p]) if rnd.random() < 0.7 else list(range(27))
        assert hand.random_tiles(hand.pool, counts, kinds, 13)
        income = [(q, rnd.randint(1, 3)) for q in range(4) if q != p and rnd.random() < 0.5]
        discarded = rnd.sample("mps", rnd.randint(0, 2))   # for the 花猪 exception
        states.append(PlayerState(counts, kong_income=income, discarded_suits=discarded))
    s = settle_draw(states, rules)
    assert int(s.net.sum()) == 0
    agree(TWINS["settle_draw"], s, states, rules)
    assert not set(s.hua_zhu) & set(s.ready)
    still_in = [i for i, x in enumerate(states) if x is not None]
    if len(still_in) < 2 and not rules.shai_tai_yang:
        assert s.transfers == ()
    for t in s.transfers:
        assert t.payer in still_in
        if t.reason is Reason.HUA_ZHU:
            assert t.payer in s.hua_zhu and t.receiver not in s.hua_zhu
        if t.reason is Reason.CHA_DA_JIAO:
            assert t.receiver in s.ready and t.payer not in s.ready + s.hua_zhu
        if t.reason is Reason.KONG_REFUND:
            assert t.payer not in s.ready
