"""The README's and the docs pages' examples are real: each ``$ dipsat ...`` block is run and every
line it shows (except ``...``) must appear in the output; each ``python`` block runs; every
relative link (file and ``#anchor``) resolves; the README stays short."""

import re
import shlex
from pathlib import Path

import pytest

from dipsat.face.cli import main

from conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
TEXTS = {p: p.read_text(encoding="utf-8") for p in PAGES}
BLOCKS = [(p.relative_to(ROOT).as_posix(), cmd, shown)
          for p, text in TEXTS.items()
          for cmd, shown in re.findall(r"```\n\$ (dipsat [^\n]+)\n(.*?)```", text, re.S)]


def test_readme_is_short_with_contents():
    assert len(README.splitlines()) <= 300
    assert "## Contents" in README
    assert len([b for b in BLOCKS if b[0] == "README.md"]) >= 4


def test_docs_have_examples():
    assert len(BLOCKS) >= 20
    for page in ("variants/standard.md", "variants/multiplomacy.md", "variants/multinational.md",
                 "variants/multiplicity.md", "variants/continents.md", "variants/supremacy.md",
                 "rule-options.md", "cli.md", "research.md", "python-api.md", "performance.md"):
        assert (ROOT / "docs" / page).is_file(), page


@pytest.mark.parametrize("page,command,shown", BLOCKS, ids=[f"{b[0]}: {b[1]}" for b in BLOCKS])
def test_example_output(page, command, shown, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    main(shlex.split(command)[1:])
    out = [" ".join(x.split()) for x in capsys.readouterr().out.splitlines()]
    for line in shown.splitlines():
        want = " ".join(line.split())  # column padding may differ
        if want and want != "...":
            assert any(want in got for got in out), f"{page}: line not in the output of {command!r}: {line!r}"


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, re.S)


@pytest.mark.parametrize("page", [p for p in PAGES if _python_blocks(TEXTS[p])],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_python_examples_run(page, capsys):
    for block in _python_blocks(TEXTS[page]):
        exec(compile(block, str(page), "exec"), {})
    if page.name == "README.md":
        assert "France A Par - Bur moved" in capsys.readouterr().out


def _anchors(text: str) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    out = set()
    for head in re.findall(r"^#+ (.+)$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", head.strip().lower()).replace(" ", "-")
        out.add(slug)
    return out


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_links_resolve(page):
    text = re.sub(r"```.*?```", "", TEXTS[page], flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        assert dest.exists(), f"{page.name}: broken link {target!r}"
        if anchor and dest.suffix == ".md":
            assert anchor in _anchors(dest.read_text(encoding="utf-8")), f"{page.name}: no anchor {target!r}"


def test_install_adds_only_the_dipsat_package():
    """Installing must not put generic top-level packages (solver, variants, maps) into
    site-packages: the build maps every folder under ``dipsat``, and the installed tree has
    nothing else (checked for real on CI's non-editable install)."""
    import sysconfig
    import tomllib

    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert all(p == "dipsat" or p.startswith("dipsat.") for p in conf["packages"])
    site = Path(sysconfig.get_paths()["purelib"])
    assert not [n for n in ("solver", "variants", "maps", "tests", "benchmarks") if (site / n).exists()]
    import dipsat

    assert {"adjudicate", "load_case", "find_variant"} <= set(dipsat.__all__)


def test_the_docs_site_builds_with_warnings_as_errors(tmp_path):
    """docs/ is a site built by MkDocs (mkdocs.yml; the test and docs extras install it): every page
    in the navigation, every link to a page or an anchor resolves (mkdocs build --strict fails on a
    warning), and every page of docs/ is in the navigation."""
    import subprocess
    import sys

    from conftest import ROOT

    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
                           "-d", str(tmp_path / "site")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    pages = {p.relative_to(ROOT / "docs").with_suffix("").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    built = {p.parent.relative_to(tmp_path / "site").as_posix() for p in (tmp_path / "site").rglob("index.html")}
    assert {("." if p == "index" else p) for p in pages} <= built, sorted(pages)
