"""Fan (番) of a single hand: decompositions, the score of a win, and the 查大叫 value.

Everything here follows RULES.md sections 2, 4 and 8 under a :class:`~mjfast.rules.Rules`
object (default: the ``chengdu`` preset). Hands are strings in tile notation or 27 counts;
melds are strings like ``"pung:5p"`` or :class:`~mjfast.tiles.Meld` objects.

>>> r = score("22244455577799m", win_tile="9m")
>>> r.fan, [(f.zh, n) for f, n in r.items], r.multiplier
(3, [('清对', 3)], 8)
>>> str(r.decomposition)
'222m 444m 555m 777m 99m'
>>> score("11224444557799m", win_tile="1m").items     # 清龙七对 uses one root up
((<Fan.QING_LONG_QI_DUI: 'qing_long_qi_dui'>, 5),)
>>> score("123m456p789s11155m", win_tile="5m").is_win  # three suits never win
False
>>> m = max_fan("1112345678999m")                       # 九莲: waits 1m-9m
>>> m.fan, m.best_wait, len(m.waits), m.payment
(3, 0, 9, 8)

Conventions where RULES.md leaves room (each is what the reference
:mod:`mjfast._ref.scoring` implements too):

- The fan is the maximum over every (reading, applicable base pattern) of base + extras; on
  equal totals the higher base fan names it, then the later :class:`~mjfast.rules.Fan`
  member, then the first reading in :func:`decompose` order. So 龙七对 / 清龙七对 (which use
  a root up) are only chosen when they are worth at least the plain pattern plus that root.
- ``items`` hold one ``(Fan.GEN, n * root_fan)`` entry for all roots; the base pattern's entry
  carries the display offset (``qq``: 平胡 is ``(PING_HU, 1)``); zero-valued extras are left
  out, the base pattern never is.
- ``after_kong``, ``tian_hu`` and ``di_hu`` imply a self-drawn win (so 自摸加番 adds to them).
  ``after_kong`` needs an own kong among the melds; ``tian_hu`` / ``di_hu`` need no melds and
  exclude the kong flags and ``last_tile``; ``robbing_kong`` needs the win tile held once
  (the robbed player has the other three). Violations raise ``ValueError``.
- 掐心五: the win tile is a 5 and the reading holds a 456 of its suit. 姊妹对: the reading holds
  two identical sequences (counted once). 一条龙: 123 + 456 + 789 of one suit. 金钩钓: four
  melds (the win is then always the single wait on the pair).
- :func:`max_fan` scores each wait as a discard win with no situational flag; ``WaitFan.dead``
  is reported whether or not ``rules.si_jiao`` is on.

Speed: the per-suit readings of each 9-count suit pattern are enumerated once and cached
(:func:`suit_features`), so a score is a few dictionary look-ups plus a loop over the (usually
one) combination of suit readings.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Union

import numpy as np

from mjfast.errors import InvalidHandError
from mjfast.rules import BASE_PATTERNS, CHENGDU, Fan, Rules
from mjfast._args import as_kind as _check_kind, counts_list as _counts_list
from mjfast.tiles import (Meld, MeldKind, format_tile, parse_hand,
                          parse_melds, parse_tile)

__all__ = [
    "R_ALL_TRIPLETS",
    "R_DRAGON",
    "R_SEQ_456",
    "R_TWIN_SEQ",
    "R_YAO_JIU",
    "SEQ",
    "TRIPLET",
    "Decomposition",
    "FanResult",
    "MaxFan",
    "SuitFeatures",
    "WaitFan",
    "decompose",
    "fan",
    "max_fan",
    "score",
    "suit_features",
]

HandLike = Union[str, Sequence[int], np.ndarray]
MeldsLike = Union[None, str, Meld, Iterable[Union[str, Meld]]]

SEQ = "seq"
"""Set tag of a sequence (顺子), e.g. ``(SEQ, 0)`` is 123m."""
TRIPLET = "triplet"
"""Set tag of a concealed triplet (刻子), e.g. ``(TRIPLET, 13)`` is 555p."""

_SUIT_LETTERS = "mps"


# ---------------------------------------------------------------------------------------------
# Result types (shared with mjfast._ref.scoring)
# ---------------------------------------------------------------------------------------------

def _set_text(tag: str, tile: int) -> str:
    r = tile % 9 + 1
    digits = f"{r}{r + 1}{r + 2}" if tag == SEQ else f"{r}{r}{r}"
    return digits + _SUIT_LETTERS[tile // 9]


@dataclass(frozen=True)
class Decomposition:
    """One reading of a complete hand: concealed sets + pair, or the seven-pairs reading.

    Attributes:
        sets: the concealed sets as ``(tag, first_tile)``, tag :data:`SEQ` or
            :data:`TRIPLET`, sorted by tile (a triplet before a sequence on the same tile).
        pair: the pair's kind (None for the seven-pairs reading).
        seven_pairs: True for the seven-pairs reading.
        melds: the declared melds (sets too), as given.
        pairs: the seven pairs' kinds in order (a four of a kind is listed twice); empty
            for a regular reading.

    >>> d = decompose("123456789m11155p")[0]
    >>> str(d), d.sets[0], d.pair
    ('123m 456m 789m 111p 55p', ('seq', 0), 13)
    >>> str(decompose("11m 234m", melds=["pung:5p", "kong_concealed:9m", "pung:7s"])[0])
    '234m 11m [pung:5p] [kong_concealed:9m] [pung:7s]'
    """

    sets: tuple[tuple[str, int], ...] = ()
    pair: int | None = None
    seven_pairs: bool = False
    melds: tuple[Meld, ...] = ()
    pairs: tuple[int, ...] = ()

    def __str__(self) -> str:
        if self.seven_pairs:
            parts = [f"{t % 9 + 1}{t % 9 + 1}{_SUIT_LETTERS[t // 9]}" for t in self.pairs]
        else:
            parts = [_set_text(tag, t) for tag, t in self.sets]
            if self.pair is not None:
                r = self.pair % 9 + 1
                parts.append(f"{r}{r}{_SUIT_LETTERS[self.pair // 9]}")
        parts.extend(f"[{m}]" for m in self.melds)
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"<Decomposition {self}>"

    def sort_key(self) -> tuple:
        """The canonical order of readings (regular before seven pairs, then by sets, pair).

        :func:`decompose` lists readings in this order, and on fully tied fan the first one
        in this order names the result.
        """
        return (
            self.seven_pairs,
            tuple((t, tag != TRIPLET) for tag, t in self.sets),
            -1 if self.pair is None else self.pair,
            self.pairs,
        )


@dataclass(frozen=True)
class FanResult:
    """The score of a win (or the verdict that the hand does not win).

    Attributes:
        is_win: the hand wins (a complete reading exists and the void rule holds).
        fan: capped fan in display numbering (``qq``: 平胡 = 1); None when not a win.
        raw_fan: uncapped fan in display numbering; None when not a win.
        items: ``(Fan, fan)`` pairs, the base pattern first (in display numbering, so the
            items sum to ``raw_fan``), then the extras in :class:`Fan` order.
        decomposition: the reading that gives the fan; None when not a win.
        multiplier: ``2 ** min(internal fan, cap)``; 0 when not a win.

    >>> print(score("111222333m78999p", win_tile="9p"))
    2番 (x4): 带幺九 2 | 123m 123m 123m 789p 99p
    """

    is_win: bool
    fan: int | None
    raw_fan: int | None
    items: tuple[tuple[Fan, int], ...]
    decomposition: Decomposition | None
    multiplier: int

    def __str__(self) -> str:
        if not self.is_win:
            return "not a win"
        items = " + ".join(f"{f.zh} {n}" for f, n in self.items)
        raw = "" if self.raw_fan == self.fan else f", {self.raw_fan} uncapped"
        return f"{self.fan}番 (x{self.multiplier}{raw}): {items} | {self.decomposition}"


@dataclass(frozen=True)
class WaitFan:
    """One wait of a ready hand and the fan of the hand completed on it (see :func:`max_fan`).

    Attributes:
        tile: the waited kind (0..26).
        fan: uncapped fan in display numbering (a discard win, no situational extras).
        items: the fan items, as in :class:`FanResult`.
        decomposition: the reading that gives it.
        dead: every copy is gone (``4 - held - visible <= 0``); such a wait only stops
            counting when ``rules.si_jiao`` is on.
    """

    tile: int
    fan: int
    items: tuple[tuple[Fan, int], ...]
    decomposition: Decomposition
    dead: bool


@dataclass(frozen=True)
class MaxFan:
    """The 查大叫 value of a 13 - 3m hand (RULES.md 6.2).

    Attributes:
        fan: F, uncapped, display numbering: the maximum over the counted waits (the minimum
            with ``rules.cha_da_jiao == "min"``); None when the hand is not ready.
        payment: ``2 ** min(F_internal, cap)`` in base units; 0 when not ready.
        best_wait: the wait that gives F (ties: the lowest kind); None when not ready.
        waits: every wait in kind order, dead ones included (flagged).
    """

    fan: int | None
    payment: int
    best_wait: int | None
    waits: tuple[WaitFan, ...]


_NOT_WIN = FanResult(False, None, None, (), None, 0)

_object_new = object.__new__
_object_setattr = object.__setattr__


def _new_result(is_win: bool, fan: int | None, raw_fan: int | None,
                items: tuple[tuple[Fan, int], ...], decomposition: Decomposition | None,
                multiplier: int) -> FanResult:
    """``FanResult(...)`` without the per-field frozen ``__setattr__`` calls (hot path)."""
    r = _object_new(FanResult)
    _object_setattr(r, "__dict__", {
        "is_win": is_win, "fan": fan, "raw_fan": raw_fan, "items": items,
        "decomposition": decomposition, "multiplier": multiplier,
    })
    return r


def _new_decomposition(sets: tuple[tuple[str, int], ...], pair: int | None, seven_pairs: bool,
                       melds: tuple[Meld, ...], pairs: tuple[int, ...]) -> Decomposition:
    """``Decomposition(...)`` on the hot path (see :func:`_new_result`)."""
    d = _object_new(Decomposition)
    _object_setattr(d, "__dict__", {
        "sets": sets, "pair": pair, "seven_pairs": seven_pairs, "melds": melds, "pairs": pairs,
    })
    return d


# ---------------------------------------------------------------------------------------------
# Per-suit feature extraction (the unit the batch kernels build on)
# ---------------------------------------------------------------------------------------------

R_ALL_TRIPLETS = 1
"""Reading bit: no sequence among the suit's sets."""
R_YAO_JIU = 2
"""Reading bit: every set and the pair (if here) holds a 1 or a 9."""
R_SEQ_456 = 4
"""Reading bit: a 456 sequence (掐心五 when the win tile is this suit's 5)."""
R_TWIN_SEQ = 8
"""Reading bit: two identical sequences (姊妹对)."""
R_DRAGON = 16
"""Reading bit: 123 + 456 + 789 sequences (一条龙)."""

