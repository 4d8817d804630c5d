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

Inputs are drawn from seeded ``random.Random`` streams (never the global state): valid turns of
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
import copy
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
WRONG = [None, True, 3, -5, 1.5, 1e308, "x", [], {}, [1, [2]], {"a": {"b": 1}}, "A Par", ["A Par"], {"France": "A Par"},
         False, 0, 10 ** 30, "3", "USA", "army us_west", [1.5], [[1]], {"USA": 1}, {"3": "x"}]
WRONG_KEYS = ["map", "board", "expect", "bids", "dice", "state", "options", "kind", "turns", "drill", "setup", "zzz"]
ROOT = Path(__file__).resolve().parent.parent
PATHS = ["../secret.toml", "/dev/zero", "/etc/passwd", "continents_six", "world", "nope.toml", ".."]
TIME_LIMIT = 3.0  # --time-limit of the commands run here; a single-turn command past it + 5 s is slow
SINGLE_TURN = {"adjudicate", "explore", "why", "readings", "render"}
COMMANDS = ["adjudicate", "adjudicate", "adjudicate", "corpus", "play", "explore", "why", "readings", "render",
            "compare", "coverage", "odds", "wealth"]
FAMILIES = ("all", "supremacy")


# -- what the inputs are made of ------------------------------------------------------------------


@dataclass(frozen=True)
class Source:
    family: str  # the variant family the document belongs to (a corpus folder, an example's variant)
    doc: dict[str, Any]
    game: bool  # a game file (play takes it)


def _game_of_case(doc: dict[str, Any]) -> Optional[dict[str, Any]]:
    """A Supremacy game file made of a corpus case of kind 'game' (for ``play``)."""
    data = doc.get("data")
    if not isinstance(data, dict) or data.get("kind") != "game":
        return None
    opts = (doc.get("expect") or [{}])[0].get("options", {})
    return {"variant": "supremacy", "options": opts, **{k: v for k, v in data.items() if k != "kind"}}


def _load_sources() -> list[Source]:
    """The examples and corpus cases of every variant, as data (read once), and the game files
    made of Supremacy's game cases."""
    import tomllib

    out = []
    files = sorted((ROOT / "examples").glob("*.toml")) + sorted((ROOT / "tests" / "corpora").glob("*/*.toml"))
    for f in files:
        try:
            data = tomllib.loads(f.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict):
            continue
        doc = json.loads(json.dumps(data, default=str))
        family = f.parent.name if f.parent.parent.name == "corpora" else str(doc.get("variant", "standard"))
        out.append(Source(family, doc, "phases" in doc or "turns" in doc))
        game = _game_of_case(doc)
        if game is not None:
            out.append(Source(family, game, True))
    return out


_SOURCES: list[Source] = []


def sources(family: str = "all") -> list[Source]:
    if not _SOURCES:
        _SOURCES.extend(_load_sources())
    return [s for s in _SOURCES if family == "all" or s.family == family]


def source_request(rng: random.Random, family: str = "all", game: Optional[bool] = None) -> dict[str, Any]:
    """A copy of an example or corpus case (or a game file, ``game``) of any variant of ``family``."""
    pool = [s for s in sources(family) if game is None or s.game == game] or sources(family)
    doc = copy.deepcopy(rng.choice(pool).doc)
    if rng.random() < 0.3 and isinstance(doc.get("data"), dict):  # the case's request alone, as a batch line has it
        doc = {k: v for k, v in doc.items() if k in ("variant", "data", "options", "rules")}
    return doc


def _wrong(rng: random.Random, extra: tuple[Any, ...] = ()) -> Any:
    """A value of a wrong kind, as a fresh copy (never shared by two places of a request)."""
    return copy.deepcopy(rng.choice([*extra, *WRONG]))


def mutate_tree(rng: random.Random, data: Any) -> Any:
    """``data`` with a few of its nodes changed: a value replaced (by another type, a string
    where a number goes, null), a key dropped or added (at the wrong level, a map or board path
    among them), a table where a list goes or the other way round."""
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
        op = rng.randrange(8)
        if op == 0:
            parent[key] = _wrong(rng)
        elif op == 1:
            parent[key] = None
        elif op == 2:  # a string where a number goes, and a number where a string goes
            parent[key] = str(old) + rng.choice(["", "x", " units"]) if isinstance(old, (int, float)) else rng.choice([0, -1, 10 ** 6])
        elif op == 3 and isinstance(parent, dict):
            del parent[key]
        elif op == 4 and isinstance(parent, dict):  # a key unknown here, or known at another level
            parent[rng.choice(WRONG_KEYS)] = _wrong(rng, tuple(PATHS))
        elif op == 5:  # a table where a list goes, or the other way round
            parent[key] = [old] if isinstance(old, dict) else ({"0": old[0]} if isinstance(old, list) and old else {"a": old})
        elif isinstance(old, str):
            parent[key] = rng.choice([old * rng.randrange(2, 50), old[::-1], old.upper(), "2A(" + " " * 3000, ""])
        else:
            parent[key] = _wrong(rng)
    return data


