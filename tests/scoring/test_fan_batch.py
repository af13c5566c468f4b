"""Batch fan kernels (mjfast.fan_batch) against the single-hand scorer and the reference.

Differential, through the harness of twins.py: ``fan`` == ``scoring.score(...).fan`` (-1 when
not a win) and ``max_fan`` == ``scoring.max_fan(...).fan`` / ``.best_wait`` row by row, on
random winning hands, near misses, ready hands and random 13-tile hands, with melds (all
kinds), declared voids, situational flags, visible counts, both presets and random option
overrides; the reference twin (mjfast._ref.scoring) on a smaller sample. Plus: the suit
table against its Python twin (tools/fangen.py) and scoring.suit_features, known answers,
batch == per row, workers invariance, and bad input.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mjfast import scoring
from mjfast._core import _fan
from mjfast.datagen import complete_hands
from mjfast.errors import InvalidHandError
from mjfast.rules import BASE_PATTERNS, PRESETS, Rules
from mjfast.scoring.batch import INVALID_FAN, compile_rules, fan, max_fan
from mjfast.tiles import Meld, MeldKind, parse_hand
from tests.twins import TWINS, agree, check

ROOT = Path(__file__).resolve().parents[2]


def _tool(name: str) -> ModuleType:
    """A dev-time generator of tools/ (not part of the package), imported by path."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fangen = _tool("fangen")


QQ = Rules.preset("qq")
FLAGS = ("self_drawn", "after_kong", "after_kong_discard", "robbing_kong", "last_tile",
         "tian_hu", "di_hu")

# ------------------------------------------------------------------------- generators


def random_rules(rng: random.Random) -> Rules:
    """A preset with random overrides (each option drawn with probability 0.4)."""
    ov: dict = {}

    def maybe(name, value):
        if rng.random() < 0.4:
            ov[name] = value

    for name in ("root_fan", "gang_shang_hua", "gang_shang_pao", "qiang_gang_hu", "hai_di",
                 "men_qing", "zhong_zhang", "qia_xin_wu", "zi_mei_dui", "yi_tiao_long",
                 "fan_display_offset"):
        maybe(name, rng.randint(0, 2))
    maybe("long_qi_dui_uses_root", rng.random() < 0.5)
    maybe("self_draw", rng.choice(["add_base", "add_fan", "none"]))
    maybe("jin_gou_diao", rng.random() < 0.5)
    maybe("cap", rng.choice([None, 0, 1, 2, 3, 4, 5, 6]))
    maybe("cha_da_jiao", rng.choice(["max", "min"]))
    maybe("si_jiao", rng.random() < 0.5)
    if rng.random() < 0.3:
        ov["base_fan"] = {rng.choice(BASE_PATTERNS): rng.randint(0, 6)
                          for _ in range(rng.randint(1, 3))}
    return Rules.preset(rng.choice(PRESETS), **ov)


STYLES = ("any",) * 6 + ("yao_jiu", "258", "triplets", "dragon")


