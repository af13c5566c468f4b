"""Fuzz: settlement (PlayerState, settle_draw, Transfer, Settlement, Round and its events) with
hostile arguments; a refused event leaves the ledger as it was."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from mjfast import PlayerState, Reason, Round, Rules, Settlement, Transfer, settle_draw
from tests.fuzz.hostile import FUZZ, arrays, containers, hostile, outcome

RULES = st.sampled_from([None, "chengdu", "qq", Rules(jia_jia_you=True, si_jiao=True),
                         Rules(cap=48, hua_zhu=2**48, concealed_kong=2**48, root_fan=48)])
STATE_FIELDS = ("concealed", "melds", "void_suit", "won", "kong_income", "visible")
# Valid player states at a draw (the docstring example of mjfast.settlement), by seat.
DRAW_STATES = [
    {"concealed": "1112345678999m"},
    {"concealed": "1357m2468m19p", "melds": ["pung:5p"]},
    {"concealed": "2345m3p26899s", "melds": ["kong_added:7p"],
     "kong_income": [(0, 1), (1, 1), (3, 1)]},
    {"concealed": "4455667788p99p1s", "void_suit": "s", "visible": [0] * 27},
]


def _state_hostile(key: str) -> st.SearchStrategy[object]:
    if key == "kong_income":
        pair = st.tuples(st.one_of(st.integers(-2, 5), hostile()),
                         st.one_of(st.integers(-1, 2**64), hostile()))
        return st.one_of(hostile(), st.lists(st.one_of(pair, hostile()), max_size=4))
    return hostile() | arrays(shapes=[(27,), (1, 27), (26,)])


@FUZZ
@given(data=st.data(), seat=st.integers(0, 3))
def test_player_state(data: st.DataObject, seat: int) -> None:
    kw: dict[str, Any] = dict(DRAW_STATES[seat])
    for key in sorted(data.draw(st.sets(st.sampled_from(STATE_FIELDS), min_size=1, max_size=2))):
        kw[key] = data.draw(_state_hostile(key), label=key)
    res = outcome(lambda: PlayerState(**kw), names=STATE_FIELDS + ("tile",),
                  returns=lambda r: type(r) is PlayerState)
    if res.ok:  # an accepted state is normalised and serialisable
        p: PlayerState = res.value
        assert len(p.concealed) == 27 and all(type(c) is int for c in p.concealed)
        assert PlayerState(**p.to_json()) == p


@FUZZ
@given(data=st.data(), rules=st.one_of(RULES, hostile()))
def test_settle_draw(data: st.DataObject, rules: object) -> None:
    states: Any = [dict(s) for s in DRAW_STATES]
    how = data.draw(st.sampled_from(["field", "seat", "states", "none"]))
    if how == "field":
        seat = data.draw(st.integers(0, 3))
        key = data.draw(st.sampled_from(STATE_FIELDS))
        states[seat][key] = data.draw(_state_hostile(key), label=key)
    elif how == "seat":
        states[data.draw(st.integers(0, 3))] = data.draw(
            st.one_of(hostile(), st.dictionaries(st.sampled_from(STATE_FIELDS + ("x",)), hostile(),
                                                 max_size=3)), label="seat")
    elif how == "states":
        states = data.draw(st.one_of(hostile(), containers()), label="states")
    outcome(lambda: settle_draw(states, rules=rules),  # type: ignore[arg-type]
            names=("states", "rules"), plain=True,
            returns=lambda r: type(r) is Settlement and int(r.net.sum()) == 0)


TRANSFER_GOOD = {"payer": 0, "receiver": 1, "amount": 8, "reason": "zi_mo", "fan": 3, "event": 0}


@FUZZ
@given(data=st.data())
def test_transfer(data: st.DataObject) -> None:
    kw: dict[str, Any] = dict(TRANSFER_GOOD)
    for key in sorted(data.draw(st.sets(st.sampled_from(sorted(kw)), min_size=1, max_size=2))):
        kw[key] = data.draw(hostile() | st.sampled_from(list(Reason)) | st.integers(-2, 2**64),
                            label=key)
    res = outcome(lambda: Transfer(**kw), names=tuple(kw), returns=lambda r: type(r) is Transfer)
    if res.ok:
        t: Transfer = res.value
        assert type(t.amount) is int and 0 <= t.amount < 2**63 and type(t.reason) is Reason


@FUZZ
@given(data=st.data())
def test_settlement(data: st.DataObject) -> None:
    good = [Transfer(0, 1, 8, "zi_mo"), Transfer(2, 3, 2**62, "gang_an")]
    transfers: Any = data.draw(st.one_of(
        st.just(good), st.just(good * 3), hostile(), containers(),
        st.lists(st.one_of(st.sampled_from(good), hostile()), max_size=4)), label="transfers")
    kw: dict[str, Any] = {}
    for key in sorted(data.draw(st.sets(st.sampled_from(["players", "hua_zhu", "ready"]),
                                        max_size=2))):
        kw[key] = data.draw(hostile() | st.integers(-1, 5), label=key)
    if data.draw(st.booleans()):
        kw.pop("players", None)
        res = outcome(lambda: Settlement(transfers, **kw), names=("transfers", *kw),
                      returns=lambda r: type(r) is Settlement)
    else:
        res = outcome(lambda: Settlement.from_transfers(transfers, **kw),
                      names=("transfers", *kw), returns=lambda r: type(r) is Settlement)
    if res.ok:
        s: Settlement = res.value
        assert int(s.net.sum()) == 0 and s.matrix.dtype == np.int64


# ----------------------------------------------------------------------------- Round

# Valid event sequences (from the settlement docstrings): (method, args, kwargs).
SCENARIOS: list[list[tuple[str, tuple[Any, ...], dict[str, Any]]]] = [
    [("kong", (1, "5s", "kong_concealed"), {}),
     ("win", (0, "6p"), {"from_player": 2, "hands": "234567m11234567p"}),
     ("draw", ([None, PlayerState("1379p137999s", melds=["kong_concealed:5s"]),
                PlayerState("4455m1688p22669s"), PlayerState("1112345678999m")],), {})],
    [("kong", (2, "7s", "kong"), {"from_player": 0}),
     ("win", (1, "4m"), {"hands": "123456m44m567p789p"})],
    [("kong", (3, "2s", "kong_concealed"), {}),
     ("win", ([0, 1], "5p"), {"from_player": 3, "after_kong_discard": True,
                              "hands": ["123456789m34555p", "112233445566m55p"]})],
    [("kong", (0, "3m", "kong_added"), {}),
     ("win", (1, "3m"), {"from_player": 0, "robbing_kong": True, "hands": "3m456m789m11p234p"})],
]


EXTRA = {"kong": ["from_player"], "draw": [],
         "win": ["melds", "void_suit", "last_tile", "tian_hu", "di_hu", "after_kong",
                 "robbing_kong", "from_player"]}


@FUZZ
@given(data=st.data(), scenario=st.sampled_from(range(len(SCENARIOS))),
       init=st.fixed_dictionaries({}, optional={"rules": RULES, "players": st.just(4),
                                                "dealer": st.integers(0, 3)}))
def test_round(data: st.DataObject, scenario: int, init: dict[str, Any]) -> None:
    steps = SCENARIOS[scenario]
    hit = data.draw(st.integers(-1, len(steps) - 1), label="step")
    if hit == -1 and init:  # hostile constructor arguments
        key = data.draw(st.sampled_from(sorted(init)))
        init[key] = data.draw(hostile(), label=key)
    made = outcome(lambda: Round(**init), names=tuple(init), returns=lambda r: type(r) is Round)
    if not made.ok:
        return
    r: Round = made.value
    for i, (method, args, kwargs) in enumerate(steps):
        args, kwargs = list(args), dict(kwargs)
        if i == hit:
            slots = [f"#{j}" for j in range(len(args))] + sorted(kwargs) + ["extra"] * bool(
                EXTRA[method])
            slot = data.draw(st.sampled_from(slots), label="argument")
            value = data.draw(hostile() | containers() | arrays(shapes=[(27,), (2, 27), (2,)]),
                              label="value")
            if slot.startswith("#"):
                args[int(slot[1:])] = value
            elif slot == "extra":  # an optional argument the method takes
                kwargs[data.draw(st.sampled_from(EXTRA[method]))] = value
            else:
                kwargs[slot] = value
        before = r.to_json()
        res = outcome(lambda: getattr(r, method)(*args, **kwargs), plain=True,  # noqa: B023
                      names=(method, "player", "tile", "kind", "hand", "meld", "void_suit", *kwargs))
        if not res.ok:
            assert r.to_json() == before, "a refused event changed the ledger"
    assert int(r.net.sum()) == 0
    assert Round.from_json(r.to_json()).transfers == r.transfers
