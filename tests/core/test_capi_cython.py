"""The Cython API: examples/cython (a downstream package that does ``from mjfast cimport capi``)
builds against the installed mjfast and its nogil loops agree with the Python API."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import mjfast
from mjfast.datagen import deal, ready_hands
from mjfast.rules import Rules
from tests.strategies import random_deals

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                                reason="no C compiler")


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The example built in place in a temporary copy (the build_ext a user would run)."""
    src = tmp_path_factory.mktemp("cython") / "example"
    shutil.copytree(ROOT / "examples" / "cython", src)
    # Cython finds mjfast/capi.pxd on sys.path: an editable install of this tree is not there
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [
        str(ROOT), os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=src,
                          env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    so = next(src.glob("mjfast_cython_example*.so"), None) or next(src.glob("*.pyd"))
    spec = importlib.util.spec_from_file_location("mjfast_cython_example", so)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_shanten_and_waits(example: ModuleType) -> None:
    hands = np.concatenate([deal(5000, 14, seed=21), deal(5000, 13, seed=22)])
    assert (example.shanten(hands) == mjfast.shanten(hands)).all()
    assert (example.shanten(hands, 1, 4) == -106).all()  # a void suit without the void rule
    assert (example.shanten(hands, -1, 1) == mjfast.shanten(hands, form="regular")).all()
    ready = ready_hands(5000, seed=23)
    assert (example.waits(ready, 2) == mjfast.waits(ready, void_suit=2)).all()


def test_max_fan_with_python_rules(example: ModuleType) -> None:
    ready = ready_hands(5000, seed=24)
    assert (example.max_fan(ready) == mjfast.max_fan(ready)).all()
    rules = Rules.preset("qq", men_qing=1, cap=None)
    assert (example.max_fan(ready, rules.to_bytes()) == mjfast.max_fan(ready, rules=rules)).all()
    with pytest.raises(ValueError, match="to_bytes"):
        example.max_fan(ready, b"junk")


def test_short_hands(example: ModuleType) -> None:
    rng = np.random.default_rng(26)
    for n in (2, 3):
        hands = random_deals(rng, 2000, 3 * n + 1, suits=(0, 1))
        assert (example.shanten(hands, -1, example.sets(n)) == mjfast.shanten(hands, sets=n)).all()
        assert (example.waits(hands, -1, example.sets(n)) == mjfast.waits(hands, sets=n)).all()
        assert (example.max_fan(hands, None, example.sets(n)) ==
                mjfast.max_fan(hands, sets=n)).all()


def test_the_loop_runs(example: ModuleType) -> None:
    assert example.bench_shanten(deal(1000, 14, seed=25), 1) > 0  # the rate: benchmarks only
