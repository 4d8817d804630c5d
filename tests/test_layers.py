"""The core is layers a reader can see (ARCHITECTURE.md, "Layers"): each module of ``solver/``
imports only its own layer and those below it — deferred imports inside functions and type-only
imports under ``TYPE_CHECKING`` included — and no circle of imports is left in ``solver/`` or
``variants/``.  The variant rooms sit above the whole core: no module of the core imports them;
the package root (``dipsat/__init__.py``, the composition root) is the one place that connects
the core's registry to them."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

from conftest import ROOT

# lowest first: a module may import its own rank and lower ranks
RANKS = {
    "dipsat.errors": 0, "dipsat.limits": 0, "dipsat.seams": 0, "dipsat.records": 0, "dipsat.pydantic_plugins": 0,
    "dipsat.engine": 1,
    "dipsat.rules": 2, "dipsat.models": 2, "dipsat.outcomes": 2,
    "dipsat.board": 3,
    "dipsat.game": 4,
    "dipsat.io": 5,
    "dipsat.research": 6,
    "dipsat.face": 7,
}
TOP = 99  # the package root: the public API, above every layer
ROOTS = {"solver": "dipsat", "variants": "dipsat.variants", "maps": "dipsat.maps"}


def modules(folder: str) -> dict[str, Path]:
    base = ROOT / folder
    found = {}
    for path in sorted(base.rglob("*.py")):
        parts = list(path.relative_to(base).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join([ROOTS[folder], *parts])] = path
    return found


ALL = {**modules("solver"), **modules("variants"), **modules("maps")}


def imports(name: str, path: Path) -> list[tuple[int, str]]:
    """Every module of dipsat that ``name`` imports anywhere in its text: (line, module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # ``from package import module`` imports the module
            targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in ALL else module for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in ALL:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.append((node.lineno, target))
    return found


def rank(name: str) -> int:
    if name == "dipsat":
        return TOP
    for prefix, r in RANKS.items():
        if name == prefix or name.startswith(prefix + "."):
            return r
    raise AssertionError(f"{name}: a module of solver/ in no layer (add it to a layer package)")


def test_every_module_of_the_core_is_in_a_layer():
    for name in modules("solver"):
        rank(name)


def test_no_import_runs_up_a_layer():
    offenders = []
    for name, path in modules("solver").items():
        for line, target in imports(name, path):
            if target.startswith(("dipsat.variants", "dipsat.maps")):
                if target.startswith("dipsat.variants") and name != "dipsat":
                    offenders.append(f"{path.relative_to(ROOT)}:{line}: imports the variant rooms ({target})")
                continue
            if rank(target) > rank(name):
                offenders.append(f"{path.relative_to(ROOT)}:{line}: {name} (layer {rank(name)}) imports "
                                 f"{target} (layer {rank(target)})")
    assert not offenders, "imports that run up a layer:\n" + "\n".join(offenders)


def test_no_circle_of_imports():
    graph = nx.DiGraph()
    for name, path in ALL.items():
        graph.add_node(name)
        for _, target in imports(name, path):
            graph.add_edge(name, target)
    # a package's __init__ that only re-exports (the root's lazy API map) is not an import circle:
    # the root imports nothing at module level but the registry hook; its lazy look-ups are names
    graph.remove_node("dipsat")
    circles = sorted(sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1)
    assert not circles, "circles of imports:\n" + "\n".join(" <-> ".join(c) for c in circles)


def test_the_checker_sees_deferred_and_type_only_imports(tmp_path):
    """The checker is not blind: a deferred and a type-only import are found."""
    path = tmp_path / "probe.py"
    path.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from dipsat.face import cli\n"
                    "def f():\n    from dipsat.io.batch import run\n", encoding="utf-8")
    found = {t for _, t in imports("dipsat.engine.probe", path)}
    assert found == {"dipsat.face.cli", "dipsat.io.batch"}


# modules still over the limit, each with the reason and the work that splits it (the test fails
# when one is split and still listed, or another grows past the limit)
MAX_LINES = 600
OVER_THE_LIMIT: dict[str, str] = {}


def test_no_module_is_over_600_lines():
    over = {}
    for folder in ("solver", "variants", "maps"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            n = len(path.read_text(encoding="utf-8").splitlines())
            if n > MAX_LINES:
                over[str(path.relative_to(ROOT))] = n
    assert sorted(over) == sorted(OVER_THE_LIMIT), (
        f"modules over {MAX_LINES} lines (split them along a seam): {over}; still listed as over: "
        f"{sorted(set(OVER_THE_LIMIT) - set(over))}")
