"""Tiles: parsing and formatting of Sichuan mahjong hands, and declared melds.

Sichuan mahjong (成都麻将) uses 108 tiles: three suits x ranks 1-9 x 4 copies, no honours and
no flowers. A tile *kind* is an index 0..26::

    0-8   = 1m..9m   (万, characters)
    9-17  = 1p..9p   (筒 / 饼, dots)
    18-26 = 1s..9s   (条 / 索, bamboo)

so ``kind // 9`` is the suit (0 = m, 1 = p, 2 = s) and ``kind % 9 + 1`` the rank. A hand is a
27-count array (``numpy.uint8``) or a list of 27 ints.

Three text notations are read and written:

- ``"mpsz"``: digits followed by a suit letter, ``"123m456p789s"``;
- ``"zh"``: digits followed by a Chinese suit character, ``"123万456筒789条"`` (``饼`` is read as
  筒, ``索`` as 条; the traditional ``萬 餅 條`` are read too);
- ``"unicode"``: the Unicode mahjong tiles 🀇-🀏 (m), 🀙-🀡 (p), 🀐-🀘 (s).

Notations may be mixed in one string and groups may be separated by whitespace. Parsing is
strict: anything that is not a tile of this game raises :class:`~mjfast.errors.TileParseError`
naming the 0-based position and the problem, never silently dropped.

>>> parse_hand("123m 456筒 🀐🀑🀒").nonzero()[0].tolist()
[0, 1, 2, 12, 13, 14, 18, 19, 20]
>>> format_hand(parse_hand("55p123m"))
'123m55p'
>>> parse_hand("1234z")
Traceback (most recent call last):
    ...
mjfast.errors.TileParseError: position 4 of '1234z': honour tiles (z) are not used in Sichuan mahjong ...
>>> Meld.parse("pung:5p")
Meld(kind=<MeldKind.PUNG: 'pung'>, tile=13)
"""


from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from mjfast._args import as_kind, as_style, counts_list, shown
from mjfast._notation import (
    NUM_KINDS,
    SUITS,
    UNICODE_OF_KIND,
    ZH_SUITS,
    Style,
    count_tiles,
    excerpt,
    kind_name,
    parse_hand,
    parse_tile,
)
from mjfast.errors import InvalidArgumentError, InvalidHandError, TileParseError

__all__ = [
    "MAX_PRINTED_COUNT",
    "NUM_KINDS",
    "SUITS",
    "Meld",
    "MeldKind",
    "Style",
    "format_hand",
    "format_tile",
    "melds_to_counts",
    "parse_hand",
    "parse_melds",
    "parse_tile",
]


MAX_PRINTED_COUNT = 255
"""The largest count :func:`format_hand` prints (any uint8 hand prints; a bigger count is
refused rather than built into a huge string)."""


def format_tile(kind: int, style: Style = "mpsz") -> str:
    """Format one tile kind (0..26).

    >>> format_tile(13), format_tile(13, "zh"), format_tile(13, "unicode")
    ('5p', '5筒', '🀝')
    """
    k = as_kind(kind, "kind")
    if as_style(style) == "unicode":
        return UNICODE_OF_KIND[k]
    letters = SUITS if style == "mpsz" else ZH_SUITS
    return f"{k % 9 + 1}{letters[k // 9]}"


def format_hand(counts: Sequence[int] | np.ndarray, style: Style = "mpsz") -> str:
    """Format a 27-count hand; suits in the order m, p, s, empty suits omitted.

    *counts* is any length-27 sequence of non-negative ints (a count above 4 is printed as it
    is, so that error messages can show bad hands) up to :data:`MAX_PRINTED_COUNT`; a larger
    count raises :class:`~mjfast.errors.InvalidHandError`.

    >>> h = parse_hand("789s123m456p")
    >>> format_hand(h), format_hand(h, "zh"), format_hand(h, "unicode")
    ('123m456p789s', '123万456筒789条', '🀇🀈🀉🀜🀝🀞🀖🀗🀘')
    >>> format_hand([0] * 27)
    ''
    """
    as_style(style)
    values = counts_list(counts)
    k = max(range(NUM_KINDS), key=values.__getitem__)
    if values[k] > MAX_PRINTED_COUNT:
        raise InvalidHandError(f"counts: tile {kind_name(k)} has a count of {shown(values[k])}; "
                               f"format_hand prints counts up to {MAX_PRINTED_COUNT}")
    if style == "unicode":
        return "".join(UNICODE_OF_KIND[k] * values[k] for k in range(NUM_KINDS))
    letters = SUITS if style == "mpsz" else ZH_SUITS
    parts = []
    for suit in range(3):
        digits = "".join(str(r + 1) * values[suit * 9 + r] for r in range(9))
        if digits:
            parts.append(digits + letters[suit])
    return "".join(parts)


