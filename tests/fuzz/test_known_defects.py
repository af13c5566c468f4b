"""Defects the fuzz suite found in code that other work is changing right now (the argument
checks of the kernels in mjfast/_validate.py, mjfast/_batch.py and mjfast/_core, and the
statistics engine mjfast/stats): one strict xfail reproducer each.

The fuzz tests tolerate exactly these refusals (:data:`tests.fuzz.hostile.KNOWN` names each
test here). When a defect is fixed its test XPASSes, which strict mode reports as a failure:
then delete the test and its KNOWN entry.
"""

from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast import stats
from mjfast.errors import InvalidArgumentError, InvalidHandError, TileParseError
from tests.fuzz import hostile

H13 = "123m456m789m11p23p"
B13 = np.stack([mjfast.parse_hand(H13), mjfast.parse_hand("1112345678999m")])


def _readonly(shape: tuple[int, ...], dtype: object) -> np.ndarray:
    a = np.zeros(shape, dtype)
    a.setflags(write=False)
    return a


# ----------------------------------------------------------------------- mjfast/_validate.py

# Fixed: these were plain ValueErrors (regression tests now, no longer xfail).
@pytest.mark.parametrize("call", [
    lambda: mjfast.shanten(np.asfortranarray(np.zeros((2, 27), np.uint8))),
    lambda: mjfast.shanten(np.zeros((2, 54), np.uint8)[:, ::2]),
    lambda: mjfast.shanten(B13, melds=np.zeros((3, 27), np.uint8)),
    lambda: mjfast.effective_tiles(B13, visible=np.zeros((3, 27), np.uint8)),
    lambda: mjfast.shanten(B13, void_suit=np.zeros(3, np.int8)),
    lambda: mjfast.shanten(B13, void_suit=np.array([0, 5])),
    lambda: mjfast.shanten(H13, void_suit="m", void_rule=False),
    lambda: mjfast.shanten(B13, out=np.zeros(3, np.int8)),
    lambda: mjfast.effective_tiles(B13, out=np.asfortranarray(np.zeros((2, 27), np.int8))),
    lambda: mjfast.shanten(B13, out=_readonly((2,), np.int8)),
    lambda: mjfast.shanten(H13, out=np.zeros(1, np.int8)),
    lambda: mjfast.max_fan(B13, out=np.zeros(3, np.int16)),
    lambda: mjfast.fan(np.stack([mjfast.parse_hand("123m456m789m23p55p")] * 2), np.array([30, 0])),
], ids=["hands fortran", "hands strided", "melds rows", "visible rows", "void_suit shape",
        "void_suit value", "void_suit without void_rule", "out shape", "out fortran",
        "out read-only", "out for one hand", "max_fan out shape", "fan win_tiles value"])
def test_kernel_argument_refusals_are_invalid_argument_errors(call):
    with pytest.raises(InvalidArgumentError):
        call()


@pytest.mark.xfail(strict=True, reason="mjfast/_validate.py: a hand string's TileParseError does "
                   "not name the argument (score() says 'hand: position 2 of ...')")
@pytest.mark.parametrize("call", [lambda: mjfast.shanten("12x"), lambda: mjfast.waits("5z"),
                                  lambda: mjfast.advise("12x")], ids=["shanten", "waits", "advise"])
def test_kernel_hand_text_errors_name_the_argument(call):
    with pytest.raises(TileParseError, match="^hand: position "):
        call()


# ----------------------------------------------------------------------- mjfast/_core, _batch

# Fixed: datetime / timedelta hands and array-valued errors= are refused (regression tests).

@pytest.mark.parametrize(("dtype", "count", "melds"), [
    ("M8[s]", 1, None), ("m8[s]", 1, None), ("m8[s]", 1, []), ("m8[s]", 300, [])],
    ids=["datetime64", "timedelta64", "timedelta64 general path", "timedelta64 count 300"])
