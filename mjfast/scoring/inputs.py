"""What a win is scored from, checked once: declared melds (summarised and cached), the concealed
size, the copies seen elsewhere, and the situational flags with the rules that make them
contradict each other.

The single-hand scorer and the batch kernels' error messages both read this module, so a
contradiction is worded the same way whichever path finds it; the C kernels hold a copy of
:func:`situation`'s rule (``mf_fan_row`` in ``src/mjfast_fan.h``), checked against it by a test.
Hands themselves are read by :func:`mjfast._args.hand_bytes`, tiles by
:func:`mjfast._args.as_tile`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from mjfast._args import FLAG_NAMES, as_flag, hand_bytes, hand_sizes
from mjfast._typing import MeldsLike
from mjfast.errors import InvalidHandError
from mjfast.tiles import Meld, MeldKind, format_tile, melds_to_counts, parse_melds

__all__ = [
    "FLAG_BITS",
    "NO_MELDS",
    "NO_SITUATION",
    "MeldInfo",
    "Situation",
    "check_sizes",
    "contradiction",
    "is_batch_hand",
    "meld_info",
    "situation",
    "visible_bytes",
]

FLAG_BITS: dict[str, int] = {name: 1 << i for i, name in enumerate(FLAG_NAMES)}
"""The bit of each situational flag in the batch kernels' packed flags (``MF_SD`` .. ``MF_JUE``)."""


class MeldInfo(NamedTuple):
    """The declared melds, summarised for the scorer."""

    melds: tuple[Meld, ...]
    counts: tuple[int, ...] | None  # tiles per kind in melds (None when no melds)
    n: int
    men_qing: bool  # no pung / exposed kong / added kong (concealed kongs keep it)
    has_kong: bool
    suit_mask: int
    any_terminal: bool
    all_terminal: bool  # every meld is of a 1 or a 9
    all_258: bool


NO_MELDS = MeldInfo((), None, 0, True, False, 0, False, True, True)
_MELD_CACHE: dict[object, MeldInfo] = {}
_MELD_CACHE_LIMIT = 4096
_KEY_CHARS = 40  # longer meld strings are parsed every time instead of kept as cache keys


def meld_info(melds: MeldsLike) -> MeldInfo:
    """The :class:`MeldInfo` of *melds* (anything :func:`mjfast.tiles.parse_melds` reads);
    cached for short meld strings and Meld objects."""
    if melds is None:
        return NO_MELDS
    key: object
    if type(melds) is Meld:
        key = melds
    elif type(melds) is str:
        if len(melds) > _KEY_CHARS:
            return _build_meld_info(melds)
        key = melds
    elif type(melds) is list or type(melds) is tuple:
        if not melds:
            return NO_MELDS
        key = tuple(melds)
        if len(key) > 4 or not all(
                type(m) is Meld or (type(m) is str and len(m) <= _KEY_CHARS) for m in key):
            return _build_meld_info(melds)
    else:
        return _build_meld_info(melds)
    info = _MELD_CACHE.get(key)
    if info is None:
        info = _build_meld_info(melds)
        if len(_MELD_CACHE) >= _MELD_CACHE_LIMIT:
            _MELD_CACHE.clear()
        _MELD_CACHE[key] = info
    return info


