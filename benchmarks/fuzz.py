"""Hostile-input fuzzing of the real ``dipsat`` commands (issue 11).

Every input goes through ``dipsat.face.cli.main([...])`` exactly as a user's command line would, with
standard output and error captured, and is checked for:

* no Python traceback and no ``internal error`` (exit status 3) — a *crash*;
* a documented exit status (0, 1 or 2; see the table in docs/cli.md);
* an error message on standard error whenever the status is 2;
* for ``batch``: exactly one output line per input line that is not blank or a comment, in input
  order, each a JSON object with ``line`` and ``ok`` — a missing or extra line is a *lost line*;
  no line answered ``internal_error`` or ``worker_died``.

Inputs are drawn from a seeded ``random.Random`` (never the global state): valid turns of the
benchmark workload, hand-written Multiplomacy/Multinational requests, and the examples and
corpus cases of all six variants (continents and Supremacy rounds, drills, stages and games
among them), then damaged bytes (flips, cuts, inserted bytes such as ``\\xff``/NUL/quotes/
brackets), deep nesting, huge numbers, wrong types, unknown names, oversize requests, and a value
anywhere in the tree replaced (a malformed ``expect``, ``bids = null``, a string where a count
goes), a key dropped, a map or board pointing out of its folder.  Commands: ``batch`` (many lines
per run), ``adjudicate``, ``corpus``, ``play``, ``explore``, ``why``, ``readings``, ``render``,
``compare``, ``coverage`` (one file each, in this process), and a share of them again as separate
processes (``python -m dipsat.face.cli``, as a user runs it).  A single-turn command that runs past its
``--time-limit`` plus 5 s is a *slow* finding.

    python -m benchmarks.fuzz --inputs 100000 --seed 1 --processes 5000   # the long run

The test suite runs a few hundred inputs of the same generator (``tests/test_fuzz_commands.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from benchmarks.workload import generate_turn
from dipsat.face.cli import main as dipsat_main

DOCUMENTED = {0, 1, 2}
NAMES = ["France", "england", "Atlantis", "CC", "EX", "Par", "Paris", "Bur", "Nth", "Spa(nc)", "stp/sc", "standard",
         "multiplomacy", "multinational", "datc", "1971", "bogus", "", " ", "–", "\u202e", "\x00", "é", "☃"]
ORDER_WORDS = ["A", "F", "E", "M", "P", "Par", "Bur", "Mun", "-", "S", "C", "H", "via", "convoy", "Spa", "(nc)", "/sc",
               "Lon", "Nth", "->", "–", "sup", "by", "FO", "AL", "2", "3", "0", "-1", "99999999999999999999", "Build",
               "Remove", "Waive", "Hold", "stands", "&", "R", "D", "Clm", "Mon", "Ida", "Ore"]
MULTI = [
    {"variant": "multiplomacy", "units": {"England": ["3 F Nth", "A Lon"], "France": ["2 A Par", "F Bre"]},
     "orders": {"England": ["2 F Nth sup F Lon"], "France": ["2 A Par-Bur"]}},
    {"variant": "multinational", "units": {"CC": ["E Clm", "M NPO"], "GM": ["E Alb", "P Mon"]},
     "orders": {"CC": ["E Clm S M NPO holds"], "GM": ["E Alb – Clm"]}},
]
WRONG = [None, True, 3, -5, 1.5, 1e308, "x", [], {}, [1, [2]], {"a": {"b": 1}}, "A Par", ["A Par"], {"France": "A Par"}]
ROOT = Path(__file__).resolve().parent.parent
PATHS = ["../secret.toml", "/dev/zero", "/etc/passwd", "continents_six", "world", "nope.toml", ".."]
TIME_LIMIT = 3.0  # --time-limit of the commands run here; a single-turn command past it + 5 s is slow
SINGLE_TURN = {"adjudicate", "explore", "why", "readings", "render"}


def _load_sources() -> list[dict[str, Any]]:
    """The examples and corpus cases of every variant, as data (read once)."""
    import tomllib

    out = []
    files = sorted((ROOT / "examples").glob("*.toml")) + sorted((ROOT / "tests" / "corpora").glob("*/*.toml"))
    for f in files:
        try:
            data = tomllib.loads(f.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            out.append(json.loads(json.dumps(data, default=str)))
    return out


_SOURCES: list[dict[str, Any]] = []


def source_request(rng: random.Random) -> dict[str, Any]:
    """A copy of an example or corpus case of any variant."""
    if not _SOURCES:
        _SOURCES.extend(_load_sources())
    return json.loads(json.dumps(rng.choice(_SOURCES)))


def _wrong(rng: random.Random, extra: tuple[Any, ...] = ()) -> Any:
    """A value of a wrong kind, as a fresh copy (never shared by two places of a request)."""
    return json.loads(json.dumps(rng.choice([*extra, *WRONG])))


def mutate_tree(rng: random.Random, data: Any) -> Any:
    """``data`` with a few of its nodes changed: a value replaced (by another type, a string
    where a number goes, null), a key dropped or added (a map or board path among them)."""
    for _ in range(rng.randrange(1, 4)):
        nodes: list[tuple[Any, Any]] = []  # (container, key)
        stack = [data]
        while stack:
            node = stack.pop()
            items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
            for k, v in items:
                nodes.append((node, k))
                if isinstance(v, (dict, list)):
                    stack.append(v)
        if not nodes:
            return _wrong(rng)
        parent, key = rng.choice(nodes)
        old = parent[key]
        op = rng.randrange(6)
        if op == 0:
            parent[key] = _wrong(rng)
        elif op == 1:
            parent[key] = None
        elif op == 2:  # a string where a number goes, and a number where a string goes
            parent[key] = str(old) + rng.choice(["", "x", " units"]) if isinstance(old, (int, float)) else rng.choice([0, -1, 10 ** 6])
        elif op == 3 and isinstance(parent, dict):
            del parent[key]
        elif op == 4 and isinstance(parent, dict):
            parent[rng.choice(["map", "board", "expect", "bids", "dice", "zzz"])] = _wrong(rng, tuple(PATHS))
        elif isinstance(old, str):
            parent[key] = rng.choice([old * rng.randrange(2, 50), old[::-1], old.upper(), "2A(" + " " * 3000, ""])
        else:
            parent[key] = _wrong(rng)
    return data


def base_request(rng: random.Random) -> dict[str, Any]:
    r = rng.random()
    if r < 0.45:
        return source_request(rng)
    if r < 0.55:
        return json.loads(json.dumps(rng.choice(MULTI)))
    req = generate_turn(rng.randrange(1000), rng.randrange(10_000))
    req.pop("id", None)
    return req


def mutate(rng: random.Random, req: dict[str, Any]) -> dict[str, Any] | list[Any] | Any:
    """A structurally hostile version of ``req``: wrong types, unknown names, odd orders."""
    kind = rng.randrange(8)
    if kind == 0:  # a field of the wrong type, or an unknown field
        key = rng.choice(["variant", "rules", "options", "year", "season", "phase", "units", "orders", "owners", "zzz"])
        req[key] = rng.choice(WRONG)
    elif kind == 1:  # unknown names
        key = rng.choice(["variant", "rules", "season", "phase"])
        req[key] = rng.choice(NAMES)
    elif kind == 2:  # orders of random words
        for power in list(req.get("orders", {}))[:3]:
            req["orders"][power] = [" ".join(rng.choice(ORDER_WORDS) for _ in range(rng.randrange(1, 9)))
                                    for _ in range(rng.randrange(1, 4))]
    elif kind == 3:  # a power or unit name changed
        units = req.get("units", {})
        if units:
            power = rng.choice(sorted(units))
            if rng.random() < 0.5:
                units[rng.choice(NAMES)] = units.pop(power)
            else:
                units[power] = [rng.choice(NAMES + ["A Par", "A Paris", "F Par", "2 A Bur", "F Spa"]) for _ in range(3)]
    elif kind == 4:  # options
        req["options"] = {rng.choice(["convoy_paradox_rule", "random_seed", "nope", "stack_support_cuts"]): rng.choice(WRONG + NAMES)}
    elif kind == 5:  # years and seasons
        req["year"] = rng.choice([-5, 0, 1, 1901, 10 ** 30, 1.5, "1901"])
        req["season"] = rng.choice(["spring", "fall", "winter", "monsoon", "SPRING", "year"])
    elif kind == 6:  # phases
        req["phase"] = rng.choice(["movement", "retreat", "adjustment"])
        req["retreat_orders"] = {"France": ["A Par - Gas", "A Bur R Pic", "F x"]}
        req["owners"] = {"France": ["Par", "Bre", "Mar", "Atlantis"]}
    else:  # the whole request swapped for a JSON value of another kind
        return rng.choice(WRONG)
    return req


def damage(rng: random.Random, data: bytes) -> bytes:
    """The same bytes, damaged: flipped, cut, inserted, deleted."""
    b = bytearray(data)
    for _ in range(rng.randrange(1, 6)):
        if not b:
            break
        op = rng.randrange(4)
        i = rng.randrange(len(b))
        if op == 0:
            b[i] = rng.randrange(256)
        elif op == 1:
            del b[i:i + rng.randrange(1, 20)]
        elif op == 2:
            b[i:i] = rng.choice([b"\xff", b"\x00", b"\xc3", b'"', b"[", b"{", b"}", b"]", b"\\", b"\r", b"\n", b",", b"1e999",
                                 b"\xe2\x80\x93", b"9" * rng.randrange(1, 6000)])
        else:
            del b[i:]
    return bytes(b)


def hostile_json(rng: random.Random) -> bytes:
    """One batch line or JSON request file (no newline inside, unless the damage put one)."""
    kind = rng.randrange(10)
    if kind == 0:
        n = rng.choice([33, 500, 5000, 100_000])
        return rng.choice([b"[", b'{"a":']) * n + b"1" + rng.choice([b"]", b"}"]) * n
    if kind == 1:
        return b'{"year": ' + b"1" * rng.choice([100, 4300, 4301, 5001, 20_000]) + b', "units": {"France": ["A Par"]}}'
    if kind == 2:  # oversize: many orders
        n = rng.choice([5001, 20_000])
        return json.dumps({"units": {"France": ["A Par"]}, "orders": {"France": ["A Par H"] * n}}).encode()
    req = base_request(rng)
    if kind < 7:
        req = mutate(rng, req) if "units" in req and rng.random() < 0.5 else mutate_tree(rng, req)
    if isinstance(req, dict) and rng.random() < 0.5:
        req["id"] = rng.choice([rng.randrange(10 ** 6), "x", None, [1], {"k": 1}, 1e308, "é"])
    text = json.dumps(req).encode()
    if kind >= 5:
        text = damage(rng, text)
    return text


def to_toml(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {to_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(to_toml(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return '""'
    return json.dumps(value)


def hostile_file(rng: random.Random) -> tuple[str, bytes]:
    """A request/case/game file: (suffix, bytes)."""
    if rng.random() < 0.5:
        return ".json", hostile_json(rng)
    kind = rng.randrange(6)
    if kind == 0:
        n = rng.choice([33, 900, 5000])
        return ".toml", b"a = " + b"[" * n + b"]" * n + b"\n"
    req = base_request(rng)  # 4, 5: a valid request
    if kind < 4:
        req = mutate(rng, req) if "units" in req and rng.random() < 0.5 else mutate_tree(rng, req)
    if not isinstance(req, dict):
        req = {"units": req}
    lines = [f"{json.dumps(str(k))} = {to_toml(v)}" for k, v in req.items()]
    if "units" in req and rng.random() < 0.3:  # a corpus case or a saved game
        if rng.random() < 0.5:
            lines = ['id = "f"'] + lines + ['[[expect]]', 'orders = { "A Par - Bur" = "succeeds" }']
        else:
            lines = [f"{k} = {to_toml(v)}" for k, v in req.items() if k in ("variant", "rules")]
            lines += ["[[phases]]", f"orders = {to_toml(req.get('orders', {}))}"]
    text = ("\n".join(lines) + "\n").encode()
    if kind in (3, 4):
        text = damage(rng, text)
    return ".toml", text


@dataclass
class Finding:
    command: str
    problem: str
    input: bytes

    def __str__(self) -> str:
        shown = self.input[:300]
        return f"{self.command}: {self.problem}\n    input: {shown!r}{'...' if len(self.input) > 300 else ''}"


@dataclass
class Tally:
    inputs: Counter[str] = field(default_factory=Counter)
    statuses: Counter[str] = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    lines_lost: int = 0
    slow: int = 0  # single-turn runs past the time limit + 5 s
    processes: int = 0  # inputs run as separate processes
    seconds: Counter[str] = field(default_factory=Counter)  # wall time per command

    @property
    def crashes(self) -> int:
        return sum(1 for f in self.findings if f.problem.startswith("crash"))


def run_command(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = dipsat_main(argv)
        except SystemExit as exc:  # must not happen: main returns its status
            code = 1000 + (exc.code if isinstance(exc.code, int) else 0)
    return code, out.getvalue(), err.getvalue()


def check_status(tally: Tally, command: str, code: int, out: str, err: str, data: bytes) -> None:
    tally.statuses[f"{command} {code}"] += 1
    if "Traceback" in out + err or code == 3 or "internal error" in err:
        tally.findings.append(Finding(command, f"crash (status {code}): {err.strip()[-500:]}", data))
    elif code not in DOCUMENTED:
        tally.findings.append(Finding(command, f"undocumented exit status {code}", data))
    elif code == 2 and "error" not in err:
        tally.findings.append(Finding(command, "status 2 without an error message", data))


def fuzz_batch(rng: random.Random, tally: Tally, n: int, workdir: Path, jobs: int = 2) -> None:
    lines = []
    for _ in range(n):
        r = rng.random()
        lines.append(b"" if r < 0.03 else b"# comment" if r < 0.05 else hostile_json(rng).replace(b"\n", b" "))
    data = b"\n".join(lines) + (b"\n" if rng.random() < 0.8 else b"")
    inp, outp = workdir / "in.jsonl", workdir / "out.jsonl"
    inp.write_bytes(data)
    code, out, err = run_command(["batch", str(inp), "-o", str(outp), "-j", str(jobs), "-q"])
    tally.inputs["batch"] += n
    check_status(tally, "batch", code, out, err, data[:2000])
    expected = [i + 1 for i, raw in enumerate(data.split(b"\n")) if raw.strip() and not raw.strip().startswith(b"#")]
    if data.endswith(b"\n") or not data:
        pass
    got: list[int] = []
    for text in outp.read_text(encoding="utf-8").splitlines() if outp.exists() else []:
        obj = json.loads(text)
        got.append(obj["line"])
        if not isinstance(obj.get("ok"), bool):
            tally.findings.append(Finding("batch", f"a result without ok: {text[:200]}", b""))
        elif not obj["ok"] and obj["error"]["kind"] in ("internal_error", "worker_died"):
            number = obj["line"]
            tally.findings.append(Finding("batch", f"crash on line {number}: {obj['error']['message']}",
                                          data.split(b"\n")[number - 1]))
    if got != expected:
        lost = len(set(expected) - set(got)) + len(set(got) - set(expected))
        tally.lines_lost += max(lost, 1)
        tally.findings.append(Finding("batch", f"output lines {got[:20]}... differ from input lines {expected[:20]}...", b""))


COMMANDS = ["adjudicate", "adjudicate", "adjudicate", "corpus", "play", "explore", "why", "readings", "render",
            "compare", "coverage"]


def fuzz_file(rng: random.Random, tally: Tally, workdir: Path, process: bool = False) -> None:
    suffix, data = hostile_file(rng)
    path = workdir / "req" / f"input{suffix}"
    path.parent.mkdir(exist_ok=True)
    (workdir / "secret.toml").write_text('password = "x"\n')
    path.write_bytes(data)
    command = rng.choice(COMMANDS)
    argv = [command, str(path), "--time-limit", str(TIME_LIMIT)]
    if command == "play" and rng.random() < 0.5:  # a continents or Supremacy game refuses per-phase limits
        argv = argv[:2]
    extra = {"render": [["--crop"], []], "coverage": [["--json"], ["--own"], []], "readings": [["--json"], []],
             "compare": [["--rules", "1971", "--rules", "datc"], []]}
    if command in extra:
        argv += rng.choice(extra[command])
    if command == "why":
        argv += ["--order", rng.choice(["A Par - Bur", "F Nth H", "x", ""])]
    if command in ("adjudicate", "explore") and rng.random() < 0.2:
        argv += ["--rules", rng.choice(["datc", "1971", "bogus"])]
    if command == "adjudicate" and rng.random() < 0.2:
        argv += ["--option", rng.choice(["convoy_paradox_rule=1982", "nope=1", "random_seed=x", "=", "a"])]
    if command == "adjudicate" and rng.random() < 0.5:
        argv.append("--json")
    if process:
        command += " (process)"
    tally.inputs[command] += 1
    t = time.monotonic()
    if process:
        tally.processes += 1
        code, out, err = run_process(argv, timeout=TIME_LIMIT * 20 + 60)
    else:
        code, out, err = run_command(argv)
    took = time.monotonic() - t
    tally.seconds[command] += took
    check_status(tally, command, code, out, err, data)
    if command.split()[0] in SINGLE_TURN and took > TIME_LIMIT + 5 + (3 if process else 0):  # + a start-up
        tally.slow += 1
        tally.findings.append(Finding(command, f"slow: {took:.1f} s with --time-limit {TIME_LIMIT:g}", data))


def run_process(argv: list[str], timeout: float) -> tuple[int, str, str]:
    """``python -m dipsat.face.cli ARGV`` in a process of its own."""
    import subprocess

    try:
        proc = subprocess.run([sys.executable, "-m", "dipsat.face.cli", *argv], capture_output=True, text=True,
                              timeout=timeout, errors="replace")
    except subprocess.TimeoutExpired:
        return 4000, "", f"killed after {timeout:g} s"
    return proc.returncode, proc.stdout, proc.stderr


def fuzz(inputs: int, seed: int, batch_share: float = 0.6, batch_size: int = 2000, jobs: int = 2,
         progress: bool = False, processes: int = 0) -> Tally:
    """Run ``inputs`` hostile inputs: ``batch_share`` of them as batch lines (``batch_size`` per
    run), the rest as files, one command each; ``processes`` of the files in a process of
    their own (spread over the run)."""
    rng = random.Random(f"dipsat-fuzz:{seed}")
    tally = Tally()
    n_batch = int(inputs * batch_share)
    n_files = inputs - n_batch
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        done = 0
        while done < n_batch:
            k = min(batch_size, n_batch - done)
            fuzz_batch(rng, tally, k, workdir, jobs)
            done += k
            if progress:
                print(f"  batch lines {done:,}/{n_batch:,} ({time.monotonic() - start:.0f} s)", file=sys.stderr)
        every = max(1, n_files // processes) if processes else 0
        for i in range(n_files):
            fuzz_file(rng, tally, workdir, process=bool(every) and i % every == 0 and tally.processes < processes)
            if progress and (i + 1) % 2000 == 0:
                print(f"  files {i + 1:,}/{n_files:,} ({time.monotonic() - start:.0f} s)", file=sys.stderr)
    return tally


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.fuzz", description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch-share", type=float, default=0.6, help="share of the inputs given as batch lines")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--processes", type=int, default=0, help="how many of the files run as separate processes")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    tally = fuzz(args.inputs, args.seed, args.batch_share, jobs=args.jobs, progress=True, processes=args.processes)
    secs = time.monotonic() - t0
    print(f"inputs tried: {sum(tally.inputs.values()):,} in {secs:.0f} s (seed {args.seed})")
    for command, n in sorted(tally.inputs.items()):
        print(f"  {command}: {n:,}")
    print("exit statuses: " + ", ".join(f"{k}: {v:,}" for k, v in sorted(tally.statuses.items())))
    print(f"separate processes: {tally.processes:,}")
    print("seconds per command: " + ", ".join(f"{k}: {v:.0f}" for k, v in sorted(tally.seconds.items())))
    print(f"crashes: {tally.crashes}")
    print(f"runs past the time limit + 5 s: {tally.slow}")
    print(f"lines lost: {tally.lines_lost}")
    print(f"other findings: {len(tally.findings) - tally.crashes}")
    for f in tally.findings[:20]:
        print(f)
    return 0 if not tally.findings and not tally.lines_lost else 1


if __name__ == "__main__":
    sys.exit(main())
