"""The values of a settlement: why money moved (:class:`Reason`), one payment
(:class:`Transfer`), a set of payments (:class:`Settlement`) and one player's final state
(:class:`PlayerState`).

Arguments are checked by :mod:`mjfast._args` (the same accepted sets and wording as every other
public function); the helpers at the bottom add the context a message needs (``states[2]: ...``).
"""

from __future__ import annotations

import enum
from collections.abc import Generator, Iterable, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union, cast

import numpy as np

from mjfast._args import as_flag, as_int, as_player, as_void, hand_bytes, shown
from mjfast.errors import InvalidArgumentError, InvalidHandError, TileParseError
from mjfast.rules import MAX_AMOUNT
from mjfast.tiles import NUM_KINDS, Meld, format_hand, format_tile, parse_melds

__all__ = ["INT64_MAX", "MAX_PLAYERS", "PlayerState", "Reason", "Settlement", "Transfer",
           "check_conserving", "sets_for"]

MAX_PLAYERS = 6
"""Seats at a table: a Round, a draw or a Settlement has 2 to 6 players (seats 0..5)."""


def sets_for(players: int) -> int:
    """The sets of a winning hand at a table of *players* (RULES.md section 7, seed 002): 4 for
    2 to 4 players (hands of 13 / 14 tiles), 3 for 5 players (10 / 11), 2 for 6 players (7 / 8).

    >>> [sets_for(n) for n in range(2, 7)]
    [4, 4, 4, 3, 2]
    """
    return 4 if players <= 4 else 8 - players


INT64_MAX = 2**63 - 1
"""The largest amount a Transfer, and a total of a Settlement, may hold (its arrays are int64)."""

HandLike = Union[str, Sequence[int], np.ndarray]
MeldsLike = Union[None, str, Meld, Iterable[Union[str, Meld]]]
TileLike = Union[int, str]


class Reason(str, enum.Enum):
    """Why money moved. A ``str`` enum: ``Reason.HUA_ZHU == "hua_zhu"``."""

    ZI_MO = "zi_mo"                    #: self-drawn win (自摸): every other player still in pays
    DIAN_PAO = "dian_pao"              #: discard win (点炮), also the robbed player of 抢杠胡
    GANG_ZHI = "gang_zhi"              #: exposed kong from a discard (直杠), and 家家有 extras
    GANG_BU = "gang_bu"                #: added kong (补杠/弯杠)
    GANG_AN = "gang_an"                #: concealed kong (暗杠/下雨)
    HU_JIAO_ZHUAN_YI = "hu_jiao_zhuan_yi"  #: 呼叫转移: a kong's income handed to the 杠上炮 winner
    ZHUAN_YU = "zhuan_yu"              #: 转雨: a robbed added kong's income handed to the robber
    HUA_ZHU = "hua_zhu"                #: 查花猪 at the draw
    CHA_DA_JIAO = "cha_da_jiao"        #: 查大叫 at the draw
    KONG_REFUND = "kong_refund"        #: 退税 at the draw
    PAO_REFUND = "pao_refund"          #: the kong before a 杠上炮 paid back (``"refund"``)

    def __str__(self) -> str:
        return self.value

    @property
    def zh(self) -> str:
        """The Chinese name."""
        return _REASON_ZH[self]


# Only strs are looked up: Reason(x) compares x with every value, which numpy arrays answer
# elementwise (an array of "zi_mo" would be taken for the reason).
_REASON_VALUES: tuple[str, ...] = tuple(r.value for r in Reason)
_REASON_ZH = {
    Reason.ZI_MO: "自摸", Reason.DIAN_PAO: "点炮", Reason.GANG_ZHI: "直杠",
    Reason.GANG_BU: "补杠", Reason.GANG_AN: "暗杠", Reason.HU_JIAO_ZHUAN_YI: "呼叫转移",
    Reason.ZHUAN_YU: "转雨",
    Reason.HUA_ZHU: "查花猪", Reason.CHA_DA_JIAO: "查大叫", Reason.KONG_REFUND: "退税",
    Reason.PAO_REFUND: "杠上炮退税",
}


