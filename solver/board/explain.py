"""Explaining a solved turn: an :class:`Outcome` per order from the values of the decisions, by the
explanation hooks of the movement rules (:meth:`MovementRules.move_outcome` ...), with the
strengths compared, the culprits, the position after, stand-offs and backup rules
(:class:`SolvedTurn`, :func:`explain`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Optional, Protocol, Sequence

from dipsat.board.encoding import E, Terms, _name, _unit_of, term_value
from dipsat.engine.equations import Component
from dipsat.engine.formulas import (
    TRUE,
    Formula,
    Key,
    Values,
    evaluate,
    is_formula,
    value_of,
)
from dipsat.models import Convoy, Move, Order, Position, Support, Unit, canonical_units
from dipsat.outcomes import Backup, Bounced, Moved, MovementResult, NoPath, Obstacle, Outcome, Strength, Term, order_ref



class ExplanationHooks(Protocol[E]):
    """What :func:`explain` asks of the movement rules (:class:`dipsat.board.movement.MovementRules`
    has these hooks, and a variant's rules override them): the outcome of each kind of order, the
    units each dislodgement is by, the route a move takes and the places left contested."""

    def dislodgers(self, r: SolvedTurn[E]) -> dict[int, int]: ...
    def move_outcome(self, r: SolvedTurn[E], u: int) -> Outcome: ...
    def support_outcome(self, r: SolvedTurn[E], u: int) -> Outcome: ...
    def convoy_outcome(self, r: SolvedTurn[E], u: int) -> Outcome: ...
    def hold_outcome(self, r: SolvedTurn[E], u: int) -> Outcome: ...
    def contested(self, r: SolvedTurn[E], occupied_after: set[str]) -> list[str]: ...
    def via(self, route: dict[int, str], u: int) -> Formula: ...
    # the strengths and decisions an explanation compares
    def path_open(self, enc: E, u: int) -> Formula: ...
    def convoy_given(self, enc: E, f: int) -> Formula: ...
    def attack_terms(self, enc: E, u: int, restricted_by: Optional[str]) -> Terms: ...
    def defend_terms(self, enc: E, v: int) -> Terms: ...
    def hold_terms(self, enc: E, v: int) -> Terms: ...
    def prevent_terms(self, enc: E, u: int) -> Terms: ...
    def prevent_zero(self, enc: E, u: int) -> Formula: ...
    def failed_terms(self, enc: E, v: int) -> Terms: ...


# ---------------------------------------------------------------------------------------------
# running a turn and explaining it


@dataclass
class SolvedTurn(Generic[E]):
    """A solved turn, as the explanation hooks see it: the encoding, the value of every
    decision, the moves that succeeded, who dislodged whom, and the decisions a backup rule
    replaced (with their component)."""

    enc: E
    values: Values
    components: Sequence[Component]
    moved: set[int] = field(default_factory=set)
    dislodged_by: dict[int, int] = field(default_factory=dict)  # unit -> the unit that dislodged it
    overridden: dict[Key, Component] = field(default_factory=dict)

    def val(self, f: Formula) -> bool:
        return evaluate(f, self.values)

    def strength(self, name: str, owner: str, terms: Terms, zero: bool = False) -> Strength:
        """A strength as the explanation shows it: its terms, each counted or not (an integer
        term counts its value)."""
        values = self.values
        out = []
        for label, w, f in terms:
            if f is True:
                out.append(Term(label, w, not zero))
            elif is_formula(f):
                out.append(Term(label, w, (not zero) and evaluate(f, values)))
            else:
                out.append(Term(label, w * value_of(f, values), not zero))
        return Strength(name, owner, tuple(out))

    def common(self, u: int) -> dict[str, Any]:
        """The fields every outcome of unit ``u``'s order has."""
        o = self.enc.bound.orders[u]
        dis = self.dislodged_by.get(u)
        return dict(power=o.power, text=o.text, unit=u,
                    dislodged_by=order_ref(self.enc.bound.orders[dis]) if dis is not None else None)


def explain(impl: ExplanationHooks[E], enc: E, values: Values, components: Sequence[Component]) -> MovementResult:
    """The result of a solved turn, from shared parts: outcomes per order by the rules' hooks
    (:meth:`MovementRules.move_outcome` ...), rejected orders, the position after, standoffs,
    convoyed moves, backup rules."""
    b = enc.bound
    pos = b.position
    r = SolvedTurn(enc, values, components)
    r.moved = {u for u in enc.moves if values[_name("M", u)]}
    r.dislodged_by = impl.dislodgers(r)
    for c in components:
        for n in c.overrides:
            r.overridden[n] = c
    outcomes: list[Outcome] = []
    for u in range(len(pos.units)):
        body = b.orders[u].body
        if isinstance(body, Move):
            outcomes.append(impl.move_outcome(r, u))
        elif isinstance(body, Support):
            outcomes.append(impl.support_outcome(r, u))
        elif isinstance(body, Convoy):
            outcomes.append(impl.convoy_outcome(r, u))
        else:
            outcomes.append(impl.hold_outcome(r, u))
    for rej in sorted(b.rejected, key=lambda x: (x.power, x.unit if x.unit is not None else -1, x.text, x.reason)):
        outcomes.append(Outcome.rejected(rej.power, rej.text, "duplicate" if rej.duplicate else rej.severity,
                                         rej.reason, rej.unit))
    # the position after
    new_units: list[Unit] = []
    for u, unit in enumerate(pos.units):
        if u in r.dislodged_by:
            continue
        if u in r.moved:
            new_units.append(Unit.build(power=unit.power, kind=unit.kind, location=enc.moves[u].dest, count=unit.count))
        else:
            new_units.append(unit)
    after = Position.build(variant=pos.variant, year=pos.year, season=pos.season, units=canonical_units(new_units),
                           owners=pos.owners)
    occupied_after = {enc.dest[u] if u in r.moved else prov for u, prov in enumerate(b.provinces)
                      if u not in r.dislodged_by}
    convoyed = tuple(sorted(u for u in r.moved if r.val(impl.via(enc.route, u))))
    failed_into = tuple(sorted({enc.dest[u] for u in enc.moves if u not in r.moved}))
    backups = tuple(
        Backup.model_validate(dict(kind=c.backup[0], resolutions=c.resolutions, rule=c.backup[1],
                                   orders=tuple(sorted({b.orders[_unit_of(n)].text for n in c.decisions}))))
        for c in components if c.backup)
    return MovementResult.build(position=pos, outcomes=tuple(outcomes), dislodged=tuple(sorted(r.dislodged_by)),
                          dislodged_by=r.dislodged_by, after=after, backups=backups, rejected=tuple(b.rejected),
                          contested=tuple(impl.contested(r, occupied_after)), convoyed=convoyed, failed_into=failed_into)


def explain_move_outcome(impl: ExplanationHooks[E], enc: E, values: Values, u: int, o: Order, common: dict[str, Any],
                         strength: Callable[[str, str, Terms, bool], Strength], moved: set[int],
                         overridden: dict[Key, Component]) -> Outcome:
    """The core's outcome of a move (the default :meth:`MovementRules.move_outcome`): moved, or
    what stopped it, with the strengths compared."""
    key = _name("M", u)
    comp = overridden.get(key)  # (a component overrides decisions only by its backup rule)
    backup_rule = comp.backup[1] if comp is not None and comp.backup is not None else None
    if u in moved and not enc.detail:  # nothing to compare: the strength only explains
        return Moved.build(order_kind="move", via_convoy=evaluate(impl.via(enc.route, u), values),
                           backup_rule=backup_rule, **common)
    b = enc.bound
    units = b.position.units
    lbl = enc.labels[u]
    d = enc.dest[u]
    detail = enc.detail
    occ = [v for v in enc.occupants.get(d, ()) if v != u]
    v = occ[0] if occ else None
    battle = u in enc.h2h and evaluate(enc.h2h[u][1], values)
    stayer = v if v is not None and (v not in moved or battle) else None  # the unit that stays there
    restricted_by = units[stayer].power if stayer is not None else None
    by_convoy = evaluate(impl.via(enc.route, u), values)
    attack_value, attack = _weigh(detail, strength, values, "attack", lbl,
                                  impl.attack_terms(enc, u, restricted_by) or [(lbl, 0, TRUE)])
    strengths = [attack] if attack is not None else []
    if u in moved:
        return Moved.build(order_kind="move", via_convoy=by_convoy, backup_rule=backup_rule, strengths=tuple(strengths),
                           **common)
    if not evaluate(impl.path_open(enc, u), values):
        fleets = enc.convoyers.get(u, [])
        broken = tuple(order_ref(b.orders[f]) for f in fleets if not evaluate(impl.convoy_given(enc, f), values))
        return NoPath.build(order_kind="move", by=tuple(order_ref(b.orders[f]) for f in fleets), broken=broken, **common)
    obstacles: list[Obstacle] = []
    if stayer is not None and units[stayer].power == units[u].power:
        obstacles.append(Obstacle.build(why="own_unit", by=order_ref(b.orders[stayer]), label=enc.labels[stayer]))
    elif battle:
        n = enc.h2h[u][0]
        value, ds = _weigh(detail, strength, values, "defend", enc.labels[n], impl.defend_terms(enc, n))
        if ds is not None:
            strengths.append(ds)
        if value >= attack_value:
            obstacles.append(Obstacle.build(why="head_to_head", by=order_ref(b.orders[n]), strength=ds))
    elif stayer is not None:
        value, hs = _weigh(detail, strength, values, "hold", enc.labels[stayer],
                           impl.hold_terms(enc, stayer) if stayer not in enc.moves else impl.failed_terms(enc, stayer))
        if hs is not None:
            strengths.append(hs)
        if value >= attack_value:
            obstacles.append(Obstacle.build(why="hold", by=order_ref(b.orders[stayer]), strength=hs))
    for r in enc.into.get(d, ()):
        if r == u or evaluate(impl.prevent_zero(enc, r), values):  # a prevent strength of 0 stops nothing
            continue
        terms = impl.prevent_terms(enc, r)
        if _count(terms, values) >= attack_value:
            ps = strength("prevent", enc.labels[r], terms, False) if detail else None
            if ps is not None:
                strengths.append(ps)
            obstacles.append(Obstacle.build(why="prevent", by=order_ref(b.orders[r]), strength=ps))
    return Bounced.build(order_kind="move", via_convoy=by_convoy, backup_rule=backup_rule, obstacles=tuple(obstacles),
                         by=tuple(o.by for o in obstacles), strengths=tuple(strengths), **common)


def _count(terms: Terms, values: Values) -> int:
    """What a strength's terms add up to in a solved turn."""
    total = 0
    for _, w, f in terms:
        if f is True:
            total += w
        elif f is not False:
            total += term_value(w, f, values)
    return total


def _weigh(detail: bool, strength: Callable[[str, str, Terms, bool], Strength], values: Values, name: str,
           owner: str, terms: Terms, zero: bool = False) -> tuple[int, Optional[Strength]]:
    """A strength's value, and the strength with its terms when the outcome is explained."""
    if detail:
        s = strength(name, owner, terms, zero)
        return s.value, s
    return (0 if zero else _count(terms, values)), None
