"""The package as a user installs it: the wheel ships every file and ``py.typed``, and mypy --strict
finds no error in it.

The three folders install as one package (``dipsat``, ``dipsat.variants``, ``dipsat.maps``, by
setuptools' package-dir mapping in ``pyproject.toml``), which mypy cannot follow through an
editable install.  So the check has setuptools build the wheel a user's ``pip install`` gets
(``bdist_wheel``, with the packages and package data ``pyproject.toml`` declares) into a temporary
directory, unpacks it, and runs ``mypy -p dipsat`` on the unpacked package with the settings of
``pyproject.toml`` ([tool.mypy]: strict).  The wheel must hold every file of ``solver/``,
``variants/`` and ``maps/`` that git tracks, plus the PEP 561 marker ``py.typed`` (so a user's own
type checker reads dipsat's annotations instead of seeing ``Any``).  mypy's cache (``.mypy_cache``
of the repository) checks again only what changed.

Run by hand: ``python tests/test_types.py`` prints mypy's report with paths of the repository.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".mypy_cache"
# where each installed package's files come from (pyproject.toml [tool.setuptools.package-dir])
SOURCES = {"solver": "dipsat", "variants": "dipsat/variants", "maps": "dipsat/maps"}


def build_package(dest: Path) -> Path:
    """The wheel setuptools builds of the package, unpacked into ``dest`` (holding ``dipsat/``);
    raises with the build's output."""
    work = dest / "build"
    proc = subprocess.run(
        [sys.executable, "-c", "from setuptools import setup; setup()", "-q",
         "build", "-b", str(work / "build"), "egg_info", "-e", str(work),
         "bdist_wheel", "-b", str(work / "bdist"), "-d", str(work / "dist")],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    wheels = sorted((work / "dist").glob("dipsat-*.whl")) if proc.returncode == 0 else []
    if len(wheels) != 1:
        raise RuntimeError(f"setuptools could not build the wheel:\n{proc.stdout}{proc.stderr}")
    with zipfile.ZipFile(wheels[0]) as whl:
        for info in whl.infolist():
            if info.filename.startswith("dipsat/"):
                whl.extract(info, dest)
                # the file's time as the wheel records it (mypy's cache compares times first)
                stamp = time.mktime((*info.date_time, 0, 0, -1))
                os.utime(dest / info.filename, (stamp, stamp))
    return dest


def shipped_files(top: Path) -> set[str]:
    """The files of the unpacked wheel, as paths under ``top`` (``dipsat/...``)."""
    return {p.relative_to(top).as_posix() for p in (top / "dipsat").rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


def tracked_files() -> set[str]:
    """The files git tracks in solver/, variants/, maps/, as paths of the installed package."""
    out = subprocess.run(["git", "ls-files", *SOURCES], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split()
    installed = set()
    for path in out:
        folder, rest = path.split("/", 1)
        installed.add(f"{SOURCES[folder]}/{rest}")
    return installed


def run_mypy(top: Path) -> tuple[int, str]:
    """mypy's exit status and report on the package built in ``top``, paths as the repository's."""
    env = {**os.environ, "MYPYPATH": str(top)}  # before site-packages, where a real install may sit
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--cache-dir", str(CACHE), "--no-error-summary", "-p", "dipsat"],
        cwd=top, env=env, capture_output=True, text=True, timeout=600)
    report = proc.stdout + proc.stderr

    def repo_path(m: re.Match[str]) -> str:
        rest = m.group(1)
        for folder, package in SOURCES.items():
            if folder != "solver" and rest.startswith(package + "/"):
                return folder + rest[len(package):]
        return "solver" + rest[len("dipsat"):]

    return proc.returncode, re.sub(r"^(dipsat/\S+?\.py)", repo_path, report, flags=re.M)


@pytest.fixture(scope="module")
def built() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="dipsat-build-") as tmp:
        yield build_package(Path(tmp))


def test_the_build_ships_every_file_and_py_typed(built: Path) -> None:
    shipped = shipped_files(built)
    assert "dipsat/py.typed" in shipped, "py.typed is not in the built package (pyproject package-data)"
    assert "dipsat/maps/standard.toml" in shipped and "dipsat/variants/supremacy/world.toml" in shipped
    # the sandbox's page, and the cases it loads by name (the DATC, the corpora, the examples)
    assert {"dipsat/face/serve/static/index.html", "dipsat/face/serve/static/sandbox.js",
            "dipsat/face/serve/static/families.js", "dipsat/corpora/datc/6.F.16.toml",
            "dipsat/corpora/multiplicity/README.md", "dipsat/examples/pandin.toml"} <= shipped
    missing = sorted(tracked_files() - shipped)
    assert not missing, ("files of the repository the built package lacks (declare the package or its "
                         f"data in pyproject.toml [tool.setuptools]): {missing}")


def test_mypy_strict_finds_no_error(built: Path) -> None:
    status, report = run_mypy(built)
    assert status == 0 and not report.strip(), (
        "mypy --strict found type errors (keep solver/, variants/, maps/ type-clean; run "
        "'python tests/test_types.py' to see them):\n" + report)


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="dipsat-build-") as tmp:
        code, text = run_mypy(build_package(Path(tmp)))
    print(text, end="")
    sys.exit(code)


USER_SCRIPT = '''
from typing import assert_type

from dipsat import Game, RuleOptions, adjudicate, legal_orders, preset
from dipsat.outcomes import MovementResult, Outcome, OutcomeKind

res = adjudicate({"units": {"France": ["A Par"]}, "orders": {"France": ["A Par - Bur"]}})
for o in res.outcomes:
    print(o.power, o.text, o.result, o.reason, o.succeeded)
if isinstance(res, MovementResult):
    assert_type(res.outcomes[0], Outcome)
    assert_type(res.outcomes[0].result, OutcomeKind)
    print([u.power for u in res.dislodged_units])
assert_type(legal_orders({"units": {"France": ["A Par"]}}), dict[str, dict[str, list[str]]])
assert_type(preset("1982"), RuleOptions)
game = Game("standard")
assert_type(game.phase_name, str)
res.no_such_field  # the one error: results are typed, not Any
'''


def test_a_users_script_sees_typed_results(built: Path, tmp_path: Path) -> None:
    """mypy --strict on a user's script against the built package: the public API's results are
    typed (an outcome's ``result`` is the closed Literal of kinds), not ``Any``."""
    script = tmp_path / "user.py"
    script.write_text(USER_SCRIPT, encoding="utf-8")
    env = {**os.environ, "MYPYPATH": str(built)}
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(CACHE), "--no-error-summary",
                           "--python-version", "3.11", str(script)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    errors = [line for line in (proc.stdout + proc.stderr).splitlines() if line.startswith("user.py:")]
    assert errors and all(line.startswith("user.py:18: error:") and "no_such_field" in line for line in errors), \
        proc.stdout + proc.stderr
