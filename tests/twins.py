"""The one differential harness: each fast function against its twin, on the same arguments.

In the style of RapidFuzz's ``tests/distance/common.py`` (``GenericScorer``): a :class:`Twin`
pairs a fast function with the function it must agree with, under one signature, and
:func:`check` calls both with identical arguments and asserts the same answer once both are
put through :attr:`Twin.normalise`. The twins of :data:`TWINS`:

- a public function against its pure-Python reference in ``mjfast._ref`` (written from RULES.md,
  sharing no code path: ``tests/test_imports.py`` checks its imports): the core kernels one
  hand at a time, the scorer, the draw settlement and the ledger of a logged hand;
- a batch call against a reference applied row by row (``"... rows"``): the batch kernels
  against the single-hand reference or scorer (``"... rows/fast"``: the fast single-hand
  function, where the reference is too slow for the number of rows).

:func:`check` is for valid input (a refusal on either side fails), :func:`check_refused` for
invalid input (both must refuse it, with a ValueError or TypeError): so both refuse or neither.
:func:`check_spellings` also tries other spellings of the same hand on the fast side, and
:func:`agree` checks a fast result computed beforehand (one row of a big batch, say).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import mjfast
from mjfast import scoring
from mjfast._core import _kernels
from mjfast._ref import core as ref_core
from mjfast._ref import forecast as ref_forecast
from mjfast._ref import scoring as ref_scoring
from mjfast._ref import settlement as ref_settlement
from mjfast.scoring.batch import fan as batch_fan
from mjfast.scoring.batch import max_fan as batch_max_fan
from mjfast.settlement import Round, settle_draw
from mjfast.tiles import Meld, MeldKind, format_hand

__all__ = ["TWINS", "Twin", "agree", "check", "check_refused", "check_spellings", "plain",
           "spellings"]

REFUSALS = (ValueError, TypeError)
"""What refusing an argument means, on both sides (InvalidHandError and friends included)."""

FLAGS = ("self_drawn", "after_kong", "after_kong_discard", "robbing_kong", "last_tile",
         "tian_hu", "di_hu")

# Dimensions of one row's value of each per-row batch argument: one more means one per row.
_ROW_NDIM = {"melds": 1, "visible": 1, "concealed_kongs": 1, "void_suit": 0, "win_tiles": 0,
             **dict.fromkeys(FLAGS, 0)}


def plain(value: Any) -> Any:
    """Python values for numpy scalars and arrays, lists for tuples and dataclasses (deeply),
    so that a fast result and a reference result compare by value."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [plain(getattr(value, f.name)) for f in dataclasses.fields(value)]
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def _same(value: Any) -> Any:
    return value


def _net(result: Any) -> Any:
    """A settlement or a ledger by its per-player net (the reference computes only that)."""
    return plain(getattr(result, "net", result))


def _anything(_: Any) -> bool:
    return True


@dataclass(frozen=True)
class Twin:
    """A fast function and the function it must agree with, called the same way.

    ``normalise`` maps either side's answer to a comparable value; ``expect`` says what the fast
    answer must look like before that (its exact type, or its dtype).
    """

    name: str
    fast: Callable[..., Any]
    ref: Callable[..., Any]
    normalise: Callable[[Any], Any] = plain
    expect: Callable[[Any], bool] = _anything


# --------------------------------------------------------------------------- calling both


def _call(fn: Callable[..., Any], args: tuple[Any, ...],
          kwargs: dict[str, Any]) -> tuple[bool, Any]:
    """(True, answer) or (False, the refusal)."""
    try:
        return True, fn(*args, **kwargs)
    except REFUSALS as error:
        return False, error


