"""Money for one hand of 血战到底: payments for wins and kongs, and the draw settlement.

RULES.md sections 5 (payments), 6 (draw settlement) and 8 (clarifications). Amounts are ints in
units of the base stake. Two entry points:

- :func:`settle_draw` settles a draw (流局) from the players' final states: 查花猪, 查大叫 and
  kong refunds (退税), in that order.
- :class:`Round` is the ledger of one hand: feed it kongs, wins and the final draw as they happen
  and it records every payment as a :class:`Transfer`, with the event log as JSON.

Worked example (``chengdu`` rules; players 0-3)::

    >>> from mjfast.settlement import Round, PlayerState
    >>> r = Round()
    >>> r.kong(1, "5s", "kong_concealed")            # 下雨: 0, 2, 3 pay player 1 two each
    (Transfer(0 -> 1: 2, gang_an), Transfer(2 -> 1: 2, gang_an), Transfer(3 -> 1: 2, gang_an))
    >>> r.win(0, "6p", from_player=2, hands="234567m11234567p")   # 点炮, 平胡: 2 pays 1
    (Transfer(2 -> 0: 1, dian_pao, 0 fan),)
    >>> s = r.draw([None,                                         # player 0 has won
    ...             PlayerState("1379p137999s", melds=["kong_concealed:5s"]),  # not ready
    ...             PlayerState("4455m1688p22669s"),              # three suits: 花猪
    ...             PlayerState("1112345678999m")])               # ready: 清一色 + 根 = 3 fan
    >>> for t in s.transfers: print(t)
    2 -> 1: 8, hua_zhu
    2 -> 3: 8, hua_zhu
    1 -> 3: 8, cha_da_jiao, 3 fan
    1 -> 0: 2, kong_refund
    1 -> 2: 2, kong_refund
    1 -> 3: 2, kong_refund
    >>> r.net.tolist()
    [1, 0, -17, 16]

Decisions where RULES.md leaves room (each is also stated where it applies):

- ``Round.win(hands=...)`` takes each winner's concealed tiles INCLUDING the win tile (14 - 3m
  tiles), exactly what :func:`mjfast.scoring.score` takes; a 13 - 3m hand is refused with a hint.
- Kong income is tracked per kong: each kong keeps the (payer, amount) pairs it earned. A robbed
  added kong (抢杠胡) earns nothing; a kong whose income was handed to a 杠上炮 winner (呼叫转移)
  is no longer the konger's. What remains is refunded at the draw by a player still in who is not
  ready, each amount to its original payer (also a payer who has won since).
- 呼叫转移 with several winners on one discard (一炮多响): each winner receives the full income of
  that kong; the discarder pays the extra copies out of pocket (the Chinese seeds: "若杠后点炮超过
  一响，点炮者要另赔出刚杠所得的点数给被点者"). Only the kong made just before the discard counts.
- Zero amounts are never recorded as transfers.
- Transfer.fan is the displayed fan before the cap (FanResult.raw_fan / MaxFan.fan); the amount
  shows the cap.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

import numpy as np

from mjfast import tiles as _tiles
from mjfast.rules import PRESETS, Fan, Rules
from mjfast.scoring import max_fan, score

__all__ = [
    "PlayerState",
    "Reason",
    "Round",
    "Settlement",
    "Transfer",
    "settle_draw",
]

NUM_KINDS = 27
_SUIT_NAMES = {
    "m": 0, "p": 1, "s": 2,
    "万": 0, "筒": 1, "饼": 1, "条": 2, "索": 2,
}
_KONG_KINDS = {
    "kong": "kong", "exposed": "kong",
    "kong_added": "kong_added", "added": "kong_added",
    "kong_concealed": "kong_concealed", "concealed": "kong_concealed",
}

HandLike = Union[str, Sequence[int], np.ndarray]
MeldsLike = Union[None, str, Sequence[Any]]
TileLike = Union[int, str]


class Reason(str, enum.Enum):
    """Why money moved. A ``str`` enum: ``Reason.HUA_ZHU == "hua_zhu"``."""

    ZI_MO = "zi_mo"                    #: self-drawn win (自摸): every other player still in pays
    DIAN_PAO = "dian_pao"              #: discard win (点炮), also the robbed player of 抢杠胡
    GANG_ZHI = "gang_zhi"              #: exposed kong from a discard (直杠), and 家家有 extras
    GANG_BU = "gang_bu"                #: added kong (补杠/弯杠)
    GANG_AN = "gang_an"                #: concealed kong (暗杠/下雨)
    HU_JIAO_ZHUAN_YI = "hu_jiao_zhuan_yi"  #: 呼叫转移: a kong's income handed to the 杠上炮 winner
    HUA_ZHU = "hua_zhu"                #: 查花猪 at the draw
    CHA_DA_JIAO = "cha_da_jiao"        #: 查大叫 at the draw
    KONG_REFUND = "kong_refund"        #: 退税 at the draw

    def __str__(self) -> str:
        return self.value

    @property
    def zh(self) -> str:
        """The Chinese name."""
        return _REASON_ZH[self]


_REASON_ZH = {
    Reason.ZI_MO: "自摸", Reason.DIAN_PAO: "点炮", Reason.GANG_ZHI: "直杠",
    Reason.GANG_BU: "补杠", Reason.GANG_AN: "暗杠", Reason.HU_JIAO_ZHUAN_YI: "呼叫转移",
    Reason.HUA_ZHU: "查花猪", Reason.CHA_DA_JIAO: "查大叫", Reason.KONG_REFUND: "退税",
}


@dataclass(frozen=True)
class Transfer:
    """One payment: ``payer`` gives ``amount`` base stakes to ``receiver``.

    ``fan`` is the displayed fan before the cap where a hand was valued (wins, 查大叫), else
    None. ``event`` is the index of the :class:`Round` event that caused it (None from
    :func:`settle_draw`).

    >>> str(Transfer(2, 0, 8, "cha_da_jiao", fan=4))
    '2 -> 0: 8, cha_da_jiao, 4 fan'
    """

    payer: int
    receiver: int
    amount: int
    reason: Reason
    fan: int | None = None
    event: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "reason", Reason(self.reason))

    def __str__(self) -> str:
        text = f"{self.payer} -> {self.receiver}: {self.amount}, {self.reason.value}"
        return text if self.fan is None else f"{text}, {self.fan} fan"

    def __repr__(self) -> str:
        return f"Transfer({self})"


def _frozen(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


@dataclass(frozen=True)
class Settlement:
    """A set of payments, with the per-pair ``matrix`` and per-player ``net`` they sum to.

    ``matrix[i, j]`` is what player i paid player j in total (int64, n x n; 4 x 4 at a standard
    table); ``net[i]`` = received - paid, which sums to zero. ``hua_zhu`` and ``ready`` list the
    players found 花猪 / ready at a draw (empty otherwise). Arrays are read-only.

    >>> s = Settlement.from_transfers([Transfer(1, 0, 3, "dian_pao", fan=1)])
    >>> s.net.tolist(), int(s.matrix[1, 0])
    ([3, -3, 0, 0], 3)
    """

    transfers: tuple[Transfer, ...] = ()
    matrix: np.ndarray = field(default=None, compare=False, repr=False)  # type: ignore[assignment]
    net: np.ndarray = field(default=None, compare=False)  # type: ignore[assignment]
    hua_zhu: tuple[int, ...] = ()
    ready: tuple[int, ...] = ()

    @classmethod
    def from_transfers(cls, transfers: Iterable[Transfer], players: int = 4, *,
                       hua_zhu: Iterable[int] = (), ready: Iterable[int] = ()) -> Settlement:
        """Sum ``transfers`` among ``players`` players into a Settlement."""
        transfers = tuple(transfers)
        matrix = np.zeros((players, players), dtype=np.int64)
        for t in transfers:
            matrix[t.payer, t.receiver] += t.amount
        net = matrix.sum(axis=0) - matrix.sum(axis=1)
        return cls(transfers, _frozen(matrix), _frozen(net), tuple(hua_zhu), tuple(ready))

    def __post_init__(self) -> None:
        if self.matrix is None or self.net is None:
            s = Settlement.from_transfers(self.transfers, hua_zhu=self.hua_zhu, ready=self.ready)
            object.__setattr__(self, "matrix", s.matrix)
            object.__setattr__(self, "net", s.net)


# ----------------------------------------------------------------------------- input helpers

def _index(value: Any, what: str, n: int) -> int:
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{what}: expected a player index, got {value!r}")
    try:
        i = operator.index(value)
    except TypeError:
        raise ValueError(f"{what}: expected a player index, got {value!r}") from None
    if not 0 <= i < n:
        raise ValueError(f"{what}: player index {i} out of range 0..{n - 1}")
    return i


def _tile(value: TileLike, what: str) -> int:
    if isinstance(value, str):
        try:
            return _tiles.parse_tile(value)
        except ValueError as exc:
            raise ValueError(f"{what}: {exc}") from exc
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{what}: expected a tile, got {value!r}")
    try:
        k = operator.index(value)
    except TypeError:
        raise ValueError(f"{what}: expected a tile ('5p' or a kind 0..26), "
                         f"got {value!r}") from None
    if not 0 <= k < NUM_KINDS:
        raise ValueError(f"{what}: tile kind {k} out of range 0..26")
    return k


def _counts(value: HandLike, what: str) -> tuple[int, ...]:
    if isinstance(value, str):
        try:
            a = _tiles.parse_hand(value)
        except ValueError as exc:
            raise ValueError(f"{what}: {exc}") from exc
        return tuple(int(x) for x in a)
    a = np.asarray(value)
    if a.shape != (NUM_KINDS,):
        raise ValueError(f"{what}: expected a tile string or 27 counts, got shape {a.shape}")
    if a.dtype.kind not in "iu":
        raise ValueError(f"{what}: counts must be integers, got dtype {a.dtype}")
    if a.size and (int(a.min()) < 0 or int(a.max()) > 4):
        k = int(np.argmax((a < 0) | (a > 4)))
        raise ValueError(f"{what}: tile {_tiles.format_tile(k)} has count {int(a[k])} "
                         "(must be 0..4)")
    return tuple(int(x) for x in a)


def _melds(value: MeldsLike, what: str) -> tuple[_tiles.Meld, ...]:
    try:
        return tuple(_tiles.parse_melds(value))
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{what}: {exc}") from exc


def _void(value: Any, what: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, str) and value in _SUIT_NAMES:
        return _SUIT_NAMES[value]
    if not isinstance(value, (bool, np.bool_, str)):
        try:
            v = operator.index(value)
        except TypeError:
            v = -1
        if v in (0, 1, 2):
            return v
    raise ValueError(f"{what}: void suit must be 'm', 'p', 's' (or 0, 1, 2), got {value!r}")


def _rules(rules: Rules | str | None) -> Rules:
    if rules is None:
        return Rules()
    if isinstance(rules, str):
        return Rules.preset(rules)
    if not isinstance(rules, Rules):
        raise ValueError(f"rules: expected a Rules object, a preset name or None, got {rules!r}")
    return rules


def _meld_counts(melds: Sequence[_tiles.Meld]) -> tuple[int, ...]:
    c = [0] * NUM_KINDS
    for m in melds:
        c[m.tile] += m.size
    return tuple(c)


def _format(counts: Sequence[int]) -> str:
    return _tiles.format_hand(np.asarray(counts, dtype=np.uint8))


# ----------------------------------------------------------------------------- PlayerState

@dataclass(frozen=True)
class PlayerState:
    """One player's state at the end of a hand (the input of the draw settlement).

    ``concealed``: the concealed tiles (a string such as ``"123m45p"`` or 27 counts; 13 - 3m
    tiles for a player still in). ``melds``: strings (``"pung:5p"``, ``"kong_concealed:7s"``) or
    :class:`mjfast.tiles.Meld` objects. ``void_suit``: the declared void suit (定缺) as ``"m"``,
    ``"p"``, ``"s"`` or 0-2, or None. ``won``: the player has won and left the hand.
    ``kong_income``: (payer index, amount) pairs received from kongs this hand, refunded at the
    draw if the player is not ready. ``visible``: 27 counts of copies seen outside the player's
    own hand and melds (only used for 死叫).

    Inputs are normalised: ``concealed`` and ``visible`` become tuples of 27 ints, ``melds`` a
    tuple of Meld, ``void_suit`` an int, ``kong_income`` a tuple of int pairs.

    >>> p = PlayerState("123m456m789m1p2s6s9s", void_suit="p")
    >>> p.is_hua_zhu(), p.suits()
    (True, (0, 1, 2))
    """

    concealed: tuple[int, ...]
    melds: tuple[_tiles.Meld, ...] = ()
    void_suit: int | None = None
    won: bool = False
    kong_income: tuple[tuple[int, int], ...] = ()
    visible: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "concealed", _counts(self.concealed, "concealed"))
        melds = _melds(self.melds, "melds")
        set_(self, "melds", melds)
        set_(self, "void_suit", _void(self.void_suit, "void_suit"))
        if not isinstance(self.won, (bool, np.bool_)):
            raise ValueError(f"won: expected a bool, got {self.won!r}")
        set_(self, "won", bool(self.won))
        income = []
        for j, entry in enumerate(self.kong_income):
            try:
                payer, amount = entry
                payer, amount = operator.index(payer), operator.index(amount)
            except (TypeError, ValueError):
                raise ValueError(f"kong_income[{j}]: expected (payer, amount), "
                                 f"got {entry!r}") from None
            if payer < 0 or amount < 0:
                raise ValueError(f"kong_income[{j}]: payer and amount must be >= 0, got {entry!r}")
            income.append((payer, amount))
        set_(self, "kong_income", tuple(income))
        if self.visible is not None:
            set_(self, "visible", _counts(self.visible, "visible"))
        total = np.add(self.concealed, _meld_counts(melds))
        if total.max(initial=0) > 4:
            k = int(np.argmax(total))
            raise ValueError(f"tile {_tiles.format_tile(k)} appears {int(total[k])} times "
                             "counting melds (max 4)")

    @property
    def counts(self) -> tuple[int, ...]:
        """27 counts of the whole hand: concealed tiles plus melds."""
        return tuple(int(x) for x in np.add(self.concealed, _meld_counts(self.melds)))

    def suits(self) -> tuple[int, ...]:
        """The suits (0 = m, 1 = p, 2 = s) the hand holds, concealed tiles and melds."""
        c = self.counts
        return tuple(s for s in range(3) if any(c[9 * s:9 * s + 9]))

    def is_hua_zhu(self) -> bool:
        """花猪: the hand holds three suits, or any tile of the declared void suit."""
        suits = self.suits()
        return len(suits) == 3 or (self.void_suit is not None and self.void_suit in suits)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (tiles as mpsz strings); ``PlayerState(**d)`` rebuilds it."""
        return {
            "concealed": _format(self.concealed),
            "melds": [str(m) for m in self.melds],
            "void_suit": None if self.void_suit is None else "mps"[self.void_suit],
            "won": self.won,
            "kong_income": [list(e) for e in self.kong_income],
            "visible": None if self.visible is None else list(self.visible),
        }


