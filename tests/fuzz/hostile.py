"""Hostile values, the fuzz settings profile, and the one property every fuzz test checks.

- :data:`FUZZ`: the settings of every fuzz test (``MJFAST_FUZZ_EXAMPLES`` examples, default 100).
- :func:`hostile`: any hostile value (:func:`scalars`, :func:`texts`, :func:`containers`,
  :func:`objects`, :func:`arrays`); each pool can also be drawn alone.
- :func:`outcome`: run one call and check the property of :mod:`tests.fuzz`.
- :data:`KNOWN`: refusals of defects pinned by strict xfail tests (``test_known_defects.py``),
  tolerated here until they are fixed.
"""

from __future__ import annotations

import os
import re
import signal
import threading
import traceback
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from mjfast.errors import InvalidArgumentError, InvalidHandError, TileParseError

FUZZ_EXAMPLES = int(os.environ.get("MJFAST_FUZZ_EXAMPLES", "100"))
"""Examples per fuzz test: small by default (CI), ``MJFAST_FUZZ_EXAMPLES=5000`` for long runs."""

FUZZ = settings(max_examples=FUZZ_EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much, HealthCheck.large_base_example])
"""The fuzz suite's settings profile (on top of the loaded profile: ``ci`` derandomizes)."""

CALL_LIMIT = float(os.environ.get("MJFAST_FUZZ_CALL_LIMIT", "30"))
"""Seconds one call may take before it counts as a hang."""

MAX_MESSAGE = 1000
"""The longest error message allowed: a message shows a window of a huge input, not all of it."""

DOCUMENTED = (InvalidArgumentError, InvalidHandError, TileParseError)

HUGE = 10**5000  # str() of it raises ValueError (more than 4300 digits): messages must not try


def _report_huge_ints() -> None:
    """Let hypothesis print a failing example that holds HUGE (its repr raises ValueError,
    which would replace the failure in the report). Only the report changes: the library
    still sees plain ints under Python's digit limit."""
    try:
        from hypothesis.vendor import pretty
        plain = pretty._type_pprinters[int]
    except (ImportError, AttributeError, KeyError):  # another hypothesis: reports may suffer
        return

    def printer(obj: int, p: Any, cycle: bool) -> None:
        if obj.bit_length() > 10_000:
            p.text(f"<an int of {obj.bit_length()} bits>")
        else:
            plain(obj, p, cycle)
    pretty._type_pprinters[int] = printer


_report_huge_ints()


# ----------------------------------------------------------------------------- hostile objects

class Sabotage(Exception):
    """Raised by a hostile object's own method: the caller's error, which may propagate."""


class RaisesOnIndex:
    def __index__(self) -> int:
        raise Sabotage("__index__")


class IndexTypeError:
    """``__index__`` raises TypeError: to the library, not an int (InvalidArgumentError)."""

    def __index__(self) -> int:
        raise TypeError("not an index after all")


class HugeIndex:
    def __index__(self) -> int:
        return HUGE


class RaisesOnLen:
    def __len__(self) -> int:
        raise Sabotage("__len__")

    def __iter__(self) -> Iterator[int]:
        raise Sabotage("__iter__")

    def __getitem__(self, i: int) -> int:
        raise Sabotage("__getitem__")


class RaisesOnIter:
    def __iter__(self) -> Iterator[int]:
        raise Sabotage("__iter__")


class LyingSequence(Sequence):  # type: ignore[type-arg]
    """Says it holds 27 counts; iterating gives 40."""

    def __len__(self) -> int:
        return 27

    def __getitem__(self, i: Any) -> int:
        if isinstance(i, slice):
            return [1] * 40  # type: ignore[return-value]
        if not -40 <= i < 40:
            raise IndexError(i)
        return 1


class RaisingSequence(Sequence):  # type: ignore[type-arg]
    def __len__(self) -> int:
        return 27

    def __getitem__(self, i: Any) -> int:
        raise Sabotage("__getitem__")


class RaisesOnEq:
    def __eq__(self, other: object) -> bool:
        raise Sabotage("__eq__")

    __hash__ = object.__hash__


class Unhashable:
    __hash__ = None  # type: ignore[assignment]


class RaisesOnBool:
    def __bool__(self) -> bool:
        raise Sabotage("__bool__")


class RaisesOnArray:
    def __array__(self, *args: object, **kwargs: object) -> np.ndarray:
        raise Sabotage("__array__")


class StrSub(str):
    pass


class IntSub(int):
    pass


