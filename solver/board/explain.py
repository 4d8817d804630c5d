"""Explaining a solved turn: an :class:`Outcome` per order from the values of the decisions, by the
explanation hooks of the movement rules (:meth:`MovementRules.move_outcome` ...), with the
strengths compared, the culprits, the position after, stand-offs and backup rules
(:class:`SolvedTurn`, :func:`explain`).
"""

from __future__ import annotations

from dataclasses import field
from itertools import filterfalse
from typing import Any, Callable, Generic, Optional, Protocol, Sequence

from dipsat.maps import GameMap

from dipsat.board.encoding import E, Terms, _name, _unit_of, term_value
from dipsat.board.geography import UnitLabels
from dipsat.board.strengths import attack_value as attack_value_of, given
from dipsat.engine.equations import Component
from dipsat.engine.formulas import (
    FALSE,
    TRUE,
    Formula,
    Key,
    Values,
    evaluate,
    is_formula,
    value_of,
)
from dipsat.models import (Convoy, Move, Position, Support, Unit, canonical_units, make_record, new_record, new_strength,
                           new_unit, record_defaults)
from dipsat.outcomes import (Backup, Bounced, Convoyed, Cut, Dislodged, Disrupted, Given, Held, Moved, MovementResult, NoPath,
                             Obstacle, OrderRef, Outcome, Spared, Strength, Term, Void)
from dipsat.records import dataclass



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
    map: GameMap  # (a void support names the province it wanted)
    def label(self, pos: Position, u: int) -> str: ...
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
    refs: dict[int, OrderRef] = field(default_factory=dict)  # unit -> the reference to its order (:meth:`ref`)

    def val(self, f: Formula) -> bool:
        return evaluate(f, self.values)

    def strength(self, name: str, owner: str, terms: Terms, zero: bool = False) -> Strength:
        """A strength as the explanation shows it: its terms, each counted or not (an integer
        term counts its value)."""
        values = self.values
        out = []
        value = 0
        for label, w, f in terms:
            if f is True:
                key = (label, w, not zero)
            elif is_formula(f):
                key = (label, w, (not zero) and evaluate(f, values))
            else:
                key = (label, w * value_of(f, values), not zero)
            t = _TERMS.get(key)
            if t is None:
                if len(_TERMS) > 50_000:
                    _TERMS.clear()
                t = _TERMS[key] = Term(*key)
            out.append(t)
            if key[2]:
                value += key[1]
        return new_strength(name, owner, tuple(out), value)

    def ref(self, u: int) -> OrderRef:
        """The reference to unit ``u``'s order (made once per turn: a culprit is often named by
        several outcomes)."""
        ref = self.refs.get(u)
        if ref is None:
            o = self.enc.bound.orders[u]
            ref = self.refs[u] = new_record(OrderRef, {"power": o.power, "text": o.text, "unit": o.body.unit})
        return ref

    def common(self, u: int) -> dict[str, Any]:
        """The fields every outcome of unit ``u``'s order has."""
        o = self.enc.bound.orders[u]
        dis = self.dislodged_by.get(u)
        return {"power": o.power, "text": o.text, "unit": u, "dislodged_by": None if dis is None else self.ref(dis)}

    def fields(self, cls: type[Outcome], u: int, order_kind: str) -> dict[str, Any]:
        """A new dict of the fields of an outcome of class ``cls`` for unit ``u``'s order of
        ``order_kind``: the class's defaults and the fields every outcome has (:meth:`common`).
        A hook sets the others and makes the outcome in one step, ``new_record(cls, fields)``
        (one dict, no other made and merged: a turn makes one outcome per order)."""
        o = self.enc.bound.orders[u]
        f = (_TEMPLATES.get((cls, order_kind)) or _template(cls, order_kind)).copy()
        f["power"] = o.power
        f["text"] = o.text
        f["unit"] = u
        dis = self.dislodged_by.get(u)
        if dis is not None:
            f["dislodged_by"] = self.ref(dis)
        return f


def _template(cls: type[Outcome], order_kind: str) -> dict[str, Any]:
    """The defaults of an outcome class with ``order_kind`` set, its fields in the order
    :meth:`SolvedTurn.fields` sets them (see :data:`_TEMPLATES`)."""
    t = _TEMPLATES[(cls, order_kind)] = {**record_defaults(cls), "power": None, "text": None, "order_kind": order_kind}
    return t


# (outcome class, order kind) -> the class's defaults and the order kind: what
# :meth:`SolvedTurn.fields` copies (a pure memo of the classes' defaults; a few dozen at most)
_TEMPLATES: dict[tuple[type, str], dict[str, Any]] = {}

# (label, weight, active) -> the term: a pure memo of the immutable terms every explained turn
# makes again ("A Bur", "support F Lon", ...), bounded as the notation's
_TERMS: dict[tuple[str, int, bool], Term] = {}


