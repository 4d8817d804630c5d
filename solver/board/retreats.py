"""The retreat phase: where each dislodged unit may go, and what the retreat orders do.

A dislodged unit may retreat to a province it could move to, unless that province is occupied
after the movement, was left empty by a standoff, or is the province its attacker came from
(except after an attack by convoy when ``retreat_to_convoyed_attacker_origin`` is set: DATC
4.A.5).  Two or more units retreating to one province are all disbanded; a unit without a
legal retreat order is disbanded.  Supports, convoys and moves of units that were not
dislodged are illegal in a retreat phase.
"""

from __future__ import annotations

from typing import Optional

from pydantic import Field, SerializeAsAny

from dipsat.maps import GameMap

from dipsat.board.destinations import written_destination, written_unit
from dipsat.errors import IllegalOrder, OrderError
from dipsat.models import VariantRecord, Drawable, Frozen, Position, Unit
from dipsat.outcomes import (Backup, Bounced, Disbanded, Moved, MovementResult, OrderRef, Outcome, Partial,
                             TaggedOutcome)
from dipsat.board.notation import Notation, ParsedOrder
from dipsat.board.notation_additions import written_count
from dipsat.board.orders import describe_unit
from dipsat.rules import RuleOptions


class RetreatOption(Frozen):
    unit: int  # index in the movement position
    open: tuple[str, ...]  # locations it may retreat to
    closed: dict[str, str] = Field(default_factory=dict)  # neighbour province -> why not


class RetreatResult(Drawable, Frozen):
    position: Position  # the position before the movement (dislodged units are indices into it)
    movement: MovementResult
    options: tuple[RetreatOption, ...]
    outcomes: tuple[TaggedOutcome, ...]  # read from data by their kind tags
    after: Position
    dislodged: tuple[int, ...] = ()
    dislodged_by: dict[int, int] = Field(default_factory=dict)
    backups: tuple[Backup, ...] = ()  # (retreats settle no cycle: always empty)
    contested: tuple[str, ...] = ()
    rules: Optional[SerializeAsAny[RuleOptions]] = None  # the rules it was adjudicated under (name, every value)
    variant: Optional[VariantRecord] = Field(default=None, exclude=True, repr=False)  # the record it was adjudicated by


def retreat_options(game_map: GameMap, rules: RuleOptions, mv: MovementResult) -> list[RetreatOption]:
    pos = mv.position
    occupied = {u.province for u in mv.after.units}
    contested = set(mv.contested)
    out = []
    for u in mv.dislodged:
        unit = pos.units[u]
        attacker = mv.dislodged_by.get(u)
        origin = pos.units[attacker].province if attacker is not None else None
        by_convoy = attacker in mv.convoyed
        open_: list[str] = []
        closed: dict[str, str] = {}
        for loc in sorted(game_map.neighbours(unit.kind, unit.location)):
            prov = game_map.province_of(loc)
            name = game_map.provinces[prov].name
            if not game_map.passable(prov):
                closed[prov] = f"{name} is impassable"
            elif prov in occupied:
                who = next(x for x in mv.after.units if x.province == prov)
                closed[prov] = f"{name} is occupied ({who.label()})"
            elif prov == origin and not (by_convoy and rules.retreat_to_convoyed_attacker_origin):
                closed[prov] = f"the attacker came from {name}" + (" (by convoy; rule option retreat_to_convoyed_attacker_origin=false)" if by_convoy else "")
            elif prov in contested:
                closed[prov] = f"{name} was left empty by a standoff"
            else:
                open_.append(loc)
        out.append(RetreatOption(unit=u, open=tuple(open_), closed=closed))
    return out


def retreat_place(game_map: GameMap, rules: RuleOptions, unit: Unit, option: RetreatOption, p: ParsedOrder,
                  index: Optional[int] = None, *, kind: bool = True) -> str | OrderError:
    """Where a retreat or disband order sends a dislodged unit: ``"disband"``, or the location
    it retreats to; or why the order is illegal.  The written unit and destination are read as
    a move reads them (:mod:`dipsat.board.destinations`: the coast options and ``wrong_unit_kind``
    govern a retreat as they govern a move, with the same reasons), then the place must be one
    the retreat rules leave open (``option``).  ``kind=False``: the caller chose the unit by
    its kind letter already."""
    try:
        written_unit(game_map, rules, unit, p.unit, p.text, index, kind=kind)
        if p.action == "disband":
            return "disband"
        assert p.dest is not None
        target = p.dest.province
        closed = option.closed.get(target)
        if closed is not None:
            return IllegalOrder(p.text, f"not a retreat option: {closed}", unit=index)
        loc = written_destination(game_map, rules, unit, p.dest, p.text, index)
    except OrderError as exc:
        return exc
    if loc not in option.open:
        return IllegalOrder(p.text, f"not a retreat option: {describe_unit(unit, game_map)} cannot reach "
                                    f"{game_map.provinces[target].name}", unit=index)
    return loc


