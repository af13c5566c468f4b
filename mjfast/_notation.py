"""The strict reader of tile text: the character tables and the scanner behind every parser.

Private: :mod:`mjfast.tiles` is the public face (``parse_hand``, ``parse_tile``, ``format_tile``).
This module depends on nothing but :mod:`mjfast.errors`, so that the argument checks
(:mod:`mjfast._args`) and the notation (:mod:`mjfast.tiles`) can both build on it.
"""

from __future__ import annotations

import re
from typing import Literal

import numpy as np

from mjfast.errors import InvalidArgumentError, TileParseError

__all__ = [
    "NUM_KINDS", "STYLES", "SUITS", "UNICODE_OF_KIND", "ZH_SUITS", "Style", "kind_name", "parse_counts",
    "parse_hand",
    "parse_tile", "scan",
]

NUM_KINDS: int = 27
"""Number of tile kinds (3 suits x 9 ranks)."""

SUITS: str = "mps"
"""Suit letters in kind order: ``SUITS[kind // 9]``."""

Style = Literal["mpsz", "zh", "unicode"]
STYLES = ("mpsz", "zh", "unicode")

# Suit characters accepted after digits, mapped to the suit index.
_SUIT_OF_CHAR: dict[str, int] = {
    "m": 0, "万": 0, "萬": 0,
    "p": 1, "筒": 1, "饼": 1, "餅": 1,
    "s": 2, "条": 2, "條": 2, "索": 2,
}
ZH_SUITS = "万筒条"

# Unicode mahjong tiles (U+1F007.. characters, U+1F010.. bamboo, U+1F019.. dots).
_UNICODE_BASE = (0x1F007, 0x1F019, 0x1F010)  # first code point of rank 1, per suit m, p, s
_KIND_OF_UNICODE: dict[str, int] = {
    chr(_UNICODE_BASE[suit] + rank): suit * 9 + rank for suit in range(3) for rank in range(9)
}
UNICODE_OF_KIND: tuple[str, ...] = tuple(
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


def scan(text: str, start: int = 0) -> list[tuple[int, int]]:
    """Return ``[(kind, position), ...]`` for every tile in ``text[start:]``, in order.

    Positions are indices into *text*; a digit-notation tile's position is its digit's.
    """
    if not isinstance(text, str):
        raise InvalidArgumentError(f"expected a str of tiles, got {type(text).__name__}")
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
    >>> parse_hand("123")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    mjfast.errors.TileParseError: position 0 of '123': digits '123' have no suit after them ...
    """
    return np.frombuffer(parse_counts(s), dtype=np.uint8).copy()


# Plain mpsz text (digits 1-9 right before m, p or s; whitespace between groups) is counted
# without the scanner; it reads these strings exactly as scan() does.
_PLAIN_HAND = re.compile(r"(?:\s*[1-9]+[mps])*\s*")
_PLAIN_GROUP = re.compile(r"([1-9]+)([mps])")


def parse_counts(s: str) -> bytes:
    """The 27 counts of a hand string as bytes: :func:`parse_hand` without the array.

    >>> parse_counts("1m 9s")[::26]
    b'\\x01\\x01'
    """
    if isinstance(s, str) and _PLAIN_HAND.fullmatch(s):
        counts = [0] * NUM_KINDS
        for digits, suit in _PLAIN_GROUP.findall(s):
            base = 9 * SUITS.index(suit) - 49  # ord("1")
            for d in digits:
                counts[base + ord(d)] += 1
        if max(counts) <= 4:
            return bytes(counts)
    counts = [0] * NUM_KINDS  # anything else, and a fifth copy (named by its position)
    for kind, pos in scan(s):
        if counts[kind] == 4:
            raise _fail(s, pos, f"tile {kind_name(kind)} appears 5 times (max 4)")
        counts[kind] += 1
    return bytes(counts)


def parse_tile(s: str) -> int:
    """Parse exactly one tile into its kind index 0..26.

    >>> parse_tile("5p"), parse_tile("5筒"), parse_tile("🀝"), parse_tile(" 9s ")
    (13, 13, 13, 26)
    >>> parse_tile("55p")
    Traceback (most recent call last):
        ...
    mjfast.errors.TileParseError: expected exactly one tile, got 2 in '55p'
    """
    tiles = scan(s)
    if len(tiles) != 1:
        raise TileParseError(f"expected exactly one tile, got {len(tiles)} in {s!r}")
    return tiles[0][0]


def kind_name(kind: int) -> str:
    """A checked kind index in mpsz notation, for messages: ``kind_name(13) == "5p"``."""
    return f"{kind % 9 + 1}{SUITS[kind // 9]}"
