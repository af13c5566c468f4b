"""Tests for mjfast.tiles: strict parsing, formatting, melds."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjfast.errors import InvalidArgumentError, InvalidHandError, TileParseError
from mjfast.tiles import (
    NUM_KINDS,
    SUITS,
    Meld,
    MeldKind,
    format_hand,
    format_tile,
    melds_to_counts,
    parse_hand,
    parse_melds,
    parse_tile,
)


def counts_of(*kinds: int) -> list[int]:
    c = [0] * 27
    for k in kinds:
        c[k] += 1
    return c


# ------------------------------------------------------------------------------- constants


def test_constants():
    assert NUM_KINDS == 27
    assert SUITS == "mps"


# ------------------------------------------------------------------------------- parse_hand


def test_parse_hand_mpsz():
    h = parse_hand("123m456p789s")
    assert isinstance(h, np.ndarray)
    assert h.dtype == np.uint8 and h.shape == (27,)
    assert h.tolist() == counts_of(0, 1, 2, 12, 13, 14, 24, 25, 26)


def test_parse_hand_empty_is_empty_hand():
    assert parse_hand("").tolist() == [0] * 27
    assert parse_hand("   ").tolist() == [0] * 27


@pytest.mark.parametrize(
    "text",
    [
        "123万456筒789条",
        "123万456饼789索",
        "123萬456餅789條",
        "🀇🀈🀉🀜🀝🀞🀖🀗🀘",
        "123m 456p 789s",
        "  123m\t456p\n789s  ",
        "789s456p123m",
        "1m2m3m4p5p6p7s8s9s",
        "123m🀜🀝🀞789条",
        "123m　456p　789s",  # full-width (ideographic) spaces
    ],
)
def test_parse_hand_notations_agree(text):
    assert parse_hand(text).tolist() == counts_of(0, 1, 2, 12, 13, 14, 24, 25, 26)


def test_unicode_mapping_every_kind():
    # U+1F007..U+1F00F characters 1-9 (m), U+1F010..U+1F018 bamboo 1-9 (s),
    # U+1F019..U+1F021 dots 1-9 (p)
    for rank in range(9):
        assert parse_tile(chr(0x1F007 + rank)) == rank
        assert parse_tile(chr(0x1F010 + rank)) == 18 + rank
        assert parse_tile(chr(0x1F019 + rank)) == 9 + rank
    assert parse_tile("🀇") == 0 and parse_tile("🀏") == 8
    assert parse_tile("🀙") == 9 and parse_tile("🀡") == 17
    assert parse_tile("🀐") == 18 and parse_tile("🀘") == 26


def test_parse_hand_four_copies_ok():
    h = parse_hand("5555p1111m9999s")
    assert h[13] == 4 and h[0] == 4 and h[26] == 4 and h.sum() == 12


def error_of(text: str) -> str:
    with pytest.raises(TileParseError) as info:
        parse_hand(text)
    assert isinstance(info.value, ValueError)
    return str(info.value)


@pytest.mark.parametrize(
    "text, pos, fragment",
    [
        # honours in every notation
        ("123m1z", 5, "honour tiles (z)"),
        ("1234567z", 7, "honour tiles (z)"),
        ("11Z", 2, "honour tiles (Z)"),
        ("123m东", 4, "honour tile '东'"),
        ("南", 0, "honour tile '南'"),
        ("123m西", 4, "honour tile '西'"),
        ("北", 0, "honour tile '北'"),
        ("中", 0, "honour tile '中'"),
        ("12m发", 3, "honour tile '发'"),
        ("白", 0, "honour tile '白'"),
        ("東", 0, "honour tile '東'"),
        ("發", 0, "honour tile '發'"),
        ("🀇🀀", 1, "honour tile '🀀'"),
        ("🀄", 0, "honour tile '🀄'"),
        ("🀆", 0, "honour tile '🀆'"),
        # flowers and other mahjong code points
        ("🀢", 0, "flower tile"),
        ("1m🀩", 2, "flower tile"),
        ("🀪", 0, "joker"),
        ("🀫", 0, "tile back"),
        # the digit 0
        ("0m", 0, "digit 0 is not a tile"),
        ("123m505p", 5, "digit 0 is not a tile"),
        # digits without a following suit
        ("123", 0, "digits '123' have no suit"),
        ("123m45", 4, "digits '45' have no suit"),
        ("123 456p", 0, "digits '123' have no suit"),
        ("12 m", 0, "digits '12' have no suit"),
        ("12🀇", 0, "digits '12' have no suit"),
        # a suit without digits
        ("m", 0, "suit 'm' has no digits before it"),
        ("123mm", 4, "suit 'm' has no digits before it"),
        ("🀇p", 1, "suit 'p' has no digits before it"),
        ("万", 0, "suit '万' has no digits before it"),
        # unknown characters
        ("123x", 3, "unknown character 'x'"),
        ("1M", 1, "suit letters are lowercase"),
        ("1m,2m", 2, "unknown character ','"),
        ("１m", 0, "unknown character '１'"),
        ("1m\x00", 2, "unknown character"),
    ],
)
def test_parse_hand_errors(text, pos, fragment):
    msg = error_of(text)
    assert msg.startswith(f"position {pos} of {text!r}: "), msg
    assert fragment in msg


def test_fifth_copy_error():
    msg = error_of("55555p")
    assert msg == "position 4 of '55555p': tile 5p appears 5 times (max 4)"
    msg = error_of("5p 5筒 🀝 5饼 55p")
    assert msg.endswith("tile 5p appears 5 times (max 4)")
    assert msg.startswith("position 11 of")
    assert "tile 1m appears 5 times (max 4)" in error_of("1111m2p1m")


def test_parse_hand_type_error():
    with pytest.raises(TypeError):
        parse_hand(123)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        parse_hand(b"123m")  # type: ignore[arg-type]


# ------------------------------------------------------------------------------- parse_tile


@pytest.mark.parametrize(
    "text, kind",
    [("1m", 0), ("9m", 8), ("5p", 13), ("5筒", 13), ("5饼", 13), ("🀝", 13), ("1s", 18),
     ("9索", 26), ("9条", 26), ("3万", 2), (" 7s ", 24)],
)
def test_parse_tile(text, kind):
    assert parse_tile(text) == kind


@pytest.mark.parametrize("text, n", [("", 0), ("  ", 0), ("12m", 2), ("🀇🀇", 2)])
def test_parse_tile_wrong_count(text, n):
    with pytest.raises(TileParseError, match=f"expected exactly one tile, got {n}"):
        parse_tile(text)


def test_parse_tile_errors_name_position():
    with pytest.raises(TileParseError, match=re.escape("position 1 of '5z'")):
        parse_tile("5z")
    with pytest.raises(TileParseError, match="digit 0"):
        parse_tile("0p")


# ------------------------------------------------------------------------------- format


def test_format_tile_styles():
    assert [format_tile(k) for k in (0, 8, 9, 13, 17, 18, 26)] == [
        "1m", "9m", "1p", "5p", "9p", "1s", "9s"]
    assert format_tile(13, "zh") == "5筒"
    assert format_tile(0, "zh") == "1万"
    assert format_tile(26, "zh") == "9条"
    assert format_tile(13, "unicode") == "🀝"
    assert format_tile(0, "unicode") == "\U0001F007"
    assert format_tile(18, "unicode") == "\U0001F010"
    assert format_tile(9, "unicode") == "\U0001F019"


@pytest.mark.parametrize("bad", [-1, 27, 100])
def test_format_tile_range(bad):
    with pytest.raises(ValueError):
        format_tile(bad)


def test_format_tile_types_and_style():
    with pytest.raises(TypeError):
        format_tile("5p")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        format_tile(True)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match="^style: expected 'mpsz', 'zh' or 'unicode', got "
                                                   "'tenhou'$"):
        format_tile(3, "tenhou")  # type: ignore[arg-type]
    assert format_tile(np.uint8(13)) == "5p"


def test_format_hand_styles():
    h = parse_hand("789s123m456p")
    assert format_hand(h) == "123m456p789s"
    assert format_hand(h, "zh") == "123万456筒789条"
    assert format_hand(h, "unicode") == "🀇🀈🀉🀜🀝🀞🀖🀗🀘"
    assert format_hand(parse_hand("11s99m")) == "99m11s"  # suits in m, p, s order
    assert format_hand(parse_hand("5555p")) == "5555p"
    assert format_hand([0] * 27) == ""
    assert format_hand([0] * 27, "zh") == ""
    assert format_hand(tuple(h.tolist())) == "123m456p789s"


def test_format_hand_bad_input():
    with pytest.raises(InvalidHandError, match=r"^counts: expected 27 counts \(1m..9m, 1p..9p, 1s..9s\), "
                                               r"got 26$"):
        format_hand([0] * 26)
    with pytest.raises(InvalidHandError, match="negative"):
        format_hand([-1] + [0] * 26)
    with pytest.raises(InvalidArgumentError, match=r"^counts\[0\]: expected an int, got 0.5$"):
        format_hand([0.5] + [0] * 26)
    with pytest.raises(TypeError):
        format_hand("123m")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="^style: expected"):
        format_hand([0] * 27, "x")  # type: ignore[arg-type]


# ------------------------------------------------------------------------------- round trips

hands = st.lists(st.integers(0, 4), min_size=27, max_size=27)


@settings(max_examples=300)
@given(hands, st.sampled_from(["mpsz", "zh", "unicode"]))
def test_round_trip(counts, style):
    text = format_hand(counts, style)
    assert parse_hand(text).tolist() == counts
    assert format_hand(parse_hand(text), style) == text


@settings(max_examples=200)
@given(hands, st.randoms(use_true_random=False))
def test_round_trip_shuffled_mixed(counts, rnd):
    """Tiles in any order and any notation, space-separated, parse to the same counts."""
    pieces = []
    for k, c in enumerate(counts):
        for _ in range(c):
            style = rnd.choice(["mpsz", "zh", "unicode"])
            tile = format_tile(k, style)
            if style == "zh" and k // 9 != 0 and rnd.random() < 0.5:
                tile = tile[0] + ("饼" if k // 9 == 1 else "索")
            pieces.append(tile)
    rnd.shuffle(pieces)
    assert parse_hand(" ".join(pieces)).tolist() == counts
    assert parse_hand("".join(pieces)).tolist() == counts


def test_round_trip_every_tile():
    for k in range(27):
        for style in ("mpsz", "zh", "unicode"):
            assert parse_tile(format_tile(k, style)) == k


# ------------------------------------------------------------------------------- melds


def test_meld_kind_enum():
    assert MeldKind.PUNG == "pung"
    assert MeldKind("kong") is MeldKind.KONG
    assert [k.value for k in MeldKind] == ["pung", "kong", "kong_added", "kong_concealed"]
    assert MeldKind.PUNG.size == 3 and MeldKind.KONG_ADDED.size == 4
    assert MeldKind.KONG_CONCEALED.zh == "暗杠"
    assert str(MeldKind.KONG_ADDED) == "kong_added"


@pytest.mark.parametrize(
    "kind, size, is_kong, is_concealed",
    [
        ("pung", 3, False, False),
        ("kong", 4, True, False),
        ("kong_added", 4, True, False),
        ("kong_concealed", 4, True, True),
    ],
)
def test_meld_properties(kind, size, is_kong, is_concealed):
    m = Meld(kind, 13)  # type: ignore[arg-type]
    assert m.kind is MeldKind(kind)
    assert m.tile == 13
    assert m.size == size and m.is_kong is is_kong and m.is_concealed is is_concealed
    assert str(m) == f"{kind}:5p"
    assert Meld.parse(str(m)) == m
    assert hash(m) == hash(Meld(MeldKind(kind), 13))


def test_meld_is_frozen():
    m = Meld("pung", 0)  # type: ignore[arg-type]
    with pytest.raises(AttributeError):
        m.tile = 3  # type: ignore[misc]


def test_meld_validation():
    with pytest.raises(ValueError, match="0..26, got 27"):
        Meld("pung", 27)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="got -1"):
        Meld("pung", -1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Meld("pung", "5p")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Meld("pung", 1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Meld("pung", True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="^meld kind: expected pung, kong, kong_added or kong_concealed, "
                                         "got 'chow'$"):
        Meld("chow", 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Meld(3, 3)  # type: ignore[arg-type]
    m = Meld("pung", np.int64(5))  # type: ignore[arg-type]
    assert m.tile == 5 and type(m.tile) is int


@pytest.mark.parametrize(
    "text, kind, tile",
    [
        ("pung:5p", MeldKind.PUNG, 13),
        ("kong:1m", MeldKind.KONG, 0),
        ("kong_added:9s", MeldKind.KONG_ADDED, 26),
        ("kong_concealed:🀇", MeldKind.KONG_CONCEALED, 0),
        (" pung : 5筒 ", MeldKind.PUNG, 13),
        ("碰:5筒", MeldKind.PUNG, 13),
        ("明杠:3万", MeldKind.KONG, 2),
        ("直杠:3万", MeldKind.KONG, 2),
        ("补杠:3条", MeldKind.KONG_ADDED, 20),
        ("弯杠:3索", MeldKind.KONG_ADDED, 20),
        ("暗杠：9万", MeldKind.KONG_CONCEALED, 8),
    ],
)
def test_meld_parse(text, kind, tile):
    assert Meld.parse(text) == Meld(kind, tile)


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("pung5p", "expected 'KIND:TILE'"),
        ("pong:5p", "position 0 of 'pong:5p': meld kind: expected pung, kong, kong_added or "
                    "kong_concealed, got 'pong'"),
        ("pung:5z", "position 6 of 'pung:5z': honour tiles (z)"),
        ("pung:0p", "position 5 of 'pung:0p': digit 0"),
        ("pung:5", "position 5 of 'pung:5': digits '5' have no suit"),
        ("pung:55p", "expected exactly one tile after ':', got 2"),
        ("pung:", "expected exactly one tile after ':', got 0"),
    ],
)
def test_meld_parse_errors(text, fragment):
    with pytest.raises(TileParseError) as info:
        Meld.parse(text)
    assert fragment in str(info.value)


def test_parse_melds():
    assert parse_melds(None) == ()
    assert parse_melds([]) == ()
    assert parse_melds("") == ()
    m = Meld("kong", 0)  # type: ignore[arg-type]
    assert parse_melds(m) == (m,)
    assert parse_melds(["pung:5p", m]) == (Meld("pung", 13), m)  # type: ignore[arg-type]
    assert parse_melds(("pung:5p",)) == (Meld("pung", 13),)  # type: ignore[arg-type]
    assert parse_melds("pung:5p, kong_concealed:9s  kong:1m") == (
        Meld("pung", 13), Meld("kong_concealed", 26), Meld("kong", 0))  # type: ignore[arg-type]
    assert parse_melds(x for x in ["pung:1m"]) == (Meld("pung", 0),)  # type: ignore[arg-type]


def test_parse_melds_errors():
    with pytest.raises(TileParseError, match=r"^melds\[1\]: position 0 of 'bad:1m'"):
        parse_melds(["pung:5p", "bad:1m"])
    with pytest.raises(TypeError, match=r"melds\[0\]"):
        parse_melds([13])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        parse_melds(5)  # type: ignore[arg-type]


def test_melds_to_counts():
    c = melds_to_counts(["pung:5p", "kong:1m", "kong_added:9s", "kong_concealed:2p"])
    assert c.dtype == np.uint8 and c.shape == (27,)
    expected = [0] * 27
    expected[13], expected[0], expected[26], expected[10] = 3, 4, 4, 4
    assert c.tolist() == expected
    assert melds_to_counts(None).tolist() == [0] * 27
    assert melds_to_counts("pung:5p").tolist()[13] == 3


def test_melds_to_counts_errors():
    with pytest.raises(InvalidHandError, match=r"melds\[1\]: kind 5p is melded twice"):
        melds_to_counts(["pung:5p", "kong_added:5p"])
    with pytest.raises(InvalidHandError, match="5 melds"):
        melds_to_counts(["pung:1m", "pung:2m", "pung:3m", "pung:4m", "pung:5m"])


def test_import_light():
    """mjfast.tiles needs numpy only (checked in a fresh interpreter)."""
    import subprocess
    import sys

    code = (
        "import sys, mjfast.tiles\n"
        "heavy = [m for m in ('hypothesis', 'pytest', 'scipy', 'pandas') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