class MeldKind(str, enum.Enum):
    """The kind of a declared meld (melds are single-kind: there are no chows).

    >>> MeldKind("kong_added").size
    4
    """

    PUNG = "pung"
    """碰: three of a kind claimed from a discard."""
    KONG = "kong"
    """直杠 / 明杠: exposed kong, claimed from a discard."""
    KONG_ADDED = "kong_added"
    """补杠 / 弯杠 / 面下杠: the fourth copy (self-drawn) added onto an own pung."""
    KONG_CONCEALED = "kong_concealed"
    """暗杠: four self-drawn copies."""

    @property
    def size(self) -> int:
        """The number of tiles, 3 for a pung and 4 for any kong."""
        return 3 if self is MeldKind.PUNG else 4

    @property
    def zh(self) -> str:
        """The Chinese name."""
        return _ZH_MELD_NAME[self]

    def __str__(self) -> str:
        return self.value


_ZH_MELD_NAME = {
    MeldKind.PUNG: "碰",
    MeldKind.KONG: "明杠",
    MeldKind.KONG_ADDED: "补杠",
    MeldKind.KONG_CONCEALED: "暗杠",
}

# Names accepted by Meld.parse / Meld(...) besides the enum values.
_MELD_ALIASES: dict[str, MeldKind] = {
    "碰": MeldKind.PUNG,
    "杠": MeldKind.KONG, "明杠": MeldKind.KONG, "直杠": MeldKind.KONG,
    "补杠": MeldKind.KONG_ADDED, "弯杠": MeldKind.KONG_ADDED, "面下杠": MeldKind.KONG_ADDED,
    "暗杠": MeldKind.KONG_CONCEALED,
}


def _meld_kind(kind: object) -> MeldKind:
    if isinstance(kind, MeldKind):
        return kind
    if isinstance(kind, str):
        try:
            return MeldKind(kind)
        except ValueError:
            pass
        if kind in _MELD_ALIASES:
            return _MELD_ALIASES[kind]
        raise InvalidArgumentError(
            f"meld kind: expected pung, kong, kong_added or kong_concealed, got {shown(kind)}"
        )
    raise InvalidArgumentError(f"meld kind: expected a MeldKind or a str, got {shown(kind)}")


