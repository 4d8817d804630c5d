"""Hostile-input fuzzing of the Supremacy files and batch lines (issue 24).

The inputs are the Supremacy corpus cases and the example game, damaged: a value at a random
place of the data replaced by one of the wrong type (``expect = 1``, ``bids = null``, a string
where a count goes, a float, a deep list), a key removed or added, a table replaced by a list,
or the file's bytes flipped and cut.  Each goes through ``dipsat.face.cli.main`` as a user's command
line would — ``adjudicate``, ``play``, ``why``, ``odds``, ``wealth``, ``corpus``, ``compare``,
``readings`` (files) and ``batch`` (lines) — and is checked by :mod:`benchmarks.fuzz`'s rules: no
traceback, no status 3, no ``internal error``, a documented status, an error message with status
2, one batch output line per input line and none answering ``internal_error``.

    python -m benchmarks.fuzz_supremacy --inputs 5000 --seed 1
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any, Optional

from benchmarks.fuzz import Finding, Tally, check_status, damage, run_command, to_toml

ROOT = Path(__file__).resolve().parent.parent
WRONG: list[Any] = [None, True, False, 0, 1, -1, 3, 1.5, -2.5, 1e308, 10 ** 30, "", "x", "3", "USA", "atlantis",
                    "army us_west", [], [1], [1.5], ["x"], [[1]], {}, {"a": 1}, {"USA": 1}, {"3": "x"}]
COMMANDS = ["adjudicate", "adjudicate", "play", "play", "why", "odds", "wealth", "corpus", "compare", "readings"]


def seeds() -> list[dict[str, Any]]:
    """The documents the inputs start from: every Supremacy corpus case and the example game."""
    docs = [tomllib.loads(p.read_text(encoding="utf-8"))
            for p in sorted((ROOT / "tests" / "corpora" / "supremacy").glob("*.toml"))]
    docs.append(tomllib.loads((ROOT / "examples" / "supremacy_game.toml").read_text(encoding="utf-8")))
    return docs


def game_files(docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Game files made of the corpus's game cases (and the example game), for ``play``."""
    out = [d for d in docs if "turns" in d and "data" not in d]
    for d in docs:
        data = d.get("data", {})
        if data.get("kind") == "game":
            opts = (d.get("expect") or [{}])[0].get("options", {})
            out.append({"variant": "supremacy", "options": opts, **{k: v for k, v in data.items() if k != "kind"}})
    return out