def explain(impl: ExplanationHooks[E], enc: E, values: Values, components: Sequence[Component],
            core_routes: bool = False, core_strengths: bool = False, core_outcomes: bool = False) -> MovementResult:
    """The result of a solved turn, from shared parts: outcomes per order by the rules' hooks
    (:meth:`MovementRules.move_outcome` ...), rejected orders, the position after, standoffs,
    convoyed moves, backup rules.  ``core_routes``, ``core_strengths``: as
    :func:`explain_move_outcome`'s; ``core_outcomes``: ``impl`` keeps the core's hooks of the
    outcomes of moves (and their wording), convoys and holds, so they are not asked."""
    b = enc.bound
    pos = b.position
    if enc.detail and type(enc.labels) is UnitLabels:  # (explained in full: every unit is named)
        enc.labels = enc.system.labels = enc.labels.all()
    r = SolvedTurn(enc, values, components)
    moved = r.moved = {u for u in enc.moves if values[_name("M", u)]}
    dislodged = r.dislodged_by = impl.dislodgers(r)
    for c in components:
        for n in c.overrides:
            r.overridden[n] = c
    outcomes: list[Outcome] = []
    append = outcomes.append
    move, support, convoy, hold = impl.move_outcome, impl.support_outcome, impl.convoy_outcome, impl.hold_outcome
    orders = b.orders
    if core_outcomes:
        for u in range(len(pos.units)):
            body = orders[u].body
            append(explain_move_outcome(impl, r, u, core_routes, core_strengths) if isinstance(body, Move)
                   else support(r, u) if isinstance(body, Support)
                   else explain_convoy_outcome(r, u) if isinstance(body, Convoy) else explain_hold_outcome(r, u))
    else:
        for u in range(len(pos.units)):
            body = orders[u].body
            append(move(r, u) if isinstance(body, Move) else support(r, u) if isinstance(body, Support)
                   else convoy(r, u) if isinstance(body, Convoy) else hold(r, u))
    if b.rejected:
        for rej in sorted(b.rejected, key=lambda x: (x.power, x.unit if x.unit is not None else -1, x.text, x.reason)):
            append(Outcome.rejected(rej.power, rej.text, "duplicate" if rej.duplicate else rej.severity, rej.reason,
                                    rej.unit))
    # the position after, and the provinces held after (the order of its units is canonical's)
    units, moves, dest, route = pos.units, enc.moves, enc.dest, enc.route
    gone, arrived = (moved.union(dislodged), moved.difference(dislodged)) if dislodged else (moved, moved)
    stay = list(filterfalse(gone.__contains__, range(len(units))))
    new_units = list(map(units.__getitem__, stay))
    new_units += [_unit_after(units[u], moves[u].dest) for u in arrived]
    occupied_after = set(map(b.provinces.__getitem__, stay))
    occupied_after.update(map(dest.__getitem__, arrived))
    after = Position.build(variant=pos.variant, year=pos.year, season=pos.season, units=canonical_units(new_units),
                           owners=pos.owners)
    via, val = impl.via, r.val
    # (a move by land goes by land where the rules keep the core's routes: no need to ask)
    convoyed = tuple(sorted([u for u in moved if not (core_routes and route[u] == "land") and val(via(route, u))]))
    failed_into = tuple(sorted({dest[u] for u in moves if u not in moved}))
    backups = tuple(
        Backup.model_validate(dict(kind=c.backup[0], resolutions=c.resolutions, rule=c.backup[1],
                                   orders=tuple(sorted({b.orders[_unit_of(n)].text for n in c.decisions}))))
        for c in components if c.backup)
    return MovementResult.build(position=pos, outcomes=tuple(outcomes), dislodged=tuple(sorted(dislodged)),
                          dislodged_by=dislodged, after=after, backups=backups, rejected=tuple(b.rejected),
                          contested=tuple(impl.contested(r, occupied_after)), convoyed=convoyed, failed_into=failed_into)


def _unit_after(unit: Unit, location: str) -> Unit:
    """``unit`` moved to ``location``: a unit of the position after (records are values: one per
    power, kind, place and count, kept in :data:`_UNITS_AFTER`)."""
    key = (unit.power, unit.kind, location, unit.count)
    moved = _UNITS_AFTER.get(key)
    if moved is None:
        if len(_UNITS_AFTER) > 50_000:
            _UNITS_AFTER.clear()
        moved = _UNITS_AFTER[key] = new_unit(unit.power, unit.kind, location, unit.count)
    return moved


# (power, kind, location, count) -> the unit: a pure memo of the units moves make, bounded
_UNITS_AFTER: dict[tuple[str, str, str, int], Unit] = {}


