"""One source for the fan rules (mjfast.scoring): the compiled rules table, the C copies of the
reading bits and of the flag rules, the arguments of score / fan / max_fan, and Rules as plain data.

The compiled-table hashes were taken before the fan code became a package: the table the C kernels
read (``mjfast.scoring.patterns.compile_rules``) must not change.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import random
import warnings

import numpy as np
import pytest

import mjfast
from mjfast import _args
from mjfast._args import FLAG_NAMES
from mjfast._core import _fan
from mjfast.errors import InvalidArgumentError
from mjfast.rules import BASE_PATTERNS, Fan, Rules
from mjfast.scoring import R_ALL_TRIPLETS, R_DRAGON, R_SEQ_456, R_TWIN_SEQ, R_YAO_JIU, inputs
from mjfast.scoring import batch as fan_batch
from mjfast.scoring.patterns import applicable, best_pattern, compile_rules, view
from mjfast.tiles import parse_hand

WIN = "123m456m789m12355p"  # wins on 1m; holds m and p
READY = "123m456m789m1235p"  # ready on 5p only; holds m and p
QQ = Rules.preset("qq")

# ------------------------------------------------------------------------- the compiled table


def _random_rules(rng: random.Random) -> Rules:
    ov: dict = {}

    def maybe(name, value):
        if rng.random() < 0.5:
            ov[name] = value

    for name in ("root_fan", "gang_shang_hua", "gang_shang_pao", "qiang_gang_hu", "hai_di",
                 "men_qing", "zhong_zhang", "qia_xin_wu", "zi_mei_dui", "yi_tiao_long",
                 "fan_display_offset"):
        maybe(name, rng.randint(0, 3))
    maybe("long_qi_dui_uses_root", rng.random() < 0.5)
    maybe("self_draw", rng.choice(["add_base", "add_fan", "none"]))
    maybe("jin_gou_diao", rng.random() < 0.5)
    maybe("cap", rng.choice([None, 0, 1, 2, 3, 4, 5, 6, 40000]))
    maybe("cha_da_jiao", rng.choice(["max", "min"]))
    maybe("si_jiao", rng.random() < 0.5)
    if rng.random() < 0.6:
        ov["base_fan"] = {rng.choice(BASE_PATTERNS): rng.randint(0, 8)
                          for _ in range(rng.randint(1, 6))}
    return Rules.preset(rng.choice(_GOLDEN_PRESETS), **ov)


# The presets the golden digest below was taken over (later presets have their own digest).
_GOLDEN_PRESETS = ("chengdu", "qq")


def _digest(*tables: np.ndarray) -> str:
    h = hashlib.sha256()
    for t in tables:
        h.update(np.asarray(t, dtype="<i4").tobytes())
    return h.hexdigest()


# The tables before the 绝张 slot (MF_R_JUE, the last value) was added; qq then had 抢杠胡 1.
@pytest.mark.parametrize("preset, digest", [
    ("chengdu", "599f2af5df8cd28f86ffae99432a1cd4dbe141bebef9b450b2a9b8ffc0569228"),
    ("qq", "8a08064b76512d16d66a69f8da2e8ac91ac7ba7a2d90e71016e2fd914fbef7ef"),
    ("points", "b19725a112d028a68af2f453bff6bb6ba0aa0b312b784afe864453ea832794a6"),
])
def test_compiled_presets_unchanged(preset, digest):
    rules = Rules.preset(preset, **({"qiang_gang_hu": 1} if preset == "qq" else {}))
    table = compile_rules(rules)
    assert _digest(table[:-1]) == digest and table[-1] == 0
    assert compile_rules(preset) is compile_rules(Rules.preset(preset))


def test_compiled_random_rules_unchanged():
    rng = random.Random(20240808)
    rules = [Rules.preset(p) for p in _GOLDEN_PRESETS] + [_random_rules(rng) for _ in range(200)]
    got = _digest(*(compile_rules(r) for r in rules))
    assert got == "20f42ca0a071b17feecce1612608c9b1dae24b093422631ca5d9a94203a81cb8"


def test_shim_is_the_package():
    assert fan_batch.compile_rules is compile_rules
    assert fan_batch.fan is mjfast.fan is mjfast.scoring.fan
    assert mjfast.INVALID_FAN == fan_batch.INVALID_FAN == _fan.INVALID


def test_view_and_table_share_the_patterns():
    """The single-hand view and the compiled table value every context alike."""
    for r in (Rules(), QQ, Rules(jin_gou_diao=True, long_qi_dui_uses_root=False, root_fan=2)):
        v, table = view(r), compile_rules(r)
        for ctx in range(48):
            for bits in range(4):
                assert table[32 * ctx + bits] == v.regular[ctx][bits].value
        for ctx in range(12):
            assert table[1536 + ctx] == v.seven[ctx].value


def test_best_pattern():
    pats = applicable(qing=True, all_triplets=True, four_melds=True)
    assert pats == (Fan.PING_HU, Fan.DUI_DUI_HU, Fan.QING_YI_SE, Fan.QING_DUI, Fan.JIN_GOU_DIAO,
                    Fan.QING_JIN_GOU_DIAO)
    assert BASE_PATTERNS[best_pattern(Rules(), pats).position] is Fan.QING_DUI  # 金钩钓 off
    on = best_pattern(Rules(jin_gou_diao=True), pats)
    assert BASE_PATTERNS[on.position] is Fan.QING_JIN_GOU_DIAO and on.value == on.base == 4
    assert applicable(fixed=2, seven_pairs=True, qing=True) == (Fan.DI_HU,)


# ------------------------------------------------------------------------- C copies


def test_reading_bits_match_c():
    assert _fan.READING_BITS == (R_ALL_TRIPLETS, R_YAO_JIU, R_SEQ_456, R_TWIN_SEQ, R_DRAGON)


def test_flag_bits_match_c():
    assert _fan.FLAG_BITS == tuple(inputs.FLAG_BITS[name] for name in FLAG_NAMES)


@pytest.mark.parametrize("hand, win, melds", [
    ("22244455577799m", "2m", None),             # win tile held three times
    (WIN, "1m", None),                           # held once
    ("123m 234m 678m 99m", "1m", ["kong:5m"]),   # an own kong
    ("123m 234m 678m 99m", "1m", ["kong_concealed:5m"]),
    ("123m 234m 678m 99m", "1m", ["pung:5m"]),   # melds, no kong
    ("234m 234m 678m 99m", "2m", ["pung:1m"]),   # held twice, melds
    ("123m 234m 678m 99m", "1m", ["pung:1p"]),   # held once, another kind melded
])
def test_flag_rules_match_c(hand, win, melds):
    """Every combination of the seven flags: the kernel refuses a row exactly when score()
    does, and otherwise gives score()'s fan."""
    combos = list(itertools.product((False, True), repeat=len(FLAG_NAMES)))
    flags = {name: np.array([c[i] for c in combos]) for i, name in enumerate(FLAG_NAMES)}
    hands = np.repeat(parse_hand(hand)[None], len(combos), axis=0)
    got = mjfast.fan(hands, win, melds=melds, errors="coerce", **flags).tolist()
    for combo, fan in zip(combos, got):
        try:
            want = mjfast.score(hand, win_tile=win, melds=melds, **dict(zip(FLAG_NAMES, combo)))
        except ValueError:
            assert fan == mjfast.INVALID_FAN, combo
        else:
            assert fan == (want.fan if want.is_win else -1), combo


