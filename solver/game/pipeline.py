"""One pipeline for every phase: parse → bind → encode → solve → explain → apply.

:class:`Pipeline` is a variant and its rules, and the stages of a phase as methods:

* :meth:`Pipeline.prepare` — a :class:`~dipsat.game.api.TurnRequest` in the variant's terms (the
  position checked, the orders filed under the powers' names): a :class:`Prepared` turn;
* :meth:`Pipeline.bind` — parse and check the orders (``variant.binder``);
* :meth:`Pipeline.encode` — the decisions as equations (``variant.movement_rules``);
* :meth:`Pipeline.solve` — the solve step, chosen by what the caller needs: ``direct`` (acyclic
  parts evaluated directly, cycles counted by CP-SAT, backup rules where not exactly one: plain
  adjudication), ``cpsat`` (every part through CP-SAT), :meth:`Pipeline.enumerate` (every
  consistent resolution before any backup rule) and :meth:`Pipeline.forcing` (assumptions: the
  decisions that force one value);
* :meth:`Pipeline.explain` — the typed outcomes of a solution, as a result that records its
  rules (``result.rules``) and its variant (``result.position.variant``);
* :meth:`Pipeline.movement` — all of the above for a movement phase; :meth:`Pipeline.retreats`,
  :meth:`Pipeline.adjustments`, :meth:`Pipeline.placement` — the variant's other phases;
  :meth:`Pipeline.phase` — one phase by its name.

``api.adjudicate``, ``batch`` (through it), ``corpus``, ``research`` (explore / why / compare:
other solve steps, other rules on the same bound orders) and ``game`` all go through here, so
a turn is adjudicated the same way whichever command asks.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal, Optional

from dipsat.errors import InputFileError
from dipsat.engine.equations import Solution, enumerate_all, solve_system
from dipsat.engine.formulas import Key, Value
from dipsat.models import Position
from dipsat.outcomes import MovementResult
from dipsat.records import dataclass
from dipsat.rules import RuleOptions

if TYPE_CHECKING:
    from dipsat.board.adjustments import AdjustmentResult
    from dipsat.game.request import TurnRequest
    from dipsat.board.encoding import Encoding
    from dipsat.board.movement import MovementRules
    from dipsat.board.orders import BoundOrders
    from dipsat.game.variant import Calendar, Phases
    from dipsat.board.retreats import RetreatResult
    from dipsat.game.variant import Variant

SolveMode = Literal["direct", "cpsat"]
PhaseResult = Any  # MovementResult, RetreatResult, AdjustmentResult or a variant's own phase result


@dataclass(frozen=True)
class Prepared:
    """A request in its variant's terms: the position and the orders per power (by the powers'
    names on the map), with the pipeline that adjudicates it."""

    pipeline: "Pipeline"
    request: "TurnRequest"
    position: Position
    orders: dict[str, list[str]]
    retreat_orders: dict[str, list[str]]


class Pipeline:
    """The stages of a phase for one variant under one set of rules."""

    def __init__(self, variant: "Variant", rules: RuleOptions, phases: Optional["Phases"] = None):
        """``phases``: the adjudicators of the phases other than movement (a game passes its
        calendar's); by default those of a calendar of the variant under ``rules``."""
        self.variant = variant
        self.rules = rules
        self._phases = phases

    # -- set-up ---------------------------------------------------------------------------------
    @classmethod
    def for_request(cls, req: "TurnRequest", rules: str | RuleOptions | None = None) -> "Pipeline":
        """The pipeline of a request: its variant, and its rules (``rules`` given here override
        the request's preset and options, as a preset name or an options value)."""
        from dipsat.game.registry import find_variant

        from dipsat.game.positions import resolve_rules

        variant = find_variant(req.variant)
        return cls(variant, resolve_rules(variant, req, rules))

    def with_rules(self, rules: RuleOptions) -> "Pipeline":
        """The same variant under other rules (research: each option value in turn)."""
        return Pipeline(self.variant, self.variant.rules(rules))

    def prepare(self, req: "TurnRequest") -> Prepared:
        """Parse the request's position and file its orders under the powers' names."""
        from dipsat.game.positions import _power_name, build_position

        v = self.variant
        pos = build_position(v, req, seasons=self.calendar().seasons if req.season is not None else None)
        orders: dict[str, list[str]] = {}
        for power, texts in req.orders.items():
            orders.setdefault(_power_name(v, power, "orders"), []).extend(texts)
        retreats: dict[str, list[str]] = {}
        for power, texts in req.retreat_orders.items():
            retreats.setdefault(_power_name(v, power, "retreat_orders"), []).extend(texts)
        return Prepared(self, req, pos, orders, retreats)

    def calendar(self) -> "Calendar":
        """A new calendar of the variant's game under these rules."""
        return self.variant.calendar(self.variant, self.rules)

    @property
    def phases(self) -> "Phases":
        """The adjudicators of the variant's phases other than movement (its calendar's)."""
        if self._phases is None:
            self._phases = self.calendar().phases
        return self._phases

    @cached_property
    def movement_rules(self) -> "MovementRules[Any]":
        return self.variant.movement_rules(self.rules)

    # -- the stages -----------------------------------------------------------------------------
    def bind(self, position: Position, orders: dict[str, list[str]]) -> "BoundOrders":
        """Parse and check the orders against the position: one order per unit (implicit holds
        included) and the rejected ones with their reasons."""
        return self.variant.binder(self.rules).bind(position, orders)

    def encode(self, bound: "BoundOrders") -> "Encoding":
        """The movement decisions as equations, each defined by an exact equality."""
        enc: Encoding = self.movement_rules.encode(bound)  # (any variant's encoding is an Encoding)
        return enc

    def solve(self, enc: "Encoding", mode: SolveMode = "direct", limit: int = 2,
              time_limit: float | None = None) -> Solution:
        """Solve by components, the backup rule where a component has not exactly one solution;
        ``mode="cpsat"``: every part through CP-SAT, not only the cycles (same values)."""
        return solve_system(enc.system, self.movement_rules.backup, limit=limit, time_limit=time_limit,
                            all_cpsat=mode == "cpsat")

    def enumerate(self, enc: "Encoding", limit: int = 64) -> list[dict[Key, Value]]:
        """Every consistent resolution of the equations before any backup rule, up to ``limit``."""
        return enumerate_all(enc.system, limit=limit)

    def forcing(self, sol: Solution, enc: "Encoding", key: Key) -> list[Key]:
        """A minimal set of other decisions whose values (assumptions) force ``key``'s value."""
        from dipsat.engine.cpsat import forcing_core

        return forcing_core(sol.defs, enc.system.domains, sol.values, key) or []

    def explain(self, enc: "Encoding", sol: Solution, detail: bool = True) -> MovementResult:
        """The outcome of every order, the dislodged units, the position after; the result
        records the bound orders and the rules.  ``detail=False``: outcome kinds and culprits
        without strength terms (the result's ``explained`` is False)."""
        bound = enc.bound
        enc.detail = detail
        res = self.movement_rules.explain(enc, sol.values, sol.components)
        return res.updated(orders=tuple(map(bound.orders.__getitem__, sorted(bound.orders))), rules=self.rules,
                           variant=self.variant, explained=res.explained and detail)

    # -- phases ---------------------------------------------------------------------------------
    def movement(self, position: Position, orders: dict[str, list[str]], mode: SolveMode = "direct",
                 time_limit: float | None = None, explain: bool = True) -> MovementResult:
        """A movement phase: bind, encode, solve, explain (``explain=False``: without strength terms)."""
        enc = self.encode(self.bind(position, orders))
        return self.explain(enc, self.solve(enc, mode, time_limit=time_limit), explain)

    def retreats(self, movement: MovementResult, orders: dict[str, list[str]]) -> "RetreatResult":
        res = self.phases.retreat(self.variant, self.rules, movement, orders)
        return res.model_copy(update={"rules": self.rules, "variant": self.variant})

    def adjustments(self, position: Position, orders: dict[str, list[str]]) -> "AdjustmentResult":
        res = self.phases.adjustment(self.variant, self.rules, position, orders)
        return res.model_copy(update={"rules": self.rules, "variant": self.variant})

    def placement(self, position: Position, orders: dict[str, list[str]]) -> "AdjustmentResult":
        place = self.phases.placement
        if place is None:
            raise InputFileError(f"phase: the {self.variant.name} variant has no placement phase")
        res = place(self.variant, self.rules, position, orders)
        return res.model_copy(update={"rules": self.rules, "variant": self.variant})

    def phase(self, kind: str, position: Position, orders: dict[str, list[str]],
              movement: Optional[MovementResult] = None, mode: SolveMode = "direct",
              time_limit: float | None = None) -> PhaseResult:
        """One phase by its kind (``movement``, ``retreat`` — after ``movement`` —,
        ``adjustment``, ``placement``)."""
        if kind == "movement":
            return self.movement(position, orders, mode, time_limit)
        if kind == "retreat":
            if movement is None:
                raise ValueError("a retreat phase needs the movement before it")
            return self.retreats(movement, orders)
        if kind == "adjustment":
            return self.adjustments(position, orders)
        if kind == "placement":
            return self.placement(position, orders)
        raise ValueError(f"unknown phase kind {kind!r}")

    def adjudicate(self, turn: Prepared, mode: SolveMode = "direct", time_limit: float | None = None,
                   explain: bool = True) -> PhaseResult:
        """A prepared request's phase (a retreat phase adjudicates the movement before it);
        ``explain=False``: a movement without strength terms (see :meth:`explain`)."""
        kind = turn.request.phase
        if kind == "retreat":
            mv = self.movement(turn.position, turn.orders, mode, time_limit, explain)
            return self.retreats(mv, turn.retreat_orders)
        if kind == "movement":
            return self.movement(turn.position, turn.orders, mode, time_limit, explain)
        return self.phase(kind, turn.position, turn.orders, mode=mode, time_limit=time_limit)
