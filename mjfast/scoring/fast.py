"""What the compiled single-hand fast paths read: :func:`bind_fast_paths` hands them to
``mjfast._core._fan`` (``score_one`` / ``max_fan_one``, tried first by
:func:`~mjfast.scoring.score` and :func:`~mjfast.scoring.max_fan`).

The kernel extension imports nothing of the library, so the library binds what it needs: the
result types, how to read a rules argument and melds (through the one argument check,
:func:`~mjfast._args.as_rules` and :func:`~mjfast.scoring.inputs.meld_info`: a value they refuse
sends the call to the general path, which words the error) and the builders of the fields a
fast result leaves for first read (:data:`~mjfast.scoring.types.LAZY`), which are the general
path's own (:func:`~mjfast.scoring.single.score_counts`, :func:`~mjfast.scoring.single.wait_fans`).

>>> from mjfast.scoring import score
>>> r = score("22244455577799m", win_tile="9m")    # the fast path: items not built yet
>>> r.fan, r.multiplier, "items" in vars(r)
(3, 8, False)
>>> r.items, "items" in vars(r)                     # built on first read
(((<Fan.QING_DUI: 'qing_dui'>, 3),), True)
"""

from __future__ import annotations

import numpy as np

from mjfast._args import FLAG_NAMES, VOID_NAMES, as_rules
from mjfast._core import _fan
from mjfast.errors import InvalidArgumentError
from mjfast.rules import MAX_FAN, Rules
from mjfast.scoring.inputs import FLAG_BITS, NO_MELDS, NO_SITUATION, MeldInfo, meld_info, situation
from mjfast.scoring.patterns import compile_rules, view
from mjfast.scoring.single import score_counts, wait_fans
from mjfast.scoring.types import NOT_WIN, FanResult, MaxFan
from mjfast.tiles import MeldKind

__all__ = ["bind_fast_paths"]

_INT32_MAX = 2**31 - 1
MeldRows = tuple[MeldInfo, bytes | None, bytes | None]
_NO_MELD_ROWS: MeldRows = (NO_MELDS, None, None)
_MELD_ROWS: dict[int, MeldRows] = {}
_MELD_ROWS_LIMIT = 256


def describe(rules: object) -> tuple[Rules, np.ndarray, bool, int] | None:
    """*rules* as the fast paths read it: the Rules, its compiled table, the points model and
    the largest internal fan :meth:`~mjfast.rules.Rules.multiplier` takes; None when refused.

    >>> describe("qq")[0].name, describe("nope")
    ('qq', None)
    """
    try:
        r = as_rules(rules)
    except InvalidArgumentError:
        return None
    limit = MAX_FAN if r.cap is None or r.cap > MAX_FAN else _INT32_MAX
    return r, compile_rules(r), r.model == "points", limit


def meld_rows(melds: object) -> MeldRows | None:
    """*melds* as the fast paths read them: the summary, the tiles melded per kind and the
    concealed-kong marks (27 bytes each; None for no melds, no marks); None when refused.
    Cached per summary (:func:`~mjfast.scoring.inputs.meld_info` caches those).

    >>> mi, counts, marks = meld_rows(["kong_concealed:9m"])
    >>> mi.n, counts[8], marks[8]
    (1, 4, 1)
    """
    if melds is None:
        return _NO_MELD_ROWS
    try:
        mi = meld_info(melds)  # type: ignore[arg-type]
    except (ValueError, TypeError):
        return None
    rows = _MELD_ROWS.get(id(mi))
    if rows is None or rows[0] is not mi:
        if mi.counts is None:
            return _NO_MELD_ROWS
        marks = bytearray(27)
        for m in mi.melds:
            marks[m.tile] = m.kind is MeldKind.KONG_CONCEALED
        rows = (mi, bytes(mi.counts), bytes(marks) if any(marks) else None)
        if len(_MELD_ROWS) >= _MELD_ROWS_LIMIT:
            _MELD_ROWS.clear()
        _MELD_ROWS[id(mi)] = rows  # keeps mi, so its id stays its own
    return rows


def score_fields(c: bytes, mi: MeldInfo, w: int, void: int, flags: int, rules: Rules,
                 sets: int) -> dict[str, object]:
    """The items and decomposition of a fast-path score (*flags*: the kernels' bits), built on
    first read as the general path builds them."""
    sit = NO_SITUATION if not flags else situation(
        c, mi, w, *(bool(flags & FLAG_BITS[name]) for name in FLAG_NAMES))
    r = score_counts(c, mi, w, void, sit, view(rules), sets)
    return {"items": r.items, "decomposition": r.decomposition}


def wait_fields(c: bytes, mi: MeldInfo, void: int, vis: bytes | None, rules: Rules,
                sets: int) -> dict[str, object]:
    """The waits of a fast-path max_fan, built on first read."""
    return {"waits": wait_fans(c, mi, void, vis, view(rules), sets)}


def bind_fast_paths() -> None:
    """Hand the fast paths what they read (``mjfast.scoring`` does on import)."""
    _fan.bind_single(FanResult, MaxFan, NOT_WIN, meld_rows, score_fields, wait_fields, describe,
                     VOID_NAMES)
