"""Other libraries' shanten ("peers"), converted to mjfast's numbers and checked against them.

Peers are compared on what they compute: the riichi-style shanten of a concealed hand, without
the void rule. ``mahjong``'s ``calculate_shanten_for_regular_hand`` is the regular form alone and
must equal ``mjfast.shanten(h, form="regular", void_rule=False)``; ``xiangting`` and
``riichienv`` return the minimum over the regular form, riichi seven pairs (seven *distinct*
pairs) and thirteen orphans, which :func:`riichi_shanten` reproduces from mjfast's regular number.
Every peer is optional (``pip install 'mjfast[peers]'``); :func:`peer_available` says why one
cannot be used.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import numpy as np

import mjfast

__all__ = [
    "PEERS",
    "PeerMismatchError",
    "kokushi_shanten",
    "peer_api",
    "peer_available",
    "peer_call",
    "peer_shanten",
    "peer_version",
    "riichi_seven_pairs_shanten",
    "riichi_shanten",
    "to_34_counts",
    "to_136_ids",
    "verify_peer",
]


def to_34_counts(hands: np.ndarray) -> list[list[int]]:
    """(n, 27) counts -> per-hand 34-length count lists (honours 1z..7z all zero).

    The layout of ``xiangting`` and ``mahjong`` (``tiles_34``): indices 0-26 are mjfast's kinds.

    >>> row = to_34_counts(np.eye(1, 27, 13, dtype=np.uint8))[0]
    >>> row[13], len(row)
    (1, 34)
    """
    hands = np.asarray(hands)
    counts: list[list[int]] = np.hstack([hands, np.zeros((hands.shape[0], 7), hands.dtype)]).tolist()
    return counts


def to_136_ids(hands: np.ndarray) -> list[list[int]]:
    """(n, 27) counts of equal-size hands -> per-hand lists of tile ids ``4 * kind + copy``.

    The 136-tile id layout ``riichienv.calculate_shanten`` takes (as its ``parse_hand`` gives).

    >>> to_136_ids(np.array([[2] + [0] * 12 + [1] + [0] * 13], np.uint8))
    [[0, 1, 52]]
    """
    hands = np.asarray(hands)
    n = hands.shape[0]
    if n == 0:
        return []
    sizes = hands.sum(axis=1)
    if not (sizes == sizes[0]).all():
        raise ValueError("to_136_ids: hands must all hold the same number of tiles")
    c = hands.ravel().astype(np.intp)
    kinds = np.repeat(np.tile(np.arange(27), n), c)
    copy = np.arange(kinds.size) - np.repeat(np.cumsum(c) - c, c)
    ids: list[list[int]] = (4 * kinds + copy).reshape(n, int(sizes[0])).tolist()
    return ids


def riichi_seven_pairs_shanten(hands: np.ndarray) -> np.ndarray:
    """Riichi seven pairs shanten (seven *distinct* pairs) of (n, 27) 13/14-tile hands.

    ``6 - pairs + max(0, 7 - kinds held)``; unlike Sichuan's, four of a kind is one pair.

    >>> riichi_seven_pairs_shanten(np.array([[4, 2, 2, 2, 2, 2] + [0] * 21])).tolist()
    [1]
    """
    hands = np.asarray(hands)
    pairs = (hands >= 2).sum(axis=1)
    kinds = (hands >= 1).sum(axis=1)
    return (6 - pairs + np.maximum(0, 7 - kinds)).astype(np.int64)


def kokushi_shanten(hands: np.ndarray) -> np.ndarray:
    """Thirteen orphans shanten of suit-only hands: ``13 - terminal kinds - (a terminal pair)``."""
    t = np.asarray(hands)[:, [0, 8, 9, 17, 18, 26]]
    return (13 - (t >= 1).sum(axis=1) - (t >= 2).any(axis=1)).astype(np.int64)


def _regular_novoid(hands: np.ndarray) -> np.ndarray:
    """mjfast's regular-form shanten without the void rule (what ``mahjong`` computes)."""
    regular = mjfast.shanten(np.ascontiguousarray(hands, dtype=np.uint8), form="regular",
                             void_rule=False)
    return np.asarray(regular, dtype=np.int64)


def riichi_shanten(hands: np.ndarray) -> np.ndarray:
    """What the riichi peers' overall shanten must be on suit-only hands, from mjfast.

    ``min(mjfast.shanten(h, form="regular", void_rule=False), riichi seven pairs, kokushi)``.
    """
    seven_or_kokushi = np.minimum(riichi_seven_pairs_shanten(hands), kokushi_shanten(hands))
    return np.minimum(_regular_novoid(hands), seven_or_kokushi)


