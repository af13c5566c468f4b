"""Forecast API and CLI checks (issue 23, item 7): choose_void on a batch, strided single-row
inputs, advise's options without draws, --void-advice with --visible / --void."""

from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast import cli
from mjfast.errors import InvalidArgumentError
from mjfast.forecast import choose_void, forecast

DEALT = "1234567m123p1559s"


def test_choose_void_refuses_a_batch_by_name() -> None:
    batch = np.stack([mjfast.parse_hand(DEALT)] * 2)
    with pytest.raises(InvalidArgumentError, match=r"^hand: choose_void ranks the void suits of one"):
        choose_void(batch, draws=2)


def _strided(text: str) -> np.ndarray:
    wide = np.zeros((27, 2), np.uint8)
    wide[:, 0] = mjfast.parse_hand(text) if text else 0
    return wide[:, 0]  # every other byte: not contiguous


def test_strided_single_rows_are_read_not_refused() -> None:
    """A strided 1-D visible / melds gave numpy's 'ndarray is not C-contiguous', naming nothing."""
    visible = _strided("4p66s")
    assert not visible.flags.c_contiguous
    want = forecast("123m456m789m23p55p", draws=2, visible=np.ascontiguousarray(visible))
    np.testing.assert_array_equal(forecast("123m456m789m23p55p", draws=2, visible=visible).win,
                                  want.win)
    np.testing.assert_array_equal(mjfast.effective_tiles("123m456m789m23p55p", visible=visible),
                                  mjfast.effective_tiles("123m456m789m23p55p", visible="4p66s"))
    melds = _strided("111m")
    got = forecast("456m789m23p55p", draws=2, melds=melds)
    np.testing.assert_array_equal(got.win, forecast("456m789m23p55p", draws=2, melds=["pung:1m"]).win)
    hand = _strided("123m456m789m23p55p")
    assert mjfast.shanten(hand) == 0


@pytest.mark.parametrize(("option", "message"), [
    ({"objective": "fast"}, "^objective: expected 'win' or 'value'"),
    ({"exchanges": "no"}, "^exchanges: expected an int"),
    ({"rules": "nope"}, "^rules: expected a Rules object or a preset name"),
])
def test_advise_checks_forecast_options_without_draws(option: dict, message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        mjfast.advise("123m456m789m23p55p9s", **option)


def test_choose_void_takes_visible() -> None:
    seen = choose_void(DEALT, draws=4, exchanges=0, visible="8888m66s")
    blind = choose_void(DEALT, draws=4, exchanges=0)
    for a in seen:
        want = forecast(DEALT, draws=4, exchanges=0, void_suit=a.suit, visible="8888m66s")
        np.testing.assert_array_equal(a.forecast.win, want.win)
    assert seen[0].win < blind[0].win  # 8m and 6s gone: fewer ways to win


def test_cli_void_advice_uses_visible_and_refuses_void(capsys: pytest.CaptureFixture[str]) -> None:
    """--void-advice ignored --visible and --void in silence."""
    import json

    assert cli.main(["analyze", DEALT, "--void-advice", "--draws", "4", "--visible", "8888m66s",
                     "--json"]) == 0
    advice = json.loads(capsys.readouterr().out)["void_advice"]
    want = choose_void(DEALT, draws=4, exchanges=0, visible="8888m66s")
    assert advice[0]["win"] == want[0].win
    assert cli.main(["analyze", DEALT, "--void-advice", "--void", "s"]) == 2
    err = capsys.readouterr().err
    assert "--void-advice ranks the three void suits; drop --void" in err


@pytest.mark.parametrize("argv", [
    ["analyze", "123m456m789m23p55p", "--draws", "30"],
    ["batch", "in.txt", "out.npz", "--what", "forecast", "--draws", "40"],
])
def test_cli_names_draws_as_its_option(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """The library's 'draws: expected an int from 0 to 27' reached the CLI user as is."""
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "--draws: expected an int from 0 to 27" in err and err.count("\n") == 1