def _paths(x: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    if isinstance(x, dict):
        for k, v in x.items():
            out.append((*prefix, k))
            out += _paths(v, (*prefix, k))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out.append((*prefix, i))
            out += _paths(v, (*prefix, i))
    return out


def mutate(rng: random.Random, doc: dict[str, Any]) -> Any:
    """``doc`` with one to three structural faults."""
    doc = copy.deepcopy(doc)
    for _ in range(rng.randrange(1, 4)):
        paths = _paths(doc)
        if not paths:
            break
        path = rng.choice(paths)
        parent: Any = doc
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        op = rng.randrange(6)
        if op <= 2:  # a value of the wrong type (the commonest fault)
            parent[key] = copy.deepcopy(rng.choice(WRONG))
        elif op == 3 and isinstance(parent, dict):  # a key removed
            del parent[key]
        elif op == 4 and isinstance(parent, dict):  # an unknown key, or a known key at the wrong level
            parent[rng.choice(["zzz", "expect", "bids", "dice", "state", "options", "kind", "turns", "drill"])] = \
                copy.deepcopy(rng.choice(WRONG))
        else:  # a table where a list goes, or the other way round
            v = parent[key]
            parent[key] = [v] if isinstance(v, dict) else ({"0": v[0]} if isinstance(v, list) and v else {"a": v})
    if rng.random() < 0.1:  # the issue's own examples
        doc[rng.choice(["expect", "options", "turns"])] = rng.choice([1, [1.5], None, "x"])
    return doc


def as_file(rng: random.Random, doc: Any) -> tuple[str, bytes]:
    if rng.random() < 0.5 or not isinstance(doc, dict):
        data = json.dumps(doc).encode()
        suffix = ".json"
    else:
        lines = []
        for k, v in doc.items():
            if isinstance(v, dict) and v and rng.random() < 0.5:
                lines.append(f"[{json.dumps(str(k))}]")
                lines += [f"{json.dumps(str(kk))} = {to_toml(vv)}" for kk, vv in v.items()]
            else:
                lines.insert(0, f"{json.dumps(str(k))} = {to_toml(v)}")
        data = ("\n".join(lines) + "\n").encode()
        suffix = ".toml"
    if rng.random() < 0.25:
        data = damage(rng, data)
    return suffix, data


def fuzz_file(rng: random.Random, tally: Tally, docs: list[dict[str, Any]], games: list[dict[str, Any]],
              workdir: Path) -> None:
    command = rng.choice(COMMANDS)
    doc = rng.choice(games if command == "play" or (command == "wealth" and rng.random() < 0.5) else docs)
    suffix, data = as_file(rng, mutate(rng, doc) if rng.random() < 0.7 else doc)
    path = workdir / f"input{suffix}"
    path.write_bytes(data)
    argv = [command, str(path)]
    if command in ("adjudicate", "play", "odds", "wealth") and rng.random() < 0.3:
        argv += ["--option", rng.choice(["preset=strict", "fallout=none", "nope=1", "random_seed=x", "=", "a",
                                         "victory=richest", "preset=bogus", "build_costs=3"])]
    if command == "adjudicate" and rng.random() < 0.3:
        argv.append("--json")
    if command == "play" and rng.random() < 0.3:
        argv.append(rng.choice(["-q", "--json"]))
    if command == "readings" and rng.random() < 0.5:
        argv += ["--option", "preset=strict"]
    tally.inputs[command] += 1
    code, out, err = run_command(argv)
    check_status(tally, command, code, out, err, data)


def batch_line(rng: random.Random, docs: list[dict[str, Any]]) -> bytes:
    doc = copy.deepcopy(rng.choice(docs))
    req: dict[str, Any] = {"variant": "supremacy", **({"data": doc["data"]} if isinstance(doc.get("data"), dict)
                                                       else {k: v for k, v in doc.items() if k != "variant"})}
    if isinstance(doc.get("options"), dict):
        req["options"] = doc["options"]
    line = json.dumps(mutate(rng, req) if rng.random() < 0.85 else req).encode()
    if rng.random() < 0.2:
        line = damage(rng, line)
    return line.replace(b"\n", b" ").replace(b"\r", b" ")


def fuzz_batch(rng: random.Random, tally: Tally, docs: list[dict[str, Any]], n: int, workdir: Path, jobs: int) -> None:
    lines = [batch_line(rng, docs) for _ in range(n)]
    data = b"\n".join(lines) + b"\n"
    inp, outp = workdir / "in.jsonl", workdir / "out.jsonl"
    inp.write_bytes(data)
    code, out, err = run_command(["batch", str(inp), "-o", str(outp), "-j", str(jobs), "-q"])
    tally.inputs["batch"] += n
    check_status(tally, "batch", code, out, err, data[:2000])
    expected = [i + 1 for i, raw in enumerate(data.split(b"\n")) if raw.strip() and not raw.strip().startswith(b"#")]
    got: list[int] = []
    for text in outp.read_text(encoding="utf-8").splitlines() if outp.exists() else []:
        obj = json.loads(text)
        got.append(obj["line"])
        if not obj["ok"] and obj["error"]["kind"] in ("internal_error", "worker_died"):
            tally.findings.append(Finding("batch", f"crash on line {obj['line']}: {obj['error']['message']}",
                                          data.split(b"\n")[obj["line"] - 1]))
    if got != expected:
        tally.lines_lost += max(len(set(expected) ^ set(got)), 1)
        tally.findings.append(Finding("batch", f"output lines {got[:20]}... differ from input lines {expected[:20]}...", b""))


def fuzz(inputs: int, seed: int, batch_share: float = 0.5, batch_size: int = 500, jobs: int = 1,
         progress: bool = False) -> Tally:
    rng = random.Random(f"dipsat-fuzz-supremacy:{seed}")
    docs = seeds()
    games = game_files(docs)
    tally = Tally()
    n_batch = int(inputs * batch_share)
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        done = 0
        while done < n_batch:
            k = min(batch_size, n_batch - done)
            fuzz_batch(rng, tally, docs, k, workdir, jobs)
            done += k
        for i in range(inputs - n_batch):
            fuzz_file(rng, tally, docs, games, workdir)
            if progress and (i + 1) % 500 == 0:
                print(f"  files {i + 1:,} ({time.monotonic() - start:.0f} s)", file=sys.stderr)
    return tally


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.fuzz_supremacy", description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch-share", type=float, default=0.5)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    tally = fuzz(args.inputs, args.seed, args.batch_share, jobs=args.jobs, progress=True)
    print(f"inputs tried: {sum(tally.inputs.values()):,} in {time.monotonic() - t0:.0f} s (seed {args.seed})")
    for command, n in sorted(tally.inputs.items()):
        print(f"  {command}: {n:,}")
    print("exit statuses: " + ", ".join(f"{k}: {v:,}" for k, v in sorted(tally.statuses.items())))
    print(f"crashes: {tally.crashes}; lines lost: {tally.lines_lost}; other findings: "
          f"{len(tally.findings) - tally.crashes}")
    for f in tally.findings[:30]:
        print(f)
    return 0 if not tally.findings and not tally.lines_lost else 1


if __name__ == "__main__":
    sys.exit(main())
