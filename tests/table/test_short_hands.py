"""Tables of 5 and 6 seats (RULES.md section 7): the short hands (5 seats: dealer 11, others 10,
3 sets + pair; 6 seats: 8 / 7, 2 sets + pair; no seven pairs) in Table, selfplay, TableBatch and
``mjfast play``, on both engines, the forecast player among the players."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mjfast import Round
from mjfast._core import _table
from mjfast.cli import main
from mjfast.forecast import forecast
from mjfast.rules import Rules
from mjfast.settlement.model import sets_for
from mjfast.table import DISCARD, PASS, VOID, WIN, Table, TableBatch, parse_action, selfplay
from mjfast.table.engine import MAX_TABLE_PLAYERS
from mjfast.table.forecast_player import ForecastPlayer
from mjfast.table.players import efficient_player
from mjfast.table.seat import SeatGame

from .helpers import act, declare, idle, stack, step_batches_alike
from .test_invariants import check_wins, play_checked


@pytest.mark.parametrize(("players", "dealt"), [(5, (11, 10)), (6, (8, 7))])
def test_short_hands_are_dealt(players, dealt):
    t = Table(players=players, seed=3)
    sizes = t.state.hands.sum(axis=1).tolist()
    assert sizes == [dealt[0]] + [dealt[1]] * (players - 1)
    assert t.wall_left == 108 - dealt[0] - dealt[1] * (players - 1)


def test_five_seats_discard_win_on_eleven_tiles():
    """Dealer 11 tiles, the others 10; seat 1 wins on the dealer's 5p with 3 sets + pair (清一色,
    2 fan: 4), and play goes on with the seats still in."""
    t = Table(players=5, wall=stack(["1234567899m5p", "234678999p5p"]))
    assert t.state.hands.sum(axis=1).tolist() == [11, 10, 10, 10, 10] and t.wall_left == 57
    declare(t, "smpps")
    act(t, 0, "discard:5p")
    assert t.legal_actions(1).nonzero()[0].tolist() == [WIN, PASS]
    act(t, 1, "win")
    ev = t.round.events[-1]
    assert ev["players"] == [1] and ev["hands"] == ["23455678999p"] and ev["from_player"] == 0
    assert t.scores.tolist() == [-4, 4, 0, 0, 0]
    assert (t.current_player, t.phase, t.state.hands[2].sum()) == (2, "turn", 11)
    idle(t)
    assert t.is_over and t.scores.sum() == 0
    assert Round.from_json(t.to_json()).net.tolist() == t.scores.tolist()


def test_six_seats_tian_hu_on_eight_tiles():
    t = Table(players=6, wall=stack(["123m456m11p"]))    # 2 sets + pair: a win at 6 seats
    assert t.state.hands.sum(axis=1).tolist() == [8] + [7] * 5 and t.wall_left == 108 - 43
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


@pytest.mark.parametrize("players", [5, 6])
def test_c_engine_plays_short_hands(players):
    """The compiled engine deals the short hands from its walls as Table does (the C batch's
    observations, masks and rewards are the Python batch's), and its efficient players play
    the hands the reference plays, in sessions too."""
    assert _table.MAX_PLAYERS == MAX_TABLE_PLAYERS == 6
    seats = ("efficient",) * players
    c = selfplay(8, seats, seed=players, logs=True, session=2)
    py = selfplay(8, seats, seed=players, logs=True, session=2, engine="python")
    assert np.array_equal(c.net, py.net) and np.array_equal(c.dealer, py.dealer)
    assert c.logs == py.logs and c.won.any()
    b = TableBatch(3, players, seed=2)
    obs, _ = b.reset()
    assert obs["hand"].sum(axis=1).tolist() == [3 * (players == 5) + 8] * 3   # the dealer's
    assert step_batches_alike(b, TableBatch(3, players, seed=2, engine="python"), players) > 0


@pytest.mark.parametrize("players", [5, 6])
def test_forecast_player_plays_short_hands(players):
    """The forecast player at 5 and 6 seats: tiles and money conserved at every step, every win
    scores with the table's sets, and the compiled engine plays the Python engine's hands."""
    bots = ("forecast",) + ("efficient",) * (players - 1)
    for seed in range(2):
        t = play_checked(players, "chengdu", bots, seed)
        check_wins(t)
        assert Round.from_json(t.to_json()).net.tolist() == t.scores.tolist()
    c = selfplay(12, bots[::-1], seed=players)
    py = selfplay(12, bots[::-1], seed=players, engine="python")
    assert np.array_equal(c.net, py.net) and (c.net.sum(axis=1) == 0).all() and c.won.any()


@pytest.mark.parametrize("players", [5, 6])
def test_seat_game_plays_against_forecast_players(players):
    """The RL seat (SeatGame, what the Gymnasium environment runs) against forecast opponents
    at 5 and 6 seats: the hands end and their money sums to zero."""
    game = SeatGame(["forecast"] * (players - 1), players, 0, Rules())
    rng = np.random.default_rng(players)
    for seed in range(4):
        obs, _ = game.deal(seed, rng)
        while not game.over:
            obs, _ = game.act(int(rng.choice(np.flatnonzero(obs["mask"]))))
        assert game.table is not None and int(game.table.scores.sum()) == 0


@pytest.mark.parametrize(("players", "seed"), [(5, 86), (6, 6), (6, 8)])
def test_forecast_player_declares_a_suit_not_dealt(players, seed):
    """A seat dealt no tile of a suit must declare it void, whatever the forecasts rank first
    (here another suit: seat 4 of the first deal, seat 1 of the others, holds no 万)."""
    t = Table(players=players, seed=seed)
    p = ForecastPlayer()
    for _ in range(players):
        q = t.current_player
        obs, mask = t.observation(q), t.legal_actions(q)
        action = p(obs, mask, np.random.default_rng(0))
        assert mask[action] and (mask[VOID:VOID + 3].sum() > 1 or action == VOID), q
        t.step(action)


@pytest.mark.parametrize(("players", "dealt", "void", "best", "efficient"), [
    (5, "18m134455778p", "s", "1m", "8p"),   # 11 tiles: 3 sets + pair
    (6, "125899m36s", "p", "6s", "8m"),      # 8 tiles: 2 sets + pair
])
def test_forecast_player_discards_the_short_forecasts_best(players, dealt, void, best, efficient):
    """The dealer's first discard is the best discard of the forecast with the table's sets (3
    or 2), here not the efficient player's."""
    t = Table(players=players, wall=stack([dealt]))
    for _ in range(players):  # each seat declares the suit it holds fewest of (the dealer: void)
        t.step(VOID + int(np.argmin(t.observation(t.current_player)["hand"].reshape(3, 9)
                                    .sum(axis=1))))
    assert t.state.void[0] == "mps".index(void)
    obs, mask = t.observation(0), t.legal_actions(0)
    f = forecast(obs["hand"], draws=3, void_suit=void, objective="value",
                 sets=sets_for(players))
    action = ForecastPlayer(draws=3)(obs, mask, np.random.default_rng(0))
    assert action == parse_action(f"discard:{best}") == DISCARD + f.best_discard
    assert efficient_player(obs, mask, np.random.default_rng(0)) == \
        parse_action(f"discard:{efficient}")


def test_cli_play_six_seats(capsys):
    docs = []
    for engine in ("c", "python"):
        assert main(["play", "--hands", "3", "--players", ",".join(["efficient"] * 6),
                     "--engine", engine, "--json"]) == 0
        docs.append(json.loads(capsys.readouterr().out))
        del docs[-1]["seconds"]
    assert docs[0] == docs[1] and docs[0]["hands"] == 3 and len(docs[0]["seats"]) == 6
