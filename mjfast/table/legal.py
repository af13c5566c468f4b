"""Legal actions of one seat as a mask over the fixed action space, and the reason an action is
not legal (RULES.md section 10)."""

from __future__ import annotations

import numpy as np

from mjfast.scoring import score
from mjfast.table.actions import (
    DISCARD,
    KONG_ADDED,
    KONG_CONCEALED,
    KONG_EXPOSED,
    NUM_ACTIONS,
    PASS,
    PUNG,
    VOID,
    WIN,
    action_name,
)
from mjfast.table.state import (
    PHASE_CLAIM,
    PHASE_NAMES,
    PHASE_OVER,
    PHASE_ROB,
    PHASE_TURN,
    PHASE_VOID,
    TableState,
)
from mjfast.tiles import NUM_KINDS, format_tile

__all__ = ["claim_fan", "could_claim", "forced_win", "guo_shui_blocked", "legal_mask",
           "void_choices", "why_illegal"]

_SUIT_ZH = "万筒条"


def claim_fan(s: TableState, p: int) -> int:
    """The fan seat ``p`` would win on the tile being claimed or robbed (with its flags)."""
    hand = s.hands[p].copy()
    hand[s.tile] += 1
    res = score(hand, win_tile=s.tile, melds=s.meld_list(p), void_suit=int(s.void[p]),
                robbing_kong=s.phase == PHASE_ROB, after_kong_discard=s.kong_discard,
                last_tile=s.wall_left == 0, rules=s.rules)
    return int(res.raw_fan or 0)


def guo_shui_blocked(s: TableState, p: int) -> bool:
    """过水不胡: ``p`` passed a win on another's tile since its last draw, and this one is not
    worth more fan (``rules.guo_shui="fan"``) or is on the same tile (``"tile"``)."""
    if s.rules.guo_shui == "tile":
        return bool(int(s.passed_tiles[p]) >> s.tile & 1)
    return (s.rules.guo_shui == "fan" and s.passed_fan[p] >= 0
            and claim_fan(s, p) <= s.passed_fan[p])


def forced_win(s: TableState) -> bool:
    """最后四张必胡: a player who can win on one of the last four tiles of the wall (the draw
    of the fourth from last leaves 3) must."""
    return s.rules.zui_hou_bi_hu and s.wall_left < 4


def _in_void(s: TableState, p: int, k: int) -> bool:
    return k // 9 == s.void[p]


def _turn_mask(s: TableState, p: int, m: np.ndarray) -> None:
    hand = s.hands[p]
    if not s.after_pung:
        if s.self_win(p):
            m[WIN] = True
            if forced_win(s):
                return
        if s.wall_left > 0:
            v = int(s.void[p])
            quads = hand == 4
            if v >= 0:
                quads[9 * v:9 * v + 9] = False
            m[KONG_CONCEALED:KONG_CONCEALED + NUM_KINDS] = quads
            n = int(s.n_melds[p])
            for k, kind in s.melds[p, :n].tolist():
                if kind == 0 and hand[k]:
                    m[KONG_ADDED + k] = True
    v = int(s.void[p])
    if s.void_held(p):
        m[DISCARD + 9 * v:DISCARD + 9 * v + 9] = hand[9 * v:9 * v + 9] > 0
    else:
        m[DISCARD:DISCARD + NUM_KINDS] = hand > 0


def _claim_mask(s: TableState, p: int, m: np.ndarray) -> None:
    t = s.tile
    m[PASS] = True
    if s.wins_on(p, t) and not guo_shui_blocked(s, p):
        m[WIN] = True
        if forced_win(s):
            m[PASS] = False
            return
    if s.phase == PHASE_CLAIM and not _in_void(s, p, t):
        m[PUNG + t] = s.hands[p, t] >= 2
        m[KONG_EXPOSED + t] = s.hands[p, t] == 3 and s.wall_left > 0


def could_claim(s: TableState, p: int) -> bool:
    """A cheap test before the mask: could seat ``p`` win, pung or kong the tile in play?"""
    t = s.tile
    return s.wins_on(p, t) or (s.phase == PHASE_CLAIM and s.hands[p, t] >= 2
                               and not _in_void(s, p, t))


def legal_mask(s: TableState, p: int) -> np.ndarray:
    """(140,) bool: the actions seat ``p`` may take now (all False when it is not to act)."""
    m = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    if s.phase == PHASE_OVER or p != s.current:
        return m
    if s.phase == PHASE_TURN:
        _turn_mask(s, p, m)
    elif s.phase in (PHASE_CLAIM, PHASE_ROB):
        _claim_mask(s, p, m)
    else:
        m[VOID:VOID + 3] = void_choices(s, p)
    return m


