"""dipsat readings: every reading of the rule options in one enumeration, checked against
running each assignment separately (brute force) on every DATC case and every Diplomacy-family
seed-variant corpus case.

Every assignment of every case is compared (the product of the options that touch the case), and
the conditions ``dipsat readings`` prints for each order are checked against the conditions
computed from the brute-force table.  ``python -m benchmarks.readings`` runs the same comparison
and times both ways."""

from __future__ import annotations

import json
from itertools import product
from pathlib import Path
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from dipsat.game.api import TurnRequest
from dipsat.face.cli import main
from dipsat.io.corpus import case_files, load_case
from dipsat.errors import DipsatError
from dipsat.engine.option_space import assignments, option_values
from dipsat.research.option_conditions import _cover, conditions
from dipsat.research.readings import OrderOutcome, brute_force, turn_readings
from dipsat.research.readings_format import order_readings

CORPORA = Path(__file__).parent / "corpora"
FAMILY = ("datc", "readings", "multiplomacy", "multinational", "multiplicity")  # the Diplomacy-family corpora (the others: see test_family_readings)
# one turn each: a game case (phase "game", several phases in turn) has no one turn's readings
CASES = [f for c in FAMILY for f in case_files([CORPORA / c]) if load_case(f).phase != "game"]


def _request(path: Path) -> TurnRequest:
    c = load_case(path)
    return TurnRequest(variant=c.variant, phase=c.phase, units=c.units, orders=c.orders, owners=c.owners,
                       retreat_orders=c.retreat_orders)


def _chunks(n: int) -> list[list[Path]]:
    return [CASES[i::n] for i in range(n)]


@pytest.mark.parametrize("chunk", _chunks(4), ids=[f"part{i}" for i in range(4)])
def test_one_enumeration_equals_brute_force_on_every_corpus_case(chunk):
    """Also: ``option_formulas`` (printed by ``dipsat rules``) is what each variant's movement
    rules do: every option split on in the equations is declared, and none declared is read
    directly while the orders are bound and the equations built."""
    from dipsat.variants import find_variant

    for path in chunk:
        req = _request(path)
        rd = turn_readings(req)
        rules = find_variant(req.variant).movement_rules_class
        declared = set(rules.option_formulas)
        assert set(rd.in_model) <= declared, path.name
        assert not (declared - set(rules.bound_too)) & set(rd.outside), path.name
        table = {tuple(sorted(a.items())): (r.outcomes, r.after) for a, r in rd.table}
        bf = brute_force(req, rd.options)
        assert len(bf) == len(table), path.name  # every assignment, once
        base = _defaults(req)
        assert tuple(sorted((n, getattr(base, n)) for n in rd.options)) in table, path.name  # the defaults among them
        for a, got in bf:
            assert table[tuple(sorted(a.items()))] == got, f"{path.name} under {a}"
        _same_conditions(rd, bf, path.name)


def _same_conditions(rd, bf, name: str) -> None:
    """The conditions printed for each order are those computed from the brute-force table."""
    for orr in order_readings(rd):
        absent = "(absent)" if rd.family else "(not ordered)"
        table = [(a, next((o.result for o in res[0] if o.order == orr.order), absent)) for a, res in bf]
        deps, covers = conditions(rd.model, rd.options, table)
        assert deps == orr.depends, (name, orr.order)
        assert {r for r, _ in orr.outcomes} == set(covers), (name, orr.order)


def _defaults(req: TurnRequest):
    from dipsat.game.positions import resolve_rules
    from dipsat.variants import find_variant

    return resolve_rules(find_variant(req.variant), req)


def test_paradox_rule_in_the_model_and_conditions():
    rd = turn_readings(_request(CORPORA / "datc" / "6.F.14.toml"))
    assert "convoy_paradox_rule" in rd.in_model
    wales = next(o for o in order_readings(rd) if o.order == "England: F Wales - English Channel")
    assert wales.depends == ["convoy_paradox_rule", "convoy_path"]
    assert wales.outcomes == [("bounced", "convoy_paradox_rule = all_hold and convoy_path ≠ required"),
                              ("moved", "convoy_paradox_rule ≠ all_hold or convoy_path = required")]


