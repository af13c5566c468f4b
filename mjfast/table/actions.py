"""The fixed action space of a 血战 table: 140 actions, one boolean mask per decision.

=========  =====================  ==============================================
index      name                   when
=========  =====================  ==============================================
0-26       ``discard:<tile>``     own turn: discard one tile of that kind
27-53      ``pung:<tile>``        claim: pung (碰) the discard
54-80      ``kong:<tile>``        claim: exposed kong (直杠) on the discard
81-107     ``kong_added:<tile>``  own turn: add the drawn copy to an own pung (补杠)
108-134    ``kong_concealed:<t>`` own turn: concealed kong (暗杠) of four held copies
135        ``win``                own turn (自摸), a claim (点炮) or robbing a kong (抢杠胡)
136        ``pass``               claim / robbing: let the tile go
137-139    ``void:<m|p|s>``       the opening: declare the void suit (定缺)
=========  =====================  ==============================================

>>> action_name(PUNG + 13), parse_action("kong_concealed:9s"), action_name(VOID + 2)
('pung:5p', 134, 'void:s')
"""

from __future__ import annotations

from mjfast._args import as_int
from mjfast.errors import InvalidArgumentError, shown
from mjfast.tiles import NUM_KINDS, format_tile, parse_tile

__all__ = ["DISCARD", "IllegalActionError", "KONG_ADDED", "KONG_CONCEALED", "KONG_EXPOSED",
           "NUM_ACTIONS", "PASS", "PUNG", "VOID", "WIN", "action_name", "parse_action"]

DISCARD = 0
PUNG = DISCARD + NUM_KINDS
KONG_EXPOSED = PUNG + NUM_KINDS
KONG_ADDED = KONG_EXPOSED + NUM_KINDS
KONG_CONCEALED = KONG_ADDED + NUM_KINDS
WIN = KONG_CONCEALED + NUM_KINDS
PASS = WIN + 1
VOID = PASS + 1
NUM_ACTIONS = VOID + 3
"""The size of the action space (and of every legal-action mask): 140."""

_PER_KIND = (("discard", DISCARD), ("pung", PUNG), ("kong", KONG_EXPOSED),
             ("kong_added", KONG_ADDED), ("kong_concealed", KONG_CONCEALED))


class IllegalActionError(InvalidArgumentError):
    """An action that is not legal in the table's state; the message says why."""


def action_name(action: int) -> str:
    """The name of an action index (``"discard:5p"``, ``"win"``, ``"void:m"``)."""
    a = as_int(action, "action", minimum=0, maximum=NUM_ACTIONS - 1)
    if a >= VOID:
        return f"void:{'mps'[a - VOID]}"
    if a == WIN:
        return "win"
    if a == PASS:
        return "pass"
    name, base = _PER_KIND[a // NUM_KINDS]
    return f"{name}:{format_tile(a - base)}"


def parse_action(text: str) -> int:
    """The action index of a name written as :func:`action_name` writes it."""
    if not isinstance(text, str):
        raise InvalidArgumentError(f"action: expected a name like 'discard:5p', got {shown(text)}")
    if text in ("win", "pass"):
        return WIN if text == "win" else PASS
    head, _, tail = text.partition(":")
    if head == "void" and tail in ("m", "p", "s"):
        return VOID + "mps".index(tail)
    for name, base in _PER_KIND:
        if head == name:
            return base + parse_tile(tail)
    raise InvalidArgumentError(f"action: unknown action name {shown(text)}")
