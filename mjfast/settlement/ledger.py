"""The state of a :class:`~mjfast.settlement.Round` ledger (kongs and their income, the copies
known to be with each player) and the pure steps of a win over it: the winners' arguments one per
seat, copy accounting, the kong melds a winner must show, the log entry."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from mjfast._args import as_flag, as_void
from mjfast.errors import InvalidArgumentError
from mjfast.rules import Rules
from mjfast.scoring import FanResult, score
from mjfast.settlement.model import (
    PlayerState,
    Reason,
    Transfer,
    hand_counts,
    hand_text,
    meld_counts,
    melds_of,
    naming,
    void_text,
)
from mjfast.tiles import NUM_KINDS, Meld, MeldKind, format_tile

__all__ = ["Kong", "State", "Winner", "account_copies", "by_payer", "check_di_hu",
           "check_sequence", "check_winner_kongs", "draw_states", "is_list", "per_winner",
           "score_winner", "win_record", "win_transfers"]


@dataclass
class Kong:
    """A recorded kong and the (payer, amount) income it earned."""

    event: int
    player: int
    tile: int
    kind: str                       # "kong" | "kong_added" | "kong_concealed"
    income: tuple[tuple[int, int], ...]
    status: str = "active"          # "active", "annulled" (robbed: no kong; with 转雨 its income
                                    # went to the robber), "transferred" (呼叫转移) or "refunded"
                                    # (on 杠上炮)
    source: int | None = None       # the discarder of an exposed kong (点杠花 pays alone)


@dataclass
class State:
    """Everything a Round knows; each event works on a copy and keeps it only on success."""

    won: list[bool]
    win_event: list[int | None]
    kongs: list[Kong]
    held: np.ndarray                # (n, 27) copies known to be with each player
    shared: np.ndarray              # (27,) discarded copies a winner took
    pungs: list[tuple[int, int]]    # (player, tile) pungs known from a robbed added kong
    transfers: list[Transfer]
    events: list[dict[str, Any]]
    over: bool = False
    discarded: list[set[int]] = dataclasses.field(default_factory=list)  # suits, per player

    def copy(self) -> State:
        """A copy an event can change and drop on error (the ledger stays as it was)."""
        return State(list(self.won), list(self.win_event),
                     [dataclasses.replace(k) for k in self.kongs], self.held.copy(),
                     self.shared.copy(), list(self.pungs), list(self.transfers),
                     list(self.events), self.over, [set(x) for x in self.discarded])

    def income(self, player: int) -> tuple[tuple[int, int], ...]:
        """The (payer, amount) pairs of the player's kongs that still count."""
        return tuple(e for k in self.kongs if k.player == player and k.status == "active"
                     for e in k.income)


@dataclass(frozen=True)
class Winner:
    """One winner of a win event, as read and scored."""

    seat: int
    result: FanResult
    counts: tuple[int, ...]         # concealed tiles including the win tile
    melds: tuple[Meld, ...]
    void: int | None


