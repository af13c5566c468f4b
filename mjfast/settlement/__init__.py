"""Money for one hand of 血战到底: payments for wins and kongs, and the draw settlement.

RULES.md sections 5 (payments), 6 (draw settlement) and 8 (clarifications), with the presets
and options of section 7 (the additive ``points`` model, 点杠花, 晒太阳, the 花猪 exception, tables
of 2 to 6 players). Amounts are ints in units of the base stake. Two entry points:

- :func:`settle_draw` settles a draw (流局) from the players' final states: 查花猪, 查大叫 and
  kong refunds (退税), in that order.
- :class:`Round` is the ledger of one hand: feed it kongs, wins and the final draw as they happen
  and it records every payment as a :class:`Transfer`, with the event log as JSON.

Modules: ``model`` (Reason, Transfer, Settlement, PlayerState), ``draw`` (the draw settlement),
``round`` and ``ledger`` (the Round and its state), ``log`` (the JSON event log).

Worked example (``chengdu`` rules; players 0-3)::

    >>> from mjfast.settlement import Round, PlayerState
    >>> r = Round()
    >>> r.kong(1, "5s", "kong_concealed")            # 下雨: 0, 2, 3 pay player 1 two each
    (Transfer(0 -> 1: 2, gang_an), Transfer(2 -> 1: 2, gang_an), Transfer(3 -> 1: 2, gang_an))
    >>> r.win(0, "6p", from_player=2, hands="234567m11234567p")   # 点炮, 平胡: 2 pays 1
    (Transfer(2 -> 0: 1, dian_pao, 0 fan),)
    >>> s = r.draw([None,                                         # player 0 has won
    ...             PlayerState("1379p137999s", melds=["kong_concealed:5s"]),  # not ready
    ...             PlayerState("4455m1688p22669s"),              # three suits: 花猪
    ...             PlayerState("1112345678999m")])               # ready: 清一色 + 根 = 3 fan
    >>> for t in s.transfers: print(t)
    2 -> 1: 8, hua_zhu
    2 -> 3: 8, hua_zhu
    1 -> 3: 8, cha_da_jiao, 3 fan
    1 -> 0: 2, kong_refund
    1 -> 2: 2, kong_refund
    1 -> 3: 2, kong_refund
    >>> r.net.tolist()
    [1, 0, -17, 16]

Decisions where RULES.md leaves room (each is also stated where it applies):

- ``Round.win(hands=...)`` takes each winner's concealed tiles INCLUDING the win tile (14 - 3m
  tiles), exactly what :func:`mjfast.scoring.score` takes; a 13 - 3m hand is refused with a hint.
- Kong income is tracked per kong: each kong keeps the (payer, amount) pairs it earned. A robbed
  added kong (抢杠胡) earns nothing; a kong whose income was handed to a 杠上炮 winner (呼叫转移)
  is no longer the konger's. What remains is refunded at the draw by a player still in who is not
  ready, each amount to its original payer (also a payer who has won since).
- 呼叫转移 with several winners on one discard (一炮多响): each winner receives the full income of
  that kong; the discarder pays the extra copies out of pocket (as the Chengdu rule pages put
  it: "若杠后点炮超过一响，点炮者要另赔出刚杠所得的点数给被点者"). Only the kong made just before the
  discard counts. With ``gang_shang_pao_kong="refund"`` that income goes back to its payers
  once (``Reason.PAO_REFUND``), with ``"keep"`` it stays (refunded at a draw only if the konger
  is not ready then).
- 转雨 (``Rules.qiang_gang_transfer``) follows the same reading: each robber of an added kong
  recorded just before receives its whole income (``Reason.ZHUAN_YU``); the robbed player keeps
  a pung. A robbing win with no kong recorded (how :class:`~mjfast.table.Table` plays it when
  转雨 is off) moves no kong money.
- 即时加杠 (``Rules.added_kong_immediate``): ``Round.kong(..., immediate=False)`` records an added
  kong declared after the turn its fourth copy was drawn; it earns nothing but is a kong (its
  meld, robbable, 杠上花 after it).
- Zero amounts are never recorded as transfers (under ``points`` kongs pay nothing: no transfer).
- ``Round.discard`` is optional and moves no money: it records the suits each player discarded
  (for the 花猪 exception, ``Rules.hua_zhu_one_suit``); discards are not in the copy accounting
  (a discard may be claimed). One discard by the konger may come between a kong and the 杠上炮
  on it; 杠上花 and 抢杠胡 must follow the kong directly.
- 晒太阳 (``Rules.shai_tai_yang``): after all but one have won, ``Round.draw`` may be called once
  more, with the last player's hand; it refunds that player's kong income unless ready.
- Transfer.fan is the displayed fan before the cap (FanResult.raw_fan / MaxFan.fan); the amount
  shows the cap.
"""

from __future__ import annotations

from mjfast.settlement.draw import settle_draw
from mjfast.settlement.model import PlayerState, Reason, Settlement, Transfer
from mjfast.settlement.round import Round

__all__ = [
    "PlayerState",
    "Reason",
    "Round",
    "Settlement",
    "Transfer",
    "settle_draw",
]
