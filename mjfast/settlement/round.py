"""The ledger of one hand of 血战到底: :class:`Round` records kongs, wins and the draw as they
happen (RULES.md section 5, then section 6 at a draw)."""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np

from mjfast._args import as_choice, as_flag, as_int, as_player, as_rules, as_tile
from mjfast._deprecated import renamed
from mjfast.errors import InvalidArgumentError
from mjfast.rules import Rules
from mjfast.settlement.draw import check_copies, settle_states
from mjfast.settlement.ledger import (
    Kong,
    State,
    account_copies,
    check_di_hu,
    check_sequence,
    draw_states,
    is_list,
    per_winner,
    per_winner_flags,
    score_winner,
    win_record,
    win_transfers,
)
from mjfast.settlement.log import event_args, log_field, read_log, write_log
from mjfast.settlement.model import (
    MAX_PLAYERS,
    HandLike,
    MeldsLike,
    PlayerState,
    Reason,
    Settlement,
    TileLike,
    Transfer,
    as_state,
    sets_for,
)
from mjfast.tiles import NUM_KINDS, MeldKind, format_tile

__all__ = ["Round"]

_KONG_KINDS = {
    "kong": "kong", "exposed": "kong",
    "kong_added": "kong_added", "added": "kong_added",
    "kong_concealed": "kong_concealed", "concealed": "kong_concealed",
}
_KONG_REASON = {"kong": Reason.GANG_ZHI, "kong_added": Reason.GANG_BU,
                "kong_concealed": Reason.GANG_AN}