def base_request(rng: random.Random, family: str = "all") -> dict[str, Any]:
    r = rng.random()
    if r < 0.45 or family != "all":
        return source_request(rng, family)
    if r < 0.55:
        return copy.deepcopy(rng.choice(MULTI))
    req = generate_turn(rng.randrange(1000), rng.randrange(10_000))
    req.pop("id", None)
    return req


def mutate(rng: random.Random, req: dict[str, Any]) -> dict[str, Any] | list[Any] | Any:
    """A structurally hostile version of ``req``: wrong types, unknown names, odd orders."""
    kind = rng.randrange(8)
    if kind == 0:  # a field of the wrong type, or an unknown field
        key = rng.choice(["variant", "rules", "options", "year", "season", "phase", "units", "orders", "owners", "zzz"])
        req[key] = _wrong(rng)
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
        return _wrong(rng)
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


def hostile_json(rng: random.Random, family: str = "all") -> bytes:
    """One batch line or JSON request file (no newline inside, unless the damage put one)."""
    kind = rng.randrange(10)
    if kind == 0 and family == "all":
        n = rng.choice([33, 500, 5000, 100_000])
        return rng.choice([b"[", b'{"a":']) * n + b"1" + rng.choice([b"]", b"}"]) * n
    if kind == 1 and family == "all":
        return b'{"year": ' + b"1" * rng.choice([100, 4300, 4301, 5001, 20_000]) + b', "units": {"France": ["A Par"]}}'
    if kind == 2 and family == "all":  # oversize: many orders
        n = rng.choice([5001, 20_000])
        return json.dumps({"units": {"France": ["A Par"]}, "orders": {"France": ["A Par H"] * n}}).encode()
    req = base_request(rng, family)
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


def toml_document(rng: random.Random, doc: dict[str, Any]) -> str:
    """``doc`` as a TOML text: its tables as [sections] or inline, at random."""
    head, body = [], []
    for k, v in doc.items():
        if isinstance(v, dict) and v and rng.random() < 0.5:
            body.append(f"[{json.dumps(str(k))}]")
            body += [f"{json.dumps(str(kk))} = {to_toml(vv)}" for kk, vv in v.items()]
        else:
            head.append(f"{json.dumps(str(k))} = {to_toml(v)}")
    return "\n".join(head + body) + "\n"


def hostile_file(rng: random.Random, family: str = "all", command: str = "") -> tuple[str, bytes]:
    """A request/case/game file for ``command``: (suffix, bytes)."""
    wants_game = command == "play" or (command == "wealth" and rng.random() < 0.5)
    if rng.random() < 0.5 and not wants_game:
        return ".json", hostile_json(rng, family)
    kind = rng.randrange(6)
    if kind == 0 and family == "all":
        n = rng.choice([33, 900, 5000])
        return ".toml", b"a = " + b"[" * n + b"]" * n + b"\n"
    req = source_request(rng, family, game=True) if wants_game and rng.random() < 0.7 else base_request(rng, family)
    if kind < 4:
        req = mutate(rng, req) if "units" in req and rng.random() < 0.5 else mutate_tree(rng, req)
    if not isinstance(req, dict):
        req = {"units": req}
    if wants_game and rng.random() < 0.3:
        return ".json", json.dumps(req).encode()
    text = toml_document(rng, req)
    if "units" in req and rng.random() < 0.3:  # a corpus case or a saved game
        lines = text.splitlines()
        if rng.random() < 0.5:
            lines = ['id = "f"'] + lines + ['[[expect]]', 'orders = { "A Par - Bur" = "succeeds" }']
        else:
            lines = [f"{k} = {to_toml(v)}" for k, v in req.items() if k in ("variant", "rules")]
            lines += ["[[phases]]", f"orders = {to_toml(req.get('orders', {}))}"]
        text = "\n".join(lines) + "\n"
    data = text.encode()
    if kind in (3, 4):
        data = damage(rng, data)
    return ".toml", data


def command_line(rng: random.Random, command: str) -> list[str]:
    """The arguments after ``command FILE``."""
    argv = ["--time-limit", str(TIME_LIMIT)]
    if command == "play" and rng.random() < 0.5:  # a continents or Supremacy game refuses per-phase limits
        argv = []
    if command in ("odds", "wealth"):  # Supremacy's own commands take no limits
        argv = []
    extra = {"render": [["--crop"], []], "coverage": [["--json"], ["--own"], []], "readings": [["--json"], []],
             "compare": [["--rules", "1971", "--rules", "datc"], []], "play": [["-q"], ["--json"], [], []]}
    if command in extra:
        argv += rng.choice(extra[command])
    if command == "why":
        argv += ["--order", rng.choice(["A Par - Bur", "F Nth H", "x", "", "USA: buy 1 grain"])]
    if command in ("adjudicate", "explore") and rng.random() < 0.2:
        argv += ["--rules", rng.choice(["datc", "1971", "bogus", "strict", "table"])]
    if command in ("adjudicate", "play", "odds", "wealth", "readings") and rng.random() < 0.25:
        argv += ["--option", rng.choice(["convoy_paradox_rule=1982", "nope=1", "random_seed=x", "=", "a",
                                         "preset=strict", "fallout=none", "victory=richest", "build_costs=3"])]
    if command == "adjudicate" and rng.random() < 0.5:
        argv.append("--json")
    return argv


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
