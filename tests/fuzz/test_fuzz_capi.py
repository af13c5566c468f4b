"""Fuzz: the C library through its function table (the capsule :data:`mjfast.capi.CAPSULE`, the
copy the package loaded; no compiler needed): mutated rules blobs, hostile counts, options,
void suits and batch sizes. Every call returns a documented result or an MJ_E_* code, a refused
blob leaves the rules untouched, and the fan of any blob that loads is never an error code
(issue 23, item 8)."""

from __future__ import annotations

import ctypes

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from mjfast import datagen
from mjfast._core._fan import RULES_SIZE
from mjfast.capi import CAPSULE
from mjfast.rules import Rules
from tests.fuzz.hostile import FUZZ

U8P = ctypes.POINTER(ctypes.c_uint8)
I8P = ctypes.POINTER(ctypes.c_int8)
VP = ctypes.c_void_p
ERRORS = set(range(-123, -99))  # the MJ_E_* codes
E_RULES, E_RANGE = -109, -112
RULES_BYTES = 4 * RULES_SIZE  # an mj_rules_t


class _Capi(ctypes.Structure):
    _fields_ = [
        ("abi_version", ctypes.c_int), ("size", ctypes.c_size_t), ("version", VP),
        ("shanten", ctypes.CFUNCTYPE(ctypes.c_int, U8P, U8P, ctypes.c_int, ctypes.c_int)),
        ("is_win", VP), ("waits", VP), ("effective", VP), ("discards", VP),
        ("shanten_n", ctypes.CFUNCTYPE(ctypes.c_int64, U8P, ctypes.c_size_t, U8P, ctypes.c_int,
                                       ctypes.c_int, I8P)),
        ("rules_preset", VP),
        ("rules_from_bytes", ctypes.CFUNCTYPE(ctypes.c_int, VP, ctypes.c_char_p,
                                              ctypes.c_size_t)),
        ("fan", ctypes.CFUNCTYPE(ctypes.c_int, VP, U8P, U8P, U8P, ctypes.c_int, ctypes.c_int,
                                 ctypes.c_int)),
        ("max_fan", ctypes.CFUNCTYPE(ctypes.c_int, VP, U8P, U8P, U8P, ctypes.c_int, U8P,
                                     ctypes.POINTER(ctypes.c_int))),
    ]


def _table() -> _Capi:
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = VP, [ctypes.py_object, ctypes.c_char_p]
    return _Capi.from_address(get(CAPSULE, b"mjfast.capi"))


API = _table()
WON, WIN_TILES = datagen.complete_hands(20, seed=7, return_tile=True, seven_pairs=0.3)
READY = datagen.ready_hands(20, seed=8)
BLOBS = [Rules.preset(name).to_bytes() for name in ("chengdu", "qq", "points")] + \
    [Rules(cap=None, men_qing=2, zhong_zhang=1, root_fan=3).to_bytes()]


def _p(a: np.ndarray, kind: type = U8P) -> ctypes._Pointer:
    return a.ctypes.data_as(kind)


@st.composite
def _mutated(draw: st.DrawFn) -> bytes:
    blob = bytearray(draw(st.sampled_from(BLOBS)))
    for _ in range(draw(st.integers(1, 4))):
        how = draw(st.sampled_from(["value", "byte", "cut", "grow"]))
        if how == "value":  # one int32 field set to anything
            i = draw(st.integers(0, 1559))
            v = draw(st.integers(-2**31, 2**31 - 1) | st.integers(-300, 300))
            blob[16 + 4 * i:20 + 4 * i] = int(v).to_bytes(4, "little", signed=True)
        elif how == "byte" and blob:  # any byte, the header included
            blob[draw(st.integers(0, len(blob) - 1))] = draw(st.integers(0, 255))
        elif how == "cut" and blob:
            del blob[draw(st.integers(0, len(blob) - 1)):]
        elif how == "grow":
            blob += bytes(draw(st.integers(1, 8)))
    return bytes(blob)


@FUZZ
@given(blob=_mutated())
def test_rules_blob(blob: bytes) -> None:
    rules = ctypes.create_string_buffer(b"\x5a" * RULES_BYTES, RULES_BYTES)
    rc = API.rules_from_bytes(ctypes.addressof(rules), blob, len(blob))
    if rc != 0:
        assert rc == E_RULES
        assert rules.raw == b"\x5a" * RULES_BYTES, "a refused blob wrote the rules"
        return
    r = ctypes.addressof(rules)
    for row, tile in zip(WON, WIN_TILES):
        row = np.ascontiguousarray(row, np.uint8)
        for flags in (0, 1, 17):
            got = API.fan(r, _p(row), None, None, -1, int(tile), flags)
            assert 0 <= got <= 721, (got, flags)
    for row in READY:
        row = np.ascontiguousarray(row, np.uint8)
        best = ctypes.c_int(-9)
        got = API.max_fan(r, _p(row), None, None, -1, None, ctypes.byref(best))
        assert -1 <= got <= 721 and got not in ERRORS
        assert (got == -1) == (best.value == -1)


@FUZZ
@given(counts=st.lists(st.integers(0, 255), min_size=27, max_size=27),
       melds=st.none() | st.lists(st.sampled_from([0, 0, 0, 3, 4, 1, 255]), min_size=27,
                                  max_size=27),
       void=st.integers(-3, 4) | st.integers(-2**31, 2**31 - 1),
       options=st.sampled_from([0, 1, 2, 3, 4, 3 << 8, 2 << 8, 5 << 8, 1 << 20])
       | st.integers(-2**31, 2**31 - 1))
def test_shanten_one(counts: list[int], melds: list[int] | None, void: int, options: int) -> None:
    c = np.array(counts, np.uint8)
    m = None if melds is None else np.array(melds, np.uint8)
    got = API.shanten(_p(c), None if m is None else _p(m), void, options)
    assert got in ERRORS or -1 <= got <= 8 or got == 127, got


@FUZZ
@given(rows=st.lists(st.lists(st.integers(0, 6), min_size=27, max_size=27), min_size=1,
                     max_size=6),
       claimed=st.sampled_from([None, 2**63, 2**64 - 1, (2**63 - 1) // 27 + 1]),
       void=st.integers(-2, 3))
def test_shanten_n(rows: list[list[int]], claimed: int | None, void: int) -> None:
    """A claimed n beyond the addressable range is refused before any row is read."""
    hands = np.array(rows, np.uint8)
    out = np.full(len(rows), 77, np.int8)
    n = len(rows) if claimed is None else claimed
    got = API.shanten_n(_p(hands), n, None, void, 0, _p(out, I8P))
    if claimed is not None:  # (a bad void suit, checked first, is refused as such)
        assert got == (E_RANGE if -1 <= void <= 2 else -106) and (out == 77).all()
        return
    assert got in ERRORS or -1 <= got < len(rows), got
    if got == -1:
        assert ((out >= -1) & (out <= 8) | (out == 127)).all()