def test_fixed_options_are_not_enumerated():
    req = _request(CORPORA / "datc" / "6.F.14.toml")
    req.options = {"convoy_path": "ignored"}
    rd = turn_readings(req)
    assert "convoy_path" not in rd.options
    wales = next(o for o in order_readings(rd) if o.order == "England: F Wales - English Channel")
    assert wales.outcomes == [("bounced", "convoy_paradox_rule = all_hold"), ("moved", "convoy_paradox_rule ≠ all_hold")]


def test_other_phases_are_enumerated_outside_the_model():
    rd = turn_readings(_request(CORPORA / "datc" / "6.H.11.toml"))
    assert "retreat_to_convoyed_attacker_origin" in rd.options
    mar = next(o for o in order_readings(rd) if o.order == "Italy: A Mar may retreat to")
    assert mar.depends == ["adjacent_convoy", "retreat_to_convoyed_attacker_origin"]
    assert mar.outcomes == [("gas, pie, spa", "adjacent_convoy ≠ 1971 and retreat_to_convoyed_attacker_origin = true"),
                            ("pie, spa", "adjacent_convoy = 1971 or retreat_to_convoyed_attacker_origin = false")]


def test_cli(capsys):
    f = str(CORPORA / "datc" / "6.F.14.toml")
    assert main(["readings", f, "--option", "convoy_path=ignored"]) == 0
    out = capsys.readouterr().out
    assert "England: F Wales - English Channel: bounced iff convoy_paradox_rule = all_hold; else moved" in out
    assert "Distinct outcomes of the whole turn: 2 (depending on convoy_paradox_rule)" in out
    assert main(["readings", f, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["distinct_outcomes"] == 3 and "multi_route_disruption" in data["never_matter"]
    assert main(["readings", f, "--order", "F Wales - Nowhere"]) == 2
    assert "is not one of the turn's orders" in capsys.readouterr().err


def _family_files() -> list[Path]:
    """Every case of the continents and Supremacy corpora."""
    return [f for c in ("continents", "supremacy") for f in case_files([CORPORA / c]) if f.suffix == ".toml"]


@pytest.mark.parametrize("chunk", [0, 1], ids=["part0", "part1"])
def test_other_families_readings_equal_brute_force(chunk):
    """A variant of another game family: its readings (one run per class of the options the runs
    read) equal running the file under every assignment with a plain options object, and the
    conditions printed per item are those of the brute-force table."""
    from dipsat.game.api import read_data_file
    from dipsat.limits import DEFAULT_LIMITS
    from dipsat.game.families import find_game
    from dipsat.research.readings import _flatten, phase_data, protocol_readings

    for path in _family_files()[chunk::2]:
        data = read_data_file(path)
        game = find_game(data["variant"])
        req = game.read(data, str(path), DEFAULT_LIMITS)
        rd = protocol_readings(game, req, data)
        base = game.options(req)
        table = {tuple(sorted(a.items())): r.outcomes for a, r in rd.table}
        bf = []
        for a in assignments(rd.model, rd.options):  # the product of the options that touch the case
            try:
                got = tuple((k, v) for k, v in _flatten(phase_data(game.adjudicate(req, base.model_copy(update=a)))))
            except DipsatError as exc:
                got = (("error", str(exc)),)
            assert tuple((o.order, o.result) for o in table[tuple(sorted(a.items()))]) == got, f"{path.name} under {a}"
            bf.append((a, (tuple(OrderOutcome(order=k, result=v, reason="") for k, v in got), ())))
        assert len({tuple(sorted(a.items())) for a, _ in bf}) == len(bf) == len(table)
        _same_conditions(rd, bf, path.name)


def test_other_families_readings_cli(capsys):
    f = str(CORPORA / "continents" / "rule_11_defend_first.toml")
    assert main(["readings", f]) == 0
    out = capsys.readouterr().out
    assert 'units_after.A: ["3 Pie"] iff defend_first = all_units; else ["5 Pie"]' in out
    assert "no one model (a game of its own family" in out
    assert main(["readings", f, "--json", "--option", "defend_first=all_units"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["distinct_outcomes"] == 1 and "defend_first" not in data["options"]
    s = str(CORPORA / "supremacy" / "assault_airlift.toml")
    assert main(["readings", s, "--order", "error"]) == 0
    assert "set the rule option 'airlift_assault'" in capsys.readouterr().out




@pytest.mark.parametrize("name", ["6.F.14", "6.F.18", "6.G.11", "6.E.01"])
def test_one_model_counts_every_readings_resolutions(name):
    """The one CP-SAT model of every in-model reading (option literals, exactly one per option)
    finds, for each assignment, exactly the consistent resolutions the single-preset equations
    have under it (counted by enumerating that preset's own model)."""
    from dipsat.game.positions import resolve_rules
    from dipsat.engine.equations import enumerate_all
    from dipsat.research.readings import _request_parts
    from dipsat.variants import find_variant

    req = _request(CORPORA / "datc" / f"{name}.toml")
    rd = turn_readings(req)
    assert rd.space_calls >= 1
    variant = find_variant(req.variant)
    pos, orders = _request_parts(variant, req)
    seen = set()
    for a, r in rd.table:
        opts = resolve_rules(variant, req).with_(**a)
        key = tuple(getattr(opts, n) for n in rd.in_model) + tuple(a.get(n) for n in rd.outside)
        if key in seen:
            continue
        seen.add(key)
        enc = variant.movement_rules(opts).encode(variant.binder(opts).bind(pos, orders))
        assert r.before_backup == len(enumerate_all(enc.system, limit=64)), (name, a)


def test_backup_rules_are_applied_to_the_one_models_resolutions():
    """Circular movement (6.C.1) and a paradox with two resolutions (6.F.14) are settled from the
    one enumeration, no cycle counted again; Pandin's paradox (6.F.16) has no consistent
    resolution under Szykman and all-hold, so the backup rule changes the equations there."""
    for name in ("6.C.01", "6.F.14"):
        rd = turn_readings(_request(CORPORA / "datc" / f"{name}.toml"))
        assert rd.stats.from_model >= 1 and rd.stats.resolved == 0, name
    rd = turn_readings(_request(CORPORA / "datc" / "6.F.16.toml"))
    assert rd.stats.changed >= 1 and rd.stats.downstream == 0


def test_solve_from_space_equals_the_single_preset_solve():
    """Given every consistent resolution of a system, the walk gives solve_system's values and
    backups; without them (None) it counts by CP-SAT like solve_system."""
    from dipsat.game.positions import resolve_rules
    from dipsat.engine.equations import enumerate_all, solve_system
    from dipsat.research.readings import SpaceStats, _request_parts, solve_from_space
    from dipsat.variants import find_variant

    for name in ("6.C.01", "6.C.03", "6.F.14", "6.F.16", "6.F.24", "6.G.13"):
        req = _request(CORPORA / "datc" / f"{name}.toml")
        variant = find_variant(req.variant)
        pos, orders = _request_parts(variant, req)
        for rule in ("szykman", "all_hold", "1982"):
            opts = resolve_rules(variant, req).with_(convoy_paradox_rule=rule)
            impl = variant.movement_rules(opts)
            system = impl.encode(variant.binder(opts).bind(pos, orders)).system
            want = solve_system(system, impl.backup)
            for pool in (enumerate_all(system, limit=4096), None):
                got = solve_from_space(system, impl.backup, pool, SpaceStats())
                assert got.values == want.values, (name, rule)
                assert [(c.decisions, c.resolutions, c.backup) for c in got.components] == \
                    [(c.decisions, c.resolutions, c.backup) for c in want.components], (name, rule)


class _Four(BaseModel):
    """Four options of two to four values, for the cover's property test."""

    a: Literal["x", "y"] = "x"
    b: Literal[1, 2, 3] = 1
    c: bool = True
    d: Literal["p", "q", "r", "s"] = "p"


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.data())
def test_conditions_cover_exactly_by_maximal_cubes(data):
    """The conditions printed for a value are cubes (one set of values per option) whose points
    are exactly the assignments giving that value, and none of them could take one more value of
    one option and stay inside those assignments."""
    names = data.draw(st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=4, unique=True))
    space = list(product(*(option_values(_Four, n) for n in names)))
    pts = data.draw(st.sets(st.sampled_from(space), min_size=1))
    cubes = _cover(_Four, names, set(pts))
    covered = set()
    for cube in cubes:
        inside = set(product(*cube))
        assert inside <= pts
        covered |= inside
        for i, n in enumerate(names):
            for v in set(option_values(_Four, n)) - cube[i]:
                grown = cube[:i] + (cube[i] | {v},) + cube[i + 1:]
                assert not set(product(*grown)) <= pts, (cube, n, v)
    assert covered == pts
