"""The benchmark cases: what ``mjfast bench`` and ``benchmarks/`` time, on the same hands.

:data:`CASES` holds one :class:`Case` per measured call, in report order: mjfast's public
kernels, the batch fan kernels (group ``"fan"``, timed by ``benchmarks/bench_fan.py``), then the
optional peers (each skipped when not importable). The hands come from :mod:`mjfast.datagen`
with the seed :data:`SEED`; a run shares them between its cases (:func:`clear_cache` forgets
them).

>>> find_case("waits").unit
'hands/s'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

import mjfast

from ..datagen import complete_hands, deal, deal_split, ready_hands, two_suit_hands
from ..stats import exact, run_stats
from .nyanten import nyanten_available, nyanten_shanten, verify_nyanten
from .peers import PEERS, peer_available, peer_call, verify_peer

__all__ = ["CASES", "SEED", "Case", "clear_cache", "find_case"]

SEED = 2024
"""The seed of the benchmark hands (mjfast bench and benchmarks/ deal the same ones)."""

Setup = Callable[[int, int], tuple[Any, ...]]
"""``setup(n, seed)`` -> the arguments of a case's timed call."""

_T = TypeVar("_T")

_DATA: dict[tuple[Any, ...], Any] = {}


def _cached(key: tuple[Any, ...], make: Callable[[], _T]) -> _T:
    if key not in _DATA:
        _DATA[key] = make()
    return _DATA[key]


def clear_cache() -> None:
    """Forget the hands the cases dealt (they are shared between cases of one run)."""
    _DATA.clear()


def _random(n: int, seed: int, tiles: int = 14) -> np.ndarray:
    return _cached(("random", n, seed, tiles), lambda: deal(n, tiles, seed=seed))


def _ready(n: int, seed: int) -> np.ndarray:
    return _cached(("ready", n, seed), lambda: ready_hands(n, seed=seed))


