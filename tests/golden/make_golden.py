"""Writes the golden batch input (``batch_input.jsonl``) and, given an adjudicator, the expected
outputs beside it.  Run from the repository root:

    python tests/golden/make_golden.py input                     # the input lines (deterministic)
    python tests/golden/make_golden.py expected --dipsat PATH    # PATH's `dipsat batch` and `adjudicate --json`

The expected outputs were written by the commit before issue 30 began (fdac8cd) and must not
change: ``tests/test_golden_output.py`` compares today's output with them byte for byte.  See
``README.md`` here for what the input holds.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
INPUT = HERE / "batch_input.jsonl.gz"  # gzip (mtime 0): the output of a few hundred turns is megabytes of JSON
EXPECTED = HERE / "batch_expected.jsonl.gz"
# adjudicate --json of these files (examples/ and this folder), each to adjudicate_<stem>.json
ADJUDICATE = ["examples/spring1901.toml", "examples/fall1901.toml", "examples/retreat.toml",
              "examples/pandin.toml", "examples/multiplomacy.toml",
              "tests/golden/non_ascii.toml"]

WORKLOAD_TURNS = 300  # seeded standard turns (benchmarks.workload, seed 30)
CASE_FIELDS = ("variant", "phase", "units", "owners", "orders", "retreat_orders", "data")


def _case_lines() -> list[dict[str, Any]]:
    """Every one-phase corpus case as a request, under its expectations' first preset (and options)."""
    out = []
    for path in sorted((ROOT / "tests" / "corpora").rglob("*.toml")):
        case = tomllib.loads(path.read_text(encoding="utf-8"))
        if case.get("phase") == "game" or "expect" not in case:
            continue
        line: dict[str, Any] = {"id": f"{path.parent.name}/{path.stem}"}
        line.update({k: case[k] for k in CASE_FIELDS if k in case and case[k]})
        first = case["expect"][0]
        rules = (first.get("rules") or ["datc"])
        line["rules"] = rules[0] if isinstance(rules, list) else rules
        if first.get("options"):
            line["options"] = first["options"]
        out.append(line)
    return out


def _odd_lines() -> list[bytes]:
    """Error lines and lines of non-ASCII text (ids, order text, messages quoting it)."""
    std = {"France": ["A Par", "F Bre"], "Germany": ["A Mun"]}
    lines: list[Any] = [
        {"id": "tür-日本-🎲", "units": std, "orders": {"France": ["A Par - Bur", "F Bre - Mao"], "Germany": ["A Mun - Bur"]}},
        {"id": "ñ", "units": std, "orders": {"France": ["A Pâris - Bur", "F Bre H"], "Germany": ["A Mün - Bur"]}},
        {"id": "en dash – arrow →", "units": std, "orders": {"France": ["A Par – Bur", "F Bre S A Par – Bur"]}},
        {"id": "zero width\u200b", "units": {"Frånce": ["A Par"]}, "orders": {}},
        {"id": "unknown variant", "variant": "Ruritanië", "units": std},
        {"id": {"nested": ["id", 1.5, None, True]}, "units": std, "orders": {"France": ["A Par H"]}},
        {"id": 7, "explain": "yes", "units": std},
        {"id": "no such unit", "units": std, "orders": {"France": ["A Bur - Par"]}},
        {"id": "unknown field", "units": std, "ordres": {}},
        {"id": "bad phase", "phase": "dinner", "units": std},
        {"id": "explained with non-ASCII", "explain": True, "units": std,
         "orders": {"France": ["A Par - Bur", "F Bre - Pic"], "Germany": ["A Mun - Bur « sic »"]}},
        {"id": "empty"},
        [1, 2, 3],
        "a string",
        b"{not json",
        b'{"id": "bad utf-8 \xff\xfe", "units": {}}',
        b"# a comment line: no output",
        b"",
        {"id": "rules 1971", "rules": "1971", "units": std, "orders": {"France": ["A Par - Bur"], "Germany": ["A Mun - Bur"]}},
        {"id": "no rules", "rules": "nonesuch", "units": std},
        {"id": "bad option", "options": {"no_such_option": 1}, "units": std},
        {"id": 1e300, "units": std},
        {"id": -0.0, "units": std},
        {"id": 12345678901234567890123, "units": std},
    ]
    return [x if isinstance(x, bytes) else json.dumps(x, ensure_ascii=False).encode() for x in lines]


def input_lines() -> list[bytes]:
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    from benchmarks import workload
    from benchmarks.multiplicity import random_turn as multiplicity_turn
    from test_engine_paths import multinational_turn

    lines: list[bytes] = []

    def add(obj: dict[str, Any]) -> None:
        lines.append(json.dumps(obj, ensure_ascii=False).encode())

    for i in range(WORKLOAD_TURNS):
        turn = workload.generate_turn(30, i)
        if i % 3 == 0:
            turn["explain"] = True
        add(turn)
    for seed in range(12):
        add({"id": f"multinational-{seed}", **multinational_turn(seed)})
    for seed in range(4):
        add({"id": f"multiplicity-{seed}", **multiplicity_turn(random.Random(seed), 20)})
    for i, case in enumerate(_case_lines()):
        if i % 2 == 0:
            case["explain"] = True
        add(case)
    lines.extend(_odd_lines())
    return lines


def write_input() -> None:
    INPUT.write_bytes(gzip.compress(b"".join(line + b"\n" for line in input_lines()), 9, mtime=0))
    print(f"{INPUT}: {INPUT.stat().st_size:,} bytes")


def batch_output(dipsat: list[str]) -> bytes:
    """``dipsat batch`` of the input (one process, no progress), its output's bytes."""
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "in.jsonl", Path(tmp) / "out.jsonl"
        src.write_bytes(gzip.decompress(INPUT.read_bytes()))
        done = subprocess.run([*dipsat, "batch", str(src), "-o", str(out), "-j", "1", "-q", "--time-limit", "600"],
                              cwd=ROOT, capture_output=True)
        if done.returncode not in (0, 1) or not out.exists():  # 1: some lines are errors (they are meant to be)
            raise RuntimeError(f"dipsat batch failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
        return out.read_bytes()


def adjudicate_output(dipsat: list[str], name: str) -> bytes:
    """``dipsat adjudicate NAME --json``: standard output, then the exit status."""
    done = subprocess.run([*dipsat, "adjudicate", name, "--json", "--time-limit", "600"], cwd=ROOT, capture_output=True)
    return done.stdout + f"exit {done.returncode}\n".encode()


def write_expected(dipsat: list[str]) -> None:
    EXPECTED.write_bytes(gzip.compress(batch_output(dipsat), 9, mtime=0))
    for name in ADJUDICATE:
        (HERE / f"adjudicate_{Path(name).stem}.json").write_bytes(adjudicate_output(dipsat, name))
    for p in sorted(HERE.glob("*expected*")) + sorted(HERE.glob("adjudicate_*")):
        print(f"{p.name}: {p.stat().st_size:,} bytes")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["input", "expected"])
    ap.add_argument("--dipsat", default="dipsat", help="the dipsat command whose output is expected")
    a = ap.parse_args()
    write_input() if a.what == "input" else write_expected([a.dipsat])
