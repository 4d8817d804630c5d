"""Fingerprint an adjudicator on the project's random workload, and time it beside ``batch``.

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
    args = ap.parse_args(argv)

    from dipsat.io.batch import run_batch
    from dipsat.research.fingerprint import fingerprint
    from dipsat.research.fingerprint_format import fingerprint_json, format_fingerprint
    from dipsat.research.fingerprint_inputs import read_inputs
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
    t0 = time.perf_counter()
    items = read_inputs([str(out)], turns=feed is not None)
    fp = fingerprint(feed.observations(items) if feed else items, "standard", time_limit=600)
    t_fp = time.perf_counter() - t0
    plain = Path(tempfile.mkdtemp()) / "results.jsonl"
    t0 = time.perf_counter()
    with out.open("rb") as inp, plain.open("w") as res:
        run_batch(inp, res)
    t_batch = time.perf_counter() - t0
    if args.json:
        print(json.dumps(fingerprint_json(fp), indent=2, default=str))
    else:
        print((peer_summary(fp, feed) + "\n" if feed else "") + format_fingerprint(fp))
    refused = f", {len(feed.refused)} orders it refused" if feed else ""
    print(f"\n{args.engine}: {args.turns} {args.kind} turns (seed {args.seed}){refused}; "
          f"fingerprint {t_fp:.1f} s ({1000 * t_fp / args.turns:.1f} ms/turn), "
          f"batch of the same file {t_batch:.1f} s ({1000 * t_batch / args.turns:.1f} ms/turn): "
          f"{t_fp / t_batch:.1f}x", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