# A suit reading: (sets, pair, bits) with sets a sorted tuple of (rank 0..8, is_sequence)
# (a triplet before a sequence on the same rank) and pair a rank or -1.
SuitReading = tuple[tuple[tuple[int, int], ...], int, int]


class SuitFeatures(NamedTuple):
    """Everything scoring needs to know about one suit's 9 counts.

    Attributes:
        readings: every split of the suit into sets (+ the pair when the suit holds 3k+2
            tiles) as ``(sets, pair, bits)``: ``sets`` a sorted tuple of ``(rank 0..8,
            is_sequence)``, ``pair`` a rank or -1, ``bits`` the ``R_*`` flags. Empty when the
            suit cannot be split (3k+1 tiles, or no split); ``((), -1, R_ALL_TRIPLETS |
            R_YAO_JIU)`` for an empty suit. Sorted in canonical order.
        tiles: number of tiles.
        even: every count is 0, 2 or 4 (fits the seven-pairs reading).
        terminal: holds a 1 or a 9 (breaks 中张).
        only_258: every tile has rank 2, 5 or 8 (将对); True for an empty suit.

    >>> f = suit_features((3, 3, 3, 0, 0, 0, 0, 0, 2))    # 111222333 99
    >>> [(sets, pair) for sets, pair, bits in f.readings]
    [(((0, 0), (1, 0), (2, 0)), 8), (((0, 1), (0, 1), (0, 1)), 8)]
    >>> [bool(bits & R_ALL_TRIPLETS) for _, _, bits in f.readings]
    [True, False]
    """

    readings: tuple[SuitReading, ...]
    tiles: int
    even: bool
    terminal: bool
    only_258: bool


