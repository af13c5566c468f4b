"""selfplay, TableBatch and ``mjfast play``: shapes, determinism, the summary, bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mjfast import Round
from mjfast.cli import main
from mjfast.table import IllegalActionError, TableBatch, selfplay
from mjfast.table.selfplay import summary


def test_selfplay_arrays_and_logs():
    r = selfplay(12, ("efficient", "random", "efficient"), rules="qq", seed=4, logs=True)
    assert r.won.shape == r.order.shape == r.fan.shape == r.net.shape == (12, 3)
    assert r.net.dtype == np.int64 and r.fan.dtype == np.int16 and r.turns.dtype == np.int32
    assert (r.net.sum(axis=1) == 0).all() and (r.won.sum(axis=1) <= 2).all()
    assert ((r.order >= 0) == r.won).all() and ((r.fan >= 0) == r.won).all()
    assert r.logs is not None and len(r.logs) == 12
    for i, log in enumerate(r.logs):
        assert Round.from_json(log).net.tolist() == r.net[i].tolist()


def test_selfplay_same_seed_same_results_any_workers():
    a = selfplay(6, ("random",) * 4, seed=9)
    b = selfplay(6, ("random",) * 4, seed=9, workers=2)
    for name in ("won", "order", "fan", "net", "turns", "drawn"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert not np.array_equal(a.turns, selfplay(6, ("random",) * 4, seed=10).turns)


def test_selfplay_refuses_bad_arguments():
    with pytest.raises(ValueError, match="^bots: "):
        selfplay(1, ("efficient",))
    with pytest.raises(ValueError, match=r"^bots\[1\]"):
        selfplay(1, ("efficient", "greedy"))
    with pytest.raises(ValueError, match="^n_hands: "):
        selfplay(-1)


def test_old_keyword_names_warn_and_keep_working():
    with pytest.warns(DeprecationWarning, match=r"selfplay\(players=\.\.\.\) .*use bots="), \
            pytest.warns(DeprecationWarning, match=r"selfplay\(hands=\.\.\.\) .*use n_hands="):
        old = selfplay(hands=3, players=("efficient",) * 3, seed=2)  # type: ignore[call-arg]
    new = selfplay(n_hands=3, bots=("efficient",) * 3, seed=2)
    assert np.array_equal(old.net, new.net)
    with pytest.warns(DeprecationWarning, match="use n_hands"):
        assert new.hands == 3
    with pytest.raises(ValueError, match="old name of bots"):
        selfplay(3, players=("efficient",) * 3, bots=("efficient",) * 3)  # type: ignore[call-arg]


def test_summary_counts():
    s = summary(selfplay(10, ("efficient",) * 4, seed=3))
    assert s["hands"] == 10 and len(s["seats"]) == 4
    assert sum(s["fan_histogram"].values()) == sum(
        1 for seat in s["seats"] for _ in range(round(seat["win_rate"] * 10)))
    assert 0 <= s["rates"]["drawn"] <= 1


def test_table_batch_steps_random_actions():
    b = TableBatch(5, players=3, seed=2)
    obs, mask = b.reset()
    assert obs["hand"].shape == (5, 27) and obs["melds"].shape == (5, 3, 4, 2)
    rng = np.random.default_rng(0)
    total = np.zeros(3, np.int64)
    finished = 0
    for _ in range(400):
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        obs, mask, rewards, done = b.step(actions)
        total += rewards.sum(axis=0)
        finished += int(done.sum())
        assert mask.any(axis=1).all()           # a finished table is dealt again at once
    assert finished > 0 and int(total.sum()) == 0


def test_table_batch_refuses_an_illegal_row_before_moving():
    b = TableBatch(2, seed=0, engine="python")
    _, mask = b.reset()
    good = mask.argmax(axis=1)
    bad = good.copy()
    bad[1] = 0 if not mask[1, 0] else 136
    before = [t.to_json() for t in b.tables]
    with pytest.raises(IllegalActionError, match=r"actions\[1\]"):
        b.step(bad)
    assert [t.to_json() for t in b.tables] == before and b.current_player.tolist() == [0, 0]
    with pytest.raises(ValueError, match="actions"):
        b.step(np.zeros(3, np.int64))


def test_cli_play(tmp_path, capsys):
    log = tmp_path / "out.jsonl"
    assert main(["play", "--hands", "6", "--players", "efficient,random", "--log", str(log)]) == 0
    text = capsys.readouterr().out
    assert "6 hands, 2 players" in text and "一炮多响" in text and "fan of wins" in text
    lines = log.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 6 and json.loads(lines[0])["players"] == 2
    assert main(["play", "--hands", "3", "--json", "--rules", "qq"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["hands"] == 3 and doc["rules"] == "qq" and len(doc["seats"]) == 4
    assert main(["play", "--players", "efficient"]) == 2
    assert "--players" in capsys.readouterr().err


def test_cli_play_sessions(capsys):
    assert main(["play", "--hands", "12", "--session", "4", "--players",
                 "efficient,efficient,efficient", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    ses = doc["sessions"]
    assert (ses["count"], ses["hands"]) == (3, 4) and len(ses["seats"]) == 3
    assert sum(s["dealt"] for s in ses["seats"]) == 12
    r = selfplay(12, ("efficient",) * 3, session=4)
    assert [s["mean_net"] for s in ses["seats"]] == pytest.approx(
        r.session_net().mean(axis=0).tolist())
    assert main(["play", "--hands", "4", "--session", "2"]) == 0
    assert "2 sessions of 2 hands" in capsys.readouterr().out
    assert main(["play", "--session", "0"]) == 2
    assert "--session" in capsys.readouterr().err
