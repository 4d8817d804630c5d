"""The movement hooks: a variant says how its rules differ, the core's encoding does the rest.

An integer support decision (the ``cuts`` hook returning integer definitions, counted by
``support_terms``) goes through the shared encoding, both ways of solving and the shared
explanation: with "the support is worth the supporter's weight when not cut, else 0" it must
decide every DATC case exactly as the boolean support decisions do, strengths included.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import pytest

from dipsat.io.corpus import case_files, load_case, runs_of
from dipsat.engine.equations import solve_system
from dipsat.engine.formulas import IF, INT, Definition, Key
from dipsat.board.encoding import Encoding, Terms, _name
from dipsat.board.movement import MovementRules
from dipsat.models import Support
from dipsat.game.pipeline import Pipeline
from dipsat.game.api import TurnRequest, resolve_rules
from dipsat.variants import find_variant

from conftest import ROOT


class IntegerSupports(MovementRules):
    """DATC rules, the support decisions as integers: how much support each supporter gives."""

    def cuts(self, enc: Encoding) -> list[tuple[Key, Definition]]:
        pos = enc.bound.position
        return [(_name("S", s), IF(self.support_formula(enc, s), self.unit_weight(pos, s), 0))
                for s, o in sorted(enc.bound.orders.items()) if isinstance(o.body, Support) and enc.matched.get(s)]

    def support_terms(self, enc: Encoding, supporters: list[int], exclude_power: Optional[str] = None) -> Terms:
        pos = enc.bound.position
        return [(f"support {enc.labels[s]}", 1, INT(_name("S", s))) for s in supporters
                if enc.matched.get(s) and (exclude_power is None or pos.units[s].power != exclude_power)]


def _cases_with_supports() -> list[Path]:
    out = []
    for f in case_files([ROOT / "tests" / "corpora" / "datc"]):
        text = f.read_text(encoding="utf-8")
        if " S " in text or "Supports" in text:
            out.append(f)
    return out


@pytest.mark.parametrize("mode", ["direct", "cpsat"])
def test_integer_support_decisions_decide_as_the_boolean_ones(mode: str) -> None:
    variant = find_variant("standard")
    checked = 0
    for f in _cases_with_supports():
        case = load_case(f)
        if case.variant != "standard" or case.phase != "movement":
            continue
        rules_name, exp = runs_of(case)[0]
        req = TurnRequest(variant="standard", rules=rules_name, options=dict(exp.options), units=case.units,
                          orders=case.orders, owners=case.owners)
        pipe = Pipeline(variant, resolve_rules(variant, req))
        prepared = pipe.prepare(req)
        bound = pipe.bind(prepared.position, prepared.orders)
        boolean = pipe.movement_rules
        integer = IntegerSupports(variant.map, pipe.rules, variant.geography)
        results = []
        for rules in (boolean, integer):
            enc = rules.encode(bound)
            sol = solve_system(enc.system, rules.backup, all_cpsat=mode == "cpsat")
            res = rules.explain(enc, sol.values, sol.components)
            results.append([(o.text, o.kind, o.reason, tuple(s.value for s in o.strengths)) for o in res.outcomes])
            supports = [k for k in enc.system.defs if k.kind == "support"]
        assert results[0] == results[1], f"{case.id}: integer supports decide differently"
        if supports:
            assert all(enc.system.is_int(k) for k in supports)  # the integer rules' decisions
            checked += 1
    assert checked > 30  # the DATC's support cases were really compared
