"""The seams hold: the core names no variant, and every variant room is installed."""

import re
import tomllib

from dipsat.variants import VARIANTS

from conftest import ROOT

# the registered variants, and the seeds' variants still being built
NAMES = sorted({c.name for c in VARIANTS if c.name != "standard"}
               | {"multiplomacy", "multinational", "multiplicity", "continents", "supremacy"})


def test_no_module_of_the_core_imports_or_names_a_variant():
    offenders = []
    for path in sorted((ROOT / "solver").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for name in NAMES:
            for m in re.finditer(name, text, re.I):
                line = text.count("\n", 0, m.start()) + 1
                offenders.append(f"{path.relative_to(ROOT)}:{line}: {name}")
        for m in re.finditer(r"dipsat\.variants\.\w+|from\s+dipsat\.variants\s+import\s+(?!find_variant|VARIANTS|variant_names)\w+", text):
            offenders.append(f"{path.relative_to(ROOT)}: imports {m.group(0)!r}")
    assert not offenders, "the core names or imports a variant:\n" + "\n".join(offenders)


def test_every_variant_package_is_installed():
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    rooms = sorted(p.parent.name for p in (ROOT / "variants").glob("*/__init__.py"))
    missing = [r for r in rooms if f"dipsat.variants.{r}" not in packages]
    assert not missing, f"variant packages not listed in pyproject.toml [tool.setuptools] packages: {missing}"


def test_the_lazy_registry_matches_the_variant_classes():
    """The registry names each variant without importing it; its names and aliases must be the
    classes' own, and every variant room is registered."""
    from dipsat.variants import REGISTRY

    for entry in REGISTRY:
        cls = entry.load()
        assert (entry.name, entry.aliases) == (cls.name, tuple(cls.aliases)), entry
    rooms = sorted(p.parent.name for p in (ROOT / "variants").glob("*/__init__.py"))
    assert sorted(e.module for e in REGISTRY) == rooms