class FloatSub(float):
    pass


class ListSub(list):  # type: ignore[type-arg]
    pass


def _nested(depth: int, leaf: object = 0) -> object:
    x = leaf
    for _ in range(depth):
        x = [x]
    return x


DEEP_LIST = _nested(100_000)


# ----------------------------------------------------------------------------- value pools

SCALARS: list[object] = [
    None, True, False, np.True_, np.False_, 0, 1, -1, 3, 26, 27, 255, 256, -129, 2**31, 2**63,
    2**64, -(2**64), HUGE, -HUGE, 0.0, -0.0, 1.5, 5.0, float("nan"), float("inf"), float("-inf"),
    np.float64("nan"), np.float32(2.5), 1j, np.int64(3), np.uint64(2**64 - 1), np.int8(-1),
    np.uint8(200), IntSub(5), FloatSub(1.0), Fraction(1, 2), Decimal("5"), Decimal("nan"),
]

TEXTS: list[str] = [
    "", " ", "\t\n", "x", "5p", "9s", "55555p", "123", "0m", "1z", "东", "5P", "５p", "１２３m",
    "\u200f5p", "5p\u200e", "5\u0301p", "5p\x00", "\x00", "\ud800", "\udfff5p", "🀝", "🀀", "🀫",
    "5筒", "9条", "pung:5p", "kong:", ":", "：", "kong_concealed：9s", "碰:5筒", "None", "nan", "-1",
    "1e3", "0x1f", "all", "raise", "coerce", "chengdu", "qq", "m", "万", "mps", "123m456p789s",
    "123m456m789m11p23p", "1" * 100_000 + "m", "123m " * 20_000, "x" * 100_000,
    "5p" * 50_000 + "z", "\ud800" * 1000, StrSub("5p"), StrSub("chengdu"),
]

BYTES: list[object] = [b"", b"5p", b"123m456m789m11p23p", bytearray(b"5p"), memoryview(b"5p")]

CONTAINERS: list[object] = [
    [], (), {}, {"a": 1}, {1: 2}, set(), frozenset({1}), [None], [[]], [0] * 27, [1] * 27,
    [0] * 26, [0] * 28, [5] + [0] * 26, [-1] + [0] * 26, [255] + [0] * 26, [256] + [0] * 26,
    [1.0] * 27, [True] * 27, [np.int64(1)] + [0] * 26, [np.uint8(1)] * 13 + [0] * 14,
    ["5p", 1], [b"5p"], [HUGE] + [0] * 26, [-HUGE] + [0] * 26, [2**64] + [0] * 26,
    [None] * 27, ["1"] * 27, range(27), range(0), deque([0] * 27), ListSub([1] * 13 + [0] * 14),
    [[0] * 27, [0] * 26], [[0] * 27] * 3, [["5p"]], [0, [0] * 26], DEEP_LIST, [DEEP_LIST],
    {"concealed": "5p"}, [{"a": 1}], [0] * 10**5, ["5p"] * 2000, [(0, 1)] * 3,
]

OBJECT_TYPES: list[type] = [
    object, RaisesOnIndex, IndexTypeError, HugeIndex, RaisesOnLen, RaisesOnIter, LyingSequence,
    RaisingSequence, RaisesOnEq, Unhashable, RaisesOnBool, RaisesOnArray,
]


def pick(values: Sequence[Any]) -> st.SearchStrategy[Any]:
    """``sampled_from(values)`` whose repr does not repr the values (hypothesis reprs
    strategies in some reports: repr(HUGE) raises, and the long strings are long)."""
    def value_at(i: int) -> Any:
        return values[i]
    return st.integers(0, len(values) - 1).map(value_at)


def scalars() -> st.SearchStrategy[object]:
    return pick(SCALARS) | st.integers() | st.floats()


def texts() -> st.SearchStrategy[str]:
    return pick(TEXTS) | st.text(max_size=30) | st.text(
        alphabet="123456789mps 0z筒条万:,", max_size=40)


def containers() -> st.SearchStrategy[object]:
    fresh = st.sampled_from([
        lambda: iter([0] * 27), lambda: (x for x in [1] * 13 + [0] * 14), lambda: iter(()),
        lambda: (m for m in ["pung:5p"]),
    ]).map(lambda make: make())  # single-use iterators and generators: one per example
    return pick(CONTAINERS) | fresh | st.lists(pick(SCALARS[:20]) | pick(TEXTS[:20]),
                                               max_size=30)


