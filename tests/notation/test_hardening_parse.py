"""Issue 15: huge tile text is read in small, linear memory and its errors show a window around
the position, not the whole input; format_hand refuses counts it cannot print sensibly;
mask_to_tiles takes ints only."""

from __future__ import annotations

import time
import tracemalloc

import numpy as np
import pytest

import mjfast
from mjfast.errors import InvalidArgumentError, InvalidHandError, TileParseError
from mjfast.tiles import MAX_PRINTED_COUNT, Meld, format_hand, parse_hand, parse_melds, parse_tile

MB = 1_000_000


def peak_bytes(fn, *args):
    """The peak memory traced while ``fn(*args)`` runs (its TileParseError, if any, returned)."""
    tracemalloc.start()
    try:
        try:
            result = fn(*args)
        except TileParseError as exc:
            result = exc
        return tracemalloc.get_traced_memory()[1], result
    finally:
        tracemalloc.stop()


# ----------------------------------------------------------------------- messages are windowed

@pytest.mark.parametrize("text, pos, problem", [
    ("1" * (3 * MB) + "z", 3 * MB, "honour"),
    ("1m" + " " * (4 * MB) + "0", 4 * MB + 2, "digit 0"),
    ("1" * (3 * MB), 0, "no suit"),
    ("1m " + " " * (3 * MB) + "9" * MB + " 1m", 3 * MB + 3, "no suit"),
    ("🀇" + " " * (2 * MB) + "x", 2 * MB + 1, "unknown character"),
], ids=["honour", "digit-0", "no-suit", "no-suit-late", "unknown"])
def test_parse_errors_show_a_window(text, pos, problem):
    with pytest.raises(TileParseError) as err:
        parse_hand(text)
    message = str(err.value)
    assert len(message) < 300, message[:300]
    assert f"position {pos} of " in message and problem in message
    assert f"({len(text)} chars)" in message


def test_short_inputs_are_shown_whole():
    with pytest.raises(TileParseError, match=r"^position 4 of '55555p': tile 5p appears 5 times"):
        parse_hand("55555p")
    with pytest.raises(TileParseError, match=r"^position 0 of '123': digits '123' have no suit"):
        parse_hand("123")


def test_tile_and_meld_errors_show_a_window():
    for call in (lambda: parse_tile("1m" * MB), lambda: Meld.parse("pung:" + "5p" * MB),
                 lambda: Meld.parse("x" * MB), lambda: parse_melds(["pung" + "x" * MB + ":5p"]),
                 lambda: mjfast.score("1m" * MB, win_tile="1m")):
        with pytest.raises(TileParseError) as err:
            call()
        assert len(str(err.value)) < 300, str(err.value)[:300]


# ------------------------------------------------------------------ memory is linear and small

@pytest.mark.parametrize("text", [
    "1" * (3 * MB),                          # digits without a suit
    "1" * (3 * MB) + "m",                    # one suit after millions of digits: a fifth copy
    "1m" * (2 * MB),                         # a fifth copy, early
    "123m456p789s" + " " * (3 * MB) + "55s",  # a valid hand, padded
    "🀇" * MB,                               # Unicode tiles
], ids=["digits", "fifth-late", "fifth-early", "padded", "unicode"])
def test_parsing_memory_is_small(text):
    start = time.perf_counter()
    peak, result = peak_bytes(parse_hand, text)
    assert peak < 100_000, peak  # the input itself is not counted: it exists before
    assert time.perf_counter() - start < 5.0
    if not isinstance(result, TileParseError):
        assert format_hand(result) == "123m456p55789s"


def test_scanning_a_huge_meld_or_tile_is_small():
    for fn, text in ((parse_tile, "  " * MB + "5p"), (Meld.parse, "kong:" + " " * (2 * MB) + "5p"),
                     (parse_tile, "5p" * MB)):
        peak, _ = peak_bytes(fn, text)
        assert peak < 100_000, (fn, peak)
    assert parse_tile("  " * MB + "5p") == 13


# ----------------------------------------------------------------------------- format_hand

@pytest.mark.parametrize("count", [MAX_PRINTED_COUNT + 1, 10**9, 10**30])
def test_format_hand_refuses_huge_counts(count):
    start = time.perf_counter()
    with pytest.raises(InvalidHandError, match=f"up to {MAX_PRINTED_COUNT}"):
        format_hand([count] + [0] * 26)
    with pytest.raises(InvalidHandError, match=f"up to {MAX_PRINTED_COUNT}"):
        format_hand(tuple([0] * 26 + [count]), "unicode")
    assert time.perf_counter() - start < 0.1


def test_format_hand_still_prints_small_overflows():
    assert format_hand([5] + [0] * 26) == "11111m"
    assert format_hand([MAX_PRINTED_COUNT] + [0] * 26) == "1" * MAX_PRINTED_COUNT + "m"
    assert format_hand(np.full(27, 255, dtype=np.uint8), "zh").count("万") == 1  # every uint8


# --------------------------------------------------------------------------- mask_to_tiles

@pytest.mark.parametrize("mask", ["7", 7.0, True, np.True_, None, [7], b"7"])
def test_mask_to_tiles_refuses_non_ints(mask):
    with pytest.raises(InvalidArgumentError, match="mask"):
        mjfast.mask_to_tiles(mask)


def test_mask_to_tiles_takes_ints():
    assert mjfast.mask_to_tiles(7) == [0, 1, 2]
    assert mjfast.mask_to_tiles(np.uint32(7)) == [0, 1, 2]
    assert mjfast.mask_to_tiles(np.int64(1 << 26)) == [26]
    with pytest.raises(InvalidArgumentError, match="27-bit"):
        mjfast.mask_to_tiles(1 << 27)
    with pytest.raises(InvalidArgumentError, match="27-bit"):
        mjfast.mask_to_tiles(-1)
