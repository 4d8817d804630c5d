"""Multiplicity Plus movement: a solved turn in the variant's own terms.

One outcome per written order (the parts of an A/F ordered together are one order), with the
strengths that decided it, the obstacles that named its culprits, and the variant's details
(merges, attacks inside a multinational unit, seaworthiness, cut budgets, implied supports);
the position after, the dislodged units, and the spaces left empty by a stand-off (rule 3: only
between different powers).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Optional, Protocol, Sequence

from dipsat.engine.equations import Component
from dipsat.engine.formulas import Formula, Key, Values, evaluate
from dipsat.models import Convoy, Move, Position, Support, Unit
from dipsat.outcomes import (Backup, Bounced, Convoyed, Cut, Detail, Disrupted, Dislodged, Given, Held, Moved,
                             MovementResult, NoPath, Obstacle, OrderRef, Outcome, Partial, Strength, Term, Void, order_ref)
from dipsat.board.orders import BoundOrders
from dipsat.maps import GameMap

from .details import (ComponentAttack, CutBudget, ImpliedSupport, Merge, OfMerge, Seaworthiness, Sides, SplitPart,
                      UnreadPriority)
from .encoding import CutTerms, Enc, ForceKey, Side, Terms, dkey
from .options import MultiplicityOptions
from .orders import InsideAttack, InsideSupport, MergeAttack, MergeSupport, MultiplicityBound



class TurnHooks(Protocol):
    """What :func:`explain_turn` asks of the movement rules (:class:`.movement.MultiplicityRules`
    is one): the board, the options, and the strengths and decisions an explanation compares."""

    map: GameMap
    rules: MultiplicityOptions

    def hostile(self, enc: Enc, k: ForceKey) -> bool: ...
    def cutting_groups(self, enc: Enc, prov: str) -> list[tuple[ForceKey, CutTerms]]: ...
    def path_open(self, enc: Enc, u: int) -> Formula: ...
    def force_terms(self, enc: Enc, k: ForceKey, exclude: frozenset[str] = frozenset()) -> Terms: ...
    def defence_terms(self, enc: Enc, prov: str, exclude: tuple[int, ...] = ()) -> Terms: ...
    def force_prevent_zero(self, enc: Enc, k: ForceKey) -> Formula: ...
    def inside_terms(self, enc: Enc, a: int) -> tuple[Terms, Terms]: ...


def explain_turn(impl: TurnHooks, enc: Enc, values: Values, components: Sequence[Component]) -> MovementResult:
    b = enc.bound
    pos = b.position
    m = impl.map

    def val(f: Formula) -> bool:
        return evaluate(f, values)

    def strength(name: str, owner: str, terms: Terms) -> Strength:
        return Strength(name=name, owner=owner, terms=tuple(Term(label=l, weight=w, active=val(f)) for l, w, f in terms))

    moved = {u for u in enc.moves if values[dkey("move", u)]}
    dislodged_by: dict[int, int] = {}
    for k, members in enc.forces.items():
        if not impl.hostile(enc, k) or not values[dkey("force", members[0])]:
            continue
        into = next((x for x in members if x in moved), members[0])
        for v in enc.occupants.get(k[1], []):
            if v not in moved and pos.units[v].power not in k[0]:
                dislodged_by.setdefault(v, into)
    inside_won: dict[int, bool] = {}
    for a, o in sorted(b.orders.items()):
        if isinstance(o.body, InsideAttack) and a not in dislodged_by:
            won = bool(values[dkey("inside", a)])
            inside_won[a] = won
            prov = pos.units[a].province
            victims = [v for v in enc.occupants.get(prov, []) if pos.units[v].power == o.body.victim and v not in moved]
            if won:
                for v in victims:
                    dislodged_by.setdefault(v, a)
            else:
                dislodged_by.setdefault(a, victims[0] if victims else a)
                if impl.rules.merge_attack_failure == "component":  # the units that merged in took part
                    for u in enc.merge_attacks.get(a, []):
                        if u in moved:
                            dislodged_by.setdefault(u, victims[0] if victims else a)
    overridden: dict[Key, Component] = {}
    for c in components:
        for key in c.overrides:
            overridden[key] = c

    def slots_text(s: int) -> tuple[int, int]:
        sl = enc.support_slots.get(s, [])
        return sum(1 for x in sl if values[x.key]), len(sl)

    def cutters(s: int) -> list[OrderRef]:
        prov = pos.units[s].province
        return [order_ref(b.orders[x]) for k, _ in impl.cutting_groups(enc, prov) for x in enc.forces[k] if val(impl.path_open(enc, x))]

    outcomes: list[Outcome] = []
    for u in range(len(pos.units)):
        o = b.orders[u]
        body = o.body
        dis = dislodged_by.get(u)
        dis_ref = order_ref(b.orders[dis]) if dis is not None else None
        common = dict(power=o.power, text=o.text, unit=u, dislodged_by=dis_ref)
        split_of = b.split_headers.get(u) if isinstance(b, MultiplicityBound) else None
        unread = b.unread_priority.get(u) if isinstance(b, MultiplicityBound) else None
        # rule 6: a priority not understood does not void the attack; it says the default applied
        unread_priority = UnreadPriority(written=unread, rule="rule 6") if unread else None
        if isinstance(body, Move):
            k = enc.force_of[u]
            hostile = impl.hostile(enc, k)
            restricted = enc.owners[k[1]] if hostile and not all(v in moved for v in enc.occupants.get(k[1], [])) else frozenset()
            att = strength("attack" if hostile else "strength", f"{' + '.join(k[0])} into {m.provinces[k[1]].name}",
                           impl.force_terms(enc, k, restricted))
            together = [enc.labels[x] for x in enc.forces[k] if b.orders[x].text != o.text]
            staying = [enc.labels[v] for v in enc.occupants.get(k[1], []) if pos.units[v].power in k[0] and v not in enc.moves]
            merge = Merge(nations=k[0], with_units=tuple(together + staying)) \
                if together or staying or len(k[0]) > 1 else None
            backup = overridden[dkey("move", u)].backup if dkey("move", u) in overridden else None
            backup_rule = backup[1] if backup else None
            if u in moved:
                joined = ComponentAttack(victim=m.powers[body.victim].adjective, rule="rule 5(b)", joined=True) \
                    if isinstance(body, MergeAttack) else None
                outcomes.append(Moved.build(order_kind="move", backup_rule=backup_rule, strengths=(att,),
                                            details=_present(merge, joined, unread_priority), **common))
                continue
            if not val(impl.path_open(enc, u)):
                fleets = enc.convoyers.get(u, [])
                outcomes.append(NoPath.build(order_kind="move", by=tuple(order_ref(b.orders[f]) for f in fleets),
                                             broken=tuple(order_ref(b.orders[f]) for f in fleets if not values.get(dkey("convoy", f), False)),
                                             **common))
                continue
            obstacles: list[Obstacle] = []
            culprits: list[OrderRef] = []
            strengths = [att]
            sea = enc.not_seaworthy.get(k)
            if sea is None and not values[dkey("seaworthy", enc.forces[k][0])]:
                sea = Seaworthiness(case="leaving", rule="rule 10")
            if hostile and k in enc.force_h2h:
                opp, opp_units = enc.force_h2h[k]
                ds = strength("force", f"{' + '.join(opp[0])} into {m.provinces[opp[1]].name} and the units staying",
                              impl.force_terms(enc, opp) + impl.defence_terms(enc, k[1], tuple(opp_units)))
                strengths.append(ds)
                if ds.value >= att.value:
                    refs = [order_ref(b.orders[v]) for v in opp_units]
                    obstacles.append(Obstacle.build(why="head_to_head", by=refs[0], strength=ds))
                    culprits.extend(refs)
            elif hostile and restricted:
                d = strength("defence", m.provinces[k[1]].name, impl.defence_terms(enc, k[1]))
                strengths.append(d)
                if d.value >= att.value:
                    refs = [order_ref(b.orders[v]) for v in enc.occupants.get(k[1], [])]
                    obstacles.append(Obstacle.build(why="hold", by=refs[0], strength=d))
                    culprits.extend(refs)
            for r in sorted(enc.forces):
                if r[1] == k[1] and r != k and not val(impl.force_prevent_zero(enc, r)):
                    ps = strength("strength", f"{' + '.join(r[0])} into {m.provinces[r[1]].name}", impl.force_terms(enc, r))
                    if ps.value >= att.value:
                        strengths.append(ps)
                        refs = [order_ref(b.orders[x]) for x in enc.forces[r]]
                        culprits.extend(refs)
                        obstacles.append(Obstacle.build(why="stand_off", by=refs[0], label=" + ".join(r[0]), strength=ps))
            outcomes.append(Bounced.build(order_kind="move", by=tuple(culprits), obstacles=tuple(obstacles),
                                          backup_rule=backup_rule, strengths=tuple(strengths),
                                          details=_present(Sides(), sea, unread_priority), **common))
            continue
        if isinstance(body, (Support, MergeSupport, InsideSupport)):
            kind = "support"
            if not enc.matched.get(u):
                outcomes.append(Void.build(order_kind=kind, several=True, **common))
                continue
            given, n = slots_text(u)
            if given == n:
                outcomes.append(Given.build(order_kind=kind, units=max(n, 1),
                                            details=(OfMerge(),) if isinstance(body, MergeSupport) else (), **common))
            elif dis_ref is not None:
                outcomes.append(Cut.build(order_kind=kind, by=(dis_ref,), **common))
            else:
                by = tuple(cutters(u))
                budget = _budget(impl, enc, values, u)
                if given == 0:
                    outcomes.append(Cut.build(order_kind=kind, by=by, details=_present(budget), **common))
                else:
                    outcomes.append(Partial.build(order_kind=kind, by=by, kept=given, total=n, details=_present(budget),
                                                  **common))
            continue
        if isinstance(body, InsideAttack):
            attack, defence = impl.inside_terms(enc, u)
            att_s, def_s = strength("attack", enc.labels[u], attack), strength("defence", m.powers[body.victim].adjective, defence)
            attack_on = ComponentAttack(victim=m.powers[body.victim].adjective, rule="rule 5(b)")
            if dis_ref is not None and u not in inside_won:
                outcomes.append(Dislodged.build(order_kind="hold", by=(dis_ref,), **common))
            elif inside_won.get(u):
                outcomes.append(Moved.build(order_kind="move", strengths=(att_s, def_s), details=(attack_on,), **common))
            else:
                outcomes.append(Bounced.build(order_kind="move", strengths=(att_s, def_s), details=(attack_on,), **common))
            continue
        if isinstance(body, Convoy):
            carried = [a for a in enc.convoyers if u in enc.convoyers[a]]
            if not enc.matched.get(u):
                outcomes.append(Void.build(order_kind="convoy", several=True, **common))
            elif values[dkey("convoy", u)] and any(values.get(dkey("path", a), False) for a in carried):
                outcomes.append(Convoyed.build(order_kind="convoy", **common))
            elif dis_ref is not None:
                outcomes.append(Disrupted.build(order_kind="convoy", cause="dislodged", by=(dis_ref,), **common))
            else:
                outcomes.append(Disrupted.build(order_kind="convoy", cause="no_path",
                                                by=tuple(order_ref(b.orders[a]) for a in sorted(carried)), **common))
            continue
        # a hold (or an implicit one)
        implied = None
        if enc.support_slots.get(u):
            given, n = slots_text(u)
            implied = ImpliedSupport(given=given, total=n) if n else None
        if dis_ref is not None:
            outcomes.append(Dislodged.build(order_kind="hold", by=(dis_ref,), details=_present(implied), **common))
        else:
            outcomes.append(Held.build(order_kind="hold", details=_present(implied, SplitPart(header=split_of) if split_of else None),
                                       **common))
    outcomes = _one_per_order(b, outcomes)
    for rej in sorted(b.rejected, key=lambda r: (r.power, r.unit if r.unit is not None else -1, r.text, r.reason)):
        outcomes.append(Outcome.rejected(rej.power, rej.text, rej.severity, rej.reason, rej.unit))
    new_units: list[Unit] = []
    for u, unit in enumerate(pos.units):
        if u in dislodged_by:
            continue
        new_units.append(unit.updated(location=enc.moves[u].dest) if u in moved else unit)
    after = Position(variant=pos.variant, year=pos.year, season=pos.season, units=tuple(new_units),
                     owners=pos.owners).canonical()
    occupied_after = {x.province for x in new_units}
    # rule 3: "Stand-offs can only occur between units belonging to different Powers": a space
    # is left empty by a stand-off when forces of two sides or more kept their strength there
    # (a lone force that fails, unseaworthy or held back by rule 10, stands off with nobody)
    standing: dict[str, set[Side]] = defaultdict(set)
    for k, members in enc.forces.items():
        if (k[1] not in occupied_after and not any(x in moved for x in members) and not val(impl.force_prevent_zero(enc, k))
                and any(val(impl.path_open(enc, x)) for x in members) and values.get(dkey("strength", members[0]), 0)):
            standing[k[1]].add(k[0])
    contested = sorted(p for p, sides in standing.items() if len(sides) > 1)
    backups = tuple(Backup.model_validate(dict(kind=c.backup[0], resolutions=c.resolutions, rule=c.backup[1],
                           orders=tuple(sorted({b.orders[n.unit].text for n in c.decisions if n.unit in b.orders}))))
                    for c in components if c.backup)
    return MovementResult.build(position=pos, outcomes=tuple(outcomes), dislodged=tuple(sorted(dislodged_by)),
                                dislodged_by=dislodged_by, after=after, backups=backups, rejected=tuple(b.rejected),
                                contested=tuple(contested), convoyed=tuple(sorted(u for u in moved if enc.route[u] == "convoy")),
                                failed_into=tuple(sorted({enc.dest[u] for u in enc.moves if u not in moved})))


def _one_per_order(b: BoundOrders, outcomes: list[Outcome]) -> list[Outcome]:
    """One outcome per written order: the parts of an A/F ordered together (``A/F(ENG)-Bre``)
    are one order.  The outcome shown is the part that does what the order says (a convoy
    rather than the army aboard), a failure before a success."""
    written = b.written if isinstance(b, MultiplicityBound) else {}
    groups: dict[tuple[str, str, int], list[Outcome]] = {}
    order: list[tuple[str, str, int]] = []
    for o in outcomes:
        idx = written.get(o.unit, -1 - (o.unit or 0)) if o.unit is not None else -1
        key = (o.power, o.text, idx)
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(o)
    rejected = {(r.power, r.text) for r in b.rejected}
    out = []
    for key in order:
        parts = groups[key]
        if (key[0], key[1]) in rejected and all(o.order_kind == "hold" for o in parts):
            continue  # the army aboard an A/F whose convoy order was rejected: the rejection says it
        best = min(parts, key=lambda o: (o.order_kind == "hold" and len(parts) > 1, o.succeeded))
        out.append(best)
    return out


def _present(*details: Optional[Detail]) -> tuple[Detail, ...]:
    """The details given (None: not there), in order."""
    return tuple(d for d in details if d is not None)


def _budget(impl: TurnHooks, enc: Enc, values: Values, s: int) -> Optional[CutBudget]:
    """Why the cut stopped where it did: the strongest attack's cutting strength (rule 6), less
    what comes from the space the support is aimed at."""
    pos = enc.bound.position
    aim = enc.support_slots[s][0].aim if enc.support_slots.get(s) else None
    best: Optional[tuple[int, ForceKey, int]] = None
    for k, terms in impl.cutting_groups(enc, pos.units[s].province):
        counted = sum(w for key, w, f in terms if evaluate(f, values) and (aim is None or key != aim))
        from_aim = sum(w for key, w, f in terms if aim is not None and key == aim)
        if best is None or counted > best[0]:
            best = (counted, k, from_aim)
    if best is None:
        return None
    counted, k, from_aim = best
    names = impl.map.provinces
    return CutBudget(strength=counted, nations=k[0], into=names[k[1]].name,
                     excluded=names[aim].name if from_aim and aim else None, rule="rule 6")