def adjudicate_retreats(game_map: GameMap, notation: Notation, rules: RuleOptions, mv: MovementResult,
                        orders: dict[str, list[str]]) -> RetreatResult:
    pos = mv.position
    options = {o.unit: o for o in retreat_options(game_map, rules, mv)}
    outcomes: list[Outcome] = []
    chosen: dict[int, tuple[str, str, str]] = {}  # unit -> (location or "disband", power, text)

    def reject(power: str, text: str, sev: str, reason: str, unit: Optional[int] = None) -> None:
        outcomes.append(Outcome.rejected(power, text, sev, reason, unit))

    for power in sorted(orders):
        for text in orders[power]:
            try:
                p = notation.parse(text, power)
            except OrderError as exc:
                reject(power, text, exc.severity, exc.reason)
                continue
            prov = p.unit.loc.province
            cands = [u for u in options if pos.units[u].province == prov and pos.units[u].power == power]
            if not cands:
                here = [u for u in range(len(pos.units)) if pos.units[u].province == prov]
                why = ("the unit there was not dislodged" if here else f"there is no dislodged unit in {game_map.provinces[prov].name}")
                reject(power, text, "illegal", why)
                continue
            u = cands[0]
            if p.action in ("support", "convoy", "hold"):
                reject(power, text, "illegal", f"a dislodged unit may only retreat or disband, not {p.action}", u)
                continue
            if u in chosen:
                reject(power, text, "illegal", "the unit already has a retreat order (DATC 4.D.3: the first counts)", u)
                continue
            where = retreat_place(game_map, rules, pos.units[u], options[u], p, u)
            if isinstance(where, OrderError):
                reject(power, text, where.severity, where.reason, u)
                continue
            chosen[u] = (where, power, text)

    per_target: dict[str, list[int]] = {}
    for u, (loc, _, _) in chosen.items():
        if loc != "disband":
            per_target.setdefault(game_map.province_of(loc), []).append(u)
    moved: dict[int, str] = {}
    for u in sorted(chosen):
        loc, power, text = chosen[u]
        if loc == "disband":
            outcomes.append(Disbanded.build(power=power, text=text, unit=u, order_kind="disband", cause="ordered"))
            continue
        rivals = [v for v in per_target[game_map.province_of(loc)] if v != u]
        if rivals:
            outcomes.append(Bounced.build(
                power=power, text=text, unit=u, order_kind="retreat",
                by=tuple(OrderRef.build(power=chosen[v][1], text=chosen[v][2], unit=v) for v in rivals)))
        else:
            moved[u] = loc
            outcomes.append(Moved.build(power=power, text=text, unit=u, order_kind="retreat", dest=game_map.display(loc)))
    for u in mv.dislodged:
        if u not in chosen:
            unit = pos.units[u]
            outcomes.append(Disbanded.build(power=unit.power, text=f"{describe_unit(unit, game_map)} (no retreat)",
                                            unit=u, order_kind="disband",
                                            cause="no_retreat_order" if options[u].open else "no_retreat"))
    units = list(mv.after.units) + [pos.units[u].updated(location=loc) for u, loc in sorted(moved.items())]
    after = mv.after.model_copy(update={"units": tuple(units)}).canonical()
    return RetreatResult(position=pos, movement=mv, options=tuple(options[u] for u in sorted(options)),
                         outcomes=tuple(outcomes), after=after, dislodged=mv.dislodged, dislodged_by=mv.dislodged_by,
                         contested=mv.contested)


