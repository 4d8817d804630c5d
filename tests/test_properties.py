"""Properties of random standard turns (hypothesis, derandomised so CI is deterministic)."""

import json
import os
import subprocess
import sys

from hypothesis import HealthCheck, given, settings, strategies as st

from dipsat.game.api import adjudicate, result_to_json
from dipsat.engine.formulas import evaluate
from dipsat.models import Position
from dipsat.board.notation import format_order
from dipsat.board.retreats import retreat_options
from dipsat.variants import find_variant

from conftest import ROOT
from strategies import MAP, any_turns, rich_turns, workload

SETTINGS = settings(max_examples=250, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
STANDARD = find_variant("standard")


@SETTINGS
@given(any_turns())
def test_board_invariants(req):
    res = adjudicate(req)
    provinces = [u.province for u in res.after.units]
    assert len(provinces) == len(set(provinces)), "two units in one province"
    assert len(res.after.units) + len(res.dislodged) == len(res.position.units), "units not conserved"
    per_unit = [o.unit for o in res.outcomes if o.order_kind != "rejected"]
    assert sorted(per_unit) == list(range(len(res.position.units))), "not one outcome per unit"
    for u in res.dislodged:
        assert res.dislodged_by[u] is not None


@SETTINGS
@given(any_turns())
def test_retreat_options_are_legal(req):
    res = adjudicate(req)
    occupied = {u.province for u in res.after.units}
    for opt in retreat_options(MAP, STANDARD.rules(), res):
        unit = res.position.units[opt.unit]
        attacker = res.position.units[res.dislodged_by[opt.unit]]
        for loc in opt.open:
            prov = MAP.province_of(loc)
            assert loc in MAP.neighbours(unit.kind, unit.location)
            assert prov not in occupied and prov not in res.contested and MAP.passable(prov)
            assert prov != attacker.province or res.dislodged_by[opt.unit] in res.convoyed


@SETTINGS
@given(any_turns(), st.randoms(use_true_random=False))
def test_order_of_submission_does_not_matter(req, rnd):
    ref = result_to_json(adjudicate(req))
    powers = list(req["orders"])
    rnd.shuffle(powers)
    shuffled = {"units": {p: list(reversed(v)) for p, v in reversed(list(req["units"].items()))},
                "orders": {p: rnd.sample(req["orders"][p], len(req["orders"][p])) for p in powers}}
    assert result_to_json(adjudicate(shuffled)) == ref


@SETTINGS
@given(any_turns())
def test_every_resolution_satisfies_the_equations(req):
    from dipsat.game.api import TurnRequest, build_position
    from dipsat.engine.equations import solve_system

    r = TurnRequest.model_validate(req)
    pos = build_position(STANDARD, r)
    opts = STANDARD.rules()
    bound = STANDARD.binder(opts).bind(pos, r.orders)
    impl = STANDARD.movement_rules(opts)
    enc = impl.encode(bound)
    sol = solve_system(enc.system, impl.backup)
    for name, f in sol.defs.items():
        assert evaluate(f, sol.values) == sol.values[name], name


@SETTINGS
@given(rich_turns())
def test_parse_format_round_trip(req):
    n = STANDARD.notation
    for texts in req["orders"].values():
        for t in texts:
            p = n.parse(t)
            q = n.parse(format_order(p))
            assert (q.unit, q.action, q.dest, q.target, q.via_convoy, q.path) == (p.unit, p.action, p.dest, p.target, p.via_convoy, p.path)


@SETTINGS
@given(rich_turns())
def test_positions_round_trip_through_json(req):
    res = adjudicate(req)
    for pos in (res.position, res.after):
        assert Position.model_validate_json(pos.model_dump_json()) == pos


def test_hash_seed_does_not_matter(tmp_path):
    turns = [workload.generate_turn(11, i) for i in range(40)]
    inp = tmp_path / "in.jsonl"
    inp.write_text("".join(json.dumps(t) + "\n" for t in turns))
    outs = []
    for seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        out = tmp_path / f"out{seed}.jsonl"
        subprocess.run([sys.executable, "-m", "dipsat.face.cli", "batch", str(inp), "-o", str(out)],
                       check=True, env=env, cwd=ROOT, capture_output=True)
        outs.append(out.read_text())
    assert outs[0] == outs[1] and outs[0].count("\n") == 40


def test_option_strategies_draw_every_field_of_both_seed_options_models():
    """The property tests of Multiplicity Plus and continents draw their options from
    ``strategies.multiplicity_options`` / ``continents_options``: every field of the options
    model, each over all its values (a field that is not a ``Literal`` would be left out, so
    only those named here may be).  Each search stops at the first draw that has the value (no
    shrinking: the draw's fields, not its smallest form, are what is checked), from a fixed seed."""
    from typing import get_args

    from random import Random

    from hypothesis import Phase, find, settings

    from dipsat.rules import RuleOptions
    from dipsat.variants.continents.rules import ContinentsRules
    from dipsat.variants.multiplicity.options import MultiplicityOptions
    from strategies import continents_options, multiplicity_options

    for strategy, model, base, not_drawn in ((multiplicity_options(), MultiplicityOptions, RuleOptions, set()),
                                             (continents_options(), ContinentsRules, None, {"name", "random_seed"})):
        fields = set(model.model_fields) - set(base.model_fields if base else ())
        for name in sorted(fields - not_drawn):
            for value in get_args(model.model_fields[name].annotation):
                drawn = find(strategy, lambda d, n=name, v=value: d.get(n) == v,
                             settings=settings(phases=(Phase.generate,), database=None), random=Random(0))
                assert set(drawn) == fields - not_drawn, (model.__name__, sorted(fields - not_drawn - set(drawn)))
