"""Instructions, not seconds: whole processes of dipsat and the peers counted by cachegrind.

    python -m benchmarks.instructions --turns 100            # a few minutes: valgrind is ~50x slower

On a shared machine wall-clock figures move by tens of per cent from one minute to the next; the
number of instructions a process executes barely moves (a few tenths of a per cent: hash seeds,
addresses), so a 3 % step shows.  Each command runs as a fresh process under ``valgrind
--tool=cachegrind --cache-sim=no --trace-children=yes`` (every process it starts is counted too:
``dipsat batch``'s forkserver and workers) and its instructions (``Ir``) are the sum over the
processes.  Each engine runs twice, on no turns and on ``--turns`` turns of the seeded workload
(``benchmarks.workload``, seed ``--seed``), so a whole run splits into *start-up* (the run on
no turns) and *per turn* ((whole - start-up) / turns):

* ``python -c pass``: the interpreter alone;
* ``dipsat adjudicate examples/spring1901.toml``: the cold start of one acyclic turn;
* ``dipsat batch -j J`` of the turns as JSONL (``-o`` a file): reading, validating, adjudicating
  (no explanations) and writing every result as JSON;
* ``pydip`` and ``mila``: their loops (:mod:`benchmarks.peers.loops`) over the same turns, prepared
  beforehand in the peer's own terms (pydip names and command tuples, MILA strings) and read from
  a JSON file; a peer that is not installed is left out.

Reported: the three figures per engine, and dipsat/peer ratios of each (below 1: dipsat executes
fewer instructions).  Instructions are not time (a cache miss costs more than an add, OR-Tools'
native code differs from Python's loop), but on one machine and one interpreter they follow it
closely enough to compare steps and engines.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent


def count(cmd: list[str], work: Path, label: str) -> int:
    """Instructions executed by ``cmd`` and every process it starts (cachegrind's Ir, summed)."""
    out = work / f"cg-{label}"
    out.mkdir()
    subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--trace-children=yes",
                    f"--cachegrind-out-file={out}/%p", *cmd], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    total = 0
    for f in out.iterdir():
        m = re.search(r"^summary:\s*(\d+)", f.read_text(), re.M)
        if m:
            total += int(m.group(1))
    return total


def _dipsat() -> list[str]:
    exe = shutil.which("dipsat", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "dipsat.face.cli"]


def prepare(work: Path, turns: int, seed: int) -> dict[str, tuple[Path, Path]]:
    """Per engine: (its input on no turns, its input on ``turns`` turns)."""
    from benchmarks.workload import generate, to_mila

    reqs = generate(seed, turns)
    files: dict[str, tuple[Path, Path]] = {}

    def write(name: str, empty: str, text: str, ext: str) -> None:
        a, b = work / f"{name}-0.{ext}", work / f"{name}-{turns}.{ext}"
        a.write_text(empty)
        b.write_text(text)
        files[name] = (a, b)

    write("dipsat", "", "".join(json.dumps(r) + "\n" for r in reqs), "jsonl")
    try:
        from benchmarks.peers.engines import Pydip

        write("pydip", "[]", json.dumps([Pydip.spec(r) for r in reqs]), "json")
    except ImportError:
        pass
    try:
        import diplomacy  # noqa: F401

        write("mila", "[]", json.dumps([to_mila(r) for r in reqs]), "json")
    except ImportError:
        pass
    return files


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.instructions", description=__doc__.split("\n\n")[0])
    ap.add_argument("--turns", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="dipsat batch --jobs (default 1)")
    ap.add_argument("--engines", default="dipsat,pydip,mila")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = ap.parse_args(argv)
    if not shutil.which("valgrind"):
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    engines = args.engines.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        files = prepare(work, args.turns, args.seed)
        print(f"cachegrind, {args.turns} turns of seed {args.seed}; instructions in millions (whole processes)")
        base = count([sys.executable, "-c", "pass"], work, "pass")
        cold = count(_dipsat() + ["adjudicate", "examples/spring1901.toml"], work, "adjudicate")
        print(f"{'python -c pass':<34}{base / 1e6:10.1f}")
        print(f"{'dipsat adjudicate spring1901.toml':<34}{cold / 1e6:10.1f}   ({cold / base:.1f}x python -c pass)")
        figures: dict[str, dict[str, float]] = {}
        for name in engines:
            if name not in files:
                print(f"{name}: not installed")
                continue
            empty, full = files[name]

            def cmd(path: Path) -> list[str]:
                if name == "dipsat":
                    return _dipsat() + ["batch", str(path), "-o", str(work / "out.jsonl"), "-q", "-j", str(args.jobs)]
                return [sys.executable, "-m", "benchmarks.peers.loops", name, str(path)]

            start = count(cmd(empty), work, f"{name}-0")
            whole = count(cmd(full), work, f"{name}-n")
            figures[name] = {"start": start, "whole": whole, "per_turn": (whole - start) / max(args.turns, 1)}
        print(f"\n{'engine':<10}{'start-up M':>12}{'whole M':>10}{'per turn M':>12}")
        for name, f in figures.items():
            print(f"{name:<10}{f['start'] / 1e6:12.1f}{f['whole'] / 1e6:10.1f}{f['per_turn'] / 1e6:12.3f}")
        if "dipsat" in figures:
            d = figures["dipsat"]
            for name, f in figures.items():
                if name != "dipsat":
                    print(f"dipsat/{name}: start-up {d['start'] / f['start']:.2f}x, whole {d['whole'] / f['whole']:.2f}x, "
                          f"per turn {d['per_turn'] / f['per_turn']:.2f}x")
        if args.json:
            Path(args.json).write_text(json.dumps({"turns": args.turns, "seed": args.seed, "jobs": args.jobs,
                                                   "python_pass": base, "adjudicate": cold, "engines": figures},
                                                  indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