@dataclass(frozen=True)
class Transfer:
    """One payment: ``payer`` gives ``amount`` base stakes to ``receiver``.

    ``payer`` and ``receiver`` are two different seats 0..5; ``amount`` is an int from 0 to
    :data:`INT64_MAX` (never a float: money is counted in whole base stakes). ``fan`` is the
    displayed fan before the cap where a hand was valued (wins, 查大叫; the points under the
    ``points`` model), else None. ``event``
    is the index of the :class:`Round` event that caused it (None from :func:`settle_draw`).

    >>> str(Transfer(2, 0, 8, "cha_da_jiao", fan=4))
    '2 -> 0: 8, cha_da_jiao, 4 fan'
    >>> Transfer(-1, 0, 8, "hua_zhu")
    Traceback (most recent call last):
        ...
    mjfast.errors.InvalidArgumentError: payer: expected an int from 0 to 5, got -1
    """

    payer: int
    receiver: int
    amount: int
    reason: Reason
    fan: int | None = None
    event: int | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "payer", as_player(self.payer, "payer", MAX_PLAYERS))
        set_(self, "receiver", as_player(self.receiver, "receiver", MAX_PLAYERS))
        if self.payer == self.receiver:
            raise InvalidArgumentError(f"receiver: player {self.payer} cannot pay themselves")
        set_(self, "amount", as_int(self.amount, "amount", minimum=0, maximum=INT64_MAX))
        reason = self.reason
        if not isinstance(reason, str) or reason not in _REASON_VALUES:
            raise InvalidArgumentError(
                f"reason: expected one of {', '.join(_REASON_VALUES)}, got {shown(reason)}")
        set_(self, "reason", Reason(reason))
        if self.fan is not None:
            set_(self, "fan", as_int(self.fan, "fan", minimum=0))
        if self.event is not None:
            set_(self, "event", as_int(self.event, "event", minimum=0))

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

    ``matrix[i, j]`` is what player i paid player j in total (int64, n x n for 2 to 6 players;
    4 x 4 at a standard table); ``net[i]`` = received - paid, which sums to zero. ``hua_zhu``
    and ``ready`` list the players found 花猪 / ready at a draw (empty otherwise). Arrays are
    read-only.

    Totals are summed exactly: transfers whose totals would not fit int64 are refused
    (:class:`~mjfast.errors.InvalidArgumentError`), never wrapped, and the int64 arrays are
    checked against the exact sums (:func:`check_conserving`) before a Settlement is returned.

    >>> s = Settlement.from_transfers([Transfer(1, 0, 3, "dian_pao", fan=1)])
    >>> s.net.tolist(), int(s.matrix[1, 0])
    ([3, -3, 0, 0], 3)
    """

    transfers: tuple[Transfer, ...] = ()
    matrix: np.ndarray = field(default=None, compare=False, repr=False)  # type: ignore[arg-type]
    net: np.ndarray = field(default=None, compare=False)  # type: ignore[arg-type]
    hua_zhu: tuple[int, ...] = ()
    ready: tuple[int, ...] = ()

    @classmethod
    def from_transfers(cls, transfers: Iterable[Transfer], players: int = 4, *,
                       hua_zhu: Iterable[int] = (), ready: Iterable[int] = ()) -> Settlement:
        """Sum ``transfers`` among ``players`` players (2..6) into a Settlement."""
        n = as_int(players, "players", minimum=2, maximum=MAX_PLAYERS)
        transfers = _items(transfers, "transfers", "Transfer objects")
        hua_zhu = _seats(hua_zhu, "hua_zhu", n)
        ready = _seats(ready, "ready", n)
        exact = [[0] * n for _ in range(n)]  # Python ints: never wrap
        for i, t in enumerate(transfers):
            if not isinstance(t, Transfer):
                raise InvalidArgumentError(
                    f"transfers[{i}]: expected a Transfer, got {type(t).__name__}")
            if max(t.payer, t.receiver) >= n:
                raise InvalidArgumentError(
                    f"transfers[{i}]: {t} names a seat outside 0..{n - 1}")
            exact[t.payer][t.receiver] += t.amount
        for p in range(n):  # with every total paid and received in range, no int64 sum wraps
            paid, received = sum(exact[p]), sum(row[p] for row in exact)
            if max(paid, received) > INT64_MAX:
                raise InvalidArgumentError(
                    f"transfers: player {p} pays {paid} and receives {received} in total, past "
                    f"the int64 range of a Settlement (max {INT64_MAX})")
        matrix = np.array(exact, dtype=np.int64)
        net = matrix.sum(axis=0) - matrix.sum(axis=1)
        check_conserving(matrix, net, exact)
        return cls(transfers, _frozen(matrix), _frozen(net), hua_zhu, ready)

    def __post_init__(self) -> None:
        if self.matrix is None or self.net is None:
            s = Settlement.from_transfers(self.transfers, hua_zhu=self.hua_zhu, ready=self.ready)
            object.__setattr__(self, "matrix", s.matrix)
            object.__setattr__(self, "net", s.net)


def _items(value: object, name: str, what: str) -> tuple[Any, ...]:
    if isinstance(value, (str, bytes, Mapping)):
        raise InvalidArgumentError(f"{name}: expected an iterable of {what}, got {shown(value)}")
    try:
        return tuple(cast("Iterable[Any]", value))
    except TypeError:
        raise InvalidArgumentError(
            f"{name}: expected an iterable of {what}, got {shown(value)}") from None


def _seats(value: object, name: str, players: int) -> tuple[int, ...]:
    return tuple(as_player(p, f"{name}[{i}]", players)
                 for i, p in enumerate(_items(value, name, "seats")))


def check_conserving(matrix: np.ndarray, net: np.ndarray, exact: list[list[int]]) -> None:
    """Raise AssertionError (an internal error) unless the int64 ``matrix`` holds the ``exact``
    per-pair totals and ``net`` sums to zero: no ledger that lost money is ever returned."""
    if sum(net.tolist()) != 0:
        raise AssertionError(f"settlement: net payments {net.tolist()} do not sum to zero")
    n = len(exact)
    want = [sum(row[j] for row in exact) - sum(exact[j]) for j in range(n)]
    if matrix.tolist() != exact or net.tolist() != want:
        raise AssertionError("settlement: the int64 ledger differs from the exact sums of its "
                             "transfers")


@dataclass(frozen=True)
class PlayerState:
    """One player's state at the end of a hand (the input of the draw settlement).

    ``concealed``: the concealed tiles (a string such as ``"123m45p"`` or 27 counts; 13 - 3m
    tiles for a player still in, 10 - 3m / 7 - 3m at tables of 5 / 6). ``melds``: strings
    (``"pung:5p"``, ``"kong_concealed:7s"``) or :class:`mjfast.tiles.Meld` objects.
    ``void_suit``: the declared void suit (定缺): None or -1 (none), 0-2, ``"m"``/``"p"``/``"s"``
    or ``"万"``/``"筒"``/``"饼"``/``"条"``/``"索"``.
    ``won``: the player has won and left the hand. ``kong_income``: (payer index, amount) pairs
    received from kongs this hand, refunded at the draw if the player is not ready (each amount
    at most :data:`mjfast.rules.MAX_AMOUNT`, like any kong payment). ``visible``: 27 counts of
    copies seen outside the player's own hand and melds (only used for 死叫). ``discarded_suits``:
    the suits the player discarded this hand (only used for the 花猪 exception,
    ``Rules.hua_zhu_one_suit``; :meth:`Round.draw <mjfast.settlement.Round.draw>` fills it from
    the discards it recorded).

    Inputs are normalised: ``concealed`` and ``visible`` become tuples of 27 ints, ``melds`` a
    tuple of Meld, ``void_suit`` an int 0..2 or None, ``kong_income`` a tuple of int pairs,
    ``discarded_suits`` a sorted tuple of distinct suits 0..2 (given as ints or letters, like
    ``void_suit``: ``"ms"`` or ``[0, 2]``).

    >>> p = PlayerState("123m456m789m1p2s6s9s", void_suit="筒")
    >>> p.is_hua_zhu(), p.suits(), p.void_suit
    (True, (0, 1, 2), 1)
    """

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    void_suit: int | None = None
    won: bool = False
    kong_income: tuple[tuple[int, int], ...] = ()
    visible: tuple[int, ...] | None = None
    discarded_suits: tuple[int, ...] = ()

    if TYPE_CHECKING:  # what the constructor accepts (normalised by __post_init__)
        def __init__(self, concealed: str | Sequence[int] | np.ndarray,
                     melds: str | Meld | Iterable[str | Meld] | None = (),
                     void_suit: int | str | None = None, won: bool = False,
                     kong_income: Iterable[tuple[int, int]] = (),
                     visible: str | Sequence[int] | np.ndarray | None = None,
                     discarded_suits: str | Iterable[int | str] = ()) -> None: ...

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "concealed", hand_counts(self.concealed, "concealed"))
        set_(self, "melds", melds_of(self.melds))
        void = as_void(self.void_suit)
        set_(self, "void_suit", None if void < 0 else void)
        set_(self, "won", as_flag(self.won, "won"))
        set_(self, "kong_income", _income(self.kong_income))
        if self.visible is not None:
            set_(self, "visible", hand_counts(self.visible, "visible"))
        set_(self, "discarded_suits", _suits(self.discarded_suits))
        total = self.counts
        k = max(range(NUM_KINDS), key=total.__getitem__)
        if total[k] > 4:
            raise InvalidHandError(f"tile {format_tile(k)} appears {total[k]} times "
                                   "counting melds (max 4)")

    @property
    def counts(self) -> tuple[int, ...]:
        """27 counts of the whole hand: concealed tiles plus melds."""
        return tuple(int(x) for x in np.add(self.concealed, meld_counts(self.melds)))

    def suits(self) -> tuple[int, ...]:
        """The suits (0 = m, 1 = p, 2 = s) the hand holds, concealed tiles and melds."""
        c = self.counts
        return tuple(s for s in range(3) if any(c[9 * s:9 * s + 9]))

    def is_hua_zhu(self, one_suit_exception: bool = False) -> bool:
        """花猪: the hand holds three suits, or any tile of the declared void suit.

        With *one_suit_exception* (``Rules.hua_zhu_one_suit``), a player who discarded tiles of
        one suit only is not a 花猪.

        >>> p = PlayerState("123m456m789m1p2s6s9s", discarded_suits="s")
        >>> p.is_hua_zhu(), p.is_hua_zhu(one_suit_exception=True)
        (True, False)
        """
        if one_suit_exception and len(self.discarded_suits) == 1:
            return False
        suits = self.suits()
        return len(suits) == 3 or (self.void_suit is not None and self.void_suit in suits)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (tiles as mpsz strings); ``PlayerState(**d)`` rebuilds it."""
        return {
            "concealed": hand_text(self.concealed),
            "melds": [str(m) for m in self.melds],
            "void_suit": void_text(self.void_suit),
            "won": self.won,
            "kong_income": [list(e) for e in self.kong_income],
            "visible": None if self.visible is None else list(self.visible),
            "discarded_suits": "".join("mps"[x] for x in self.discarded_suits),
        }