def _describe(twin: Twin, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    shown = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    return f"{twin.name}({', '.join(shown)})"


def _answer(twin: Twin, side: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The answer of one side ("fast" or "reference"), which may not refuse."""
    ok, value = _call(twin.fast if side == "fast" else twin.ref, args, kwargs)
    assert ok, f"{_describe(twin, args, kwargs)}: the {side} side refused: {value!r}"
    return value


def _first_difference(got: Any, want: Any) -> str:
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        for i, (a, b) in enumerate(zip(got, want)):
            if a != b:
                return f" (first at [{i}]: fast {a!r}, reference {b!r})"
    return ""


def agree(twin: Twin, got: Any, *args: Any, **kwargs: Any) -> Any:
    """Assert that *got*, a fast answer on these arguments, is the reference's; return it."""
    want = twin.normalise(_answer(twin, "reference", args, kwargs))
    return _agree(twin, got, want, args, kwargs)


def _agree(twin: Twin, got: Any, want: Any, args: tuple[Any, ...],
           kwargs: dict[str, Any]) -> Any:
    assert twin.expect(got), f"{_describe(twin, args, kwargs)}: unexpected fast answer {got!r}"
    value = twin.normalise(got)
    assert value == want, (f"{_describe(twin, args, kwargs)}: fast {value!r} != reference "
                           f"{want!r}{_first_difference(value, want)}")
    return want


def check(twin: Twin, *args: Any, **kwargs: Any) -> Any:
    """Call the fast function and its twin with the same arguments; assert equal normalised
    answers (neither may refuse) and return the answer."""
    return check_spellings(twin, [args], **kwargs)


def check_spellings(twin: Twin, spelled: Sequence[tuple[Any, ...]], **kwargs: Any) -> Any:
    """:func:`check` for each spelling of the same positional arguments (a hand as a count
    list, an array, a tile string: :func:`spellings`). The reference answers the first only:
    it reads every spelling into the same counts before anything else."""
    want = twin.normalise(_answer(twin, "reference", spelled[0], kwargs))
    for args in spelled:
        _agree(twin, _answer(twin, "fast", args, kwargs), want, args, kwargs)
    return want


def check_refused(twin: Twin, *args: Any, **kwargs: Any) -> None:
    """Both sides refuse these arguments (a ValueError or a TypeError)."""
    for side, fn in (("fast", twin.fast), ("reference", twin.ref)):
        ok, value = _call(fn, args, kwargs)
        assert not ok, f"{_describe(twin, args, kwargs)}: the {side} side answered {value!r}"


def spellings(hand: Sequence[int] | np.ndarray, *rest: Any) -> list[tuple[Any, ...]]:
    """One hand as a count list, a uint8 array (the single-hand fast path) and a tile string
    ("" for no tiles), each followed by the other positional arguments *rest*."""
    counts = [int(c) for c in hand]
    text = format_hand(counts) if any(counts) else ""
    return [(counts, *rest), (np.array(counts, np.uint8), *rest), (text, *rest)]


# --------------------------------------------------------------------------- row by row


def _row(name: str, value: Any, i: int) -> Any:
    """Row i of a per-row batch argument, or the value every row shares, as Python values;
    a void suit of -1 (none, in a batch) is None."""
    if isinstance(value, np.ndarray) and value.ndim == _ROW_NDIM.get(name, -1) + 1:
        value = value[i]
    value = plain(value) if isinstance(value, (np.ndarray, np.generic)) else value
    if name == "void_suit" and isinstance(value, int) and value == -1:
        return None
    return value


def _hand_rows(hands: Any) -> list[Any]:
    return plain(hands) if isinstance(hands, np.ndarray) else list(hands)


def core_rows(one: Callable[..., Any]) -> Callable[..., list[Any]]:
    """The batch form of a single-hand core function: *one* on every row."""
    def rows(hands: Any, **kwargs: Any) -> list[Any]:
        return [plain(one(hand, **{k: _row(k, v, i) for k, v in kwargs.items()}))
                for i, hand in enumerate(_hand_rows(hands))]
    rows.__name__ = f"rows of {one.__module__}.{one.__name__}"
    return rows


def _meld_objects(melds: Any, marks: Any) -> Any:
    """A row's meld counts (and concealed-kong marks) as Meld objects; strings and Meld
    objects as given. A kong not marked concealed is an exposed one."""
    if melds is None or isinstance(melds, str) or any(isinstance(m, (str, Meld)) for m in melds):
        return melds
    kinds = {3: MeldKind.PUNG, 4: MeldKind.KONG}
    return tuple(Meld(MeldKind.KONG_CONCEALED if marks and marks[t] else kinds[c], t)
                 for t, c in enumerate(melds) if c)


def fan_rows(scorer: Any) -> Callable[..., list[int]]:
    """The batch ``fan`` by ``scorer.score`` row by row: the fan of a win, -1 otherwise."""
    def fan(hands: Any, win_tiles: Any, *, melds: Any = None, concealed_kongs: Any = None,
            void_suit: Any = None, rules: Any = None, sets: int = 4,
            **flags: Any) -> list[int]:
        out = []
        for i, hand in enumerate(_hand_rows(hands)):
            r = scorer.score(hand, win_tile=_row("win_tiles", win_tiles, i),
                             melds=_meld_objects(_row("melds", melds, i),
                                                 _row("concealed_kongs", concealed_kongs, i)),
                             void_suit=_row("void_suit", void_suit, i), rules=rules, sets=sets,
                             **{k: bool(_row(k, v, i)) for k, v in flags.items()})
            out.append(r.fan if r.is_win else -1)
        return out
    fan.__name__ = f"fan by {scorer.__name__}.score"
    return fan


def max_fan_rows(scorer: Any) -> Callable[..., Any]:
    """The batch ``max_fan`` by ``scorer.max_fan`` row by row: fans (-1: not ready), and the
    best waits (-1: none) with ``best_wait=True``."""
    def max_fan(hands: Any, *, melds: Any = None, concealed_kongs: Any = None,
                void_suit: Any = None, visible: Any = None, rules: Any = None, sets: int = 4,
                best_wait: bool = False) -> Any:
        fans, best = [], []
        for i, hand in enumerate(_hand_rows(hands)):
            m = scorer.max_fan(hand, melds=_meld_objects(_row("melds", melds, i),
                                                         _row("concealed_kongs", concealed_kongs, i)),
                               void_suit=_row("void_suit", void_suit, i),
                               visible=_row("visible", visible, i), rules=rules, sets=sets)
            fans.append(-1 if m.fan is None else m.fan)
            best.append(-1 if m.best_wait is None else m.best_wait)
        return (fans, best) if best_wait else fans
    max_fan.__name__ = f"max_fan by {scorer.__name__}.max_fan"
    return max_fan


# --------------------------------------------------------------------------- the twins


def _is(kind: type) -> Callable[[Any], bool]:
    """The answer is exactly of this type (an int, not a numpy integer or a bool)."""
    return lambda answer: type(answer) is kind


def _arrays(*dtypes: Any, row: tuple[int, ...] | None = None) -> Callable[[Any], bool]:
    """The answer is an array of this dtype (a tuple of arrays for several dtypes); ``row``:
    the shape of a single-hand answer."""
    def ok(answer: Any) -> bool:
        arrays = answer if isinstance(answer, tuple) else (answer,)
        return (len(arrays) == len(dtypes)
                and all(isinstance(a, np.ndarray) and a.dtype == d for a, d in zip(arrays, dtypes))
                and (row is None or arrays[0].shape == row))
    return ok


def _max_fan_arrays(answer: Any) -> bool:
    return _arrays(np.int16, np.int8)(answer) or _arrays(np.int16)(answer)


def _suit_vector(counts: Any, caps: Any) -> list[int]:
    """``suit_costs`` in the layout of ``_kernels.capped_vector``: cost[k][p] at 2k + p, with
    the kernel's "no pattern" (100) for the reference's (10**6)."""
    costs = ref_core.suit_costs(tuple(int(c) for c in counts), tuple(int(c) for c in caps))
    return [100 if costs[k][p] >= 10**6 else costs[k][p] for k in range(5) for p in range(2)]


_TWINS = [
    # the core kernels, one hand at a time, against mjfast._ref.core
    Twin("shanten", mjfast.shanten, ref_core.shanten, expect=_is(int)),
    Twin("is_win", mjfast.is_win, ref_core.is_win, expect=_is(bool)),
    Twin("waits", mjfast.waits, ref_core.waits, expect=_is(int)),
    Twin("effective_tiles", mjfast.effective_tiles, ref_core.effective_tiles,
         expect=_arrays(np.int8, row=(27,))),
    Twin("discards", mjfast.discards, ref_core.discards, expect=_arrays(np.int8, row=(27,))),
    Twin("advise", mjfast.advise, ref_forecast.advise),
    Twin("suit_costs", _kernels.capped_vector, _suit_vector),
    # the core kernels on a batch, against the reference (or the single-hand call) per row
    Twin("shanten rows", mjfast.shanten, core_rows(ref_core.shanten), expect=_arrays(np.int8)),
    Twin("is_win rows", mjfast.is_win, core_rows(ref_core.is_win), expect=_arrays(np.bool_)),
    Twin("waits rows/fast", mjfast.waits, core_rows(mjfast.waits), expect=_arrays(np.uint32)),
    Twin("effective_tiles rows/fast", mjfast.effective_tiles, core_rows(mjfast.effective_tiles),
         expect=_arrays(np.int8)),
    Twin("discards rows/fast", mjfast.discards, core_rows(mjfast.discards),
         expect=_arrays(np.int8)),
    # fan scoring against mjfast._ref.scoring (shared result types: compared as they are)
    Twin("score", scoring.score, ref_scoring.score, normalise=_same),
    Twin("decompose", scoring.decompose, ref_scoring.decompose, normalise=_same),
    Twin("max_fan", scoring.max_fan, ref_scoring.max_fan, normalise=_same),
    # the batch fan kernels, row by row against the reference and the single-hand scorer
    Twin("fan rows", batch_fan, fan_rows(ref_scoring), expect=_arrays(np.int16)),
    Twin("max_fan rows", batch_max_fan, max_fan_rows(ref_scoring), expect=_max_fan_arrays),
    Twin("fan rows/fast", batch_fan, fan_rows(scoring), expect=_arrays(np.int16)),
    Twin("max_fan rows/fast", batch_max_fan, max_fan_rows(scoring), expect=_max_fan_arrays),
    # settlement against mjfast._ref.settlement: the net of each player
    Twin("settle_draw", settle_draw, ref_settlement.draw_net, normalise=_net),
    Twin("round", Round.from_json, ref_settlement.round_net, normalise=_net),
]

TWINS: dict[str, Twin] = {twin.name: twin for twin in _TWINS}
"""Every twin by name."""