def win_transfers(s: State, rules: Rules, n: int, scored: list[Winner], event: int,
                  d: int | None, robbed: Kong | None, pao: Kong | None,
                  dian_gang: int | None) -> list[Transfer]:
    """The transfers of a win, after settling the kong it follows: a *robbed* added kong is
    annulled (its payments removed from ``s``) or, with 转雨, handed to each winner; the kong
    before a 杠上炮 (*pao*) is handed on, refunded or kept per ``rules.gang_shang_pao_kong``.
    *dian_gang*: the discarder who pays a 点杠花 alone, as a discard win."""
    handed, reason = None, Reason.HU_JIAO_ZHUAN_YI
    if robbed is not None:
        robbed.status = "annulled"
        if rules.qiang_gang_transfer:
            handed, reason = robbed, Reason.ZHUAN_YU
        else:
            s.transfers = [x for x in s.transfers if x.event != robbed.event]
    out: list[Transfer] = []
    if pao is not None and d is not None and rules.gang_shang_pao_kong == "transfer":
        handed = pao
    elif pao is not None and d is not None and rules.gang_shang_pao_kong == "refund":
        pao.status = "refunded"
        out += [Transfer(d, q, a, Reason.PAO_REFUND, event=event) for q, a in pao.income]
    income = sum(a for _, a in handed.income) if handed is not None and d is not None else 0
    for w in scored:
        amount = int(w.result.multiplier)
        if dian_gang is not None:
            payers, why = [dian_gang], Reason.DIAN_PAO
        elif d is None:
            amount += int(rules.self_draw == "add_base")
            payers, why = [q for q in range(n) if q != w.seat and not s.won[q]], Reason.ZI_MO
        else:
            payers, why = [d], Reason.DIAN_PAO
        out += [Transfer(q, w.seat, amount, why, fan=w.result.raw_fan, event=event)
                for q in payers if amount > 0]
        if income > 0 and d is not None:
            out.append(Transfer(d, w.seat, income, reason, event=event))
    if handed is pao and pao is not None:
        pao.status = "transferred"
    return out


def draw_states(s: State, given: Sequence[PlayerState | None]) -> list[PlayerState | None]:
    """The states a Round's draw settles: None for a winner; for a player still in, the given
    state with the ledger's kong income and recorded discarded suits (a given value must agree)."""
    states: list[PlayerState | None] = []
    for i, st in enumerate(given):
        what = f"draw: states[{i}]"
        if s.won[i]:
            if st is not None and not st.won:
                raise ValueError(f"{what}: player {i} has won; pass None or won=True")
            states.append(None)
            continue
        if st is None or st.won:
            raise ValueError(f"{what}: player {i} is still in; pass their PlayerState "
                             "with won=False")
        check_winner_kongs(s, i, st.melds, what)
        ledger = s.income(i)
        if st.kong_income and by_payer(st.kong_income) != by_payer(ledger):
            raise ValueError(f"{what}: kong_income {list(st.kong_income)} disagrees with "
                             f"the ledger's {list(ledger)}")
        suits = tuple(sorted(s.discarded[i]))
        if suits and st.discarded_suits and st.discarded_suits != suits:
            raise ValueError(f"{what}: discarded_suits {st.discarded_suits} disagrees with "
                             f"the discards recorded ({suits})")
        states.append(dataclasses.replace(st, kong_income=ledger,
                                          discarded_suits=suits or st.discarded_suits))
    return states


def account_copies(s: State, scored: list[Winner], t: int, d: int | None,
                   robbing: bool) -> tuple[np.ndarray, np.ndarray]:
    """The copies held and shared once the winners show their hands; no tile over 4."""
    held = s.held.copy()
    shared = s.shared.copy()
    if robbing and d is not None:
        held[d, t] = 3                     # the robbed player keeps a pung
    for w in scored:
        whole = np.add(w.counts, meld_counts(w.melds)).astype(np.int64)
        if d is not None:
            whole[t] -= 1                  # the discarded copy is counted once
        held[w.seat] = np.maximum(held[w.seat], whole)
    if d is not None:
        shared[t] += 1
    total = held.sum(axis=0) + shared
    if total.max() > 4:
        k = int(np.argmax(total))
        raise ValueError(f"win: tile {format_tile(k)} would appear {int(total[k])} "
                         "times across the table (max 4)")
    return held, shared