def _as_state(value: Any, what: str) -> PlayerState | None:
    if value is None or isinstance(value, PlayerState):
        return value
    if isinstance(value, Mapping):
        try:
            return PlayerState(**value)
        except TypeError as exc:
            raise ValueError(f"{what}: {exc}") from exc
    raise ValueError(f"{what}: expected a PlayerState, a dict or None, got {type(value).__name__}")


# ----------------------------------------------------------------------------- settle_draw

def _settle_draw(states: Sequence[PlayerState | None], rules: Rules,
                 event: int | None) -> Settlement:
    n = len(states)
    still_in = [i for i, s in enumerate(states) if s is not None and not s.won]
    for i in still_in:
        s = states[i]
        size = sum(s.concealed)
        if size != 13 - 3 * len(s.melds):
            raise ValueError(f"players[{i}]: a player still in at the draw holds 13 - 3 x melds = "
                             f"{13 - 3 * len(s.melds)} concealed tiles, got {size}")
        for payer, _ in s.kong_income:
            if not 0 <= payer < n or payer == i:
                raise ValueError(f"players[{i}].kong_income: payer {payer} is not another "
                                 f"player 0..{n - 1}")
    if len(still_in) < 2:
        return Settlement.from_transfers((), n)

    hua_zhu = [i for i in still_in if states[i].is_hua_zhu()]
    clean = [i for i in still_in if i not in hua_zhu]
    da_jiao = {}
    for i in clean:
        s = states[i]
        try:
            mf = max_fan(np.asarray(s.concealed, dtype=np.uint8), melds=s.melds,
                         void_suit=s.void_suit,
                         visible=None if s.visible is None else np.asarray(s.visible,
                                                                           dtype=np.uint8),
                         rules=rules)
        except ValueError as exc:
            raise ValueError(f"players[{i}]: {exc}") from exc
        if mf.fan is not None:
            da_jiao[i] = mf
    ready = sorted(da_jiao)

    out: list[Transfer] = []
    amount = rules.hua_zhu_amount() if hua_zhu else 0
    for h in hua_zhu:                                   # 1. 查花猪
        for j in clean:
            if amount > 0:
                out.append(Transfer(h, j, amount, Reason.HUA_ZHU, event=event))
    for i in clean:                                     # 2. 查大叫
        if i in da_jiao:
            continue
        for j in ready:
            mf = da_jiao[j]
            if mf.payment > 0:
                out.append(Transfer(i, j, int(mf.payment), Reason.CHA_DA_JIAO, fan=mf.fan,
                                    event=event))
    if rules.kong_refund:                               # 3. 退税
        for i in still_in:
            if i in da_jiao:
                continue
            owed: dict[int, int] = {}
            for payer, amt in states[i].kong_income:
                owed[payer] = owed.get(payer, 0) + amt
            for payer in sorted(owed):
                if owed[payer] > 0:
                    out.append(Transfer(i, payer, owed[payer], Reason.KONG_REFUND, event=event))
    return Settlement.from_transfers(out, n, hua_zhu=hua_zhu, ready=ready)


