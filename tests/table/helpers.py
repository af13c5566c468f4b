"""Stacked walls and scripted play for the table scenarios."""

from __future__ import annotations

import numpy as np

from mjfast.table import PASS, Table, parse_action
from mjfast.table.state import tile_sequence


def stack(hands: list[str], draws: str = "") -> list[int]:
    """A wall dealing ``hands`` (seat order from the dealer: 14 tiles, then 13 each), then
    ``draws`` in order, then every other tile in ascending order."""
    order = [k for h in hands for k in tile_sequence(h)] + tile_sequence(draws)
    left = np.full(27, 4) - np.bincount(order, minlength=27)
    assert (left >= 0).all(), "a kind stacked more than 4 times"
    return order + [k for k in range(27) for _ in range(int(left[k]))]


def act(t: Table, player: int, name: str) -> np.ndarray:
    """``player`` (who must be to act) takes the named action."""
    assert t.current_player == player, (t.current_player, t.phase, name)
    return t.step(parse_action(name))


def declare(t: Table, voids: str) -> None:
    """Every seat declares, dealer first: ``voids[i]`` for seat i."""
    for _ in range(t.players):
        p = t.current_player
        act(t, p, f"void:{voids[p]}")


def idle(t: Table, until=None) -> None:
    """Pass every claim and discard the drawn tile (or the first legal one) until ``until``."""
    while not t.is_over and not (until is not None and until(t)):
        p = t.current_player
        mask = t.legal_actions(p)
        if t.phase in ("claim", "rob"):
            t.step(PASS)
            continue
        drawn = t.state.drawn
        t.step(drawn if drawn >= 0 and mask[drawn] else int(np.flatnonzero(mask[:27])[0]))


def step_batches_alike(c, py, seed: int, steps: int = 300) -> int:
    """Step a C and a Python TableBatch with the same random legal actions, checking that their
    masks (and observations), rewards and done flags agree; returns the hands finished."""
    (oc, mc), (op, mp) = c.reset(), py.reset()
    rng = np.random.default_rng(seed)
    done = 0
    for _ in range(steps):
        assert np.array_equal(mc, mp)
        for key in op:
            assert oc[key].dtype == op[key].dtype and np.array_equal(oc[key], op[key]), key
        actions = (rng.random(mc.shape) * mc).argmax(axis=1)
        oc, mc, rc, dc = c.step(actions)
        op, mp, rp, dp = py.step(actions)
        assert np.array_equal(rc, rp) and np.array_equal(dc, dp)
        done += int(dc.sum())
    return done