def _suit_partitions(c: list[int], i: int, out: set, cur: list) -> None:
    """Add to *out* every split of counts *c* (from rank *i* on) into sets, sorted tuples."""
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        out.add(tuple(sorted(cur)))
        return
    if c[i] >= 3:
        c[i] -= 3
        cur.append((i, 0))
        _suit_partitions(c, i, out, cur)
        cur.pop()
        c[i] += 3
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        cur.append((i, 1))
        _suit_partitions(c, i, out, cur)
        cur.pop()
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1


def _reading_bits(sets: tuple[tuple[int, int], ...], pair: int) -> int:
    bits = 0
    seqs = [r for r, is_seq in sets if is_seq]
    if not seqs:
        bits |= R_ALL_TRIPLETS
    if all((r in (0, 8)) if not is_seq else (r in (0, 6)) for r, is_seq in sets) and (
        pair in (-1, 0, 8)
    ):
        bits |= R_YAO_JIU
    if 3 in seqs:
        bits |= R_SEQ_456
    if len(set(seqs)) < len(seqs):
        bits |= R_TWIN_SEQ
    if 0 in seqs and 3 in seqs and 6 in seqs:
        bits |= R_DRAGON
    return bits


def _compute_suit_features(key: bytes) -> SuitFeatures:
    c = list(key)
    n = sum(c)
    found: set = set()
    readings: list[SuitReading] = []
    if n % 3 == 0:
        _suit_partitions(c, 0, found, [])
        readings = [(s, -1, 0) for s in found]
    elif n % 3 == 2:
        for r in range(9):
            if c[r] >= 2:
                c[r] -= 2
                found = set()
                _suit_partitions(c, 0, found, [])
                readings.extend((s, r, 0) for s in found)
                c[r] += 2
    readings.sort(key=lambda x: (x[0], x[1]))
    return SuitFeatures(
        readings=tuple((s, p, _reading_bits(s, p)) for s, p, _ in readings),
        tiles=n,
        even=all(x % 2 == 0 for x in c),
        terminal=bool(c[0] or c[8]),
        only_258=all(x == 0 for r, x in enumerate(c) if r not in (1, 4, 7)),
    )


_SUIT_CACHE: dict[bytes, SuitFeatures] = {}
_OK_COUNTS = bytes(range(5))
_SUIT_CACHE_LIMIT = 1 << 18


def suit_features(counts: Sequence[int]) -> SuitFeatures:
    """The :class:`SuitFeatures` of one suit's 9 counts (cached; each count 0..4).

    This is the per-suit unit of the scorer: a hand's regular readings are the products of
    its three suits' readings (exactly one suit carries the pair), and every base pattern and
    shape option is an AND / OR of the ``R_*`` bits plus the suit-level flags.

    >>> [str(s) for s in suit_features((1, 1, 1, 1, 1, 1, 1, 1, 1)).readings]
    ['(((0, 1), (3, 1), (6, 1)), -1, 20)']
    """
    if type(counts) is bytes:
        f = _SUIT_CACHE.get(counts)
        if f is not None:
            return f
    try:
        key = bytes(counts)
    except (TypeError, ValueError):
        raise ValueError(f"suit_features: expected 9 counts 0..4, got {counts!r}") from None
    f = _SUIT_CACHE.get(key)
    if f is None:
        if len(key) != 9 or key.translate(None, _OK_COUNTS):
            raise ValueError(f"suit_features: expected 9 counts 0..4, got {tuple(key)!r}")
        if len(_SUIT_CACHE) >= _SUIT_CACHE_LIMIT:
            _SUIT_CACHE.clear()
        f = _SUIT_CACHE[key] = _compute_suit_features(key)
    return f


# ---------------------------------------------------------------------------------------------
# Input normalisation
# ---------------------------------------------------------------------------------------------

_PARSE_CACHE: dict[str, bytes] = {}


def _hand_counts(hand: HandLike, what: str = "hand") -> bytes:
    """The 27 counts (each 0..4) as ``bytes``: cheap to slice, hash and compare."""
    tp = type(hand)
    if tp is list or tp is tuple:
        try:
            b = bytes(hand)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return _counts_slow(hand, what)  # type: ignore[arg-type]
        if len(b) == 27 and not b.translate(None, _OK_COUNTS):
            return b
        return _counts_slow(hand, what)  # type: ignore[arg-type]
    if tp is str:
        b = _PARSE_CACHE.get(hand)  # type: ignore[arg-type]
        if b is None:
            b = _parse_str(hand)  # type: ignore[arg-type]
            if len(_PARSE_CACHE) >= 4096:
                _PARSE_CACHE.clear()
            _PARSE_CACHE[hand] = b  # type: ignore[index]
        return b
    if isinstance(hand, np.ndarray):
        if hand.ndim != 1 or hand.shape[0] != 27:
            raise InvalidHandError(
                f"{what}: expected a 1-D array of 27 counts, got shape {hand.shape}"
            )
        if hand.dtype.kind not in "iu":
            raise InvalidHandError(f"{what}: expected an integer array, got dtype {hand.dtype}")
        if hand.dtype == np.uint8:
            b = hand.tobytes()
            if not b.translate(None, _OK_COUNTS):
                return b
        return _counts_slow(hand.tolist(), what)
    if isinstance(hand, (bytes, bytearray)) or not isinstance(hand, Sequence):
        raise TypeError(
            f"{what}: expected a str of tiles or 27 counts, got {type(hand).__name__}"
        )
    return _counts_slow(hand, what)