def settle_draw(players: Sequence[PlayerState | None], rules: Rules | str | None = None,
                ) -> Settlement:
    """Settle a draw (流局): RULES.md section 6, steps 1-3 in order.

    ``players`` holds one :class:`PlayerState` per seat (2-4 seats; ``None`` or ``won=True``
    for a player who has already won). Only with two or more players still in; otherwise the
    result is an empty Settlement.

    1. 查花猪: each 花猪 still in (three suits, or a tile of its declared void) pays each non-花猪
       player still in ``rules.hua_zhu_amount()``.
    2. 查大叫: each non-花猪 player still in who is not ready pays each ready player still in
       that player's ``mjfast.scoring.max_fan(...).payment`` (赔大 / 赔小 per
       ``rules.cha_da_jiao``, 死叫 per ``rules.si_jiao`` using ``visible``).
    3. 退税 (if ``rules.kong_refund``): each player still in who is not ready (花猪 included)
       returns its ``kong_income`` to the payers, one transfer per payer.

    >>> s = settle_draw([
    ...     PlayerState("1112345678999m"),                     # ready: 大叫 3 fan, pays 8
    ...     PlayerState("1357m2468m19p", melds=["pung:5p"]),   # not ready
    ...     PlayerState("2345m3p26899s", melds=["kong_added:7p"],
    ...                 kong_income=[(0, 1), (1, 1), (3, 1)]),  # three suits: 花猪
    ...     None])                                             # player 3 has won
    >>> for t in s.transfers: print(t)
    2 -> 0: 8, hua_zhu
    2 -> 1: 8, hua_zhu
    1 -> 0: 8, cha_da_jiao, 3 fan
    2 -> 0: 1, kong_refund
    2 -> 1: 1, kong_refund
    2 -> 3: 1, kong_refund
    >>> s.net.tolist(), s.hua_zhu, s.ready
    ([17, 1, -19, 1], (2,), (0,))
    """
    rules = _rules(rules)
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise ValueError("players: expected a sequence of PlayerState (one per seat)")
    if not 2 <= len(players) <= 4:
        raise ValueError(f"players: expected 2 to 4 players, got {len(players)}")
    states = [_as_state(p, f"players[{i}]") for i, p in enumerate(players)]
    _check_copies(states, np.zeros(NUM_KINDS, dtype=np.int64), "players")
    return _settle_draw(states, rules, None)


