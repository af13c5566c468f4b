"""Defects the fuzz suite found and that are fixed: one focused regression test each (the fuzz
tests cover them too, at random)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import mjfast
from mjfast import PlayerState, Round, Rules, Settlement, Transfer
from mjfast.errors import InvalidArgumentError, InvalidHandError, TileParseError
from tests.fuzz.hostile import HUGE, LyingSequence

H13 = "123m456m789m11p23p"


def repr_short(value: object) -> str:
    return type(value).__name__ if isinstance(value, int) and abs(value) > 10**9 else repr(value)[:20]

H14 = "123m456m789m23p55p9s"


# --------------------------------------------------------------------- _args: counts and hands

@pytest.mark.parametrize("call", [
    lambda c: mjfast.score(c, win_tile=0),
    lambda c: mjfast.decompose(c),
    lambda c: mjfast.max_fan(H13, visible=c),
    lambda c: mjfast.format_hand(c),
    lambda c: PlayerState(c),
], ids=["score", "decompose", "max_fan visible", "format_hand", "PlayerState"])
@pytest.mark.parametrize("count", [HUGE, -HUGE], ids=["huge", "-huge"])
def test_a_huge_count_is_refused_in_a_short_message(call, count):
    """str() of an int of more than 4300 digits raises ValueError: the message shows its size."""
    with pytest.raises(InvalidHandError, match="an int of 16610 bits") as info:
        call([count] + [0] * 26)
    assert len(str(info.value)) < 200


def test_counts_are_what_iteration_gives():
    """A sequence whose len() says 27 but that iterates 40 values is refused, not read as a
    40-byte hand."""
    with pytest.raises(InvalidHandError, match="^concealed: expected 27 counts .*, got 40"):
        PlayerState(LyingSequence())
    with pytest.raises(InvalidHandError, match="^hand: expected 27 counts .*, got 40"):
        mjfast.score(LyingSequence(), win_tile=0)


@pytest.mark.parametrize(("call", "name"), [
    (lambda: mjfast.score("123m 1z", win_tile=0), "hand"),
    (lambda: mjfast.decompose("p8"), "hand"),
    (lambda: mjfast.max_fan("１２３m"), "hand"),
    (lambda: mjfast.max_fan(H13, visible="5x"), "visible"),
])
def test_a_hand_string_error_names_the_argument(call, name):
    with pytest.raises(TileParseError, match=f"^{name}: position "):
        call()


def test_player_state_hand_error_is_named_once():
    with pytest.raises(TileParseError, match="^concealed: position 3 of '123z'"):
        PlayerState("123z")
    with pytest.raises(TileParseError, match="^visible: position 0 of 'x': "):
        PlayerState(H13, visible="x")


@pytest.mark.parametrize("melds", ["pung:5z", "kong_added::55p", "碰：0m", "pung:5p, kong:9"])
def test_a_melds_string_error_names_melds(melds):
    for call in (mjfast.parse_melds, mjfast.melds_to_counts):
        with pytest.raises(TileParseError, match="^melds: position "):
            call(melds)


# --------------------------------------------------------------------- command line

@pytest.mark.parametrize("argv", [["1" * 5000], ["analyze", "123m", "x" * 5000],
                                  ["stats", "--tiles=13", "--nope" + "y" * 5000]],
                         ids=["command", "extra argument", "unknown option"])
def test_cli_cuts_a_long_refused_argument(argv, capsys):
    from mjfast import cli

    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("mjfast: error: ") and err.count("\n") == 1
    assert "(5000 characters)" in err or "(5006 characters)" in err, err
    assert len(err) < 300, err


# --------------------------------------------------------------------- scoring, efficiency

@pytest.mark.parametrize("kwargs", [
    {"errors": np.array(["raise", "raise"])}, {"errors": np.zeros(0)},
    {"workers": np.array([1, 1])}, {"errors": np.zeros(2, [("a", "u1")])},
    {"best_wait": np.array([False, False])},
])
def test_max_fan_of_one_hand_refuses_array_options(kwargs):
    name = next(iter(kwargs))
    with pytest.raises(InvalidArgumentError, match=f"^{name}: "):
        mjfast.max_fan(H13, **kwargs)


@pytest.mark.parametrize("hand", [np.zeros((0, 27), np.uint8), [H14, H14],
                                  np.stack([mjfast.parse_hand(H14)] * 2)])
def test_advise_refuses_a_batch_naming_the_hand(hand):
    with pytest.raises(InvalidArgumentError, match="^hand: advise takes one hand"):
        mjfast.advise(hand)


# --------------------------------------------------------------------- rules

@pytest.mark.parametrize("name", [HUGE, "x" * 100_000, np.zeros((30, 30), "S3")],
                         ids=["huge int", "long str", "array"])
def test_unknown_preset_message_is_short(name):
    with pytest.raises(InvalidArgumentError, match="^unknown preset ") as info:
        Rules.preset(name)
    assert len(str(info.value)) < 200


@pytest.mark.parametrize("field", ["self_draw", "cha_da_jiao"])
@pytest.mark.parametrize("value", [np.array(["max", "min"]), np.zeros(0), ["max"]])
def test_rules_choice_fields_refuse_arrays(field, value):
    with pytest.raises(InvalidArgumentError, match=f"^Rules.{field} must be"):
        Rules(**{field: value})


@pytest.mark.parametrize("value", ["3", [1], 1.5, None, True, np.arange(3), -1, -HUGE],
                         ids=repr_short)
def test_display_fan_checks_its_argument(value):
    with pytest.raises(InvalidArgumentError, match=r"^Rules.display_fan\(internal_fan\)"):
        Rules().display_fan(value)
    assert Rules.preset("qq").display_fan(np.int64(2)) == 3


def test_rules_refuses_an_unknown_field_as_documented():
    with pytest.raises(InvalidArgumentError, match="^Rules: unknown option 'fan'; valid options: "):
        Rules(fan=1)  # type: ignore[call-arg]
    with pytest.raises(InvalidArgumentError, match="^Rules: "):
        Rules(*range(40))  # type: ignore[arg-type]


# --------------------------------------------------------------------- settlement

@pytest.mark.parametrize("value", [None, 1.5, 3, np.array(5), object()])
def test_settlement_refuses_non_iterables(value):
    with pytest.raises(InvalidArgumentError, match="^transfers: "):
        Settlement(value)
    with pytest.raises(InvalidArgumentError, match="^transfers: "):
        Settlement.from_transfers(value)
    with pytest.raises(InvalidArgumentError, match="^hua_zhu: "):
        Settlement.from_transfers([], hua_zhu=value)
    with pytest.raises(InvalidArgumentError, match="^ready: "):
        Settlement.from_transfers([], ready=value)


@pytest.mark.parametrize("value", [[("a", 1)], ["zi_mo", "x"], [0.5]])
def test_settlement_refuses_bad_seat_lists(value):
    with pytest.raises(InvalidArgumentError, match=r"^hua_zhu\[0\]: "):
        Settlement.from_transfers([], hua_zhu=value)


@pytest.mark.parametrize("reason", [np.zeros(3, [("a", "u1")]), np.array(["zi_mo"]), [1], {}])
def test_transfer_reason_of_any_type(reason):
    with pytest.raises(InvalidArgumentError, match="^reason: expected one of "):
        Transfer(0, 1, 1, reason)


def test_round_win_players_as_a_0d_array():
    r = Round()
    before = r.to_json()
    with pytest.raises(InvalidArgumentError, match=r"^win: winners\[0\]: expected an int from 0 to 3"):
        r.win(np.array(5), "4m", hands="123456m44m567p789p")
    assert r.to_json() == before
    assert r.win(np.array(1), "4m", hands="123456m44m567p789p") == \
        Round().win(1, "4m", hands="123456m44m567p789p")


@pytest.mark.parametrize("hands", [np.array(5), 7, None])
def test_round_win_hands_of_several_winners(hands):
    with pytest.raises(InvalidArgumentError, match="^win: hands"):
        Round().win([0, 1], "1m", from_player=2, hands=hands)


def test_round_win_refuses_more_winners_than_seats_in_a_short_message():
    with pytest.raises(InvalidArgumentError, match="^win: winners: ") as info:
        Round().win([0] * 100_000, "1m", from_player=2, hands=[H14] * 100_000)
    assert len(str(info.value)) < 200


@pytest.mark.parametrize("kwargs", [
    {"indent": 2**40}, {"indent": -1}, {"indent": "x" * 100}, {"indent": 1.5},
    {"sort_keys": 1}, {"separators": 3}, {"separators": (",", 5)}, {"ensure_ascii": True},
    {"default": 1}, {"cls": int}, {"x": 1},
])
def test_to_json_checks_its_options(kwargs):
    r = Round()
    r.kong(1, "5s", "kong_concealed")
    with pytest.raises(InvalidArgumentError, match=f"^to_json: (unknown option ')?{next(iter(kwargs))}"):
        r.to_json(**kwargs)


def test_to_json_takes_the_json_options():
    r = Round()
    r.kong(1, "5s", "kong_concealed")
    for kwargs in ({"indent": 2}, {"indent": "\t"}, {"sort_keys": True},
                   {"separators": (",", ":")}, {"indent": None}):
        assert Round.from_json(r.to_json(**kwargs)).transfers == r.transfers
    assert "\n  " in r.to_json(indent=2)


@pytest.mark.parametrize("field", ["format", "version"])
@pytest.mark.parametrize("value", [np.array(["mjfast.round"] * 2), np.zeros(0), np.array([1, 1])],
                         ids=["array", "empty array", "int array"])
def test_from_json_document_with_array_header(field, value):
    doc = json.loads(Round().to_json())
    doc[field] = value
    with pytest.raises(InvalidArgumentError, match="^from_json: (not an mjfast round log|"
                                                   "unsupported version array)"):
        Round.from_json(doc)


@pytest.mark.parametrize(("event", "shown"), [
    ({"type": 10**4000}, "an int of 13288 bits"), ({"type": "x" * 10**5}, "characters"),
], ids=["huge int", "long str"])
def test_unknown_event_type_message_is_short(event, shown):
    doc = json.loads(Round().to_json())
    doc["events"] = [event]
    with pytest.raises(InvalidArgumentError, match="^from_json: events.0.: unknown event type ") \
            as info:
        Round.from_json(doc)
    assert shown in str(info.value) and len(str(info.value)) < 200
