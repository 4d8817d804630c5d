"""The type check: mypy over solver/, variants/ and maps/ finds no error.

The three folders install as one package (``dipsat``, ``dipsat.variants``, ``dipsat.maps``, by
setuptools' package-dir mapping), which mypy cannot follow through an editable install.  So the
check builds that package as a tree of symbolic links (``.mypy_cache/tree/dipsat``: the files of
``solver/``, and ``variants``/``maps`` linked in) and runs ``mypy -p dipsat`` on it with the
settings of ``pyproject.toml`` ([tool.mypy]).  mypy's cache sits in ``.mypy_cache`` of the
repository, so a second run checks only what changed.

Run by hand: ``python tests/test_types.py`` prints mypy's report with paths of the repository.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".mypy_cache"


def package_tree() -> Path:
    """The directory holding ``dipsat/`` as it is installed, made of links to the sources."""
    top = CACHE / "tree"
    pkg = top / "dipsat"
    pkg.mkdir(parents=True, exist_ok=True)
    wanted = {p.name: p for p in (ROOT / "solver").iterdir() if p.name != "__pycache__"}
    wanted["variants"] = ROOT / "variants"
    wanted["maps"] = ROOT / "maps"
    for old in pkg.iterdir():
        if old.name not in wanted or not old.is_symlink() or old.readlink() != wanted[old.name]:
            old.unlink()
    for name, target in wanted.items():
        if not (pkg / name).is_symlink():
            (pkg / name).symlink_to(target)
    return top


def run_mypy() -> tuple[int, str]:
    """mypy's exit status and report, its paths rewritten to the repository's (solver/...)."""
    top = package_tree()
    env = {**os.environ, "MYPYPATH": str(top)}  # before site-packages, where a real install may sit
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--cache-dir", str(CACHE), "--no-error-summary", "-p", "dipsat"],
        cwd=top, env=env, capture_output=True, text=True, timeout=600)
    report = proc.stdout + proc.stderr

    def repo_path(m: re.Match[str]) -> str:
        rest = m.group(1)
        for sub in ("variants/", "maps/"):
            if rest.startswith(sub):
                return rest
        return "solver/" + rest

    return proc.returncode, re.sub(r"^dipsat/(\S+?\.py)", repo_path, report, flags=re.M)


def test_mypy_finds_no_error() -> None:
    status, report = run_mypy()
    assert status == 0 and not report.strip(), (
        "mypy found type errors (keep solver/, variants/, maps/ type-clean; run "
        "'python tests/test_types.py' to see them):\n" + report)


if __name__ == "__main__":
    code, text = run_mypy()
    print(text, end="")
    sys.exit(code)
