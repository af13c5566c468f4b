"""The batch fast paths of discards and effective tiles agree with each other: the C library built
without its AVX2 path (``-DMJ_AVX2=0``: the SWAR path every other CPU runs) gives the
Python API's answers, which come from the AVX2 path where the CPU has it (src/mjfast_column_rows.h
dispatches at run time), on random rows in every form, with and without the void rule and with a
declared void suit. One compile of the library: a few seconds.
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import mjfast
from mjfast._typing import Form
from mjfast.capi import get_include
from mjfast.datagen import deal

CC = shutil.which("cc") or shutil.which("gcc")
pytestmark = pytest.mark.skipif(CC is None, reason="no C compiler")

MJ_FORM: dict[Form, int] = {"all": 0, "regular": 1, "seven_pairs": 2}
MJ_NO_VOID_RULE = 4
N = 4000
U8P = ctypes.POINTER(ctypes.c_uint8)
I8P = ctypes.POINTER(ctypes.c_int8)


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    assert CC is not None
    so = tmp_path_factory.mktemp("columns") / "libmjfast_noavx2.so"
    subprocess.run([CC, "-O1", "-DMJ_AVX2=0", "-shared", "-fPIC", "-I", get_include(),
                    str(Path(get_include()) / "mjfast.c"), "-o", str(so)], check=True)
    dll = ctypes.CDLL(str(so))
    for name in ("mj_effective_n", "mj_discards_n"):
        getattr(dll, name).restype = ctypes.c_int64
    assert dll.mj_init() == 0
    return dll


@pytest.mark.parametrize("form", list(MJ_FORM))
@pytest.mark.parametrize(("void_rule", "void_suit"), [(True, -1), (True, 2), (False, -1)])
def test_paths_agree(lib: ctypes.CDLL, form: Form, void_rule: bool, void_suit: int) -> None:
    flags = MJ_FORM[form] | (0 if void_rule else MJ_NO_VOID_RULE)
    for tiles, run, api in ((14, lib.mj_discards_n, mjfast.discards),
                            (13, lib.mj_effective_n, mjfast.effective_tiles)):
        hands = deal(N, tiles, seed=tiles)
        out = np.empty((N, 27), np.int8)
        args = [hands.ctypes.data_as(U8P), ctypes.c_size_t(N), None, void_suit, flags]
        if tiles == 13:
            args.append(None)  # visible
        assert run(*args, out.ctypes.data_as(I8P)) == -1
        want = api(hands, form=form, void_rule=void_rule, void_suit=void_suit)
        assert (out == want).all()
