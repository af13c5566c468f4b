"""Which rules acted in a played hand: read from its event log (and the ledger replaying it), so
that the differential test can say how often each rule was exercised.

A rule "fires" when it changed what happened or who paid what: 即时加杠 when an added kong was
declared late (it earned nothing), 呼叫转移 when a 杠上炮 moved kong money, a fan option when a
win scored it, and so on. ``guo_shui`` and ``zui_hou_bi_hu`` act on the legal actions, not
the log: :func:`count_flow` counts them where the reference engine decides them.
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

from mjfast import Round
from mjfast.rules import Fan, Rules
from mjfast.scoring import max_fan, score
from mjfast.settlement import PlayerState, Reason
from mjfast.settlement.model import sets_for
from mjfast.table import legal

_OPTION_FANS = {Fan.HAI_DI: "hai_di", Fan.MEN_QING: "men_qing", Fan.ZHONG_ZHANG: "zhong_zhang",
                Fan.QIA_XIN_WU: "qia_xin_wu", Fan.ZI_MEI_DUI: "zi_mei_dui",
                Fan.YI_TIAO_LONG: "yi_tiao_long", Fan.ZI_MO: "self_draw=add_fan",
                Fan.JIN_GOU_DIAO: "jin_gou_diao", Fan.QING_JIN_GOU_DIAO: "jin_gou_diao",
                Fan.GANG_SHANG_HUA: "gang_shang_hua", Fan.GANG_SHANG_PAO: "gang_shang_pao",
                Fan.QIANG_GANG_HU: "qiang_gang_hu"}
_REASONS = {Reason.HUA_ZHU: "cha_hua_zhu", Reason.KONG_REFUND: "kong_refund",
            Reason.ZHUAN_YU: "qiang_gang_transfer",
            Reason.HU_JIAO_ZHUAN_YI: "gang_shang_pao_kong=transfer",
            Reason.PAO_REFUND: "gang_shang_pao_kong=refund"}


def fired(log: str) -> set[str]:
    """The rules that acted in the hand of ``log`` (a ``Round.to_json()`` text)."""
    doc = json.loads(log)
    r = Round.from_json(doc)
    rules, events = r.rules, doc["events"]
    out = {_REASONS[t.reason] for t in r.transfers if t.reason in _REASONS}
    if any(t.reason is Reason.CHA_DA_JIAO for t in r.transfers):
        out.add(f"cha_da_jiao={rules.cha_da_jiao}")
    paid = {t.event for t in r.transfers}  # the events that moved money
    discarded: dict[int, set[int]] = {}
    last_kong: dict[str, Any] | None = None
    for e, ev in enumerate(events):
        if ev["type"] == "discard":
            discarded.setdefault(ev["player"], set()).add("mps".index(ev["tile"][-1]))
        elif ev["type"] == "kong":
            last_kong = dict(ev, paid=e in paid)
            if ev["kind"] == "kong" and rules.jia_jia_you:
                out.add("jia_jia_you")
            if ev.get("immediate") is False and rules.added_kong_immediate:
                out.add("added_kong_immediate")
        elif ev["type"] == "win":
            out |= _win(rules, ev, last_kong, sets_for(r.players))
        elif ev["type"] == "draw":
            out |= _draw(rules, ev, discarded)
            if sum(p is not None for p in ev["players"]) == 1 and e in paid:
                out.add("shai_tai_yang")   # the last player refunded
    return out


def _win(rules: Rules, ev: dict[str, Any], last_kong: dict[str, Any] | None,
         sets: int) -> set[str]:
    out = {f"model={rules.model}"}
    many = isinstance(ev["players"], list)
    flags = {k: ev.get(k, False) for k in ("robbing_kong", "after_kong", "after_kong_discard",
                                           "last_tile", "tian_hu", "di_hu")}
    if flags["after_kong"] and rules.dian_gang_hua and last_kong and last_kong["kind"] == "kong":
        out.add("dian_gang_hua")
    if flags["after_kong_discard"] and last_kong and last_kong["paid"] \
            and rules.gang_shang_pao_kong == "keep":
        out.add("gang_shang_pao_kong=keep")
    if "from_player" not in ev and rules.self_draw == "add_base":
        out.add("self_draw=add_base")
    each = zip(*(ev[k] if many else [ev[k]] for k in ("hands", "melds", "void_suit")))
    for hand, melds, void in each:
        res = score(hand, win_tile=ev["tile"], melds=melds, void_suit=void,
                    self_drawn="from_player" not in ev, rules=rules, sets=sets, **flags)
        out |= {_OPTION_FANS[f] for f, v in res.items if f in _OPTION_FANS and v}
        if any(f is Fan.GEN for f, _ in res.items):
            out.add("root_fan")
        if rules.cap is not None and (res.raw_fan or 0) - rules.fan_display_offset > rules.cap:
            out.add("cap")
    return out


def _draw(rules: Rules, ev: dict[str, Any], discarded: dict[int, set[int]]) -> set[str]:
    players = {i: PlayerState(**p) for i, p in enumerate(ev["players"]) if p is not None}
    out = set()
    for i, p in players.items():
        pig = p.is_hua_zhu()
        if pig and not rules.cha_hua_zhu:
            out.add("cha_hua_zhu")        # off: the three-suit hand is simply not ready
        if pig and rules.cha_hua_zhu and rules.hua_zhu_one_suit and len(discarded.get(i, ())) == 1:
            out.add("hua_zhu_one_suit")
        if rules.si_jiao and not pig:
            blind = max_fan(p.concealed, melds=p.melds, void_suit=p.void_suit, rules=rules)
            seen = max_fan(p.concealed, melds=p.melds, void_suit=p.void_suit, rules=rules,
                           visible=p.visible)
            if blind.fan != seen.fan:
                out.add("si_jiao")
    return out


@contextlib.contextmanager
def count_flow(counts: Counter[str]) -> Iterator[None]:
    """Count 过水不胡 (a discard win barred) and 最后四张必胡 (a win forced) while the reference
    engine decides them (its masks ask only when the seat could win)."""
    blocked, forced = legal.guo_shui_blocked, legal.forced_win

    def guo_shui(s: Any, p: int) -> bool:
        out = blocked(s, p)
        counts["guo_shui"] += out
        return out

    def must_win(s: Any) -> bool:
        out = forced(s)
        counts["zui_hou_bi_hu"] += out
        return out

    legal.guo_shui_blocked, legal.forced_win = guo_shui, must_win  # type: ignore[assignment]
    try:
        yield
    finally:
        legal.guo_shui_blocked, legal.forced_win = blocked, forced  # type: ignore[assignment]
