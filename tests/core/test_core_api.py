"""The public core API's arguments: every documented input check and error message (coerce
sentinels, out=, input forms, melds, void_suit and the other options), the result types, and
the docstring examples."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

import mjfast
from mjfast import (
    INVALID_MASK,
    INVALID_ROW,
    InvalidHandError,
    Meld,
    discards,
    effective_tiles,
    format_tile,
    is_win,
    mask_to_tiles,
    melds_to_counts,
    parse_hand,
    parse_tile,
    shanten,
    waits,
)
from mjfast.errors import InvalidArgumentError
from tests.strategies import mask_of, random_deals
from tests.twins import TWINS, check

# ------------------------------------------------------------------------ errors="coerce"


def test_coerce_sentinels():
    good13, good14 = parse_hand("123m456m789m11p23p"), parse_hand("123m456m789m11p234p")
    bad = parse_hand("123m456m789m11p2p")  # 12 tiles
    five = good13.copy()
    five[0] = 5
    h13 = np.stack([good13, bad, five, good13])
    h14 = np.stack([good14, bad, good14])
    sh = shanten(h13, errors="coerce")
    assert sh.tolist() == [0, INVALID_ROW, INVALID_ROW, 0] and INVALID_ROW == -100
    assert is_win(h14, errors="coerce").tolist() == [True, False, True]
    w = waits(h13, errors="coerce")
    assert w.dtype == np.uint32 and INVALID_MASK == 0xFFFFFFFF
    assert w.tolist() == [mask_of("14p"), INVALID_MASK, INVALID_MASK, mask_of("14p")]
    eff = effective_tiles(h13, errors="coerce")
    assert (eff[1] == INVALID_ROW).all() and (eff[2] == INVALID_ROW).all()
    assert eff[0].tolist() == effective_tiles(good13).tolist()
    d = discards(h14, errors="coerce")
    assert (d[1] == INVALID_ROW).all() and d[2].tolist() == discards(good14).tolist()
    # a 14-tile row is bad for waits; a 13-tile row for discards
    assert waits(np.stack([good14, good13]), errors="coerce").tolist() == [INVALID_MASK, mask_of("14p")]
    assert (discards(np.stack([good13]), errors="coerce") == INVALID_ROW).all()
    # bad melds / voids / visible rows are coerced too
    melds = np.zeros((2, 27), np.uint8)
    melds[1, 0] = 2
    assert shanten(np.stack([good13, good13]), melds=melds, errors="coerce").tolist() == [0, INVALID_ROW]
    vis = np.zeros((2, 27), np.uint8)
    vis[0, parse_tile("1p")] = 3
    eff = effective_tiles(np.stack([good13, good13]), visible=vis, errors="coerce")
    assert (eff[0] == INVALID_ROW).all() and eff[1].tolist() == effective_tiles(good13).tolist()
    with pytest.raises(ValueError, match="errors: expected 'raise' or 'coerce', got 'ignore'"):
        shanten(good13, errors="ignore")


def test_coerce_on_a_single_hand():
    assert shanten("123m456m789m11p2p", errors="coerce") == INVALID_ROW
    assert is_win("123m456m789m11p2p", errors="coerce") is False
    assert waits("123m456m789m11p2p", errors="coerce") == INVALID_MASK


# ------------------------------------------------------------------------ out=


def test_out_argument():
    hands = np.stack([parse_hand("123m456m789m11p23p")] * 5)
    out = np.full(5, 99, np.int8)
    res = shanten(hands, out=out)
    assert res is out and out.tolist() == [0] * 5
    wout = np.zeros(5, np.uint32)
    assert waits(hands, out=wout) is wout and (wout == mask_of("14p")).all()
    eout = np.zeros((5, 27), np.int8)
    assert effective_tiles(hands, out=eout) is eout
    bout = np.zeros(5, np.bool_)
    hands14 = np.stack([parse_hand("123m456m789m11p234p")] * 5)
    assert is_win(hands14, out=bout) is bout and bout.all()
    with pytest.raises(TypeError, match=r"^out: expected dtype int8, got int16$"):
        shanten(hands, out=np.zeros(5, np.int16))
    with pytest.raises(TypeError, match=r"^out: expected dtype uint32, got int64$"):
        waits(hands, out=np.zeros(5, np.int64))
    with pytest.raises(TypeError, match=r"^out: expected a numpy array, got list$"):
        shanten(hands, out=[0] * 5)
    with pytest.raises(ValueError, match=r"^out: expected shape \(5,\), got \(4,\)$"):
        shanten(hands, out=np.zeros(4, np.int8))
    with pytest.raises(ValueError, match=r"^out: expected shape \(5, 27\), got \(5,\)$"):
        effective_tiles(hands, out=np.zeros(5, np.int8))
    with pytest.raises(ValueError, match=r"^out: the array is not C-contiguous$"):
        shanten(hands, out=np.zeros(10, np.int8)[::2])
    with pytest.raises(ValueError, match=r"^out: the array is not C-contiguous$"):
        effective_tiles(hands, out=np.zeros((27, 5), np.int8).T)
    ro = np.zeros(5, np.int8)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match=r"^out: the array is read-only$"):
        shanten(hands, out=ro)
    with pytest.raises(ValueError, match=r"^out: only batch calls"):
        shanten(hands[0], out=np.zeros(1, np.int8))
    with pytest.raises(ValueError, match=r"^out: only batch calls"):
        shanten("123m456m789m11p23p", out=np.zeros(1, np.int8))


# ------------------------------------------------------------------------ input forms


def test_read_only_memmap_and_strided_inputs(tmp_path):
    rng = np.random.default_rng(3)
    hands = random_deals(rng, 300, 13)
    want = shanten(hands)
    ro = hands.copy()
    ro.flags.writeable = False
    assert (shanten(ro) == want).all()
    assert (waits(ro) == waits(hands)).all()
    assert shanten(ro[4]) == want[4]
    mm = np.memmap(tmp_path / "hands.u8", dtype=np.uint8, mode="w+", shape=hands.shape)
    mm[:] = hands
    mm.flush()
    mm_ro = np.memmap(tmp_path / "hands.u8", dtype=np.uint8, mode="r", shape=hands.shape)
    assert (shanten(mm_ro) == want).all()
    assert (effective_tiles(mm_ro) == effective_tiles(hands)).all()
    assert shanten(mm_ro[7]) == want[7]
    # a strided single hand is fine (one row); a strided batch is refused
    wide = np.zeros((300, 54), np.uint8)
    wide[:, ::2] = hands
    assert shanten(wide[9, ::2]) == want[9]
    assert effective_tiles(wide[9, ::2]).tolist() == effective_tiles(hands[9]).tolist()
    with pytest.raises(ValueError, match=r"^hands: the array is not C-contiguous; pass "
                                         r"np.ascontiguousarray\(hands\)$"):
        shanten(wide[:, ::2])
    with pytest.raises(ValueError, match="not C-contiguous"):
        shanten(np.asfortranarray(hands))
    # other integer dtypes are accepted and cast
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint64):
        assert (shanten(hands.astype(dtype)) == want).all(), dtype
    assert shanten(hands[0].tolist()) == want[0]
    assert shanten(tuple(hands[0].tolist())) == want[0]
    # a list of tile strings is a batch, and its errors name the row
    got = shanten(["123m456m789m11p23p", "123m456p789s11s23m"])
    assert isinstance(got, np.ndarray) and got.tolist() == [0, 3]
    with pytest.raises(InvalidHandError, match=r"^hands\[1\]: 12 concealed tiles with 0 melds; expected 13 "
                                               r"or 14$"):
        shanten(["123m456m789m11p23p", "123m456p789s11s2m"])
    with pytest.raises(mjfast.TileParseError, match=r"^hands\[1\]: position 16 of"):
        shanten(["123m456m789m11p23p", "123m456p789s11s2x"])
    # a nested list is a batch; a (1, 27) array is a batch of one
    assert (shanten(hands[:5].tolist()) == want[:5]).all()
    one = shanten(hands[:1])
    assert isinstance(one, np.ndarray) and one.shape == (1,) and one[0] == want[0]


def test_wrong_dtype_raises_type_error():
    h = parse_hand("123m456m789m11p23p")
    with pytest.raises(TypeError, match=r"^hands: expected an integer dtype \(uint8 preferred\), got "
                                        r"float64$"):
        shanten(h.astype(float))
    with pytest.raises(TypeError, match=r"^hands: expected an integer dtype \(uint8 preferred\), got bool$"):
        shanten(h.astype(bool))
    with pytest.raises(TypeError, match="got bool"):
        shanten(np.stack([h, h]).astype(bool))
    with pytest.raises(TypeError):
        shanten([1.5] * 27)
    with pytest.raises(TypeError):
        shanten(None)
    with pytest.raises(TypeError, match=r"^melds: expected an integer dtype"):
        shanten(h, melds=np.zeros(27))
    with pytest.raises(TypeError, match=r"^visible: expected an integer dtype"):
        effective_tiles(h, visible=np.zeros(27))


def test_out_of_range_counts_never_wrap():
    h = parse_hand("123m456m789m11p23p")
    batch = np.stack([h] * 20).astype(np.int64)
    batch[17, 13] = 260  # would wrap to 4 as uint8
    with pytest.raises(InvalidHandError, match=r"^hands\[17\]: tile 5p appears 260 times \(max 4\)$"):
        shanten(batch)
    batch[17, 13] = 256  # would wrap to 0
    with pytest.raises(InvalidHandError, match=r"^hands\[17\]: tile 5p appears 256 times \(max 4\)$"):
        waits(batch)
    batch[17, 13] = -1
    with pytest.raises(InvalidHandError, match=r"^hands\[17\]: tile 5p has a negative count \(-1\)$"):
        shanten(batch)
    melds = np.zeros(27, np.int64)
    melds[0] = 259
    with pytest.raises(InvalidHandError, match=r"^melds: tile 1m appears 259 times \(max 4\)$"):
        shanten(h, melds=melds)
    with pytest.raises(InvalidHandError, match=r"appears 300 times"):
        shanten([300] + [0] * 26)


def test_out_of_range_single_hand_is_named_hand():
    h = parse_hand("123m456m789m11p23p").astype(np.int64)
    h[13] = 260
    with pytest.raises(InvalidHandError, match=r"^hand: tile 5p appears 260 times \(max 4\)$"):
        shanten(h)


def test_wrong_shapes():
    h = parse_hand("123m456m789m11p23p")
    with pytest.raises(ValueError, match=r"^hands: expected 27 counts \(1m..9m, 1p..9p, 1s..9s\), got 26$"):
        shanten(h[:26])
    with pytest.raises(ValueError, match=r"^hands: expected shape \(N, 27\), got \(2, 28\)$"):
        shanten(np.zeros((2, 28), np.uint8))
    with pytest.raises(ValueError, match=r"^hands: expected shape \(27,\) or \(N, 27\), got 3-D shape \(1, "
                                         r"2, 27\)$"):
        shanten(np.zeros((1, 2, 27), np.uint8))
    with pytest.raises(ValueError, match=r"got 0-D"):
        shanten(np.uint8(3))
    with pytest.raises(ValueError, match=r"^melds: expected 3 rows like hands, got 2$"):
        shanten(np.stack([h] * 3), melds=np.zeros((2, 27), np.uint8))
    with pytest.raises(ValueError, match=r"^visible: expected 3 rows like hands, got 1$"):
        effective_tiles(np.stack([h] * 3), visible=np.zeros((1, 27), np.uint8))
    with pytest.raises(ValueError, match=r"^melds: expected shape \(27,\), got 2-D"):
        shanten(h, melds=np.zeros((1, 27), np.uint8))


def test_wrong_hand_sizes_and_counts_are_worded():
    h = parse_hand("123m456m789m11p23p")
    batch = np.stack([h] * 20)
    batch[17, 13] = 5
    with pytest.raises(InvalidHandError, match=r"^hands\[17\]: tile 5p appears 5 times \(max 4\)$"):
        shanten(batch)
    batch[17, 13] = 0
    batch[17, 9] = 1
    with pytest.raises(InvalidHandError, match=r"^hands\[17\]: 12 concealed tiles with 0 melds; expected "
                                               r"13 or 14$"):
        shanten(batch)
    with pytest.raises(InvalidHandError, match=r"^hands\[17\]: 12 concealed tiles with 0 melds; expected "
                                               r"13$"):
        waits(batch)
    with pytest.raises(InvalidHandError, match=r"^hands\[0\]: 13 concealed tiles with 0 melds; expected 14$"):
        discards(batch)
    with pytest.raises(InvalidHandError, match=r"^hand: 14 concealed tiles with 0 melds; expected 13$"):
        waits("123m456m789m11p234p")
    with pytest.raises(InvalidHandError, match=r"^hand: 14 concealed tiles with 0 melds; expected 13$"):
        effective_tiles(parse_hand("123m456m789m11p234p"))
    with pytest.raises(InvalidHandError, match=r"^hand: 13 concealed tiles with 1 meld; expected 10 or 11$"):
        shanten("123m456m789m11p23p", melds=["pung:9s"])
    with pytest.raises(InvalidHandError, match=r"^hand: 13 concealed tiles with 2 melds; expected 7 or 8$"):
        shanten("123m456m789m11p23p", melds=["pung:9s", "kong:8s"])
    with pytest.raises(InvalidHandError, match=r"^hand: tile 5p appears 5 times \(max 4\)$"):
        shanten([0] * 13 + [5] + [1] * 8 + [0] * 5)
    b = h.copy()
    b[13] = 5
    with pytest.raises(InvalidHandError, match=r"^hand: tile 5p appears 5 times \(max 4\)$"):
        shanten(b)  # the uint8 single-hand path words it the same
    with pytest.raises(InvalidHandError, match=r"^hand: 0 concealed tiles with 0 melds; expected 13 or 14$"):
        shanten(np.zeros(27, np.uint8))


# ------------------------------------------------------------------------ melds


def test_melds_in_every_form():
    hand = "46m123p456p99p"
    want_sh, want_w = 0, mask_of("5m")
    forms = [
        ["pung:5m"],
        "pung:5m",
        [Meld("pung", 4)],
        Meld.parse("pung:5m"),
        melds_to_counts(["pung:5m"]),
        melds_to_counts(["pung:5m"]).astype(np.int64),
        melds_to_counts(["pung:5m"]).tolist(),
    ]
    for melds in forms:
        assert shanten(hand, melds=melds) == want_sh, melds
        assert waits(hand, melds=melds) == want_w, melds
    # mixed strings and Meld objects
    assert shanten("46m12p", melds=["pung:5m", Meld("kong", 13), "kong_concealed:9p"]) == \
        check(TWINS["shanten"], parse_hand("46m12p").tolist(),
              melds=melds_to_counts(["pung:5m", "kong:5p", "kong:9p"]).tolist())
    # per-row melds (N, 27) and one row broadcast to all
    hands = np.stack([parse_hand(hand)] * 3)
    rows = np.stack([melds_to_counts(["pung:5m"]), melds_to_counts(["kong:5m"]),
                     melds_to_counts(["pung:9s"])])
    assert shanten(hands, melds=rows, void_rule=False).tolist() == [0, 1, 0]
    assert waits(hands, melds=rows, void_rule=False).tolist() == [mask_of("5m"), 0, mask_of("5m")]
    assert waits(hands, melds=rows).tolist() == [mask_of("5m"), 0, 0]  # 9s: three suits
    assert (shanten(hands, melds=melds_to_counts(["pung:5m"])) == 0).all()
    assert (shanten(hands, melds=["pung:5m"]) == 0).all()
    # no melds in any spelling
    for none in (None, [], (), np.zeros(27, np.uint8)):
        assert shanten("123m456m789m11p23p", melds=none) == 0


def test_bad_melds():
    with pytest.raises(InvalidHandError, match=r"^melds: tile 1m has 2 meld tiles \(must be 0, 3 or 4\)$"):
        shanten("123m456m789m11p23p", melds=[2] + [0] * 26)
    with pytest.raises(InvalidHandError, match=r"^hand: tile 2p appears 5 times counting melds \(max 4\)$"):
        shanten("23m456p789p11p2p", melds=["kong:2p"])
    with pytest.raises(InvalidHandError, match=r"^hand: tile 5m appears 5 times counting melds \(max 4\)$"):
        shanten("56m123p456p99p", melds=["kong:5m"])
    hands = np.stack([parse_hand("56m123p456p99p")] * 4)
    melds = np.zeros((4, 27), np.uint8)
    melds[:, 26] = 3
    melds[2, 4] = 4
    with pytest.raises(InvalidHandError, match=r"^hands\[2\]: tile 5m appears 5 times counting melds \(max "
                                               r"4\)$"):
        shanten(hands, melds=melds)
    melds[2, 4] = 1
    with pytest.raises(InvalidHandError,
                       match=r"^melds\[2\]: tile 5m has 1 meld tiles \(must be 0, 3 or 4\)$"):
        shanten(hands, melds=melds)
    five = np.zeros(27, np.uint8)
    five[[0, 3, 9, 12, 18]] = 3
    with pytest.raises(InvalidHandError, match=r"^melds: 5 melds \(max 4\)$"):
        shanten(np.zeros(27, np.uint8), melds=five)
    with pytest.raises(InvalidHandError):
        shanten("12m", melds=["pung:5m", "kong:5m", "pung:1p", "pung:2p"])  # a kind melded twice
    with pytest.raises(ValueError):
        shanten("123m456m789m11p23p", melds=["chow:123m"])


# ------------------------------------------------------------------------ void_suit, options


def test_void_suit_values():
    hand = "123456789m11p234p"
    for value, win in [(None, True), (-1, True), ("m", False), ("p", False), ("s", True),
                       (0, False), (1, False), (2, True), (np.int64(2), True),
                       (np.int8(0), False)]:
        assert is_win(hand, void_suit=value) is win, value
    hands = np.stack([parse_hand(hand)] * 4)
    assert is_win(hands, void_suit=np.array([-1, 0, 1, 2])).tolist() == [True, False, False, True]
    assert is_win(hands, void_suit=[-1, 0, 1, 2]).tolist() == [True, False, False, True]
    assert is_win(hands, void_suit="s").tolist() == [True] * 4
    for bad in ("z", "mp", 3, -2, 1.0):
        with pytest.raises(InvalidArgumentError, match=r"^void_suit: expected None, -1, 0, 1, 2, 'm', 'p', "
                                                       r"'s', '万', '筒', '饼', '条' or '索', got "):
            shanten(hand, void_suit=bad)
    with pytest.raises(TypeError, match=r"^void_suit: expected None, -1, 0, 1, 2, 'm', 'p', 's', '万', '筒', "
                                        r"'饼', '条' or '索', got True$"):
        shanten(hand, void_suit=True)
    with pytest.raises(TypeError, match=r"^void_suit: expected None, -1, 0, 1, 2, 'm', 'p', 's', '万', '筒', "
                                        r"'饼', '条' or '索', got ndarray$"):
        shanten(hand, void_suit=np.array([1]))  # arrays are for batches
    with pytest.raises(ValueError, match=r"^void_suit\[3\]: 5 is not -1 \(none\), 0, 1 or 2$"):
        shanten(hands, void_suit=np.array([0, 1, 2, 5]))
    with pytest.raises(ValueError, match=r"^void_suit\[0\]: -3 is not -1 \(none\), 0, 1 or 2$"):
        shanten(hands, void_suit=np.array([-3, 1, 2, 0]))
    with pytest.raises(ValueError, match=r"^void_suit: expected shape \(4,\) like hands, got \(3,\)$"):
        shanten(hands, void_suit=np.array([0, 1, 2]))
    with pytest.raises(TypeError, match=r"^void_suit: expected an integer array \(-1 for none\), got "
                                        r"float64$"):
        shanten(hands, void_suit=np.zeros(4))
    with pytest.raises(TypeError, match=r"got bool"):
        shanten(hands, void_suit=np.zeros(4, bool))
    for name, code in [("万", 0), ("筒", 1), ("饼", 1), ("条", 2), ("索", 2)]:
        assert shanten(hand, void_suit=name) == shanten(hand, void_suit=code)
    with pytest.raises(ValueError, match=r"^void_suit: a declared void suit needs void_rule=True$"):
        shanten(hand, void_suit="m", void_rule=False)
    with pytest.raises(ValueError, match=r"^void_suit: a declared void suit needs void_rule=True$"):
        shanten(hands, void_suit=np.array([0, 1, 2, 0]), void_rule=False)


def test_other_option_checks():
    h = parse_hand("123m456m789m11p23p")
    for hand in (h, "123m456m789m11p23p", h.tolist()):
        with pytest.raises(ValueError, match=r"^form: expected 'all', 'regular' or 'seven_pairs', got 'x'$"):
            shanten(hand, form="x")
        with pytest.raises(TypeError, match=r"^void_rule: expected a bool, got 1$"):
            shanten(hand, void_rule=1)
        with pytest.raises(ValueError, match=r"^workers: expected a positive int or -1 \(every core\), got "
                                             r"0$"):
            shanten(hand, workers=0)
        with pytest.raises(ValueError, match=r"^errors: expected 'raise' or 'coerce', got 'no'$"):
            shanten(hand, errors="no")
    assert shanten(h, void_rule=np.bool_(True)) == 0


@pytest.mark.parametrize("workers", [True, 1.0])
def test_workers_type_checked_on_every_path(workers):
    h = parse_hand("123m456m789m11p23p")
    with pytest.raises(TypeError, match=r"^workers: expected a positive int or -1 \(every core\), got "):
        shanten(h.tolist(), workers=workers)
    with pytest.raises(TypeError, match=r"^workers: expected a positive int or -1 \(every core\), got "):
        shanten(h, workers=workers)


# ------------------------------------------------------------------------ result types


def test_single_hand_result_types():
    h13, h14 = parse_hand("123m456m789m11p23p"), parse_hand("123m456m789m11p234p")
    for hand in (h13, "123m456m789m11p23p", h13.tolist()):
        assert type(shanten(hand)) is int
        assert type(is_win(hand)) is bool
        assert type(waits(hand)) is int
        eff = effective_tiles(hand)
        assert isinstance(eff, np.ndarray) and eff.shape == (27,) and eff.dtype == np.int8
    d = discards(h14)
    assert isinstance(d, np.ndarray) and d.shape == (27,) and d.dtype == np.int8
    assert type(shanten(h14)) is int and type(is_win(h14)) is bool


def test_empty_batch():
    empty = np.zeros((0, 27), np.uint8)
    for fn, dtype, shape in [(shanten, np.int8, (0,)), (is_win, np.bool_, (0,)),
                             (waits, np.uint32, (0,)), (effective_tiles, np.int8, (0, 27)),
                             (discards, np.int8, (0, 27))]:
        for workers in (1, 2):
            res = fn(empty, workers=workers)
            assert isinstance(res, np.ndarray) and res.dtype == dtype and res.shape == shape
    assert shanten(empty, melds=np.zeros((0, 27), np.uint8), void_suit=np.zeros(0, np.int8)).shape == (0,)


def test_mask_to_tiles():
    assert mask_to_tiles(0) == []
    assert mask_to_tiles((1 << 27) - 1) == list(range(27))
    assert mask_to_tiles(np.uint32(0b1001)) == [0, 3]
    with pytest.raises(ValueError, match="27-bit"):
        mask_to_tiles(1 << 27)
    with pytest.raises(ValueError, match="27-bit"):
        mask_to_tiles(INVALID_MASK)


# ------------------------------------------------------------------------ docstrings


@pytest.mark.parametrize("module", ["mjfast", "mjfast.analysis"])
def test_docstring_examples(module):
    import importlib

    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_docstring_examples_efficiency():
    import mjfast.efficiency

    result = doctest.testmod(mjfast.efficiency, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_docstring_examples_efficiency_values():
    """The efficiency examples' values hold once the tile helpers are in scope."""
    import mjfast.efficiency

    result = doctest.testmod(mjfast.efficiency, optionflags=doctest.ELLIPSIS,
                             extraglobs={"format_tile": format_tile, "parse_tile": parse_tile})
    assert result.attempted > 0 and result.failed == 0
