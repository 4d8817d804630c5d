"""Fingerprint an adjudicator on the project's random workload, and time it beside ``batch``.

    python -m benchmarks.fingerprint --kind plain --turns 20000 --jobs 1 2   # the speed figures (fingerprint -j N, batch -j N)

    python -m benchmarks.fingerprint --engine dipsat --turns 2000          # speed: dipsat's own results
    python -m benchmarks.fingerprint --engine mila --turns 2000            # the MILA engine's readings
    python -m benchmarks.fingerprint --engine pydip --turns 2000 --kind rich

Run from the repository root.  The turns are those of :mod:`benchmarks.workload` (``--kind
plain``) or the rich workload with planted trouble spots (``rich``, ``mixed``:
:func:`benchmarks.peers.make_turn`).  With ``--engine dipsat`` each turn is adjudicated under
a preset and written as a ``dipsat fingerprint`` observation (the request plus ``expect`` = the
units after the turn and the units dislodged); with a peer the turns are written as they are and
the peer adjudicates them inside the fingerprint, as ``dipsat fingerprint --peer`` does
(:mod:`dipsat.research.fingerprint_peers`, the adapters of :mod:`dipsat.io.peers`).  The file is
fingerprinted (in this process, timed: for a peer, its adjudications included) and, for the
speed comparison, run through ``dipsat batch`` in this process too (one core: the same work
the fingerprint does per turn, without the readings).

Output: the fingerprint as ``dipsat fingerprint`` prints it, and the times (``--json`` for the
fingerprint's JSON).  ``-o FILE.jsonl`` keeps the observations (a peer's: the turns).
"""

from __future__ import annotations

if not __package__:  # run as a file: the relative imports below need the package
    raise SystemExit("run from the repository root: python -m benchmarks.fingerprint ...")

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

from dipsat.io.peers import observed

from .peers.engines import Dipsat, request_for_dipsat
from .peers.rich import make_turn


def observation(req: dict[str, Any], run: Any = None) -> dict[str, Any]:
    """A turn as a fingerprint input line: with ``run`` (what an engine made of it) an observation."""
    line = dict(request_for_dipsat(req))
    line.pop("rules", None)  # the readings are what is asked
    line["id"] = req.get("id")
    if run is not None:
        line["expect"] = observed(run)
    return line


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description="Fingerprint an engine on the random workload; time it beside batch.")
    ap.add_argument("--engine", choices=("dipsat", "mila", "pydip"), default="dipsat")
    ap.add_argument("--rules", default="datc", help="with --engine dipsat: the preset it adjudicates under")
    ap.add_argument("--turns", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kind", choices=("plain", "rich", "mixed"), default="mixed")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("-o", "--output", help="keep the observations (JSONL)")
    ap.add_argument("--jobs", type=int, nargs="+", default=[1],
                    help="worker processes to time with, each in turn (dipsat fingerprint -j N beside batch -j N)")
    args = ap.parse_args(argv)

    from dipsat.io.batch import BatchSettings, read_lines, run_batch
    from dipsat.io.batch_pool import run_pool
    from dipsat.research.fingerprint_run import run_fingerprint
    from dipsat.research.fingerprint_format import fingerprint_json, format_fingerprint
    from dipsat.research.fingerprint_inputs import read_inputs
    from dipsat.limits import DEFAULT_LIMITS, Limits
    from dipsat.research.fingerprint_peers import load_feed, peer_summary
    from dipsat.rules import preset

    feed, engine, opts = None, Dipsat() if args.engine == "dipsat" else None, {}
    if engine is not None:
        opts = preset(args.rules).model_dump(exclude={"name"})
    else:
        from dipsat.errors import DipsatError

        try:
            feed = load_feed(args.engine)
        except DipsatError as exc:
            print(exc, file=sys.stderr)
            return 2
    out = Path(args.output) if args.output else Path(tempfile.mkdtemp()) / "observations.jsonl"
    with out.open("w") as f:
        for i in range(args.turns):
            req = make_turn(args.seed, i, args.kind)
            f.write(json.dumps(observation(req, engine.run(req, **opts) if feed is None else None)) + "\n")
    limits = Limits(**{**DEFAULT_LIMITS.__dict__, "turn_time_limit": 600})
    figures = []
    for jobs in args.jobs:  # wall clock, and with one process CPU seconds too
        t0, c0 = time.perf_counter(), time.process_time()
        fp = run_fingerprint(lambda: feed.observations(read_inputs([str(out)], turns=True)) if feed
                             else read_inputs([str(out)]), "standard", limits, jobs=jobs)
        t_fp, c_fp = time.perf_counter() - t0, time.process_time() - c0
        plain = Path(tempfile.mkdtemp()) / "results.jsonl"
        t0, c0 = time.perf_counter(), time.process_time()
        with out.open("rb") as inp, plain.open("w") as res:
            if jobs <= 1:
                run_batch(inp, res)
            else:
                run_pool(read_lines(inp), res, BatchSettings(), jobs)
        t_batch, c_batch = time.perf_counter() - t0, time.process_time() - c0
        figures.append((jobs, t_fp, c_fp, t_batch, c_batch))
    if args.json:
        print(json.dumps(fingerprint_json(fp), indent=2, default=str))
    else:
        print((peer_summary(fp, feed) + "\n" if feed else "") + format_fingerprint(fp))
    refused = f", {len(feed.refused)} orders it refused" if feed else ""
    print(f"\n{args.engine}: {args.turns} {args.kind} turns (seed {args.seed}){refused}; load average "
          f"{os.getloadavg()[0]:.1f}", file=sys.stderr)
    for jobs, t_fp, c_fp, t_batch, c_batch in figures:
        cpu = (f"; CPU {c_fp:.1f} s against {c_batch:.1f} s: {c_fp / c_batch:.2f}x") if jobs <= 1 else ""
        print(f"  -j {jobs}: fingerprint {t_fp:.1f} s ({args.turns / t_fp:.0f} turns/s), batch of the same file "
              f"{t_batch:.1f} s ({args.turns / t_batch:.0f} turns/s): {t_fp / t_batch:.2f}x wall{cpu}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
