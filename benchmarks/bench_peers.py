"""Peer benchmarks: regular-form shanten (void rule off) of other libraries, one call per hand.

Each peer is optional (``pip install 'mjfast[peers]'``) and skipped when it cannot be imported.
The case's setup checks the peer against mjfast on its hands first (a
:class:`mjfast.bench.PeerMismatchError` fails the test). Compare with the
``shanten_regular`` row of ``bench_kernels.py`` (group ``core``); ``mjfast bench`` prints the
ratios mjfast/peer from one run.
"""

from __future__ import annotations

import pytest

from mjfast import bench
from mjfast.datagen import deal, two_suit_hands

PEER_CASES = [c.name for c in bench.CASES if c.peer is not None and c.group != "stream"]


@pytest.mark.parametrize("name", PEER_CASES)
def test_peer(time_case, name):
    """Time one peer on random 14-tile hands (checked against mjfast first)."""
    time_case(name, group="peers", api=bench.peer_api(bench.find_case(name).peer))


@pytest.mark.parametrize("peer", sorted(bench.PEERS))
def test_peer_agrees_on_two_suit_hands(peer):
    """On two-suit hands every regular-shanten definition agrees; the peer must too."""
    reason = bench.peer_available(peer)
    if reason:
        pytest.skip(reason)
    assert bench.verify_peer(peer, two_suit_hands(300, seed=11)) == 300
    assert bench.verify_peer(peer, deal(300, 13, seed=12)) == 300