def _suits(value: Any) -> tuple[int, ...]:
    """Distinct suits 0..2, sorted, from a str of suit letters or an iterable of suits."""
    if isinstance(value, str):
        items: list[Any] = list(value)
    else:
        items = list(_items(value, "discarded_suits", "suits"))
    suits = set()
    for j, item in enumerate(items):
        suit = as_void(item, f"discarded_suits[{j}]")
        if suit < 0:
            raise InvalidArgumentError(f"discarded_suits[{j}]: expected a suit, got {shown(item)}")
        suits.add(suit)
    return tuple(sorted(suits))


def _income(value: Any) -> tuple[tuple[int, int], ...]:
    try:
        entries = list(value)
    except TypeError:
        raise InvalidArgumentError(
            f"kong_income: expected (payer, amount) pairs, got {type(value).__name__}") from None
    income = []
    for j, entry in enumerate(entries):
        try:
            payer, amount = entry
        except (TypeError, ValueError):
            raise InvalidArgumentError(f"kong_income[{j}]: expected (payer, amount), "
                                       f"got {shown(entry)}") from None
        what = f"kong_income[{j}] amount"  # checked as >= 0, then against the largest kong
        income.append((as_int(payer, f"kong_income[{j}] payer", minimum=0),
                       as_int(as_int(amount, what, minimum=0), what, maximum=MAX_AMOUNT)))
    return tuple(income)


