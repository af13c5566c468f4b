"""The one home of scalar argument checks: every public function and the CLI use these.

Each kind of argument has ONE accepted set and one wording, whoever takes it:

- tile: a tile string (``"5p"``, ``"5筒"``, ``"🀝"``) or a kind index 0..26 (:func:`as_tile`);
  :func:`as_kind` takes the index only (formatting, melds);
- void suit: None or -1 (none), 0-2, ``"m"``/``"p"``/``"s"``, ``"万"``/``"筒"``/``"饼"``/``"条"``/
  ``"索"`` (:func:`as_void`, -1 for none);
- rules: a :class:`~mjfast.rules.Rules` or a preset name, None for the default (:func:`as_rules`);
- workers: a positive int or -1 for every core (:func:`as_workers`);
- sets: the sets of a complete hand, 4 (default), 3 or 2 for the short hands of the 5- and
  6-player tables (:func:`as_sets`);
- flags: ``bool`` or ``numpy.bool_`` (:func:`as_flag`); choices such as ``form``, ``errors`` and
  ``style`` are strs of a fixed set (:func:`as_choice`);
- one hand: a tile string, 27 int counts (list, tuple) or a 1-D integer array (:func:`hand_bytes`).

A wrong type or a value outside the set raises :class:`~mjfast.errors.InvalidArgumentError`
(both a ``ValueError`` and a ``TypeError``) worded ``"NAME: expected ..., got ..."``; a hand
that breaks the rules raises :class:`~mjfast.errors.InvalidHandError`.

>>> as_void("筒"), as_void(None), as_void(-1), as_tile("9s"), as_tile(13)
(1, -1, -1, 26, 13)
>>> as_workers(0)
Traceback (most recent call last):
    ...
mjfast.errors.InvalidArgumentError: workers: expected a positive int or -1 (every core), got 0
"""

from __future__ import annotations

import functools
import math
import numbers
import operator
import os
from collections.abc import Callable, Sequence

import numpy as np

from mjfast._notation import NUM_KINDS, STYLES, kind_name, parse_counts, parse_tile
from mjfast.errors import InvalidArgumentError, InvalidHandError, TileParseError, shown
from mjfast.rules import CHENGDU, PRESETS, Rules

__all__ = [
    "ERRORS",
    "FLAG_NAMES",
    "FORMS",
    "OBJECTIVES",
    "SETS",
    "VOID_NAMES",
    "as_choice",
    "as_errors",
    "as_flag",
    "as_form",
    "as_int",
    "as_kind",
    "as_player",
    "as_rules",
    "as_sets",
    "as_style",
    "as_tile",
    "as_void",
    "as_workers",
    "counts_list",
    "hand_bytes",
    "hand_sizes",
    "shown",
]

VOID_NAMES: dict[str, int] = {"m": 0, "p": 1, "s": 2, "万": 0, "筒": 1, "饼": 1, "条": 2, "索": 2}
"""Suit names accepted for a void suit (the Chinese ones are those of RULES.md)."""
_VOID_SET = "None, -1, 0, 1, 2, 'm', 'p', 's', '万', '筒', '饼', '条' or '索'"

FORMS: tuple[str, ...] = ("all", "regular", "seven_pairs")
"""Values of ``form=``: the minimum over both forms, sets + pair only, seven pairs only."""
ERRORS: tuple[str, ...] = ("raise", "coerce")
OBJECTIVES: tuple[str, ...] = ("win", "value")  # what a forecast plays for
"""Values of ``errors=``."""
FLAG_NAMES: tuple[str, ...] = ("self_drawn", "after_kong", "after_kong_discard", "robbing_kong",
                               "last_tile", "tian_hu", "di_hu")
"""The situational flags of a win, in the order of their bits in the batch fan kernel."""

_OK_COUNTS = bytes(range(5))
_INTS = [int] * NUM_KINDS


def _bad(name: str, expected: str, value: object) -> InvalidArgumentError:
    return InvalidArgumentError(f"{name}: expected {expected}, got {shown(value)}")


def as_int(value: object, name: str, *, minimum: int | None = None,
           maximum: int | None = None) -> int:
    """An int (Python or numpy, not a bool) within ``[minimum, maximum]``."""
    if isinstance(value, (bool, np.bool_)):
        raise _bad(name, "an int", value)
    try:
        v = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise _bad(name, "an int", value) from None
    if (minimum is not None and v < minimum) or (maximum is not None and v > maximum):
        if maximum is None:
            span = f"an int >= {minimum}"
        elif minimum is None:
            span = f"an int <= {maximum}"
        else:
            span = f"an int from {minimum} to {maximum}"
        raise _bad(name, span, v)
    return v


