"""``mjfast bench``: the benchmark set of :mod:`mjfast.bench`, with ratios to installed peers."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

from mjfast import bench
from mjfast.errors import shown

from .common import CLIError, is_terminal, print_json

__all__ = ["cmd_bench"]


def cmd_bench(args: argparse.Namespace) -> int:
    """Run the benchmark set and print hands/s with ratios to the installed peers."""
    if "OPENBLAS_NUM_THREADS" not in os.environ and not os.environ.get("MJFAST_BENCH_CHILD"):
        # numpy is loaded already: rerun with OpenBLAS pinned to one thread, whose idle pool
        # would otherwise slow the kernel threads
        env = dict(os.environ, OPENBLAS_NUM_THREADS="1", MJFAST_BENCH_CHILD="1")
        return subprocess.call([sys.executable, "-m", "mjfast", *args.argv], env=env)
    names = None
    if args.case:
        names = []
        for pattern in args.case:
            matched = [c.name for c in bench.CASES if pattern == c.name] or \
                [c.name for c in bench.CASES if pattern in c.name]
            if not matched:
                raise CLIError(f"--case: no case matches {shown(pattern)}; cases: "
                               f"{', '.join(c.name for c in bench.CASES)}")
            names += [m for m in matched if m not in names]
    show = is_terminal(sys.stderr)

    def progress(case: bench.Case) -> None:
        if show:
            sys.stderr.write(f"\r\033[Kbench: {case.name} ...")
            sys.stderr.flush()

    results = bench.run_suite(quick=args.quick, names=names, progress=progress)
    if show:
        sys.stderr.write("\r\033[K")
    info = bench.machine_info()
    if args.json:
        print_json({"machine": info, "quick": args.quick, "results": [r.to_json() for r in results]})
    elif args.markdown:
        print(bench.format_markdown(results))
    else:
        print(f"mjfast bench{' --quick' if args.quick else ''}: {info['cpus']} CPUs, Python "
              f"{info['python']}, numpy {info['numpy']}, OPENBLAS_NUM_THREADS="
              f"{info['OPENBLAS_NUM_THREADS']}")
        print(bench.format_table(results))
    return 0