def void_choices(s: TableState, p: int) -> np.ndarray:
    """(3,) bool: the suits seat ``p`` may declare void: those it was dealt none of, if any
    (a player dealt two suits must declare the third), else all three."""
    absent = ~s.hands[p].reshape(3, 9).any(axis=1)
    return absent if absent.any() else np.ones(3, dtype=np.bool_)


def why_illegal(s: TableState, p: int, a: int) -> str:
    """Why action ``a`` of seat ``p`` is not in its mask (the message of the error)."""
    name = action_name(a)
    if s.phase == PHASE_OVER:
        return f"{name}: the hand is over"
    if p != s.current:
        return f"{name}: player {s.current} is to act ({PHASE_NAMES[s.phase]}), not player {p}"
    if s.phase == PHASE_VOID:
        if VOID <= a < VOID + 3:
            suits = "".join(_SUIT_ZH[v] for v in range(3) if not void_choices(s, p)[v])
            return (f"{name}: 定缺: a player dealt no tile of a suit declares that suit void "
                    f"(player {p} holds {suits})")
        return f"{name}: declare a void suit (定缺) first: void:m, void:p or void:s"
    what = "an own turn: win, kong or discard"
    if s.phase == PHASE_CLAIM:
        what = f"a claim on {format_tile(s.tile)}: win, pung, kong or pass"
    elif s.phase == PHASE_ROB:
        what = f"robbing the added kong of {format_tile(s.tile)}: win or pass"
    if a >= VOID:
        return f"{name}: the void suits are declared; this is {what}"
    if a == WIN:
        return _why_not_win(s, p)
    if forced_win(s) and legal_mask(s, p)[WIN]:
        return f"{name}: 最后四张必胡: with {s.wall_left} tiles left, a player who can win must win"
    if s.phase == PHASE_TURN:
        return _why_not_turn(s, p, a, name)
    if a == PASS or s.phase == PHASE_ROB or a >= KONG_ADDED or a < PUNG:
        return f"{name}: this is {what}"
    k = (a - PUNG) % NUM_KINDS
    if k != s.tile:
        return f"{name}: the tile discarded is {format_tile(s.tile)}"
    if _in_void(s, p, k):
        return f"{name}: {format_tile(k)} is in the declared void suit ({_SUIT_ZH[k // 9]})"
    held = int(s.hands[p, k])
    if a >= KONG_EXPOSED and held == 3:
        return f"{name}: the wall is empty: no replacement tile for a kong"
    return f"{name}: holding {held} {format_tile(k)} (a pung needs 2, a kong 3)"


def _why_not_win(s: TableState, p: int) -> str:
    if s.phase == PHASE_TURN:
        if s.after_pung:
            return "win: after a pung the player discards"
        return "win: the hand is not a winning hand"
    if not s.wins_on(p, s.tile):
        return f"win: {format_tile(s.tile)} does not complete the hand"
    if s.rules.guo_shui == "tile":
        return (f"win: 过水不胡: a win on {format_tile(s.tile)} was passed since the player's "
                "last draw")
    return (f"win: 过水不胡: a win worth {int(s.passed_fan[p])} fan was passed since the "
            f"player's last draw, and this one is not worth more")


def _why_not_turn(s: TableState, p: int, a: int, name: str) -> str:
    if a == PASS or PUNG <= a < KONG_ADDED:
        return f"{name}: this is an own turn: win, kong or discard"
    k = (a - DISCARD) % NUM_KINDS
    held = int(s.hands[p, k])
    if a < PUNG:
        if held == 0:
            return f"{name}: the player holds no {format_tile(k)}"
        v = int(s.void[p])
        return (f"{name}: while holding tiles of the void suit {_SUIT_ZH[v]} the discard must "
                f"be one of them (定缺)")
    if s.after_pung:
        return f"{name}: after a pung the player discards"
    if s.wall_left == 0:
        return f"{name}: the wall is empty: no replacement tile for a kong"
    if a >= KONG_CONCEALED:
        if _in_void(s, p, k):
            return f"{name}: {format_tile(k)} is in the declared void suit ({_SUIT_ZH[k // 9]})"
        return f"{name}: holding {held} {format_tile(k)} (a concealed kong needs 4)"
    if s.has_pung(p, k) < 0:
        return f"{name}: no pung of {format_tile(k)} to add to"
    return f"{name}: the player holds no {format_tile(k)} to add"
