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
mjfast.errors.TileParseError: position 4 of '1234z': honour tiles (z) are not used in Sichuan mahjong (only m, p, s)
>>> Meld.parse("pung:5p")
Meld(kind=<MeldKind.PUNG: 'pung'>, tile=13)
"""

from __future__ import annotations

import enum
import operator
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from mjfast.errors import InvalidHandError, TileParseError

__all__ = [
    "NUM_KINDS",
    "SUITS",
    "Meld",
    "MeldKind",
    "format_hand",
    "format_tile",
    "melds_to_counts",
    "parse_hand",
    "parse_melds",
    "parse_tile",
]

NUM_KINDS: int = 27
"""Number of tile kinds (3 suits x 9 ranks)."""

SUITS: str = "mps"
"""Suit letters in kind order: ``SUITS[kind // 9]``."""

Style = Literal["mpsz", "zh", "unicode"]
_STYLES = ("mpsz", "zh", "unicode")

# Suit characters accepted after digits, mapped to the suit index.
_SUIT_OF_CHAR: dict[str, int] = {
    "m": 0, "万": 0, "萬": 0,
    "p": 1, "筒": 1, "饼": 1, "餅": 1,
    "s": 2, "条": 2, "條": 2, "索": 2,
}
_ZH_SUIT = "万筒条"

# Unicode mahjong tiles (U+1F007.. characters, U+1F010.. bamboo, U+1F019.. dots).
_UNICODE_BASE = (0x1F007, 0x1F019, 0x1F010)  # first code point of rank 1, per suit m, p, s
_KIND_OF_UNICODE: dict[str, int] = {
    chr(_UNICODE_BASE[suit] + rank): suit * 9 + rank for suit in range(3) for rank in range(9)
}
_UNICODE_OF_KIND: tuple[str, ...] = tuple(
    chr(_UNICODE_BASE[k // 9] + k % 9) for k in range(NUM_KINDS)
)

# Characters that are mahjong tiles, but not tiles of this game: named in the error message.
_NOT_IN_GAME: dict[str, str] = {}
for _c in "zZ":
    _NOT_IN_GAME[_c] = f"honour tiles ({_c}) are not used in Sichuan mahjong (only m, p, s)"
for _c in "东南西北中发白東發":
    _NOT_IN_GAME[_c] = f"honour tile {_c!r} is not used in Sichuan mahjong (only m, p, s)"
for _cp in range(0x1F000, 0x1F007):
    _NOT_IN_GAME[chr(_cp)] = (
        f"honour tile {chr(_cp)!r} (U+{_cp:04X}) is not used in Sichuan mahjong (only m, p, s)"
    )
for _cp in range(0x1F022, 0x1F02A):
    _NOT_IN_GAME[chr(_cp)] = (
        f"flower tile {chr(_cp)!r} (U+{_cp:04X}) is not used in Sichuan mahjong"
    )
_NOT_IN_GAME[chr(0x1F02A)] = "joker tile '\U0001f02a' (U+1F02A) is not used in Sichuan mahjong"
_NOT_IN_GAME[chr(0x1F02B)] = "the tile back '\U0001f02b' (U+1F02B) is not a tile"
for _c in "MPS":
    _NOT_IN_GAME[_c] = f"unknown character {_c!r} (suit letters are lowercase: m, p, s)"
del _c, _cp

_DIGITS = "0123456789"


def _fail(text: str, pos: int, problem: str) -> TileParseError:
    return TileParseError(f"position {pos} of {text!r}: {problem}")


def _scan(text: str, start: int = 0) -> list[tuple[int, int]]:
    """Return ``[(kind, position), ...]`` for every tile in ``text[start:]``, in order.

    Positions are indices into *text*; a digit-notation tile's position is its digit's.
    """
    if not isinstance(text, str):
        raise TypeError(f"expected a str of tiles, got {type(text).__name__}")
    tiles: list[tuple[int, int]] = []
    pending: list[tuple[int, int]] = []  # (rank 0..8, position) of digits awaiting a suit

    def unfinished() -> TileParseError:
        start = pending[0][1]
        digits = "".join(str(r + 1) for r, _ in pending)
        return _fail(text, start, f"digits {digits!r} have no suit after them "
                                  "(expected m, p or s right after the digits)")

    for pos in range(start, len(text)):
        ch = text[pos]
        if ch in _DIGITS:
            if ch == "0":
                raise _fail(text, pos, "digit 0 is not a tile (ranks are 1-9; "
                                       "red fives are not used in Sichuan mahjong)")
            pending.append((int(ch) - 1, pos))
        elif ch in _SUIT_OF_CHAR:
            if not pending:
                raise _fail(text, pos, f"suit {ch!r} has no digits before it")
            suit = _SUIT_OF_CHAR[ch]
            tiles.extend((suit * 9 + rank, p) for rank, p in pending)
            pending.clear()
        elif ch in _KIND_OF_UNICODE:
            if pending:
                raise unfinished()
            tiles.append((_KIND_OF_UNICODE[ch], pos))
        elif ch.isspace():
            if pending:
                raise unfinished()
        elif ch in _NOT_IN_GAME:
            raise _fail(text, pos, _NOT_IN_GAME[ch])
        else:
            raise _fail(text, pos, f"unknown character {ch!r} (U+{ord(ch):04X})")
    if pending:
        raise unfinished()
    return tiles


def parse_hand(s: str) -> np.ndarray:
    """Parse a string of tiles into a ``(27,)`` ``uint8`` count array.

    Accepts the mpsz notation (``"123m456p789s"``), Chinese suit characters
    (``"123万456筒789条"``, also ``饼`` and ``索``), the Unicode tiles 🀇-🀏 / 🀙-🀡 / 🀐-🀘, and
    whitespace between groups (a group's digits and its suit must be adjacent). The empty
    string is the empty hand. No kind may appear more than 4 times.

    Raises:
        TileParseError: naming the 0-based position and the problem (honour or flower tiles,
            the digit 0, digits without a suit, an unknown character, a fifth copy).
        TypeError: *s* is not a str.

    >>> parse_hand("19m19p").nonzero()[0].tolist()
    [0, 8, 9, 17]
    >>> int(parse_hand("5555p")[13])
    4
    >>> parse_hand("55555p")
    Traceback (most recent call last):
        ...
    mjfast.errors.TileParseError: position 4 of '55555p': tile 5p appears 5 times (max 4)
    >>> parse_hand("123")
    Traceback (most recent call last):
        ...
    mjfast.errors.TileParseError: position 0 of '123': digits '123' have no suit after them (expected m, p or s right after the digits)
    """
    counts = np.zeros(NUM_KINDS, dtype=np.uint8)
    for kind, pos in _scan(s):
        if counts[kind] == 4:
            raise _fail(s, pos, f"tile {format_tile(kind)} appears 5 times (max 4)")
        counts[kind] += 1
    return counts


def parse_tile(s: str) -> int:
    """Parse exactly one tile into its kind index 0..26.

    >>> parse_tile("5p"), parse_tile("5筒"), parse_tile("🀝"), parse_tile(" 9s ")
    (13, 13, 13, 26)
    >>> parse_tile("55p")
    Traceback (most recent call last):
        ...
    mjfast.errors.TileParseError: expected exactly one tile, got 2 in '55p'
    """
    tiles = _scan(s)
    if len(tiles) != 1:
        raise TileParseError(f"expected exactly one tile, got {len(tiles)} in {s!r}")
    return tiles[0][0]


def _check_style(style: str) -> None:
    if style not in _STYLES:
        raise ValueError(f"unknown style {style!r} (expected 'mpsz', 'zh' or 'unicode')")


def _check_kind(kind: object, what: str = "tile") -> int:
    if isinstance(kind, (bool, np.bool_)):
        raise TypeError(f"{what} must be an int kind index 0..26, got a bool")
    try:
        k = operator.index(kind)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(
            f"{what} must be an int kind index 0..26, got {type(kind).__name__} {kind!r}"
        ) from None
    if not 0 <= k < NUM_KINDS:
        raise ValueError(f"{what} must be a kind index 0..26, got {k}")
    return k


def format_tile(kind: int, style: Style = "mpsz") -> str:
    """Format one tile kind (0..26).

    >>> format_tile(13), format_tile(13, "zh"), format_tile(13, "unicode")
    ('5p', '5筒', '🀝')
    """
    k = _check_kind(kind, "kind")
    _check_style(style)
    if style == "unicode":
        return _UNICODE_OF_KIND[k]
    letters = SUITS if style == "mpsz" else _ZH_SUIT
    return f"{k % 9 + 1}{letters[k // 9]}"


def format_hand(counts: Sequence[int] | np.ndarray, style: Style = "mpsz") -> str:
    """Format a 27-count hand; suits in the order m, p, s, empty suits omitted.

    *counts* is any length-27 sequence of non-negative ints (a count above 4 is printed as it
    is, so that error messages can show bad hands).

    >>> h = parse_hand("789s123m456p")
    >>> format_hand(h), format_hand(h, "zh"), format_hand(h, "unicode")
    ('123m456p789s', '123万456筒789条', '🀇🀈🀉🀜🀝🀞🀖🀗🀘')
    >>> format_hand([0] * 27)
    ''
    """
    _check_style(style)
    values = _counts_list(counts)
    if style == "unicode":
        return "".join(_UNICODE_OF_KIND[k] * values[k] for k in range(NUM_KINDS))
    letters = SUITS if style == "mpsz" else _ZH_SUIT
    parts = []
    for suit in range(3):
        digits = "".join(str(r + 1) * values[suit * 9 + r] for r in range(9))
        if digits:
            parts.append(digits + letters[suit])
    return "".join(parts)


def _counts_list(counts: Sequence[int] | np.ndarray, what: str = "counts") -> list[int]:
    """27 non-negative ints from a sequence of counts (no upper bound: callers check theirs)."""
    if isinstance(counts, (str, bytes)):
        raise TypeError("format_hand takes 27 counts; parse a string with parse_hand first")
    try:
        n = len(counts)
    except TypeError:
        raise TypeError(f"{what}: expected 27 counts, got {type(counts).__name__}") from None
    if n != NUM_KINDS:
        raise InvalidHandError(f"{what}: expected 27 counts, got {n}")
    values = []
    for k, c in enumerate(counts):
        if isinstance(c, (bool, np.bool_)):
            raise InvalidHandError(f"{what}[{k}] is a bool, expected an int")
        try:
            v = operator.index(c)
        except TypeError:
            raise InvalidHandError(
                f"{what}[{k}] must be an int, got {type(c).__name__} {c!r}"
            ) from None
        if v < 0:
            raise InvalidHandError(f"{what}[{k}] is negative ({v})")
        values.append(v)
    return values


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
        """Number of tiles: 3 for a pung, 4 for any kong."""
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
        raise ValueError(
            f"unknown meld kind {kind!r} (expected pung, kong, kong_added or kong_concealed)"
        )
    raise TypeError(f"meld kind must be a MeldKind or str, got {type(kind).__name__}")


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
    ValueError: meld tile must be a kind index 0..26, got 27
    """

    kind: MeldKind
    tile: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", _meld_kind(self.kind))
        object.__setattr__(self, "tile", _check_kind(self.tile, "meld tile"))

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
            raise TypeError(f"expected a str like 'pung:5p', got {type(s).__name__}")
        colon = s.find(":")
        if colon < 0:
            colon = s.find("：")  # full-width colon
        if colon < 0:
            raise TileParseError(f"meld {s!r}: expected 'KIND:TILE', e.g. 'pung:5p'")
        name = s[:colon].strip()
        try:
            kind = _meld_kind(name)
        except ValueError as exc:
            start = len(s[:colon]) - len(s[:colon].lstrip())
            raise TileParseError(f"position {start} of {s!r}: {exc}") from None
        tiles = _scan(s, colon + 1)
        if len(tiles) != 1:
            raise TileParseError(
                f"meld {s!r}: expected exactly one tile after ':', got {len(tiles)}"
            )
        return cls(kind, tiles[0][0])


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
        return tuple(Meld.parse(part) for part in re.split(r"[,，\s]+", melds) if part)
    out = []
    try:
        items = list(melds)
    except TypeError:
        raise TypeError(
            f"melds must be None, a str, a Meld or an iterable of them, "
            f"got {type(melds).__name__}"
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
            raise TypeError(f"melds[{i}]: expected a Meld or a str, got {type(item).__name__}")
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
        raise InvalidHandError(f"{len(parsed)} melds (max 4)")
    counts = np.zeros(NUM_KINDS, dtype=np.uint8)
    for i, meld in enumerate(parsed):
        if counts[meld.tile]:
            raise InvalidHandError(f"melds[{i}]: kind {format_tile(meld.tile)} is melded twice")
        counts[meld.tile] = meld.size
    return counts
