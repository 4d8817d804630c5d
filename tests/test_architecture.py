"""The seams hold: the core names no variant, and every variant room is installed."""

import re
import tomllib

import pytest

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
        # the rooms are above the core: only the package root (the composition root) reads their
        # table, to plug it into the registry (dipsat.seams); tests/test_layers.py checks imports
        root = path == ROOT / "solver" / "__init__.py"
        for m in re.finditer(r"dipsat\.variants\.\w+|from\s+dipsat\.variants\s+import\s+(?!REGISTRY\b)\w+"
                             + ("" if root else r"|from\s+dipsat\.variants\s+import|import\s+dipsat\.variants"), text):
            offenders.append(f"{path.relative_to(ROOT)}: imports {m.group(0)!r}")
    assert not offenders, "the core names or imports a variant:\n" + "\n".join(offenders)


def test_every_variant_package_is_installed():
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    rooms = sorted(p.parent.name for p in (ROOT / "variants").glob("*/__init__.py"))
    missing = [r for r in rooms if f"dipsat.variants.{r}" not in packages]
    assert not missing, f"variant packages not listed in pyproject.toml [tool.setuptools] packages: {missing}"


def test_the_lazy_registry_matches_the_variant_records():
    """The registry names each variant without importing it; its names and aliases must be the
    records' own, and every variant room is registered."""
    from dipsat.variants import REGISTRY

    for entry in REGISTRY:
        record = entry.load()
        assert (entry.name, entry.aliases) == (record.name, tuple(record.aliases)), entry
    rooms = sorted(p.parent.name for p in (ROOT / "variants").glob("*/__init__.py"))
    assert sorted(e.module.rpartition(".")[2] for e in REGISTRY) == rooms


def test_every_registered_variant_is_a_record_and_nothing_subclasses_variant():
    """A variant is one value of one of the core's record types, built by its package: a
    Diplomacy board's Variant, or another game family's GameRecord; no class under variants/
    derives from either (hooks are the record's fields, not overridden methods)."""
    from dipsat.game.protocol import GameRecord
    from dipsat.game.variant import Variant
    from dipsat.variants import find_record

    for record in VARIANTS:
        assert type(record) in (Variant, GameRecord), record
        assert find_record(record.name) is record  # one record per variant, found by name
        for alias in record.aliases:
            assert find_record(alias) is record
    offenders = []
    for path in sorted((ROOT / "variants").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"^\s*class\s+(\w+)\s*\(([^)]*)\)", text, re.M):
            if re.search(r"\b(Variant|GameRecord)\b", m.group(2)):
                offenders.append(f"{path.relative_to(ROOT)}: class {m.group(1)}({m.group(2)})")
    assert not offenders, "Variant subclassed:\n" + "\n".join(offenders)


def test_a_new_variant_is_a_record_of_standard_parts_and_needs_no_edit_of_the_core():
    """A variant made here, in the test, from the core's parts: armies only, one movement a year,
    no retreats (a dislodged unit is destroyed whatever its orders), victory at 4 centres.  The
    core runs its game through the record's hooks alone (it is not even registered)."""
    from dipsat.errors import PositionError
    from dipsat.game.game import Game, StartSpec
    from dipsat.game.variant import DiplomacyYear, Phases, Victory, diplomacy_retreats
    from dipsat.face.render import render_svg
    from dipsat.game.variant import Variant, home_owners

    def no_retreats(variant, rules, movement, orders):
        return diplomacy_retreats(variant, rules, movement, {})  # no retreat is ever ordered

    def calendar(variant, rules):
        return DiplomacyYear(variant, movement_seasons=("year",), phases=Phases(retreat=no_retreats),
                             victory=variant.victory)

    tiny = Variant(name="tiny-test", description="armies only, no retreats", unit_kinds=("A",),
                   default_owners=home_owners, calendar=calendar, victory=Victory(centres=4))
    start = StartSpec(year=1901, season="year", units={"France": ["A Par", "A Mar", "A Bre", "A Bur", "A Ruh"],
                                                       "Germany": ["A Mun"]},
                      owners={"France": ["Par", "Mar", "Bre"], "Germany": ["Mun"]})
    game = Game(tiny, start=start)
    assert game.phase_name == "Y1901M"
    rec = game.step({"France": ["A Bur - Mun", "A Ruh S A Bur - Mun"], "Germany": ["A Mun H"]})
    assert rec.result.variant is tiny  # the result records the record it was adjudicated by
    assert "variant" not in rec.result.model_dump() and "armies only" not in repr(rec.result)  # nor in JSON or repr
    # pictures take the variant from the result: "tiny-test" is no registered name to look up
    assert rec.result.position.variant == "tiny-test" and render_svg(rec.result).startswith("<svg")
    assert game.phase_name == "Y1901R"
    game.step({"Germany": ["A Mun - Boh"]})  # written, but this variant's retreats take no orders
    assert not [u for u in game.position.units if u.power == "Germany"]
    assert game.winner == "France"  # Munich changed hands at the end of the year: 4 centres
    with pytest.raises(PositionError, match="not 'F'"):
        Game(tiny, start=StartSpec(year=1901, season="year", units={"England": ["F Lon"]}))


def test_the_order_kinds_of_the_variants_are_those_their_records_name():
    """A variant's own order kinds are a field of its record (registered into the order union
    when the record is made): every kind beyond the core's belongs to exactly one record."""
    from dipsat.models import ORDER_KINDS, Convoy, Hold, Move, Support, kind_tag

    core = {kind_tag(c) for c in (Hold, Move, Support, Convoy)}
    from dipsat.game.variant import Variant

    named: dict[str, str] = {}
    for record in VARIANTS:
        for kind in record.order_kinds if isinstance(record, Variant) else ():
            tag = kind_tag(kind)
            assert tag not in named and tag not in core, (tag, record.name)
            named[tag] = record.name
            assert ORDER_KINDS[tag] is kind
    of_variants = {t for t, c in ORDER_KINDS.items() if c.__module__.startswith("dipsat.variants.")}
    assert sorted(of_variants) == sorted(named)


def test_only_the_cpsat_service_makes_models_and_solvers():
    """One CP-SAT service (solver/cpsat.py): no other module constructs a model or a solver, nor
    overrides a private OR-Tools method."""
    offenders = []
    for folder in ("solver", "variants", "maps"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == ROOT / "solver" / "engine" / "cpsat.py":
                continue
            text = path.read_text(encoding="utf-8")
            for m in re.finditer(r"\bCp(Model|Solver)\(", text):
                offenders.append(f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}")
    assert not offenders, "CP-SAT models or solvers made outside dipsat.engine.cpsat:\n" + "\n".join(offenders)
    service = (ROOT / "solver" / "engine" / "cpsat.py").read_text(encoding="utf-8")
    assert not re.search(r"class \w+\(cp_model\.Cp(Model|Solver)\)", service), "OR-Tools' model or solver subclassed"
    assert "_add_pre_pep8_methods" not in service