def as_real(value: object, name: str, *, minimum: float, maximum: float,
            open_ends: bool = False) -> float:
    """A finite real number (int, float, Fraction, numpy scalar; not a bool) within
    ``[minimum, maximum]`` (``(minimum, maximum)`` with *open_ends*), as a float."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise _bad(name, "a real number", value)
    try:
        v = float(value)
    except OverflowError:
        v = math.inf
    inside = minimum < v < maximum if open_ends else minimum <= v <= maximum
    if not inside:
        span = f"({minimum}, {maximum})" if open_ends else f"[{minimum}, {maximum}]"
        raise _bad(name, f"a number in {span}", value)
    return v


def as_callback(value: object, name: str) -> Callable[..., object] | None:
    """None or a callable."""
    if value is None or callable(value):
        return value
    raise _bad(name, "None or a callable", value)


def as_kind(value: object, name: str = "tile") -> int:
    """A kind index 0..26 (1m..9m, 1p..9p, 1s..9s)."""
    if isinstance(value, (bool, np.bool_)):
        raise _bad(name, "a kind index 0..26", value)
    try:
        v = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise _bad(name, "a kind index 0..26", value) from None
    if not 0 <= v < NUM_KINDS:
        raise _bad(name, "a kind index 0..26", v)
    return v


def as_tile(value: object, name: str = "tile") -> int:
    """A tile given as text (``"5p"``, exactly one tile) or as a kind index 0..26."""
    if isinstance(value, str):
        try:
            return parse_tile(value)
        except TileParseError as exc:
            raise TileParseError(f"{name}: {exc}") from None
    if isinstance(value, (bool, np.bool_)):
        raise _bad(name, "a tile ('5p') or a kind index 0..26", value)
    try:
        v = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise _bad(name, "a tile ('5p') or a kind index 0..26", value) from None
    if not 0 <= v < NUM_KINDS:
        raise _bad(name, "a tile ('5p') or a kind index 0..26", v)
    return v


def as_void(value: object, name: str = "void_suit") -> int:
    """A declared void suit as 0..2, or -1 for none."""
    if value is None:
        return -1
    if isinstance(value, str):
        code = VOID_NAMES.get(value)
        if code is None:
            raise _bad(name, _VOID_SET, value)
        return code
    if isinstance(value, (bool, np.bool_)):
        raise _bad(name, _VOID_SET, value)
    try:
        v = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise _bad(name, _VOID_SET, value) from None
    if not -1 <= v <= 2:
        raise _bad(name, _VOID_SET, v)
    return v


def as_rules(value: object, name: str = "rules") -> Rules:
    """A :class:`~mjfast.rules.Rules`: as given, a preset by name, or ``chengdu`` for None."""
    if value is None:
        return CHENGDU
    if isinstance(value, Rules):
        return value
    if isinstance(value, str):
        if value not in PRESETS:
            raise _bad(name, f"a Rules object or a preset name ({', '.join(PRESETS)})", value)
        return _preset(value)
    raise _bad(name, f"a Rules object or a preset name ({', '.join(PRESETS)})", value)


@functools.cache
def _preset(name: str) -> Rules:
    """One Rules object per preset name (Rules are immutable; building one takes a while)."""
    return Rules.preset(name)


SETS: tuple[int, ...] = (2, 3, 4)
"""Values of ``sets=``: the sets of a complete hand (RULES.md 7: 4; 3 at a 5-player table, 2 at
a 6-player table). Seven pairs (14 tiles) exists only with 4."""


def as_sets(value: object, name: str = "sets") -> int:
    """``sets=``: 2, 3 or 4 (an int, not a bool).

    >>> as_sets(3)
    3
    """
    if type(value) is int and 2 <= value <= 4:
        return value
    return as_int(value, name, minimum=2, maximum=4)


def hand_sizes(sets: int, melds: int) -> tuple[int, int]:
    """(waiting, complete) concealed sizes of a hand of *sets* sets with *melds* melds:
    ``3 * sets + 1 - 3m`` and one more (13 - 3m / 14 - 3m for 4 sets)."""
    waiting = 3 * (sets - melds) + 1
    return waiting, waiting + 1


def as_workers(value: object, name: str = "workers") -> int:
    """A thread count: a positive int, or -1 for every core."""
    if not isinstance(value, (bool, np.bool_)):
        try:
            v = operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
        else:
            if v == -1:
                return os.cpu_count() or 1
            if v >= 1:
                return v
    raise _bad(name, "a positive int or -1 (every core)", value)


def as_flag(value: object, name: str) -> bool:
    """A bool (``numpy.bool_`` too); ints and other truthy values are refused."""
    if value is True or value is False:
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    raise _bad(name, "a bool", value)


def as_choice(value: object, name: str, choices: Sequence[str]) -> str:
    """One of a fixed set of strs."""
    if isinstance(value, str) and value in choices:
        return value
    *head, last = (repr(c) for c in choices)
    raise _bad(name, f"{', '.join(head)} or {last}", value)


def as_form(value: object) -> str:
    """``form=``: ``"all"``, ``"regular"`` or ``"seven_pairs"``."""
    return as_choice(value, "form", FORMS)


def as_errors(value: object) -> bool:
    """``errors=``: True for ``"coerce"``, False for ``"raise"``."""
    return as_choice(value, "errors", ERRORS) == "coerce"


def as_style(value: object) -> str:
    """A notation style for formatting: ``"mpsz"``, ``"zh"`` or ``"unicode"``."""
    return as_choice(value, "style", STYLES)


def as_player(value: object, name: str, players: int) -> int:
    """A seat index 0..players-1."""
    return as_int(value, name, minimum=0, maximum=players - 1)


def counts_list(value: object, name: str = "counts") -> list[int]:
    """27 non-negative ints from a sequence or 1-D array of counts (no upper bound: callers
    check theirs, so that messages can show bad hands)."""
    if isinstance(value, np.ndarray):
        if value.dtype == np.bool_ or value.dtype.kind not in "iu":
            raise InvalidArgumentError(f"{name}: expected 27 int counts, got dtype {value.dtype}")
        if value.ndim != 1:
            raise InvalidHandError(f"{name}: expected shape (27,), got {value.ndim}-D shape {value.shape}")
        value = value.tolist()
    if isinstance(value, (str, bytes, bytearray)) or not isinstance(value, Sequence):
        raise _bad(name, "27 int counts", value)
    items = list(value)  # what iterating gives, whatever len() said
    if len(items) != NUM_KINDS:
        raise InvalidHandError(
            f"{name}: expected 27 counts (1m..9m, 1p..9p, 1s..9s), got {len(items)}")
    values = []
    for k, c in enumerate(items):
        v = as_int(c, f"{name}[{k}]")
        if v < 0:
            raise InvalidHandError(f"{name}: tile {kind_name(k)} has a negative count ({shown(v)})")
        values.append(v)
    return values


def _checked(values: list[int], name: str) -> bytes:
    for k, v in enumerate(values):
        if v > 4:
            raise InvalidHandError(f"{name}: tile {kind_name(k)} appears {shown(v)} times (max 4)")
    return bytes(values)


# Hand strings already read (the same few hands are often scored over and over); only short
# strings are kept, so the cache stays small whatever callers pass.
_PARSED: dict[str, bytes] = {}
_PARSED_LIMIT = 4096
_PARSED_CHARS = 64


def hand_bytes(value: object, name: str = "hand") -> bytes:
    """One hand as 27 bytes (each count 0..4): cheap to slice, hash and compare.

    Accepts a tile string, 27 int counts (list or tuple) or a 1-D integer array; bools and
    floats are refused like everywhere else. Every error names *name* (``hand: position 3 of
    '123z': ...``).

    >>> hand_bytes("19m")[:9]
    b'\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x01'
    """
    tp = type(value)
    if tp is str:
        b = _PARSED.get(value)  # type: ignore[call-overload]
        if b is None:
            try:
                b = parse_counts(value)  # type: ignore[arg-type]
            except TileParseError as exc:
                raise TileParseError(f"{name}: {exc}") from None
            if len(value) <= _PARSED_CHARS:  # type: ignore[arg-type]
                if len(_PARSED) >= _PARSED_LIMIT:
                    _PARSED.clear()
                _PARSED[value] = b  # type: ignore[index]
        return b
    if tp is np.ndarray:
        arr: np.ndarray = value  # type: ignore[assignment]
        if arr.dtype == np.uint8 and arr.shape == (NUM_KINDS,):
            b = arr.tobytes()
            if not b.translate(None, _OK_COUNTS):
                return b
    elif (tp is list or tp is tuple) and len(value) == NUM_KINDS:  # type: ignore[arg-type]
        if [*map(type, value)] == _INTS:  # type: ignore[call-overload]  # no bools; numpy ints: slow path
            try:
                b = bytes(value)  # type: ignore[call-overload]
            except ValueError:  # a count outside 0..255: worded below
                pass
            else:
                if not b.translate(None, _OK_COUNTS):
                    return b
    return _checked(counts_list(value, name), name)