def random_win(rng: random.Random, max_suits: int = 2) -> tuple[list[int], tuple[Meld, ...]]:
    """(concealed counts, melds) of a complete hand: random sets + pair, or seven pairs.

    A share of hands is drawn in a style that reaches the rarer patterns: sets and pair with a
    1 or a 9 (带幺九), triplets of 2/5/8 only (将对), triplets only (对对胡), 123+456+789."""
    suits = rng.sample(range(3), rng.randint(1, max_suits))
    kinds = [s * 9 + r for s in suits for r in range(9)]
    total = [0] * 27
    c = [0] * 27
    if rng.random() < 0.2:
        for _ in range(7):
            k = rng.choice([k for k in kinds if total[k] <= 2])
            total[k] += 2
            c[k] += 2
        return c, ()
    style = rng.choice(STYLES)
    ranks = {"yao_jiu": (0, 8), "258": (1, 4, 7)}.get(style, range(9))
    seq_starts = {"yao_jiu": (0, 6), "258": (), "triplets": ()}.get(style, range(7))
    melds = []
    sets = 4
    if style == "dragon":
        s = rng.choice(suits)
        for k in range(9 * s, 9 * s + 9):
            total[k] += 1
            c[k] += 1
        sets = 1
    for _ in range(rng.choice((0, 0, 0, 1, 2, 3, 4)) if sets == 4 else 0):
        kind = rng.choice(list(MeldKind))
        opts = [k for k in kinds if total[k] == 0 and k % 9 in ranks]
        if not opts:
            break
        k = rng.choice(opts)
        total[k] = kind.size
        melds.append(Meld(kind, k))
    for _ in range(sets - len(melds)):
        if rng.random() < 0.6:
            opts = [k for k in kinds if k % 9 in seq_starts
                    and all(total[k + i] < 4 for i in range(3))]
            if opts:
                k = rng.choice(opts)
                for i in range(3):
                    total[k + i] += 1
                    c[k + i] += 1
                continue
        opts = [k for k in kinds if total[k] <= 1 and k % 9 in ranks] or \
            [k for k in kinds if total[k] <= 1]
        k = rng.choice(opts)
        total[k] += 3
        c[k] += 3
    opts = [k for k in kinds if total[k] <= 2 and k % 9 in ranks] or \
        [k for k in kinds if total[k] <= 2]
    k = rng.choice(opts)
    total[k] += 2
    c[k] += 2
    return c, tuple(melds)


def held(c: list[int], melds: tuple[Meld, ...], t: int) -> int:
    return c[t] + sum(m.size for m in melds if m.tile == t)


def near_miss(rng: random.Random, c: list[int], melds: tuple[Meld, ...]) -> list[int]:
    """Move one concealed tile to another kind (stays within the 4-copy limit)."""
    c = list(c)
    src = rng.choice([k for k in range(27) if c[k]])
    c[src] -= 1
    dst = rng.choice([k for k in range(27) if held(c, melds, k) < 4])
    c[dst] += 1
    return c


def random_flags(rng: random.Random, c: list[int], melds: tuple[Meld, ...], w: int) -> dict:
    """Consistent situational flags for a win on *w*."""
    modes = ["discard", "self", "after_kong_discard"]
    if any(m.is_kong for m in melds):
        modes.append("after_kong")
    if c[w] == 1 and all(m.tile != w for m in melds):
        modes.append("robbing_kong")
    if not melds:
        modes += ["tian_hu", "di_hu"]
    mode = rng.choice(modes)
    flags = {name: mode == name for name in
             ("after_kong", "after_kong_discard", "robbing_kong", "tian_hu", "di_hu")}
    flags["self_drawn"] = mode == "self" or (mode == "after_kong" and rng.random() < 0.5)
    flags["last_tile"] = mode not in ("tian_hu", "di_hu") and rng.random() < 0.5
    return flags


def meld_arrays(rows_melds: list[tuple[Meld, ...]]) -> tuple[np.ndarray, np.ndarray]:
    """Per-row meld counts and concealed-kong marks, (N, 27) each."""
    counts = np.zeros((len(rows_melds), 27), np.uint8)
    marks = np.zeros((len(rows_melds), 27), bool)
    for i, melds in enumerate(rows_melds):
        for m in melds:
            counts[i, m.tile] = m.size
            marks[i, m.tile] = m.kind is MeldKind.KONG_CONCEALED
    return counts, marks


def win_batch(rng: random.Random, n: int):
    """Rows for fan(): (hands, win tiles, melds per row, voids, flags dict of arrays)."""
    hands, wins, melds, voids = [], [], [], []
    flags = {name: [] for name in FLAGS}
    for _ in range(n):
        c, ms = random_win(rng, max_suits=rng.choice((1, 2, 2, 3)))
        if rng.random() < 0.25:
            c = near_miss(rng, c, ms)
        w = rng.choice([k for k in range(27) if c[k]])
        f = random_flags(rng, c, ms, w)
        hands.append(c)
        wins.append(w)
        melds.append(ms)
        voids.append(rng.choice((-1, -1, -1, 0, 1, 2)))
        for name in FLAGS:
            flags[name].append(f[name])
    return (np.array(hands, np.uint8), np.array(wins, np.int64), melds,
            np.array(voids, np.int64), {k: np.array(v, bool) for k, v in flags.items()})


