"""Pure-Python reference for :mod:`mjfast.settlement`: the net result of a logged hand.

Written straight from RULES.md sections 5, 6 and 8 (and the decisions documented in
:mod:`mjfast.settlement`), with no validation and no transfer objects: it walks a
``Round.to_json()`` log and adds each payment to a per-player balance. It is the oracle the
ledger is tested against, so it aims to be obvious rather than fast or strict. The functions
take the arguments of their fast twins: :func:`draw_net` those of
:func:`mjfast.settlement.settle_draw`, :func:`round_net` those of ``Round.from_json``.

Fans come from the scoring twin, :mod:`mjfast._ref.scoring`, so no fast code is involved.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from mjfast._ref.scoring import max_fan, score
from mjfast.rules import Fan, Rules
from mjfast.tiles import parse_hand, parse_melds, parse_tile

__all__ = ["round_net", "draw_net"]

State = Any
"""One seat of a draw: a dict of PlayerState fields, an object whose ``to_json()`` gives one
(a PlayerState), or None for a player who has won."""


def _rules(doc: dict[str, Any]) -> Rules:
    overrides = dict(doc.get("overrides", {}))
    if "base_fan" in overrides:
        overrides["base_fan"] = {Fan[k]: v for k, v in overrides["base_fan"].items()}
    return Rules.preset(doc["preset"], **overrides)


def _fields(player: State) -> dict[str, Any] | None:
    if player is None:
        return None
    return dict(player) if isinstance(player, Mapping) else dict(player.to_json())


def _sets(players: int) -> int:
    """RULES.md 7: 4 sets + pair at 2-4 players, 3 at 5 players, 2 at 6."""
    return {5: 3, 6: 2}.get(players, 4)


def _discarded(value: Any) -> set[int]:
    return {"mps".index(x) if isinstance(x, str) else int(x) for x in value or ()}


def draw_net(states: Sequence[State], rules: Rules | str | None = None) -> list[int]:
    """Net of the draw settlement (RULES.md 6, and the options of 7); ``states``: one per
    seat, as PlayerState objects or dicts of their fields (``None`` or ``won`` = has won).
    ``kong_income`` lists (payer, amount)."""
    rules = Rules.preset(rules) if isinstance(rules, str) else rules or Rules()
    seats = [_fields(p) for p in states]
    n = len(seats)
    net = [0] * n
    still = {i: s for i, s in enumerate(seats) if s is not None and not s.get("won", False)}
    if len(still) < 2 and not (len(still) == 1 and rules.shai_tai_yang):
        return net                        # 晒太阳: a lone player still in refunds (step 3)
    flower, ready = set(), {}
    for i, s in still.items():
        hand = parse_hand(s["concealed"]) if isinstance(s["concealed"], str) else s["concealed"]
        melds = parse_melds(s.get("melds"))
        suits = {k // 9 for k in range(27) if hand[k]} | {m.tile // 9 for m in melds}
        void = s.get("void_suit")
        void = "mps".index(void) if isinstance(void, str) else void
        one_suit = rules.hua_zhu_one_suit and len(_discarded(s.get("discarded_suits"))) == 1
        if rules.cha_hua_zhu and not one_suit and (
                len(suits) == 3 or (void is not None and void in suits)):
            flower.add(i)
            continue
        mf = max_fan(hand, melds=melds, void_suit=void, visible=s.get("visible"), rules=rules,
                     sets=_sets(n))
        if mf.fan is not None:
            ready[i] = mf.payment
    for h in flower:                      # 查花猪: pays every non-花猪 player still in
        for j in still:
            if j not in flower:
                net[h] -= rules.hua_zhu_amount()
                net[j] += rules.hua_zhu_amount()
    for i in still:                       # 查大叫: not ready, not 花猪, pays every ready player
        if i in flower or i in ready:
            continue
        for j, pay in ready.items():
            net[i] -= pay
            net[j] += pay
    if rules.kong_refund:                 # refunds: every not-ready player still in
        for i, s in still.items():
            if i in ready:
                continue
            for payer, amount in s.get("kong_income") or ():
                net[i] -= amount
                net[payer] += amount
    return net


def round_net(text: str | bytes | Mapping[str, Any]) -> list[int]:
    """Per-player net of a ``Round.to_json()`` log (its text or the parsed document)."""
    doc = json.loads(text) if isinstance(text, (str, bytes)) else text
    rules = _rules(doc["rules"])
    n = doc["players"]
    net = [0] * n
    won: set[int] = set()
    kongs: list[dict[str, Any]] = []      # {"event", "player", "tile", "kind", "paid": [(q, a)]}
    discarded: dict[int, set[int]] = {i: set() for i in range(n)}
    events = doc["events"]
    for e, ev in enumerate(events):
        last = kongs[-1] if kongs and kongs[-1]["event"] == e - 1 else None
        # 杠上炮 may follow the konger's discard (a discard event between them)
        pao = kongs[-1] if kongs and kongs[-1]["event"] == e - 2 and events[e - 1]["type"] \
            == "discard" and events[e - 1]["player"] == kongs[-1]["player"] else last
        if ev["type"] == "discard":
            discarded[ev["player"]].add(parse_tile(ev["tile"]) // 9)
        elif ev["type"] == "kong":
            p, kind = ev["player"], ev["kind"]
            paid = _kong_paid(ev, rules, [q for q in range(n) if q != p and q not in won])
            if rules.added_kong_immediate and not ev.get("immediate", True):
                paid = []                           # 即时加杠: a late added kong earns nothing
            for q, a in paid:
                net[q] -= a
                net[p] += a
            kongs.append({"event": e, "player": p, "tile": parse_tile(ev["tile"]), "kind": kind,
                          "paid": paid, "from": ev.get("from_player")})
        elif ev["type"] == "win":
            many = isinstance(ev["players"], list)    # a list of seats: lists aligned with it
            winners = ev["players"] if many else [ev["players"]]
            hands = ev["hands"] if many else [ev["hands"]]
            melds = ev["melds"] if many else [ev["melds"]]
            voids = ev["void_suit"] if many else [ev["void_suit"]]
            d = ev.get("from_player")
            tile = parse_tile(ev["tile"])
            flags = {f: ev.get(f, False) for f in ("robbing_kong", "after_kong",
                                                   "after_kong_discard", "last_tile",
                                                   "tian_hu")}
            own = [{f: ev[f][i] if isinstance(ev.get(f), list) else ev.get(f, False)
                    for f in ("di_hu", "jue_zhang")} for i in range(len(winners))]
            shifted = None                              # the kong whose income each winner gets
            if (flags["robbing_kong"] and last is not None and last["player"] == d
                    and last["tile"] == tile):
                if rules.qiang_gang_transfer:           # 转雨: to the robber(s)
                    shifted = last
                else:                                   # the robbed kong earns nothing
                    for q, a in last["paid"]:
                        net[q] += a
                        net[d] -= a
                    kongs.remove(last)
            if flags["after_kong_discard"]:
                assert pao is not None                  # 杠上炮 follows the discarder's kong
                if rules.gang_shang_pao_kong == "transfer":     # 呼叫转移
                    shifted = pao
                elif rules.gang_shang_pao_kong == "refund":     # back to its payers
                    for q, a in pao["paid"]:
                        net[q] += a
                        net[d] -= a
                    kongs.remove(pao)
            dian_gang = None                            # 点杠花: the exposed kong's discarder
            if flags["after_kong"] and rules.dian_gang_hua and last is not None:
                dian_gang = last["from"]
            for w, hand, ms, v, mine in zip(winners, hands, melds, voids, own):
                res = score(hand, win_tile=tile, melds=ms, void_suit=v, self_drawn=d is None,
                            rules=rules, sets=_sets(n), **flags, **mine)
                if dian_gang is not None:
                    amount, payers = res.multiplier, [dian_gang]
                elif d is None:
                    amount = res.multiplier + (1 if rules.self_draw == "add_base" else 0)
                    payers = [q for q in range(n) if q != w and q not in won]
                else:
                    amount, payers = res.multiplier, [d]
                for q in payers:
                    net[q] -= amount
                    net[w] += amount
                if shifted is not None:
                    income = sum(a for _, a in shifted["paid"])   # a full copy to each winner
                    net[d] -= income
                    net[w] += income
            if shifted is not None:
                kongs.remove(shifted)                   # no longer the konger's income
            won.update(winners)
        elif ev["type"] == "draw":
            for i, x in enumerate(draw_net(_draw_states(ev, won, kongs, discarded), rules)):
                net[i] += x
    return net


def _kong_paid(ev: dict[str, Any], rules: Rules, others: list[int]) -> list[tuple[int, int]]:
    """(payer, amount) of a kong; *others*: the other players still in."""
    if ev["kind"] == "kong":
        paid = [(ev["from_player"], rules.exposed_kong)]
        if rules.jia_jia_you:
            paid += [(q, 1) for q in others if q != ev["from_player"]]
        return paid
    amount = rules.added_kong if ev["kind"] == "kong_added" else rules.concealed_kong
    return [(q, amount) for q in others]


def _draw_states(ev: dict[str, Any], won: set[int], kongs: list[dict[str, Any]],
                 discarded: dict[int, set[int]]) -> list[dict[str, Any] | None]:
    """The states of a logged draw, with the kong income and the suits discarded so far."""
    states: list[dict[str, Any] | None] = []
    for i, fields in enumerate(ev["players"]):
        if i in won or fields is None:
            states.append(None)
            continue
        state = dict(fields)
        state["kong_income"] = [(q, a) for kg in kongs if kg["player"] == i
                                for q, a in kg["paid"]]
        if discarded[i]:
            state["discarded_suits"] = sorted(discarded[i])
        states.append(state)
    return states
