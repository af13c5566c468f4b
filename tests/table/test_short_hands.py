"""Tables of 5 and 6 seats (RULES.md section 7): the short hands (5 seats: dealer 11, others 10,
3 sets + pair; 6 seats: 8 / 7, 2 sets + pair; no seven pairs) in Table, selfplay, TableBatch and
``mjfast play``; the compiled engine refuses them by name."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mjfast import Round
from mjfast.cli import main
from mjfast.errors import InvalidArgumentError
from mjfast.table import WIN, Table, TableBatch, selfplay

from .helpers import act, stack


@pytest.mark.parametrize(("players", "dealt"), [(5, (11, 10)), (6, (8, 7))])
def test_short_hands_are_dealt(players, dealt):
    t = Table(players=players, seed=3)
    sizes = t.state.hands.sum(axis=1).tolist()
    assert sizes == [dealt[0]] + [dealt[1]] * (players - 1)
    assert t.wall_left == 108 - dealt[0] - dealt[1] * (players - 1)


def test_six_seats_tian_hu_on_eight_tiles():
    t = Table(players=6, wall=stack(["123m456m11p"]))    # 2 sets + pair: a win at 6 seats
    for _ in range(6):
        p = t.current_player
        act(t, p, "void:" + "mps"[int(np.flatnonzero(t.legal_actions(p)[137:])[-1])])
    assert t.legal_actions(0)[WIN]
    act(t, 0, "win")
    ev = t.round.events[-1]
    assert ev["tian_hu"] is True and ev["hands"] == "123456m11p"
    assert t.scores.tolist() == [45] + [-9] * 5                  # 天胡 5 fan, cap 3: 8 + 1 each


@pytest.mark.parametrize("players", [5, 6])
def test_python_selfplay_plays_short_hands(players):
    r = selfplay(6, ("efficient", "random") * 3 if players == 6 else ("efficient",) * 5,
                 seed=players, engine="python", logs=True, session=3)
    assert r.net.shape == (6, players) and (r.net.sum(axis=1) == 0).all()
    assert r.logs is not None and r.won.any()
    for i, log in enumerate(r.logs):
        assert json.loads(log)["players"] == players
        assert Round.from_json(log).net.tolist() == r.net[i].tolist()


def test_the_compiled_engine_refuses_five_and_six_seats():
    for call in (lambda: selfplay(1, ("efficient",) * 5),
                 lambda: TableBatch(2, 6)):
        with pytest.raises(InvalidArgumentError, match='players: .* 2 to 4 seats.*engine="python"'):
            call()
    b = TableBatch(2, 6, engine="python", seed=1)
    _, mask = b.reset()
    for _ in range(40):
        _, mask, rewards, _ = b.step(b.random_actions())
        assert rewards.shape == (2, 6) and mask.any(axis=1).all()


def test_cli_play_six_seats(capsys):
    assert main(["play", "--hands", "2", "--players", ",".join(["efficient"] * 6),
                 "--engine", "python", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["hands"] == 2 and len(doc["seats"]) == 6
    assert main(["play", "--hands", "2", "--players", ",".join(["efficient"] * 6)]) == 2
    assert "engine" in capsys.readouterr().err