_SIMPLE_HAND = re.compile(r"(?:\s*[1-9]+[mps])*\s*")
_GROUP = re.compile(r"([1-9]+)([mps])")


def _parse_str(s: str) -> bytes:
    """Plain mpsz text (``"123m 456p"``) counted directly; anything else (Chinese or Unicode
    tiles, errors, a fifth copy) goes through :func:`mjfast.tiles.parse_hand`."""
    if _SIMPLE_HAND.fullmatch(s):
        counts = [0] * 27
        for digits, suit in _GROUP.findall(s):
            base = 9 * "mps".index(suit) - 49
            for d in digits:
                counts[base + ord(d)] += 1
        if max(counts) <= 4:
            return bytes(counts)
    return parse_hand(s).tobytes()


def _counts_slow(hand: Sequence[int], what: str) -> bytes:
    values = _counts_list(hand, what)
    for k, v in enumerate(values):
        if v > 4:
            raise InvalidHandError(f"{what}[{k}]: tile {format_tile(k)} appears {v} times (max 4)")
    return bytes(values)


class _MeldInfo(NamedTuple):
    melds: tuple[Meld, ...]
    counts: tuple[int, ...] | None  # tiles per kind in melds (None when no melds)
    n: int
    men_qing: bool  # no pung / exposed kong / added kong (concealed kongs keep it)
    has_kong: bool
    suit_mask: int
    any_terminal: bool
    all_terminal: bool  # every meld is of a 1 or a 9
    all_258: bool


_NO_MELDS = _MeldInfo((), None, 0, True, False, 0, False, True, True)
_MELD_CACHE: dict[object, _MeldInfo] = {}


def _meld_info(melds: MeldsLike) -> _MeldInfo:
    if melds is None:
        return _NO_MELDS
    key: object
    if isinstance(melds, (str, Meld)):
        key = melds
    elif isinstance(melds, (list, tuple)):
        key = tuple(melds)
        if not key:
            return _NO_MELDS
    else:
        return _build_meld_info(melds)
    try:
        info = _MELD_CACHE.get(key)
    except TypeError:  # unhashable items: let parse_melds report them
        return _build_meld_info(melds)
    if info is None:
        info = _build_meld_info(melds)
        if len(_MELD_CACHE) > 4096:
            _MELD_CACHE.clear()
        _MELD_CACHE[key] = info
    return info


