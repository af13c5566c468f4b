"""The fan of one hand: :func:`score` a win, :func:`decompose` it, :func:`max_fan` a ready hand.

A score is a few dictionary look-ups (the cached readings of each suit, :mod:`.readings`) plus a
loop over the (usually one) combination of suit readings, each valued through the per-Rules
pattern tables of :mod:`.patterns`. :func:`max_fan` scores every wait the same way; given a batch
it hands over to the compiled kernel (:func:`mjfast.scoring.batch.max_fan`).

The common single-hand call (a tile string, 27 ints or an integer array; melds; plain option
values) first tries the compiled fast path (``score_one`` / ``max_fan_one`` of
``mjfast._core._fan``, bound by :mod:`.fast`): the numbers come from the batch kernels' C code
on one row, and the result's ``items`` / ``decomposition`` (``waits`` of a :class:`MaxFan`) are
built on first read by :func:`score_counts` here, so this module stays the one place that builds
them. Any other call, and any input the kernel refuses, takes the general path below, which
words the error.
"""

from __future__ import annotations

from typing import Literal, overload

import numpy as np

from mjfast._args import (
    as_errors,
    as_flag,
    as_rules,
    as_sets,
    as_tile,
    as_void,
    as_workers,
    hand_bytes,
    hand_sizes,
)
from mjfast._core import _fan
from mjfast._typing import Errors, HandLike, HandsLike, MeldsLike, RulesLike, TileLike, VoidSuit, VoidSuits
from mjfast.analysis import mask_to_tiles
from mjfast.analysis import waits as _waits_kernel
from mjfast.errors import InvalidArgumentError
from mjfast.rules import BASE_PATTERNS, CHENGDU, Fan
from mjfast.scoring import batch
from mjfast.scoring.batch import Fans, ManyHands, OneHand, Waits
from mjfast.scoring.inputs import (
    NO_SITUATION,
    MeldInfo,
    Situation,
    check_sizes,
    is_batch_hand,
    meld_info,
    situation,
    visible_bytes,
)
from mjfast.scoring.patterns import Pattern, RulesView, view
from mjfast.scoring.readings import R_DRAGON, R_SEQ_456, R_TWIN_SEQ, SUIT_CACHE, SuitReading, suit_features
from mjfast.scoring.types import (
    NOT_WIN,
    SEQ,
    TRIPLET,
    Decomposition,
    FanResult,
    MaxFan,
    WaitFan,
    new_decomposition,
    new_result,
)
from mjfast.tiles import Meld, format_tile

__all__ = ["decompose", "max_fan", "score"]

_suit = SUIT_CACHE.get
_POPCOUNT = (0, 1, 1, 2, 1, 2, 2, 3)
_X_QIA, _X_TWIN, _X_DRAGON = 1, 2, 4  # shape options a reading earned
_SEVEN: tuple[SuitReading, ...] = ()  # the seven-pairs reading, in place of three suit readings
_TAGS = (TRIPLET, SEQ)
_INC = tuple(bytes([i + 1]) for i in range(4))
_NO_EXTRAS: list[tuple[Fan, int]] = []  # read only

Reading = tuple[SuitReading, ...]
# The best reading so far: ((total, base fan, pattern index), reading, shape options, pattern).
_Best = tuple[tuple[int, int, int], Reading, int, Pattern]


def _extras(sit: Situation, men_qing: bool, terminal: bool,
            v: RulesView) -> list[tuple[Fan, int]]:
    """The extras that do not depend on the reading, in Fan order (roots apart)."""
    out = []
    if sit is not NO_SITUATION:
        sd, ak, akd, rob, last, _, _, jue = sit
        if ak and v.gang_shang_hua:
            out.append((Fan.GANG_SHANG_HUA, v.gang_shang_hua))
        if akd and v.gang_shang_pao:
            out.append((Fan.GANG_SHANG_PAO, v.gang_shang_pao))
        if rob and v.qiang_gang_hu:
            out.append((Fan.QIANG_GANG_HU, v.qiang_gang_hu))
        if sd and v.zi_mo:
            out.append((Fan.ZI_MO, v.zi_mo))
        if last and v.hai_di:
            out.append((Fan.HAI_DI, v.hai_di))
    if men_qing and v.men_qing:
        out.append((Fan.MEN_QING, v.men_qing))
    if not terminal and v.zhong_zhang:
        out.append((Fan.ZHONG_ZHANG, v.zhong_zhang))
    if sit is not NO_SITUATION and sit[7] and v.jue_zhang:
        out.append((Fan.JUE_ZHANG, v.jue_zhang))
    return out