def test_kernel_refuses_datetime_arrays(dtype, count, melds):
    hands = np.array([[count] * 13 + [0] * 14] * 2, dtype)
    with pytest.raises(InvalidArgumentError, match="^hands: expected an integer dtype"):
        mjfast.shanten(hands, melds=melds)


@pytest.mark.parametrize("errors", [np.array(["raise", "raise"]), np.zeros(0)])
def test_kernel_fast_path_refuses_array_options(errors):
    with pytest.raises(InvalidArgumentError, match="^errors: "):
        mjfast.shanten(mjfast.parse_hand(H13), errors=errors)


# Fixed: a refused batch used to have written the rows before the bad one into out=.
@pytest.mark.parametrize(("call", "dtype"), [
    (mjfast.shanten, np.int8), (mjfast.waits, np.uint32), (mjfast.max_fan, np.int16),
], ids=["shanten", "waits", "max_fan"])
def test_failed_batch_leaves_out_untouched(call, dtype):
    hands = np.stack([mjfast.parse_hand(H13)] * 2)
    hands[1, 0] = 5
    out = np.full(2, 7, dtype)
    with pytest.raises(InvalidHandError, match=r"^hands\[1\]: tile 1m appears 5 times"):
        call(hands, out=out)
    assert (out == 7).all(), out


# ----------------------------------------------------------------------- mjfast/stats

# Fixed: mjfast/stats checks these arguments now (regression tests, no longer xfail).

@pytest.mark.parametrize("progress", [1, "x", np.zeros(2)])
def test_run_stats_checks_progress(progress):
    with pytest.raises(InvalidArgumentError, match="^progress: "):
        stats.run_stats(10, 13, seed=1, progress=progress)


@pytest.mark.parametrize("event", [np.array([1, 2]), np.zeros(0), "x" * 10_000,
                                   np.zeros((), [("a", "u1"), ("b", "i2")])],
                         ids=["array", "empty array", "long str", "structured"])
def test_exact_stats_count_checks_event(event):
    with pytest.raises(InvalidArgumentError, match="^event: ") as info:
        stats.exact(13).count(event)
    assert len(str(info.value)) < 200


@pytest.mark.parametrize("call", [
    lambda: stats.compare(None, stats.exact(13), stats.exact(13)),
    lambda: stats.compare({"hands": 1}, stats.exact(13), stats.exact(13)),
    lambda: stats.compare(stats.run_stats(10, 13, seed=1), None, stats.exact(13)),
    lambda: stats.compare(stats.run_stats(10, 13, seed=1), stats.exact(13), stats.exact(13),
                          level=None),
    lambda: stats.binomial_interval("x", 0.5),
    lambda: stats.binomial_interval(10, float("nan")),
    lambda: stats.binomial_interval(10, 0.5, level=np.zeros(3)),
    lambda: stats.binomial_interval("610233", 1.0),
    lambda: stats.binomial_interval(10**400, 0.5),
    lambda: stats.binomial_interval(-5, 0.0),
    lambda: stats.binomial_interval(-1, 0.5),
], ids=["doc None", "doc without fields", "void None", "level None", "n str", "p nan",
        "level array", "n as a str", "n huge", "n negative with p 0",
        "n negative"])
def test_compare_checks_its_arguments(call):
    with pytest.raises(InvalidArgumentError):
        call()


def test_exact_refuses_a_huge_wall_count():
    with pytest.raises(InvalidArgumentError, match="^wall: tile 1m has an int of 16610 bits"):
        stats.exact(3, wall=[hostile.HUGE] + [0] * 26)


# ----------------------------------------------------------------------- the registry

def test_every_known_defect_has_its_strict_xfail_test():
    for k in hostile.KNOWN:
        test = globals().get(k.test)
        assert test is not None, f"KNOWN names {k.test}, which is not in this module"
        marks = [m for m in getattr(test, "pytestmark", []) if m.name == "xfail"]
        assert marks and marks[0].kwargs.get("strict") is True, k.test