def _build_meld_info(melds: MeldsLike) -> _MeldInfo:
    parsed = parse_melds(melds)  # type: ignore[arg-type]
    if not parsed:
        return _NO_MELDS
    if len(parsed) > 4:
        raise InvalidHandError(f"melds: {len(parsed)} melds (max 4)")
    counts = [0] * 27
    suit_mask = 0
    for i, m in enumerate(parsed):
        if counts[m.tile]:
            raise InvalidHandError(f"melds[{i}]: kind {format_tile(m.tile)} is melded twice")
        counts[m.tile] = m.size
        suit_mask |= 1 << (m.tile // 9)
    ranks = [m.tile % 9 for m in parsed]
    return _MeldInfo(
        melds=parsed,
        counts=tuple(counts),
        n=len(parsed),
        men_qing=all(m.kind is MeldKind.KONG_CONCEALED for m in parsed),
        has_kong=any(m.is_kong for m in parsed),
        suit_mask=suit_mask,
        any_terminal=any(r in (0, 8) for r in ranks),
        all_terminal=all(r in (0, 8) for r in ranks),
        all_258=all(r in (1, 4, 7) for r in ranks),
    )


def _check_sizes(c: bytes, mi: _MeldInfo, complete: bool, what: str) -> None:
    n = sum(c)
    want = (14 if complete else 13) - 3 * mi.n
    if n != want:
        raise InvalidHandError(
            f"{what}: {n} concealed tiles with {mi.n} meld(s); expected {want} "
            + ("(14 - 3m, the winning tile included)" if complete else "(13 - 3m)")
        )
    if mi.counts is not None:
        mc = mi.counts
        for m in mi.melds:
            t = m.tile
            if c[t] + mc[t] > 4:
                raise InvalidHandError(
                    f"{what}: tile {format_tile(t)} appears {c[t] + mc[t]} times "
                    f"counting melds (max 4)"
                )


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        return CHENGDU
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules object or None, got {type(rules).__name__}")
    return rules


_VOID_NAMES = {"m": 0, "p": 1, "s": 2, "万": 0, "筒": 1, "饼": 1, "条": 2, "索": 2}


def _void(void_suit: object) -> int | None:
    if void_suit is None:
        return None
    if isinstance(void_suit, str):
        if void_suit in _VOID_NAMES:
            return _VOID_NAMES[void_suit]
        raise ValueError(f"void_suit must be 'm', 'p', 's' or 0..2, got {void_suit!r}")
    if isinstance(void_suit, bool):
        raise TypeError("void_suit must be 'm', 'p', 's' or 0..2, got a bool")
    try:
        v = operator.index(void_suit)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(
            f"void_suit must be 'm', 'p', 's' or 0..2, got {type(void_suit).__name__}"
        ) from None
    if not 0 <= v <= 2:
        raise ValueError(f"void_suit must be 'm', 'p', 's' or 0..2, got {v}")
    return v


def _tile(tile: object, what: str) -> int:
    """A tile given as text (``"5p"``) or as a kind index 0..26."""
    return parse_tile(tile) if isinstance(tile, str) else _check_kind(tile, what)


# Situational flags, once validated: (self_drawn, after_kong, after_kong_discard,
# robbing_kong, last_tile, tian_hu, di_hu), self_drawn already implied by the others.
_Situation = tuple[bool, bool, bool, bool, bool, bool, bool]
_NO_SITUATION: _Situation = (False,) * 7


_FLAG_NAMES = ("self_drawn", "after_kong", "after_kong_discard", "robbing_kong", "last_tile",
               "tian_hu", "di_hu")


def _situation(c: bytes, mi: _MeldInfo, w: int, *values: object) -> _Situation:
    """Validate the situational flags (in :data:`_FLAG_NAMES` order)."""
    for name, v in zip(_FLAG_NAMES, values):
        if v is not True and v is not False:
            if not isinstance(v, np.bool_):
                raise TypeError(f"{name} must be a bool, got {type(v).__name__} {v!r}")
    sd, ak, akd, rob, last, tian, di = map(bool, values)
    # after_kong (杠上花), tian_hu and di_hu are self-drawn wins.
    drawn = sd or ak or tian or di
    if (tian or di) and (tian and di or ak or akd or rob or last or mi.n):
        raise _contradiction(mi, sd, ak, akd, rob, last, tian, di)
    if (drawn and (rob or akd)) or (rob and akd):
        raise _contradiction(mi, sd, ak, akd, rob, last, tian, di)
    if ak and not mi.has_kong:
        raise ValueError("contradictory flags: after_kong (杠上花) needs an own kong among "
                         "the melds")
    if rob and (c[w] != 1 or (mi.counts is not None and mi.counts[w])):
        raise ValueError(
            f"contradictory flags: robbing_kong: the robbed player holds the other three "
            f"{format_tile(w)}, so the hand can hold only the robbed copy"
        )
    return (drawn, ak, akd, rob, last, tian, di)


def _contradiction(mi: _MeldInfo, sd: bool, ak: bool, akd: bool, rob: bool, last: bool,
                   tian: bool, di: bool) -> ValueError:
    def bad(msg: str) -> ValueError:
        return ValueError(f"contradictory flags: {msg}")

    if tian and di:
        return bad("tian_hu (dealer) and di_hu (non-dealer) exclude each other")
    if tian or di:
        name = "tian_hu" if tian else "di_hu"
        for other, v in (("after_kong", ak), ("after_kong_discard", akd),
                         ("robbing_kong", rob), ("last_tile", last)):
            if v:
                return bad(f"{name} is a win on the dealt hand / first draw, not with {other}")
        return bad(f"{name} is a win before any meld, but melds were given")
    if rob and akd:
        return bad("robbing_kong (抢杠) and after_kong_discard (杠上炮) exclude each other")
    what = "robbing_kong" if rob else "after_kong_discard"
    src = "self_drawn" if sd else "after_kong"
    return bad(f"{src} is a self-drawn win, {what} a win on another player's tile")


# ---------------------------------------------------------------------------------------------
# Rules-derived tables
# ---------------------------------------------------------------------------------------------

_B = {f: 1 << i for i, f in enumerate(BASE_PATTERNS)}
_LONG_MASK = _B[Fan.LONG_QI_DUI] | _B[Fan.QING_LONG_QI_DUI]
_POPCOUNT = (0, 1, 1, 2, 1, 2, 2, 3)


class _View(NamedTuple):
    best: dict[int, tuple[int, int, int]]  # pattern mask -> (pattern index, value, base fan)
    base_values: tuple[int, ...]
    root_fan: int
    uses_root: bool
    cap: int | None
    offset: int
    men_qing: int
    zhong_zhang: int
    qia_xin_wu: int
    zi_mei_dui: int
    yi_tiao_long: int
    jin_gou_diao: bool
    gang_shang_hua: int
    gang_shang_pao: int
    qiang_gang_hu: int
    zi_mo: int
    hai_di: int


def _view(rules: Rules) -> _View:
    cache = rules._scoring_cache  # type: ignore[attr-defined]
    v = cache.get("view")
    if v is None:
        v = cache["view"] = _View(
            best={},
            base_values=tuple(rules.base_fan[f] for f in BASE_PATTERNS),
            root_fan=rules.root_fan,
            uses_root=rules.long_qi_dui_uses_root,
            cap=rules.cap,
            offset=rules.fan_display_offset,
            men_qing=rules.men_qing,
            zhong_zhang=rules.zhong_zhang,
            qia_xin_wu=rules.qia_xin_wu,
            zi_mei_dui=rules.zi_mei_dui,
            yi_tiao_long=rules.yi_tiao_long,
            jin_gou_diao=rules.jin_gou_diao,
            gang_shang_hua=rules.gang_shang_hua,
            gang_shang_pao=rules.gang_shang_pao,
            qiang_gang_hu=rules.qiang_gang_hu,
            zi_mo=1 if rules.self_draw == "add_fan" else 0,
            hai_di=rules.hai_di,
        )
    return v


def _best_pattern(view: _View, mask: int) -> tuple[int, int, int]:
    """(pattern index, value, base fan) of the best base pattern among *mask*.

    value = base fan, less one root's fan for 龙七对 / 清龙七对 when they use a root up.
    Best = highest value, then highest base fan, then the later pattern.
    """
    best = None
    for i, base in enumerate(view.base_values):
        if mask >> i & 1:
            value = base
            if view.uses_root and (1 << i) & _LONG_MASK:
                value -= view.root_fan
            key = (value, base, i)
            if best is None or key > best:
                best = key
    assert best is not None
    out = (best[2], best[0], best[1])
    view.best[mask] = out
    return out


# ---------------------------------------------------------------------------------------------
# The scorer
# ---------------------------------------------------------------------------------------------

_P_PING = _B[Fan.PING_HU]
_P_DDH = _B[Fan.DUI_DUI_HU]
_P_QING = _B[Fan.QING_YI_SE]
_P_QIDUI = _B[Fan.QI_DUI]
_P_YJ = _B[Fan.DAI_YAO_JIU]
_P_JIANG = _B[Fan.JIANG_DUI]
_P_QDUI = _B[Fan.QING_DUI]
_P_QQD = _B[Fan.QING_QI_DUI]
_P_LONG = _B[Fan.LONG_QI_DUI]
_P_QYJ = _B[Fan.QING_YAO_JIU]
_P_QLONG = _B[Fan.QING_LONG_QI_DUI]
_P_TIAN = _B[Fan.TIAN_HU]
_P_DI = _B[Fan.DI_HU]
_P_JGD = _B[Fan.JIN_GOU_DIAO]
_P_QJGD = _B[Fan.QING_JIN_GOU_DIAO]

_X_QIA, _X_TWIN, _X_DRAGON = 1, 2, 4
_SEVEN = -1  # marker for the seven-pairs reading


def _score_counts(c: bytes, mi: _MeldInfo, w: int, void: int | None, sit: _Situation,
                  rules: Rules) -> FanResult:
    """Score validated counts *c* (14 - 3m tiles, *w* among them)."""
    get = _SUIT_CACHE.get
    k0, k1, k2 = c[0:9], c[9:18], c[18:27]
    f0 = get(k0) or suit_features(k0)
    f1 = get(k1) or suit_features(k1)
    f2 = get(k2) or suit_features(k2)
    smask = (f0.tiles > 0) | (f1.tiles > 0) << 1 | (f2.tiles > 0) << 2 | mi.suit_mask
    nsuits = _POPCOUNT[smask]
    if nsuits > 2 or (void is not None and smask >> void & 1):
        return _NOT_WIN
    r0, r1, r2 = f0.readings, f1.readings, f2.readings
    seven = mi.n == 0 and f0.even and f1.even and f2.even
    regular = bool(r0 and r1 and r2)
    if not (regular or seven):
        return _NOT_WIN

    view = rules._scoring_cache.get("view") or _view(rules)  # type: ignore[attr-defined]
    qing = nsuits == 1
    mc = mi.counts
    roots = c.count(4)
    if mc is not None:
        for m in mi.melds:
            if c[m.tile] + mc[m.tile] == 4:
                roots += 1
    terminal = f0.terminal or f1.terminal or f2.terminal or mi.any_terminal

    sd, ak, akd, rob, last, tian, di = sit
    common = roots * view.root_fan
    if ak:
        common += view.gang_shang_hua
    if akd:
        common += view.gang_shang_pao
    if rob:
        common += view.qiang_gang_hu
    if sd:
        common += view.zi_mo
    if last:
        common += view.hai_di
    if mi.men_qing:
        common += view.men_qing
    if not terminal:
        common += view.zhong_zhang

    best_key = None
    best_reading = None
    best_x = 0
    best_pat = 0
    best_value = 0
    table = view.best

    if regular:
        if tian or di:
            fixed = _P_TIAN if tian else _P_DI
        else:
            fixed = 0
            all258 = f0.only_258 and f1.only_258 and f2.only_258 and mi.all_258
            meld_yj = mi.all_terminal
            jgd = view.jin_gou_diao and mi.n == 4
        ws = w // 9
        qia_on = view.qia_xin_wu if w % 9 == 4 else 0
        twin_on = view.zi_mei_dui
        dragon_on = view.yi_tiao_long
        for a in r0:
            for b in r1:
                for d in r2:
                    if fixed:
                        mask = fixed
                    else:
                        band = a[2] & b[2] & d[2]
                        mask = _P_PING
                        if band & R_ALL_TRIPLETS:
                            mask |= _P_DDH
                            if all258:
                                mask |= _P_JIANG
                            if qing:
                                mask |= _P_QDUI
                        if band & R_YAO_JIU and meld_yj:
                            mask |= _P_YJ | (_P_QYJ if qing else 0)
                        if qing:
                            mask |= _P_QING
                        if jgd:
                            mask |= _P_JGD | (_P_QJGD if qing else 0)
                    pat = table.get(mask)
                    if pat is None:
                        pat = _best_pattern(view, mask)
                    total = common + pat[1]
                    x = 0
                    if qia_on and (a, b, d)[ws][2] & R_SEQ_456:
                        total += qia_on
                        x |= _X_QIA
                    if twin_on or dragon_on:
                        bor = a[2] | b[2] | d[2]
                        if twin_on and bor & R_TWIN_SEQ:
                            total += twin_on
                            x |= _X_TWIN
                        if dragon_on and bor & R_DRAGON:
                            total += dragon_on
                            x |= _X_DRAGON
                    key = (total, pat[2], pat[0])
                    if best_key is None or key > best_key:
                        best_key = key
                        best_reading = (a, b, d)
                        best_x = x
                        best_pat = pat[0]
                        best_value = pat[1]

    if seven:
        if tian or di:
            mask = _P_TIAN if tian else _P_DI
        else:
            mask = _P_PING | _P_QIDUI
            if qing:
                mask |= _P_QING | _P_QQD
            if roots:
                mask |= _P_LONG | (_P_QLONG if qing else 0)
        pat = table.get(mask)
        if pat is None:
            pat = _best_pattern(view, mask)
        key = (common + pat[1], pat[2], pat[0])
        if best_key is None or key > best_key:
            best_key = key
            best_reading = _SEVEN
            best_x = 0
            best_pat = pat[0]
            best_value = pat[1]

    # Build the result.
    total = best_key[0]  # type: ignore[index]
    offset = view.offset
    pattern = BASE_PATTERNS[best_pat]
    base = view.base_values[best_pat]
    items = [(pattern, base + offset)]
    gen = roots * view.root_fan - (base - best_value)  # 龙七对 may use a root up
    if gen:
        items.append((Fan.GEN, gen))
    if ak and view.gang_shang_hua:
        items.append((Fan.GANG_SHANG_HUA, view.gang_shang_hua))
    if akd and view.gang_shang_pao:
        items.append((Fan.GANG_SHANG_PAO, view.gang_shang_pao))
    if rob and view.qiang_gang_hu:
        items.append((Fan.QIANG_GANG_HU, view.qiang_gang_hu))
    if sd and view.zi_mo:
        items.append((Fan.ZI_MO, view.zi_mo))
    if last and view.hai_di:
        items.append((Fan.HAI_DI, view.hai_di))
    if mi.men_qing and view.men_qing:
        items.append((Fan.MEN_QING, view.men_qing))
    if not terminal and view.zhong_zhang:
        items.append((Fan.ZHONG_ZHANG, view.zhong_zhang))
    if best_x & _X_QIA:
        items.append((Fan.QIA_XIN_WU, view.qia_xin_wu))
    if best_x & _X_TWIN:
        items.append((Fan.ZI_MEI_DUI, view.zi_mei_dui))
    if best_x & _X_DRAGON:
        items.append((Fan.YI_TIAO_LONG, view.yi_tiao_long))

    if best_reading is _SEVEN:
        pairs: list[int] = []
        for k in range(27):
            if c[k]:
                pairs.extend((k,) * (c[k] // 2))
        decomposition = Decomposition((), None, True, mi.melds, tuple(pairs))
    else:
        decomposition = _build_decomposition(best_reading, mi.melds)  # type: ignore[arg-type]
    cap = view.cap
    capped = total if cap is None or total <= cap else cap
    return _new_result(True, capped + offset, total + offset, tuple(items), decomposition,
                       1 << capped)


_TAGS = (TRIPLET, SEQ)


def _build_decomposition(reading: tuple[SuitReading, SuitReading, SuitReading],
                         melds: tuple[Meld, ...]) -> Decomposition:
    sets = []
    pair = None
    for s, (local, p, _) in enumerate(reading):
        off = 9 * s
        sets.extend((_TAGS[is_seq], off + r) for r, is_seq in local)
        if p >= 0:
            pair = off + p
    return _new_decomposition(tuple(sets), pair, False, melds, ())


def score(
    hand: HandLike,
    *,
    win_tile: int | str,
    melds: MeldsLike = None,
    void_suit: int | str | None = None,
    self_drawn: bool = False,
    after_kong: bool = False,
    after_kong_discard: bool = False,
    robbing_kong: bool = False,
    last_tile: bool = False,
    tian_hu: bool = False,
    di_hu: bool = False,
    rules: Rules | None = None,
) -> FanResult:
    """The fan of a win (RULES.md sections 4 and 8).

    Args:
        hand: the 14 - 3m concealed tiles *including* the win tile (string or 27 counts).
        win_tile: the winning tile (``"5p"`` or a kind index); must be in *hand*.
        melds: declared melds (``"pung:5p"``, ``"kong_concealed:9s"``, Meld objects).
        void_suit: the declared void suit (``"m"``/``"p"``/``"s"`` or 0..2), if any.
        self_drawn: 自摸 (implied by after_kong, tian_hu and di_hu).
        after_kong: 杠上花, a self-drawn win on the replacement draw after an own kong.
        after_kong_discard: 杠上炮, a win on a discard made right after the discarder's kong.
        robbing_kong: 抢杠胡, a win on another player's added kong.
        last_tile: 海底 (海底捞月 / 海底炮), the win is on the last tile.
        tian_hu, di_hu: 天胡 / 地胡 (replace the base pattern; roots still add).
        rules: a :class:`~mjfast.rules.Rules` (default: ``chengdu``).

    Returns:
        A :class:`FanResult`; a hand that does not win (no reading, three suits, a tile of
        the declared void suit) gives ``is_win=False``, not an error.

    Raises:
        InvalidHandError: the concealed size is not 14 - 3m, or a kind exceeds 4 copies.
        ValueError: contradictory flags (e.g. self_drawn with robbing_kong, tian_hu with
            di_hu, after_kong without an own kong), or win_tile not in the hand.

    The fan is the maximum over all readings of base pattern + extras; on equal totals the
    higher base pattern names it:

    >>> r = score("123333m45566799s", win_tile="1m")      # 平胡 + 1 root
    >>> r.fan, [(f.name, n) for f, n in r.items], str(r.decomposition)
    (1, [('PING_HU', 0), ('GEN', 1)], '123m 333m 456s 567s 99s')
    >>> r = score("123m 234m 678m 99m", win_tile="9m", melds=["pung:5m"], self_drawn=True,
    ...           rules=Rules.preset("qq"))              # 清一色: 2 fan, shown as 3 in qq
    >>> r.fan, r.multiplier
    (3, 4)
    """
    c = _hand_counts(hand)
    mi = _meld_info(melds)
    r = _rules(rules)
    w = win_tile if type(win_tile) is int and 0 <= win_tile <= 26 else _tile(win_tile,
                                                                              "win_tile")
    v = None if void_suit is None else _void(void_suit)
    _check_sizes(c, mi, True, "hand")
    if not c[w]:
        raise ValueError(f"win_tile {format_tile(w)} is not in the hand")
    if (self_drawn is False and after_kong is False and after_kong_discard is False
            and robbing_kong is False and last_tile is False and tian_hu is False
            and di_hu is False):
        sit = _NO_SITUATION
    else:
        sit = _situation(c, mi, w, self_drawn, after_kong, after_kong_discard, robbing_kong,
                         last_tile, tian_hu, di_hu)
    return _score_counts(c, mi, w, v, sit, r)


def decompose(hand: HandLike, *, melds: MeldsLike = None) -> list[Decomposition]:
    """Every distinct reading of a complete hand (structural: no void rule here).

    *hand* holds the 14 - 3m concealed tiles; a 13 - 3m hand has no reading (``[]``).
    Readings come in canonical order (:meth:`Decomposition.sort_key`): regular readings by
    their sets, then the seven-pairs reading.

    >>> [str(d) for d in decompose("111222333m78999p")]
    ['111m 222m 333m 789p 99p', '123m 123m 123m 789p 99p']
    >>> [str(d) for d in decompose("11223344556677m")]
    ['123m 123m 456m 456m 77m', '123m 123m 567m 567m 44m', '234m 234m 567m 567m 11m', '11m 22m 33m 44m 55m 66m 77m']
    """
    c = _hand_counts(hand)
    mi = _meld_info(melds)
    n = sum(c)
    if n == 13 - 3 * mi.n:
        _check_sizes(c, mi, False, "hand")
        return []
    _check_sizes(c, mi, True, "hand")
    out: list[Decomposition] = []
    fs = [suit_features(tuple(c[9 * s:9 * s + 9])) for s in range(3)]
    for a in fs[0].readings:
        for b in fs[1].readings:
            for d in fs[2].readings:
                out.append(_build_decomposition((a, b, d), mi.melds))
    if mi.n == 0 and all(f.even for f in fs):
        pairs: list[int] = []
        for k in range(27):
            pairs.extend((k,) * (c[k] // 2))
        out.append(Decomposition((), None, True, mi.melds, tuple(pairs)))
    return out


def max_fan(
    hand: HandLike,
    *,
    melds: MeldsLike = None,
    void_suit: int | str | None = None,
    visible: HandLike | None = None,
    rules: Rules | None = None,
    workers: int = 1,
    out: np.ndarray | None = None,
    best_tile: bool = False,
) -> MaxFan:
    """The 查大叫 value of a 13 - 3m hand (RULES.md 6.2 and 8).

    Every wait t (a kind whose addition wins under the void rule, not already held 4 times
    counting melds) is scored as a discard win with no situational extras (roots and enabled
    shape options count). F is the maximum over the waits (``rules.cha_da_jiao == "min"``:
    the minimum), uncapped, display numbering; ties go to the lowest kind. With
    ``rules.si_jiao``, a wait with ``4 - held - visible <= 0`` is dead and does not count;
    a hand whose waits are all dead is not ready. ``payment = 2 ** min(F_internal, cap)``.

    Args:
        hand: 13 - 3m concealed tiles. melds, void_suit, rules: as in :func:`score`.
        visible: copies seen outside the player's hand and melds (27 counts or a string).

    >>> m = max_fan("2224445557779m")           # 清对 on 9m, 清一色 on 8m
    >>> m.fan, format_tile(m.best_wait), [(format_tile(w.tile), w.fan) for w in m.waits]
    (3, '9m', [('8m', 2), ('9m', 3)])
    >>> max_fan("12347m 59s", melds=["pung:5p", "pung:6p"]).fan is None   # not ready
    True

    Given an ``(N, 27)`` array (or a list of tile strings), this is the batch kernel
    :func:`mjfast.fan_batch.max_fan`
    (which also takes *workers*, *out* and *best_tile*): an ``(N,)`` int16 array of F (-1 when
    not ready), equal row by row to ``max_fan(row).fan``, and with ``best_tile=True`` also the
    ``(N,)`` int8 best waits.
    """
    if (isinstance(hand, np.ndarray) and hand.ndim == 2) or (
            isinstance(hand, (list, tuple)) and hand and all(isinstance(h, str) for h in hand)):
        return _batch_max_fan(hand, melds=melds, void_suit=void_suit, visible=visible,
                              rules=rules, workers=workers, out=out, best_tile=best_tile)
    if out is not None or best_tile is not False:
        raise ValueError("out / best_tile: only batch calls (an (N, 27) array of hands) take them")
    c = _hand_counts(hand)
    mi = _meld_info(melds)
    r = _rules(rules)
    v = _void(void_suit)
    _check_sizes(c, mi, False, "hand")
    mc = mi.counts or (0,) * 27
    if visible is None:
        vis = None
    else:
        vis = _visible_counts(visible)
        for k in range(27):
            if c[k] + mc[k] + vis[k] > 4:
                raise InvalidHandError(
                    f"visible[{k}]: {vis[k]} visible + {c[k] + mc[k]} held copies of "
                    f"{format_tile(k)} exceed 4"
                )
    waits = []
    offset = r.fan_display_offset
    present = mi.suit_mask
    for s in range(3):
        if any(c[9 * s:9 * s + 9]):
            present |= 1 << s
    for t in range(27):
        held = c[t] + mc[t]
        if held >= 4:
            continue
        bit = 1 << (t // 9)
        if (v is not None and t // 9 == v) or _POPCOUNT[present | bit] > 2:
            continue  # the void rule rules this wait out
        res = _score_counts(c[:t] + _INC[c[t]] + c[t + 1:], mi, t, v, _NO_SITUATION, r)
        if res.is_win:
            dead = 4 - held - (vis[t] if vis is not None else 0) <= 0
            waits.append(WaitFan(t, res.raw_fan, res.items, res.decomposition, dead))  # type: ignore[arg-type]
    live = [wf for wf in waits if not (r.si_jiao and wf.dead)]
    if not live:
        return MaxFan(None, 0, None, tuple(waits))
    if r.cha_da_jiao == "min":
        best = min(live, key=lambda wf: (wf.fan, wf.tile))
    else:
        best = min(live, key=lambda wf: (-wf.fan, wf.tile))
    return MaxFan(best.fan, r.multiplier(best.fan - offset), best.tile, tuple(waits))


_INC = tuple(bytes([i + 1]) for i in range(4))


def _visible_counts(visible: HandLike) -> bytes:
    return _hand_counts(visible, "visible")


# The batch kernels (mjfast/fan_batch.py imports nothing from this module at import time).
from mjfast.fan_batch import fan  # noqa: E402
from mjfast.fan_batch import max_fan as _batch_max_fan  # noqa: E402