# ----------------------------------------------------------------------------- helpers
# Shared by draw.py and round.py: the argument layer does the checking, these name the context.

def hand_counts(value: object, name: str) -> tuple[int, ...]:
    """27 counts 0..4 of one hand, errors naming ``name``."""
    return tuple(hand_bytes(value, name))


def melds_of(value: object, context: str | None = None) -> tuple[Meld, ...]:
    """Melds via :func:`mjfast.tiles.parse_melds`; messages start with ``[context: ]melds``."""
    try:
        return parse_melds(value)  # type: ignore[arg-type]
    except (InvalidArgumentError, TileParseError) as exc:
        text = str(exc)
        if not text.startswith("melds"):  # a str of melds: the message names only the meld
            text = f"melds: {text}"
        raise type(exc)(text if context is None else f"{context}: {text}") from None


@contextmanager
def naming(context: str) -> Generator[None, None, None]:
    """Put ``context`` in front of a bad-input message from a call, keeping the error type."""
    try:
        yield
    except (InvalidArgumentError, InvalidHandError, TileParseError) as exc:
        raise type(exc)(f"{context}: {exc}") from None
    except ValueError as exc:
        raise ValueError(f"{context}: {exc}") from None


def as_state(value: object, context: str) -> PlayerState | None:
    """A seat's state: a PlayerState, a dict of its fields, or None."""
    if value is None or isinstance(value, PlayerState):
        return value
    if isinstance(value, Mapping):
        with naming(context):
            try:
                return PlayerState(**value)
            except TypeError as exc:
                if isinstance(exc, InvalidArgumentError):
                    raise
                raise InvalidArgumentError(str(exc)) from None  # a missing or unknown field
    raise InvalidArgumentError(
        f"{context}: expected a PlayerState, a dict or None, got {type(value).__name__}")


def meld_counts(melds: Iterable[Meld]) -> tuple[int, ...]:
    """27 counts of the tiles in ``melds``."""
    c = [0] * NUM_KINDS
    for m in melds:
        c[m.tile] += m.size
    return tuple(c)


def hand_text(counts: Sequence[int]) -> str:
    """mpsz text of 27 counts."""
    return format_hand(np.asarray(counts, dtype=np.uint8))


def void_text(void: int | None) -> str | None:
    """A void suit as it is logged: ``"m"``, ``"p"``, ``"s"`` or None."""
    return None if void is None else "mps"[void]
