"""Fuzz: scoring (score, decompose, max_fan and the batch fan / max_fan) with hostile arguments."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import mjfast
from mjfast import Decomposition, FanResult, MaxFan, Rules
from mjfast._args import FLAG_NAMES
from tests.fuzz.hostile import FUZZ, arrays, hostile, outcome, same
from tests.strategies import batch_arrays, batches, cases, hand_text

RULES = st.sampled_from([None, "chengdu", "qq", Rules(), Rules.preset("qq", cap=None),
                         Rules(cap=48, root_fan=48, men_qing=48, zi_mei_dui=48),
                         Rules(si_jiao=True, cha_da_jiao="min")])
BATCH_SHAPES = [(27,), (1, 27), (2, 27), (3, 27), (2, 26), (0, 27), (4,)]
SETS = st.sampled_from([4, 4, 3, 2])  # short hands of 5 / 6 players too


def _spell(draw: st.DrawFn, counts: list[int]) -> object:
    how = draw(st.sampled_from(["text", "list", "tuple", "array"]))
    if how == "text":
        return hand_text(counts) if any(counts) else ""
    if how == "array":
        return np.array(counts, np.uint8)
    return list(counts) if how == "list" else tuple(counts)


def _corrupt(data: st.DataObject, kw: dict[str, Any], shapes: list[tuple[int, ...]]) -> set[str]:
    """Replace 0-3 of the keyword arguments by hostile values; the names replaced."""
    bad = data.draw(st.sets(st.sampled_from(sorted(kw)), max_size=3), label="hostile")
    for key in sorted(bad):
        kw[key] = data.draw(hostile() | arrays(shapes=shapes), label=key)
    return bad


@FUZZ
@given(data=st.data())
def test_score(data: st.DataObject) -> None:
    case = data.draw(cases(size="complete", sets=data.draw(SETS)))
    held = [t for t in range(27) if case.hand[t]]
    kw: dict[str, Any] = {
        "hand": _spell(data.draw, case.hand), "win_tile": data.draw(st.sampled_from(held)),
        "melds": case.api_melds, "void_suit": case.void_suit, "rules": data.draw(RULES),
        "sets": case.sets,
        **{flag: data.draw(st.booleans()) if data.draw(st.integers(0, 5)) == 0 else False
           for flag in FLAG_NAMES}}
    bad = _corrupt(data, kw, [(27,), (1, 27)])
    hand = kw.pop("hand")
    res = outcome(lambda: mjfast.score(hand, **kw), names=("hand", "meld", *kw), plain=True,
                  returns=lambda r: type(r) is FanResult)
    if not bad and not any(kw[f] for f in FLAG_NAMES):
        assert res.ok, f"a valid call was refused: {res.value!r}"


@FUZZ
@given(data=st.data())
def test_decompose(data: st.DataObject) -> None:
    case = data.draw(cases(sets=data.draw(SETS)))
    kw: dict[str, Any] = {"hand": _spell(data.draw, case.hand), "melds": case.api_melds,
                          "sets": case.sets}
    bad = _corrupt(data, kw, [(27,), (1, 27)])
    hand = kw.pop("hand")
    res = outcome(lambda: mjfast.decompose(hand, **kw), names=("hand", "meld", "sets"),
                  returns=lambda r: type(r) is list and all(type(d) is Decomposition for d in r))
    if not bad:
        assert res.ok, f"a valid call was refused: {res.value!r}"


@FUZZ
@given(data=st.data())
def test_max_fan_one_hand(data: st.DataObject) -> None:
    case = data.draw(cases(size="waiting", visible=True, sets=data.draw(SETS)))
    kw: dict[str, Any] = {"hand": _spell(data.draw, case.hand), "melds": case.api_melds,
                          "void_suit": case.void_suit, "rules": data.draw(RULES),
                          "visible": case.visible, "sets": case.sets}
    extra = data.draw(st.sampled_from([{}, {}, {"workers": 1}, {"errors": "raise"},
                                       {"best_wait": False}]))
    kw.update(extra)
    bad = _corrupt(data, kw, [(27,), (1, 27), (2, 27)])
    hand = kw.pop("hand")
    res = outcome(lambda: mjfast.max_fan(hand, **kw), names=("hand", "meld", *kw),
                  returns=lambda r: type(r) in (MaxFan, np.ndarray, tuple))
    if not bad:
        assert res.ok and type(res.value) is MaxFan, f"a valid call was refused: {res.value!r}"


def _batch_returns(n: int, out: object, best: object) -> Callable[[object], bool]:
    def fans(a: object) -> bool:
        return isinstance(a, np.ndarray) and a.dtype == np.int16 and a.shape == (n,) and (
            not isinstance(out, np.ndarray) or a is out)

    def check(r: object) -> bool:
        if best is True:
            return type(r) is tuple and len(r) == 2 and fans(r[0]) and \
                isinstance(r[1], np.ndarray) and r[1].dtype == np.int8
        return fans(r) or type(r) in (int, MaxFan, tuple)  # a hostile hands may be one hand
    return check


def _exposed(counts: np.ndarray) -> list[str]:
    """Meld strings of a count row as the batch kernels read it (unmarked kongs are exposed)."""
    return [f"{'pung' if c == 3 else 'kong'}:{mjfast.format_tile(t)}"
            for t, c in enumerate(counts.tolist()) if c]


def _out_array(data: st.DataObject, n: int, hands: np.ndarray) -> object:
    good = np.full(n, 7, np.int16)
    ro = good.copy()
    ro.setflags(write=False)
    overlap = hands.reshape(-1)[: 2 * n].view(np.int16) if hands.size >= 2 * n else good
    return data.draw(st.sampled_from([good, good, np.full(n, 7, np.int8), np.zeros(n + 1, np.int16),
                                      np.zeros((n, 1), np.int16), ro, overlap,
                                      np.zeros(2 * n, np.int16)[::2], good.astype(">i2")]))


@FUZZ
@given(data=st.data())
def test_fan_batch(data: st.DataObject) -> None:
    rows, _, _ = data.draw(batches(size="complete", max_rows=5, sets=data.draw(SETS)))
    hands, melds, voids, _ = batch_arrays(rows)
    n = len(rows)
    wins = np.array([data.draw(st.sampled_from([t for t in range(27) if c.hand[t]])) for c in rows],
                    np.int64)
    kw: dict[str, Any] = {"hands": hands, "win_tiles": wins, "melds": melds, "void_suit": voids,
                          "sets": rows[0].sets,
                          "rules": data.draw(RULES), "workers": data.draw(st.sampled_from([1, 2])),
                          "errors": data.draw(st.sampled_from(["raise", "coerce"]))}
    if data.draw(st.booleans()):
        kw["out"] = _out_array(data, n, hands)
    if data.draw(st.booleans()):
        kw[data.draw(st.sampled_from(FLAG_NAMES))] = np.array(
            data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), bool)
    bad = _corrupt(data, kw, BATCH_SHAPES + [(n,)])
    hands_arg, wins_arg = kw.pop("hands"), kw.pop("win_tiles")
    out = kw.get("out")
    outcome(lambda: mjfast.fan(hands_arg, wins_arg, **kw), plain=True,
            names=("hand", "meld", "win_tile", *kw),
            returns=_batch_returns(n, out, None), out=out if isinstance(out, np.ndarray) else None)
    del bad


@FUZZ
@given(data=st.data())
def test_max_fan_batch(data: st.DataObject) -> None:
    rows, _, _ = data.draw(batches(size="waiting", max_rows=5, visible=True, sets=data.draw(SETS)))
    hands, melds, voids, visible = batch_arrays(rows)
    n = len(rows)
    kw: dict[str, Any] = {"hands": hands, "melds": melds, "void_suit": voids,
                          "visible": visible, "rules": data.draw(RULES), "sets": rows[0].sets,
                          "workers": data.draw(st.sampled_from([1, 2])),
                          "errors": data.draw(st.sampled_from(["raise", "coerce"])),
                          "best_wait": data.draw(st.booleans())}
    if data.draw(st.booleans()):
        kw["out"] = _out_array(data, n, hands)
    bad = _corrupt(data, kw, BATCH_SHAPES + [(n,)])
    hands_arg = kw.pop("hands")
    out = kw.get("out")
    res = outcome(lambda: mjfast.max_fan(hands_arg, **kw), names=("hand", "meld", *kw),
                  returns=_batch_returns(n, out, kw.get("best_wait")),
                  out=out if isinstance(out, np.ndarray) else None)
    if res.ok and not bad and isinstance(res.value, np.ndarray):
        one = [mjfast.max_fan(hands[i], melds=_exposed(melds[i]), void_suit=int(voids[i]),
                              visible=visible[i], rules=kw["rules"], sets=kw["sets"])
               for i in range(n)]
        assert same(res.value, np.array([-1 if m.fan is None else m.fan for m in one], np.int16))
