"""Multiplicity Plus phases other than movement: placement (rule 1) and retreats (rule 11).

Adjustments are the core's for boards where one nation's units share a space: a build on an
occupied home centre merges into the unit there (rule 4(e)).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dipsat.board.adjustments import AdjustmentResult
from dipsat.errors import IllegalOrder, OrderError
from dipsat.models import ARMY, FLEET, Move, Position, Unit
from dipsat.outcomes import Bounced, Built, Disbanded, Moved, MovementResult, Outcome
from dipsat.board.notation import ParsedOrder
from dipsat.board.notation_additions import written_parts
from dipsat.board.retreats import RetreatOption, RetreatResult

from .details import Merge, RetreatBattle, Seaworthiness
from .notation import MergeWith, MultiplicityNotation
from .orders import check_written_unit, piece_destination, read_orders

if TYPE_CHECKING:
    from dipsat.maps import GameMap
    from dipsat.game.variant import Variant
    from .options import MultiplicityOptions


# Rule 1: "provided that the number of units does not exceed 3 (4 in the case of Russia)"
PLACEMENT_LIMITS: dict[str, int] = {"Russia": 4}
PLACEMENT_DEFAULT_LIMIT = 3


def placement_limit(power: str) -> int:
    """How many units ``power`` may place (rule 1)."""
    return PLACEMENT_LIMITS.get(power, PLACEMENT_DEFAULT_LIMIT)


def adjudicate_placement(variant: "Variant", pos: Position, orders: dict[str, list[str]]) -> AdjustmentResult:
    """Rule 1: each power places up to 3 units (Russia 4) on its home centres, multiple units
    allowed, centres may stay empty; a fleet or A/F in St Petersburg on either coast, the south
    coast unless another is named.  Orders are units as written: ``2A(Par)``, ``A/F(Bre)``,
    ``F StP/nc``, ``A Mos``."""
    m = variant.map
    notation = variant.notation
    assert isinstance(notation, MultiplicityNotation)
    units = list(pos.units)
    outcomes: list[Outcome] = []
    for power in sorted(orders):
        limit = placement_limit(power)
        home = m.powers[power].home
        placed = 0
        for text in orders[power]:
            try:
                raw = text.strip()
                if raw.lower().startswith(("place ", "build ")):
                    raw = raw.split(None, 1)[1]
                new = notation.unit_specs(power, _default_coast(notation, raw))
            except OrderError as exc:
                outcomes.append(Outcome.rejected(power, text, exc.severity, exc.reason))
                continue
            prov = new[0].province
            n = sum(u.count for u in new)
            if prov not in home:
                outcomes.append(Outcome.rejected(power, text, "illegal", f"{m.provinces[prov].name} is not a home centre of "
                                                 f"{power} ({', '.join(m.display(h) for h in home)}): all units start on a home centre (rule 1)"))
                continue
            if any(u.kind == FLEET for u in new) and not m.fleet_locations_in(prov):
                outcomes.append(Outcome.rejected(power, text, "illegal", f"a fleet cannot stand in {m.provinces[prov].name} (inland)"))
                continue
            if placed + n > limit:
                outcomes.append(Outcome.rejected(power, text, "illegal", f"{power} may place at most {limit} units "
                                                 f"(rule 1); {placed} placed before this order"))
                continue
            placed += n
            units.extend(new)
            outcomes.append(Built.build(power=power, text=text, order_kind="placement", built=", ".join(u.short() for u in new)))
    after = pos.model_copy(update={"units": tuple(units)}).canonical()
    variant.check_position(variant, after)
    return AdjustmentResult(position=pos, outcomes=tuple(outcomes), after=after)


def _default_coast(notation: MultiplicityNotation, text: str) -> str:
    """Rule 1: a fleet or A/F placed in St Petersburg without a coast is on the south coast."""
    try:
        p = notation.parse(text)
    except OrderError:
        return text
    prov = p.unit.loc.province
    kinds = [k for _, _, k in written_parts(p.unit)]
    if prov == "stp" and not p.unit.loc.coast and FLEET in kinds:
        return f"{notation.normalise(text)}/sc"
    return text


def adjudicate_retreats(variant: "Variant", rules: "MultiplicityOptions", mv: MovementResult,
                        orders: dict[str, list[str]]) -> RetreatResult:
    """Rule 11: dislodged units retreat as usual, and may merge with their own nation's units
    and split; when forces of different powers retreat to one space the stronger succeeds and
    the weaker disbands (equal: all disband), unless both orders agree to a multinational unit
    (``A(Bur)-Pic MERGE with ITALIAN A(Bel)-Pic``)."""
    m = variant.map
    notation = variant.notation
    pos = _where_dislodged(mv)
    occupied: dict[str, set[str]] = {}
    for x in mv.after.units:
        occupied.setdefault(x.province, set()).add(x.power)
    contested = set(mv.contested)
    # a multiple unit is one unit: the pieces its orders split it into, dislodged together, retreat
    # as one (one set of options; what no order takes disbands as one)
    pieces_of: dict[tuple[str, str, str], list[int]] = {}
    for u in mv.dislodged:
        x = pos.units[u]
        pieces_of.setdefault((x.power, x.kind, x.location), []).append(u)
    heads = {us[0]: us for us in pieces_of.values()}
    options: dict[int, RetreatOption] = {}
    for u, us in heads.items():
        unit = pos.units[u]
        origins = {pos.units[a].province for v in us if (a := mv.dislodged_by.get(v)) is not None and a != v}
        if unit.kind == ARMY and m.provinces[unit.province].is_sea:
            near = {m.province_of(n) for loc in m.fleet_locations_in(unit.province) for n in m.fleet_neighbours(loc)}
            near |= {p for p in near if m.provinces[p].is_sea}
        else:
            near = {m.province_of(n) for n in m.neighbours(unit.kind, unit.location)}
        open_: list[str] = []
        closed: dict[str, str] = {}
        for prov in sorted(near):
            name = m.provinces[prov].name
            if not m.passable(prov):
                closed[prov] = f"{name} is impassable"
            elif prov in occupied and occupied[prov] != {unit.power}:
                closed[prov] = f"{name} is occupied by {', '.join(sorted(occupied[prov]))}"
            elif prov in origins:
                closed[prov] = f"the attacker came from {name}"
            elif prov in contested:
                closed[prov] = f"{name} was left empty by a stand-off"
            elif unit.kind == FLEET:
                open_.extend(l for l in sorted(m.fleet_neighbours(unit.location)) if m.province_of(l) == prov)
            else:
                open_.append(prov)
        options[u] = RetreatOption(unit=u, open=tuple(open_), closed=closed)
    outcomes: list[Outcome] = []
    # a retreat order takes the pieces it names from the dislodged units (rule 11: "Merges and
    # splits are allowed as usual during retreats"): "A(Bur)" one army (option bare_unit_count),
    # "2A(Bur)" two, "A/F(Bur)" an army and a fleet; what no order takes disbands
    left = {u: sum(pos.units[v].count for v in us) for u, us in heads.items()}
    pieces: list[tuple[int, int]] = []  # (dislodged unit, armies or fleets of it)
    chosen: dict[int, tuple[str, str, str, str | None]] = {}  # piece -> (location | "disband", power, text, partner)
    assert isinstance(notation, MultiplicityNotation)
    # a split written as one line is read as in the movement phase (rule 11: "Merges and splits
    # are allowed as usual during retreats"): one order per part
    for power, text, parsed, error in read_orders(notation, rules, orders):
        if parsed is None:
            assert error is not None
            outcomes.append(Outcome.rejected(power, text, error.severity, error.reason))
            continue
        p = parsed
        prov = p.unit.loc.province
        cands = [u for u in options if pos.units[u].province == prov and pos.units[u].power == power and left[u]]
        have = {k: sum(left[u] for u in cands if pos.units[u].kind == k) for k in (ARMY, FLEET)}
        want, why_not = _retreat_wanted(rules, p, have)
        if not cands or why_not:
            outcomes.append(Outcome.rejected(power, text, "illegal", why_not or f"no dislodged {power} unit in "
                                             f"{m.provinces[prov].name} without a retreat order"))
            continue
        if p.action not in ("move", "disband") or (p.action == "move" and p.dest is None):
            outcomes.append(Outcome.rejected(power, text, "illegal", f"a dislodged unit may only retreat or disband, not {p.action}"))
            continue
        taken: list[int] = []
        for u in cands:
            n = min(want.get(pos.units[u].kind, 0), left[u])
            if n:
                want[pos.units[u].kind] -= n
                left[u] -= n
                pieces.append((u, n))
                taken.append(len(pieces) - 1)
        unread = _unit_as_written(m, rules, pos, pieces, taken, p)
        if unread is not None:
            outcomes.append(Outcome.rejected(power, text, unread.severity, unread.reason, unread.unit))
            for k in taken:
                left[pieces[k][0]] += pieces[k][1]  # it has no retreat order after all
            continue
        if p.action == "disband":
            for k in taken:
                chosen[k] = ("disband", power, text, None)
            continue
        assert p.dest is not None
        target = p.dest.province
        # one order for one unit (an A/F moves "along the same lines of other multiple units",
        # rule 7): where one kind's part cannot retreat there, the whole order is illegal and
        # none of what it names has a retreat order, as in the movement phase; the written
        # destination is read as a move's (the coast options)
        places: dict[int, str] = {}
        refused: list[tuple[int, OrderError]] = []
        for k in taken:
            u = pieces[k][0]
            opt = options[u]
            try:
                if target in opt.closed:
                    raise IllegalOrder(text, f"not a retreat option: {opt.closed[target]}", unit=u)
                places[k] = piece_destination(m, rules, pos.units[u], p.dest, text, u)
                if places[k] not in opt.open:
                    raise IllegalOrder(text, f"not a retreat option: {pos.units[u].short()} cannot reach {m.provinces[target].name}", unit=u)
            except OrderError as exc:
                refused.append((u, exc))
        if refused:
            why = "; ".join(e.reason for _, e in refused)
            whole = " (one order for the whole unit: none of it retreats)" if len(taken) > 1 else ""
            outcomes.append(Outcome.rejected(power, text, refused[0][1].severity, f"{why}{whole}", refused[0][0]))
            for k in taken:
                left[pieces[k][0]] += pieces[k][1]  # it has no retreat order after all
            continue
        for k in taken:
            chosen[k] = (places[k], power, text, _partner(p))
    # each target: sides (a nation, or two nations agreeing to merge) and their strengths
    per_target: dict[str, list[int]] = {}
    for k, (loc, *_rest) in chosen.items():
        if loc != "disband":
            per_target.setdefault(m.province_of(loc), []).append(k)
    moved: dict[int, str] = {}
    for target, us in sorted(per_target.items()):
        sides: dict[tuple[str, ...], list[int]] = {}
        for u in us:
            power, partner = chosen[u][1], chosen[u][3]
            agreed = partner is not None and any(chosen[v][1] == partner and chosen[v][3] == power for v in us)
            side = tuple(sorted((power, partner))) if agreed and partner else (power,)
            sides.setdefault(side, []).append(u)
        sea = m.provinces[target].is_sea

        def strength(side_units: list[int]) -> int:
            return sum(pieces[v][1] for v in side_units if not (sea and pos.units[pieces[v][0]].kind == ARMY))

        ranked = sorted(sides.items(), key=lambda kv: -strength(kv[1]))
        top = strength(ranked[0][1])
        winners = ranked[0][0] if len(ranked) == 1 or strength(ranked[1][1]) < top else None
        for side, side_units in ranked:
            if winners == side:
                units_here = [_piece(pos, pieces[v]) for v in side_units] + [x for x in mv.after.units if x.province == target]
                if sea and sum(x.count for x in units_here if x.kind == ARMY) > sum(x.count for x in units_here if x.kind == FLEET):
                    for v in side_units:
                        outcomes.append(Bounced.build(power=chosen[v][1], text=chosen[v][2], unit=pieces[v][0], order_kind="retreat",
                                                      details=(Seaworthiness(case="retreat", rule="rule 7"),)))
                    continue
                for v in side_units:
                    moved[v] = chosen[v][0]
                    others = [x for x in side_units if x != v]
                    outcomes.append(Moved.build(power=chosen[v][1], text=chosen[v][2], unit=pieces[v][0], order_kind="retreat",
                                                dest=m.display(chosen[v][0]),
                                                details=((Merge(),) if others else ())
                                                + ((RetreatBattle(result="stronger", strength=top, rule="rule 11"),)
                                                   if len(ranked) > 1 else ())))
            else:
                battle = RetreatBattle(result="weaker" if winners else "equal", strength=top, rule="rule 11")
                for v in side_units:
                    outcomes.append(Bounced.build(power=chosen[v][1], text=chosen[v][2], unit=pieces[v][0], order_kind="retreat",
                                                  details=(battle,)))
    for k in sorted(chosen):
        loc, power, text, _ = chosen[k]
        if loc == "disband":
            outcomes.append(Disbanded.build(power=power, text=text, unit=pieces[k][0], order_kind="disband", cause="ordered"))
    for u in heads:
        if left[u]:
            rest = _piece(pos, (u, left[u]))
            outcomes.append(Disbanded.build(power=rest.power, text=f"{rest.short()} (no retreat)", unit=u, order_kind="disband",
                                            cause="no_retreat_order" if options[u].open else "no_retreat", place="space"))
    units: list[Unit] = list(mv.after.units) + [_piece(pos, pieces[k]).updated(location=loc)
                                                for k, loc in sorted(moved.items())]
    after = mv.after.model_copy(update={"units": tuple(units)}).canonical()
    return RetreatResult(position=mv.position, movement=mv, options=tuple(options[u] for u in sorted(options)),
                         outcomes=tuple(outcomes), after=after, dislodged=mv.dislodged, dislodged_by=mv.dislodged_by,
                         contested=mv.contested)


def _unit_as_written(m: "GameMap", rules: "MultiplicityOptions", pos: Position, pieces: list[tuple[int, int]],
                     taken: list[int], p: ParsedOrder) -> OrderError | None:
    """Why the pieces a retreat order takes do not match the unit as written (its coast, as in
    the movement phase: :func:`check_written_unit`), or None."""
    for k in taken:
        u = pieces[k][0]
        try:
            check_written_unit(m, rules, pos.units[u], p.unit, p.text, u)
        except OrderError as exc:
            return exc
    return None


def _partner(p: ParsedOrder) -> str | None:
    """The other nation a retreat agrees to merge with (``... MERGE with ITALIAN A(Bel)-Pic``)."""
    merge = p.addition(MergeWith)
    return merge.partner if merge is not None else None


def _piece(pos: Position, piece: tuple[int, int]) -> Unit:
    """``n`` armies or fleets of a dislodged unit."""
    u, n = piece
    return pos.units[u].updated(count=n)


def _retreat_wanted(rules: "MultiplicityOptions", p: ParsedOrder, have: dict[str, int]) -> tuple[dict[str, int], str]:
    """How many armies and fleets a retreat order names, from those dislodged there (``have``),
    as the movement's orders do; or why it names more than there are."""
    parts = written_parts(p.unit)
    want: dict[str, int] = {}
    for count, _, kind in parts:
        kinds = [kind] if kind is not None else [k for k in (ARMY, FLEET) if have[k]]
        if count is None and kind is None:
            return {k: have[k] for k in kinds}, ""  # "Bur - Bel": the whole unit
        for k in kinds[:1]:
            n = count if count is not None else (1 if rules.bare_unit_count == "one" else max(have[k], 1))
            want[k] = want.get(k, 0) + n
    short = [k for k, n in want.items() if n > have[k]]
    if short and any(have.values()):
        k = short[0]
        return want, (f"{want[k]} {'armies' if k == ARMY else 'fleets'} ordered to retreat, but only {have[k]} "
                      "dislodged there without another retreat order")
    return want, ""


def _where_dislodged(mv: MovementResult) -> Position:
    """The position before the movement with each dislodged unit where it must retreat from: a
    unit that moved and was then dislodged (it merged into a component whose inside attack it
    supported, and the attack failed: rule 5(b)) retreats from where it moved to."""
    moved = {o.unit for o in mv.outcomes if o.unit is not None and o.result == "moved"}
    dest = {o.body.unit: o.body.dest for o in mv.orders if isinstance(o.body, Move)}
    units = list(mv.position.units)
    for u in mv.dislodged:
        if u in moved and u in dest:
            units[u] = units[u].updated(location=dest[u])
    return mv.position.model_copy(update={"units": tuple(units)})