def _build_meld_info(melds: MeldsLike) -> MeldInfo:
    parsed = parse_melds(melds)
    if not parsed:
        return NO_MELDS
    counts = melds_to_counts(parsed)  # refuses a kind melded twice and a fifth meld
    ranks = [m.tile % 9 for m in parsed]
    suit_mask = 0
    for m in parsed:
        suit_mask |= 1 << (m.tile // 9)
    return MeldInfo(
        melds=parsed,
        counts=tuple(counts.tolist()),
        n=len(parsed),
        men_qing=all(m.kind is MeldKind.KONG_CONCEALED for m in parsed),
        has_kong=any(m.is_kong for m in parsed),
        suit_mask=suit_mask,
        any_terminal=any(r in (0, 8) for r in ranks),
        all_terminal=all(r in (0, 8) for r in ranks),
        all_258=all(r in (1, 4, 7) for r in ranks),
    )


def check_sizes(c: bytes, mi: MeldInfo, complete: bool, name: str, sets: int = 4) -> None:
    """Refuse concealed counts *c* whose size is not 14 - 3m (*complete*) or 13 - 3m (for
    *sets* sets: 3 * sets + 2 - 3m or 3 * sets + 1 - 3m), or that hold a fifth copy of a
    melded kind."""
    if mi.n > sets:
        raise InvalidHandError(f"melds: {mi.n} melds (max {sets} with sets={sets})")
    n = sum(c)
    want = hand_sizes(sets, mi.n)[complete]
    if n != want:
        size = f"{3 * sets + 2 if complete else 3 * sets + 1} - 3m"
        raise InvalidHandError(
            f"{name}: {n} concealed tiles with {mi.n} meld(s); expected {want} "
            + (f"({size}, the winning tile included)" if complete else f"({size})")
        )
    if mi.counts is not None:
        mc = mi.counts
        for m in mi.melds:
            t = m.tile
            if c[t] + mc[t] > 4:
                raise InvalidHandError(f"{name}: tile {format_tile(t)} appears {c[t] + mc[t]} times "
                                  f"counting melds (max 4)")



Situation = tuple[bool, bool, bool, bool, bool, bool, bool, bool]
"""The situational flags once checked, in :data:`~mjfast._args.FLAG_NAMES` order, with
``self_drawn`` set by every flag that implies it."""
NO_SITUATION: Situation = (False,) * 8


def situation(c: bytes, mi: MeldInfo, w: int, *values: object) -> Situation:
    """Check the situational flags (in :data:`~mjfast._args.FLAG_NAMES` order) of a win on
    kind *w* with concealed counts *c* and melds *mi*.

    ``after_kong`` (杠上花) and ``tian_hu`` are self-drawn wins; ``di_hu`` is one with
    ``self_drawn`` and a discard win without it (``rules.di_hu_on_discard``). Contradictions
    raise ``ValueError`` (see :func:`contradiction` for the wording).
    """
    for name, v in zip(FLAG_NAMES, values):
        if v is not True and v is not False:
            as_flag(v, name)  # numpy bools pass, anything else raises
    sd, ak, akd, rob, last, tian, di, jue = map(bool, values)
    drawn = sd or ak or tian
    if (((tian or di) and (tian and di or ak or akd or rob or last or mi.n))
            or (drawn and (rob or akd)) or (rob and akd)):
        raise contradiction(sd, ak, akd, rob, last, tian, di)
    if ak and not mi.has_kong:
        raise ValueError("contradictory flags: after_kong (杠上花) needs an own kong among "
                         "the melds")
    if rob and (c[w] != 1 or (mi.counts is not None and mi.counts[w])):
        raise ValueError(
            f"contradictory flags: robbing_kong: the robbed player holds the other three "
            f"{format_tile(w)}, so the hand can hold only the robbed copy"
        )
    return (drawn, ak, akd, rob, last, tian, di, jue)


def contradiction(sd: bool, ak: bool, akd: bool, rob: bool, last: bool, tian: bool,
                  di: bool) -> ValueError:
    """The message for flags that exclude each other (melds only matter to 天胡 / 地胡, which
    are wins before any meld)."""
    def bad(msg: str) -> ValueError:
        return ValueError(f"contradictory flags: {msg}")

    if tian and di:
        return bad("tian_hu (dealer) and di_hu (non-dealer) exclude each other")
    if tian or di:
        name = "tian_hu" if tian else "di_hu"
        for other, v in (("after_kong", ak), ("after_kong_discard", akd),
                         ("robbing_kong", rob), ("last_tile", last)):
            if v:
                return bad(f"{name} is a win on the dealt hand / first draw, not with {other}")
        return bad(f"{name} is a win before any meld, but melds were given")
    if rob and akd:
        return bad("robbing_kong (抢杠) and after_kong_discard (杠上炮) exclude each other")
    what = "robbing_kong" if rob else "after_kong_discard"
    src = "self_drawn" if sd else "after_kong"
    return bad(f"{src} is a self-drawn win, {what} a win on another player's tile")


def is_batch_hand(hand: object) -> bool:
    """Whether *hand* is a batch: a 2-D array, or a non-empty list of hands."""
    if type(hand) is np.ndarray:
        return hand.ndim == 2
    return (type(hand) is list or type(hand) is tuple) and len(hand) > 0 and isinstance(
        hand[0], (str, list, tuple, np.ndarray))


def visible_bytes(visible: object, c: bytes, mc: Sequence[int]) -> bytes:
    """The checked visible counts beside held counts *c* and meld counts *mc*."""
    vis = hand_bytes(visible, "visible")
    for k in range(27):
        if c[k] + mc[k] + vis[k] > 4:
            raise InvalidHandError(f"visible[{k}]: {vis[k]} visible + {c[k] + mc[k]} held "
                                   f"copies of {format_tile(k)} exceed 4")
    return vis
