"""Every command's output is the same whatever Python's hash seed: a set or dict iterated in hash
order anywhere (a layout, a solver's variable order, a variant's own layer) would show up here.
Each bundled example is played, drawn and explored in one child process per hash seed; so are
readings, CP-SAT solves, why, compare, coverage and the other families' layouts."""

import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

# every command on every example that the command accepts; each gives text on standard output
_SCRIPT = r"""
import contextlib, io, sys
from dipsat.face.cli import main
runs = [a.split("\t") for a in sys.argv[1:]]
for argv in runs:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        code = main(argv)
    print("==", " ".join(argv), code)
    print(buf.getvalue())
"""


def _runs() -> list[list[str]]:
    ex = sorted(p for p in (ROOT / "examples").glob("*.toml"))
    runs: list[list[str]] = []
    for p in ex:
        text = p.read_text()
        rel = str(p.relative_to(ROOT))
        if "[[phases]]" in text or "[[rounds]]" in text or "[[turns]]" in text or "[[stages]]" in text:
            runs.append(["play", rel, "--json", "--no-check"])
        else:
            runs.append(["adjudicate", rel, "--json"])
            if 'phase = "retreat"' not in text:  # research commands answer movement turns
                runs.append(["explore", rel])
        runs.append(["render", rel])
    # beyond the examples (issue 26): readings, every solve through CP-SAT, why, compare and
    # coverage, and the layouts of the families with boards of their own drawn from corpus cases
    runs += [["readings", "examples/spring1901.toml", "--json"],
             ["readings", "tests/corpora/readings/adjacent_convoy_paradox.toml", "--json"],
             ["adjudicate", "examples/spring1901.toml", "--json", "--all-cpsat"],
             ["adjudicate", "tests/corpora/readings/adjacent_convoy_paradox.toml", "--json", "--all-cpsat"],
             ["why", "examples/spring1901.toml", "--order", "A Par - Bur"],
             ["compare", "tests/corpora/datc/6.F.14.toml", "-q"],
             ["coverage", "tests/corpora/readings", "--json", "-q"],
             ["fingerprint", "tests/corpora/readings/adjacent_convoy_paradox.toml", "tests/corpora/datc/6.F.24.toml", "--json", "-q"],
             ["render", "tests/corpora/continents/seed_01_four_way_battle.toml"],
             ["render", "tests/corpora/continents/rule_36_victory_tie.toml"],
             ["render", "tests/corpora/supremacy/move_board_port.toml"]]
    return runs


def test_no_output_depends_on_the_hash_seed():
    runs = _runs()
    assert len(runs) >= 12
    outs = {}
    for seed in ("1", "31337"):
        proc = subprocess.run([sys.executable, "-c", _SCRIPT, *("\t".join(r) for r in runs)], cwd=ROOT,
                              capture_output=True, text=True, timeout=600,
                              env={**os.environ, "PYTHONHASHSEED": seed})
        assert proc.returncode == 0, proc.stderr[-2000:]
        outs[seed] = proc.stdout
    a, b = outs["1"].split("\n== "), outs["31337"].split("\n== ")
    assert len(a) == len(b) == len(runs)
    differ = [x.split("\n", 1)[0] for x, y in zip(a, b) if x != y]
    assert not differ, f"output depends on the hash seed: {differ}"
    # the runs did real work: every one exited 0 and printed something
    for chunk in a:
        head, _, body = chunk.partition("\n")
        assert head.rstrip().endswith(" 0") and body.strip(), head
