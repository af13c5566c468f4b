"""The result types of the scorer, shared with the reference twin :mod:`mjfast._ref.scoring`.

Plain frozen dataclasses and the set tags: nothing here imports compiled code, so the reference
can build the same results without touching the fast path.

The single-hand fast path (:func:`mjfast.scoring.score`, :func:`mjfast.scoring.max_fan` on a
tile string or a uint8 array) gets the numbers from the C kernel and leaves the costly fields
(``FanResult.items`` / ``decomposition``, ``MaxFan.waits``) to be built on first read, by the
Python scorer: such a result holds :data:`LAZY`, a function and its arguments, instead of those
fields. Reading, comparing, hashing, printing or pickling it builds them, so it behaves like
one built eagerly (it is the same class, and equal to it).
"""

from __future__ import annotations

from dataclasses import dataclass

from mjfast.rules import Fan
from mjfast.tiles import Meld

__all__ = ["LAZY", "SEQ", "TRIPLET", "Decomposition", "FanResult", "MaxFan", "WaitFan"]

SEQ = "seq"
"""Set tag of a sequence (顺子), e.g. ``(SEQ, 0)`` is 123m."""
TRIPLET = "triplet"
"""Set tag of a concealed triplet (刻子), e.g. ``(TRIPLET, 13)`` is 555p."""

_SUIT_LETTERS = "mps"


def _set_text(tag: str, tile: int) -> str:
    r = tile % 9 + 1
    digits = f"{r}{r + 1}{r + 2}" if tag == SEQ else f"{r}{r}{r}"
    return digits + _SUIT_LETTERS[tile // 9]


LAZY = "_lazy"
"""The instance attribute of a result whose costly fields are built on first read: a tuple
``(build, *args)``; ``build(*args)`` returns those fields by name."""


class _Lazy:
    """A result field that may be built on first read (a non-data descriptor: once built, the
    value in the instance dict is found first)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, cls: type | None = None) -> object:
        if obj is None:
            return self
        values = obj.__dict__
        lazy = values.get(LAZY)
        if lazy is not None:  # two threads may both build (the same values): harmless
            values.update(lazy[0](*lazy[1:]))
            values.pop(LAZY, None)  # only once the fields are there
        try:
            return values[self.name]
        except KeyError:
            raise AttributeError(self.name) from None


def _fields_state(obj: object) -> dict[str, object]:
    """``__getstate__`` of a result: the fields by name (built if lazy), as pickle always
    stored them."""
    return {name: getattr(obj, name) for name in obj.__dataclass_fields__}  # type: ignore[attr-defined]


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

    >>> from mjfast.scoring import decompose
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

    def sort_key(self) -> tuple[bool, tuple[tuple[int, bool], ...], int, tuple[int, ...]]:
        """The canonical order of readings (regular before seven pairs, then by sets, pair).

        :func:`~mjfast.scoring.decompose` lists readings in this order, and on fully tied fan
        the first one in this order names the result.
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
            items sum to ``raw_fan``), then the extras in :class:`~mjfast.rules.Fan` order.
        decomposition: the reading that gives the fan; None when not a win.
        multiplier: ``2 ** min(internal fan, cap)`` (the ``points`` model: the capped points
            themselves); 0 when not a win.

    A result of the compiled fast path builds ``items`` and ``decomposition`` when first read
    (see :data:`LAZY`); it compares, hashes, prints and pickles like any other.

    >>> from mjfast.scoring import score
    >>> print(score("111222333m78999p", win_tile="9p"))
    2番 (x4): 带幺九 2 | 123m 123m 123m 789p 99p
    """

    is_win: bool
    fan: int | None
    raw_fan: int | None
    items: tuple[tuple[Fan, int], ...]
    decomposition: Decomposition | None
    multiplier: int

    __getstate__ = _fields_state

    def __str__(self) -> str:
        if not self.is_win:
            return "not a win"
        items = " + ".join(f"{f.zh} {n}" for f, n in self.items)
        raw = "" if self.raw_fan == self.fan else f", {self.raw_fan} uncapped"
        return f"{self.fan}番 (x{self.multiplier}{raw}): {items} | {self.decomposition}"


@dataclass(frozen=True)
class WaitFan:
    """One wait of a ready hand and the fan of the hand completed on it (see
    :func:`~mjfast.scoring.max_fan`).

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
        payment: ``rules.multiplier(F_internal)`` in base units (``2 ** min(F, cap)``, or the
            points under the ``points`` model); 0 when not ready.
        best_wait: the wait that gives F (ties: the lowest kind); None when not ready.
        waits: every wait in kind order, dead ones included (flagged); built when first read
            on a result of the compiled fast path (see :data:`LAZY`).
    """

    fan: int | None
    payment: int
    best_wait: int | None
    waits: tuple[WaitFan, ...]

    __getstate__ = _fields_state


# Set after the dataclass decorator (a class attribute there would be read as the default).
FanResult.items = _Lazy("items")  # type: ignore[assignment]
FanResult.decomposition = _Lazy("decomposition")  # type: ignore[assignment]
MaxFan.waits = _Lazy("waits")  # type: ignore[assignment]


NOT_WIN = FanResult(False, None, None, (), None, 0)
"""The result of every hand that does not win."""

_object_new = object.__new__
_object_setattr = object.__setattr__


def new_result(is_win: bool, fan: int | None, raw_fan: int | None,
               items: tuple[tuple[Fan, int], ...], decomposition: Decomposition | None,
               multiplier: int) -> FanResult:
    """``FanResult(...)`` without the per-field frozen ``__setattr__`` calls (the scorer's hot
    path; package-internal)."""
    r = _object_new(FanResult)
    _object_setattr(r, "__dict__", {
        "is_win": is_win, "fan": fan, "raw_fan": raw_fan, "items": items,
        "decomposition": decomposition, "multiplier": multiplier,
    })
    return r


def new_decomposition(sets: tuple[tuple[str, int], ...], pair: int | None, seven_pairs: bool,
                      melds: tuple[Meld, ...], pairs: tuple[int, ...]) -> Decomposition:
    """``Decomposition(...)`` on the hot path (see :func:`new_result`; package-internal)."""
    d = _object_new(Decomposition)
    _object_setattr(d, "__dict__", {
        "sets": sets, "pair": pair, "seven_pairs": seven_pairs, "melds": melds, "pairs": pairs,
    })
    return d