# ------------------------------------------------------------------------- arguments


def test_rules_by_preset_name():
    assert mjfast.score(WIN, win_tile="1m", rules="qq") == mjfast.score(WIN, win_tile="1m",
                                                                         rules=QQ)
    assert mjfast.fan(WIN, "1m", rules="qq") == mjfast.fan(WIN, "1m", rules=QQ) == 1
    assert mjfast.max_fan(READY, rules="qq") == mjfast.max_fan(READY, rules=QQ)
    batch = np.stack([parse_hand(READY), parse_hand("1112345678999m")])
    assert mjfast.max_fan(batch, rules="qq").tolist() == mjfast.max_fan(batch, rules=QQ).tolist()
    assert fan_batch.max_fan(READY, rules="qq") == mjfast.max_fan(READY, rules=QQ).fan
    with pytest.raises(InvalidArgumentError, match="rules: expected a Rules object or a preset"):
        mjfast.score(WIN, win_tile="1m", rules="shanghai")


VOIDS = {
    -1: (None, -1, np.int64(-1)),
    0: (0, "m", "万", np.int8(0)),
    1: (1, "p", "筒", "饼"),
    2: (2, "s", "条", "索"),
}


@pytest.mark.parametrize("code", sorted(VOIDS))
def test_void_suit_spellings(code):
    batch14 = np.stack([parse_hand(WIN), parse_hand("11122233344455m")])
    batch13 = np.stack([parse_hand(READY), parse_hand("1112345678999m")])
    results = set()
    for v in VOIDS[code]:
        results.add((
            mjfast.score(WIN, win_tile="1m", void_suit=v),
            mjfast.max_fan(READY, void_suit=v),
            mjfast.fan(WIN, "1m", void_suit=v),
            tuple(mjfast.fan(batch14, ["1m", "5m"], void_suit=v).tolist()),
            tuple(mjfast.max_fan(batch13, void_suit=v).tolist()),
            fan_batch.max_fan(READY, void_suit=v),
        ))
    assert len(results) == 1
    (s, m, f, fb, mb, fm), = results
    assert s.is_win == (code in (-1, 2)) and (f != -1) == s.is_win
    assert (m.fan is not None) == (code in (-1, 2)) and fm == (-1 if m.fan is None else m.fan)
    assert fb[1] == (-1 if code in (0,) else 3) and mb[1] == (-1 if code == 0 else 3)