def _check_copies(states: Sequence[PlayerState | None], known: np.ndarray, what: str) -> None:
    total = known.copy()
    for s in states:
        if s is not None:
            total += np.asarray(s.counts, dtype=np.int64)
    if total.max(initial=0) > 4:
        k = int(np.argmax(total))
        raise ValueError(f"{what}: tile {_tiles.format_tile(k)} appears {int(total[k])} times "
                         "across the table (max 4)")


# ----------------------------------------------------------------------------- Round

@dataclass
class _Kong:
    event: int
    player: int
    tile: int
    kind: str                       # "kong" | "kong_added" | "kong_concealed"
    income: tuple[tuple[int, int], ...]
    status: str = "active"          # "active" | "annulled" (robbed) | "transferred" (呼叫转移)


@dataclass
class _State:
    won: list[bool]
    win_event: list[int | None]
    kongs: list[_Kong]
    held: np.ndarray                # (n, 27) copies known to be with each player
    shared: np.ndarray              # (27,) discarded copies a winner took
    pungs: list[tuple[int, int]]    # (player, tile) pungs known from a robbed added kong
    transfers: list[Transfer]
    events: list[dict[str, Any]]
    over: bool = False

    def copy(self) -> _State:
        return _State(list(self.won), list(self.win_event),
                      [dataclasses.replace(k) for k in self.kongs], self.held.copy(),
                      self.shared.copy(), list(self.pungs), list(self.transfers),
                      list(self.events), self.over)


