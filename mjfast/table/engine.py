"""The 血战到底 table: one hand as a sequence of actions (RULES.md section 10), every payment
recorded by a :class:`mjfast.Round` ledger."""

from __future__ import annotations

from typing import Any

import numpy as np

from mjfast._args import as_int, as_player, as_rules
from mjfast.rules import Rules
from mjfast.scoring import score
from mjfast.settlement import PlayerState, Round, Transfer
from mjfast.table.actions import (
    DISCARD,
    KONG_ADDED,
    KONG_CONCEALED,
    KONG_EXPOSED,
    NUM_ACTIONS,
    PASS,
    VOID,
    WIN,
    IllegalActionError,
)
from mjfast.table.legal import claim_fan, could_claim, legal_mask, why_illegal
from mjfast.table.observe import Observation, observation
from mjfast.table.state import (
    MAX_DISCARDS,
    PHASE_CLAIM,
    PHASE_NAMES,
    PHASE_OVER,
    PHASE_ROB,
    PHASE_TURN,
    PHASE_VOID,
    TableState,
    as_wall,
    deal,
)
from mjfast.tiles import NUM_KINDS

__all__ = ["MAX_TABLE_PLAYERS", "Table"]

MAX_TABLE_PLAYERS = 6
"""Seats at a table: 2 to 6 (at 5 and 6 seats the short hands of RULES.md section 7)."""


