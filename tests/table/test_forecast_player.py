"""The ``forecast`` player and the batched runner (mjfast.table.match): the C runner gives the
compiled selfplay's results, the forecast player plays alike in both engines, declares the void
``choose_void`` ranks first, discards by the forecast, and refuses bad parameters."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mjfast import Rules
from mjfast.cli import main
from mjfast.errors import InvalidArgumentError
from mjfast.forecast import MAX_STATES, choose_void, forecast
from mjfast.table import DISCARD, VOID, Table, selfplay
from mjfast.table.cengine import run_selfplay
from mjfast.table.duplicate import duplicate
from mjfast.table.forecast_player import ForecastPlayer
from mjfast.table.match import play_batched

FIELDS = ("won", "order", "fan", "net", "hua_zhu", "cha_da_jiao", "dealt_in", "turns", "drawn",
          "tian_hu", "yi_pao_duo_xiang")


@pytest.mark.parametrize("kinds", [[1, 1, 1, 1], [0, 1, 0, 1], [1, 0, 1]])
def test_runner_plays_builtin_seats_as_the_compiled_selfplay(kinds):
    a = play_batched(300, kinds, Rules(), 5, 1)
    b, _ = run_selfplay(300, kinds, Rules(), 5, 1, False)
    for name in b:
        assert np.array_equal(a[name], b[name]), name
    assert np.array_equal(play_batched(300, kinds, Rules(), 5, 2)["net"], a["net"])


def test_dealt_in_matches_the_event_logs():
    r = selfplay(40, ("efficient",) * 4, seed=3, logs=True)
    c = selfplay(40, ("efficient",) * 4, seed=3)
    assert np.array_equal(r.dealt_in, c.dealt_in) and c.dealt_in.any()
    winners_by_discard = (r.won & ~c.dealt_in).any(axis=1)
    assert (c.dealt_in.sum(axis=1) <= 3).all() and winners_by_discard.any()


@pytest.mark.parametrize("rules", ["chengdu", "qq"])
def test_forecast_player_plays_alike_in_both_engines(rules):
    players = ("forecast", "efficient", ForecastPlayer(objective="win", draws=5), "efficient")
    c = selfplay(12, players, rules=rules, seed=2)
    py = selfplay(12, players, rules=rules, seed=2, engine="python")
    for name in FIELDS:
        assert np.array_equal(getattr(c, name), getattr(py, name)), name
    assert (c.net.sum(axis=1) == 0).all()
    assert np.array_equal(selfplay(12, players, rules=rules, seed=2, workers=2).net, c.net)


def test_void_is_choose_voids_first_choice():
    p = ForecastPlayer(void_draws=4)
    for seed in range(8):
        t = Table(seed=seed)
        obs = t.observation(0)
        action = p(obs, t.legal_actions(0), np.random.default_rng(0))
        ranked = choose_void(obs["hand"], draws=4, objective="value", exchanges=0)
        if ranked[0].score > 0:
            assert action == VOID + ranked[0].suit, seed


@pytest.mark.parametrize("exchanges", [0, 1])
def test_discard_is_the_forecasts_best(exchanges):
    p = ForecastPlayer(draws=6, exchanges=exchanges, max_states=MAX_STATES)
    t = Table(seed=11)
    for _ in range(4):  # every seat declares the suit it holds fewest of
        t.step(VOID + int(np.argmin(t.observation(t.current_player)["hand"].reshape(3, 9)
                                    .sum(axis=1))))
    obs = t.observation(0)
    action = p(obs, t.legal_actions(0), np.random.default_rng(0))
    assert DISCARD <= action < DISCARD + 27
    f = forecast(obs["hand"], draws=6, void_suit=int(obs["void"][0]), objective="value",
                 exchanges=exchanges)
    top = np.nanmax(f.value)
    if top > 0:  # else the efficient discard
        assert f.value[action] >= top * (1 - 1e-12)


def test_forecast_player_parameters():
    with pytest.raises(InvalidArgumentError, match="objective"):
        ForecastPlayer(objective="fan")
    with pytest.raises(InvalidArgumentError, match="draws"):
        ForecastPlayer(draws=0)
    with pytest.raises(InvalidArgumentError, match="exchanges=0 for False"):
        ForecastPlayer(exchanges=False)
    assert "exchanges=1" in repr(ForecastPlayer(exchanges=1))
    p = ForecastPlayer(rules="qq")
    assert p.with_rules(Rules()) is p and ForecastPlayer().with_rules(Rules()) is not p


def test_duplicate_pairs_the_seats_on_the_same_walls():
    d = duplicate(30, ForecastPlayer(draws=4), "efficient", seed=4)
    s = d.summary()
    base = selfplay(30, ("efficient",) * 4, seed=4)
    assert np.array_equal(d.baseline.net, base.net)
    expect = np.mean([d.tested[q].net[:, q] for q in range(4)], axis=0)
    assert np.allclose(d.per_wall(), expect) and s["mean_net"] == pytest.approx(expect.mean())
    assert s["opponent"]["mean_net"] == 0.0 and 0 <= s["tested"]["dealt_in"] <= 1
    same = duplicate(20, "efficient", "efficient", players=3).summary()
    assert (same["mean_net"], same["mean_net_ci"]) == (0.0, 0.0)


def test_play_duplicate_command(capsys):
    assert main(["play", "--duplicate", "forecast,efficient", "--hands", "5", "--json",
                 "--forecast", "objective=win", "--forecast", "void_by_forecast=false"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["hands"] == 5 and doc["players"] == ["forecast", "efficient"]
    assert set(doc["tested"]) == {"mean_net", "win_rate", "mean_fan", "dealt_in", "hua_zhu",
                                  "cha_da_jiao"}
    assert main(["play", "--duplicate", "forecast,efficient", "--hands", "3"]) == 0
    assert "mean net per hand, forecast - efficient" in capsys.readouterr().out
    for bad, msg in ((["--duplicate", "forecast"], "--duplicate"),
                     (["--forecast", "draws=0", "--players", "forecast,efficient"], "draws"),
                     (["--forecast", "depth=3", "--players", "forecast,efficient"], "depth"),
                     (["--forecast", "draws=3"], "no forecast player")):
        assert main(["play", "--hands", "2", *bad]) == 2
        assert msg in capsys.readouterr().err


def test_runner_plays_sessions_as_the_compiled_selfplay():
    a = play_batched(50, [1, 0, 1, 1], Rules(), 6, 2, session=10)
    b, _ = run_selfplay(50, [1, 0, 1, 1], Rules(), 6, 2, False, session=10)
    for name in b:
        assert np.array_equal(a[name], b[name]), name
    assert len(set(a["dealer"].tolist())) > 1
    with pytest.raises(InvalidArgumentError, match="ding_que"):
        selfplay(2, ("forecast", "random", "random", "random"), rules=Rules(ding_que=False))


def test_stored_duplicate_results_hold_the_claims():
    """docs/_data/players.json (benchmarks/duplicate_players.py, the players page): the default
    player over at least 10^5 hands under chengdu and under points, ahead of efficient with a 95%
    interval that excludes zero."""
    runs = json.loads((Path(__file__).parents[2] / "docs" / "_data" / "players.json")
                      .read_text(encoding="utf-8"))["runs"]
    default = {r["rules"]: r for r in runs if r["case"] == "default"}
    assert set(default) == {"chengdu", "points"}
    for r in default.values():
        assert r["hands"] * r["seats"] >= 10**5, r["rules"]        # "hands": walls
        assert r["mean_net"] - r["mean_net_ci"] > 0, r["rules"]
