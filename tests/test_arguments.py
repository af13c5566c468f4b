"""Every public call accepts each kind of argument the same way (mjfast._args).

For each argument kind (void suit, rules, tile, workers, flags, hands) the sweep passes every
accepted spelling through every public function that takes it and checks that the answers agree;
then it passes the refused values and checks for :class:`InvalidArgumentError` with the one
wording. The command line takes the same sets (one line on stderr, exit 2).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import mjfast
from mjfast import InvalidHandError, PlayerState, Round, Rules
from mjfast.errors import InvalidArgumentError

H13 = "123456789m11p23p"  # ready on 1p/4p when m or p is kept; holds m and p
H14 = "123456789m11p234p"  # wins on 4p unless m or p is void
B13 = np.stack([mjfast.parse_hand(H13), mjfast.parse_hand("1112345678999m")])
B14 = np.stack([mjfast.parse_hand(H14), mjfast.parse_hand("11122233344455m")])


def _draw(void: Any = None, rules: Any = None) -> Any:
    """Player 0 (holding m and p) is ready, or a 花猪 when m or p is its void."""
    states = [PlayerState(H13, void_suit=void), PlayerState("2345678s99s456p7p"),
              PlayerState("123m456p789s1234s"), PlayerState("4455667788p99p1s")]
    return mjfast.settle_draw(states, rules=rules).net.tolist()


def _round_win(void: Any = None, tile: Any = "4p") -> Any:
    """The payments of a win on 4p, or the refusal when the void suit breaks the hand."""
    try:
        return [t.amount for t in Round().win(0, tile, from_player=1, hands=H14, void_suit=void)]
    except InvalidArgumentError:
        raise
    except ValueError as exc:
        return str(exc)


def _round_kong(rules: Any = None) -> Any:
    return [t.amount for t in Round(rules=rules).kong(0, "5s", "kong", from_player=1)]


# ----------------------------------------------------------------------------- void suit

VOID_SPELLINGS = {
    -1: [None, -1, np.int8(-1)],
    0: [0, "m", "万", np.int64(0)],
    1: [1, "p", "筒", "饼"],
    2: [2, "s", "条", "索", np.uint8(2)],
}
VOID_BAD = ["x", "mp", "M", 3, -2, 1.5, True, np.bool_(False), [0], b"m"]
VOID_WORDING = (r"^void_suit: expected None, -1, 0, 1, 2, 'm', 'p', 's', '万', '筒', '饼', '条' "
                r"or '索', got ")

VOID_CALLS: dict[str, Callable[[Any], Any]] = {
    "shanten": lambda v: mjfast.shanten(H13, void_suit=v),
    "shanten[array]": lambda v: mjfast.shanten(mjfast.parse_hand(H13), void_suit=v),
    "shanten[batch]": lambda v: mjfast.shanten(B13, void_suit=v).tolist(),
    "is_win": lambda v: mjfast.is_win(H14, void_suit=v),
    "waits": lambda v: mjfast.waits(H13, void_suit=v),
    "effective_tiles": lambda v: mjfast.effective_tiles(H13, void_suit=v).tolist(),
    "discards": lambda v: mjfast.discards(H14, void_suit=v).tolist(),
    "advise": lambda v: [str(d) for d in mjfast.advise(H14, void_suit=v)],
    "score": lambda v: mjfast.score(H14, win_tile="4p", void_suit=v).fan,
    "max_fan": lambda v: mjfast.max_fan(H13, void_suit=v).fan,
    "max_fan[batch]": lambda v: mjfast.max_fan(B13, void_suit=v).tolist(),
    "fan": lambda v: mjfast.fan(H14, "4p", void_suit=v),
    "fan[batch]": lambda v: mjfast.fan(B14, ["4p", "5m"], void_suit=v).tolist(),
    "PlayerState": lambda v: PlayerState(H13, void_suit=v).void_suit,
    "settle_draw": lambda v: _draw(void=v),
    "Round.win": lambda v: _round_win(void=v),
}


@pytest.mark.parametrize("call", sorted(VOID_CALLS))
def test_void_spellings_agree(call: str) -> None:
    fn = VOID_CALLS[call]
    answers = {}
    for code, spellings in VOID_SPELLINGS.items():
        got = [fn(v) for v in spellings]
        assert all(g == got[0] for g in got), (call, code, got)
        answers[code] = got[0]
    if call == "PlayerState":
        assert answers == {-1: None, 0: 0, 1: 1, 2: 2}
    else:  # the void suit changes the answer: the spellings really reached the code
        assert answers[2] != answers[0] or answers[2] != answers[1], (call, answers)


VOID_CONTEXT = {"Round.win": "win: player 0: "}  # Round names the event and the seat first


@pytest.mark.parametrize("call", sorted(VOID_CALLS))
@pytest.mark.parametrize("bad", VOID_BAD, ids=repr)
def test_void_refused_alike(call: str, bad: Any) -> None:
    if call.endswith("[batch]") and isinstance(bad, list):
        pytest.skip("a list is a per-row void array in a batch call")
    wording = "^" + VOID_CONTEXT.get(call, "") + VOID_WORDING[1:]
    with pytest.raises(InvalidArgumentError, match=wording):
        VOID_CALLS[call](bad)


# ----------------------------------------------------------------------------- rules

RULES_CALLS: dict[str, Callable[[Any], Any]] = {
    "score": lambda r: mjfast.score("11224444557799m", win_tile="9m", rules=r).fan,
    "fan": lambda r: mjfast.fan("11224444557799m", "9m", rules=r),
    "fan[batch]": lambda r: mjfast.fan(B14, ["4p", "5m"], rules=r).tolist(),
    "max_fan": lambda r: mjfast.max_fan("1112345678999m", rules=r).fan,
    "max_fan[batch]": lambda r: mjfast.max_fan(B13, rules=r).tolist(),
    "settle_draw": lambda r: _draw(rules=r),
    "Round": lambda r: _round_kong(rules=r),
}


@pytest.mark.parametrize("call", sorted(RULES_CALLS))
def test_rules_spellings_agree(call: str) -> None:
    fn = RULES_CALLS[call]
    chengdu = [fn(r) for r in (None, "chengdu", Rules(), Rules.preset("chengdu"))]
    qq = [fn(r) for r in ("qq", Rules.preset("qq"))]
    assert all(c == chengdu[0] for c in chengdu) and qq[0] == qq[1], (chengdu, qq)
    assert chengdu[0] != qq[0]  # qq shows fan one higher and pays 1 on exposed kongs


@pytest.mark.parametrize("call", sorted(RULES_CALLS))
@pytest.mark.parametrize("bad", ["xx", "", 3, {}, ["qq"], True], ids=repr)
def test_rules_refused_alike(call: str, bad: Any) -> None:
    with pytest.raises(InvalidArgumentError, match=r"^rules: expected a Rules object or a "
                                                   r"preset name \(chengdu, qq, points\), got "):
        RULES_CALLS[call](bad)


# ----------------------------------------------------------------------------- tiles

TILE_CALLS: dict[str, Callable[[Any], Any]] = {
    "score(win_tile)": lambda t: mjfast.score(H14, win_tile=t).fan,
    "fan(win_tiles)": lambda t: mjfast.fan(H14, t),
    "Round.win(tile)": lambda t: _round_win(tile=t),
    "Round.kong(tile)": lambda t: [x.amount for x in Round().kong(0, t, "kong_concealed")],
}
TILE_NAMES = {"score(win_tile)": "win_tile", "fan(win_tiles)": "win_tile",
              "Round.win(tile)": "win: tile", "Round.kong(tile)": "kong: tile"}


@pytest.mark.parametrize("call", sorted(TILE_CALLS))
def test_tile_spellings_agree(call: str) -> None:
    got = [TILE_CALLS[call](t) for t in ("4p", "4筒", "4饼", "\U0001f01c", 12, np.int64(12))]
    assert all(g == got[0] for g in got), got


@pytest.mark.parametrize("call", sorted(TILE_CALLS))
@pytest.mark.parametrize("bad", [True, 27, -1, 1.5, None, b"4p"], ids=repr)
def test_tile_refused_alike(call: str, bad: Any) -> None:
    name = TILE_NAMES[call]
    with pytest.raises(InvalidArgumentError,
                       match=rf"^{name}: expected a tile \('5p'\) or a kind index 0..26, got "):
        TILE_CALLS[call](bad)


def test_kind_index_refused_alike() -> None:
    for bad in (True, 27, -1, "5p", 1.0):
        with pytest.raises(InvalidArgumentError, match=r"^kind: expected a kind index 0..26, got "):
            mjfast.format_tile(bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidArgumentError, match=r"^meld tile: expected a kind index 0..26"):
            mjfast.Meld("pung", bad)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- workers

WORKER_CALLS: dict[str, Callable[[Any], Any]] = {
    "shanten": lambda w: mjfast.shanten(B13, workers=w).tolist(),
    "shanten[one]": lambda w: mjfast.shanten(H13, workers=w),
    "is_win": lambda w: mjfast.is_win(B14, workers=w).tolist(),
    "waits": lambda w: mjfast.waits(B13, workers=w).tolist(),
    "effective_tiles": lambda w: mjfast.effective_tiles(B13, workers=w).tolist(),
    "discards": lambda w: mjfast.discards(B14, workers=w).tolist(),
    "fan": lambda w: mjfast.fan(B14, ["4p", "5m"], workers=w).tolist(),
    "max_fan": lambda w: mjfast.max_fan(B13, workers=w).tolist(),
}


@pytest.mark.parametrize("call", sorted(WORKER_CALLS))
def test_workers_accepted_alike(call: str) -> None:
    got = [WORKER_CALLS[call](w) for w in (1, 2, -1, np.int64(2))]
    assert all(g == got[0] for g in got)


@pytest.mark.parametrize("call", sorted(WORKER_CALLS))
@pytest.mark.parametrize("bad", [0, -2, True, 1.5, "2", None], ids=repr)
def test_workers_refused_alike(call: str, bad: Any) -> None:
    with pytest.raises(InvalidArgumentError,
                       match=r"^workers: expected a positive int or -1 \(every core\), got "):
        WORKER_CALLS[call](bad)


# ----------------------------------------------------------------------------- sets

S10 = "123m456m11p23p"  # 3 sets: ready on 1p/4p
S11 = "123m456m11p234p"  # 3 sets: complete
SETS_CALLS: dict[str, Callable[[Any], Any]] = {
    "shanten": lambda n: mjfast.shanten(np.stack([mjfast.parse_hand(S10)]), sets=n).tolist(),
    "shanten[one]": lambda n: mjfast.shanten(S10, sets=n),
    "is_win": lambda n: mjfast.is_win(S11, sets=n),
    "waits": lambda n: mjfast.waits(S10, sets=n),
    "effective_tiles": lambda n: mjfast.effective_tiles(S10, sets=n).tolist(),
    "discards": lambda n: mjfast.discards(S11, sets=n).tolist(),
    "advise": lambda n: [str(d) for d in mjfast.advise(S11, sets=n)],
    "score": lambda n: mjfast.score(S11, win_tile="4p", sets=n).fan,
    "decompose": lambda n: [str(d) for d in mjfast.decompose(S11, sets=n)],
    "max_fan": lambda n: mjfast.max_fan(S10, sets=n).fan,
    "max_fan[batch]": lambda n: mjfast.max_fan([S10], sets=n).tolist(),
    "fan": lambda n: mjfast.fan(S11, "4p", sets=n),
}


@pytest.mark.parametrize("call", sorted(SETS_CALLS))
def test_sets_accepted_alike(call: str) -> None:
    got = [SETS_CALLS[call](n) for n in (3, np.int64(3), np.uint8(3))]
    assert all(g == got[0] for g in got)


@pytest.mark.parametrize("call", sorted(SETS_CALLS))
@pytest.mark.parametrize("bad", [1, 5, 0, True, 3.0, "3", None], ids=repr)
def test_sets_refused_alike(call: str, bad: Any) -> None:
    with pytest.raises(InvalidArgumentError, match=r"^sets: expected (an int from 2 to 4|an int), got "):
        SETS_CALLS[call](bad)


# ----------------------------------------------------------------------------- flags

FLAG_CALLS: dict[str, Callable[[Any], Any]] = {
    "shanten(void_rule)": lambda f: mjfast.shanten(H13, void_rule=f),
    "shanten[batch](void_rule)": lambda f: mjfast.shanten(B13, void_rule=f).tolist(),
    "effective_tiles(void_rule)": lambda f: mjfast.effective_tiles(H13, void_rule=f).tolist(),
    "score(self_drawn)": lambda f: mjfast.score(H14, win_tile="4p", self_drawn=f).fan,
    "fan(self_drawn)": lambda f: mjfast.fan(H14, "4p", self_drawn=f),
    "fan[batch](self_drawn)": lambda f: mjfast.fan(B14, ["4p", "5m"], self_drawn=f).tolist(),
}
FLAG_NAMES = {"void_rule", "self_drawn"}


@pytest.mark.parametrize("call", sorted(FLAG_CALLS))
def test_flags_accepted_alike(call: str) -> None:
    fn = FLAG_CALLS[call]
    assert fn(True) == fn(np.bool_(True)) and fn(False) == fn(np.bool_(False))


@pytest.mark.parametrize("call", sorted(FLAG_CALLS))
@pytest.mark.parametrize("bad", [1, 0, "yes", None, 1.0], ids=repr)
def test_flags_refused_alike(call: str, bad: Any) -> None:
    name = call.rpartition("(")[2].rstrip(")")
    assert name in FLAG_NAMES
    with pytest.raises(InvalidArgumentError, match=rf"^{name}: expected a bool"):
        FLAG_CALLS[call](bad)


# ----------------------------------------------------------------------------- hands

HAND_CALLS: dict[str, Callable[[Any], Any]] = {
    "shanten": lambda h: mjfast.shanten(h),
    "is_win": lambda h: mjfast.is_win(h),
    "advise": lambda h: mjfast.advise(h),
    "score": lambda h: mjfast.score(h, win_tile="1m"),
    "decompose": lambda h: mjfast.decompose(h),
    "max_fan": lambda h: mjfast.max_fan(h),
    "fan": lambda h: mjfast.fan(h, "1m"),
    "PlayerState": lambda h: PlayerState(h),
    "format_hand": lambda h: mjfast.format_hand(h),
}
HAND_WRONG_TYPE = {
    "float array": np.zeros(27),
    "bool array": np.zeros(27, bool),
    "bool list": [True] * 14 + [False] * 13,
    "float list": [1.0] * 14 + [0.0] * 13,
    "None": None,
    "bytes": b"123m",
    "set": {1, 2},
}
HAND_WRONG_SIZE = {"26 counts": [1] * 14 + [0] * 12, "2-D (1, 26)": np.zeros((1, 26), np.uint8)}


@pytest.mark.parametrize("call", sorted(HAND_CALLS))
@pytest.mark.parametrize("case", sorted(HAND_WRONG_TYPE))
def test_hand_of_wrong_type_refused_alike(call: str, case: str) -> None:
    if call == "format_hand" and case == "bool array":
        pytest.skip("format_hand prints counts as they are")
    with pytest.raises(InvalidArgumentError):
        HAND_CALLS[call](HAND_WRONG_TYPE[case])


@pytest.mark.parametrize("call", sorted(HAND_CALLS))
@pytest.mark.parametrize("case", sorted(HAND_WRONG_SIZE))
def test_hand_of_wrong_shape_refused_alike(call: str, case: str) -> None:
    with pytest.raises((InvalidHandError, InvalidArgumentError)):
        HAND_CALLS[call](HAND_WRONG_SIZE[case])


@pytest.mark.parametrize("call", sorted(set(HAND_CALLS) - {"format_hand"}))
@pytest.mark.parametrize("form", ["list", "array"])
def test_fifth_copy_refused_alike(call: str, form: str) -> None:
    counts = [5, 1, 1, 1, 1, 1, 1, 1, 1] + [0] * 9 + [1] * 9
    hand = counts if form == "list" else np.array(counts, np.uint8)
    with pytest.raises(InvalidHandError, match=r"^(hands?|concealed): tile 1m appears 5 times \(max 4\)$"):
        HAND_CALLS[call](hand)


# ----------------------------------------------------------------------------- command line

def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mjfast", *args], capture_output=True,
                          text=True, timeout=120)


def test_cli_void_spellings_agree() -> None:
    outs = {v: _cli("analyze", H13, "--void", v, "--json").stdout for v in ("p", "筒", "饼", "1")}
    assert len(set(outs.values())) == 1 and outs["p"], outs
    assert _cli("analyze", H13, "--void", "s", "--json").stdout != outs["p"]


@pytest.mark.parametrize("args, wording", [
    (["analyze", H13, "--void", "x"], "expected None, -1, 0, 1, 2, 'm', 'p', 's', '万', '筒', '饼', "
                                      "'条' or '索', got 'x'"),
    (["score", H14, "--win", "4p", "--rules", "xx"],
     "expected a Rules object or a preset name (chengdu, qq, points), got 'xx'"),
    (["stats", "--hands", "1000", "--workers", "0"], "expected a positive int or -1 (every core)"),
    (["score", H14, "--win", "0p"], "digit 0 is not a tile"),
])
def test_cli_refuses_with_the_library_wording(args: list[str], wording: str) -> None:
    proc = _cli(*args)
    assert proc.returncode == 2, proc
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and wording in lines[0], proc.stderr


# ----------------------------------------------------------------------------- choices

CHOICE_INPUTS = {"string": H13, "array": mjfast.parse_hand(H13), "list": mjfast.parse_hand(H13).tolist(),
                 "batch": B13}


@pytest.mark.parametrize("how", sorted(CHOICE_INPUTS))
@pytest.mark.parametrize("bad", ["x", "", [], None, 0, ("all",)], ids=repr)
def test_form_refused_alike(how: str, bad: Any) -> None:
    for fn in (mjfast.shanten, mjfast.effective_tiles):
        with pytest.raises(InvalidArgumentError,
                           match=r"^form: expected 'all', 'regular' or 'seven_pairs', got "):
            fn(CHOICE_INPUTS[how], form=bad)


@pytest.mark.parametrize("how", sorted(CHOICE_INPUTS))
@pytest.mark.parametrize("bad", ["ignore", [], None, True], ids=repr)
def test_errors_refused_alike(how: str, bad: Any) -> None:
    for fn in (mjfast.shanten, mjfast.waits):
        with pytest.raises(InvalidArgumentError, match=r"^errors: expected 'raise' or 'coerce', got "):
            fn(CHOICE_INPUTS[how], errors=bad)
