"""Arguments of mjfast.settlement through the shared argument layer (issue 8), and the
hardening of Transfer / Settlement / Round.from_json (issue 15).

The accepted sets are those of every other public function: a void suit is None, -1, 0-2,
"m"/"p"/"s" or 万/筒/饼/条/索; rules are a Rules or a preset name; a bool is not a tile and a
float array is not a hand. Bad arguments raise InvalidArgumentError (a ValueError and a TypeError).
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from mjfast.errors import InvalidArgumentError
from mjfast.rules import Rules
from mjfast.settlement import PlayerState, Round, Settlement, Transfer, settle_draw

VOID_SPELLINGS = {
    None: [None, -1, np.int64(-1)],
    0: [0, "m", "万", np.int8(0)],
    1: [1, "p", "筒", "饼", np.int64(1)],
    2: [2, "s", "条", "索", np.uint8(2)],
}
BAD_VOIDS = ["x", "z", 3, -2, True, np.bool_(False), 1.0, "mp", b"m", [1]]

READY_2M = "22234m456m789m55p"       # ready on 2m (1 fan), 5m / 5p (0 fan); suits m, p
NOT_READY = "113379m113379p9p"
HUA_ZHU_3 = "4455m1688p22669s"
NINE_GATES = "1112345678999s"
WIN_PING = "234567m11234567p"        # 平胡 on 6p, suits m and p


# ------------------------------------------------------------------------- void suits

@pytest.mark.parametrize("code, spellings", list(VOID_SPELLINGS.items()))
def test_player_state_takes_every_void_spelling(code, spellings):
    states = [PlayerState(READY_2M, void_suit=v) for v in spellings]
    assert all(s == states[0] and s.void_suit == code for s in states)
    assert all(PlayerState(**s.to_json()) == s for s in states)
    # Same draw whatever the spelling (a void m or p makes the READY_2M holder a 花猪).
    settlements = [settle_draw([s, PlayerState(NOT_READY), PlayerState(NINE_GATES)])
                   for s in states]
    assert all(x == settlements[0] and x.net.tolist() == settlements[0].net.tolist()
               for x in settlements)
    assert settlements[0].hua_zhu == ((0,) if code in (0, 1) else ())


def test_minus_one_is_no_void_suit():
    assert PlayerState(READY_2M, void_suit=-1) == PlayerState(READY_2M)
    assert PlayerState(READY_2M, void_suit=-1).to_json()["void_suit"] is None


@pytest.mark.parametrize("spelling", [None, -1, 2, "s", "条", "索", np.int64(2)])
def test_round_win_takes_every_void_spelling(spelling):
    r = Round()
    out = r.win(0, "6p", from_player=2, hands=WIN_PING, void_suit=spelling)
    reference = Round()
    expected = reference.win(0, "6p", from_player=2, hands=WIN_PING,
                             void_suit=None if spelling in (None, -1) else "s")
    assert out == expected
    assert r.to_json() == reference.to_json()             # logged as "s" or None
    assert Round.from_json(r.to_json()).transfers == r.transfers


@pytest.mark.parametrize("bad", BAD_VOIDS)
def test_bad_void_suits_are_refused_everywhere(bad):
    with pytest.raises(InvalidArgumentError, match="^void_suit: expected None, -1, 0, 1, 2"):
        PlayerState(READY_2M, void_suit=bad)
    with pytest.raises(InvalidArgumentError, match=r"^states\[0\]: void_suit: expected None"):
        settle_draw([{"concealed": READY_2M, "void_suit": bad}, PlayerState(NOT_READY)])
    r = Round()
    with pytest.raises(InvalidArgumentError, match="^win: player 0: void_suit: expected None"):
        r.win(0, "6p", from_player=2, hands=WIN_PING, void_suit=bad)
    with pytest.raises(InvalidArgumentError, match=r"^win: winners\[1\] \(player 1\): void_suit"):
        r.win([0, 1], "6p", from_player=2, hands=[WIN_PING, "123789m22345678p"],
              void_suit=["s", bad])
    assert r.transfers == ()


# ------------------------------------------------------------------------- rules

def test_rules_by_preset_name_or_object_give_the_same_results():
    states = [PlayerState(HUA_ZHU_3), PlayerState(READY_2M), PlayerState(NOT_READY), None]
    by_name = settle_draw(states, "qq")
    assert by_name == settle_draw(states, Rules.preset("qq"))
    assert by_name.net.tolist() == settle_draw(states, rules=Rules.preset("qq")).net.tolist()
    assert by_name.net.tolist() != settle_draw(states).net.tolist()   # qq: 花猪 16, not 8

    def play(rules):
        r = Round(rules)
        r.kong(0, "9m", "kong", from_player=2)
        r.win(1, "6p", hands=WIN_PING)
        r.draw([PlayerState("137m137899p9p", melds=["kong:9m"]), None,
                PlayerState(HUA_ZHU_3), PlayerState(NINE_GATES)])
        return r

    named, given = play("qq"), play(Rules.preset("qq"))
    assert named.rules == given.rules == Rules.preset("qq")
    assert named.transfers == given.transfers and named.to_json() == given.to_json()
    assert play(None).rules == play("chengdu").rules == Rules()


@pytest.mark.parametrize("bad", ["sichuan", "", 3, True, {"preset": "qq"}, Rules])
def test_bad_rules_are_refused(bad):
    message = "^rules: expected a Rules object or a preset name"
    with pytest.raises(InvalidArgumentError, match=message):
        settle_draw([PlayerState(NOT_READY), PlayerState(READY_2M)], bad)
    with pytest.raises(InvalidArgumentError, match=message):
        Round(bad)


# ------------------------------------------------------------------------- tiles and hands

@pytest.mark.parametrize("tile", [True, False, np.bool_(True), 1.0, None, 27, -1])
def test_bools_and_non_tiles_are_not_tiles(tile):
    r = Round()
    with pytest.raises(InvalidArgumentError, match="^kong: tile: expected a tile"):
        r.kong(0, tile, "kong_concealed")
    with pytest.raises(InvalidArgumentError, match="^win: tile: expected a tile"):
        r.win(0, tile, from_player=2, hands=WIN_PING)
    assert r.transfers == () and r.events == ()


def test_float_and_bool_arrays_are_not_hands():
    counts = PlayerState(WIN_PING).concealed
    for bad in (np.array(counts, dtype=float), np.array(counts, dtype=bool),
                [float(c) for c in counts]):
        with pytest.raises(InvalidArgumentError):
            PlayerState(bad)
        with pytest.raises(InvalidArgumentError, match="^win: player 0: hand"):
            Round().win(0, "6p", from_player=2, hands=bad)
        with pytest.raises(InvalidArgumentError, match="^visible"):
            PlayerState(READY_2M, visible=bad)
    # The same counts as ints are a hand.
    r = Round()
    assert r.win(0, "6p", from_player=2, hands=np.array(counts, dtype=np.int64)) == \
        Round().win(0, "6p", from_player=2, hands=WIN_PING)


def test_parse_errors_name_the_argument():
    with pytest.raises(ValueError, match="^concealed: position 3 of '123z'"):
        PlayerState("123z")
    with pytest.raises(ValueError, match="^win: player 0: hand: position 0 of '0m"):
        Round().win(0, "6p", from_player=2, hands="0m")
    with pytest.raises(ValueError, match=r"^win: player 0: melds\[0\]: position 0"):
        Round().win(0, "6p", from_player=2, hands=WIN_PING, melds=["chow:5p"])
    with pytest.raises(ValueError, match="^melds: position 0 of 'chow:5p'"):
        PlayerState("", melds="chow:5p")


@pytest.mark.parametrize("flag", [1, 0, "yes", None, np.int64(1)])
def test_flags_are_bools(flag):
    with pytest.raises(InvalidArgumentError, match="^won: expected a bool"):
        PlayerState("", won=flag)
    with pytest.raises(InvalidArgumentError, match="^win: last_tile: expected a bool"):
        Round().win(0, "6p", from_player=2, hands=WIN_PING, last_tile=flag)
    assert PlayerState("", won=np.bool_(True)).won is True


# ------------------------------------------------------------------------- Transfer / Settlement

@pytest.mark.parametrize("payer, receiver", [(-1, 0), (0, -1), (7, 0), (0, 6), (True, 0),
                                             (1.0, 0), ("1", 0), (2, 2)])
def test_transfer_refuses_bad_seats(payer, receiver):
    # -1 was charged to player 3 (numpy's negative index), 7 gave an IndexError.
    with pytest.raises(InvalidArgumentError, match="^(payer|receiver): "):
        Transfer(payer, receiver, 2, "dian_pao")


@pytest.mark.parametrize("amount", [2.7, 2.0, -1, "2", None, True, np.float64(3)])
def test_transfer_refuses_non_integral_amounts(amount):
    # 2.7 was truncated to 2 in the matrix.
    with pytest.raises(InvalidArgumentError, match="^amount: expected an int"):
        Transfer(1, 0, amount, "dian_pao")


def test_transfer_normalises_and_checks_the_rest():
    t = Transfer(np.int64(1), np.uint8(0), np.int32(3), "dian_pao", fan=np.int16(1), event=0)
    assert (type(t.payer), type(t.receiver), type(t.amount), type(t.fan)) == (int,) * 4
    assert t == Transfer(1, 0, 3, "dian_pao", fan=1, event=0)
    for kwargs, message in [({"reason": "tip"}, "^reason: expected one of"),
                            ({"fan": -1}, "^fan: expected an int >= 0"),
                            ({"fan": 1.5}, "^fan: expected an int"),
                            ({"event": -1}, "^event: expected an int >= 0")]:
        args = {"payer": 1, "receiver": 0, "amount": 3, "reason": "dian_pao", **kwargs}
        with pytest.raises(InvalidArgumentError, match=message):
            Transfer(**args)


def test_settlement_refuses_seats_outside_the_table():
    t = Transfer(3, 0, 2, "dian_pao")
    assert Settlement.from_transfers([t]).net.tolist() == [2, 0, 0, -2]
    with pytest.raises(InvalidArgumentError, match=r"^transfers\[1\]: 3 -> 0: 2, dian_pao"):
        Settlement.from_transfers([Transfer(1, 0, 1, "gang_bu"), t], players=3)
    with pytest.raises(InvalidArgumentError, match=r"^transfers\[0\]: expected a Transfer"):
        Settlement.from_transfers([(1, 0, 2)])
    for players in (1, 7, 2.0, True):
        with pytest.raises(InvalidArgumentError, match="^players: expected an int"):
            Settlement.from_transfers([], players=players)


# ------------------------------------------------------------------------- Round.from_json

def _log():
    r = Round()
    r.kong(1, "5s", "kong_concealed")
    r.win(0, "6p", from_player=2, hands=WIN_PING)
    r.draw([None, PlayerState("1379p137999s", melds=["kong_concealed:5s"]),
            PlayerState(HUA_ZHU_3), PlayerState("1112345678999m")])
    return json.loads(r.to_json())


def _edit(path, value=None, delete=False):
    doc = _log()
    *parents, last = path
    target = doc
    for key in parents:
        target = target[key]
    if delete:
        del target[last]
    else:
        target[last] = value
    return doc


BAD_LOGS = [
    (_edit(["rules"], delete=True), "from_json: missing key 'rules'"),
    (_edit(["players"], delete=True), "from_json: missing key 'players'"),
    (_edit(["dealer"], delete=True), "from_json: missing key 'dealer'"),
    (_edit(["events"], delete=True), "from_json: missing key 'events'"),
    (_edit(["rules"], [1]), "from_json: rules: expected a preset name"),
    (_edit(["rules"], 7), "from_json: rules: expected a preset name"),
    (_edit(["rules"], {"overrides": {}}), "from_json: rules: expected a preset name"),
    (_edit(["rules"], {"preset": "zz"}), "from_json: rules: unknown preset 'zz'"),
    (_edit(["rules", "overrides"], {"base_fan": [1]}), "from_json: rules.overrides.base_fan"),
    (_edit(["rules", "overrides"], {"cap": "x"}), "from_json: rules: Rules.cap"),
    (_edit(["players"], "4"), "from_json: players: expected an int"),
    (_edit(["dealer"], None), "from_json: dealer: expected an int"),
    (_edit(["events"], {}), "from_json: events: expected a list, got dict"),
    (_edit(["events", 0], 5), r"from_json: events\[0\]: expected an object, got int"),
    (_edit(["events", 0, "type"], delete=True), r"events\[0\]: missing key 'type'"),
    (_edit(["events", 0, "type"], ["kong"]), r"events\[0\]: unknown event type \['kong'\]"),
    (_edit(["events", 0, "tile"], delete=True), r"events\[0\]: kong: missing key 'tile'"),
    (_edit(["events", 0, "size"], 4), r"events\[0\]: kong: unknown key 'size'"),
    (_edit(["events", 1, "hands"], delete=True), r"events\[1\]: win: missing key 'hands'"),
    (_edit(["events", 1, "hands"], 5), r"events\[1\]: win: player 0: hand: expected 27"),
    (_edit(["events", 1, "melds"], {"a": 1}), r"events\[1\]: win: player 0: melds\[0\]"),
    (_edit(["events", 1, "players"], [0, [1]]), r"events\[1\]: win: winners\[1\]: expected"),
    (_edit(["events", 2, "players"], 5), r"events\[2\]: draw: states: expected a sequence"),
    (_edit(["events", 2, "players", 1], {"concealed": "1m", "x": 1}),
     r"events\[2\]: draw: states\[1\]: .*unexpected keyword argument 'x'"),
    (_edit(["events", 2, "players", 1], {}),
     r"events\[2\]: draw: states\[1\]: .*missing 1 required positional argument"),
    (_edit(["events", 2, "players", 1, "kong_income"], 5),
     r"events\[2\]: draw: states\[1\]: kong_income: expected \(payer, amount\) pairs"),
    ("[" * 100_000, "from_json: invalid JSON"),
    ("{", "from_json: invalid JSON"),
]


@pytest.mark.parametrize("doc, message", BAD_LOGS)
def test_from_json_raises_one_error_type_naming_the_field(doc, message):
    text = doc if isinstance(doc, str) else json.dumps(doc)
    for given in (text, text.encode()) if isinstance(doc, str) else (text, doc):
        with pytest.raises(InvalidArgumentError, match=message) as info:
            Round.from_json(given)
        assert isinstance(info.value, ValueError)


def test_from_json_still_replays_a_good_log():
    doc = _log()
    r = Round.from_json(copy.deepcopy(doc))
    assert r.net.tolist() == [1, 0, -17, 16] and json.loads(r.to_json()) == doc


# ------------------------------------------------------------------------- renamed arguments

def test_old_keyword_players_warns_and_keeps_working():
    """``players`` is a count of seats; the winners of ``Round.win`` and the states of
    ``Round.draw`` / ``settle_draw`` were ``players=`` in 0.1 (CHANGELOG, *Deprecated*)."""
    states = [None, PlayerState(NOT_READY), PlayerState(READY_2M), PlayerState(NINE_GATES)]
    with pytest.warns(DeprecationWarning, match=r"settle_draw\(players=\.\.\.\) .*use states="):
        old = settle_draw(players=states)  # type: ignore[call-arg]
    assert old.transfers == settle_draw(states=states).transfers
    with pytest.raises(InvalidArgumentError, match="old name of states"):
        settle_draw(players=states, states=states)  # type: ignore[call-arg]
    rounds = [Round(), Round()]
    with pytest.warns(DeprecationWarning, match=r"Round\.win\(players=\.\.\.\) .*use winners="):
        old_win = rounds[0].win(players=0, tile="6p", from_player=2,  # type: ignore[call-arg]
                                hands=WIN_PING)
    assert old_win == rounds[1].win(winners=0, tile="6p", from_player=2, hands=WIN_PING)
    with pytest.warns(DeprecationWarning, match=r"Round\.draw\(players=\.\.\.\) .*use states="):
        old_draw = rounds[0].draw(players=states)  # type: ignore[call-arg]
    assert old_draw.transfers == rounds[1].draw(states=states).transfers
    assert rounds[0].to_json() == rounds[1].to_json()
    assert json.loads(rounds[0].to_json())["events"][0]["players"] == 0  # the log keeps its key
