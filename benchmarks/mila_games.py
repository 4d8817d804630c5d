"""Random full games played by MILA, replayed by dipsat; every difference classified.

    python -m benchmarks.mila_games --seed 1 --games 300                # the scale run
    python -m benchmarks.mila_games --seed 1 --games 20 --last-year 1910

Run from the repository root.  Game *i* of a seed is always the same game
(:mod:`benchmarks.peers.mila_games`); each is replayed phase by phase with MILA-compatible
options (:data:`dipsat.io.mila.MILA_OPTIONS`), going on from MILA's position after a difference,
and every phase where the two differ is classified (:mod:`benchmarks.peers.mila_replay`): a MILA
reading that is another value of a dipsat rule option, or a documented MILA deviation from DATC
3.0 (``tests/corpora/peers/``), or ``unclassified`` (listed in full; exit status 1).

Output: a report on stdout and ``benchmarks/results/mila-games-seed<s>-<n>.json`` (``-o``).
"""

from __future__ import annotations

if not __package__:  # run as a file: the relative imports below need the package
    raise SystemExit("run from the repository root: python -m benchmarks.mila_games ...")

import argparse
import json
import sys
from pathlib import Path
from typing import Optional

from .peers.mila_replay import format_mila_report, run_mila_games

HERE = Path(__file__).resolve().parent


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description="Replay random MILA games in dipsat and classify every difference.")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--start", type=int, default=0, help="first game number")
    ap.add_argument("--last-year", type=int, default=1906, help="play each game to the end of this year")
    ap.add_argument("-o", "--output", help="JSON file (default benchmarks/results/mila-games-...json)")
    args = ap.parse_args(argv)
    say = lambda msg: print(msg, file=sys.stderr, flush=True)  # noqa: E731
    res = run_mila_games(args.seed, args.games, args.last_year, args.start, say)
    out = Path(args.output) if args.output else (
        HERE / "results" / f"mila-games-seed{args.seed}-{args.games}-to{args.last_year}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=1, default=list) + "\n", encoding="utf-8")
    print(format_mila_report(res))
    print(f"\nresults: {out}")
    return 1 if res["unclassified"] else 0


if __name__ == "__main__":
    sys.exit(main())
