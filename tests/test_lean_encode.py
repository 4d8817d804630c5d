"""The core's shortcuts in encoding and explaining a movement turn decide as the hooks they stand
for: where a rules class keeps the core's hooks, the equations compare strengths from the
supporters alone (:mod:`dipsat.board.strengths`, the terms made only when an explanation asks),
a move's formula is made without the battle hook, the supports' decisions are defined in one
step, a move by land is not asked its route, and the dislodgements are found from the provinces
moved into.  A subclass that overrides each of those hooks by calling the core's (so nothing
changes but the path taken) must give the same equations, in the same order, and the same
results, plain and explained, on random and planted turns (cycles and paradoxes included)."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks import workload
from benchmarks.peers import rich_turn
from dipsat.board.encoding import Encoding, Terms
from dipsat.board.explain import SolvedTurn
from dipsat.board.movement import MovementRules
from dipsat.engine.equations import System
from dipsat.engine.formulas import Formula, Key
from dipsat.game.families import find_game, variant_of
from dipsat.game.pipeline import Pipeline
from dipsat.limits import DEFAULT_LIMITS


class ByTheHooks(MovementRules[Encoding]):
    """The core's rules, every shortcut's hook overridden by the core's own: the long way."""

    def own_terms(self, enc: Encoding, u: int) -> Terms:
        return super().own_terms(enc, u)

    @staticmethod
    def via(route: dict[int, str], u: int) -> Formula:
        return MovementRules.via(route, u)

    def battle(self, enc: Encoding, movers: list[int]) -> Formula:
        return super().battle(enc, movers)

    def cuts(self, enc: Encoding) -> list[tuple[Key, Any]]:
        return super().cuts(enc)

    def dislodgers(self, r: SolvedTurn[Encoding]) -> dict[int, int]:
        """What the core's dislodgements are by definition: each unit that did not move, by the
        last move into its province that got in."""
        out: dict[int, int] = {}
        for u, prov in enumerate(r.enc.bound.provinces):
            if u not in r.moved:
                for a in r.enc.into.get(prov, ()):
                    if a in r.moved:
                        out[u] = a
        return out


def _turns() -> list[dict[str, Any]]:
    turns = [workload.generate_turn(1, i) for i in range(150)] + [rich_turn(2, i) for i in range(150)]
    return [{k: v for k, v in t.items() if k not in ("id", "planted")} for t in turns]


def _outcomes(res: Any) -> list[tuple[Any, ...]]:
    return [(o.text, o.kind, o.reason, vars(o)) for o in res.outcomes]


def test_the_flags_name_the_core_hooks() -> None:
    assert MovementRules._core_strengths and MovementRules._core_routes
    assert MovementRules._core_battle and MovementRules._core_cuts
    assert not (ByTheHooks._core_strengths or ByTheHooks._core_routes or ByTheHooks._core_battle
                or ByTheHooks._core_cuts)


def test_the_shortcuts_give_the_equations_and_results_of_the_hooks() -> None:
    cycles = bounced = 0
    for t in _turns():
        game = find_game(variant_of(t))
        req = game.read(t, "turn", DEFAULT_LIMITS)
        pipe = Pipeline(game.variant, game.variant.rules(game.options(req)))
        prepared = pipe.prepare(req)
        bound = pipe.bind(prepared.position, prepared.orders)
        core, hooks = pipe.movement_rules, ByTheHooks(game.variant.map, pipe.rules, game.variant.geography)
        assert type(core) is MovementRules
        results = []
        for rules in (core, hooks):
            for detail in (False, True):
                enc = rules.encode(bound)
                system = enc.system
                sol = pipe.solve(enc)
                enc.detail = detail
                res = rules.explain(enc, sol.values, sol.components)
                results.append((list(system.defs.items()), list(system.kinds.items()), system.domains,
                                _outcomes(res), res.model_dump(), list(res.dislodged_by.items())))
        assert results[0] == results[2] and results[1] == results[3]
        cycles += bool(sol.components)
        bounced += any(o.kind == "bounced" for o in res.outcomes)
    assert cycles > 50 and bounced > 200  # cycles, paradoxes and bounces were really compared


def test_defining_many_decisions_checks_as_defining_one() -> None:
    system = System()
    system.define_all("move", [(Key("move", 0), True), (Key("move", 1), False)])
    assert list(system.kinds.items()) == [(Key("move", 0), "move"), (Key("move", 1), "move")]
    with pytest.raises(ValueError, match="defined twice"):
        system.define_all("move", [(Key("move", 2), True), (Key("move", 0), True)])
    with pytest.raises(ValueError, match="defined twice"):
        system.define_all("move", [(Key("move", 3), True), (Key("move", 3), True)])
    with pytest.raises(TypeError, match="needs a formula"):
        system.define_all("move", [(Key("move", 4), 3)])
