"""Instructions, not seconds: whole processes of dipsat and the peers counted by cachegrind.

    python -m benchmarks.instructions --turns 100            # a few minutes: valgrind is ~50x slower

On a shared machine wall-clock figures move by tens of per cent from one minute to the next; the
number of instructions a process executes barely moves (a few tenths of a per cent: hash seeds,
addresses), so a 3 % step shows.  Each command runs as a fresh process under ``valgrind
--tool=cachegrind --cache-sim=no --trace-children=yes`` (every process it starts is counted too:
``dipsat batch``'s forkserver and workers) and its instructions (``Ir``) are the sum over the
processes (a forked worker's less what it inherited: :func:`count`).  Each engine runs twice, on no turns and on ``--turns`` turns of the seeded workload
(``benchmarks.workload``, seed ``--seed``), so a whole run splits into *start-up* (the run on
no turns) and *per turn* ((whole - start-up) / turns):

* ``python -c pass``: the interpreter alone;
* ``dipsat adjudicate examples/spring1901.toml``: the cold start of one acyclic turn;
* ``dipsat batch -j J`` of the turns as JSONL (``-o`` a file): reading, validating, adjudicating
  (no explanations) and writing every result as JSON;
* ``pydip`` and ``mila``: their loops (:mod:`benchmarks.peers.loops`) over the same turns, prepared
  beforehand in the peer's own terms (pydip names and command tuples, MILA strings) and read from
  a JSON file; a peer that is not installed is left out.

``--per-line`` counts instead what one batch line costs a worker: ``dipsat.io.batch.answer_text``
over ``--turns`` lines in one process (after 20 warm-up lines and the workers' collector settings),
less the same process answering none, without and with explanations.

Reported: the three figures per engine, and dipsat/peer ratios of each (below 1: dipsat executes
fewer instructions).  ``--wall R`` times the same whole processes without valgrind instead, the
engines taking turns R times (median seconds; noisy on a shared machine: say so beside them).  Instructions are not time (a cache miss costs more than an add, OR-Tools'
native code differs from Python's loop), but on one machine and one interpreter they follow it
closely enough to compare steps and engines.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
LIMIT = "600"  # seconds a turn may take: valgrind runs ~50x slower, on a loaded machine more


def count(cmd: list[str], work: Path, label: str) -> int:
    """Instructions executed by ``cmd`` and every process it starts (cachegrind's Ir, summed).

    A forked child (``-j 2``'s workers, forked by the forkserver) starts with its parent's counts:
    valgrind copies them with the process.  Such a child is told from an exec'd one by its log
    (its parent's process id and the same command line), and its parent's count is taken off its
    own -- the parent's final count, which is more than it had at the fork by what it did after
    (the forkserver's loop and its shut-down: a few million instructions), so a forked worker is
    undercounted by that much, where it was counted with the whole of its parent before."""
    out = work / f"cg-{label}"
    out.mkdir()
    subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--trace-children=yes",
                    f"--cachegrind-out-file={out}/%p", f"--log-file={out}/%p.log", *cmd], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return sum_counts(out)


def sum_counts(folder: Path) -> int:
    """The instructions of the processes whose cachegrind files (``<pid>``, and valgrind's log
    ``<pid>.log``) are in ``folder``: a forked child's less its parent's (see :func:`count`)."""
    counts: dict[str, int] = {}
    parents: dict[str, tuple[str, str]] = {}  # pid -> (parent pid, command line)
    for f in folder.iterdir():
        text = f.read_text(errors="replace")
        if f.suffix == ".log":
            parent = re.search(r"Parent PID: (\d+)", text)
            command = re.search(r"Command: (.*)", text)
            parents[f.stem] = (parent.group(1) if parent else "", command.group(1) if command else "")
        else:
            m = re.search(r"^summary:\s*(\d+)", text, re.M)
            if m:
                counts[f.name] = int(m.group(1))
    total = 0
    for pid, n in counts.items():
        parent, command = parents.get(pid, ("", ""))
        forked = parent in counts and parents.get(parent, ("", None))[1] == command
        total += n - counts[parent] if forked else n
    return total


def wall(cmds: dict[str, list[str]], runs: int) -> dict[str, float]:
    """Median wall seconds of each command, the commands taking turns ``runs`` times."""
    times: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(runs):
        for name, cmd in cmds.items():
            t = time.perf_counter()
            subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            times[name].append(time.perf_counter() - t)
    return {k: statistics.median(v) for k, v in times.items()}


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
    if importlib.util.find_spec("pydip"):
        from benchmarks.peers.engines import Pydip

        write("pydip", "[]", json.dumps([Pydip.spec(r) for r in reqs]), "json")
    if importlib.util.find_spec("diplomacy"):
        write("mila", "[]", json.dumps([to_mila(r) for r in reqs]), "json")
    return files


# One worker's turns in one process: 20 warm-up lines, the collector settled as a batch worker
# settles it, then N lines answered as a worker answers them (``dipsat.io.batch.answer_text``).
PER_LINE = """
import json, sys
from benchmarks import workload
from dipsat.io.batch import BatchSettings, answer_text
from dipsat.io.batch_pool import settle_gc
from dipsat.limits import DEFAULT_LIMITS, Limits
n, seed, explain = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
lines = [json.dumps(t).encode() for t in workload.generate(seed, 20 + {turns})]
# (a turn's time limit as the whole processes' --time-limit: valgrind runs ~50x slower)
settings = BatchSettings(explain=explain, limits=Limits(**{**DEFAULT_LIMITS.__dict__, "turn_time_limit": 600.0}))
for i, line in enumerate(lines[:20]):
    answer_text(line, i, settings)
settle_gc()
for i, line in enumerate(lines[20:20 + n]):
    answer_text(line, i, settings)
"""


def per_line(work: Path, turns: int, seed: int, explain: bool) -> float:
    """Instructions of one answered batch line in a worker-like process (no start-up, no pool):
    the run on ``turns`` lines less the run on none, over ``turns``; PYTHONHASHSEED=0."""
    code = PER_LINE.replace("{turns}", str(turns))
    env_cmd = ["env", "PYTHONHASHSEED=0", f"PYTHONPATH={ROOT}", sys.executable, "-c", code]
    zero = count([*env_cmd, "0", str(seed), str(int(explain))], work, f"line0-{explain}")
    full = count([*env_cmd, str(turns), str(seed), str(int(explain))], work, f"lineN-{explain}")
    return (full - zero) / turns


def _sources_stamp(folders: list[str]) -> list[tuple[str, int, int]]:
    """Every source file of the counted package, with its time of change and size: a figure is
    the difference of separate processes minutes apart, so a source edited between them (a
    worktree in use) would mix two versions into one figure."""
    out = []
    for folder in folders:
        for path in sorted(Path(folder).rglob("*.py")):
            st = path.stat()
            out.append((str(path), st.st_mtime_ns, st.st_size))
    return out


def _changed() -> int:
    print("dipsat's sources changed while they were counted, so the figures mix two versions: count "
          "again on a tree nobody edits meanwhile (e.g. a `git worktree` of the commit)", file=sys.stderr)
    return 3


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.instructions", description=__doc__.split("\n\n")[0])
    ap.add_argument("--turns", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="dipsat batch --jobs (default 1)")
    ap.add_argument("--engines", default="dipsat,pydip,mila")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    ap.add_argument("--wall", type=int, metavar="R", help="time the whole processes R times each instead (no valgrind)")
    ap.add_argument("--per-line", action="store_true", help="instead: dipsat's instructions per answered batch line "
                    "in one worker-like process, without and with explanations (no start-up, no pool)")
    args = ap.parse_args(argv)
    if not args.wall and not shutil.which("valgrind"):
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    engines = args.engines.split(",")
    # every count reads compiled modules, as an installed dipsat does: a process that compiles
    # what an earlier one left uncompiled (``PYTHONDONTWRITEBYTECODE`` unset) would count the
    # compiling in one figure and not the other (the per-line figure moved by ~1 M a line so)
    import compileall

    from benchmarks.coldstart import compile_package

    folders = compile_package()
    compileall.compile_dir(str(ROOT / "benchmarks"), quiet=1)
    stamp = _sources_stamp(folders)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        files = prepare(work, args.turns, args.seed)

        def cmd(name: str, path: Path) -> list[str]:
            if name == "dipsat":
                return _dipsat() + ["batch", str(path), "-o", str(work / "out.jsonl"), "-q", "-j", str(args.jobs),
                                    "--time-limit", LIMIT]
            return [sys.executable, "-m", "benchmarks.peers.loops", name, str(path)]

        if args.wall:
            cmds = {"python -c pass": [sys.executable, "-c", "pass"],
                    "dipsat adjudicate (acyclic)": _dipsat() + ["adjudicate", "examples/spring1901.toml"]}
            cmds |= {f"{n} {args.turns} turns": cmd(n, files[n][1]) for n in engines if n in files}
            medians = wall(cmds, args.wall)
            print(f"wall clock, median of {args.wall} runs taking turns, {os.cpu_count()} cores, load average "
                  f"{os.getloadavg()[0]:.1f} (noisy on a shared machine)")
            for k, v in medians.items():
                print(f"{k:<34}{v:8.3f} s")
            d = medians.get(f"dipsat {args.turns} turns")
            for n in engines:
                if n != "dipsat" and d and f"{n} {args.turns} turns" in medians:
                    print(f"dipsat/{n} whole process: {d / medians[f'{n} {args.turns} turns']:.2f}x")
            return 0
        if args.per_line:
            plain, explained = (per_line(work, args.turns, args.seed, e) for e in (False, True))
            if _sources_stamp(folders) != stamp:
                return _changed()
            print(f"cachegrind, {args.turns} turns of seed {args.seed}, one process; millions of instructions per "
                  f"batch line: {plain / 1e6:.2f} plain, {explained / 1e6:.2f} explained")
            return 0
        print(f"cachegrind, {args.turns} turns of seed {args.seed}; instructions in millions (whole processes)")
        base = count([sys.executable, "-c", "pass"], work, "pass")
        cold = count(_dipsat() + ["adjudicate", "examples/spring1901.toml", "--time-limit", LIMIT], work, "adjudicate")
        print(f"{'python -c pass':<34}{base / 1e6:10.1f}")
        print(f"{'dipsat adjudicate spring1901.toml':<34}{cold / 1e6:10.1f}   ({cold / base:.1f}x python -c pass)")
        figures: dict[str, dict[str, float]] = {}
        for name in engines:
            if name not in files:
                print(f"{name}: not installed")
                continue
            empty, full = files[name]
            start = count(cmd(name, empty), work, f"{name}-0")
            whole = count(cmd(name, full), work, f"{name}-n")
            if name == "dipsat":  # every line answered (a time-out under valgrind would be an error line)
                answered = [json.loads(x) for x in (work / "out.jsonl").read_text().splitlines()]
                assert len(answered) == args.turns and all(r["ok"] for r in answered), "dipsat batch failed lines"
            figures[name] = {"start": start, "whole": whole, "per_turn": (whole - start) / max(args.turns, 1)}
        if _sources_stamp(folders) != stamp:
            return _changed()
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