@dataclass(frozen=True)
class _Peer:
    """How to call one peer: module, input conversion, the per-hand call, what to compare with."""

    module: str                                   # what to import
    what: str                                     # the peer function, for the report
    prepare: Callable[[np.ndarray], list[Any]]    # (n, 27) counts -> per-hand inputs
    make_call: Callable[[Any], Callable[[Any], int]]  # module -> per-hand shanten function
    expected: Callable[[np.ndarray], np.ndarray]  # (n, 27) -> what the peer must return


def _xiangting_call(mod: Any) -> Callable[[list[int]], int]:
    calc, four = mod.calculate_replacement_number, mod.PlayerCount.FOUR
    return lambda h: calc(h, four) - 1


def _riichienv_call(mod: Any) -> Callable[[list[int]], int]:
    call: Callable[[list[int]], int] = mod.calculate_shanten
    return call


def _mahjong_call(mod: Any) -> Callable[[list[int]], int]:
    call: Callable[[list[int]], int] = mod.Shanten().calculate_shanten_for_regular_hand
    return call


PEERS: dict[str, _Peer] = {
    "xiangting": _Peer("xiangting",
                       "xiangting.calculate_replacement_number(counts34, PlayerCount.FOUR) - 1",
                       to_34_counts, _xiangting_call, riichi_shanten),
    "riichienv": _Peer("riichienv", "riichienv.calculate_shanten(tile_ids_136)",
                       to_136_ids, _riichienv_call, riichi_shanten),
    "mahjong": _Peer("mahjong.shanten",
                     "mahjong.shanten.Shanten().calculate_shanten_for_regular_hand(counts34)",
                     to_34_counts, _mahjong_call, _regular_novoid),
}
"""The peers by distribution name."""


def peer_call(name: str) -> Callable[[Any], int]:
    """Peer ``name``'s per-hand shanten function (it takes ``PEERS[name].prepare``'s items)."""
    peer = PEERS[name]
    return peer.make_call(importlib.import_module(peer.module))


def peer_api(name: str) -> str:
    """What peer ``name``'s cases call, for the report."""
    if name == "nyanten":  # a batch peer (mjfast.bench.nyanten), not a Python package
        return "Nyanten::Standard_::calculateReplacementNumber per row (C++, one batch call)"
    return PEERS[name].what


def peer_version(name: str) -> str:
    """The installed version of peer ``name``, or ``"?"``."""
    try:
        return version(name)
    except PackageNotFoundError:  # pragma: no cover - importable without metadata
        return "?"


def peer_available(name: str) -> str | None:
    """None when peer ``name`` can be imported, else the reason it cannot."""
    try:
        importlib.import_module(PEERS[name].module)
    except Exception as exc:
        return f"{name} not importable ({type(exc).__name__}: {exc}); pip install 'mjfast[peers]'"
    return None


def peer_shanten(name: str, hands: np.ndarray) -> np.ndarray:
    """Peer ``name``'s shanten of each (n, 27) hand, called one hand at a time."""
    call = peer_call(name)
    return np.array([call(h) for h in PEERS[name].prepare(hands)], dtype=np.int64)


class PeerMismatchError(AssertionError):
    """A peer disagrees with what mjfast says it must return (see :func:`verify_peer`)."""


def verify_peer(name: str, hands: np.ndarray) -> int:
    """Check peer ``name`` on ``hands`` against mjfast; return the number of hands checked.

    ``xiangting`` and ``riichienv`` must equal :func:`riichi_shanten`; ``mahjong``'s
    regular-hand call must equal ``mjfast.shanten(h, form="regular", void_rule=False)``.

    Raises:
        PeerMismatchError: naming how many hands disagree and the first one.
    """
    return check_agreement(name, hands, peer_shanten(name, hands), PEERS[name].expected(hands))


def check_agreement(name: str, hands: np.ndarray, got: np.ndarray, want: np.ndarray) -> int:
    """Raise :class:`PeerMismatchError` unless peer ``name``'s answers ``got`` on ``hands`` equal
    mjfast's ``want``; return the number of hands."""
    bad = np.nonzero(np.asarray(got) != np.asarray(want))[0]
    if bad.size:
        i = int(bad[0])
        raise PeerMismatchError(
            f"{name} disagrees with mjfast on {bad.size} of {len(hands)} hands; first: "
            f"{mjfast.format_hand(hands[i])} gives {int(got[i])}, mjfast says {int(want[i])}")
    return len(hands)