class Round:
    """The ledger of one hand of 血战到底 (RULES.md section 5, then section 6 at a draw).

    ``rules``: a :class:`mjfast.rules.Rules`, a preset name or None (``chengdu``). ``players``:
    2 to 6 seats (the hand ends when all but one have won); at 5 and 6 seats hands are short
    (RULES.md section 7: 3 and 2 sets + pair, :func:`~mjfast.settlement.model.sets_for`).
    ``dealer``: the seat of the dealer (for 天胡/地胡).

    Events, in the order they happen (each returns the transfers it made):

    - :meth:`kong` - 直杠 / 补杠 / 暗杠 and their payments;
    - :meth:`discard` - a discard (no payment; the suits each player discarded are what the
      花猪 exception ``rules.hua_zhu_one_suit`` reads at the draw);
    - :meth:`win` - one or more winners on one tile (自摸, 点炮, 一炮多响, 抢杠胡, 杠上炮 with
      呼叫转移);
    - :meth:`draw` - the wall ran out: the draw settlement, with kong income from this ledger
      (with ``rules.shai_tai_yang`` also once after all but one have won: 晒太阳).

    A player who has won leaves: later events neither charge nor pay them, except kong refunds
    owed to them at the draw. With ``rules.xue_zhan=False`` (普通场) the first win event (all
    the winners of that discard) ends the hand: no draw settlement follows it. An illegal event
    raises ``ValueError`` and leaves the ledger as it was. ``to_json()`` / ``from_json()`` save
    and replay the event log.

    >>> r = Round()
    >>> r.kong(2, "7s", "kong", from_player=0)          # 直杠: 0 pays 2
    (Transfer(0 -> 2: 2, gang_zhi),)
    >>> r.win(1, "4m", hands="123456m44m567p789p")       # 自摸 0 fan: 0, 2, 3 pay 1 + 1
    (Transfer(0 -> 1: 2, zi_mo, 0 fan), Transfer(2 -> 1: 2, zi_mo, 0 fan), \
Transfer(3 -> 1: 2, zi_mo, 0 fan))
    >>> r.net.tolist()
    [-4, 6, 0, -2]
    >>> Round.from_json(r.to_json()).transfers == r.transfers
    True
    """

    def __init__(self, rules: Rules | str | None = None, players: int = 4, dealer: int = 0):
        self._rules = as_rules(rules)
        self._n = n = as_int(players, "players", minimum=2, maximum=MAX_PLAYERS)
        self._dealer = as_player(dealer, "dealer", n)
        self._sets = sets_for(n)
        self._s = State(won=[False] * n, win_event=[None] * n, kongs=[],
                         held=np.zeros((n, NUM_KINDS), dtype=np.int64),
                         shared=np.zeros(NUM_KINDS, dtype=np.int64), pungs=[], transfers=[],
                         events=[], discarded=[set() for _ in range(n)])

    # ------------------------------------------------------------------ read-only views
    @property
    def rules(self) -> Rules:
        """The rules in force."""
        return self._rules

    @property
    def players(self) -> int:
        """The number of seats."""
        return self._n

    @property
    def dealer(self) -> int:
        """The dealer's seat."""
        return self._dealer

    @property
    def transfers(self) -> tuple[Transfer, ...]:
        """Every payment so far, in order (``Transfer.event`` names the event)."""
        return tuple(self._s.transfers)

    @property
    def events(self) -> tuple[dict[str, Any], ...]:
        """The event log (JSON-ready dicts), as :meth:`to_json` writes it."""
        return tuple(json.loads(json.dumps(e)) for e in self._s.events)

    @property
    def winners(self) -> tuple[int, ...]:
        """The players who have won, in the order they won."""
        order = sorted((e, i) for i, e in enumerate(self._s.win_event) if e is not None)
        return tuple(i for _, i in order)

    @property
    def still_in(self) -> tuple[int, ...]:
        """The players who have not won."""
        return tuple(i for i in range(self._n) if not self._s.won[i])

    @property
    def is_over(self) -> bool:
        """True once all but one have won (普通场: once one has), or after :meth:`draw`."""
        return self._s.over

    @property
    def net(self) -> np.ndarray:
        """Received minus paid per player (int64, sums to zero)."""
        return self.settlement().net

    @property
    def matrix(self) -> np.ndarray:
        """Summed payments, payer row -> receiver column (int64, n x n)."""
        return self.settlement().matrix

    @property
    def next_dealer(self) -> int:
        """The dealer of the next hand, once this one is over (RULES.md section 7): the first
        winner; when the first win was several wins on one discard (一炮多响), the discarder;
        after a draw with no winner, the same dealer (连庄).

        >>> r = Round(Rules(xue_zhan=False), dealer=2)  # 普通场: the first win ends the hand
        >>> _ = r.win([0, 1], "5p", from_player=3, hands=["123456789m34555p", "112233445566m55p"])
        >>> r.is_over, r.next_dealer                     # 一炮多响: the discarder deals next
        (True, 3)
        """
        if not self._s.over:
            raise ValueError("next_dealer: the hand is not over")
        # the first win event (the log keeps a win's winners under "players")
        first = next((e for e in self._s.events if e["type"] == "win"), None)
        if first is None:
            return self._dealer
        if isinstance(first["players"], list) and len(first["players"]) > 1:
            return int(first["from_player"])
        return int(first["players"][0] if isinstance(first["players"], list)
                   else first["players"])

    def settlement(self) -> Settlement:
        """All transfers so far as a :class:`Settlement`."""
        return Settlement.from_transfers(self._s.transfers, self._n)

    def kong_income(self, player: int) -> tuple[tuple[int, int], ...]:
        """The (payer, amount) kong income ``player`` still holds and would refund at a draw.

        Kongs robbed (抢杠胡) earned nothing; a kong whose income went to a 杠上炮 winner
        (呼叫转移) is not counted.
        """
        return self._s.income(as_player(player, "player", self._n))

    def __repr__(self) -> str:
        return (f"Round(rules={self._rules.name!r}, players={self._n}, dealer={self._dealer}, "
                f"events={len(self._s.events)}, net={self.net.tolist()})")

    # ------------------------------------------------------------------ events
    def _begin(self, what: str) -> State:
        s = self._s
        if s.over and not (what == "draw" and self._rules.shai_tai_yang and self._rules.xue_zhan
                           and all(e["type"] != "draw" for e in s.events)):
            raise ValueError(f"{what}: the hand is over (all but one have won, or it was drawn)")
        return s.copy()

    def _player_in(self, s: State, value: object, what: str) -> int:
        p = as_player(value, what, self._n)
        if s.won[p]:
            raise ValueError(f"{what}: player {p} has already won and left the hand")
        return p

    def kong(self, player: int, tile: TileLike, kind: str | MeldKind,
             from_player: int | None = None, *, immediate: bool = True
             ) -> tuple[Transfer, ...]:
        """Record a kong and its payments (刮风下雨).

        ``kind``: ``"kong"`` (直杠, exposed from ``from_player``'s discard; alias
        ``"exposed"``), ``"kong_added"`` (补杠 onto an own pung; ``"added"``) or
        ``"kong_concealed"`` (暗杠; ``"concealed"``). Payments, never capped:

        - 直杠: ``from_player`` pays ``rules.exposed_kong``; with ``rules.jia_jia_you`` every
          other player still in also pays 1.
        - 补杠: every other player still in pays ``rules.added_kong``; with
          ``rules.added_kong_immediate`` (即时加杠) only when ``immediate``: declared on the
          turn its fourth copy was drawn. A later one (``immediate=False``) earns nothing.
        - 暗杠: every other player still in pays ``rules.concealed_kong``.

        Raises ValueError if the player has won, ``from_player`` is missing / not allowed / has
        won, or the player cannot hold all four copies (another kong of that tile, copies seen
        in a winner's hand).

        >>> Round().kong(0, "3m", "kong_added")
        (Transfer(1 -> 0: 1, gang_bu), Transfer(2 -> 0: 1, gang_bu), Transfer(3 -> 0: 1, gang_bu))
        """
        s = self._begin("kong")
        event = len(s.events)
        p = self._player_in(s, player, "kong: player")
        t = as_tile(tile, "kong: tile")
        name = kind.value if isinstance(kind, enum.Enum) else kind
        k = _KONG_KINDS[as_choice(name, "kong: kind", tuple(_KONG_KINDS))]
        d = None
        if k == "kong":
            if from_player is None:
                raise ValueError("kong: an exposed kong (直杠) needs from_player, the discarder")
            d = self._player_in(s, from_player, "kong: from_player")
            if d == p:
                raise ValueError("kong: from_player must be another player than the konger")
        elif from_player is not None:
            raise ValueError(f"kong: from_player is only for an exposed kong, not {k}")
        immediate = as_flag(immediate, "kong: immediate")
        if not immediate and k != "kong_added":
            raise ValueError(f"kong: immediate=False (即时加杠) is only for an added kong, not {k}")
        others = int(s.held[:, t].sum() - s.held[p, t] + s.shared[t])
        if s.held[p, t] >= 4 or others > 0 or (p, t) in s.pungs:
            raise ValueError(f"kong: player {p} cannot hold four {format_tile(t)} "
                             f"({others + int(s.held[p, t])} copies already accounted for)")

        late = not immediate and self._rules.added_kong_immediate
        out = [] if late else self._kong_payments(s, p, k, d, event)
        s.kongs.append(Kong(event, p, t, k, tuple((x.payer, x.amount) for x in out), source=d))
        s.held[p, t] = 4
        s.transfers += out
        rec: dict[str, Any] = {"type": "kong", "player": p, "tile": format_tile(t), "kind": k}
        if d is not None:
            rec["from_player"] = d
        if not immediate:
            rec["immediate"] = False
        s.events.append(rec)
        self._s = s
        return tuple(out)

    def _kong_payments(self, s: State, p: int, k: str, d: int | None,
                       event: int) -> list[Transfer]:
        rules = self._rules
        others_in = [q for q in range(self._n) if q != p and not s.won[q]]
        if d is not None:
            owed = [(d, rules.exposed_kong)]
            if rules.jia_jia_you:
                owed += [(q, 1) for q in others_in if q != d]
        else:
            amount = rules.added_kong if k == "kong_added" else rules.concealed_kong
            owed = [(q, amount) for q in others_in]
        return [Transfer(q, p, a, _KONG_REASON[k], event=event) for q, a in owed if a > 0]

    def discard(self, player: int, tile: TileLike) -> tuple[Transfer, ...]:
        """Record a discard: no payment (returns ``()``); the suit joins the player's
        ``discarded_suits`` at the draw (the 花猪 exception, ``rules.hua_zhu_one_suit``).

        Discards are optional: a Round without them prices every event the same. They do not
        enter the copy accounting (a discard may be claimed by a pung, a kong or a win). A
        discard may come between a kong and the 杠上炮 win on it.

        >>> r = Round(rules=Rules(hua_zhu_one_suit=True))
        >>> r.discard(2, "9s"), r.discarded_suits(2)
        ((), ('s',))
        """
        s = self._begin("discard")
        p = self._player_in(s, player, "discard: player")
        t = as_tile(tile, "discard: tile")
        s.discarded[p].add(t // 9)
        s.events.append({"type": "discard", "player": p, "tile": format_tile(t)})
        self._s = s
        return ()

    def discarded_suits(self, player: int) -> tuple[str, ...]:
        """The suits (``"m"``, ``"p"``, ``"s"``) ``player`` discarded, as recorded."""
        return tuple("mps"[x] for x in sorted(self._s.discarded[as_player(player, "player",
                                                                          self._n)]))

    @renamed(players="winners")
    def win(self, winners: int | Sequence[int], tile: TileLike, *,
            from_player: int | None = None,
            hands: HandLike | Sequence[HandLike],
            melds: MeldsLike | Sequence[MeldsLike] = None,
            void_suit: Any = None,
            robbing_kong: bool = False, after_kong: bool = False,
            after_kong_discard: bool = False, last_tile: bool = False,
            tian_hu: bool = False, di_hu: bool | Sequence[bool] = False,
            jue_zhang: bool | Sequence[bool] = False) -> tuple[Transfer, ...]:
        """Record a win (胡) on ``tile`` and its payments; the winners leave the hand.

        ``winners``: one seat, or a list of seats winning on the same discard (一炮多响).
        ``from_player``: the discarder (or the robbed player, with ``robbing_kong``); None =
        self-drawn (自摸, one winner only).
        ``hands``: each winner's concealed tiles INCLUDING the win tile (14 - 3m tiles, what
        :func:`mjfast.scoring.score` takes); ``melds`` and ``void_suit`` likewise per winner. With
        one seat given as an int, pass one hand / one meld list / one suit; with a list of seats,
        lists aligned with it. A winner's melds must show every kong recorded for them.

        Each winner is scored by ``mjfast.scoring.score`` (the flags passed through) and paid
        ``amount = rules.multiplier`` (base x 2^min(fan, cap); the points under the ``points``
        model):

        - 自摸: every other player still in pays ``amount`` (+1 with ``self_draw="add_base"``;
          ``"add_fan"`` adds the fan in scoring instead);
        - 点炮: only ``from_player`` pays, each winner separately;
        - 抢杠胡 (``robbing_kong``): the robbed player pays as the discarder; if the added kong
          was recorded just before, it is annulled (its payments are removed, it earns nothing),
          or with ``rules.qiang_gang_transfer`` (转雨) its income goes to each robber;
        - 杠上炮 (``after_kong_discard``, needs a kong by ``from_player`` just before): the
          income of that kong per ``rules.gang_shang_pao_kong``: ``"transfer"`` (呼叫转移: the
          discarder also pays each winner the whole income; with several winners each gets a
          full copy), ``"refund"`` (the discarder pays it back to those who paid it, once) or
          ``"keep"``.

        - 点杠花 (``rules.dian_gang_hua``): a 杠上花 (``after_kong``) right after an exposed kong
          is paid by that kong's discarder alone, as a discard win (no 自摸加底).

        Flags: ``after_kong`` (杠上花, needs the winner's own kong just before), ``last_tile``
        (海底), ``tian_hu`` (dealer, first event), ``di_hu`` (not the dealer; on a discard only
        with ``rules.di_hu_on_discard``), ``jue_zhang`` (绝张: the last live copy). ``di_hu`` and
        ``jue_zhang`` may differ between the winners of one discard: with a list of winners,
        each may be a list of bools aligned with it.

        >>> r = Round()
        >>> _ = r.kong(3, "2s", "kong_concealed")            # 0, 1, 2 pay 3 two each: 6
        >>> for t in r.win([0, 1], "5p", from_player=3, after_kong_discard=True,
        ...                hands=["123456789m34555p",           # 平胡 + 杠上炮 = 1 fan
        ...                       "112233445566m55p"]):         # 七对 + 杠上炮 = 3 fan
        ...     print(t)
        3 -> 0: 2, dian_pao, 1 fan
        3 -> 0: 6, hu_jiao_zhuan_yi
        3 -> 1: 8, dian_pao, 3 fan
        3 -> 1: 6, hu_jiao_zhuan_yi
        """
        s = self._begin("win")
        event = len(s.events)
        flags = {name: as_flag(value, f"win: {name}") for name, value in (
            ("robbing_kong", robbing_kong), ("after_kong", after_kong),
            ("after_kong_discard", after_kong_discard), ("last_tile", last_tile),
            ("tian_hu", tian_hu))}
        given_seats: list[object]
        if is_list(winners):
            single, given_seats = False, list(cast("Sequence[object]", winners))
        else:
            single, given_seats = True, [winners]
        seats, t, d = self._win_seats(s, given_seats, tile, from_player)
        given = per_winner(single, len(seats), hands, melds, void_suit)
        own = per_winner_flags(single, len(seats), {"di_hu": di_hu, "jue_zhang": jue_zhang})
        check_di_hu(self._rules, self._dealer, seats, d, own)
        last_kong, robbed = check_sequence(s, seats, t, d, flags, self._dealer)
        scored = [score_winner(s, self._rules, self._sets, w, t, d, {**flags, **own[i]}, *args,
                               what=f"win: player {w}" if single
                               else f"win: winners[{i}] (player {w})")
                  for i, (w, args) in enumerate(zip(seats, given))]
        held, shared = account_copies(s, scored, t, d, flags["robbing_kong"])
        # 点杠花: a 杠上花 on an exposed kong's replacement draw, paid by its discarder alone
        payer = last_kong.source if flags["after_kong"] and self._rules.dian_gang_hua \
            and last_kong is not None else None
        pao = last_kong if flags["after_kong_discard"] else None
        out = win_transfers(s, self._rules, self._n, scored, event, d, robbed, pao, payer)
        if flags["robbing_kong"] and d is not None:
            s.pungs.append((d, t))
        for w in seats:
            s.won[w] = True
            s.win_event[w] = event
        s.held = held
        s.shared = shared
        s.transfers += out
        if sum(s.won) >= self._n - 1 or not self._rules.xue_zhan:  # 普通场: the first win ends
            s.over = True
        s.events.append(win_record(scored, single, t, d, flags, own))
        self._s = s
        return tuple(out)

    def _win_seats(self, s: State, given: list[object], tile: TileLike,
                   from_player: int | None) -> tuple[list[int], int, int | None]:
        """The winners' seats, the win tile and the discarder (None = self-drawn)."""
        if not given:
            raise InvalidArgumentError("win: winners is empty")
        if len(given) >= self._n:
            raise InvalidArgumentError(f"win: winners: {len(given)} winners at a table of "
                                       f"{self._n} (one player at least does not win)")
        winners = [self._player_in(s, w, f"win: winners[{i}]") for i, w in enumerate(given)]
        if len(set(winners)) != len(winners):
            raise ValueError(f"win: a player is listed twice in {winners}")
        t = as_tile(tile, "win: tile")
        if from_player is None:
            if len(winners) != 1:
                raise ValueError("win: a self-drawn win (from_player=None) has one winner")
            return winners, t, None
        d = self._player_in(s, from_player, "win: from_player")
        if d in winners:
            raise ValueError(f"win: player {d} cannot win on their own discard")
        return winners, t, d

    @renamed(players="states")
    def draw(self, states: Sequence[PlayerState | Mapping[str, Any] | None]) -> Settlement:
        """The wall ran out (流局): run the draw settlement and end the hand.

        ``states``: one entry per seat; a :class:`PlayerState` (or a dict of its fields) for
        each player still in, ``None`` (or a state with ``won=True``) for a player who has won.
        Each state's ``kong_income`` may be left empty: this ledger fills it with
        :meth:`kong_income`; a non-empty value must agree with it (per payer). Melds must show
        the kongs recorded for the player; ``discarded_suits`` is filled from the discards
        recorded (:meth:`discard`), like ``kong_income``. Returns the draw :class:`Settlement`
        (also appended to :attr:`transfers`); see :func:`settle_draw` for the steps. With
        ``rules.shai_tai_yang`` it may also be called once after all but one have won (晒太阳:
        the last player refunds the kong income unless ready).
        """
        s = self._begin("draw")
        event = len(s.events)
        if isinstance(states, (str, bytes, Mapping)) or not isinstance(states, Sequence):
            raise InvalidArgumentError("draw: states: expected a sequence of PlayerState, one "
                                       f"per seat, got {type(states).__name__}")
        if len(states) != self._n:
            raise InvalidArgumentError(f"draw: states: expected one per seat, {self._n} seats, "
                                       f"got {len(states)}")
        given = [as_state(p, f"draw: states[{i}]") for i, p in enumerate(states)]
        settled = draw_states(s, given)
        known = s.shared + sum((s.held[i] for i in range(self._n) if s.won[i]),
                               np.zeros(NUM_KINDS, dtype=np.int64))
        check_copies(settled, known, "draw")
        result = settle_states(settled, self._rules, event)
        s.transfers += result.transfers
        s.over = True
        s.events.append({"type": "draw",
                         "players": [None if st is None or s.won[i] else st.to_json()
                                     for i, st in enumerate(given)]})
        self._s = s
        return result

    # ------------------------------------------------------------------ JSON
    def to_json(self, **dumps_kwargs: Any) -> str:
        """The rules, seats, dealer and event log as a JSON string (tiles in mpsz).

        *dumps_kwargs*: the layout options of :func:`json.dumps` (``indent``, ``sort_keys``,
        ``separators``), checked; others raise :class:`~mjfast.errors.InvalidArgumentError`.
        """
        return write_log(self._rules, self._n, self._dealer, self.events, **dumps_kwargs)

    @classmethod
    def from_json(cls, text: str | bytes | Mapping[str, Any]) -> Round:
        """Rebuild a Round by replaying a :meth:`to_json` log (same transfers, same checks).

        A bad log raises :class:`~mjfast.errors.InvalidArgumentError` (a ``ValueError``) naming
        the field: ``from_json: missing key 'dealer'``, ``from_json: events[2]: ...``.
        """
        log = read_log(text)
        with log_field(None):  # the ledger's messages name players / dealer
            ledger = cls(log.rules, log.players, log.dealer)
        for j, event in enumerate(log.events):
            with log_field(f"events[{j}]"):
                kind, args = event_args(event)
                getattr(ledger, kind)(**args)  # kong, discard, win or draw
        return ledger