def _best_regular(r0: tuple[SuitReading, ...], r1: tuple[SuitReading, ...],
                  r2: tuple[SuitReading, ...], row: tuple[Pattern, ...], w: int, common: int,
                  v: RulesView) -> _Best:
    """The best combination of suit readings; *row* holds the best pattern of the hand's
    context per shape (AND of R_ALL_TRIPLETS | R_YAO_JIU)."""
    ws = w // 9
    qia_on = v.qia_xin_wu if w % 9 == 4 else 0
    twin_on = v.zi_mei_dui
    dragon_on = v.yi_tiao_long
    best_key = (-1 << 62, 0, 0)  # below every total
    best_reading: Reading = _SEVEN
    best_x = 0
    best_pat = row[0]
    for a in r0:
        for b in r1:
            for d in r2:
                pat = row[a[2] & b[2] & d[2] & 3]  # Pattern fields by index: the fast way
                total = common + pat[1]
                x = 0
                if qia_on and (a, b, d)[ws][2] & R_SEQ_456:
                    total += qia_on
                    x |= _X_QIA
                if twin_on or dragon_on:
                    bor = a[2] | b[2] | d[2]
                    if twin_on and bor & R_TWIN_SEQ:
                        total += twin_on
                        x |= _X_TWIN
                    if dragon_on and bor & R_DRAGON:
                        total += dragon_on
                        x |= _X_DRAGON
                key = (total, pat[2], pat[0])
                if key > best_key:
                    best_key = key
                    best_reading = (a, b, d)
                    best_x = x
                    best_pat = pat
    return best_key, best_reading, best_x, best_pat


def score_counts(c: bytes, mi: MeldInfo, w: int, void: int, sit: Situation,
                 v: RulesView, sets: int = 4) -> FanResult:
    """Score checked counts *c* (3 * sets + 2 - 3m tiles, *w* among them; *void* -1 for none)."""
    k0, k1, k2 = c[0:9], c[9:18], c[18:27]
    f0 = _suit(k0) or suit_features(k0)
    f1 = _suit(k1) or suit_features(k1)
    f2 = _suit(k2) or suit_features(k2)
    smask = (f0.tiles > 0) | (f1.tiles > 0) << 1 | (f2.tiles > 0) << 2 | mi.suit_mask
    nsuits = _POPCOUNT[smask]
    if nsuits > 2 or (void >= 0 and smask >> void & 1):
        return NOT_WIN
    r0, r1, r2 = f0.readings, f1.readings, f2.readings
    regular = bool(r0 and r1 and r2)
    seven = sets == 4 and mi.n == 0 and f0.even and f1.even and f2.even
    if not (regular or seven):
        return NOT_WIN

    qing = nsuits == 1
    roots = c.count(4)
    mc = mi.counts
    if mc is not None:
        for m in mi.melds:
            if c[m.tile] + mc[m.tile] == 4:
                roots += 1
    terminal = f0.terminal or f1.terminal or f2.terminal or mi.any_terminal
    common = roots * v.root_fan
    if sit is NO_SITUATION and not v.hand_extras:
        extras = _NO_EXTRAS
    else:
        extras = _extras(sit, mi.men_qing, terminal, v)
        for _, n in extras:
            common += n
    fixed = 1 if sit[5] else 2 if sit[6] else 0  # 天胡 / 地胡

    best: _Best | None = None
    if regular:
        ctx = (qing | (f0.only_258 and f1.only_258 and f2.only_258 and mi.all_258) << 1
               | mi.all_terminal << 2 | (mi.n == sets) << 3 | fixed << 4)
        best = _best_regular(r0, r1, r2, v.regular[ctx], w, common, v)
    if seven:
        pat = v.seven[qing | (roots > 0) << 1 | fixed << 2]
        key = (common + pat[1], pat[2], pat[0])
        if best is None or key > best[0]:
            best = (key, _SEVEN, 0, pat)
    return _result(c, mi, best, roots, extras, v)  # type: ignore[arg-type]  # regular or seven