def check_sequence(s: State, winners: list[int], t: int, d: int | None,
                   flags: dict[str, bool], dealer: int) -> tuple[Kong | None, Kong | None]:
    """Check the flags against the events before; return the kong made just before (if
    any; the konger's one discard recorded after it may come between, for 杠上炮) and the
    recorded added kong this win robs (if any)."""
    last_kong = s.kongs[-1] if s.kongs else None
    between = s.events[last_kong.event + 1:] if last_kong is not None else []
    if between and not (len(between) == 1 and between[0]["type"] == "discard"
                        and last_kong is not None and between[0]["player"] == last_kong.player):
        last_kong = None
    if flags["after_kong"] and (d is not None or last_kong is None or between
                                or last_kong.player != winners[0]):
        raise ValueError("win: after_kong (杠上花) needs a self-drawn win right after the "
                         "winner's own kong")
    if flags["after_kong_discard"] and (d is None or last_kong is None
                                        or last_kong.player != d):
        raise ValueError("win: after_kong_discard (杠上炮) needs a kong by from_player "
                         "right before")
    robbed = None
    if flags["robbing_kong"]:
        if d is None:
            raise ValueError("win: robbing_kong (抢杠胡) needs from_player, the robbed player")
        if last_kong is not None and not between and last_kong.player == d \
                and last_kong.tile == t:
            if last_kong.kind != "kong_added":
                raise ValueError("win: only an added kong (补杠) can be robbed")
            robbed = last_kong
    if flags["tian_hu"] and (s.events or d is not None or winners[0] != dealer):
        raise ValueError("win: tian_hu (天胡) is the dealer's self-drawn win before any "
                         "other event")
    if d is not None and flags["robbing_kong"] and robbed is None \
            and (s.held[d, t] > 3 or (d, t) in s.pungs):
        raise ValueError(f"win: player {d} cannot have a pung of {format_tile(t)} to add to")
    return last_kong, robbed


def check_di_hu(rules: Rules, dealer: int, winners: list[int], d: int | None,
                own: list[dict[str, bool]]) -> None:
    """A 地胡 flag is a non-dealer's, and on a discard only with rules.di_hu_on_discard."""
    for w, o in zip(winners, own):
        if o["di_hu"] and w == dealer:
            raise ValueError("win: di_hu (地胡) is a non-dealer's win")
        if o["di_hu"] and d is not None and not rules.di_hu_on_discard:
            raise ValueError("win: di_hu (地胡) on a discard needs rules.di_hu_on_discard "
                             "(else it is a win on the first own draw)")


def score_winner(s: State, rules: Rules, sets: int, w: int, t: int, d: int | None,
                 flags: dict[str, bool], hand: object, melds: object, void_suit: object, *,
                 what: str) -> Winner:
    """Read one winner's hand, check it against the ledger and score it."""
    counts = hand_counts(hand, f"{what}: hand")
    ms = melds_of(melds, what)
    void = as_void(void_suit, f"{what}: void_suit")
    vs = None if void < 0 else void
    size, full = sum(counts), 3 * sets + 2 - 3 * len(ms)
    if size == full - 1:
        raise ValueError(f"{what}: the hand has {size} tiles; pass the concealed tiles "
                         f"including the win tile ({full} tiles)")
    if counts[t] == 0:
        raise ValueError(f"{what}: the hand does not contain the win tile {format_tile(t)}")
    check_winner_kongs(s, w, ms, what)
    with naming(what):
        res = score(np.asarray(counts, dtype=np.uint8), win_tile=t, melds=ms, void_suit=vs,
                    self_drawn=d is None, rules=rules, sets=sets, **flags)
    if not res.is_win:
        raise ValueError(f"{what}: {hand_text(counts)}{''.join(' ' + str(m) for m in ms)} "
                         f"is not a winning hand on {format_tile(t)}")
    return Winner(w, res, counts, ms, vs)


def check_winner_kongs(s: State, p: int, melds: Sequence[Meld], what: str) -> None:
    """A hand's kong melds must be exactly the kongs recorded for the player."""
    recorded = sorted((k.tile, k.kind) for k in s.kongs
                      if k.player == p and k.status != "annulled")
    shown = sorted((m.tile, m.kind.value) for m in melds if m.is_kong)
    if recorded != shown:
        fmt = ", ".join(f"{kind}:{format_tile(tl)}" for tl, kind in recorded) or "none"
        got = ", ".join(f"{kind}:{format_tile(tl)}" for tl, kind in shown) or "none"
        raise ValueError(f"{what}: kong melds ({got}) do not match the kongs recorded for "
                         f"player {p} ({fmt})")
    for pp, tl in s.pungs:
        if pp == p and not any(m.tile == tl and m.kind is MeldKind.PUNG for m in melds):
            raise ValueError(f"{what}: player {p} must show the pung of "
                             f"{format_tile(tl)} whose added kong was robbed")