def explain_move_outcome(impl: ExplanationHooks[E], r: SolvedTurn[E], u: int, core_routes: bool = False,
                         core_strengths: bool = False) -> Outcome:
    """The core's outcome of a move (the default :meth:`MovementRules.move_outcome`): moved, or
    what stopped it, with the strengths compared.  ``core_routes``: ``impl`` keeps the core's
    :meth:`~MovementRules.via` and :meth:`~MovementRules.path_open` (a move by land goes by land,
    and has a path), so a move by land does not ask them; ``core_strengths``: it keeps the core's
    strength hooks (:data:`dipsat.board.strengths.STRENGTH_HOOKS`), so a plain turn counts them
    from the supporters."""
    enc, values, moved, overridden = r.enc, r.values, r.moved, r.overridden
    comp = overridden.get(_name("M", u)) if overridden else None  # (a component overrides decisions only by its backup rule)
    backup_rule = comp.backup[1] if comp is not None and comp.backup is not None else None
    detail = enc.detail
    by_land = core_routes and enc.route[u] == "land"
    by_convoy = False if by_land else evaluate(impl.via(enc.route, u), values)
    if u in moved and not detail:  # nothing to compare: the strength only explains
        f = r.fields(Moved, u, "move")
        f["via_convoy"] = by_convoy
        f["backup_rule"] = backup_rule
        return new_record(Moved, f)
    units = enc.bound.position.units
    labels = enc.labels
    d = enc.dest[u]
    v = None  # the other unit at the destination
    for x in enc.occupants.get(d, ()):
        if x != u:
            v = x
            break
    h2h = enc.h2h.get(u)
    battle = h2h is not None and evaluate(h2h[1], values)
    stayer = v if v is not None and (v not in moved or battle) else None  # the unit that stays there
    stayer_power = units[stayer].power if stayer is not None else None
    strength = r.strength
    strengths: list[Strength] = []
    if detail:
        lbl = labels[u]
        attack = strength("attack", lbl, impl.attack_terms(enc, u, stayer_power) or [(lbl, 0, TRUE)])
        attack_value = attack.value
        strengths.append(attack)
        if u in moved:
            f = r.fields(Moved, u, "move")
            f["via_convoy"] = by_convoy
            f["backup_rule"] = backup_rule
            f["strengths"] = (attack,)
            return new_record(Moved, f)
    if not by_land and not evaluate(impl.path_open(enc, u), values):
        fleets = enc.convoyers.get(u, [])
        broken = tuple(r.ref(x) for x in fleets if not evaluate(impl.convoy_given(enc, x), values))
        return make_record(NoPath, {"order_kind": "move", "by": tuple(r.ref(x) for x in fleets), "broken": broken,
                                    **r.common(u)})
    # (a plain turn: what the culprits are found by, counted from the supporters where the rules
    # keep the core's strengths, else from the terms; an empty attack counts 0)
    counted = core_strengths and not detail
    if not detail:
        attack_value = (attack_value_of(enc, values, u, stayer_power) if counted
                        else _count(impl.attack_terms(enc, u, stayer_power), values))
    obstacles: list[Obstacle] = []
    if stayer is not None and stayer_power == units[u].power:
        obstacles.append(_obstacle("own_unit", r.ref(stayer), labels[stayer], None))
    elif battle:
        n = h2h[0]  # type: ignore[index]
        value, ds = ((1 + given(enc, values, enc.move_supports.get(n)), None) if counted
                     else _weigh(detail, strength, values, "defend", labels[n], impl.defend_terms(enc, n)))
        if ds is not None:
            strengths.append(ds)
        if value >= attack_value:
            obstacles.append(_obstacle("head_to_head", r.ref(n), "", ds))
    elif stayer is not None:
        if counted:
            value, hs = (1 if stayer in enc.moves else 1 + given(enc, values, enc.hold_supports.get(stayer))), None
        else:
            value, hs = _weigh(detail, strength, values, "hold", labels[stayer], impl.hold_terms(enc, stayer)
                               if stayer not in enc.moves else impl.failed_terms(enc, stayer))
        if hs is not None:
            strengths.append(hs)
        if value >= attack_value:
            obstacles.append(_obstacle("hold", r.ref(stayer), "", hs))
    into = enc.into.get(d)
    if into is not None and (len(into) > 1 or into[0] != u):
        for x in into:
            if x == u or evaluate(impl.prevent_zero(enc, x), values):  # a prevent strength of 0 stops nothing
                continue
            if counted:
                if 1 + given(enc, values, enc.move_supports.get(x)) >= attack_value:
                    obstacles.append(_obstacle("prevent", r.ref(x), "", None))
                continue
            terms = impl.prevent_terms(enc, x)
            if _count(terms, values) >= attack_value:
                ps = strength("prevent", labels[x], terms, False) if detail else None
                if ps is not None:
                    strengths.append(ps)
                obstacles.append(_obstacle("prevent", r.ref(x), "", ps))
    f = r.fields(Bounced, u, "move")
    f["via_convoy"] = by_convoy
    f["backup_rule"] = backup_rule
    f["obstacles"] = tuple(obstacles)
    f["by"] = tuple([o.by for o in obstacles])
    f["strengths"] = tuple(strengths)
    return new_record(Bounced, f)


