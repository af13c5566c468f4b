"""The strict reader of tile text: the character tables and the scanner behind every parser.

Private: :mod:`mjfast.tiles` is the public face (``parse_hand``, ``parse_tile``, ``format_tile``).
This module depends on nothing but :mod:`mjfast.errors`, so that the argument checks
(:mod:`mjfast._args`) and the notation (:mod:`mjfast.tiles`) can both build on it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Literal

import numpy as np

from mjfast.errors import InvalidArgumentError, TileParseError

__all__ = [
    "NUM_KINDS", "STYLES", "SUITS", "UNICODE_OF_KIND", "ZH_SUITS", "Style", "count_tiles",
    "excerpt", "kind_name", "parse_counts", "parse_hand", "parse_tile", "scan",
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

_RANKS = frozenset("123456789")
_DIGIT_RUN = re.compile(r"[1-9]+")
_SPACE_RUN = re.compile(r"\s+")
_WINDOW = 40  # characters of the input a message shows


def excerpt(text: str, pos: int = 0) -> str:
    """*text* for a message: its repr when short, else the 40 characters around *pos* with
    ``...`` where it is cut and the total length (a 10 MB input gives a short message).

    >>> excerpt("55555p", 4)
    "'55555p'"
    >>> excerpt("1" * 100 + "z" + "1" * 100, 100)
    "...'11111111111111111111z1111111111111111111'... (201 chars)"
    """
    if len(text) <= _WINDOW:
        return repr(text)
    lo = max(0, min(pos - _WINDOW // 2, len(text) - _WINDOW))
    hi = lo + _WINDOW
    return (f"{'...' if lo else ''}{text[lo:hi]!r}{'...' if hi < len(text) else ''} "
            f"({len(text)} chars)")


def _fail(text: str, pos: int, problem: str) -> TileParseError:
    return TileParseError(f"position {pos} of {excerpt(text, pos)}: {problem}")


def _char_error(text: str, pos: int) -> TileParseError:
    """The error for a character that cannot start a tile."""
    ch = text[pos]
    if ch == "0":
        return _fail(text, pos, "digit 0 is not a tile (ranks are 1-9; "
                                "red fives are not used in Sichuan mahjong)")
    if ch in _SUIT_OF_CHAR:
        return _fail(text, pos, f"suit {ch!r} has no digits before it")
    if ch in _NOT_IN_GAME:
        return _fail(text, pos, _NOT_IN_GAME[ch])
    return _fail(text, pos, f"unknown character {ch!r} (U+{ord(ch):04X})")


def _no_suit(text: str, pos: int, stop: int) -> TileParseError:
    """The error for the digits ``text[pos:stop]`` with no suit after them."""
    digits = repr(text[pos:min(stop, pos + _WINDOW)])
    if stop - pos > _WINDOW:
        digits += f"... ({stop - pos} digits)"
    return _fail(text, pos, f"digits {digits} have no suit after them "
                            "(expected m, p or s right after the digits)")


def scan(text: str, start: int = 0) -> Iterator[tuple[int, int]]:
    """Yield ``(kind, position)`` for every tile in ``text[start:]``, in order; a bad
    character raises when the scan reaches it.

    Positions are indices into *text*; a digit-notation tile's position is its digit's. Memory
    is O(1) whatever the length: runs of digits and of whitespace are matched in place.
    """
    if not isinstance(text, str):
        raise InvalidArgumentError(f"expected a str of tiles, got {type(text).__name__}")
    return _scan(text, start)


def _scan(text: str, pos: int) -> Iterator[tuple[int, int]]:
    end = len(text)
    while pos < end:
        ch = text[pos]
        if ch in _KIND_OF_UNICODE:
            yield _KIND_OF_UNICODE[ch], pos
            pos += 1
        elif ch in _RANKS:  # digits: the very next character must be their suit
            stop = _DIGIT_RUN.match(text, pos).end()  # type: ignore[union-attr]
            suit = _SUIT_OF_CHAR.get(text[stop]) if stop < end else None
            if suit is None:
                if stop < end and not text[stop].isspace() and text[stop] not in _KIND_OF_UNICODE:
                    raise _char_error(text, stop)
                raise _no_suit(text, pos, stop)
            base = 9 * suit - 49  # ord("1")
            for p in range(pos, stop):
                yield base + ord(text[p]), p
            pos = stop + 1
        elif ch.isspace():
            pos = _SPACE_RUN.match(text, pos).end()  # type: ignore[union-attr]
        else:
            raise _char_error(text, pos)


def count_tiles(text: str, start: int = 0) -> tuple[int, int]:
    """The kind of the first tile in ``text[start:]`` (-1 if none) and the number of tiles,
    reading all of it (a bad character raises)."""
    first, n = -1, 0
    for kind, _ in scan(text, start):
        if not n:
            first = kind
        n += 1
    return first, n


def parse_hand(s: str) -> np.ndarray[tuple[int], np.dtype[np.uint8]]:
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


# Short plain mpsz text (digits 1-9 right before m, p or s; whitespace between groups) is
# counted without the scanner; it reads these strings exactly as scan() does. Only short text:
# a long one would make findall build a list as long as the input.
_PLAIN_HAND = re.compile(r"(?:\s*[1-9]+[mps])*\s*")
_PLAIN_GROUP = re.compile(r"([1-9]+)([mps])")
_PLAIN_CHARS = 256


def parse_counts(s: str) -> bytes:
    """The 27 counts of a hand string as bytes: :func:`parse_hand` without the array.

    >>> parse_counts("1m 9s")[::26]
    b'\\x01\\x01'
    """
    if isinstance(s, str) and len(s) <= _PLAIN_CHARS and _PLAIN_HAND.fullmatch(s):
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
    kind, n = count_tiles(s)
    if n != 1:
        raise TileParseError(f"expected exactly one tile, got {n} in {excerpt(s)}")
    return kind


def kind_name(kind: int) -> str:
    """A checked kind index in mpsz notation, for messages: ``kind_name(13) == "5p"``."""
    return f"{kind % 9 + 1}{SUITS[kind // 9]}"