def ready_batch(rng: random.Random, n: int):
    """Rows for max_fan(): (hands, melds per row, voids, visible)."""
    hands, melds, voids, visible = [], [], [], []
    for _ in range(n):
        c, ms = random_win(rng, max_suits=rng.choice((1, 2, 2, 3)))
        c = list(c)
        if rng.random() < 0.15:
            c = near_miss(rng, c, ms)
        c[rng.choice([k for k in range(27) if c[k]])] -= 1
        vis = [0] * 27
        for t in range(27):
            room = 4 - held(c, ms, t)
            if room > 0 and rng.random() < 0.3:
                vis[t] = rng.randint(0, room)
        hands.append(c)
        melds.append(ms)
        voids.append(rng.choice((-1, -1, -1, 0, 1, 2)))
        visible.append(vis)
    return (np.array(hands, np.uint8), melds, np.array(voids, np.int64),
            np.array(visible, np.uint8))


def np_pick_held(hands: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random held kind per row."""
    return np.argmax(rng.random(hands.shape) * (hands > 0), axis=1)


# ------------------------------------------------------------------------- expectations
# The batch kernels against the single-hand scorer (``oracle="fast"``) or the reference
# (``oracle="ref"``), row by row: the twins "fan rows[/fast]" and "max_fan rows[/fast]".


def _twin(name: str, oracle: str):
    return TWINS[name if oracle == "ref" else f"{name}/fast"]


def check_fan_batch(rng: random.Random, n: int, rules: Rules, oracle: str = "fast") -> None:
    hands, wins, melds, voids, flags = win_batch(rng, n)
    counts, marks = meld_arrays(melds)
    check(_twin("fan rows", oracle), hands, wins, melds=counts, concealed_kongs=marks,
          void_suit=voids, rules=rules, **flags)


def check_max_batch(rng: random.Random, n: int, rules: Rules, oracle: str = "fast") -> None:
    hands, melds, voids, visible = ready_batch(rng, n)
    counts, marks = meld_arrays(melds)
    check(_twin("max_fan rows", oracle), hands, melds=counts, concealed_kongs=marks,
          void_suit=voids, visible=visible, rules=rules, best_wait=True)


# ------------------------------------------------------------------------- the suit table


def test_suit_table_matches_python_twin():
    keys, codes = _fan.suit_table()
    want_keys, want_codes = fangen.build()
    assert _fan.COMPLETE_PATTERNS == len(keys) == 21743
    assert np.array_equal(keys, want_keys)
    assert np.array_equal(codes, want_codes)


def test_suit_table_matches_suit_features_sample():
    rng = np.random.default_rng(7)
    pow5 = 5 ** np.arange(8, -1, -1)
    keys, codes = _fan.suit_table()
    table = dict(zip(keys.tolist(), codes.tolist()))
    # every complete pattern, and random patterns of at most 14 tiles
    samples = [np.array(np.unravel_index(k, (5,) * 9)) for k in keys[::7].tolist()]
    while len(samples) < 6000:
        c = rng.integers(0, 5, 9)
        if c.sum() <= 14:
            samples.append(c)
    for c in samples:
        idx = int(c @ pow5)
        f = scoring.suit_features(tuple(int(x) for x in c))
        code = _fan.lookup(idx)
        if not f.readings:
            assert code == -1 and idx not in table
            continue
        masks = {bits for _, _, bits in f.readings}
        top = sorted(m for m in masks if not any(o != m and o | m == o for o in masks))
        assert sorted({code & 31, code >> 5}) == top, c


# ------------------------------------------------------------------------- known answers

KNOWN = [  # RULES.md / the issue: chengdu fan before the cap
    ("123333m45566799s", 1), ("11223345678999m", 2), ("22244455577799m", 3),
    ("222555888m55588p", 3), ("11334466m557799p", 2), ("11334466778899m", 4),
    ("11222244m557788p", 4), ("11224444557799m", 5), ("111222333m78999p", 2),
    ("11123777888999m", 4),
]


def test_known_answers():
    hands = np.stack([parse_hand(h) for h, _ in KNOWN])
    wins = np.array([int(h.nonzero()[0][-1]) for h in hands])
    uncapped = fan(hands, wins, rules=Rules(cap=None))
    assert uncapped.tolist() == [v for _, v in KNOWN]
    assert fan(hands, wins).tolist() == [min(v, 3) for _, v in KNOWN]
    assert fan(hands, wins, rules=Rules.preset("qq")).tolist() == [v + 1 for _, v in KNOWN]
    for (h, v), w in zip(KNOWN, wins):
        assert fan(h, int(w), rules=Rules(cap=None)) == v


def test_known_max_fan():
    assert max_fan("2224445557779m", best_wait=True) == (3, 8)
    assert max_fan("1112345678999m", best_wait=True) == (3, 0)
    assert max_fan("2224445557779m", rules=Rules(cha_da_jiao="min"), best_wait=True) == (2, 7)
    assert max_fan("1234567m159p123s") == -1
    # 死叫: the only wait's copies are all visible
    vis = np.zeros(27, np.uint8)
    vis[12] = 2
    hand = "123m456m789m111p4p"
    assert max_fan(hand, visible=vis) == 0
    vis[12] = 3
    assert max_fan(hand, visible=vis) == 0
    assert max_fan(hand, visible=vis, rules=Rules(si_jiao=True)) == -1


# ------------------------------------------------------------------------- differential


@pytest.mark.parametrize("seed", range(24))
def test_fan_matches_score(seed):
    rng = random.Random(seed)
    rules = Rules.preset(PRESETS[seed % 2]) if seed < 4 else random_rules(rng)
    check_fan_batch(rng, 2000, rules)


@pytest.mark.parametrize("seed", range(24))
def test_max_fan_matches_single(seed):
    rng = random.Random(1000 + seed)
    rules = Rules.preset(PRESETS[seed % 2]) if seed < 4 else random_rules(rng)
    check_max_batch(rng, 600, rules)


@pytest.mark.parametrize("overrides", [
    {"zi_mei_dui": 1, "yi_tiao_long": 1, "qia_xin_wu": 1},
    {"men_qing": 1, "zhong_zhang": 1, "jin_gou_diao": True},
    {"hai_di": 1, "self_draw": "add_fan", "cap": None},
    {"si_jiao": True, "cha_da_jiao": "min"},
])
def test_named_options(overrides):
    rng = random.Random(hash(tuple(overrides)) & 0xFFFF)
    for preset in PRESETS:
        rules = Rules.preset(preset, **overrides)
        check_fan_batch(rng, 1500, rules)
        check_max_batch(rng, 500, rules)


def test_random_13_tile_hands():
    """Mostly not ready: -1 and -1 rows."""
    rng = np.random.default_rng(3)
    wall = np.repeat(np.arange(27), 4)
    hands = np.zeros((800, 27), np.uint8)
    for i in range(800):
        np.add.at(hands[i], rng.choice(wall, 13, replace=False), 1)
    for rules in (Rules(), Rules.preset("qq", si_jiao=True)):
        check(TWINS["max_fan rows/fast"], hands, rules=rules, best_wait=True)


def test_against_reference():
    rng = random.Random(99)
    for _ in range(6):
        rules = random_rules(rng)
        check_fan_batch(rng, 300, rules, oracle="ref")
        check_max_batch(rng, 100, rules, oracle="ref")


@settings(max_examples=100)
@given(st.integers(0, 2**32 - 1))
def test_hypothesis_seeds(seed):
    rng = random.Random(seed)
    rules = random_rules(rng)
    check_fan_batch(rng, 40, rules)
    check_max_batch(rng, 20, rules)


def test_meld_strings_shared_by_rows():
    """Meld strings apply to every row; their kinds decide 门清 (no concealed_kongs needed)."""
    rules = Rules(men_qing=1, cap=None)
    melds = ["kong_concealed:9m", "kong_concealed:1p"]
    hands = np.stack([parse_hand("123m 456m 77m"), parse_hand("234m 345m 77m")])
    want = check(TWINS["fan rows/fast"], hands, 6, melds=melds, rules=rules)
    counts, marks = meld_arrays([tuple(Meld.parse(m) for m in melds)])
    assert fan(hands, 6, melds=counts[0], concealed_kongs=marks[0], rules=rules).tolist() == want
    exposed = fan(hands, 6, melds=counts[0], rules=rules)   # unmarked kongs count as exposed
    assert (exposed == np.array(want) - 1).all()


# ------------------------------------------------------------------------- batch properties


def test_batch_equals_per_row():
    rng = random.Random(5)
    hands, wins, melds, voids, flags = win_batch(rng, 200)
    counts, marks = meld_arrays(melds)
    rules = Rules(qia_xin_wu=1, cap=None)
    got = fan(hands, wins, melds=counts, concealed_kongs=marks, void_suit=voids, rules=rules,
              **flags)
    for i in range(len(hands)):
        one = fan(hands[i], int(wins[i]), melds=counts[i], concealed_kongs=marks[i],
                  void_suit=int(voids[i]), rules=rules,
                  **{k: bool(v[i]) for k, v in flags.items()})
        assert isinstance(one, int) and one == got[i]
    rh, rmelds, rvoids, vis = ready_batch(rng, 200)
    rc, rm = meld_arrays(rmelds)
    f, best = max_fan(rh, melds=rc, concealed_kongs=rm, void_suit=rvoids, visible=vis,
                      best_wait=True)
    for i in range(len(rh)):
        assert max_fan(rh[i], melds=rc[i], concealed_kongs=rm[i], void_suit=int(rvoids[i]),
                       visible=vis[i], best_wait=True) == (f[i], best[i])
        assert max_fan(rh[i], melds=rc[i], concealed_kongs=rm[i], void_suit=int(rvoids[i]),
                       visible=vis[i]) == f[i]


def test_workers_invariance():
    rng = np.random.default_rng(11)
    n = 150_000  # more than two chunks
    hands = complete_hands(n, seed=rng, seven_pairs=0.15)
    wins = np_pick_held(hands, rng)
    voids = rng.integers(-1, 3, n)
    sd = rng.random(n) < 0.5
    rules = Rules(cap=None, zhong_zhang=1)
    a = fan(hands, wins, void_suit=voids, self_drawn=sd, rules=rules)
    for workers in (2, 3):
        assert np.array_equal(a, fan(hands, wins, void_suit=voids, self_drawn=sd, rules=rules,
                                     workers=workers))
    ready = hands.copy()
    ready[np.arange(n), np_pick_held(hands, rng)] -= 1
    f1, b1 = max_fan(ready, void_suit=voids, rules=rules, best_wait=True)
    f2, b2 = max_fan(ready, void_suit=voids, rules=rules, best_wait=True, workers=2)
    assert np.array_equal(f1, f2) and np.array_equal(b1, b2)
    # spot-check the big batch against the single-hand scorer
    sub = rng.choice(n, 300, replace=False)
    agree(TWINS["fan rows/fast"], a[sub], hands[sub], wins[sub], void_suit=voids[sub],
          self_drawn=sd[sub], rules=rules)
    agree(TWINS["max_fan rows/fast"], (f1[sub], b1[sub]), ready[sub], void_suit=voids[sub],
          rules=rules, best_wait=True)


def test_out_argument():
    hands = np.stack([parse_hand("22244455577799m")] * 3)
    out = np.full(3, 7, np.int16)
    assert fan(hands, 8, out=out) is out and out.tolist() == [3, 3, 3]
    ready = np.stack([parse_hand("2224445557779m")] * 2)
    out2 = np.empty(2, np.int16)
    assert max_fan(ready, out=out2) is out2 and out2.tolist() == [3, 3]
    f, best = max_fan(ready, out=out2, best_wait=True)
    assert f is out2 and best.tolist() == [8, 8]
    with pytest.raises(TypeError, match="dtype int16"):
        fan(hands, 8, out=np.empty(3, np.int8))
    with pytest.raises(ValueError, match="shape"):
        fan(hands, 8, out=np.empty(4, np.int16))


def test_empty_batch():
    empty = np.zeros((0, 27), np.uint8)
    assert fan(empty, 0).shape == (0,)
    f, best = max_fan(empty, best_wait=True)
    assert f.shape == best.shape == (0,)


def test_scoring_dispatch():
    ready = np.stack([parse_hand("2224445557779m"), parse_hand("1234567m159p123s")])
    assert scoring.max_fan(ready).tolist() == [3, -1]
    f, best = scoring.max_fan(ready, best_wait=True)
    assert best.tolist() == [8, -1]
    single = scoring.max_fan("2224445557779m")
    assert single.fan == 3 and single.best_wait == 8 and len(single.waits) == 2
    with pytest.raises(ValueError, match="only batch"):
        scoring.max_fan("2224445557779m", best_wait=True)
    assert scoring.fan is fan


def test_compiled_rules_cached():
    r = Rules.preset("qq", men_qing=1)
    t = compile_rules(r)
    assert t is compile_rules(r) and t.dtype == np.int32 and t.shape == (_fan.RULES_SIZE,)
    assert not t.flags.writeable
    with pytest.raises(ValueError, match="int16"):
        compile_rules(Rules(root_fan=20000))
    assert fan("22244455577799m", 8, rules="qq") == fan("22244455577799m", 8, rules=QQ) == 4
    assert compile_rules("qq") is compile_rules(Rules.preset("qq"))
    with pytest.raises(TypeError, match="Rules"):
        fan("22244455577799m", 8, rules={})


# ------------------------------------------------------------------------- bad input


def test_bad_rows_are_named():
    good = parse_hand("22244455577799m")
    hands = np.stack([good, good, good])
    bad = hands.copy()
    bad[1, 0] = 5
    with pytest.raises(InvalidHandError, match=r"hands\[1\]: tile 1m appears 5 times"):
        fan(bad, 8)
    short = hands.copy()
    short[2, 8] = 1
    with pytest.raises(InvalidHandError, match=r"hands\[2\]: 13 concealed tiles .* expected 14"):
        fan(short, 8)
    with pytest.raises(InvalidHandError, match=r"hands\[0\]: 14 concealed .* expected 13"):
        max_fan(hands)
    with pytest.raises(InvalidHandError, match=r"win_tiles\[1\]: 1m is not in hands\[1\]"):
        fan(hands, np.array([8, 0, 8]))
    with pytest.raises(InvalidHandError, match="win_tile 1m is not in the hand"):
        fan(good, "1m")
    with pytest.raises(ValueError, match=r"win_tiles\[2\]: 27 is not a kind index"):
        fan(hands, np.array([8, 8, 27]))
    with pytest.raises(ValueError, match=r"win_tiles: expected shape \(3,\)"):
        fan(hands, np.array([8, 8]))
    with pytest.raises(TypeError, match="win_tile"):
        fan(good, 1.5)


def test_bad_flags():
    hands = np.stack([parse_hand("22244455577799m")] * 3)
    rob = np.array([False, True, False])
    with pytest.raises(ValueError, match=r"hands\[1\]: contradictory flags: self_drawn"):
        fan(hands, 1, self_drawn=True, robbing_kong=rob)
    with pytest.raises(ValueError, match=r"hands\[0\]: contradictory flags: after_kong"):
        fan(hands, 1, after_kong=True)
    with pytest.raises(ValueError, match="contradictory flags: tian_hu"):
        fan("22244455577799m", 1, tian_hu=True, di_hu=True)
    with pytest.raises(ValueError, match="contradictory flags: robbing_kong"):
        fan("22244455577799m", 1, robbing_kong=True)   # holds three 2m
    with pytest.raises(TypeError, match="bool array"):
        fan(hands, 1, self_drawn=np.array([0, 1, 0]))
    with pytest.raises(TypeError, match="self_drawn: expected a bool"):
        fan(hands, 1, self_drawn=1)
    with pytest.raises(ValueError, match=r"last_tile: expected shape \(3,\)"):
        fan(hands, 1, last_tile=np.array([True, False]))
    # the same contradictions as score() raises, with melds
    with pytest.raises(ValueError, match="after_kong") as exc:
        fan(parse_hand("123m 234m 678m 99m"), 8, melds=np.eye(27, dtype=np.uint8)[4] * 3,
            after_kong=True)
    with pytest.raises(ValueError) as exc2:
        scoring.score("123m 234m 678m 99m", win_tile=8, melds=["pung:5m"], after_kong=True)
    assert str(exc.value) == str(exc2.value)


def test_bad_melds_and_marks():
    hand = parse_hand("123m 234m 678m 99m")
    melds = np.zeros(27, np.uint8)
    melds[4] = 3
    marks = np.zeros(27, bool)
    marks[4] = True
    with pytest.raises(InvalidHandError, match="concealed_kongs: 5m is marked"):
        fan(hand, 8, melds=melds, concealed_kongs=marks)
    hands = np.stack([hand, hand])
    marks2 = np.zeros((2, 27), bool)
    marks2[1, 20] = True
    with pytest.raises(InvalidHandError, match=r"concealed_kongs\[1\]: 3s is marked .* no meld"):
        fan(hands, 8, melds=melds, concealed_kongs=marks2)
    with pytest.raises(ValueError, match="concealed_kongs: meld strings"):
        fan(hand, 8, melds=["pung:5m"], concealed_kongs=marks)
    bad = melds.copy()
    bad[4] = 2
    with pytest.raises(InvalidHandError, match="melds: tile 5m has 2 meld tiles"):
        fan(hand, 8, melds=bad)
    over = melds.copy()
    over[8] = 3
    with pytest.raises(InvalidHandError, match="9m appears 5 times counting melds"):
        fan(hand, 8, melds=over)


def test_bad_visible_and_void():
    ready = np.stack([parse_hand("2224445557779m")] * 2)
    vis = np.zeros((2, 27), np.uint8)
    vis[1, 1] = 2
    with pytest.raises(InvalidHandError, match=r"visible\[1\]: tile 2m is held and seen 5"):
        max_fan(ready, visible=vis)
    with pytest.raises(ValueError, match=r"void_suit\[0\]: 3 is not"):
        max_fan(ready, void_suit=np.array([3, 0]))
    with pytest.raises(ValueError, match="void_suit"):
        fan("22244455577799m", 8, void_suit="x")
    assert fan("22244455577799m", 8, void_suit="m") == -1
    assert fan("22244455577799m", 8, void_suit="p") == 3


def test_errors_coerce():
    good = parse_hand("22244455577799m")
    hands = np.stack([good, good, good])
    hands[1, 0] = 1   # 15 tiles
    got = fan(hands, np.array([8, 8, 0]), errors="coerce")   # row 2: 1m not in the hand
    assert got.tolist() == [3, INVALID_FAN, INVALID_FAN]
    ready = np.stack([parse_hand("2224445557779m")] * 2)
    ready[0, 2] = 5
    f, best = max_fan(ready, errors="coerce", best_wait=True)
    assert f.tolist() == [INVALID_FAN, 3] and best.tolist() == [INVALID_FAN, 8]
    got = fan(np.stack([good, good]), np.array([8, 99]), errors="coerce")
    assert got.tolist() == [3, INVALID_FAN]
    with pytest.raises(ValueError, match="errors"):
        fan(hands, 8, errors="ignore")


def test_python_lists_are_batches():
    win = parse_hand("22244455577799m").tolist()
    assert fan([win, win], [8, 1]).tolist() == [3, 3]
    ready = parse_hand("2224445557779m").tolist()
    f, best = max_fan([ready, ready], best_wait=True)
    assert f.tolist() == [3, 3] and best.tolist() == [8, 8]
    assert fan(["22244455577799m", "123333m45566799s"], ["9m", "1m"]).tolist() == [3, 1]
    with pytest.raises(ValueError, match=r"concealed_kongs: expected shape \(27,\) or \(2, 27\)"):
        fan([win, win], 8, melds=np.zeros(27, np.uint8), concealed_kongs=np.zeros((3, 27), bool))


def test_dtype_checked_before_cast():
    hands = np.stack([parse_hand("22244455577799m")]).astype(np.int64)
    assert fan(hands, 8).tolist() == [3]
    hands[0, 0] = 260
    with pytest.raises(InvalidHandError, match="appears 260 times"):
        fan(hands, 8)
    with pytest.raises(TypeError, match="integer dtype"):
        fan(hands.astype(float), 8)