class Round:
    """The ledger of one hand of 血战到底 (RULES.md section 5, then section 6 at a draw).

    ``rules``: a :class:`mjfast.rules.Rules`, a preset name or None (``chengdu``). ``players``:
    2 to 4 seats (the hand ends when all but one have won). ``dealer``: the seat of the dealer
    (for 天胡/地胡).

    Events, in the order they happen (each returns the transfers it made):

    - :meth:`kong` - 直杠 / 补杠 / 暗杠 and their payments;
    - :meth:`win` - one or more winners on one tile (自摸, 点炮, 一炮多响, 抢杠胡, 杠上炮 with
      呼叫转移);
    - :meth:`draw` - the wall ran out: the draw settlement, with kong income from this ledger.

    A player who has won leaves: later events neither charge nor pay them, except kong refunds
    owed to them at the draw. An illegal event raises ``ValueError`` and leaves the ledger as it
    was. ``to_json()`` / ``from_json()`` save and replay the event log.

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
        self._rules = _rules(rules)
        if isinstance(players, (bool, np.bool_)):
            raise ValueError(f"players: expected a player count 2..4, got {players!r}")
        try:
            n = operator.index(players)
        except TypeError:
            raise ValueError(f"players: expected a player count 2..4, got {players!r}") from None
        if not 2 <= n <= 4:
            raise ValueError(f"players: expected a player count 2..4, got {n}")
        self._n = n
        self._dealer = _index(dealer, "dealer", n)
        self._s = _State(won=[False] * n, win_event=[None] * n, kongs=[],
                         held=np.zeros((n, NUM_KINDS), dtype=np.int64),
                         shared=np.zeros(NUM_KINDS, dtype=np.int64), pungs=[], transfers=[],
                         events=[])

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
        """True once all but one have won, or after :meth:`draw`."""
        return self._s.over

    @property
    def net(self) -> np.ndarray:
        """Received minus paid per player (int64, sums to zero)."""
        return self.settlement().net

    @property
    def matrix(self) -> np.ndarray:
        """Summed payments, payer row -> receiver column (int64, n x n)."""
        return self.settlement().matrix

    def settlement(self) -> Settlement:
        """All transfers so far as a :class:`Settlement`."""
        return Settlement.from_transfers(self._s.transfers, self._n)

    def kong_income(self, player: int) -> tuple[tuple[int, int], ...]:
        """The (payer, amount) kong income ``player`` still holds and would refund at a draw.

        Kongs robbed (抢杠胡) earned nothing; a kong whose income went to a 杠上炮 winner
        (呼叫转移) is not counted.
        """
        p = _index(player, "player", self._n)
        return tuple(e for k in self._s.kongs if k.player == p and k.status == "active"
                     for e in k.income)

    def __repr__(self) -> str:
        return (f"Round(rules={self._rules.name!r}, players={self._n}, dealer={self._dealer}, "
                f"events={len(self._s.events)}, net={self.net.tolist()})")

    # ------------------------------------------------------------------ events
    def _begin(self, what: str) -> _State:
        if self._s.over:
            raise ValueError(f"{what}: the hand is over (all but one have won, or it was drawn)")
        return self._s.copy()

    def _player_in(self, s: _State, value: Any, what: str) -> int:
        p = _index(value, what, self._n)
        if s.won[p]:
            raise ValueError(f"{what}: player {p} has already won and left the hand")
        return p

    def kong(self, player: int, tile: TileLike, kind: str | _tiles.MeldKind,
             from_player: int | None = None) -> tuple[Transfer, ...]:
        """Record a kong and its payments (刮风下雨).

        ``kind``: ``"kong"`` (直杠, exposed from ``from_player``'s discard; alias
        ``"exposed"``), ``"kong_added"`` (补杠 onto an own pung; ``"added"``) or
        ``"kong_concealed"`` (暗杠; ``"concealed"``). Payments, never capped:

        - 直杠: ``from_player`` pays ``rules.exposed_kong``; with ``rules.jia_jia_you`` every
          other player still in also pays 1.
        - 补杠: every other player still in pays ``rules.added_kong``.
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
        t = _tile(tile, "kong: tile")
        kind_value = kind.value if isinstance(kind, enum.Enum) else kind
        if not isinstance(kind_value, str) or kind_value not in _KONG_KINDS:
            raise ValueError(f"kong: kind must be 'kong', 'kong_added' or 'kong_concealed', "
                             f"got {kind!r}")
        k = _KONG_KINDS[kind_value]
        if k == "kong":
            if from_player is None:
                raise ValueError("kong: an exposed kong (直杠) needs from_player, the discarder")
            d = self._player_in(s, from_player, "kong: from_player")
            if d == p:
                raise ValueError("kong: from_player must be another player than the konger")
        elif from_player is not None:
            raise ValueError(f"kong: from_player is only for an exposed kong, not {k}")
        else:
            d = None
        others = int(s.held[:, t].sum() - s.held[p, t] + s.shared[t])
        if s.held[p, t] >= 4 or others > 0 or (p, t) in s.pungs:
            fmt = _tiles.format_tile(t)
            raise ValueError(f"kong: player {p} cannot hold four {fmt} "
                             f"({others + int(s.held[p, t])} copies already accounted for)")

        rules = self._rules
        others_in = [q for q in range(self._n) if q != p and not s.won[q]]
        out: list[Transfer] = []
        if k == "kong":
            out.append(Transfer(d, p, rules.exposed_kong, Reason.GANG_ZHI, event=event))
            if rules.jia_jia_you:
                out += [Transfer(q, p, 1, Reason.GANG_ZHI, event=event)
                        for q in others_in if q != d]
        elif k == "kong_added":
            out += [Transfer(q, p, rules.added_kong, Reason.GANG_BU, event=event)
                    for q in others_in]
        else:
            out += [Transfer(q, p, rules.concealed_kong, Reason.GANG_AN, event=event)
                    for q in others_in]
        out = [x for x in out if x.amount > 0]

        s.kongs.append(_Kong(event, p, t, k, tuple((x.payer, x.amount) for x in out)))
        s.held[p, t] = 4
        s.transfers += out
        rec: dict[str, Any] = {"type": "kong", "player": p, "tile": _tiles.format_tile(t),
                               "kind": k}
        if d is not None:
            rec["from_player"] = d
        s.events.append(rec)
        self._s = s
        return tuple(out)

    def win(self, players: int | Sequence[int], tile: TileLike, *,
            from_player: int | None = None,
            hands: HandLike | Sequence[HandLike],
            melds: MeldsLike | Sequence[MeldsLike] = None,
            void_suit: Any = None,
            robbing_kong: bool = False, after_kong: bool = False,
            after_kong_discard: bool = False, last_tile: bool = False,
            tian_hu: bool = False, di_hu: bool = False) -> tuple[Transfer, ...]:
        """Record a win (胡) on ``tile`` and its payments; the winners leave the hand.

        ``players``: one seat, or a list of seats winning on the same discard (一炮多响).
        ``from_player``: the discarder (or the robbed player, with ``robbing_kong``); None =
        self-drawn (自摸, one winner only).
        ``hands``: each winner's concealed tiles INCLUDING the win tile (14 - 3m tiles, what
        :func:`mjfast.scoring.score` takes); ``melds`` and ``void_suit`` likewise per winner. With
        one seat given as an int, pass one hand / one meld list / one suit; with a list of seats,
        lists aligned with it. A winner's melds must show every kong recorded for them.

        Each winner is scored by ``mjfast.scoring.score`` (the flags passed through) and paid
        ``amount = rules.multiplier`` (base x 2^min(fan, cap)):

        - 自摸: every other player still in pays ``amount`` (+1 with ``self_draw="add_base"``;
          ``"add_fan"`` adds the fan in scoring instead);
        - 点炮: only ``from_player`` pays, each winner separately;
        - 抢杠胡 (``robbing_kong``): the robbed player pays as the discarder; if the added kong
          was recorded just before, it is annulled (its payments are removed, it earns nothing);
        - 杠上炮 (``after_kong_discard``, needs a kong by ``from_player`` just before): with
          ``rules.hu_jiao_zhuan_yi`` the discarder also pays each winner the whole income of that
          kong (呼叫转移; with several winners each gets a full copy).

        Flags: ``after_kong`` (杠上花, needs the winner's own kong just before), ``last_tile``
        (海底), ``tian_hu`` (dealer, first event), ``di_hu`` (not the dealer).

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
        flags = {"robbing_kong": robbing_kong, "after_kong": after_kong,
                 "after_kong_discard": after_kong_discard, "last_tile": last_tile,
                 "tian_hu": tian_hu, "di_hu": di_hu}
        for name, v in flags.items():
            if not isinstance(v, (bool, np.bool_)):
                raise ValueError(f"win: {name} must be a bool, got {v!r}")
            flags[name] = bool(v)
        single = not isinstance(players, (Sequence, np.ndarray)) or isinstance(players, str)
        seats = [players] if single else list(players)
        if not seats:
            raise ValueError("win: players is empty")
        winners = [self._player_in(s, w, f"win: players[{i}]") for i, w in enumerate(seats)]
        if len(set(winners)) != len(winners):
            raise ValueError(f"win: a player is listed twice in {winners}")
        t = _tile(tile, "win: tile")
        if from_player is None:
            d = None
            if len(winners) != 1:
                raise ValueError("win: a self-drawn win (from_player=None) has one winner")
        else:
            d = self._player_in(s, from_player, "win: from_player")
            if d in winners:
                raise ValueError(f"win: player {d} cannot win on their own discard")

        def per_winner(value: Any, name: str, is_single: Any) -> list[Any]:
            if single:
                return [value]
            if value is None:
                return [None] * len(winners)
            if (is_single(value) or not isinstance(value, (Sequence, np.ndarray))
                    or len(value) != len(winners)):
                raise ValueError(f"win: {name} must be a list aligned with players "
                                 f"({len(winners)} winners)")
            return list(value)

        hand_list = per_winner(hands, "hands",
                               lambda v: isinstance(v, str) or np.ndim(v) == 1
                               and len(v) == NUM_KINDS and all(np.ndim(x) == 0 for x in v))
        if any(h is None for h in hand_list):
            raise ValueError("win: hands are required (concealed tiles including the win tile)")
        meld_list = per_winner(melds, "melds", lambda v: isinstance(v, (str, _tiles.Meld)))
        void_list = per_winner(void_suit, "void_suit", lambda v: isinstance(v, str))

        # sequence checks
        last = s.events[-1] if s.events else None
        last_kong = s.kongs[-1] if s.kongs and last is not None and last["type"] == "kong" \
            and s.kongs[-1].event == event - 1 else None
        if flags["after_kong"] and (d is not None or last_kong is None
                                    or last_kong.player != winners[0]):
            raise ValueError("win: after_kong (杠上花) needs a self-drawn win right after the "
                             "winner's own kong")
        if flags["after_kong_discard"] and (d is None or last_kong is None
                                            or last_kong.player != d):
            raise ValueError("win: after_kong_discard (杠上炮) needs a kong by from_player "
                             "right before")
        robbed_kong = None
        if flags["robbing_kong"]:
            if d is None:
                raise ValueError("win: robbing_kong (抢杠胡) needs from_player, the robbed player")
            if last_kong is not None and last_kong.player == d and last_kong.tile == t:
                if last_kong.kind != "kong_added":
                    raise ValueError("win: only an added kong (补杠) can be robbed")
                robbed_kong = last_kong
        if flags["tian_hu"] and (s.events or d is not None or winners[0] != self._dealer):
            raise ValueError("win: tian_hu (天胡) is the dealer's self-drawn win before any "
                             "other event")
        if flags["di_hu"] and any(w == self._dealer for w in winners):
            raise ValueError("win: di_hu (地胡) is a non-dealer's win")

        # copy accounting (before the win)
        held = s.held.copy()
        shared = s.shared.copy()
        if robbed_kong is not None:
            held[d, t] = 3
        elif flags["robbing_kong"]:
            if held[d, t] > 3 or (d, t) in s.pungs:
                raise ValueError(f"win: player {d} cannot have a pung of "
                                 f"{_tiles.format_tile(t)} to add to")
            held[d, t] = 3

        out: list[Transfer] = []
        rules = self._rules
        results = []
        for i, w in enumerate(winners):
            what = f"win: player {w}" if single else f"win: players[{i}] (player {w})"
            counts = _counts(hand_list[i], f"{what}: hand")
            ms = _melds(meld_list[i], f"{what}: melds")
            vs = _void(void_list[i], f"{what}: void_suit")
            size = sum(counts)
            if size == 13 - 3 * len(ms):
                raise ValueError(f"{what}: the hand has {size} tiles; pass the concealed tiles "
                                 f"including the win tile ({14 - 3 * len(ms)} tiles)")
            if counts[t] == 0:
                raise ValueError(f"{what}: the hand does not contain the win tile "
                                 f"{_tiles.format_tile(t)}")
            self._check_winner_kongs(s, w, ms, what)
            try:
                res = score(np.asarray(counts, dtype=np.uint8), win_tile=t, melds=ms,
                            void_suit=vs, self_drawn=d is None, rules=rules, **flags)
            except ValueError as exc:
                raise ValueError(f"{what}: {exc}") from exc
            if not res.is_win:
                raise ValueError(f"{what}: {_format(counts)}"
                                 f"{''.join(' ' + str(m) for m in ms)} is not a winning hand "
                                 f"on {_tiles.format_tile(t)}")
            whole = np.add(counts, _meld_counts(ms)).astype(np.int64)
            if d is not None:
                whole[t] -= 1                      # the discarded copy is counted once
            held[w] = np.maximum(held[w], whole)
            results.append((w, res, counts, ms, vs))
        if d is not None:
            shared[t] += 1
        total = held.sum(axis=0) + shared
        if total.max() > 4:
            k = int(np.argmax(total))
            raise ValueError(f"win: tile {_tiles.format_tile(k)} would appear {int(total[k])} "
                             "times across the table (max 4)")

        # payments
        if robbed_kong is not None:
            robbed_kong.status = "annulled"
            s.transfers = [x for x in s.transfers if x.event != robbed_kong.event]
        if flags["robbing_kong"]:
            s.pungs.append((d, t))
        zhuan_yi = None
        if flags["after_kong_discard"] and rules.hu_jiao_zhuan_yi:
            zhuan_yi = last_kong
        for w, res, _, _, _ in results:
            amount = int(res.multiplier)
            if d is None:
                if rules.self_draw == "add_base":
                    amount += 1
                payers = [q for q in range(self._n) if q != w and not s.won[q]]
                reason = Reason.ZI_MO
            else:
                payers = [d]
                reason = Reason.DIAN_PAO
            out += [Transfer(q, w, amount, reason, fan=res.raw_fan, event=event)
                    for q in payers if amount > 0]
            if zhuan_yi is not None:
                income = sum(a for _, a in zhuan_yi.income)
                if income > 0:
                    out.append(Transfer(d, w, income, Reason.HU_JIAO_ZHUAN_YI, event=event))
        if zhuan_yi is not None:
            zhuan_yi.status = "transferred"
        for w in winners:
            s.won[w] = True
            s.win_event[w] = event
        s.held = held
        s.shared = shared
        s.transfers += out
        if sum(s.won) >= self._n - 1:
            s.over = True

        rec: dict[str, Any] = {"type": "win", "players": winners if not single else winners[0],
                               "tile": _tiles.format_tile(t)}
        if d is not None:
            rec["from_player"] = d
        hand_strs = [_format(c) for _, _, c, _, _ in results]
        meld_strs = [[str(m) for m in ms] for _, _, _, ms, _ in results]
        void_strs = [None if v is None else "mps"[v] for _, _, _, _, v in results]
        rec["hands"] = hand_strs[0] if single else hand_strs
        rec["melds"] = meld_strs[0] if single else meld_strs
        rec["void_suit"] = void_strs[0] if single else void_strs
        rec.update({k: True for k, v in flags.items() if v})
        s.events.append(rec)
        self._s = s
        return tuple(out)

    def _check_winner_kongs(self, s: _State, p: int, melds: Sequence[_tiles.Meld],
                            what: str) -> None:
        """A hand's kong melds must be exactly the kongs recorded for the player."""
        recorded = sorted((k.tile, k.kind) for k in s.kongs
                          if k.player == p and k.status != "annulled")
        shown = sorted((m.tile, _kind_value(m.kind)) for m in melds if m.is_kong)
        if recorded != shown:
            fmt = ", ".join(f"{kind}:{_tiles.format_tile(tl)}" for tl, kind in recorded) or "none"
            got = ", ".join(f"{kind}:{_tiles.format_tile(tl)}" for tl, kind in shown) or "none"
            raise ValueError(f"{what}: kong melds ({got}) do not match the kongs recorded for "
                             f"player {p} ({fmt})")
        for pp, tl in s.pungs:
            if pp == p and not any(m.tile == tl and _kind_value(m.kind) == "pung"
                                   for m in melds):
                raise ValueError(f"{what}: player {p} must show the pung of "
                                 f"{_tiles.format_tile(tl)} whose added kong was robbed")

    def draw(self, players: Sequence[PlayerState | Mapping[str, Any] | None]) -> Settlement:
        """The wall ran out (流局): run the draw settlement and end the hand.

        ``players``: one entry per seat; a :class:`PlayerState` (or a dict of its fields) for
        each player still in, ``None`` (or a state with ``won=True``) for a player who has won.
        Each state's ``kong_income`` may be left empty: this ledger fills it with
        :meth:`kong_income`; a non-empty value must agree with it (per payer). Melds must show
        the kongs recorded for the player. Returns the draw :class:`Settlement` (also appended
        to :attr:`transfers`); see :func:`settle_draw` for the steps.
        """
        s = self._begin("draw")
        event = len(s.events)
        if isinstance(players, (str, bytes, Mapping)) or not isinstance(players, Sequence):
            raise ValueError("draw: expected a sequence of PlayerState, one per seat")
        if len(players) != self._n:
            raise ValueError(f"draw: expected {self._n} players, got {len(players)}")
        given = [_as_state(p, f"draw: players[{i}]") for i, p in enumerate(players)]
        states: list[PlayerState | None] = []
        for i, st in enumerate(given):
            what = f"draw: players[{i}]"
            if s.won[i]:
                if st is not None and not st.won:
                    raise ValueError(f"{what}: player {i} has won; pass None or won=True")
                states.append(None)
                continue
            if st is None or st.won:
                raise ValueError(f"{what}: player {i} is still in; pass their PlayerState "
                                 "with won=False")
            self._check_winner_kongs(s, i, st.melds, what)
            ledger = tuple(e for k in s.kongs if k.player == i and k.status == "active"
                           for e in k.income)
            if st.kong_income and _by_payer(st.kong_income) != _by_payer(ledger):
                raise ValueError(f"{what}: kong_income {list(st.kong_income)} disagrees with "
                                 f"the ledger's {list(ledger)}")
            states.append(dataclasses.replace(st, kong_income=ledger))
        known = s.shared + sum((s.held[i] for i in range(self._n) if s.won[i]),
                               np.zeros(NUM_KINDS, dtype=np.int64))
        _check_copies(states, known, "draw")
        result = _settle_draw(states, self._rules, event)
        s.transfers += result.transfers
        s.over = True
        s.events.append({"type": "draw",
                         "players": [None if st is None or s.won[i] else st.to_json()
                                     for i, st in enumerate(given)]})
        self._s = s
        return result

    # ------------------------------------------------------------------ JSON
    def to_json(self, **dumps_kwargs: Any) -> str:
        """The rules, seats, dealer and event log as a JSON string (tiles in mpsz)."""
        doc = {"format": "mjfast.round", "version": 1, "rules": _rules_to_json(self._rules),
               "players": self._n, "dealer": self._dealer, "events": list(self.events)}
        return json.dumps(doc, ensure_ascii=False, **dumps_kwargs)

    @classmethod
    def from_json(cls, text: str | bytes | Mapping[str, Any]) -> Round:
        """Rebuild a Round by replaying a :meth:`to_json` log (same transfers, same checks)."""
        doc = json.loads(text) if isinstance(text, (str, bytes)) else text
        if not isinstance(doc, Mapping) or doc.get("format") != "mjfast.round":
            raise ValueError("from_json: not an mjfast round log")
        if doc.get("version") != 1:
            raise ValueError(f"from_json: unsupported version {doc.get('version')!r}")
        r = cls(_rules_from_json(doc["rules"]), doc["players"], doc["dealer"])
        for j, e in enumerate(doc["events"]):
            try:
                e = dict(e)
                kind = e.pop("type")
                if kind == "kong":
                    r.kong(**e)
                elif kind == "win":
                    r.win(e.pop("players"), e.pop("tile"), **e)
                elif kind == "draw":
                    r.draw(e["players"])
                else:
                    raise ValueError(f"unknown event type {kind!r}")
            except (ValueError, TypeError, KeyError) as exc:
                raise ValueError(f"from_json: events[{j}]: {exc}") from exc
        return r