def _complete(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    return _cached(("complete", n, seed),
                   lambda: complete_hands(n, seed=seed, return_tile=True))


@dataclass(frozen=True)
class Case:
    """One measured call.

    ``setup(n, seed)`` builds the arguments (not timed); ``run(*args)`` is timed. ``unit`` says
    what ``n`` counts: ``"hands/s"`` for a batch call over n hands, ``"calls/s"`` for n calls
    of a per-hand API. ``compare`` names the case this one is compared with: for a peer,
    the ratio reported is ``rate(compare) / rate(this)`` (mjfast/peer); for a mjfast case, it
    is ``rate(this) / rate(compare)`` (e.g. the speed-up of workers=2 over workers=1).
    ``available()`` returns None, or why the case is skipped.
    """

    name: str
    title: str
    setup: Setup
    run: Callable[..., Any]
    size: int
    quick: int
    unit: str = "hands/s"
    peer: str | None = None
    compare: str | None = None
    available: Callable[[], str | None] = lambda: None
    repeats: int = 5
    group: str = "core"

    def sizes(self, quick: bool) -> int:
        """Hands (or calls) per timed run: ``quick`` or the full size."""
        return self.quick if quick else self.size


# ------------------------------------------------------------------------------ setups and runs

def _setup_hands(tiles: int = 14) -> Setup:
    return lambda n, seed: (_random(n, seed, tiles),)


def _setup_ready(n: int, seed: int) -> tuple[Any, ...]:
    return (_ready(n, seed),)


def _setup_effective(n: int, seed: int) -> tuple[Any, ...]:
    return _cached(("effective", n, seed),
                   lambda: tuple(deal_split(n, (13, 20), seed=seed + 1)))


def _setup_single(n: int, seed: int) -> tuple[Any, ...]:
    hands = _random(n, seed)
    return ([hands[i].copy() for i in range(n)],)


def _run_single(rows: list[np.ndarray]) -> None:
    f = mjfast.shanten
    for h in rows:
        f(h)


def _setup_workers(n: int, seed: int) -> tuple[Any, ...]:
    return (_random(n, seed + 2),)


def _setup_score(n: int, seed: int) -> tuple[Any, ...]:
    hands, tile = _complete(n, seed)
    return ([(hands[i], int(tile[i])) for i in range(n)],)


def _run_score(items: list[tuple[Any, int]]) -> None:
    score = mjfast.score
    for hand, win in items:
        score(hand, win_tile=win)


def _setup_score_str(n: int, seed: int) -> tuple[Any, ...]:
    hands, tile = _complete(n, seed)
    return ([(mjfast.format_hand(hands[i]), mjfast.format_tile(int(tile[i]))) for i in range(n)],)


def _setup_max_fan(n: int, seed: int) -> tuple[Any, ...]:
    hands = _ready(n, seed)
    return ([hands[i] for i in range(n)],)


def _setup_max_fan_str(n: int, seed: int) -> tuple[Any, ...]:
    hands = _ready(n, seed)
    return ([mjfast.format_hand(hands[i]) for i in range(n)],)


def _run_max_fan(rows: list[np.ndarray]) -> None:
    max_fan = mjfast.max_fan
    for h in rows:
        max_fan(h)


def _setup_stats(n: int, seed: int) -> tuple[Any, ...]:
    return n, seed


def _run_exact(n: int, _seed: int) -> None:
    for _ in range(n):
        exact(14)


def _peer_setup(name: str) -> Setup:
    def setup(n: int, seed: int) -> tuple[Any, ...]:
        hands = _random(n, seed)
        # check on this sample and on two-suit hands before timing
        verify_peer(name, hands[: min(n, 20000)])
        verify_peer(name, two_suit_hands(min(n, 2000), seed=seed + 3))
        return peer_call(name), PEERS[name].prepare(hands)
    return setup


def _peer_run(call: Callable[[Any], int], inputs: list[Any]) -> None:
    for h in inputs:
        call(h)


def _peer_available(name: str) -> Callable[[], str | None]:
    return lambda: peer_available(name)


def _setup_nyanten(n: int, seed: int) -> tuple[Any, ...]:
    hands = _random(n, seed)
    verify_nyanten(hands[: min(n, 200_000)])
    verify_nyanten(two_suit_hands(min(n, 2000), seed=seed + 3))
    return hands, np.empty(n, np.int8)


# The streaming cases: 10^7 distinct rows (270 MB of 14-tile hands), far beyond every cache, so
# each call reads every row once from memory, as a user streaming hands does; the cases above
# reuse a batch of at most 10^6 hands that stays in the last-level cache ("hot"). The results go
# to out= arrays allocated at setup (the kernel's rate, not the first touch of fresh pages).

_STREAM = 10_000_000


def _stream_hands(n: int, seed: int) -> tuple[Any, ...]:
    return _random(n, seed + 10), np.empty(n, np.int8)


def _stream_ready(n: int, seed: int) -> tuple[Any, ...]:
    return _ready(n, seed + 10), np.empty(n, np.uint32)


def _stream_dealt13(n: int, seed: int) -> tuple[Any, ...]:
    return _setup_effective(n, seed + 10)[0], np.empty(n, np.uint32)


def _stream_probes(n: int, seed: int) -> tuple[Any, ...]:
    return _random(n, seed + 10), np.empty((n, 27), np.int8)


def _stream_effective(n: int, seed: int) -> tuple[Any, ...]:
    hands, visible = _setup_effective(n, seed + 10)
    return hands, visible, np.empty((n, 27), np.int8)


def _stream_fan(n: int, seed: int) -> tuple[Any, ...]:
    return (*_fan_wins(n, seed + 10), np.empty(n, np.int16))


def _stream_max_fan(n: int, seed: int) -> tuple[Any, ...]:
    return _fan_ready(n, seed + 10), np.empty(n, np.int16)


def _stream_nyanten(n: int, seed: int) -> tuple[Any, ...]:
    hands, out = _stream_hands(n, seed)
    verify_nyanten(hands[:200_000])
    return hands, out


# The batch fan cases (benchmarks/bench_fan.py): winning hands with 15% seven pairs, a random
# held kind as the win tile, ready hands made from them by taking a random held kind out.

def _held_kinds(hands: np.ndarray, seed: int) -> np.ndarray:
    """A random held kind per row, as int8."""
    rng = np.random.default_rng(seed)
    return np.argmax(rng.random(hands.shape) * (hands > 0), axis=1).astype(np.int8)


def _fan_wins(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    def make() -> tuple[np.ndarray, np.ndarray]:
        hands = complete_hands(n, seed=seed + 4, seven_pairs=0.15)
        return hands, _held_kinds(hands, seed + 5)
    return _cached(("fan_wins", n, seed), make)


def _fan_ready(n: int, seed: int) -> np.ndarray:
    def make() -> np.ndarray:
        hands = _fan_wins(n, seed)[0].copy()
        hands[np.arange(n), _held_kinds(hands, seed + 6)] -= 1
        return hands
    return _cached(("fan_ready", n, seed), make)


def _setup_fan(n: int, seed: int) -> tuple[Any, ...]:
    return (*_fan_wins(n, seed), np.empty(n, np.int16))


def _setup_fan_flags(n: int, seed: int) -> tuple[Any, ...]:
    rng = np.random.default_rng(seed + 7)
    voids = rng.integers(-1, 3, n).astype(np.int8)
    drawn = rng.random(n) < 0.5
    return (*_fan_wins(n, seed), voids, drawn, mjfast.Rules(zhong_zhang=1, qia_xin_wu=1, cap=None))


def _run_fan_flags(hands: np.ndarray, tiles: np.ndarray, voids: np.ndarray, drawn: np.ndarray,
                   rules: mjfast.Rules) -> int | np.ndarray:
    return mjfast.fan(hands, tiles, void_suit=voids, self_drawn=drawn, rules=rules)


def _setup_max_fan_out(n: int, seed: int) -> tuple[Any, ...]:
    return _fan_ready(n, seed), np.empty(n, np.int16)


def _setup_best_tile(n: int, seed: int) -> tuple[Any, ...]:
    return _fan_ready(n, seed), mjfast.Rules(si_jiao=True)


def _setup_score_lists(n: int, seed: int) -> tuple[Any, ...]:
    hands, tiles = _fan_wins(n, seed)
    return ([(h.tolist(), int(t)) for h, t in zip(hands, tiles)],)


# ------------------------------------------------------------------------------------- the cases

_M = 1_000_000

CASES: tuple[Case, ...] = (
    Case("shanten", "shanten, Sichuan rules (all forms, void rule), 14 tiles, 1 worker",
         _setup_hands(), lambda h: mjfast.shanten(h), _M, 100_000),
    Case("shanten_regular", "shanten form='regular', void_rule=False (the peers' quantity)",
         _setup_hands(), lambda h: mjfast.shanten(h, form="regular", void_rule=False), _M, 100_000),
    Case("is_win", "is_win, random 14-tile hands", _setup_hands(), lambda h: mjfast.is_win(h),
         _M, 100_000),
    Case("waits", "waits, ready 13-tile hands", _setup_ready, lambda h: mjfast.waits(h),
         _M, 100_000),
    Case("effective_tiles", "effective_tiles with visible, 13-tile hands", _setup_effective,
         lambda h, v: mjfast.effective_tiles(h, visible=v), 200_000, 20_000),
    Case("discards", "discards, 14-tile hands", _setup_hands(), lambda h: mjfast.discards(h),
         200_000, 20_000),
    Case("shanten_4m_w1", "shanten, big batch (4M hands), workers=1", _setup_workers,
         lambda h: mjfast.shanten(h, workers=1), 4 * _M, 1_000_000, repeats=3, group="threads"),
    Case("shanten_4m_w2", "shanten, big batch (4M hands), workers=2", _setup_workers,
         lambda h: mjfast.shanten(h, workers=2), 4 * _M, 1_000_000, repeats=3,
         compare="shanten_4m_w1", group="threads"),
    Case("shanten_single", "shanten of one (27,) uint8 array per call", _setup_single,
         _run_single, 20_000, 2_000, unit="calls/s", group="single"),
    Case("fan_batch", "mjfast.fan of a batch, complete 14-tile hands (per-row win tile)",
         _complete, lambda h, w: mjfast.fan(h, w), 1_000_000, 100_000, group="scoring"),
    Case("max_fan_batch", "mjfast.max_fan (大叫) of a batch, ready 13-tile hands",
         _setup_ready, lambda h: mjfast.max_fan(h), 200_000, 20_000, group="scoring"),
    Case("max_fan", "scoring.max_fan (大叫) per ready 13-tile hand", _setup_max_fan,
         _run_max_fan, 20_000, 2_000, unit="calls/s", repeats=3, group="scoring"),
    Case("max_fan_str", "scoring.max_fan per ready hand given as a tile string",
         _setup_max_fan_str, _run_max_fan, 20_000, 2_000, unit="calls/s", repeats=3,
         group="scoring"),
    Case("score", "scoring.score per complete 14-tile hand", _setup_score, _run_score,
         20_000, 2_000, unit="calls/s", repeats=3, group="scoring"),
    Case("score_str", "scoring.score per complete hand and win tile given as tile strings",
         _setup_score_str, _run_score, 20_000, 2_000, unit="calls/s", repeats=3,
         group="scoring"),
    Case("fan_w1", "fan, winning hands (15% seven pairs), held win tile, out=, workers=1",
         _setup_fan, lambda h, t, o: mjfast.fan(h, t, out=o, workers=1), 200_000, 20_000,
         group="fan"),
    Case("fan_w2", "fan, winning hands (15% seven pairs), held win tile, out=, workers=2",
         _setup_fan, lambda h, t, o: mjfast.fan(h, t, out=o, workers=2), 200_000, 20_000,
         compare="fan_w1", group="fan"),
    Case("fan_flags_voids", "fan with per-row void suits and self-drawn flags, custom Rules",
         _setup_fan_flags, _run_fan_flags, 200_000, 20_000, group="fan"),
    Case("max_fan_w1", "max_fan (大叫), ready hands (a held kind off each win), out=, workers=1",
         _setup_max_fan_out, lambda h, o: mjfast.max_fan(h, out=o, workers=1), 200_000, 20_000,
         group="fan"),
    Case("max_fan_w2", "max_fan (大叫), ready hands (a held kind off each win), out=, workers=2",
         _setup_max_fan_out, lambda h, o: mjfast.max_fan(h, out=o, workers=2), 200_000, 20_000,
         compare="max_fan_w1", group="fan"),
    Case("max_fan_best_tile", "max_fan best_wait=True, Rules(si_jiao=True), ready hands",
         _setup_best_tile, lambda h, r: mjfast.max_fan(h, best_wait=True, rules=r), 200_000,
         20_000, group="fan"),
    Case("score_lists", "score per winning hand given as a list (the scalar baseline of fan)",
         _setup_score_lists, _run_score, 2_000, 300, unit="calls/s", repeats=3, group="fan"),
    Case("stats_w1", "the main job, mjfast stats: deal 14-tile hands, tally every row, workers=1",
         _setup_stats, lambda n, seed: run_stats(n, 14, seed=seed, workers=1), 2 * _M, 200_000,
         repeats=3, group="stats"),
    Case("stats_w2", "the main job, mjfast stats: deal 14-tile hands, tally every row, workers=2",
         _setup_stats, lambda n, seed: run_stats(n, 14, seed=seed, workers=2), 4 * _M, 400_000,
         repeats=3, compare="stats_w1", group="stats"),
    Case("stats_exact", "stats.exact(14): the exact shanten table of all C(108, 14) deals",
         _setup_stats, _run_exact, 5, 1, unit="calls/s", repeats=3, group="stats"),
    Case("peer_nyanten", "nyanten (C++), regular form, no void rule: one batch call (ctypes)",
         _setup_nyanten, nyanten_shanten, _M, 100_000, peer="nyanten",
         compare="shanten_regular", available=nyanten_available, group="peers"),
    Case("shanten_stream", "shanten, Sichuan rules, 10^7 distinct 14-tile hands read once",
         _stream_hands, lambda h, o: mjfast.shanten(h, out=o), _STREAM, _M, repeats=3,
         group="stream"),
    Case("shanten_regular_stream", "shanten form='regular', void_rule=False, streamed",
         _stream_hands, lambda h, o: mjfast.shanten(h, form="regular", void_rule=False, out=o),
         _STREAM, _M, repeats=3, group="stream"),
    Case("peer_nyanten_stream", "nyanten (C++), regular form, the same streamed hands",
         _stream_nyanten, nyanten_shanten, _STREAM, _M, repeats=3, peer="nyanten",
         compare="shanten_regular_stream", available=nyanten_available, group="stream"),
    Case("is_win_stream", "is_win, streamed 14-tile hands", _stream_hands,
         lambda h, o: mjfast.is_win(h, out=o.view(np.bool_)), _STREAM, _M, repeats=3,
         group="stream"),
    Case("waits_stream", "waits, 10^7 distinct ready 13-tile hands read once", _stream_ready,
         lambda h, o: mjfast.waits(h, out=o), _STREAM, _M, repeats=3, group="stream"),
    Case("waits_dealt_stream", "waits, the streamed dealt 13-tile hands of effective_tiles_stream "
         "(most hold three suits: not ready, no table read)", _stream_dealt13,
         lambda h, o: mjfast.waits(h, out=o), _STREAM, _M, repeats=3, group="stream"),
    Case("effective_tiles_stream", "effective_tiles with visible, streamed 13-tile hands",
         _stream_effective, lambda h, v, o: mjfast.effective_tiles(h, visible=v, out=o),
         _STREAM, _M, repeats=3, group="stream"),
    Case("discards_stream", "discards, streamed 14-tile hands", _stream_probes,
         lambda h, o: mjfast.discards(h, out=o), _STREAM, _M, repeats=3, group="stream"),
    # out= with errors="raise" writes through a temporary, so that a refused batch leaves out
    # as it was; errors="coerce" writes out in place: these say what the copy costs
    Case("waits_inplace_stream", "waits_stream with errors=\"coerce\" (out= written in place)",
         _stream_ready, lambda h, o: mjfast.waits(h, out=o, errors="coerce"), _STREAM, _M,
         repeats=3, group="stream"),
    Case("effective_tiles_inplace_stream", "effective_tiles_stream with errors=\"coerce\"",
         _stream_effective,
         lambda h, v, o: mjfast.effective_tiles(h, visible=v, out=o, errors="coerce"),
         _STREAM, _M, repeats=3, group="stream"),
    Case("discards_inplace_stream", "discards_stream with errors=\"coerce\"", _stream_probes,
         lambda h, o: mjfast.discards(h, out=o, errors="coerce"), _STREAM, _M, repeats=3,
         group="stream"),
    Case("fan_stream", "fan, 10^7 distinct winning hands (15% seven pairs) read once, held win "
         "tile, out=", _stream_fan, lambda h, t, o: mjfast.fan(h, t, out=o), _STREAM, _M,
         repeats=3, group="stream"),
    Case("max_fan_stream", "max_fan (大叫), 10^7 distinct ready hands read once, out=",
         _stream_max_fan, lambda h, o: mjfast.max_fan(h, out=o), _STREAM, _M, repeats=3,
         group="stream"),
    Case("peer_riichienv", "riichienv.calculate_shanten, one call per hand",
         _peer_setup("riichienv"), _peer_run, 200_000, 20_000, peer="riichienv",
         compare="shanten_regular", available=_peer_available("riichienv"), repeats=3,
         group="peers"),
    Case("peer_xiangting", "xiangting.calculate_replacement_number, one call per hand",
         _peer_setup("xiangting"), _peer_run, 100_000, 10_000, peer="xiangting",
         compare="shanten_regular", available=_peer_available("xiangting"), repeats=3,
         group="peers"),
    Case("peer_mahjong", "mahjong Shanten.calculate_shanten_for_regular_hand (pure Python)",
         _peer_setup("mahjong"), _peer_run, 2_000, 300, peer="mahjong",
         compare="shanten_regular", available=_peer_available("mahjong"), repeats=3,
         group="peers"),
)
"""Every benchmark case, in report order (peers last)."""


def find_case(name: str) -> Case:
    """The case called ``name``."""
    for case in CASES:
        if case.name == name:
            return case
    raise KeyError(f"no benchmark case {name!r}; cases: {', '.join(c.name for c in CASES)}")
