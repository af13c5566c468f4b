"""Smoke test of an installed mjfast (the wheel built from the sdist, in a fresh venv with numpy's
oldest allowed release): run outside the source tree, so ``import mjfast`` is the installed one.
Real values, asserted; the C interface ships; the console script runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

import mjfast

assert "site-packages" in mjfast.__file__, mjfast.__file__
assert mjfast.shanten("123m456m789m23p55p") == 0
assert [mjfast.format_tile(t) for t in mjfast.mask_to_tiles(mjfast.waits("123m456m789m23p55p"))] \
    == ["1p", "4p"]
assert mjfast.max_fan(["1112345678999m", "123m456m789m23p55p"]).tolist() == [3, 0]
hands = np.zeros((2, 27), np.uint8)
hands[:, :14] = 1
assert mjfast.shanten(hands, workers=2).tolist() == [mjfast.shanten(hands[0])] * 2
assert mjfast.selfplay(4, seed=1).net.sum(axis=1).tolist() == [0, 0, 0, 0]
include = Path(mjfast.get_include())
assert (include / "mjfast.h").read_text().count(f'#define MJFAST_VERSION "{mjfast.__version__}"') == 1
out = subprocess.run(["mjfast", "stats", "--hands", "100000"], check=True, capture_output=True,
                     text=True).stdout
assert "shanten" in out, out
print(f"smoke: mjfast {mjfast.__version__} with numpy {np.__version__} on Python "
      f"{sys.version.split()[0]}: ok")
