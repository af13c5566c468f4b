"""Fuzz: the table (Table, its step, TableBatch, selfplay) with hostile arguments; a refused
action leaves the table as it was."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from mjfast import Table, TableBatch, selfplay
from tests.fuzz.hostile import FUZZ, hostile, outcome

TABLE_ARGS = ("rules", "players", "seed", "dealer", "wall")


def _small(value: object) -> bool:
    """Not an index above 3: a hostile count must not ask for hours of play."""
    try:
        return operator.index(value) <= 3  # type: ignore[arg-type]
    except Exception:
        return True


COUNTS = hostile().filter(_small)


@FUZZ
@given(key=st.sampled_from(TABLE_ARGS), value=hostile())
def test_table(key: str, value: object) -> None:
    kw: dict[str, Any] = {"seed": 1, key: value}
    res = outcome(lambda: Table(**kw), names=(*TABLE_ARGS, "tile", "wall["),
                  returns=lambda t: type(t) is Table)
    if res.ok:
        t: Table = res.value
        assert t.phase == "void" and (t.state.tile_total() == 4).all()


@FUZZ
@given(action=st.one_of(hostile(), st.integers(-3, 145)), declared=st.booleans())
def test_table_step(action: object, declared: bool) -> None:
    t = Table(seed=2)
    if declared:
        for _ in range(4):
            t.step(137)
    before = (t.to_json(), t.state.hands.copy(), t.phase, t.current_player)
    res = outcome(lambda: t.step(action), names=("action", "discard", "pung", "kong", "win",
                                                 "pass", "void"))
    if not res.ok:
        assert (t.to_json(), t.phase, t.current_player) == (before[0], before[2], before[3])
        assert np.array_equal(t.state.hands, before[1])


@FUZZ
@given(key=st.sampled_from(["n", "players", "rules", "seed", "actions"]), value=hostile())
def test_table_batch(key: str, value: object) -> None:
    if key == "actions":
        b = TableBatch(2, seed=0)
        res = outcome(lambda: b.step(value), names=("actions",))
        assert res.ok is False or b.current_player.shape == (2,)
        return
    if key == "n" and not _small(value):
        return
    kw: dict[str, Any] = {"n": 2, key: value}
    outcome(lambda: TableBatch(**kw), names=("n", "players", "rules", "seed"),
            returns=lambda b: type(b) is TableBatch)


def _bad_player(obs: dict[str, Any], mask: np.ndarray, rng: np.random.Generator) -> int:
    return 999  # an action outside the space: refused with the reason


@FUZZ
@given(key=st.sampled_from(["n_hands", "bots", "rules", "seed", "workers", "logs"]),
       value=st.one_of(COUNTS, st.just([_bad_player] * 4)))
def test_selfplay(key: str, value: object) -> None:
    if key == "n_hands" and not _small(value):
        return
    kw: dict[str, Any] = {"n_hands": 2, "bots": ("random",) * 4, key: value}
    seats: Any = kw["bots"]
    names = ("n_hands", "bots", "rules", "seed", "workers", "logs", "action")
    res = outcome(lambda: selfplay(**kw), names=names)
    if res.ok:
        assert res.value.net.shape[1] == len(seats)