def objects() -> st.SearchStrategy[object]:
    return st.sampled_from(OBJECT_TYPES).map(lambda tp: tp())


# ----------------------------------------------------------------------------- arrays

DTYPES: list[Any] = [
    np.bool_, np.int8, np.uint8, np.int16, np.uint16, ">i2", ">u2", np.int32, np.uint32,
    np.int64, ">i8", np.uint64, np.float16, np.float32, np.float64, np.complex128, object, "U3",
    "S3", "M8[s]", "m8[s]", [("a", "u1"), ("b", "i2")], "V3",
]
SHAPES: list[tuple[int, ...]] = [
    (), (0,), (1,), (26,), (27,), (28,), (0, 27), (1, 27), (2, 27), (3, 27), (2, 26), (27, 1),
    (1, 27, 1), (2, 2, 27), (4,), (3,),
]
LAYOUTS = ("c", "fortran", "strided", "readonly", "unaligned", "reversed")
FILLS = ("zeros", "hand", "small", "big", "negative", "extreme", "special")


def _values(rng: np.random.Generator, shape: tuple[int, ...], fill: str) -> np.ndarray:
    """int64 (float64 for "special") values of a fill kind."""
    if fill == "zeros":
        return np.zeros(shape, np.int64)
    if fill == "hand":  # tile counts of a 13-tile deal per row (or per array, if 1-D)
        flat = np.zeros((int(np.prod(shape[:-1], dtype=np.int64)) if shape else 1, 27), np.int64)
        for row in flat:
            np.add.at(row, rng.choice(np.repeat(np.arange(27), 4), 13, replace=False), 1)
        if not shape or shape[-1] != 27:
            return rng.integers(0, 5, shape)
        return flat.reshape(shape)
    if fill == "small":
        return rng.integers(0, 5, shape)
    if fill == "big":
        return rng.integers(0, 1000, shape)
    if fill == "negative":
        return rng.integers(-300, 5, shape)
    if fill == "extreme":
        return rng.choice(np.array([0, 4, 5, 255, 256, -1, 2**31, 2**62, -(2**63)]), shape)
    return rng.choice(np.array([0.0, 1.0, 1.5, np.nan, np.inf, -np.inf, -0.0, 1e300]), shape)


