"""``mjfast analyze --draws / --void-advice`` and ``mjfast batch --what forecast`` (in process)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import mjfast
from mjfast import cli
from mjfast.forecast import choose_void, forecast


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_analyze_forecast_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _main(capsys, "analyze", "123m456m789m2p55p9s1s", "--void", "s", "--draws",
                         "8", "--objective", "value")
    assert code == 0
    assert "forecast over 8 draws (objective value, exchanges off): best discard 1s" in out
    assert "barred by the 定缺 rule" in out
    assert "P(ready)/P(win) by draw 3:" in out and "|" in out


def test_analyze_forecast_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _main(capsys, "analyze", "123m456m789m23p55p9s", "--draws", "4", "--json")
    assert code == 0
    doc = json.loads(out)["forecast"]
    f = forecast("123m456m789m23p55p9s", draws=4, exchanges=0)
    assert doc["best_discard"] == "9s"
    assert doc["per_discard"]["9s"]["win"] == f.win[26].tolist()
    assert doc["per_discard"]["9s"]["value"] == float(f.value[26])
    assert json.loads(out)["discards"][0]["tile"] == "9s"  # ranked by the forecast


def test_analyze_void_advice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _main(capsys, "analyze", "1234567m123p1559s", "--void-advice", "--draws", "4",
                         "--json")
    assert code == 0
    advice = json.loads(out)["void_advice"]
    want = choose_void("1234567m123p1559s", draws=4, exchanges=0)
    assert [a["suit"] for a in advice] == [mjfast.SUITS[c.suit] for c in want]
    assert advice[0]["win"] == want[0].win and advice[0]["discard"] == "1s"


def test_analyze_draws_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _main(capsys, "analyze", "123m456m789m23p55p", "--draws", "30")
    assert code == 2 and "draws" in err


def test_batch_forecast(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    hands = np.stack([mjfast.parse_hand(h) for h in ("123m456m789m23p55p9s", "1123m456m789p235p9s")])
    src, dst = tmp_path / "hands.npy", tmp_path / "out.npz"
    np.save(src, hands)
    code, _, err = _main(capsys, "batch", str(src), str(dst), "--what", "forecast", "--draws", "5")
    assert code == 0, err
    got = np.load(dst)
    want = forecast(hands, draws=5, exchanges=0)
    np.testing.assert_array_equal(got["win"], want.win)
    np.testing.assert_array_equal(got["best_discard"], want.best_discard)
    code, _, err = _main(capsys, "batch", str(src), str(tmp_path / "o.npy"), "--what", "forecast",
                         "--draws", "5")
    assert code == 2 and ".npz" in err


def test_docs_forecast_examples() -> None:
    """The forecasts guide's first example (a doctest block, which CI's docs build runs too)
    gives the numbers it shows."""
    import doctest
    from pathlib import Path

    page = Path(__file__).resolve().parents[2] / "docs" / "guide" / "forecasts.md"
    block = page.read_text(encoding="utf-8").split("```{doctest}\n", 1)[1].split("```", 1)[0]
    test = doctest.DocTestParser().get_doctest(block, {}, "docs/guide/forecasts.md", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize().failed == 0 and len(test.examples) >= 6


def test_analyze_policy_options(capsys: pytest.CaptureFixture[str]) -> None:
    """--exchanges K|none, --backward, --flush reach the forecast; refusals name the option."""
    hand = "123m456m78m23p55p9s"
    code, out, _ = _main(capsys, "analyze", hand, "--void", "s", "--draws", "4", "--exchanges",
                         "1", "--backward", "--json")
    assert code == 0
    doc = json.loads(out)["forecast"]
    f = forecast(hand, draws=4, void_suit="s", exchanges=1, backward=True)
    assert (doc["exchanges"], doc["backward"], doc["flush"]) == (1, True, None)
    assert doc["win"] == f.win.tolist()
    code, out, _ = _main(capsys, "analyze", hand, "--void", "s", "--draws", "4", "--flush", "m")
    assert code == 0 and "exchanges off, flush m" in out
    assert _main(capsys, "analyze", hand, "--draws", "2", "--exchanges", "none")[0] == 0
    code, _, err = _main(capsys, "analyze", hand, "--draws", "2", "--exchanges", "none",
                         "--backward")
    assert code != 0 and "--backward" in err
    code, _, err = _main(capsys, "analyze", hand, "--draws", "2", "--exchanges", "true")
    assert code != 0 and "--exchanges" in err


def test_analyze_plans(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "1123456789m23p5s9m"
    code, out, _ = _main(capsys, "analyze", hand, "--void", "s", "--plans", "--draws", "6",
                         "--objective", "value", "--json")
    assert code == 0
    plans = json.loads(out)["plans"]
    want = mjfast.choose_plan(hand, draws=6, void_suit="s", objective="value")
    assert [p["plan"] for p in plans] == [
        "as it stands" if c.flush is None else f"flush {'mps'[c.flush]}" for c in want]
    assert [p["value"] for p in plans] == [c.value for c in want]
    assert {p["plan"] for p in plans} == {"as it stands", "flush m", "flush p"}  # not s: void
