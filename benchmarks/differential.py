"""Differential run: dipsat against the MILA ``diplomacy`` and ``pydip`` adjudicators.

    python -m benchmarks.differential --seed 1 --turns 10000          # the long run
    python -m benchmarks.differential --seed 1 --turns 300 --workload rich
    python -m benchmarks.differential --turn s1-r7                     # one turn, with evidence

Run from the repository root.  The engines, the documented deviations and the classifier are
the test-support package :mod:`benchmarks.peers` (its docstring has the method); this script
only runs many turns and writes the report.

Workloads (``--workload``): ``plain`` is :mod:`benchmarks.workload` (the benchmark's random legal
turns); ``rich`` starts from such a turn and plants the situations where adjudicators are known
to differ (:func:`benchmarks.peers.rich.rich_turn`); ``mixed`` (default) alternates the two (even
turn numbers plain, odd ones rich).  Turn ids: ``s<seed>-t<i>`` plain, ``s<seed>-r<i>`` rich.
Turn *i* of a seed is the same whatever ``--turns`` is.

Unclassified disagreements are listed in full: each is a dipsat bug or an undocumented peer
deviation (to be studied against the DATC, documented with its case and added to
:data:`benchmarks.peers.DEVIATIONS`).  For each class the report also says on how many of its
turns the *other* peer agrees with dipsat: an independent check that the class is the peer's
deviation.

Output: a report on stdout and ``benchmarks/results/differential-seed<s>-<workload>-<n>.json``
(``-o`` to choose).  The exit status is 1 when a disagreement is unclassified or an engine
failed or refused an order (the workloads make legal orders only), 0 otherwise.
"""

from __future__ import annotations

if not __package__:  # run as a file: the relative imports below need the package
    raise SystemExit("run from the repository root: python -m benchmarks.differential ...")

import argparse
import json
import sys
from pathlib import Path
from typing import Optional

from .peers import Dipsat, compare_turn, format_report, load_peers, make_turn, problems, run_differential, verdict_json

HERE = Path(__file__).resolve().parent


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description="Compare dipsat with MILA diplomacy and pydip on seeded random turns.")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turns", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0, help="first turn number")
    ap.add_argument("--workload", choices=("plain", "rich", "mixed"), default="mixed")
    ap.add_argument("--rich", action="store_const", const="rich", dest="workload", help="same as --workload rich")
    ap.add_argument("--peers", default="mila,pydip", help="comma-separated subset of mila,pydip")
    ap.add_argument("--examples", type=int, default=3, help="examples kept per class")
    ap.add_argument("-o", "--output", help="JSON file (default benchmarks/results/differential-...json)")
    ap.add_argument("--turn", help="adjudicate one turn id (s1-t12, s1-r7) and print everything")
    args = ap.parse_args(argv)
    say = lambda msg: print(msg, file=sys.stderr, flush=True)  # noqa: E731
    peer_names = tuple(x.strip() for x in args.peers.split(",") if x.strip())

    if args.turn:
        s, _, rest = args.turn.partition("-")
        req = make_turn(int(s[1:]), int(rest[1:]), "rich" if rest[0] == "r" else "plain")
        dipsat = Dipsat()
        peers, missing = load_peers(peer_names)
        print(json.dumps(req, indent=1))
        rep = compare_turn(req, dipsat, peers)
        print(f"agree: {rep.agreed}; missing: {missing}")
        for v in rep.verdicts:
            print(json.dumps(verdict_json(v, req), indent=1))
        for f in rep.failures + rep.refused:
            print(f)
        return 0

    res = run_differential(args.seed, args.turns, args.workload, args.start, peer_names, args.examples, say)
    out = Path(args.output) if args.output else (
        HERE / "results" / f"differential-seed{args.seed}-{args.workload}-{args.turns}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=1, default=list) + "\n", encoding="utf-8")
    print(format_report(res, args.examples))
    print(f"\nresults: {out}")
    return 1 if problems(res) else 0


if __name__ == "__main__":
    sys.exit(main())
