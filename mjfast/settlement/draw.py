"""The draw settlement (流局, RULES.md section 6): 查花猪, 查大叫 and kong refunds (退税)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mjfast._args import as_rules
from mjfast._deprecated import renamed
from mjfast.errors import InvalidArgumentError
from mjfast.rules import Rules
from mjfast.scoring import MaxFan, max_fan
from mjfast.settlement.model import (
    MAX_PLAYERS,
    PlayerState,
    Reason,
    Settlement,
    Transfer,
    as_state,
    naming,
    sets_for,
)
from mjfast.tiles import NUM_KINDS, format_tile

__all__ = ["check_copies", "settle_draw", "settle_states"]


@renamed(players="states")
def settle_draw(states: Sequence[PlayerState | None], rules: Rules | str | None = None,
                ) -> Settlement:
    """Settle a draw (流局): RULES.md section 6, steps 1-3 in order.

    ``states`` holds one :class:`PlayerState` (or a dict of its fields) per seat (2-6 seats;
    ``None`` or ``won=True`` for a player who has already won). ``rules``: a
    :class:`mjfast.rules.Rules`, a preset name or None (``chengdu``). Only with two or more
    players still in; otherwise the result is an empty Settlement (except for 晒太阳, below).
    A player still in holds ``3 x sets + 1 - 3 x melds`` concealed tiles, where ``sets`` is
    :func:`~mjfast.settlement.model.sets_for` the table size: 13 - 3m for 2 to 4 players, 10 - 3m
    for 5 and 7 - 3m for 6 (RULES.md section 7).

    1. 查花猪 (if ``rules.cha_hua_zhu``): each 花猪 still in (three suits, or a tile of its
       declared void; with ``rules.hua_zhu_one_suit`` not a player whose ``discarded_suits`` is
       one suit) pays each non-花猪 player still in ``rules.hua_zhu_amount()``. Without 查花猪
       (``points``) such a hand is simply not ready.
    2. 查大叫: each non-花猪 player still in who is not ready pays each ready player still in
       that player's ``mjfast.scoring.max_fan(...).payment`` (赔大 / 赔小 per
       ``rules.cha_da_jiao``, 死叫 per ``rules.si_jiao`` using ``visible``; under the ``points``
       model the payment is the points, not ``2 ** fan``).
    3. 退税 (if ``rules.kong_refund``): each player still in who is not ready (花猪 included)
       returns its ``kong_income`` to the payers, one transfer per payer.

    晒太阳 (``rules.shai_tai_yang``): when every other player has won, the one player still in
    refunds its kong income unless ready (step 3 alone).

    >>> s = settle_draw([
    ...     PlayerState("1112345678999m"),                     # ready: 大叫 3 fan, pays 8
    ...     PlayerState("1357m2468m19p", melds=["pung:5p"]),   # not ready
    ...     PlayerState("2345m3p26899s", melds=["kong_added:7p"],
    ...                 kong_income=[(0, 1), (1, 1), (3, 1)]),  # three suits: 花猪
    ...     None])                                             # player 3 has won
    >>> for t in s.transfers: print(t)
    2 -> 0: 8, hua_zhu
    2 -> 1: 8, hua_zhu
    1 -> 0: 8, cha_da_jiao, 3 fan
    2 -> 0: 1, kong_refund
    2 -> 1: 1, kong_refund
    2 -> 3: 1, kong_refund
    >>> s.net.tolist(), s.hua_zhu, s.ready
    ([17, 1, -19, 1], (2,), (0,))
    """
    rules = as_rules(rules)
    if isinstance(states, (str, bytes)) or not isinstance(states, Sequence):
        raise InvalidArgumentError("states: expected a sequence of PlayerState (one per seat), "
                                   f"got {type(states).__name__}")
    if not 2 <= len(states) <= MAX_PLAYERS:
        raise InvalidArgumentError(
            f"states: expected one per seat, 2 to {MAX_PLAYERS} seats, got {len(states)}")
    checked = [as_state(p, f"states[{i}]") for i, p in enumerate(states)]
    check_copies(checked, np.zeros(NUM_KINDS, dtype=np.int64), "states")
    return settle_states(checked, rules, None)


def settle_states(states: Sequence[PlayerState | None], rules: Rules,
                  event: int | None) -> Settlement:
    """:func:`settle_draw` on checked states; ``event`` goes into each Transfer."""
    n = len(states)
    sets = sets_for(n)
    live = {i: s for i, s in enumerate(states) if s is not None and not s.won}
    still_in = list(live)
    for i, s in live.items():
        size, want = sum(s.concealed), 3 * sets + 1 - 3 * len(s.melds)
        if size != want:
            raise ValueError(f"states[{i}]: a player still in at the draw holds "
                             f"{3 * sets + 1} - 3 x melds = {want} concealed tiles, got {size}")
        for payer, _ in s.kong_income:
            if not 0 <= payer < n or payer == i:
                raise ValueError(f"states[{i}].kong_income: payer {payer} is not another "
                                 f"player 0..{n - 1}")
    if len(still_in) < 2 and not (still_in and rules.shai_tai_yang):
        return Settlement.from_transfers((), n)

    hua_zhu = [i for i in still_in if rules.cha_hua_zhu
               and live[i].is_hua_zhu(rules.hua_zhu_one_suit)]
    clean = [i for i in still_in if i not in hua_zhu]
    da_jiao = _ready(live, clean, rules, sets)
    ready = sorted(da_jiao)

    out: list[Transfer] = []
    amount = rules.hua_zhu_amount() if hua_zhu else 0
    for h in hua_zhu:                                   # 1. 查花猪
        for j in clean:
            if amount > 0:
                out.append(Transfer(h, j, amount, Reason.HUA_ZHU, event=event))
    for i in clean:                                     # 2. 查大叫
        if i in da_jiao:
            continue
        for j in ready:
            mf = da_jiao[j]
            if mf.payment > 0:
                out.append(Transfer(i, j, int(mf.payment), Reason.CHA_DA_JIAO, fan=mf.fan,
                                    event=event))
    if rules.kong_refund:                               # 3. 退税
        for i in still_in:
            if i in da_jiao:
                continue
            owed: dict[int, int] = {}
            for payer, amt in live[i].kong_income:
                owed[payer] = owed.get(payer, 0) + amt
            for payer in sorted(owed):
                if owed[payer] > 0:
                    out.append(Transfer(i, payer, owed[payer], Reason.KONG_REFUND, event=event))
    return Settlement.from_transfers(out, n, hua_zhu=hua_zhu, ready=ready)


def _ready(live: dict[int, PlayerState], clean: list[int], rules: Rules,
           sets: int) -> dict[int, MaxFan]:
    """The best wait (大叫) of each clean player who is ready, by seat."""
    da_jiao = {}
    for i in clean:
        s = live[i]
        with naming(f"states[{i}]"):
            mf = max_fan(s.concealed, melds=s.melds, void_suit=s.void_suit, visible=s.visible,
                         rules=rules, sets=sets)
        if mf.fan is not None:
            da_jiao[i] = mf
    return da_jiao


def check_copies(states: Sequence[PlayerState | None], known: np.ndarray, what: str) -> None:
    """No tile may appear more than 4 times over ``states`` and the ``known`` copies."""
    total = known.copy()
    for s in states:
        if s is not None:
            total += np.asarray(s.counts, dtype=np.int64)
    if total.max(initial=0) > 4:
        k = int(np.argmax(total))
        raise ValueError(f"{what}: tile {format_tile(k)} appears {int(total[k])} times "
                         "across the table (max 4)")
