"""Pure-Python reference twins of :mod:`mjfast.scoring`, written straight from RULES.md.

Slow and obvious on purpose: readings by brute-force recursive splitting of the whole
27-count hand, every base pattern checked one by one against its definition, waits by trying
all 27 kinds. Only the result *types* are shared with :mod:`mjfast.scoring` (from
:mod:`mjfast.scoring.types`, which imports no compiled code); no code path is.

>>> score("22244455577799m", win_tile="9m").fan
3
>>> [str(d) for d in decompose("111222333m78999p")]
['111m 222m 333m 789p 99p', '123m 123m 123m 789p 99p']

Short hands (RULES.md 7): ``sets`` (4 by default; 3 or 2 at the 5- and 6-player tables) is the
number of sets of a complete hand, so ``3 * sets + 2 - 3m`` concealed tiles win; seven pairs
needs 14 tiles and so exists only with 4 sets.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mjfast.errors import InvalidHandError
from mjfast.rules import Fan, Rules
from mjfast.scoring.types import SEQ, TRIPLET, Decomposition, FanResult, MaxFan, WaitFan
from mjfast.tiles import Meld, MeldKind, format_tile, parse_hand, parse_melds, parse_tile

__all__ = ["decompose", "max_fan", "score"]

BASE = [
    Fan.PING_HU, Fan.DUI_DUI_HU, Fan.QING_YI_SE, Fan.QI_DUI, Fan.DAI_YAO_JIU, Fan.JIANG_DUI,
    Fan.QING_DUI, Fan.QING_QI_DUI, Fan.LONG_QI_DUI, Fan.QING_YAO_JIU, Fan.QING_LONG_QI_DUI,
    Fan.TIAN_HU, Fan.DI_HU, Fan.JIN_GOU_DIAO, Fan.QING_JIN_GOU_DIAO,
]
EXTRAS_IN_ORDER = [
    Fan.GEN, Fan.GANG_SHANG_HUA, Fan.GANG_SHANG_PAO, Fan.QIANG_GANG_HU, Fan.ZI_MO, Fan.HAI_DI,
    Fan.MEN_QING, Fan.ZHONG_ZHANG, Fan.QIA_XIN_WU, Fan.ZI_MEI_DUI, Fan.YI_TIAO_LONG,
    Fan.JUE_ZHANG,
]


# ----------------------------------------------------------------------------- inputs

def _counts(hand: Any, what: str = "hand") -> list[int]:
    if isinstance(hand, str):
        return [int(x) for x in parse_hand(hand)]
    if isinstance(hand, np.ndarray):
        if hand.shape != (27,) or hand.dtype.kind not in "iu":
            raise InvalidHandError(f"{what}: expected 27 integer counts")
        hand = hand.tolist()
    values = list(hand)
    if len(values) != 27:
        raise InvalidHandError(f"{what}: expected 27 counts, got {len(values)}")
    out = []
    for k, v in enumerate(values):
        if isinstance(v, (bool, np.bool_)) or int(v) != v or not 0 <= int(v) <= 4:
            raise InvalidHandError(f"{what}[{k}]: bad count {v!r}")
        out.append(int(v))
    return out


def _melds(melds: Any, sets: int = 4) -> tuple[Meld, ...]:
    if type(sets) is not int or sets not in (2, 3, 4):
        raise ValueError(f"sets must be 2, 3 or 4, got {sets!r}")
    parsed = parse_melds(melds)
    if len(parsed) > sets:
        raise InvalidHandError(f"more than {sets} melds")
    if len({m.tile for m in parsed}) != len(parsed):
        raise InvalidHandError("a kind is melded twice")
    return parsed


def _meld_counts(melds: tuple[Meld, ...]) -> list[int]:
    out = [0] * 27
    for m in melds:
        out[m.tile] += 4 if m.kind is not MeldKind.PUNG else 3
    return out


def _check(c: list[int], melds: tuple[Meld, ...], size: int, sets: int = 4) -> None:
    """*size*: 13 (waiting) or 14 (complete), the sizes of 4 sets without melds."""
    want = size - 3 * (4 - sets) - 3 * len(melds)
    if sum(c) != want:
        raise InvalidHandError(f"hand: expected {want} concealed tiles")
    mc = _meld_counts(melds)
    for k in range(27):
        if c[k] + mc[k] > 4:
            raise InvalidHandError(f"hand: {format_tile(k)} more than 4 times")


def _void(v: Any) -> int | None:
    if v is None:
        return None
    if isinstance(v, str):
        table = {"m": 0, "p": 1, "s": 2, "万": 0, "筒": 1, "饼": 1, "条": 2, "索": 2}
        if v not in table:
            raise ValueError(f"bad void_suit {v!r}")
        return table[v]
    if isinstance(v, bool):
        raise TypeError("void_suit is a bool")
    v = int(v)
    if v not in (0, 1, 2):
        raise ValueError(f"bad void_suit {v!r}")
    return v


# ----------------------------------------------------------------------------- readings

def _split(c: list[int]) -> list[list[tuple[str, int]]]:
    """Every way to split counts *c* entirely into sets (with repeats; deduplicated later)."""
    k = next((i for i in range(27) if c[i] > 0), None)
    if k is None:
        return [[]]
    out = []
    if c[k] >= 3:
        c[k] -= 3
        out += [[(TRIPLET, k)] + rest for rest in _split(c)]
        c[k] += 3
    if k % 9 <= 6 and c[k + 1] > 0 and c[k + 2] > 0:
        for j in (k, k + 1, k + 2):
            c[j] -= 1
        out += [[(SEQ, k)] + rest for rest in _split(c)]
        for j in (k, k + 1, k + 2):
            c[j] += 1
    return out


def _set_order(s: tuple[str, int]) -> tuple[int, bool]:
    return (s[1], s[0] != TRIPLET)


def _reading_order(d: Decomposition) -> tuple:
    return (d.seven_pairs, [_set_order(s) for s in d.sets],
            -1 if d.pair is None else d.pair, d.pairs)


def decompose(hand: Any, *, melds: Any = None, sets: int = 4) -> list[Decomposition]:
    """Every reading of a complete hand (structural; no void rule), in canonical order."""
    c = _counts(hand)
    ms = _melds(melds, sets)
    if sum(c) == 3 * (sets - len(ms)) + 1:
        _check(c, ms, 13, sets)
        return []
    _check(c, ms, 14, sets)
    found = set()
    for p in range(27):
        if c[p] >= 2:
            c[p] -= 2
            for split in _split(c):
                found.add((tuple(sorted(split, key=_set_order)), p))
            c[p] += 2
    out = [Decomposition(split, p, False, ms, ()) for split, p in found]
    if not ms and sum(c) == 14 and all(x in (0, 2, 4) for x in c):
        pairs = tuple(k for k in range(27) for _ in range(c[k] // 2))
        out.append(Decomposition((), None, True, ms, pairs))
    out.sort(key=_reading_order)
    return out


# ----------------------------------------------------------------------------- fan

def _set_tiles(d: Decomposition) -> list[list[int]]:
    """The tiles of every set of a regular reading: concealed sets and melds."""
    groups = []
    for tag, t in d.sets:
        groups.append([t, t + 1, t + 2] if tag == SEQ else [t, t, t])
    for m in d.melds:
        groups.append([m.tile] * (3 if m.kind is MeldKind.PUNG else 4))
    return groups


def _applies(p: Fan, d: Decomposition, total: list[int], rules: Rules) -> bool:
    kinds = [k for k in range(27) if total[k]]
    one_suit = len({k // 9 for k in kinds}) == 1
    regular = not d.seven_pairs
    groups = _set_tiles(d) if regular else []
    all_triplets = regular and all(len(set(g)) == 1 for g in groups)
    yao_jiu = regular and all(any(t % 9 in (0, 8) for t in g) for g in groups) and (
        d.pair is not None and d.pair % 9 in (0, 8))
    four = any(total[k] == 4 for k in range(27))
    if p is Fan.PING_HU:
        return True
    if p is Fan.DUI_DUI_HU:
        return all_triplets
    if p is Fan.QING_YI_SE:
        return one_suit
    if p is Fan.QI_DUI:
        return d.seven_pairs
    if p is Fan.DAI_YAO_JIU:
        return yao_jiu
    if p is Fan.JIANG_DUI:
        return all_triplets and all(k % 9 + 1 in (2, 5, 8) for k in kinds)
    if p is Fan.QING_DUI:
        return one_suit and all_triplets
    if p is Fan.QING_QI_DUI:
        return one_suit and d.seven_pairs
    if p is Fan.LONG_QI_DUI:
        return d.seven_pairs and four
    if p is Fan.QING_YAO_JIU:
        return one_suit and yao_jiu
    if p is Fan.QING_LONG_QI_DUI:
        return one_suit and d.seven_pairs and four
    if p is Fan.JIN_GOU_DIAO:  # every set melded: the pair alone is concealed
        return rules.jin_gou_diao and regular and not d.sets
    if p is Fan.QING_JIN_GOU_DIAO:
        return rules.jin_gou_diao and regular and not d.sets and one_suit
    return False  # 天胡 / 地胡 come from the caller's flags only


def _extras(p: Fan, d: Decomposition, total: list[int], w: int, flags: dict[str, bool],
            rules: Rules) -> dict[Fan, int]:
    roots = sum(1 for k in range(27) if total[k] == 4)
    gen = roots * rules.root_fan
    if p in (Fan.LONG_QI_DUI, Fan.QING_LONG_QI_DUI) and rules.long_qi_dui_uses_root:
        gen -= rules.root_fan
    seqs = [t for tag, t in d.sets if tag == SEQ]
    # 地胡 is self-drawn only with self_drawn (it may be on a discard: rules.di_hu_on_discard)
    drawn = flags["self_drawn"] or flags["after_kong"] or flags["tian_hu"]
    x = {
        Fan.GEN: gen,
        Fan.GANG_SHANG_HUA: rules.gang_shang_hua if flags["after_kong"] else 0,
        Fan.GANG_SHANG_PAO: rules.gang_shang_pao if flags["after_kong_discard"] else 0,
        Fan.QIANG_GANG_HU: rules.qiang_gang_hu if flags["robbing_kong"] else 0,
        Fan.ZI_MO: 1 if rules.self_draw == "add_fan" and drawn else 0,
        Fan.HAI_DI: rules.hai_di if flags["last_tile"] else 0,
        Fan.JUE_ZHANG: rules.jue_zhang if flags["jue_zhang"] else 0,
        Fan.MEN_QING: rules.men_qing if all(
            m.kind is MeldKind.KONG_CONCEALED for m in d.melds) else 0,
        Fan.ZHONG_ZHANG: rules.zhong_zhang if all(
            k % 9 not in (0, 8) for k in range(27) if total[k]) else 0,
        Fan.QIA_XIN_WU: rules.qia_xin_wu if (
            w % 9 == 4 and (w - 1) in seqs) else 0,
        Fan.ZI_MEI_DUI: rules.zi_mei_dui if len(set(seqs)) < len(seqs) else 0,
        Fan.YI_TIAO_LONG: rules.yi_tiao_long if any(
            s in seqs and s + 3 in seqs and s + 6 in seqs for s in (0, 9, 18)) else 0,
    }
    return {f: n for f, n in x.items() if n}


_FLAG_NAMES = ("self_drawn", "after_kong", "after_kong_discard", "robbing_kong", "last_tile",
               "tian_hu", "di_hu", "jue_zhang")


def _check_flags(flags: dict[str, Any], c: list[int], ms: tuple[Meld, ...], w: int) -> None:
    for name, v in flags.items():
        if not isinstance(v, (bool, np.bool_)):
            raise TypeError(f"{name} must be a bool")
    f = {k: bool(v) for k, v in flags.items()}
    drawn = f["self_drawn"] or f["after_kong"] or f["tian_hu"]
    on_other = f["robbing_kong"] or f["after_kong_discard"]
    if f["tian_hu"] and f["di_hu"]:
        raise ValueError("contradictory flags: tian_hu and di_hu")
    if (f["tian_hu"] or f["di_hu"]) and (f["after_kong"] or on_other or f["last_tile"] or ms):
        raise ValueError("contradictory flags: tian_hu/di_hu with kong, last tile or melds")
    if drawn and on_other:
        raise ValueError("contradictory flags: self-drawn and a win on another's tile")
    if f["robbing_kong"] and f["after_kong_discard"]:
        raise ValueError("contradictory flags: robbing_kong and after_kong_discard")
    if f["after_kong"] and not any(m.kind is not MeldKind.PUNG for m in ms):
        raise ValueError("contradictory flags: after_kong without a kong")
    if f["robbing_kong"] and (c[w] != 1 or any(m.tile == w for m in ms)):
        raise ValueError("contradictory flags: robbing_kong, but other copies of the tile")


def score(hand: Any, *, win_tile: Any, melds: Any = None, void_suit: Any = None,
          self_drawn: bool = False, after_kong: bool = False, after_kong_discard: bool = False,
          robbing_kong: bool = False, last_tile: bool = False, tian_hu: bool = False,
          di_hu: bool = False, jue_zhang: bool = False, rules: Rules | None = None,
          sets: int = 4) -> FanResult:
    """Reference :func:`mjfast.scoring.score`."""
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise TypeError("rules must be a Rules object")
    c = _counts(hand)
    ms = _melds(melds, sets)
    if isinstance(win_tile, str):
        w = parse_tile(win_tile)
    else:
        if isinstance(win_tile, (bool, np.bool_)):
            raise TypeError("win_tile is a bool")
        w = int(win_tile)
        if not 0 <= w < 27:
            raise ValueError("win_tile out of range")
    void = _void(void_suit)
    _check(c, ms, 14, sets)
    if c[w] == 0:
        raise ValueError("win_tile is not in the hand")
    flags = dict(zip(_FLAG_NAMES, (self_drawn, after_kong, after_kong_discard, robbing_kong,
                                   last_tile, tian_hu, di_hu, jue_zhang)))
    _check_flags(flags, c, ms, w)
    flags = {k: bool(v) for k, v in flags.items()}

    total = [a + b for a, b in zip(c, _meld_counts(ms))]
    suits = {k // 9 for k in range(27) if total[k]}
    if len(suits) > 2 or (void is not None and void in suits):
        return FanResult(False, None, None, (), None, 0)
    readings = decompose(c, melds=ms, sets=sets)
    if not readings:
        return FanResult(False, None, None, (), None, 0)

    best = None
    for d in readings:
        if flags["tian_hu"]:
            candidates = [Fan.TIAN_HU]
        elif flags["di_hu"]:
            candidates = [Fan.DI_HU]
        else:
            candidates = [p for p in BASE if _applies(p, d, total, rules)]
        for p in candidates:
            extras = _extras(p, d, total, w, flags, rules)
            value = rules.base_fan[p] + sum(extras.values())
            key = (value, rules.base_fan[p], BASE.index(p))
            if best is None or key > best[0]:
                best = (key, p, extras, d)
    assert best is not None
    (value, base, _), p, extras, d = best
    off = rules.fan_display_offset
    items = [(p, base + off)] + [(f, extras[f]) for f in EXTRAS_IN_ORDER if f in extras]
    capped = value if rules.cap is None else min(value, rules.cap)
    return FanResult(True, capped + off, value + off, tuple(items), d, _payment(rules, capped))


def _payment(rules: Rules, capped: int) -> int:
    """What a hand of *capped* (internal) fan pays per payer: ``2 ** fan``, or the points
    themselves under the additive model (RULES.md section 7, ``points``)."""
    return capped if rules.model == "points" else 2 ** capped


def max_fan(hand: Any, *, melds: Any = None, void_suit: Any = None, visible: Any = None,
            rules: Rules | None = None, sets: int = 4) -> MaxFan:
    """Reference :func:`mjfast.scoring.max_fan`: tries all 27 kinds."""
    rules = Rules() if rules is None else rules
    c = _counts(hand)
    ms = _melds(melds, sets)
    _void(void_suit)
    _check(c, ms, 13, sets)
    mc = _meld_counts(ms)
    seen = [0] * 27 if visible is None else _counts(visible, "visible")
    for k in range(27):
        if c[k] + mc[k] + seen[k] > 4:
            raise InvalidHandError(f"visible[{k}]: more than 4 copies")
    waits = []
    for t in range(27):
        held = c[t] + mc[t]
        if held == 4:
            continue
        full = list(c)
        full[t] += 1
        r = score(full, win_tile=t, melds=ms, void_suit=void_suit, rules=rules, sets=sets)
        if r.is_win:
            waits.append(WaitFan(t, r.raw_fan, r.items, r.decomposition,  # type: ignore[arg-type]
                                 4 - held - seen[t] <= 0))
    counted = [wf for wf in waits if not (rules.si_jiao and wf.dead)]
    if not counted:
        return MaxFan(None, 0, None, tuple(waits))
    if rules.cha_da_jiao == "max":
        f = max(wf.fan for wf in counted)
    else:
        f = min(wf.fan for wf in counted)
    tile = min(wf.tile for wf in counted if wf.fan == f)
    internal = f - rules.fan_display_offset
    cap = internal if rules.cap is None else min(internal, rules.cap)
    return MaxFan(f, _payment(rules, cap), tile, tuple(waits))