def _cast(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    if dtype.fields is not None or dtype.kind == "V":
        return np.zeros(values.shape, dtype)
    if dtype.kind == "O":
        return values.astype(object)
    if dtype.kind in "US":
        return values.astype(str).astype(dtype)
    with np.errstate(all="ignore"):  # out-of-range values wrap: hostile too
        if dtype.kind in "Mm" and values.dtype.kind == "f":
            values = np.nan_to_num(values, nan=0, posinf=1, neginf=-1).astype(np.int64)
        return values.astype(dtype)


def _layout(arr: np.ndarray, layout: str) -> np.ndarray:
    if layout == "fortran":
        return np.asfortranarray(arr)
    if layout == "strided" and arr.ndim:
        wide = np.repeat(arr, 2, axis=-1)
        return wide[..., ::2]
    if layout == "readonly":
        arr.setflags(write=False)
        return arr
    if layout == "unaligned" and arr.dtype.itemsize > 1 and not arr.dtype.hasobject:
        buf = np.zeros(arr.nbytes + 1, np.uint8)
        out = np.frombuffer(buf.data, arr.dtype, count=arr.size, offset=1).reshape(arr.shape)
        out[...] = arr
        return out
    if layout == "reversed" and arr.ndim:
        return arr[::-1]
    return arr


@st.composite
def arrays(draw: st.DrawFn, shapes: Sequence[tuple[int, ...]] = SHAPES,
           dtypes: Sequence[Any] = DTYPES, fills: Sequence[str] = FILLS,
           layouts: Sequence[str] = LAYOUTS) -> np.ndarray:
    """An array of a hostile dtype, shape, content and memory layout."""
    dtype = np.dtype(draw(st.sampled_from(dtypes)))
    shape = draw(st.sampled_from(shapes))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    arr = _cast(_values(rng, shape, draw(st.sampled_from(fills))), dtype)
    return _layout(arr, draw(st.sampled_from(layouts)))


def hostile() -> st.SearchStrategy[object]:
    """Any hostile value."""
    return st.one_of(scalars(), texts(), pick(BYTES), containers(), objects(), arrays())


def maybe(valid: st.SearchStrategy[Any], bad: st.SearchStrategy[Any] | None = None,
          ) -> st.SearchStrategy[tuple[bool, Any]]:
    """(is_hostile, value): mostly the valid value, sometimes a hostile one."""
    bad = hostile() if bad is None else bad
    return st.one_of(valid.map(lambda v: (False, v)), bad.map(lambda v: (True, v)))


# ----------------------------------------------------------------------------- the property

class Known(NamedTuple):
    """A defect pinned by a strict xfail test: :func:`outcome` tolerates what matches it."""

    test: str  # the xfail test of test_known_defects.py that reproduces it
    error: type[BaseException] | tuple[type[BaseException], ...]
    pattern: str  # re.search'ed in the message
    via: str  # a path that a frame of the traceback must contain ("" for any)
    scope: str = "refusal"  # "refusal": the error itself; "out": only the out= check


KNOWN: list[Known] = [
    Known("test_kernel_hand_text_errors_name_the_argument", TileParseError, r"^position \d+ of ",
          "mjfast/_validate.py"),
]
"""The defects of code other work is changing, each pinned by a strict xfail test in
test_known_defects.py: when one is fixed its test XPASSes (and fails): remove both."""


class Hang(BaseException):
    """A call ran past :data:`CALL_LIMIT` (BaseException: no ``except Exception`` hides it)."""


@contextmanager
def time_limit(seconds: float = CALL_LIMIT) -> Iterator[None]:
    """Raise :class:`Hang` in the main thread after *seconds* (POSIX; elsewhere no limit)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def alarm(signum: int, frame: object) -> None:
        raise Hang(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def known(exc: BaseException, scope: str = "refusal") -> Known | None:
    """The entry of :data:`KNOWN` that *exc* matches in *scope*, if any."""
    frames = [f.filename for f in traceback.extract_tb(exc.__traceback__)]
    for k in KNOWN:
        if (k.scope == scope and isinstance(exc, k.error) and re.search(k.pattern, str(exc))
                and any(k.via in f for f in frames)):
            return k
    return None


def judge(exc: BaseException, names: Sequence[str] = (), plain: bool = False) -> None:
    """Fail unless *exc* is a documented refusal with a short message naming one of *names*."""
    if known(exc):
        return
    ok = isinstance(exc, DOCUMENTED) or (plain and type(exc) is ValueError)
    if not ok:
        raise AssertionError(f"undocumented {type(exc).__name__}: {str(exc)[:300]}") from exc
    msg = str(exc)
    assert msg, f"{type(exc).__name__} without a message"
    assert len(msg) <= MAX_MESSAGE, f"a message of {len(msg)} characters: {msg[:200]}..."
    if names:
        assert any(n in msg for n in names), f"{type(exc).__name__} names none of {names}: {msg}"


class Outcome(NamedTuple):
    ok: bool  # the call returned
    value: Any  # its result, or the exception it raised


def outcome(call: Callable[[], Any], *, names: Sequence[str] = (), plain: bool = False,
            returns: Callable[[Any], bool] | None = None,
            out: np.ndarray | None = None) -> Outcome:
    """Run ``call()`` and check the property of :mod:`tests.fuzz`.

    names: argument names the message may name (empty: not checked); plain: a bare ValueError
    is documented for this call; returns: a check of the result's type; out: the caller's
    ``out=`` array, which a refused call must leave as it was.
    """
    before = None if out is None or not isinstance(out, np.ndarray) else out.copy()
    try:
        with time_limit():
            result = call()
    except Sabotage as exc:  # the caller's own object failed: passing that on is fine
        return Outcome(False, exc)
    except Hang as exc:
        raise AssertionError(str(exc)) from None
    except Exception as exc:
        judge(exc, names, plain)
        if before is not None and not known(exc) and not known(exc, "out"):
            assert out is not None
            assert same(out, before), "a refused call wrote into out="
        return Outcome(False, exc)
    if returns is not None:
        assert returns(result), f"unexpected result {type(result).__name__}: {str(result)[:200]}"
    return Outcome(True, result)


def same(a: np.ndarray, b: np.ndarray) -> bool:
    """Bit for bit the same array contents (nan included)."""
    if a.dtype.hasobject:
        return a.tolist() == b.tolist()
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def int_result(x: object) -> bool:
    return type(x) is int


def array_of(dtype: Any, shape: tuple[int, ...]) -> Callable[[object], bool]:
    def check(x: object) -> bool:
        return isinstance(x, np.ndarray) and x.dtype == np.dtype(dtype) and x.shape == shape
    return check