def dislodged_by(r: SolvedTurn[E]) -> dict[int, int]:
    """The core's dislodgements (:meth:`MovementRules.dislodgers`): each unit that stayed where a
    move got in, by unit, and the (last) move that got in."""
    moved, occupants = r.moved, r.enc.occupants
    out: dict[int, int] = {}
    for prov, movers in r.enc.into.items():
        here = occupants.get(prov)
        if here is None:
            continue
        for u in here:
            if u not in moved:
                for a in movers:
                    if a in moved:
                        out[u] = a
    return out if len(out) < 2 else {u: out[u] for u in sorted(out)}


def explain_support_outcome(impl: ExplanationHooks[E], r: SolvedTurn[E], u: int) -> Outcome:
    """The core's outcome of a support order (the default :meth:`MovementRules.support_outcome`):
    void where it matches no order, given (and the moves that did not cut it, and why), or cut
    (by whom)."""
    enc, b = r.enc, r.enc.bound
    body = b.orders[u].body
    assert isinstance(body, Support)
    if not enc.matched.get(u):
        target = body.target
        return make_record(Void, {
            "order_kind": "support", "by": (r.ref(target),),
            "wanted": None if body.dest is None else impl.map.provinces[body.dest].name,
            "unordered": impl.label(b.position, target) if target in b.implicit else None, **r.common(u)})
    if r.values[_name("S", u)]:
        f = r.fields(Given, u, "support")
        exempt = enc.exempt.get(u)
        if exempt:
            units = b.position.units
            power = units[u].power
            f["spared"] = tuple(new_record(Spared, {"by": r.ref(mv), "why": why}) for mv, when, why in exempt
                                if r.val(impl.path_open(enc, mv)) and r.val(when) and units[mv].power != power)
        return new_record(Given, f)
    f = r.fields(Cut, u, "support")
    if f["dislodged_by"] is not None:
        f["by"] = (f["dislodged_by"],)
        return new_record(Cut, f)
    when = {m: w for m, w, _ in enc.exempt.get(u, [])}
    f["by"] = tuple(r.ref(c) for c in enc.cutters.get(u, [])
                    if r.val(impl.path_open(enc, c)) and not r.val(when.get(c, FALSE)))
    return new_record(Cut, f)


def explain_convoy_outcome(r: SolvedTurn[E], u: int) -> Outcome:
    """The core's outcome of a convoy order (the default :meth:`MovementRules.convoy_outcome`)."""
    enc, b = r.enc, r.enc.bound
    body = b.orders[u].body
    assert isinstance(body, Convoy)
    common = r.common(u)
    dis_ref = common["dislodged_by"]
    name = _name("C", u)
    if not enc.matched.get(u):
        return make_record(Void, {"order_kind": "convoy", "by": (r.ref(body.target),), **common})
    backup = r.overridden[name].backup if name in r.overridden else None
    if backup is not None:
        return make_record(Disrupted, {"order_kind": "convoy", "cause": "backup", "backup_rule": backup[1],
                                            **common})
    if r.values[name] and not r.values.get(_name("P", body.target), True):
        # the fleet stayed, but the army had no convoy path: nothing was carried
        return make_record(Disrupted, {"order_kind": "convoy", "cause": "no_path", "by": (r.ref(body.target),),
                                            **common})
    if r.values[name]:
        return new_record(Convoyed, r.fields(Convoyed, u, "convoy"))
    return make_record(Disrupted, {"order_kind": "convoy", "cause": "dislodged",
                                        "by": (dis_ref,) if dis_ref else (), **common})


def explain_hold_outcome(r: SolvedTurn[E], u: int) -> Outcome:
    """The core's outcome of a unit that holds, ordered to or without a usable order (the default
    :meth:`MovementRules.hold_outcome`)."""
    if u in r.dislodged_by:
        f = r.fields(Dislodged, u, "hold")
        f["by"] = (f["dislodged_by"],)
        return new_record(Dislodged, f)
    return new_record(Held, r.fields(Held, u, "hold"))


def _obstacle(why: str, by: OrderRef, label: str, strength: Optional[Strength]) -> Obstacle:
    """``Obstacle.build(why=why, by=by, label=label)`` (its own unit) or ``Obstacle.build(why=why, by=by,
    strength=strength)`` in one step."""
    return new_record(Obstacle, {"why": why, "by": by, "label": label, "strength": strength})


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
