"""Batch throughput: ``dipsat batch`` on 1 -> N local worker processes, and on 1 -> 2 Dask workers.

The same seeded workload turns (``benchmarks.workload``, 22-34 units each) are answered by
:func:`dipsat.io.batch_pool.run_pool` (the runner behind ``dipsat batch -j N``) and
:func:`dipsat.io.batch_dask.run_dask` (``--dask local``) on a LocalCluster of its own.  Two figures per run:

* *wall*: from the call to the last result written (worker start-up included);
* *steady*: turns per second between the 10th and the last result (start-up excluded) — the
  figure the targets speak of (2 cores >= 1.8x one core; 2 Dask workers >= 1.6x one).

The Dask runs are ``--dask local`` as the command runs it: :func:`run_dask` starts its own cluster
(with its quiet timers, :data:`dipsat.io.batch_dask.QUIET`, and its workers' collectors settled
as a pool worker's), so *wall* includes the cluster's start (about 1.5 s on 2 cores).  Until
28 Nov 2026 the benchmark started a cluster of Dask's defaults beforehand and gave run_dask its
address: a cluster of someone else's, whose workers keep their collectors and timers as they are.

Every run's output is checked to be identical to the 1-process run (same lines, same order).

    python -m benchmarks.batch_throughput --turns 3000 --jobs 1 2 --dask
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import time
from typing import Callable, Optional

from benchmarks.workload import generate
from dipsat.io.batch import BatchReport, BatchSettings, Line
from dipsat.io.batch_dask import run_dask
from dipsat.io.batch_pool import run_pool


def workload(turns: int, seed: int) -> list[Line]:
    return [Line(i + 1, json.dumps(t).encode()) for i, t in enumerate(generate(seed, turns))]


def timed(run: Callable[[Callable[[], None]], tuple[BatchReport, str]], n: int) -> tuple[float, float, str]:
    stamps: list[float] = []
    t0 = time.perf_counter()
    report, text = run(lambda: stamps.append(time.perf_counter()))
    wall = time.perf_counter() - t0
    assert report.ok + report.errors == n, (report, n)
    k = max(1, n // 10)
    steady = (n - k) / (stamps[-1] - stamps[k - 1]) if len(stamps) > k else float("nan")
    return n / wall, steady, text


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.batch_throughput", description=__doc__.split("\n\n")[0])
    ap.add_argument("--turns", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--dask", action="store_true", help="also 1 and 2 Dask workers (needs dipsat[dask])")
    args = ap.parse_args(argv)
    lines = workload(args.turns, args.seed)
    settings = BatchSettings()
    print(f"{args.turns} turns (seed {args.seed}), {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    reference: Optional[str] = None
    base: dict[str, float] = {}

    def report(label: str, kind: str, k: int, wall: float, steady: float, text: str) -> None:
        nonlocal reference
        if reference is None:
            reference = text
        same = "same output" if text == reference else "OUTPUT DIFFERS"
        if k == 1:
            base[kind] = steady
        ratio = steady / base[kind] if kind in base else float("nan")
        print(f"{label:<16} wall {wall:7.1f} turns/s   steady {steady:7.1f} turns/s   x{ratio:.2f} of 1   {same}")

    for k in args.jobs:
        def run_local(cb: Callable[[], None], k: int = k) -> tuple[BatchReport, str]:
            out = io.StringIO()
            return run_pool(lines, out, settings, jobs=k, on_result=cb), out.getvalue()
        report(f"pool -j {k}", "pool", k, *timed(run_local, len(lines)))
    if args.dask:
        for k in (1, 2):
            def run_cluster(cb: Callable[[], None], k: int = k) -> tuple[BatchReport, str]:
                out = io.StringIO()
                return run_dask(lines, out, settings, "local", jobs=k, on_result=cb), out.getvalue()
            report(f"dask {k} worker{'s' if k > 1 else ''}", "dask", k, *timed(run_cluster, len(lines)))
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