class Table:
    """One hand of 血战到底 at a table of ``players`` seats (2-6), dealt from ``seed`` (or from
    a stacked ``wall``: 108 tiles in draw order, the dealer's 14 first, then 13 per seat; at 5
    seats 11 / 10 tiles and at 6 seats 8 / 7, winning hands of 3 and 2 sets + pair, no seven
    pairs: RULES.md section 7).

    The player to act (:attr:`current_player`) takes one action at a time with :meth:`step`
    (an index of the fixed action space, :mod:`mjfast.table.actions`); :meth:`legal_actions`
    gives each seat's mask and :meth:`observation` what a seat may see. The flow (RULES.md
    section 10): every seat declares a void suit (dealer first); the dealer acts on 14 tiles;
    on a discard the seats still in with a claim are asked in turn order (win, kong, pung or
    pass); wins beat kongs and pungs and several seats may win on one discard (一炮多响); an added
    kong waits for robbing wins (抢杠胡); a winner leaves and play goes on with the seat after
    the last winner; when one seat is left or the wall is empty the hand ends (the draw
    settlement of section 6 for the seats still in; with 晒太阳 also for the one seat left).
    Every payment goes through :attr:`round`, which also records every discard (the 花猪
    exception reads them) and whether an added kong came on the turn its fourth copy was drawn
    (即时加杠); its ``to_json()`` log replays with ``mjfast settle`` / ``Round.from_json``.

    >>> t = Table(seed=7)
    >>> t.current_player, t.phase
    (0, 'void')
    >>> t.step(t.legal_actions(0).nonzero()[0][0])      # player 0 declares 万 void
    array([0, 0, 0, 0])
    >>> while not t.is_over:
    ...     _ = t.step(int(np.flatnonzero(t.legal_actions(t.current_player))[0]))
    >>> int(t.scores.sum()), t.scores.tolist() == t.round.net.tolist()
    (0, True)
    """

    def __init__(self, rules: Rules | str | None = None, players: int = 4,
                 seed: int | None = None, dealer: int = 0, wall: Any = None):
        n = as_int(players, "players", minimum=2, maximum=MAX_TABLE_PLAYERS)
        rules = as_rules(rules)
        dealer = as_player(dealer, "dealer", n)
        if seed is not None:
            seed = as_int(seed, "seed", minimum=0)
        self._s = deal(n, rules, dealer, seed, None if wall is None else as_wall(wall))
        self._round = Round(rules, n, dealer)
        self._rewards = np.zeros(n, dtype=np.int64)
        self._mask: np.ndarray | None = None  # the current player's mask, until the next step
        if not rules.ding_que:  # 不定张: no declaration phase
            self._begin_play()

    # ------------------------------------------------------------------ reading
    @property
    def players(self) -> int:
        """The number of seats."""
        return self._s.n

    @property
    def rules(self) -> Rules:
        """The rules in force."""
        return self._s.rules

    @property
    def round(self) -> Round:
        """The ledger of every payment so far (its ``to_json()`` is the hand's event log)."""
        return self._round

    @property
    def state(self) -> TableState:
        """The full state (every hidden tile): for tests, players and the C engine's checks."""
        return self._s

    @property
    def current_player(self) -> int:
        """The seat to act (-1 once the hand is over)."""
        return -1 if self._s.phase == PHASE_OVER else self._s.current

    @property
    def phase(self) -> str:
        """``"void"``, ``"turn"``, ``"claim"``, ``"rob"`` or ``"over"``."""
        return PHASE_NAMES[self._s.phase]

    @property
    def is_over(self) -> bool:
        """True once one seat is left or the wall ran out (after the draw settlement)."""
        return self._s.phase == PHASE_OVER

    @property
    def scores(self) -> np.ndarray:
        """Net payments so far per seat (int64, sums to zero)."""
        return self._s.scores.copy()

    @property
    def next_dealer(self) -> int:
        """The dealer of the next hand once this one is over (:attr:`mjfast.Round.next_dealer`:
        the first winner; after 一炮多响 as the first win, the discarder; after a draw with no
        winner, the same dealer). Raises ValueError while the hand goes on."""
        return self._round.next_dealer

    @property
    def wall_left(self) -> int:
        """Tiles left to draw."""
        return self._s.wall_left

    @property
    def turns(self) -> int:
        """Own turns taken so far (draws and turns after a pung, the dealer's first)."""
        return self._s.turns

    def legal_actions(self, player: int) -> np.ndarray:
        """(140,) bool mask of the actions ``player`` may take now (all False if not to act)."""
        p = as_player(player, "player", self._s.n)
        if p != self._s.current:
            return legal_mask(self._s, p)
        return self._current_mask().copy()

    def _current_mask(self) -> np.ndarray:
        if self._mask is None:
            self._mask = legal_mask(self._s, self._s.current)
        return self._mask

    def observation(self, player: int) -> Observation:
        """What ``player`` may see, as numpy arrays (see :func:`mjfast.table.observation`)."""
        return observation(self._s, as_player(player, "player", self._s.n))

    def to_json(self, **dumps_kwargs: Any) -> str:
        """The event log of the ledger (:meth:`mjfast.Round.to_json`)."""
        return self._round.to_json(**dumps_kwargs)

    # ------------------------------------------------------------------ acting
    def step(self, action: int) -> np.ndarray:
        """The current player takes ``action``; returns the payments it caused (net per seat).

        Raises :class:`~mjfast.table.IllegalActionError` (a ``ValueError``) naming the reason
        when the action is not legal; the table is then unchanged.
        """
        s = self._s
        a = as_int(action, "action", minimum=0, maximum=NUM_ACTIONS - 1)
        p = s.current
        mask = self._current_mask()
        if not mask[a]:
            raise IllegalActionError(why_illegal(s, p, a))
        self._mask = None
        self._rewards = np.zeros(s.n, dtype=np.int64)
        if s.phase == PHASE_VOID:
            self._declare(p, a - VOID)
        elif s.phase == PHASE_TURN:
            self._turn_action(p, a)
        else:
            s.claims[p] = a
            if a != WIN and mask[WIN]:
                self._pass_win(p)
            self._ask_next()
        return self._rewards

    def _pass_win(self, p: int) -> None:
        """过水不胡: remember the win ``p`` let go, until its next draw."""
        s = self._s
        if s.rules.guo_shui == "fan":
            s.passed_fan[p] = max(int(s.passed_fan[p]), claim_fan(s, p))
        elif s.rules.guo_shui == "tile":
            s.passed_tiles[p] |= 1 << s.tile

    def _pay(self, transfers: tuple[Transfer, ...]) -> None:
        for t in transfers:
            self._s.scores[t.payer] -= t.amount
            self._s.scores[t.receiver] += t.amount
            self._rewards[t.payer] -= t.amount
            self._rewards[t.receiver] += t.amount

    def _declare(self, p: int, v: int) -> None:
        s = self._s
        s.void[p] = v
        q = (p + 1) % s.n
        if q != s.dealer:
            s.current = q
            return
        self._begin_play()

    def _begin_play(self) -> None:
        """The dealer's first turn, once the void suits are declared (or with 不定张)."""
        s = self._s
        for i in range(s.n):
            if i != s.dealer:
                s.update_waits(i)
        s.phase, s.current = PHASE_TURN, s.dealer
        s.turns = 1

    def _turn_action(self, p: int, a: int) -> None:
        s = self._s
        if a == WIN:
            self._self_win(p)
        elif a >= KONG_CONCEALED:
            k = a - KONG_CONCEALED
            s.hands[p, k] = 0
            self._add_meld(p, k, 3)
            self._pay(self._round.kong(p, k, "kong_concealed"))
            s.update_waits(p)
            self._start_turn(p, replacement=True)
        elif a >= KONG_ADDED:
            k = a - KONG_ADDED
            s.hands[p, k] -= 1
            s.update_waits(p)
            s.tile, s.source, s.kong_discard = k, p, False
            self._open(PHASE_ROB, p)
        else:
            self._discard(p, a - DISCARD)

    def _add_meld(self, p: int, k: int, kind: int) -> None:
        s = self._s
        s.melds[p, s.n_melds[p]] = (k, kind)
        s.n_melds[p] += 1
        s.meld_counts[p, k] = 3 if kind == 0 else 4
        s.any_meld = True

    def _discard(self, p: int, k: int) -> None:
        s = self._s
        s.hands[p, k] -= 1
        if s.river_len[p] >= MAX_DISCARDS:
            raise AssertionError(f"player {p} made more than {MAX_DISCARDS} discards")
        s.river[p, s.river_len[p]] = k
        s.river_len[p] += 1
        self._round.discard(p, k)  # the suits discarded: the 花猪 exception reads them
        s.update_waits(p)
        s.tile, s.source, s.kong_discard = k, p, s.after_kong
        self._open(PHASE_CLAIM, p)

    def _open(self, phase: int, source: int) -> None:
        """Ask the seats still in after ``source`` that have a claim on the tile in play."""
        s = self._s
        s.phase = phase
        s.claims = {}
        s.queue = []
        for i in range(1, s.n):
            q = (source + i) % s.n
            if s.won[q] or not could_claim(s, q):
                continue
            s.current = q  # the mask is that of the seat asked
            mask = legal_mask(s, q)
            if mask.sum() > 1 or not mask[PASS]:
                s.queue.append(q)
        self._ask_next()

    def _ask_next(self) -> None:
        s = self._s
        if s.queue:
            s.current = s.queue.pop(0)
            return
        winners = [q for q, a in s.claims.items() if a == WIN]
        if s.phase == PHASE_ROB:
            if winners:
                if s.rules.qiang_gang_transfer:  # 转雨: the kong's income, for the robbers
                    self._pay(self._round.kong(s.source, s.tile, "kong_added",
                                               immediate=self._immediate(s.tile)))
                self._discard_win(winners, robbing=True)
            else:
                self._finish_added_kong()
            return
        taker = next((q for q, a in s.claims.items() if a not in (WIN, PASS)), -1)
        if winners:
            self._discard_win(winners, robbing=False)
        elif taker >= 0:
            self._take(taker, s.claims[taker])
        else:
            self._start_turn(s.next_in(s.source))

    def _take(self, q: int, a: int) -> None:
        """A pung or exposed kong of the discard by ``q``, who then acts."""
        s = self._s
        t, d = s.tile, s.source
        s.river_taken[d, s.river_len[d] - 1] = True
        if a >= KONG_EXPOSED:
            s.hands[q, t] = 0
            self._add_meld(q, t, 1)
            self._pay(self._round.kong(q, t, "kong", from_player=d))
            s.update_waits(q)
            self._start_turn(q, replacement=True)
            return
        s.hands[q, t] -= 2
        self._add_meld(q, t, 0)
        s.phase, s.current = PHASE_TURN, q
        s.after_pung, s.after_kong, s.drawn, s.turn_drawn = True, False, -1, 0
        s.turns += 1

    def _finish_added_kong(self) -> None:
        s = self._s
        p, k = s.source, s.tile
        s.melds[p, s.has_pung(p, k), 1] = 2
        s.meld_counts[p, k] = 4
        self._pay(self._round.kong(p, k, "kong_added", immediate=self._immediate(k)))
        self._start_turn(p, replacement=True)

    def _immediate(self, k: int) -> bool:
        """即时加杠: is the added kong of ``k`` declared on the turn its fourth copy was drawn?"""
        return bool(self._s.turn_drawn >> k & 1)

    def _start_turn(self, p: int, replacement: bool = False) -> None:
        """Seat ``p`` draws (a kong's replacement tile with ``replacement``) and acts, or the
        wall is empty and the hand ends in a draw."""
        s = self._s
        if s.wall_left == 0:
            self._draw_end()
            return
        s.drawn = int(s.wall[s.pos])
        s.pos += 1
        s.turn_drawn = (s.turn_drawn if replacement else 0) | 1 << s.drawn
        s.hands[p, s.drawn] += 1
        s.draws[p] += 1
        s.passed_fan[p] = -1
        s.passed_tiles[p] = 0
        s.phase, s.current = PHASE_TURN, p
        s.after_kong, s.after_pung = replacement, False
        if not replacement:
            s.turns += 1

    # ------------------------------------------------------------------ wins and the end
    def _self_win(self, p: int) -> None:
        s = self._s
        first = s.draws[p] <= 1 and not s.any_meld and not s.after_kong
        self._record_win([p], s.drawn, None, [s.hands[p].copy()], after_kong=s.after_kong,
                         last_tile=s.wall_left == 0,
                         tian_hu=first and p == s.dealer and s.draws[p] == 0,
                         di_hu=first and p != s.dealer, jue_zhang=s.jue_zhang(p, s.drawn))
        self._after_win(p)

    def _discard_win(self, winners: list[int], robbing: bool) -> None:
        s = self._s
        t, d = s.tile, s.source
        hands = []
        for w in winners:
            h = s.hands[w].copy()
            h[t] += 1
            hands.append(h)
        if not robbing:
            s.river_taken[d, s.river_len[d] - 1] = True
        di_hu = [s.di_hu_on_discard(w) for w in winners]
        jue_zhang = [s.jue_zhang(w, t) for w in winners]
        s.won_tiles[t] += 1
        self._record_win(winners, t, d, hands, robbing_kong=robbing,
                         after_kong_discard=s.kong_discard, last_tile=s.wall_left == 0,
                         di_hu=di_hu, jue_zhang=jue_zhang)
        self._after_win(winners[-1])

    def _record_win(self, winners: list[int], t: int, d: int | None, hands: list[np.ndarray],
                    **flags: Any) -> None:
        s = self._s
        one = len(winners) == 1 and d is None
        melds = [[str(m) for m in s.meld_list(w)] for w in winners]
        voids = [int(s.void[w]) for w in winners]
        out = self._round.win(winners[0] if one else winners, t, from_player=d,
                              hands=hands[0] if one else hands,
                              melds=melds[0] if one else melds,
                              void_suit=voids[0] if one else voids, **flags)
        self._pay(out)
        for i, (w, h) in enumerate(zip(winners, hands)):
            s.won[w] = True
            s.win_order[w] = s.winners
            s.hands[w] = h if d is None else h - np.eye(NUM_KINDS, dtype=np.uint8)[t]
            fan = next((x.fan for x in out if x.receiver == w and x.fan is not None), None)
            if fan is None:  # a win worth nothing (0 points) moves no money: score it here
                own = {k: v[i] if isinstance(v, list) else v for k, v in flags.items()}
                fan = score(h, win_tile=t, melds=s.meld_list(w), void_suit=int(s.void[w]),
                            self_drawn=d is None, rules=s.rules, sets=s.sets, **own).raw_fan
            s.win_fan[w] = -1 if fan is None else fan
        s.winners += 1

    def _after_win(self, last: int) -> None:
        s = self._s
        if not self._round.is_over:
            self._start_turn(s.next_in(last))
        elif s.rules.shai_tai_yang and s.rules.xue_zhan:  # 晒太阳: the last player settles alone
            self._draw_end()
        else:
            s.phase = PHASE_OVER

    def _draw_end(self) -> None:
        """The draw settlement of the seats still in (the wall ran out, or 晒太阳)."""
        s = self._s
        s.phase = PHASE_OVER  # first: no robbed kong's tile is in play any more (_visible)
        states: list[PlayerState | None] = []
        for p in range(s.n):
            if s.won[p]:
                states.append(None)
                continue
            states.append(PlayerState(tuple(int(x) for x in s.hands[p]), melds=tuple(s.meld_list(p)),
                                      void_suit=int(s.void[p]), visible=self._visible(p)))
        self._pay(self._round.draw(states).transfers)

    def _visible(self, p: int) -> tuple[int, ...]:
        """Copies seat ``p`` has seen outside its own hand: discards, melds, winners' hands."""
        s = self._s
        seen = s.tile_total() - np.bincount(s.wall[s.pos:], minlength=NUM_KINDS)
        seen -= s.hands[p].astype(np.int64) + s.meld_counts[p].astype(np.int64)
        for q in range(s.n):
            if q != p and not s.won[q]:
                seen -= s.hands[q].astype(np.int64)
        return tuple(int(x) for x in seen)
