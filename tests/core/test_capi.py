"""The C library (src/mjfast.h + src/mjfast.c, the amalgamation): current with its sources,
shipped by the package, and equal to the Python API, compiled with nothing but ``cc``.

The library is compiled once per module (a shared object for ctypes, the example program and
the thread check: a few seconds); the checks compare it with the Python API on random hands.
"""

from __future__ import annotations

import ctypes
import importlib.util
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import mjfast
from mjfast._typing import Form
from mjfast.capi import get_include
from mjfast.datagen import complete_hands, deal, ready_hands
from mjfast.rules import Rules
from mjfast.scoring import batch as fan_batch
from tests.strategies import random_deals

ROOT = Path(__file__).resolve().parents[2]
CC = shutil.which("cc") or shutil.which("gcc")
pytestmark = pytest.mark.skipif(CC is None, reason="no C compiler")

MJ_FORM_REGULAR, MJ_FORM_SEVEN_PAIRS, MJ_NO_VOID_RULE = 1, 2, 4
MJ_E = {"count": -101, "meld": -102, "held": -103, "size": -104, "visible": -105, "void": -106,
        "options": -107, "null": -108, "rules": -109, "win_not_held": -120, "flags": -121,
        "concealed": -122, "win_tile": -123}
N = 10_000
# The blob's int32 count (MJ_RULES_SIZE), pinned: every buffer a test hands the C library for
# an mj_rules_t is this size (a stale count let mj_rules_from_bytes write past the buffer).
RULES_SIZE = 1561
U8P = ctypes.POINTER(ctypes.c_uint8)
I8P = ctypes.POINTER(ctypes.c_int8)


def _tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _cc(out: Path, *args: str | Path) -> Path:
    assert CC is not None
    subprocess.run([CC, "-O2", "-I", get_include(), *map(str, args), "-o", str(out)], check=True)
    return out


def _p(a: np.ndarray | None, kind: type = U8P) -> ctypes._Pointer | None:
    return None if a is None else a.ctypes.data_as(kind)


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("capi")


@pytest.fixture(scope="module")
def lib(build: Path) -> ctypes.CDLL:
    so = _cc(build / "libmjfast.so", "-shared", "-fPIC", Path(get_include()) / "mjfast.c")
    dll = ctypes.CDLL(str(so))
    dll.mj_version.restype = ctypes.c_char_p
    dll.mj_waits.restype = ctypes.c_uint32
    dll.mj_rules_preset.restype = ctypes.c_void_p
    for name in ("mj_shanten_n", "mj_waits_n", "mj_is_win_n", "mj_effective_n", "mj_discards_n"):
        getattr(dll, name).restype = ctypes.c_int64
    dll.mj_fan.argtypes = [ctypes.c_void_p, U8P, U8P, U8P, ctypes.c_int, ctypes.c_int,
                           ctypes.c_int]
    dll.mj_max_fan.argtypes = [ctypes.c_void_p, U8P, U8P, U8P, ctypes.c_int, U8P,
                               ctypes.POINTER(ctypes.c_int)]
    dll.mj_fan_ex.argtypes = [*dll.mj_fan.argtypes, ctypes.c_int]
    dll.mj_max_fan_ex.argtypes = [*dll.mj_max_fan.argtypes, ctypes.c_int]
    dll.mj_max_fan_n_ex.restype = ctypes.c_int64
    assert dll.mj_init() == 0
    return dll


def _rules(lib: ctypes.CDLL, rules: Rules) -> ctypes.Array[ctypes.c_char]:
    blob = rules.to_bytes()
    out = ctypes.create_string_buffer(4 * RULES_SIZE)
    assert lib.mj_rules_from_bytes(out, blob, ctypes.c_size_t(len(blob))) == 0
    return out


