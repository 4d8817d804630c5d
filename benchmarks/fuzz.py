"""Hostile-input fuzzing of the real ``dipsat`` commands (issues 11, 24, 26).

Every input goes through ``dipsat.face.cli.main([...])`` exactly as a user's command line would, with
standard output and error captured, or through ``python -m dipsat.face.cli`` in a process of its own,
and is checked for:

* no Python traceback and no ``internal error`` (exit status 3) — a *crash*;
* a documented exit status (0, 1 or 2; see the table in docs/cli.md);
* an error message on standard error whenever the status is 2;
* for ``batch``: exactly one output line per input line that is not blank or a comment, in input
  order, each a JSON object with ``line`` and ``ok`` — a missing or extra line is a *lost line*;
  no line answered ``internal_error`` or ``worker_died``;
* a single-turn command (``adjudicate``, ``explore``, ``why``, ``readings``, ``render``) ends
  within its ``--time-limit`` plus 5 s (plus 3 s of start-up for a process) — else it is *slow*.
  What counts is its wall time less the time its main thread waited for a processor while
  runnable (Linux's ``/proc/.../schedstat``: on a machine loaded by others a 2 s process took 40 s
  of wall time, 38 of them in the run queue); time computing, sleeping or blocked all counts, so a
  hang is still slow.  Wall time alone and processor time are counted and reported beside.

Inputs (:mod:`benchmarks.fuzz_inputs`) are drawn from seeded ``random.Random`` streams (never the global state): valid turns of
the benchmark workload, hand-written Multiplomacy/Multinational requests, and the examples and
corpus cases of all six variants (continents and Supremacy rounds, drills, stages and games among
them; Supremacy game files made from its game cases), then damaged bytes (flips, cuts, inserted
bytes such as ``\\xff``/NUL/quotes/brackets), deep nesting, huge numbers, wrong types, unknown
names, oversize requests, and a value anywhere in the tree replaced (a malformed ``expect``,
``bids = null``, a string where a count goes, a table where a list goes), a key dropped or put at
the wrong level, a map or board pointing out of its folder.  Commands: ``batch`` (many lines per
run), ``adjudicate``, ``corpus``, ``play``, ``explore``, ``why``, ``readings``, ``render``,
``compare``, ``coverage``, ``odds``, ``wealth`` (one file each, in this process), and a share of
the files again as separate processes, run beside the rest (``--process-jobs`` at a time).

Each finding's input is written to the findings folder (``--findings``: ``NNNN-COMMAND.input.*``,
and ``NNNN-COMMAND.finding.json`` beside it with the command line, the problem, and the seed and
input number that made it) and can be run again: ``python -m benchmarks.fuzz --replay FOLDER`` says which still fail.  A batch run with a
finding is saved whole as well as the failing line alone (a crash may depend on the lines a
worker answered before it).

    python -m benchmarks.fuzz --inputs 100000 --seed 1 --processes 5000   # the long run
    python -m benchmarks.fuzz --family supremacy --inputs 5000             # Supremacy's inputs only

``--minutes M`` (or SIGTERM) stops starting new inputs and prints the figures of what ran.  The
test suite runs a few hundred inputs of the same generator (``tests/test_fuzz_commands.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from benchmarks.fuzz_inputs import TIME_LIMIT, command_line, hostile_file, hostile_json
from dipsat.face.cli import main as dipsat_main

DOCUMENTED = {0, 1, 2}
SINGLE_TURN = {"adjudicate", "explore", "why", "readings", "render"}
COMMANDS = ["adjudicate", "adjudicate", "adjudicate", "corpus", "play", "explore", "why", "readings", "render",
            "compare", "coverage", "odds", "wealth"]
FAMILIES = ("all", "supremacy")


# -- what a run finds -----------------------------------------------------------------------------


@dataclass
class Finding:
    command: str
    problem: str
    input: bytes
    saved: str = ""  # the file the input was written to

    def __str__(self) -> str:
        shown = self.input[:300]
        where = f"\n    saved: {self.saved}" if self.saved else ""
        return f"{self.command}: {self.problem}\n    input: {shown!r}{'...' if len(self.input) > 300 else ''}{where}"


@dataclass
class Tally:
    inputs: Counter[str] = field(default_factory=Counter)
    statuses: Counter[str] = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    lines_lost: int = 0
    slow: int = 0  # single-turn runs past the time limit + 5 s in wall time less waiting for a processor
    slow_wall: int = 0  # ... past it in wall time alone (held back by the machine's load, or slow)
    slow_cpu: int = 0  # ... past it in processor time
    processes: int = 0  # inputs run as separate processes
    seconds: Counter[str] = field(default_factory=Counter)  # wall time per command
    longest: dict[str, tuple[float, float, float]] = field(default_factory=dict)  # command: (wall, cpu, waited) of its slowest run
    line_timeouts: int = 0  # batch lines answered 'timeout' (their own limit; not a finding)
    findings_dir: Optional[Path] = None
    seed: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def crashes(self) -> int:
        return sum(1 for f in self.findings if f.problem.startswith("crash"))

    @property
    def total(self) -> int:
        return sum(self.inputs.values())

    def add(self, finding: Finding, argv: list[str], suffix: str, number: int) -> None:
        """Keep ``finding`` and write its input (and how to run it again) to the findings folder."""
        if self.findings_dir is not None:
            self.findings_dir.mkdir(parents=True, exist_ok=True)
            k = len(self.findings) + 1
            name = f"{k:04d}-{finding.command.split()[0]}"
            path = self.findings_dir / f"{name}.input{suffix}"
            path.write_bytes(finding.input)
            meta = {"argv": argv, "problem": finding.problem, "seed": self.seed, "input_number": number,
                    "process": finding.command.endswith("(process)")}
            (self.findings_dir / f"{name}.finding.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
            finding.saved = str(path)
        self.findings.append(finding)


INPUT = "{input}"  # the place of the input file in a saved command line


def run_command(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = dipsat_main(argv)
        except SystemExit as exc:  # must not happen: main returns its status
            code = 1000 + (exc.code if isinstance(exc.code, int) else 0)
    return code, out.getvalue(), err.getvalue()


def run_queue_wait(task: str) -> Optional[float]:
    """Seconds the task (``self/task/N``, ``N``) has waited, runnable, for a processor; None where
    Linux's scheduler statistics are not to be read."""
    try:
        return int(Path(f"/proc/{task}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


class _Timed(subprocess.Popen):  # type: ignore[type-arg]
    """A child whose processor time is read when it is reaped (os.wait4), and the time its main
    thread waited for a processor just before (its /proc entry stays until it is reaped)."""

    cpu = 0.0
    waited = 0.0

    def _try_wait(self, wait_flags: int) -> tuple[int, int]:  # Popen's own, with os.wait4
        try:
            if os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOWAIT | (wait_flags & os.WNOHANG)) is not None:
                self.waited = run_queue_wait(str(self.pid)) or 0.0  # ended, not yet reaped
            pid, status, usage = os.wait4(self.pid, wait_flags)
        except ChildProcessError:  # reaped elsewhere: as Popen does
            return self.pid, 0
        if pid:
            self.cpu = usage.ru_utime + usage.ru_stime
        return pid, status


def run_process(argv: list[str], timeout: float) -> tuple[int, str, str, float, float]:
    """``python -m dipsat.face.cli ARGV`` in a process of its own; with its processor time and the
    time its main thread waited for a processor."""
    proc = _Timed([sys.executable, "-m", "dipsat.face.cli", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                  text=True, errors="replace")
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return 4000, "", f"killed after {timeout:g} s", proc.cpu, proc.waited
    return proc.returncode, out, err, proc.cpu, proc.waited


def problem_of(code: int, out: str, err: str) -> Optional[str]:
    if "Traceback" in out + err or code == 3 or "internal error" in err:
        return f"crash (status {code}): {err.strip()[-500:]}"
    if code not in DOCUMENTED:
        return f"undocumented exit status {code}"
    if code == 2 and "error" not in err:
        return "status 2 without an error message"
    return None


def check_status(tally: Tally, command: str, code: int, out: str, err: str, data: bytes,
                 argv: Optional[list[str]] = None, suffix: str = ".txt", number: int = 0) -> None:
    with tally.lock:
        tally.statuses[f"{command} {code}"] += 1
        problem = problem_of(code, out, err)
        if problem is not None:
            tally.add(Finding(command, problem, data), argv or [command, INPUT], suffix, number)


def batch_problems(data: bytes, output: str) -> tuple[list[tuple[int, str]], int, int]:
    """The crashed lines (number, message), the lines lost and the lines answered 'timeout' of a
    batch run over ``data`` that wrote ``output``."""
    expected = [i + 1 for i, raw in enumerate(data.split(b"\n")) if raw.strip() and not raw.strip().startswith(b"#")]
    got: list[int] = []
    crashed: list[tuple[int, str]] = []
    timeouts = 0
    for text in output.splitlines():
        try:
            obj = json.loads(text)
            number, ok = obj["line"], obj["ok"]
        except (ValueError, KeyError, TypeError):
            crashed.append((0, f"an output line that is not a result: {text[:200]}"))
            continue
        got.append(number)
        if not isinstance(ok, bool):
            crashed.append((number, f"a result without ok: {text[:200]}"))
        elif not ok and obj["error"]["kind"] in ("internal_error", "worker_died"):
            crashed.append((number, f"crash on line {number}: {obj['error']['message']}"))
        elif not ok and obj["error"]["kind"] == "timeout":
            timeouts += 1
    lost = 0 if got == expected else max(len(set(expected) ^ set(got)), 1)
    return crashed, lost, timeouts


def fuzz_batch(rng: random.Random, tally: Tally, n: int, workdir: Path, jobs: int = 2, family: str = "all",
               number: int = 0) -> None:
    lines = []
    for _ in range(n):
        r = rng.random()
        lines.append(b"" if r < 0.03 else b"# comment" if r < 0.05 else
                     hostile_json(rng, family).replace(b"\n", b" ").replace(b"\r", b" "))
    data = b"\n".join(lines) + (b"\n" if rng.random() < 0.8 else b"")
    inp, outp = workdir / "in.jsonl", workdir / "out.jsonl"
    inp.write_bytes(data)
    argv = ["batch", INPUT, "-o", "out.jsonl", "-j", str(jobs), "-q"]
    code, out, err = run_command(["batch", str(inp), "-o", str(outp), "-j", str(jobs), "-q"])
    output = outp.read_text(encoding="utf-8") if outp.exists() else ""
    crashed, lost, timeouts = batch_problems(data, output)
    with tally.lock:
        tally.inputs["batch"] += n
        tally.line_timeouts += timeouts
    check_status(tally, "batch", code, out, err, data, argv, ".jsonl", number)
    with tally.lock:
        if crashed or lost:
            tally.add(Finding("batch", f"the whole run of {n} lines (its findings follow)", data), argv, ".jsonl", number)
        for line_number, message in crashed:
            line = data.split(b"\n")[line_number - 1] + b"\n" if line_number else b""
            tally.add(Finding("batch", message, line), argv, ".jsonl", number)
        if lost:
            tally.lines_lost += lost
            got = [json.loads(t).get("line") for t in output.splitlines()[:20] if t.startswith("{")]
            tally.add(Finding("batch", f"lines lost: output lines {got}... differ from the input's", data), argv,
                      ".jsonl", number)


def fuzz_file(rng: random.Random, tally: Tally, workdir: Path, process: bool = False, family: str = "all",
              number: int = 0) -> None:
    command = rng.choice(COMMANDS)
    suffix, data = hostile_file(rng, family, command)
    path = workdir / "req" / f"input{suffix}"
    path.parent.mkdir(exist_ok=True)
    (workdir / "secret.toml").write_text('password = "x"\n')
    path.write_bytes(data)
    argv = [command, INPUT, *command_line(rng, command)]
    real = [str(path) if a == INPUT else a for a in argv]
    name = command + (" (process)" if process else "")
    me = f"self/task/{threading.get_native_id()}"  # the in-process runs are on this (the main) thread
    t, c, w = time.monotonic(), time.process_time(), run_queue_wait(me) or 0.0
    if process:
        code, out, err, cpu, waited = run_process(real, timeout=TIME_LIMIT * 20 + 60)
    else:
        code, out, err = run_command(real)
        cpu = time.process_time() - c  # this process's
        waited = (run_queue_wait(me) or 0.0) - w
    took = time.monotonic() - t
    with tally.lock:
        tally.inputs[name] += 1
        tally.processes += process
        tally.seconds[name] += took
        if took > tally.longest.get(name, (0.0, 0.0, 0.0))[0]:
            tally.longest[name] = (took, cpu, waited)
    check_status(tally, name, code, out, err, data, argv, suffix, number)
    bound = TIME_LIMIT + 5 + (3 if process else 0)  # + a start-up
    if command in SINGLE_TURN and took > bound:
        with tally.lock:
            tally.slow_wall += 1
            tally.slow_cpu += cpu > TIME_LIMIT + 5
            if took - waited > bound:  # not only held back by the machine's load
                tally.slow += 1
                tally.add(Finding(name, f"slow: {took:.1f} s, {took - waited:.1f} s of it not waiting for a processor "
                                        f"({cpu:.1f} s of processor time) with --time-limit {TIME_LIMIT:g}", data),
                          argv, suffix, number)


# -- a run ----------------------------------------------------------------------------------------


class Stop:
    """Set by SIGTERM or when the run's time is up: no new input starts."""

    def __init__(self, minutes: Optional[float] = None) -> None:
        self.end = None if minutes is None else time.monotonic() + 60 * minutes
        self.flag = threading.Event()

    def __call__(self) -> bool:
        if self.end is not None and time.monotonic() > self.end:
            self.flag.set()
        return self.flag.is_set()


def _processes(seed: int, tally: Tally, n: int, workdir: Path, stop: Stop, family: str, jobs: int) -> list[threading.Thread]:
    """``n`` files run as separate processes, ``jobs`` at a time, in threads beside the rest of the
    run (each thread its own seeded stream of inputs)."""
    def work(k: int) -> None:
        rng = random.Random(f"dipsat-fuzz:{seed}:processes:{k}")
        d = workdir / f"p{k}"
        d.mkdir()
        for i in range(k, n, jobs):
            if stop():
                return
            fuzz_file(rng, tally, d, process=True, family=family, number=-(i + 1))

    threads = [threading.Thread(target=work, args=(k,), daemon=True) for k in range(jobs)]
    for th in threads:
        th.start()
    return threads


def fuzz(inputs: int, seed: int, batch_share: float = 0.6, batch_size: int = 2000, jobs: int = 2,
         progress: bool = False, processes: int = 0, family: str = "all", findings: Optional[Path] = None,
         process_jobs: int = 1, stop: Optional[Stop] = None) -> Tally:
    """Run ``inputs`` hostile inputs: ``batch_share`` of them as batch lines (``batch_size`` per
    run), the rest as files, one command each; ``processes`` of the files in a process of their
    own (``process_jobs`` at a time, beside the others).  Batch runs and files alternate, so a run
    stopped early (``stop``) has tried each kind in its share."""
    rng = random.Random(f"dipsat-fuzz:{seed}")
    stop = stop or Stop()
    tally = Tally(findings_dir=findings, seed=seed)
    n_batch = int(inputs * batch_share)
    n_files = inputs - n_batch - processes
    if n_files < 0:
        raise ValueError("more processes than files: lower --processes or --batch-share")
    start = time.monotonic()
    last = start
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        threads = _processes(seed, tally, processes, workdir, stop, family, max(1, process_jobs)) if processes else []
        lines = files = 0
        while (lines < n_batch or files < n_files) and not stop():
            # whichever kind is behind its share goes next
            if lines < n_batch and (files >= n_files or lines / n_batch <= files / n_files):
                k = min(batch_size, n_batch - lines)
                fuzz_batch(rng, tally, k, workdir, jobs, family, number=lines + 1)
                lines += k
            else:
                files += 1
                fuzz_file(rng, tally, workdir, family=family, number=n_batch + files)
            if progress and time.monotonic() - last > 60:
                last = time.monotonic()
                print(f"  {last - start:.0f} s: {lines:,}/{n_batch:,} batch lines, {files:,}/{n_files:,} files, "
                      f"{tally.processes:,}/{processes:,} processes; {len(tally.findings)} findings", file=sys.stderr)
        for th in threads:
            while th.is_alive():
                th.join(timeout=60)
                if progress and th.is_alive():
                    print(f"  {time.monotonic() - start:.0f} s: {tally.processes:,}/{processes:,} processes",
                          file=sys.stderr)
    return tally


def report(tally: Tally, seconds: float, seed: int, stopped: bool) -> str:
    lines = [f"inputs tried: {tally.total:,} in {seconds:.0f} s (seed {seed})" + (" — stopped early" if stopped else "")]
    lines += [f"  {command}: {n:,}" for command, n in sorted(tally.inputs.items())]
    lines.append("exit statuses: " + ", ".join(f"{k}: {v:,}" for k, v in sorted(tally.statuses.items())))
    lines.append(f"separate processes: {tally.processes:,}")
    lines.append("seconds per command: " + ", ".join(f"{k}: {v:.0f}" for k, v in sorted(tally.seconds.items())))
    lines.append("slowest run per command (wall / processor / waiting for a processor, s): "
                 + ", ".join(f"{k}: {w:.1f}/{c:.1f}/{q:.1f}" for k, (w, c, q) in sorted(tally.longest.items())))
    lines.append(f"crashes (internal errors): {tally.crashes}")
    lines.append(f"runs past the time limit + 5 s: {tally.slow} in wall time less waiting for a processor "
                 f"({tally.slow_wall} in wall time alone, {tally.slow_cpu} in processor time)")
    lines.append(f"lines lost: {tally.lines_lost}")
    lines.append(f"batch lines answered 'timeout' (their own limit): {tally.line_timeouts}")
    lines.append(f"other findings: {len(tally.findings) - tally.crashes - tally.slow}")
    lines += [str(f) for f in tally.findings[:20]]
    return "\n".join(lines)


def replay(folder: Path) -> int:
    """Run every saved finding of ``folder`` again (each as it ran: in this process or in its own);
    print which still fail.  Returns how many do."""
    failing = 0
    metas = sorted(folder.glob("*.finding.json")) if folder.is_dir() else [folder]
    for meta_path in metas:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        argv = meta["argv"]
        inputs = list(meta_path.parent.glob(meta_path.name.removesuffix(".finding.json") + ".input.*"))
        if not inputs:
            print(f"{meta_path.name}: its input is missing")
            failing += 1
            continue
        with tempfile.TemporaryDirectory() as tmp:
            inp = Path(tmp) / "req" / f"input{inputs[0].suffix}"
            inp.parent.mkdir()
            inp.write_bytes(inputs[0].read_bytes())
            (Path(tmp) / "secret.toml").write_text('password = "x"\n')
            real = [str(inp) if a == INPUT else str(Path(tmp) / a) if a == "out.jsonl" else a for a in argv]
            me = f"self/task/{threading.get_native_id()}"
            t, w = time.monotonic(), run_queue_wait(me) or 0.0
            if meta.get("process"):
                code, out, err, _, waited = run_process(real, timeout=TIME_LIMIT * 20 + 60)
            else:
                code, out, err = run_command(real)
                waited = (run_queue_wait(me) or 0.0) - w
            took = time.monotonic() - t - waited
            problem = problem_of(code, out, err)
            if argv[0] == "batch" and problem is None:
                outp = Path(tmp) / "out.jsonl"
                crashed, lost, _ = batch_problems(inp.read_bytes(), outp.read_text(encoding="utf-8") if outp.exists() else "")
                problem = crashed[0][1] if crashed else f"{lost} lines lost" if lost else None
            if problem is None and argv[0] in SINGLE_TURN and took > TIME_LIMIT + 5 + 3 * bool(meta.get("process")):
                problem = f"slow: {took:.1f} s not waiting for a processor"
        failing += problem is not None
        print(f"{inputs[0].name}: {'still fails: ' + problem if problem else 'passes now'} (was: {meta['problem'][:200]})")
    return failing


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.fuzz", description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch-share", type=float, default=0.6, help="share of the inputs given as batch lines")
    ap.add_argument("--batch-size", type=int, default=2000, help="lines per batch run")
    ap.add_argument("--jobs", type=int, default=2, help="batch's -j")
    ap.add_argument("--processes", type=int, default=0, help="how many of the files run as separate processes")
    ap.add_argument("--process-jobs", type=int, default=1, help="how many of those run at a time")
    ap.add_argument("--family", choices=FAMILIES, default="all", help="the inputs' sources: every variant, or one")
    ap.add_argument("--findings", type=Path, default=Path("fuzz-findings"),
                    help="folder the findings' inputs are written to (default ./fuzz-findings/seed-N)")
    ap.add_argument("--minutes", type=float, help="start no new input after this many minutes")
    ap.add_argument("--replay", type=Path, metavar="FOLDER", help="run the findings saved in FOLDER again")
    args = ap.parse_args(argv)
    if args.replay:
        return 1 if replay(args.replay) else 0
    stop = Stop(args.minutes)
    signal.signal(signal.SIGTERM, lambda signum, frame: stop.flag.set())
    t0 = time.monotonic()
    tally = fuzz(args.inputs, args.seed, args.batch_share, args.batch_size, jobs=args.jobs, progress=True,
                 processes=args.processes, family=args.family, findings=args.findings / f"seed-{args.seed}",
                 process_jobs=args.process_jobs, stop=stop)
    print(report(tally, time.monotonic() - t0, args.seed, stop.flag.is_set()))
    if tally.findings:
        print(f"findings saved in {args.findings / f'seed-{args.seed}'} (run them again: --replay FOLDER)")
    return 0 if not tally.findings and not tally.lines_lost else 1


if __name__ == "__main__":
    sys.exit(main())