@pytest.mark.parametrize("call", [
    lambda: mjfast.score(WIN, win_tile=True),
    lambda: mjfast.score(WIN, win_tile=np.True_),
    lambda: mjfast.fan(WIN, True),
    lambda: mjfast.fan(np.stack([parse_hand(WIN)] * 2), False),
    lambda: mjfast.score(parse_hand(WIN).astype(float), win_tile="1m"),
    lambda: mjfast.fan(parse_hand(WIN).astype(float), "1m"),
    lambda: mjfast.fan(np.stack([parse_hand(WIN)] * 2).astype(float), "1m"),
    lambda: mjfast.max_fan(parse_hand(READY).astype(float)),
    lambda: mjfast.max_fan(np.stack([parse_hand(READY)] * 2).astype(float)),
    lambda: mjfast.score([True] * 14 + [False] * 13, win_tile=0),
    lambda: mjfast.fan(WIN, "1m", workers=0),
    lambda: mjfast.max_fan(READY, workers=0),
    lambda: mjfast.max_fan(np.stack([parse_hand(READY)] * 2), workers=0),
    lambda: fan_batch.max_fan(READY, workers=0),
    lambda: mjfast.score(WIN, win_tile="1m", self_drawn=1),
    lambda: mjfast.max_fan(np.stack([parse_hand(READY)] * 2), best_wait=1),
])
def test_bad_arguments(call):
    with pytest.raises(InvalidArgumentError):
        call()


def test_max_fan_batch_keywords():
    batch = np.stack([parse_hand(READY), parse_hand("1112345678999m")])
    bad = batch.copy()
    bad[0, 0] = 5
    assert mjfast.max_fan(bad, errors="coerce").tolist() == [mjfast.INVALID_FAN, 3]
    f, best = mjfast.max_fan(batch, best_wait=True)
    assert best.tolist() == [mjfast.max_fan(READY).best_wait, 0]
    assert mjfast.max_fan([READY, "1112345678999m"]).tolist() == f.tolist()
    assert mjfast.max_fan([list(batch[0]), list(batch[1])]).tolist() == f.tolist()
    with pytest.warns(DeprecationWarning, match="best_tile"):
        f2, best2 = mjfast.max_fan(batch, best_tile=True)
    assert best2.tolist() == best.tolist()
    with pytest.warns(DeprecationWarning, match="best_tile"):
        assert fan_batch.max_fan("1112345678999m", best_tile=True) == (3, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert fan_batch.max_fan("1112345678999m", best_wait=True) == (3, 0)
        assert fan_batch.max_fan("1112345678999m") == 3
    for kw in ({"best_wait": True}, {"out": np.empty(1, np.int16)}, {"errors": "coerce"}):
        with pytest.raises(InvalidArgumentError, match="only batch"):
            mjfast.max_fan(READY, **kw)


def test_parse_cache_keeps_short_strings_only():
    padded = "123m456m789m" + " " * 1000 + "12355p"
    assert mjfast.score(padded, win_tile="1m") == mjfast.score(WIN, win_tile="1m")
    assert padded not in _args._PARSED
    melds = "pung:5m" + " " * 1000
    mjfast.score("123m 234m 678m 99m", win_tile="1m", melds=melds)
    assert melds not in inputs._MELD_CACHE


# ------------------------------------------------------------------------- Rules is plain data


def test_rules_carry_no_caches():
    r = Rules.preset("qq", men_qing=1)
    fields = {f.name for f in dataclasses.fields(Rules)}
    before = set(vars(r))
    mjfast.score(WIN, win_tile="1m", rules=r)
    mjfast.max_fan(READY, rules=r)
    mjfast.fan(WIN, "1m", rules=r)
    mjfast.max_fan(np.stack([parse_hand(READY)] * 2), rules=r)
    compile_rules(r)
    hash(r)
    assert set(vars(r)) == before
    assert set(vars(r)) - fields <= {"_hash"}