def adjudicate_stack_retreats(game_map: GameMap, notation: Notation, rules: RuleOptions, mv: MovementResult,
                              orders: dict[str, list[str]], battle: str = "next_largest") -> RetreatResult:
    """Retreats where units of one nation may share a province: a unit may
    retreat where its own nation already stands; units retreating from one province may go
    different ways ("1 A Ber-Pru"); when several nations retreat into one province only the
    numerically greater survives, and only by the amount of its superiority: over the next
    largest nation (``battle = "next_largest"``) or over all the others together
    (``"all_others"``); they differ only when three or more nations meet."""
    pos = mv.position
    base = {o.unit: o for o in retreat_options(game_map, rules, mv)}
    options: dict[int, RetreatOption] = {}
    for u, opt in base.items():
        mine = pos.units[u].power
        extra = []
        closed = dict(opt.closed)
        for loc in sorted(game_map.neighbours(pos.units[u].kind, pos.units[u].location)):
            prov = game_map.province_of(loc)
            if prov in closed and "is occupied" in closed[prov] and all(x.power == mine for x in mv.after.units if x.province == prov):
                extra.append(loc)
                del closed[prov]
        options[u] = RetreatOption(unit=u, open=tuple(sorted(opt.open + tuple(extra))), closed=closed)
    outcomes: list[Outcome] = []
    remaining = {u: pos.units[u].count for u in options}
    moves: list[tuple[int, str, int, str, str]] = []  # (unit, location, count, power, text)

    def reject(power: str, text: str, sev: str, reason: str) -> None:
        outcomes.append(Outcome.rejected(power, text, sev, reason))

    for power in sorted(orders):
        for text in orders[power]:
            try:
                p = notation.parse(text, power)
            except OrderError as exc:
                reject(power, text, exc.severity, exc.reason)
                continue
            prov = p.unit.loc.province
            cands = [u for u in options if pos.units[u].province == prov and pos.units[u].power == power
                     and (p.unit.kind is None or pos.units[u].kind == p.unit.kind) and remaining[u] > 0]
            if not cands:
                reject(power, text, "illegal", f"{power} has no dislodged unit left in {game_map.provinces[prov].name} for this order")
                continue
            if p.action not in ("move", "disband"):
                reject(power, text, "illegal", f"a dislodged unit may only retreat or disband, not {p.action}")
                continue
            avail = sum(remaining[u] for u in cands)
            count = written_count(p.unit)
            want = count if count is not None else (1 if avail == 1 else None)
            if want is None or want > avail:
                reject(power, text, "illegal" if want else "ambiguous",
                       f"{avail} dislodged unit(s) there; write how many this order is for" if want is None
                       else f"{want} ordered, but only {avail} dislodged unit(s) there")
                continue
            u0 = cands[0]
            where = retreat_place(game_map, rules, pos.units[u0], options[u0], p, u0, kind=False)
            if isinstance(where, OrderError):
                reject(power, text, where.severity, where.reason)
                continue
            target = where
            for u in cands:
                take = min(want, remaining[u])
                if take:
                    moves.append((u, target, take, power, text))
                    remaining[u] -= take
                    want -= take
    # numeric retreat battles per province
    survivors: dict[int, int] = {}  # index in moves -> surviving count
    by_prov: dict[str, dict[str, list[int]]] = {}
    for i, (u, target, n, power, text) in enumerate(moves):
        if target != "disband":
            by_prov.setdefault(game_map.province_of(target), {}).setdefault(power, []).append(i)
    for prov, per in by_prov.items():
        totals = sorted(((sum(moves[i][2] for i in idx), pw) for pw, idx in per.items()), reverse=True)
        best, pw = totals[0]
        second = totals[1][0] if len(totals) > 1 else 0
        others = sum(t for t, _ in totals[1:]) if battle == "all_others" else second
        left = max(best - others, 0)
        for pw2, idx in per.items():
            for i in idx:
                keep = min(moves[i][2], left) if pw2 == pw else 0
                survivors[i] = keep
                if pw2 == pw:
                    left -= keep
    new_units = list(mv.after.units)
    done_text: dict[tuple[str, str], list[tuple[int, int, str]]] = {}
    for i, (u, target, n, power, text) in enumerate(moves):
        done_text.setdefault((power, text), []).append((n, survivors.get(i, 0) if target != "disband" else -1, target))
        if target != "disband" and survivors.get(i, 0):
            new_units.append(pos.units[u].updated(location=target, count=survivors[i]))
    for (power, text), parts in done_text.items():
        total = sum(n for n, _, _ in parts)
        if parts[0][2] == "disband":
            outcomes.append(Disbanded.build(power=power, text=text, unit=None, order_kind="disband", cause="ordered"))
            continue
        kept = sum(k for _, k, _ in parts)
        where = game_map.display(parts[0][2])
        common = dict(power=power, text=text, unit=None, order_kind="retreat", dest=where)
        if kept == total:
            outcomes.append(Moved.build(**common))
        elif kept == 0:
            outcomes.append(Bounced.build(**common))
        else:
            outcomes.append(Partial.build(kept=kept, total=total, **common))
    for u in options:
        if remaining[u]:
            unit = pos.units[u]
            outcomes.append(Disbanded.build(power=unit.power, text=f"{remaining[u]} {describe_unit(unit, game_map)} (no retreat)",
                                            unit=u, order_kind="disband", cause="no_retreat_order"))
    after = mv.after.model_copy(update={"units": tuple(new_units)}).canonical()
    return RetreatResult(position=pos, movement=mv, options=tuple(options[u] for u in sorted(options)),
                         outcomes=tuple(outcomes), after=after, dislodged=mv.dislodged, dislodged_by=mv.dislodged_by,
                         contested=mv.contested)
