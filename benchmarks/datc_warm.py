"""DATC in-process, warm: the 164 DATC 3.0 cases under the default preset, run again and again
in one process after a warm-up pass.

    python -m benchmarks.datc_warm --passes 15

Three figures per pass, each the median over ``--passes`` passes (seconds for all 164 cases):

* *adjudicate*: :func:`dipsat.adjudicate` of each case's request, built once beforehand (the
  engine: validation, parsing, legality, equations, solving, explanations);
* *adjudicate, no explanations*: the same with ``explain=False`` (result codes and culprits,
  no strength terms or reasons), what ``dipsat batch`` does by default;
* *corpus*: :func:`dipsat.io.corpus.run_expectation` of each case (adjudicate plus comparing the
  result with the case's expectations; the files are read once, before the clock).

Run from the repository root.  The target is 0.15 s for the 164 cases.  The load average is
printed: on a shared machine compare the figures of one run, not figures of different runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Optional

from dipsat.game.api import TurnRequest, adjudicate
from dipsat.io.corpus import case_files, load_case, run_expectation

ROOT = Path(__file__).resolve().parent.parent
DATC = ROOT / "tests" / "corpora" / "datc"


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.datc_warm", description=__doc__.split("\n\n")[0])
    ap.add_argument("--passes", type=int, default=15)
    ap.add_argument("--profile", action="store_true", help="print a cProfile of one more pass of the engine")
    args = ap.parse_args(argv)
    runs = []
    for f in case_files([DATC]):
        case = load_case(f)
        exp = next(e for e in case.expect if "datc" in e.rules)
        runs.append((case, exp, str(f)))
    requests = [TurnRequest(variant=c.variant, rules="datc", options=dict(e.options), phase=c.phase, units=c.units,
                            orders=c.orders, owners=c.owners, retreat_orders=c.retreat_orders) for c, e, _ in runs]
    failed = [c.id for c, e, f in runs if not run_expectation(c, "datc", e, f).passed]  # also the warm-up
    assert not failed, f"DATC cases failing: {failed}"

    def engine() -> None:
        for r in requests:
            adjudicate(r)

    def lean() -> None:
        for r in requests:
            adjudicate(r, explain=False)

    def corpus() -> None:
        for c, e, f in runs:
            run_expectation(c, "datc", e, f)

    jobs: dict[str, Callable[[], None]] = {"adjudicate": engine, "adjudicate, no explanations": lean, "corpus": corpus}
    times: dict[str, list[float]] = {k: [] for k in jobs}
    load = os.getloadavg()[0]
    for _ in range(args.passes):
        for name, job in jobs.items():  # taking turns: a busy machine slows them alike
            t = time.perf_counter()
            job()
            times[name].append(time.perf_counter() - t)
    print(f"DATC 3.0, {len(runs)} cases (preset datc), {args.passes} warm passes; {os.cpu_count()} cores, "
          f"load average {load:.1f} before, {os.getloadavg()[0]:.1f} after")
    print(f"{'pass':<30} {'median s':>9} {'min s':>7} {'ms/case':>8}")
    for name, xs in times.items():
        print(f"{name:<30} {statistics.median(xs):9.3f} {min(xs):7.3f} {statistics.median(xs) / len(runs) * 1000:8.2f}")
    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.runcall(engine)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