def win_record(scored: list[Winner], single: bool, t: int, d: int | None,
                flags: dict[str, bool], own: list[dict[str, bool]]) -> dict[str, Any]:
    """The log entry of a win: the arguments that replay it (*own*: the flags of
    :data:`PER_WINNER_FLAGS` per winner, one value when they agree)."""
    def one_or_all(values: list[Any]) -> Any:
        return values[0] if single else values

    rec: dict[str, Any] = {"type": "win", "players": one_or_all([w.seat for w in scored]),
                           "tile": format_tile(t)}
    if d is not None:
        rec["from_player"] = d
    rec["hands"] = one_or_all([hand_text(w.counts) for w in scored])
    rec["melds"] = one_or_all([[str(m) for m in w.melds] for w in scored])
    rec["void_suit"] = one_or_all([void_text(w.void) for w in scored])
    rec.update({k: True for k, v in flags.items() if v})
    for name in PER_WINNER_FLAGS:
        values = [o[name] for o in own]
        if any(values):
            rec[name] = True if all(values) else values
    return rec


PER_WINNER_FLAGS = ("di_hu", "jue_zhang")
"""The flags of a win that may differ between the winners of one discard (地胡, 绝张)."""


def per_winner_flags(single: bool, n: int, values: dict[str, object]) -> list[dict[str, bool]]:
    """The :data:`PER_WINNER_FLAGS` of each winner: one bool for all, or (with a list of
    winners) a list of bools aligned with them."""
    out: list[dict[str, bool]] = [{} for _ in range(n)]
    for name, value in values.items():
        if not single and is_list(value):
            for i, v in enumerate(_aligned(single, n, value, name, lambda _: False)):
                out[i][name] = as_flag(v, f"win: {name}[{i}]")
        else:
            flag = as_flag(value, f"win: {name}")
            for o in out:
                o[name] = flag
    return out


def by_payer(income: Iterable[tuple[int, int]]) -> dict[int, int]:
    out: dict[int, int] = {}
    for payer, amount in income:
        out[payer] = out.get(payer, 0) + amount
    return {k: v for k, v in out.items() if v}


def per_winner(single: bool, n: int, hands: object, melds: object,
                void_suit: object) -> list[tuple[object, object, object]]:
    """(hand, melds, void suit) per winner, from one value each or lists aligned with them."""
    hand_list = _aligned(single, n, hands, "hands", _is_one_hand)
    if any(h is None for h in hand_list):
        raise InvalidArgumentError(
            "win: hands are required (concealed tiles including the win tile)")
    meld_list = _aligned(single, n, melds, "melds", lambda v: isinstance(v, (str, Meld)))
    void_list = _aligned(single, n, void_suit, "void_suit", lambda v: isinstance(v, str))
    return list(zip(hand_list, meld_list, void_list))


def _aligned(single: bool, n: int, value: Any, name: str,
             is_single: Callable[[Any], bool]) -> list[Any]:
    if single:
        return [value]
    if value is None:
        return [None] * n
    if is_single(value) or not is_list(value) or len(value) != n:
        raise InvalidArgumentError(f"win: {name} must be a list aligned with winners "
                                   f"({n} winners)")
    return list(value)


def is_list(value: object) -> bool:
    """A list of values (one per winner), not one value: str and bytes are values, and so is
    a 0-d array."""
    if isinstance(value, np.ndarray):
        return value.ndim > 0
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray))


def _is_one_hand(value: Any) -> bool:
    return isinstance(value, str) or (np.ndim(value) == 1 and len(value) == NUM_KINDS
                                      and all(np.ndim(x) == 0 for x in value))