def _result(c: bytes, mi: MeldInfo, best: _Best, roots: int, extras: list[tuple[Fan, int]],
            v: RulesView) -> FanResult:
    (total, _, _), reading, x, pat = best
    offset = v.offset
    items = [(BASE_PATTERNS[pat.position], pat.base + offset)]
    gen = roots * v.root_fan - (pat.base - pat.value)  # 龙七对 may use a root up
    if gen:
        items.append((Fan.GEN, gen))
    jue = extras[-1:] if extras and extras[-1][0] is Fan.JUE_ZHANG else []  # last in Fan order
    items += extras[:len(extras) - len(jue)]
    if x & _X_QIA:
        items.append((Fan.QIA_XIN_WU, v.qia_xin_wu))
    if x & _X_TWIN:
        items.append((Fan.ZI_MEI_DUI, v.zi_mei_dui))
    if x & _X_DRAGON:
        items.append((Fan.YI_TIAO_LONG, v.yi_tiao_long))
    items += jue
    if reading is _SEVEN:
        pairs: list[int] = []
        for k in range(27):
            if c[k]:
                pairs.extend((k,) * (c[k] // 2))
        decomposition = new_decomposition((), None, True, mi.melds, tuple(pairs))
    else:
        decomposition = _build_decomposition(reading, mi.melds)
    cap = v.cap
    capped = total if cap is None or total <= cap else cap
    return new_result(True, capped + offset, total + offset, tuple(items), decomposition,
                      capped if v.points else 1 << capped)


def _build_decomposition(reading: Reading, melds: tuple[Meld, ...]) -> Decomposition:
    sets: list[tuple[str, int]] = []
    pair = None
    for s, (local, p, _) in enumerate(reading):
        off = 9 * s
        sets.extend((_TAGS[is_seq], off + r) for r, is_seq in local)
        if p >= 0:
            pair = off + p
    return new_decomposition(tuple(sets), pair, False, melds, ())


def score(
    hand: HandLike,
    *,
    win_tile: TileLike,
    melds: MeldsLike = None,
    void_suit: VoidSuit = None,
    self_drawn: bool = False,
    after_kong: bool = False,
    after_kong_discard: bool = False,
    robbing_kong: bool = False,
    last_tile: bool = False,
    tian_hu: bool = False,
    di_hu: bool = False,
    jue_zhang: bool = False,
    rules: RulesLike = None,
    sets: int = 4,
) -> FanResult:
    """The fan of a win (RULES.md sections 4 and 8).

    Args:
        hand: the 14 - 3m concealed tiles *including* the win tile (string or 27 counts).
        win_tile: the winning tile (``"5p"`` or a kind index); must be in *hand*.
        melds: declared melds (``"pung:5p"``, ``"kong_concealed:9s"``, Meld objects).
        void_suit: the declared void suit (None or -1 for none, 0-2, ``"m"``/``"p"``/``"s"``,
            ``"万"``/``"筒"``/``"饼"``/``"条"``/``"索"``).
        self_drawn: 自摸 (implied by after_kong and tian_hu).
        after_kong: 杠上花, a self-drawn win on the replacement draw after an own kong.
        after_kong_discard: 杠上炮, a win on a discard made right after the discarder's kong.
        robbing_kong: 抢杠胡, a win on another player's added kong.
        last_tile: 海底 (海底捞月 / 海底炮), the win is on the last tile.
        tian_hu, di_hu: 天胡 / 地胡 (replace the base pattern; roots still add). 地胡 is the
            non-dealer's win on the first own draw with ``self_drawn``, or on a discard in the
            first go-round without it (``rules.di_hu_on_discard``: the table decides).
        jue_zhang: 绝张, the win is on the last live copy of its tile (``rules.jue_zhang`` fan;
            the table decides).
        rules: a :class:`~mjfast.rules.Rules` or a preset name (default: ``chengdu``).
        sets: the sets of a complete hand: 4, or 3 / 2 for the short hands of the 5- and
            6-player tables (3 * sets + 2 - 3m concealed tiles; no seven pairs there; 金钩钓
            needs every set melded).

    Returns:
        A :class:`~mjfast.scoring.FanResult`; a hand that does not win (no reading, three
        suits, a tile of the declared void suit) gives ``is_win=False``, not an error.

    Raises:
        InvalidHandError: the concealed size is not 14 - 3m, or a kind exceeds 4 copies.
        InvalidArgumentError: an argument of the wrong type or outside its accepted set.
        ValueError: contradictory flags (e.g. self_drawn with robbing_kong, tian_hu with
            di_hu, after_kong without an own kong), or win_tile not in the hand.

    The fan is the maximum over all readings of base pattern + extras; on equal totals the
    higher base pattern names it:

    >>> r = score("123333m45566799s", win_tile="1m")      # 平胡 + 1 root
    >>> r.fan, [(f.name, n) for f, n in r.items], str(r.decomposition)
    (1, [('PING_HU', 0), ('GEN', 1)], '123m 333m 456s 567s 99s')
    >>> r = score("123m 234m 678m 99m", win_tile="9m", melds=["pung:5m"], self_drawn=True,
    ...           rules="qq")                             # 清一色: 2 fan, shown as 3 in qq
    >>> r.fan, r.multiplier
    (3, 4)
    >>> r = score("123m 444m 55p", win_tile="5p", sets=2)   # 6 players: 8 tiles
    >>> r.fan, str(r.decomposition)
    (0, '123m 444m 55p')
    """
    r = _score_one(hand, win_tile, melds, void_suit, self_drawn, after_kong, after_kong_discard,
                   robbing_kong, last_tile, tian_hu, di_hu, jue_zhang, rules, sets)
    if r is not None:
        return r
    c = hand_bytes(hand)
    mi = meld_info(melds)
    v = view(CHENGDU if rules is None else as_rules(rules))
    w = win_tile if type(win_tile) is int and 0 <= win_tile <= 26 else as_tile(win_tile,
                                                                              "win_tile")
    void = -1 if void_suit is None else as_void(void_suit)
    sets = as_sets(sets)
    check_sizes(c, mi, True, "hand", sets)
    if not c[w]:
        raise ValueError(f"win_tile {format_tile(w)} is not in the hand")
    if (self_drawn is False and after_kong is False and after_kong_discard is False
            and robbing_kong is False and last_tile is False and tian_hu is False
            and di_hu is False and jue_zhang is False):
        sit = NO_SITUATION
    else:
        sit = situation(c, mi, w, self_drawn, after_kong, after_kong_discard, robbing_kong,
                        last_tile, tian_hu, di_hu, jue_zhang)
    return score_counts(c, mi, w, void, sit, v, sets)


def decompose(hand: HandLike, *, melds: MeldsLike = None, sets: int = 4) -> list[Decomposition]:
    """Every distinct reading of a complete hand (structural: no void rule here).

    *hand* holds the 14 - 3m concealed tiles; a 13 - 3m hand has no reading (``[]``). With
    ``sets`` (3 or 2: short hands) 3 * sets + 2 - 3m tiles, and no seven-pairs reading.
    Readings come in canonical order (:meth:`~mjfast.scoring.Decomposition.sort_key`): regular
    readings by their sets, then the seven-pairs reading.

    >>> [str(d) for d in decompose("111222333m78999p")]
    ['111m 222m 333m 789p 99p', '123m 123m 123m 789p 99p']
    >>> for d in decompose("11223344556677m"):
    ...     print(d)
    123m 123m 456m 456m 77m
    123m 123m 567m 567m 44m
    234m 234m 567m 567m 11m
    11m 22m 33m 44m 55m 66m 77m
    >>> [str(d) for d in decompose("11223344m", sets=2)]
    ['123m 123m 44m', '234m 234m 11m']
    """
    c = hand_bytes(hand)
    mi = meld_info(melds)
    sets = as_sets(sets)
    if sum(c) == hand_sizes(sets, mi.n)[0]:
        check_sizes(c, mi, False, "hand", sets)
        return []
    check_sizes(c, mi, True, "hand", sets)
    fs = [suit_features(c[9 * s:9 * s + 9]) for s in range(3)]
    out = [_build_decomposition((a, b, d), mi.melds)
           for a in fs[0].readings for b in fs[1].readings for d in fs[2].readings]
    if sets == 4 and mi.n == 0 and all(f.even for f in fs):
        pairs: list[int] = []
        for k in range(27):
            pairs.extend((k,) * (c[k] // 2))
        out.append(Decomposition((), None, True, mi.melds, tuple(pairs)))
    return out


@overload
def max_fan(hand: OneHand, *, melds: MeldsLike = ...,  # type: ignore[overload-overlap]
            void_suit: VoidSuit = ..., visible: HandLike | None = ..., rules: RulesLike = ...,
            sets: int = ...,
            workers: int = ..., errors: Literal["raise"] = ...) -> MaxFan: ...
@overload
def max_fan(hand: ManyHands, *, melds: MeldsLike = ..., void_suit: VoidSuits = ...,
            visible: HandsLike | None = ..., rules: RulesLike = ..., sets: int = ..., workers: int = ...,
            out: Fans | None = ..., best_wait: Literal[False] = ..., errors: Errors = ...) -> Fans: ...
@overload
def max_fan(hand: ManyHands | np.ndarray, *, melds: MeldsLike = ..., void_suit: VoidSuits = ...,
            visible: HandsLike | None = ..., rules: RulesLike = ..., sets: int = ..., workers: int = ...,
            out: Fans | None = ..., best_wait: Literal[True],
            errors: Errors = ...) -> tuple[Fans, Waits]: ...
@overload
def max_fan(hand: np.ndarray, *, melds: MeldsLike = ..., void_suit: VoidSuits = ...,
            visible: HandsLike | None = ..., rules: RulesLike = ..., sets: int = ..., workers: int = ...,
            out: Fans | None = ..., best_wait: Literal[False] = ...,
            errors: Errors = ...) -> MaxFan | Fans: ...
@overload
def max_fan(hand: HandLike | ManyHands, *, melds: MeldsLike = ..., void_suit: VoidSuits = ...,
            visible: HandsLike | None = ..., rules: RulesLike = ..., sets: int = ..., workers: int = ...,
            out: Fans | None = ..., best_wait: bool = ..., errors: Errors = ...,
            best_tile: bool | None = ...) -> MaxFan | Fans | tuple[Fans, Waits]: ...
def max_fan(
    hand: HandLike | ManyHands,
    *,
    melds: MeldsLike = None,
    void_suit: VoidSuits = None,
    visible: HandsLike | None = None,
    rules: RulesLike = None,
    sets: int = 4,
    workers: int = 1,
    out: Fans | None = None,
    best_wait: bool = False,
    errors: Errors = "raise",
    best_tile: bool | None = None,
) -> MaxFan | Fans | tuple[Fans, Waits]:
    """The 查大叫 value of a 13 - 3m hand (RULES.md 6.2 and 8).

    Every wait t (a kind whose addition wins under the void rule, not already held 4 times
    counting melds) is scored as a discard win with no situational extras (roots and enabled
    shape options count). F is the maximum over the waits (``rules.cha_da_jiao == "min"``:
    the minimum), uncapped, display numbering; ties go to the lowest kind. With
    ``rules.si_jiao``, a wait with ``4 - held - visible <= 0`` is dead and does not count;
    a hand whose waits are all dead is not ready. ``payment = rules.multiplier(F_internal)``.

    Args:
        hand: 13 - 3m concealed tiles. melds, void_suit, rules, sets: as in :func:`score`
            (short hands: 3 * sets + 1 - 3m tiles).
        visible: copies seen outside the player's hand and melds (27 counts or a string).

    >>> m = max_fan("2224445557779m")           # 清对 on 9m, 清一色 on 8m
    >>> m.fan, format_tile(m.best_wait), [(format_tile(w.tile), w.fan) for w in m.waits]
    (3, '9m', [('8m', 2), ('9m', 3)])
    >>> max_fan("12347m 59s", melds=["pung:5p", "pung:6p"]).fan is None   # not ready
    True
    >>> max_fan("2224449m", sets=2).fan        # 7 tiles: 清对 on 9m
    3

    The array form: given a batch (an ``(N, 27)`` array, or a list of tile strings or of count
    rows; then also *workers*, *out*, *errors* and *best_wait*), an ``(N,)`` int16 array of F
    (-1 when not ready), equal row by row to ``max_fan(row).fan``, and with
    ``best_wait=True`` the pair of it and the ``(N,)`` int8 best waits (what
    :attr:`~mjfast.scoring.MaxFan.best_wait` holds, -1 when not ready; ``best_tile=`` is its
    deprecated name). This is the one ``max_fan``: one hand gives a :class:`MaxFan`, a batch
    arrays.

    >>> f, best = max_fan(["2224445557779m", "1112345678999m"], best_wait=True)
    >>> f.dtype, f.tolist(), best.dtype, best.tolist()
    (dtype('int16'), [3, 3], dtype('int8'), [8, 0])
    """
    m = _max_fan_fast(hand, melds, void_suit, visible, rules, sets, workers, out, best_wait, errors,
                      best_tile)
    if m is not None:
        return m
    if is_batch_hand(hand):
        return batch.max_fan(hand, melds=melds, void_suit=void_suit, visible=visible,
                             rules=rules, workers=workers, out=out, errors=errors,
                             best_wait=batch.best_wait_arg(best_wait, best_tile), sets=sets)
    # Checked before any comparison: an array would answer == elementwise.
    if (out is not None or best_tile is not None or best_wait is not False
            or type(errors) is not str or errors != "raise"):
        if as_errors(errors) or as_flag(best_wait, "best_wait") or out is not None \
                or best_tile is not None:
            raise InvalidArgumentError("out / best_wait / errors='coerce': only batch calls (an "
                                       "(N, 27) array or a list of hands) take them")
    if type(workers) is not int or workers != 1:
        as_workers(workers)
    return _max_fan_one(hand, melds, void_suit, visible, rules, as_sets(sets))  # type: ignore[arg-type]


def _max_fan_one(hand: HandLike, melds: MeldsLike, void_suit: object, visible: object,
                 rules: RulesLike, sets: int) -> MaxFan:
    c = hand_bytes(hand)
    mi = meld_info(melds)
    r = as_rules(rules)
    v = view(r)
    void = as_void(void_suit)
    check_sizes(c, mi, False, "hand", sets)
    vis = None if visible is None else visible_bytes(visible, c, mi.counts or (0,) * 27)
    waits = wait_fans(c, mi, void, vis, v, sets)
    live = [wf for wf in waits if not (r.si_jiao and wf.dead)]
    if not live:
        return MaxFan(None, 0, None, waits)
    if r.cha_da_jiao == "min":
        best = min(live, key=lambda wf: (wf.fan, wf.tile))
    else:
        best = min(live, key=lambda wf: (-wf.fan, wf.tile))
    return MaxFan(best.fan, r.multiplier(best.fan - v.offset), best.tile, waits)


def wait_fans(c: bytes, mi: MeldInfo, void: int, vis: bytes | None, v: RulesView,
              sets: int) -> tuple[WaitFan, ...]:
    """Every wait of checked waiting counts *c* (*vis*: checked visible counts or None), scored
    as a discard win, in kind order."""
    mc = mi.counts or (0,) * 27
    waits = []
    # The kernel's waits (void rule, no fifth copy) are the kinds whose score is a win: only
    # those are scored.
    mask = int(_waits_kernel(np.frombuffer(c, np.uint8), melds=None if mi.counts is None else
                             np.array(mc, np.uint8), void_suit=None if void < 0 else void,
                             sets=sets))
    for t in mask_to_tiles(mask):
        res = score_counts(c[:t] + _INC[c[t]] + c[t + 1:], mi, t, void, NO_SITUATION, v, sets)
        if res.is_win:
            dead = 4 - c[t] - mc[t] - (vis[t] if vis is not None else 0) <= 0
            waits.append(WaitFan(t, res.raw_fan, res.items, res.decomposition, dead))  # type: ignore[arg-type]
    return tuple(waits)


# The compiled fast paths (bound to the scorer by mjfast.scoring.fast); tests replace them.
_score_one = _fan.score_one
_max_fan_fast = _fan.max_fan_one
