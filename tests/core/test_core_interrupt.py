"""Ctrl-C reaches a long batch call: kernels run in chunks with the GIL released in between."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import pytest

from tests.processes import loaded, start

SCRIPT = textwrap.dedent(
    """
    import sys
    import numpy as np
    import mjfast
    hands = np.tile(mjfast.parse_hand("123m456m789m23p55p"), (4_000_000, 1))
    try:
        print("ready", flush=True)
        # batch after batch: the kernels are fast enough to finish one before the signal comes
        for _ in range(200):
            mjfast.effective_tiles(hands, workers={workers})
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    """
)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("workers", [1, 2])
def test_sigint_interrupts_a_long_batch(workers: int) -> None:
    proc = start(
        [sys.executable, "-c", SCRIPT.format(workers=workers)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(0.3)  # let the kernel start: the calls take many seconds
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=loaded(60.0))  # minutes under ASan on a busy machine
    finally:
        proc.kill()
    assert out.strip() == "interrupted", (out, err)
    assert proc.returncode == 0