@dataclass(frozen=True)
class Meld:
    """A declared meld: its :class:`MeldKind` and its tile kind (0..26).

    A str kind is coerced (``"pung"``, ``"kong"``, ``"kong_added"``, ``"kong_concealed"``, or
    the Chinese 碰 / 明杠 / 直杠 / 杠 / 补杠 / 弯杠 / 面下杠 / 暗杠).

    >>> m = Meld("pung", 13)
    >>> m == Meld.parse("pung:5p"), str(m), m.size, m.is_kong
    (True, 'pung:5p', 3, False)
    >>> Meld.parse("暗杠:9万").is_concealed
    True
    >>> Meld("pung", 27)
    Traceback (most recent call last):
        ...
    mjfast.errors.InvalidArgumentError: meld tile: expected a kind index 0..26, got 27
    """

    kind: MeldKind
    tile: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", _meld_kind(self.kind))
        object.__setattr__(self, "tile", as_kind(self.tile, "meld tile"))

    @property
    def size(self) -> int:
        """Number of tiles in the meld: 3 (pung) or 4 (kong)."""
        return self.kind.size

    @property
    def is_kong(self) -> bool:
        """True for the three kong kinds."""
        return self.kind is not MeldKind.PUNG

    @property
    def is_concealed(self) -> bool:
        """True only for a concealed kong (暗杠)."""
        return self.kind is MeldKind.KONG_CONCEALED

    def __str__(self) -> str:
        return f"{self.kind.value}:{format_tile(self.tile)}"

    @classmethod
    def parse(cls, s: str) -> Meld:
        """Parse ``"KIND:TILE"``, e.g. ``"pung:5p"``, ``"kong_concealed:🀇"``, ``"碰:5筒"``.

        Raises:
            TileParseError: naming the position and the problem.
        """
        if not isinstance(s, str):
            raise InvalidArgumentError(f"meld: expected a str like 'pung:5p', got {shown(s)}")
        colon = s.find(":")
        if colon < 0:
            colon = s.find("：")  # full-width colon
        if colon < 0:
            raise TileParseError(f"meld {excerpt(s)}: expected 'KIND:TILE', e.g. 'pung:5p'")
        name = s[:colon].strip()
        try:
            kind = _meld_kind(name)
        except ValueError as exc:
            start = len(s[:colon]) - len(s[:colon].lstrip())
            raise TileParseError(f"position {start} of {excerpt(s, start)}: {exc}") from None
        tile, n = count_tiles(s, colon + 1)
        if n != 1:
            raise TileParseError(
                f"meld {excerpt(s, colon)}: expected exactly one tile after ':', got {n}"
            )
        return cls(kind, tile)


def parse_melds(melds: Iterable[str | Meld] | str | Meld | None) -> tuple[Meld, ...]:
    """Normalise melds: None, a Meld, a str, or an iterable mixing Meld objects and strs.

    A str may hold several melds separated by commas or whitespace.

    >>> [str(m) for m in parse_melds(["pung:5p", Meld("kong", 0)])]
    ['pung:5p', 'kong:1m']
    >>> [str(m) for m in parse_melds("pung:5p, kong_concealed:9s")]
    ['pung:5p', 'kong_concealed:9s']
    >>> parse_melds(None)
    ()
    """
    if melds is None:
        return ()
    if isinstance(melds, Meld):
        return (melds,)
    if isinstance(melds, str):
        try:
            return tuple(Meld.parse(part) for part in re.split(r"[,，\s]+", melds) if part)
        except TileParseError as exc:
            raise TileParseError(f"melds: {exc}") from None
    out = []
    try:
        items = list(melds)
    except TypeError:
        raise InvalidArgumentError(
            f"melds: expected None, a str, a Meld or an iterable of them, got {shown(melds)}"
        ) from None
    for i, item in enumerate(items):
        if isinstance(item, Meld):
            out.append(item)
        elif isinstance(item, str):
            try:
                out.append(Meld.parse(item))
            except TileParseError as exc:
                raise TileParseError(f"melds[{i}]: {exc}") from None
        else:
            raise InvalidArgumentError(f"melds[{i}]: expected a Meld or a str, got {shown(item)}")
    return tuple(out)


def melds_to_counts(melds: Iterable[str | Meld] | str | Meld | None) -> np.ndarray:
    """Tiles per kind held in melds: a ``(27,)`` ``uint8`` array, 3 per pung, 4 per kong.

    Raises:
        InvalidHandError: a kind is melded twice, or there are more than 4 melds.

    >>> melds_to_counts(["pung:5p", "kong:1m"]).nonzero()[0].tolist()
    [0, 13]
    >>> melds_to_counts(["pung:5p", "kong:5p"])
    Traceback (most recent call last):
        ...
    mjfast.errors.InvalidHandError: melds[1]: kind 5p is melded twice
    """
    parsed = parse_melds(melds)
    if len(parsed) > 4:
        raise InvalidHandError(f"melds: {len(parsed)} melds (max 4)")
    counts = np.zeros(NUM_KINDS, dtype=np.uint8)
    for i, meld in enumerate(parsed):
        if counts[meld.tile]:
            raise InvalidHandError(f"melds[{i}]: kind {format_tile(meld.tile)} is melded twice")
        counts[meld.tile] = meld.size
    return counts
