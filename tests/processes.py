"""Timing helpers for the tests that signal a child process (Ctrl-C within about a second).

Wall-clock waits and bounds fail on a loaded machine for reasons that are not the code's: a child
still importing when the signal comes, a child that stops at once but is scheduled late. So the
tests wait for the child's own CPU time, and scale their wall-clock bounds by the load. And a
suite started in the background of a non-interactive shell (``nohup ... &``) inherits SIGINT
ignored, which a child Python keeps (it installs its Ctrl-C handler only where SIGINT is not
ignored): :func:`start` gives the child the default disposition back.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any


def start(argv: list[str], **kwargs: Any) -> subprocess.Popen:
    """``subprocess.Popen(argv, **kwargs)`` with SIGINT at its default in the child."""
    return subprocess.Popen(argv, preexec_fn=_default_sigint, **kwargs)


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for_cpu(proc: subprocess.Popen, seconds: float, timeout: float = 120.0) -> None:
    """Wait until ``proc`` has run ``seconds`` of CPU time (a wall-clock wait where there is no
    ``/proc``); fail if it exits first or ``timeout`` wall seconds pass."""
    if not Path(f"/proc/{proc.pid}/stat").exists():
        time.sleep(seconds)
        return
    deadline = time.monotonic() + timeout
    while cpu_seconds(proc.pid) < seconds:
        assert proc.poll() is None, "the child exited before it was signalled"
        assert time.monotonic() < deadline, f"the child ran < {seconds} CPU-s in {timeout} s"
        time.sleep(0.02)


def loaded(seconds: float) -> float:
    """A wall-clock bound of ``seconds`` on an idle machine, stretched by the load per core."""
    per_core = os.getloadavg()[0] / (os.cpu_count() or 1)
    return seconds * max(1.0, per_core)
