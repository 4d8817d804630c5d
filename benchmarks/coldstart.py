"""Cold-start latency of one ``dipsat adjudicate``, beside ``python -c pass``, in one run.

    python -m benchmarks.coldstart --runs 15

Each command runs ``--runs`` times as a fresh process (wall clock around ``subprocess.run``;
the commands take turns, so a busy machine slows them alike).  Reported per command: median,
min and max seconds, and whether OR-Tools was imported (``-X importtime`` on one extra run).

Bytecode: ``pip install .`` compiles dipsat's modules when it installs them, and an editable
install writes the compiled files on the first run -- unless ``PYTHONDONTWRITEBYTECODE`` is set,
when every run compiles dipsat's sources again (about 0.1 s).  So the benchmark first compiles
the installed package's sources (``compileall``, as pip does) and times the command as a user
runs it; ``--no-compile`` times whatever is there (with the variable set and no compiled files:
the compiling run).
The acyclic turn (``examples/spring1901.toml``) needs no solver, nor does a small cycle
(``examples/pandin.toml``: its resolutions are counted by trying the values of one decision per
cycle, :func:`dipsat.engine.equations.enumerate_cycle`); OR-Tools is imported for a cycle past that
search's budget, for research commands, and with ``--all-cpsat`` (the third command).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _dipsat() -> list[str]:
    exe = shutil.which("dipsat", path=str(Path(sys.executable).parent)) or shutil.which("dipsat")
    return [exe] if exe else [sys.executable, "-m", "dipsat.face.cli"]


def commands() -> dict[str, list[str]]:
    d = _dipsat()
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "dipsat adjudicate examples/spring1901.toml (acyclic)": d + ["adjudicate", "examples/spring1901.toml"],
        "dipsat adjudicate examples/pandin.toml (a cycle)": d + ["adjudicate", "examples/pandin.toml"],
        "dipsat adjudicate --all-cpsat examples/pandin.toml": d + ["adjudicate", "--all-cpsat", "examples/pandin.toml"],
    }


def compile_package() -> list[str]:
    """Compile the installed dipsat's sources to bytecode (as ``pip install`` does); the
    folders compiled."""
    import compileall
    import importlib.util

    folders = []
    for name in ("dipsat", "dipsat.variants", "dipsat.maps"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            folders.extend(spec.submodule_search_locations)
    for folder in folders:
        compileall.compile_dir(folder, quiet=1)
    return folders


def imports_ortools(cmd: list[str]) -> bool:
    env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1"}
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    return "ortools" in r.stderr


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--no-compile", action="store_true", help="do not compile dipsat's sources to bytecode first")
    args = ap.parse_args(argv)
    if not args.no_compile:
        print(f"bytecode compiled first (as pip install does): {', '.join(compile_package())}")
    cmds = commands()
    times: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(args.runs):
        for name, cmd in cmds.items():
            t = time.perf_counter()
            subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            times[name].append(time.perf_counter() - t)
    width = max(map(len, cmds))
    print(f"{'command':<{width}}  median s  min s  max s  OR-Tools imported")
    for name, cmd in cmds.items():
        xs = times[name]
        ort = "-" if name.startswith("python") else ("yes" if imports_ortools(cmd) else "no")
        print(f"{name:<{width}}  {statistics.median(xs):8.3f}  {min(xs):5.3f}  {max(xs):5.3f}  {ort}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