def _with_melds(seed: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Random hands of 14 - 3m tiles with m pungs/kongs (m 1-3) beside them."""
    rng = np.random.default_rng(seed)
    hands = np.zeros((n, 27), np.uint8)
    melds = np.zeros((n, 27), np.uint8)
    for i in range(n):
        kinds = rng.choice(27, size=int(rng.integers(1, 4)), replace=False)
        melds[i, kinds] = rng.choice([3, 4], size=kinds.size)
        free = 4 - melds[i].astype(int)
        size = 14 - 3 * kinds.size - int(rng.integers(0, 2))
        pool = np.repeat(np.arange(27), free)
        np.add.at(hands[i], rng.choice(pool, size=size, replace=False), 1)
    return hands, melds


# ---- the files ---------------------------------------------------------------------------------

def test_amalgamation_is_current() -> None:
    tool = _tool("amalgamate")
    for name, text in tool.build().items():
        assert (ROOT / "src" / name).read_text() == text, f"src/{name}: run tools/amalgamate.py"


def test_presets_are_current() -> None:
    """src/mjfast_presets.h (what the C library embeds) equals compile_rules of every preset, as
    the tool computes it: from the modules' files, with nothing compiled importable."""
    tool = _tool("presetgen")
    assert tool.HEADER.read_text() == tool.header_text(), "run tools/presetgen.py"


def test_lz_roundtrip() -> None:
    tool = _tool("tablegen")
    data = bytes(np.random.default_rng(1).integers(0, 4, 5000, dtype=np.uint8)) + bytes(300)
    assert tool.lz_unpack(tool.lz_pack(data)) == data


def test_package_ships_the_library() -> None:
    inc = Path(get_include())
    for name in ("mjfast.h", "mjfast.c"):
        assert (inc / name).read_bytes() == (ROOT / "src" / name).read_bytes()
    cli = subprocess.run([*mjfast_cmd(), "--include"], capture_output=True, text=True, check=True)
    assert cli.stdout.strip() == get_include()


def mjfast_cmd() -> list[str]:
    import sys
    return [sys.executable, "-m", "mjfast"]


def test_version(lib: ctypes.CDLL) -> None:
    assert lib.mj_version().decode() == mjfast.__version__
    assert lib.mj_init() == 0  # idempotent


# ---- equal to the Python API -------------------------------------------------------------------

@pytest.mark.parametrize(("options", "form", "void_rule"), [
    (0, "all", True), (MJ_FORM_REGULAR, "regular", True),
    (MJ_FORM_SEVEN_PAIRS, "seven_pairs", True),
    (MJ_FORM_REGULAR | MJ_FORM_SEVEN_PAIRS, "all", True), (MJ_NO_VOID_RULE, "all", False),
    (MJ_FORM_REGULAR | MJ_NO_VOID_RULE, "regular", False),
])
def test_shanten(lib: ctypes.CDLL, options: int, form: Form, void_rule: bool) -> None:
    hands = np.concatenate([deal(N // 2, 14, seed=1), deal(N // 2, 13, seed=2)])
    for void in ((-1, 0, 2) if void_rule else (-1,)):
        want = np.asarray(mjfast.shanten(hands, form=form, void_rule=void_rule,
                                         void_suit=None if void < 0 else void))
        got = np.array([lib.mj_shanten(_p(h), None, void, options) for h in hands[:2000]])
        assert (got == want[:2000]).all()
        out = np.empty(N, np.int8)
        assert lib.mj_shanten_n(_p(hands), ctypes.c_size_t(N), None, void, options,
                                _p(out, I8P)) == -1
        assert (out == want).all()


@pytest.fixture(scope="module")
def lib_without(build: Path) -> Callable[[str], ctypes.CDLL]:
    """The library compiled with one SIMD path left out (``-DMJ_AVX2=0``: the paths of CPUs
    without AVX2; ``-DMJ_SSSE3=0``: SSE2 alone), once per flag; -O1 compiles in half the time.
    The default build takes the AVX2 paths where the CPU has them."""
    libs: dict[str, ctypes.CDLL] = {}

    def get(flag: str) -> ctypes.CDLL:
        if flag not in libs:
            so = _cc(build / f"libmjfast{flag[5:9]}.so", "-O1", flag, "-shared", "-fPIC",
                     Path(get_include()) / "mjfast.c")
            dll = ctypes.CDLL(str(so))
            for name in ("mj_shanten_n", "mj_effective_n", "mj_discards_n", "mj_waits_n",
                         "mj_is_win_n"):
                getattr(dll, name).restype = ctypes.c_int64
            assert dll.mj_init() == 0
            libs[flag] = dll
        return libs[flag]

    return get


@pytest.mark.parametrize("flag", ["-DMJ_AVX2=0", "-DMJ_SSSE3=0"])
def test_shanten_without_avx2_or_ssse3(lib_without: Callable[[str], ctypes.CDLL],
                                       flag: str) -> None:
    """The headline shanten loops' other paths (built without AVX2: SSSE3 rows one by one;
    without SSSE3: SSE2) give the Python API's values, bad rows among good ones and batches of
    every length mod 4 included; the default build's AVX2 path is the one test_shanten runs
    where the CPU has it."""
    lib = lib_without(flag)
    hands = np.concatenate([deal(2000, 14, seed=5), deal(2000, 13, seed=6)])
    hands[[37, 38, 1001, 2502]] = 0  # too few tiles
    hands[[700, 3333], [4, 20]] = 6  # a count above 4
    cases: list[tuple[int, Form, bool]] = [(0, "all", True),
                                           (MJ_FORM_REGULAR | MJ_NO_VOID_RULE, "regular", False)]
    for options, form, void_rule in cases:
        want = np.asarray(mjfast.shanten(hands, form=form, void_rule=void_rule,
                                         errors="coerce"))
        for n in (len(hands), 1001, 1002, 1003):
            out = np.empty(n, np.int8)
            lib.mj_shanten_n(_p(hands), ctypes.c_size_t(n), None, -1, options, _p(out, I8P))
            assert (out == want[:n]).all()


@pytest.mark.parametrize(("void_rule", "void_suit"), [(True, -1), (True, 0), (False, -1)])
def test_waits_without_avx2(lib_without: Callable[[str], ctypes.CDLL], void_rule: bool,
                            void_suit: int) -> None:
    """waits and the win test built without their AVX2 paths (the SSE2 rows one by one) give the
    Python API's answers, which come from the AVX2 paths where the CPU has them: ready hands
    (seven pairs among them), dealt ones, bad rows among good ones, batches of every length mod 4,
    with and without the void rule and with a declared void suit."""
    lib = lib_without("-DMJ_AVX2=0")
    flags = 0 if void_rule else MJ_NO_VOID_RULE
    hands, tile = complete_hands(3000, seed=9, return_tile=True, seven_pairs=0.3)
    hands[np.arange(3000), tile] -= 1
    hands = np.concatenate([hands, deal(1000, 13, seed=10)])
    hands[[37, 38, 1001, 3502]] = 0  # too few tiles
    hands[[700, 3333], [4, 20]] = 6  # a count above 4
    void = None if void_suit < 0 else void_suit
    wins = np.concatenate([complete_hands(2000, seed=11, seven_pairs=0.3), deal(2000, 14, seed=12)])
    waits = np.asarray(mjfast.waits(hands, void_rule=void_rule, void_suit=void, errors="coerce"))
    win = np.asarray(mjfast.is_win(wins, void_rule=void_rule, void_suit=void, errors="coerce"))
    u32p = ctypes.POINTER(ctypes.c_uint32)
    for rows, run, want, kind in ((hands, lib.mj_waits_n, waits.astype(np.uint32), u32p),
                                  (wins, lib.mj_is_win_n, win.astype(np.uint8), U8P)):
        for n in (len(rows), 1001, 1002, 1003):
            out = np.empty(n, want.dtype)
            run(_p(rows), ctypes.c_size_t(n), None, void_suit, flags, _p(out, kind))
            assert (out == want[:n]).all()


@pytest.mark.parametrize("form", ["all", "regular", "seven_pairs"])
@pytest.mark.parametrize(("void_rule", "void_suit"), [(True, -1), (True, 2), (False, -1)])
def test_columns_without_avx2(lib_without: Callable[[str], ctypes.CDLL], form: Form,
                              void_rule: bool, void_suit: int) -> None:
    """discards and effective tiles built without their AVX2 path (the SWAR path every other CPU
    runs) give the Python API's answers, which come from the AVX2 path where the CPU has it
    (src/mjfast_column_rows.h dispatches at run time), in every form, with and without the void
    rule and with a declared void suit."""
    lib = lib_without("-DMJ_AVX2=0")
    flags = ({"all": 0, "regular": MJ_FORM_REGULAR, "seven_pairs": MJ_FORM_SEVEN_PAIRS}[form]
             | (0 if void_rule else MJ_NO_VOID_RULE))
    for tiles, run, api in ((14, lib.mj_discards_n, mjfast.discards),
                            (13, lib.mj_effective_n, mjfast.effective_tiles)):
        hands = deal(4000, tiles, seed=tiles)
        out = np.empty((4000, 27), np.int8)
        visible = [None] if tiles == 13 else []
        assert run(_p(hands), ctypes.c_size_t(4000), None, void_suit, flags, *visible,
                   _p(out, I8P)) == -1
        want = api(hands, form=form, void_rule=void_rule, void_suit=void_suit)
        assert (out == want).all()


def test_melds(lib: ctypes.CDLL) -> None:
    hands, melds = _with_melds(3, 3000)
    want = mjfast.shanten(hands, melds=melds)
    got = np.array([lib.mj_shanten(_p(h), _p(m), -1, 0) for h, m in zip(hands, melds)])
    assert (got == want).all()
    waiting = hands.sum(axis=1) % 3 == 1
    w_hands, w_melds = hands[waiting], melds[waiting]
    out = np.empty(len(w_hands), np.uint32)
    assert lib.mj_waits_n(_p(w_hands), ctypes.c_size_t(len(w_hands)), _p(w_melds), 1, 0,
                          out.ctypes.data_as(ctypes.POINTER(ctypes.c_uint32))) == -1
    assert (out == mjfast.waits(w_hands, melds=w_melds, void_suit=1)).all()
    c_hands, c_melds = hands[~waiting], melds[~waiting]
    win = np.array([lib.mj_is_win(_p(h), _p(m), -1, 0) for h, m in zip(c_hands, c_melds)])
    assert (win == mjfast.is_win(c_hands, melds=c_melds)).all()


def test_waits_effective_discards(lib: ctypes.CDLL) -> None:
    ready = np.concatenate([ready_hands(N // 2, seed=4), deal(N // 2, 13, seed=5)])
    want = np.asarray(mjfast.waits(ready)).tolist()
    assert [lib.mj_waits(_p(h), None, -1, 0) for h in ready] == want
    eff = np.empty((N, 27), np.int8)
    assert lib.mj_effective_n(_p(ready), ctypes.c_size_t(N), None, -1, 0, None,
                              _p(eff, I8P)) == -1
    assert (eff == mjfast.effective_tiles(ready)).all()
    one = np.empty(27, np.int8)
    assert lib.mj_effective(_p(ready[7]), None, 0, 0, None, _p(one, I8P)) == 0
    assert (one == mjfast.effective_tiles(ready[7], void_suit=0)).all()
    full = deal(N, 14, seed=6)
    dis = np.empty((N, 27), np.int8)
    assert lib.mj_discards_n(_p(full), ctypes.c_size_t(N), None, -1, 0, _p(dis, I8P)) == -1
    assert (dis == mjfast.discards(full)).all()


@pytest.mark.parametrize("rules", [Rules(), Rules.preset("qq"),
                                   Rules.preset("chengdu", men_qing=1, zhong_zhang=1, cap=None,
                                                yi_tiao_long=2, jin_gou_diao=True)])
def test_fan(lib: ctypes.CDLL, rules: Rules) -> None:
    hands, tiles = complete_hands(3000, seed=7, return_tile=True)
    drawn = np.arange(3000) % 2 == 1
    want = mjfast.fan(hands, tiles, rules=rules, self_drawn=drawn)
    r = _rules(lib, rules)
    got = [lib.mj_fan(r, _p(h), None, None, -1, int(t), int(d))
           for h, t, d in zip(hands, tiles, drawn)]
    assert got == np.asarray(want).tolist()


def test_fan_with_melds_and_flags(lib: ctypes.CDLL) -> None:
    hands, tiles = complete_hands(3000, seed=12, return_tile=True)
    melds = np.zeros_like(hands)
    for i in range(len(hands)):  # a triplet of the hand (not the win tile) becomes a pung
        kinds = [k for k in range(27) if hands[i, k] >= 3 and k != tiles[i]]
        if kinds:
            hands[i, kinds[0]] -= 3
            melds[i, kinds[0]] = 3
    rng = np.random.default_rng(13)
    drawn, last = rng.random(3000) < 0.5, rng.random(3000) < 0.2
    rules = Rules.preset("chengdu", hai_di=1, men_qing=1, cap=None)
    want = mjfast.fan(hands, tiles, melds=melds, rules=rules, self_drawn=drawn, last_tile=last)
    r = _rules(lib, rules)
    got = [lib.mj_fan(r, _p(hands[i]), _p(melds[i]), None, -1, int(tiles[i]),
                      int(drawn[i]) | 16 * int(last[i])) for i in range(3000)]
    assert got == np.asarray(want).tolist()
    marks = (melds > 0).astype(np.uint8)  # a concealed-kong mark on a pung
    row = int(np.flatnonzero(melds.any(axis=1))[0])
    assert lib.mj_fan(r, _p(hands[row]), _p(melds[row]), _p(marks[row]), -1, int(tiles[row]),
                      0) == MJ_E["concealed"]


@pytest.mark.parametrize("rules", [Rules(), Rules.preset("qq", cha_da_jiao="min"),
                                   Rules.preset("chengdu", si_jiao=True, men_qing=2)])
def test_max_fan(lib: ctypes.CDLL, rules: Rules) -> None:
    hands = ready_hands(3000, seed=8)
    visible = np.zeros((3000, 27), np.uint8)
    visible[:, 4] = np.minimum(4 - hands[:, 4], 3)  # 5m: often all copies gone
    want, best = mjfast.max_fan(hands, rules=rules, visible=visible, best_wait=True)
    r = _rules(lib, rules)
    tile = ctypes.c_int()
    for i in range(3000):
        f = lib.mj_max_fan(r, _p(hands[i]), None, None, -1, _p(visible[i]), ctypes.byref(tile))
        assert (f, tile.value) == (want[i], best[i])


def test_presets_equal_the_blobs(lib: ctypes.CDLL) -> None:
    for name in mjfast.PRESETS:
        preset = ctypes.string_at(lib.mj_rules_preset(name.encode()), 4 * RULES_SIZE)
        assert preset == bytes(_rules(lib, Rules.preset(name)))
    assert lib.mj_rules_preset(b"nowhere") is None


@pytest.mark.parametrize("sets", [2, 3])
def test_short_hands(lib: ctypes.CDLL, sets: int) -> None:
    """MJ_SETS(n) and the _ex fan functions equal the Python API's sets=n."""
    rng = np.random.default_rng(sets)
    for size in (3 * sets + 1, 3 * sets + 2):
        hands = np.concatenate([random_deals(rng, 500, size),
                                random_deals(rng, 500, size, suits=(0, 1)),
                                random_deals(rng, 500, size, suits=(2,))])
        out = np.empty(len(hands), np.int8)
        assert lib.mj_shanten_n(_p(hands), ctypes.c_size_t(len(hands)), None, -1, sets << 8,
                                _p(out, I8P)) == -1
        assert out.tolist() == mjfast.shanten(hands, sets=sets).tolist()
        assert [lib.mj_shanten(_p(h), None, -1, sets << 8) for h in hands[:200]] == \
            out[:200].tolist()
    rules = lib.mj_rules_preset(b"chengdu")
    ready = random_deals(rng, 300, 3 * sets + 1, suits=(1,))
    want, best = fan_batch.max_fan(ready, sets=sets, best_wait=True)
    fans = np.empty(len(ready), np.int16)
    waits = np.empty(len(ready), np.int8)
    assert lib.mj_max_fan_n_ex(ctypes.c_void_p(rules), _p(ready), ctypes.c_size_t(len(ready)),
                               None, None, -1, None, _p(fans, ctypes.POINTER(ctypes.c_int16)),
                               _p(waits, I8P), sets << 8) == -1
    assert fans.tolist() == want.tolist() and waits.tolist() == best.tolist()
    for h, f in zip(ready[:50], want[:50]):
        w = ctypes.c_int(-2)
        assert lib.mj_max_fan_ex(rules, _p(h), None, None, -1, None, ctypes.byref(w),
                                 sets << 8) == f
        if f >= 0:
            won = h.copy()
            won[w.value] += 1
            assert lib.mj_fan_ex(rules, _p(won), None, None, -1, w.value, 0, sets << 8) == \
                fan_batch.fan(won, w.value, sets=sets)
    assert lib.mj_max_fan_ex(rules, _p(ready[0]), None, None, -1, None, None, 1) == \
        MJ_E["options"]
    assert lib.mj_max_fan(rules, _p(ready[0]), None, None, -1, None, None) == MJ_E["size"]


def test_errors(lib: ctypes.CDLL) -> None:
    hand = np.array(mjfast.parse_hand("123m456m789m11p23p"), np.uint8)
    five = hand.copy()
    five[0] = 5
    melds = np.zeros(27, np.uint8)
    melds[20] = 2
    out = np.empty(27, np.int8)
    assert lib.mj_shanten(_p(five), None, -1, 0) == MJ_E["count"]
    assert lib.mj_shanten(_p(hand), _p(melds), -1, 0) == MJ_E["meld"]
    assert lib.mj_shanten(_p(hand), None, 3, 0) == MJ_E["void"]
    assert lib.mj_shanten(_p(hand), None, 0, MJ_NO_VOID_RULE) == MJ_E["void"]
    assert lib.mj_shanten(_p(hand), None, -1, 1 << 20) == MJ_E["options"]
    assert lib.mj_shanten(_p(hand), None, -1, 5 << 8) == MJ_E["options"]  # sets: 2..4
    assert lib.mj_shanten(_p(hand), None, -1, 1 << 8) == MJ_E["options"]
    assert lib.mj_shanten(_p(hand), None, -1, 3 << 8) == MJ_E["size"]  # 13 tiles, 3 sets
    assert lib.mj_shanten(_p(hand), None, -1, 4 << 8) == 0
    assert lib.mj_shanten(None, None, -1, 0) == MJ_E["null"]
    assert lib.mj_discards(_p(hand), None, -1, 0, _p(out, I8P)) == MJ_E["size"]
    seen = np.zeros(27, np.uint8)
    seen[0] = 4
    assert lib.mj_effective(_p(hand), None, -1, 0, _p(seen), _p(out, I8P)) == MJ_E["visible"]
    assert lib.mj_waits(_p(five), None, -1, 0) == 0xFFFFFFFF
    r = lib.mj_rules_preset(b"chengdu")
    won = np.array(mjfast.parse_hand("123m456m789m11p234p"), np.uint8)
    assert lib.mj_fan(r, _p(won), None, None, -1, 0, 0) == 0
    assert lib.mj_fan(r, _p(won), None, None, -1, 20, 0) == MJ_E["win_not_held"]
    assert lib.mj_fan(r, _p(won), None, None, -1, 27, 0) == MJ_E["win_tile"]
    assert lib.mj_fan(r, _p(won), None, None, -1, 0, 32 | 64) == MJ_E["flags"]
    assert lib.mj_rules_from_bytes(ctypes.create_string_buffer(4 * RULES_SIZE), b"x" * 6260, 6260) \
        == MJ_E["rules"]
    bad = np.zeros((3, 27), np.uint8)
    bad[:] = hand
    bad[1, 0] = 9
    res = np.empty(3, np.int8)
    assert lib.mj_shanten_n(_p(bad), ctypes.c_size_t(3), None, -1, 0, _p(res, I8P)) == 1
    assert list(res) == [0, -100, 0]


# ---- the example and threads -------------------------------------------------------------------

def _mpsz(row: np.ndarray) -> str:
    return "".join("".join(str(r + 1) * int(row[9 * s + r]) for r in range(9)) + "mps"[s]
                   for s in range(3) if row[9 * s:9 * s + 9].any())


def test_c_example(build: Path) -> None:
    exe = _cc(build / "example", ROOT / "examples" / "c" / "mjfast_example.c",
              Path(get_include()) / "mjfast.c")
    hands = np.concatenate([deal(4000, 13, seed=9), ready_hands(4000, seed=10),
                            deal(2000, 14, seed=11)])
    text = "".join(_mpsz(h) + "\n" for h in hands)
    lines = subprocess.run([str(exe)], input=text, capture_output=True, text=True,
                           check=True).stdout.splitlines()
    shanten = np.asarray(mjfast.shanten(hands))
    waits13 = np.asarray(mjfast.waits(hands[:8000]))
    fans = np.asarray(mjfast.max_fan(hands[:8000]))
    for i, line in enumerate(lines):
        tiles = "".join(mjfast.format_tile(t) for t in mjfast.mask_to_tiles(int(waits13[i])))\
            if i < 8000 else ""
        fan = fans[i] if i < 8000 and fans[i] >= 0 else "-"
        assert line == f"{shanten[i]} {tiles or '-'} {fan}", _mpsz(hands[i])
    assert len(lines) == len(hands)


@pytest.mark.parametrize("sets", [2, 3])
def test_c_example_short_hands(build: Path, sets: int) -> None:
    exe = build / "example"
    if not exe.exists():
        _cc(exe, ROOT / "examples" / "c" / "mjfast_example.c", Path(get_include()) / "mjfast.c")
    rng = np.random.default_rng(sets)
    hands = np.concatenate([random_deals(rng, 500, 3 * sets + 1, suits=(0, 1)),
                            random_deals(rng, 200, 3 * sets + 2)])
    text = "".join(_mpsz(h) + "\n" for h in hands)
    lines = subprocess.run([str(exe), str(sets)], input=text, capture_output=True, text=True,
                           check=True).stdout.splitlines()
    shanten = mjfast.shanten(hands, sets=sets)
    waits = mjfast.waits(hands[:500], sets=sets)
    fans = fan_batch.max_fan(hands[:500], sets=sets)
    for i, line in enumerate(lines):
        tiles = "".join(mjfast.format_tile(t) for t in mjfast.mask_to_tiles(int(waits[i])))\
            if i < 500 else ""
        fan = fans[i] if i < 500 and fans[i] >= 0 else "-"
        assert line == f"{shanten[i]} {tiles or '-'} {fan}", _mpsz(hands[i])
    assert len(lines) == len(hands)


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_makefile(build: Path) -> None:
    subprocess.run(["make", "-s", "-C", str(ROOT / "src"), f"BUILD={build / 'make'}",
                    f"CC={CC}", "all"], check=True, capture_output=True)
    for name in ("libmjfast.a", "libmjfast.so", "mjfast_example", "mjfast_bench"):
        assert (build / "make" / name).exists(), name
    out = subprocess.run([str(build / "make" / "mjfast_example")], input="2224445557779m\n",
                         capture_output=True, text=True, check=True).stdout
    assert out == "0 8m9m 3\n"


def test_two_threads(build: Path) -> None:
    exe = _cc(build / "threads", "-pthread", ROOT / "tests" / "core" / "capi" / "threads.c",
              Path(get_include()) / "mjfast.c")
    a, b, alone = subprocess.run([str(exe)], capture_output=True, text=True,
                                 check=True).stdout.split()
    assert a == b == alone


# ---- the rules blob and batch sizes (issue 23, item 8) ------------------------------------------

MAX_FAN_C = 48
# (first index, last index, lowest value, highest value) of each field of the blob (MF_R_*)
FIELDS = [(0, 1535, 0, 4 * MAX_FAN_C), (1536, 1547, 0, MAX_FAN_C), (1548, 1551, 0, MAX_FAN_C),
          (1552, 1552, 0, 1), (1553, 1555, 0, MAX_FAN_C), (1556, 1556, -1, 32767),
          (1557, 1557, 0, MAX_FAN_C), (1558, 1559, 0, 1), (1560, 1560, 0, MAX_FAN_C)]


def _blob(values: np.ndarray) -> bytes:
    return (b"mjrules\0" + np.array([1, RULES_SIZE], "<u4").tobytes()
            + values.astype("<i4").tobytes())


def _load(lib: ctypes.CDLL, values: np.ndarray) -> tuple[int, ctypes.Array[ctypes.c_char]]:
    blob = _blob(values)
    out = ctypes.create_string_buffer(4 * RULES_SIZE)
    return lib.mj_rules_from_bytes(out, blob, ctypes.c_size_t(len(blob))), out


def test_rules_blob_fields_are_held_to_their_range(lib: ctypes.CDLL) -> None:
    """Every value outside what compile_rules writes for its field is refused (MJ_E_RULES);
    the bounds themselves load. The blob was accepted up to +-32767 before."""
    assert MAX_FAN_C == mjfast.rules.MAX_FAN
    base = np.frombuffer(Rules().to_bytes()[16:], "<i4").astype(np.int64)
    for first, last, low, high in FIELDS:
        for i in {first, (first + last) // 2, last}:
            for value, ok in ((low, True), (high, True), (low - 1, False), (high + 1, False),
                              (-32767, False), (2**31 - 1, False)):
                if ok is False and low <= value <= high:
                    continue
                v = base.copy()
                v[i] = value
                assert (_load(lib, v)[0] == 0) is ok, (i, value)


def test_rules_blob_results_never_meet_the_error_codes(lib: ctypes.CDLL) -> None:
    """Any blob that loads gives fan results >= -1 (no win), apart from every MJ_E_* code: the
    extreme blobs (every field at its top, and at its bottom) on random complete and ready
    hands. Before, a blob of -32767 values made mj_fan return -32766 and -102."""
    won, tiles = complete_hands(300, seed=23, return_tile=True, seven_pairs=0.3)
    for top in (True, False):  # every field at its highest, then at its lowest
        v = np.empty(RULES_SIZE, np.int64)
        for first, last, low, high in FIELDS:
            v[first:last + 1] = high if top else low
        rc, rules = _load(lib, v)
        assert rc == 0
        for row, tile in zip(won, tiles):
            row = np.ascontiguousarray(row, np.uint8)
            for flags in (0, 1, 1 | 16, 1 | 16 | 128):
                assert 0 <= lib.mj_fan(rules, _p(row), None, None, -1, int(tile), flags) <= 769
            assert -1 <= lib.mj_max_fan(rules, _p(row - np.eye(27, dtype=np.uint8)[tile]), None,
                                        None, -1, None, None) <= 769


def test_batch_n_beyond_the_addressable_range_is_refused(lib: ctypes.CDLL) -> None:
    """n >= 2**63 became a negative row count and reported success without computing."""
    hand = np.array(mjfast.parse_hand("123m456m789m11p23p"), np.uint8)
    out = np.full(1, 7, np.int8)
    out16 = np.full(1, 7, np.int16)
    rules = lib.mj_rules_preset(b"chengdu")
    win = np.zeros(1, np.int8)
    lib.mj_fan_n.restype = lib.mj_max_fan_n.restype = ctypes.c_int64
    for n in (2**63, 2**64 - 1, (2**63 - 1) // 27 + 1):
        size = ctypes.c_size_t(n)
        assert lib.mj_shanten_n(_p(hand), size, None, -1, 0, _p(out, I8P)) == -112
        assert lib.mj_waits_n(_p(hand), size, None, -1, 0, _p(out)) == -112
        assert lib.mj_fan_n(ctypes.c_void_p(rules), _p(hand), size, None, None, -1, _p(win, I8P),
                            None, _p(out16, ctypes.POINTER(ctypes.c_int16))) == -112
        assert lib.mj_max_fan_n(ctypes.c_void_p(rules), _p(hand), size, None, None, -1, None,
                                _p(out16, ctypes.POINTER(ctypes.c_int16)), None) == -112
    assert out[0] == 7 and out16[0] == 7
    assert lib.mj_shanten_n(_p(hand), ctypes.c_size_t(1), None, -1, 0, _p(out, I8P)) == -1
    assert out[0] == 0