def _kind_value(kind: Any) -> str:
    return kind.value if isinstance(kind, enum.Enum) else str(kind)


def _by_payer(income: Iterable[tuple[int, int]]) -> dict[int, int]:
    out: dict[int, int] = {}
    for payer, amount in income:
        out[payer] = out.get(payer, 0) + amount
    return {k: v for k, v in out.items() if v}


def _rules_to_json(rules: Rules) -> dict[str, Any]:
    preset = rules.name if rules.name in PRESETS else "chengdu"
    base = Rules.preset(preset)
    overrides: dict[str, Any] = {}
    for f in dataclasses.fields(rules):
        if not f.init:
            continue
        value, default = getattr(rules, f.name), getattr(base, f.name)
        if f.name == "base_fan":
            value = {fan.name: int(v) for fan, v in value.items()}
            default = {fan.name: int(v) for fan, v in default.items()}
        if value != default:
            overrides[f.name] = value
    return {"preset": preset, "overrides": overrides}


def _rules_from_json(doc: Any) -> Rules:
    if isinstance(doc, str):
        return Rules.preset(doc)
    overrides = dict(doc.get("overrides", {}))
    if "base_fan" in overrides:
        overrides["base_fan"] = {Fan[k]: v for k, v in overrides["base_fan"].items()}
    return Rules.preset(doc["preset"], **overrides)
