"""Adjustment (winter) orders: builds, disbands, waived builds, civil disorder.

Each power may build as many units as it owns more supply centres than it has units, on owned,
unoccupied home centres (a fleet on a split-coast centre names its coast: DATC 4.B.7), or must
disband as many as it has too many.  Orders are taken one by one: the first legal ones are used
and the rest rejected with the reason (DATC 4.D.4-4.D.6).  A power that disbands too few loses
units by the civil-disorder rule of the 2023 rulebook (DATC 6.J): the unit farthest from its
nearest owned supply centre, distance counted over land and sea for both kinds; fleets before
armies; then the alphabetical order of the provinces' English names.
"""

from __future__ import annotations

import re
from collections import deque
from typing import Optional

from dipsat.maps import GameMap

from dipsat.errors import AmbiguousOrder, IllegalOrder, InvalidOrder, OrderError
from pydantic import Field, SerializeAsAny

from dipsat.models import VariantRecord, Drawable, Frozen, Position, Unit, ARMY, FLEET
from dipsat.outcomes import Backup, Built, Disbanded, Outcome, TaggedOutcome, Waived
from dipsat.board.destinations import written_build_location, written_unit
from dipsat.rules import RuleOptions
from dipsat.board.notation import Notation, UnitRef, shown, too_long
from dipsat.board.notation_additions import written_count, written_parts

_BUILD_RE = re.compile(r"^\s*(?:build|b)\s+(.*)$|^(.*?)\s+(?:build|builds|b)\s*$", re.I)
_DISBAND_RE = re.compile(r"^\s*(?:disband|remove|d|r)\s+(.*)$|^(.*?)\s+(?:disband|disbands|remove|d|r)\s*$", re.I)
_WAIVE_RE = re.compile(r"^\s*(?:build\s+)?waive(?:s|d)?(?:\s+build)?\s*$", re.I)


class AdjustmentResult(Drawable, Frozen):
    position: Position
    outcomes: tuple[TaggedOutcome, ...]  # read from data by their kind tags
    after: Position
    dislodged: tuple[int, ...] = ()
    dislodged_by: dict[int, int] = {}
    backups: tuple[Backup, ...] = ()  # (adjustments settle no cycle: always empty)
    contested: tuple[str, ...] = ()
    civil_disorder: tuple[str, ...] = ()  # units removed by the civil-disorder rule
    random_seed: Optional[int] = None  # where a rule drew lots: the seed of the draw
    rules: Optional[SerializeAsAny[RuleOptions]] = None  # the rules it was adjudicated under (name, every value)
    variant: Optional[VariantRecord] = Field(default=None, exclude=True, repr=False)  # the record it was adjudicated by


def describe(m: GameMap, u: Unit) -> str:
    return f"{u.kind} {m.display(u.location)}"


def format_adjustment(notation: Notation, action: str, unit: Optional[UnitRef]) -> str:
    """An adjustment order's canonical text (``Build A Par``, ``Disband F Spa/nc``, ``Waive``):
    :func:`parse_adjustment` reads it back to the same action and unit."""
    if action == "waive":
        return "Waive"
    if unit is None or action not in ("build", "disband"):
        raise ValueError(f"an adjustment order is a build or a disband of a unit, or a waive; not {action!r} of {unit!r}")
    return f"{action.capitalize()} {notation.format_unit(unit)}"


def parse_adjustment(notation: Notation, text: str) -> tuple[str, Optional[UnitRef]]:
    """-> (action, the unit named); action in build, disband, waive (which names no unit)."""
    why = too_long(text)
    if why is not None:
        raise InvalidOrder(text, why, quote=shown(text))
    if _WAIVE_RE.match(text):
        return "waive", None
    for action, rx in (("build", _BUILD_RE), ("disband", _DISBAND_RE)):
        m = rx.match(text)
        if m:
            body = (m.group(1) or m.group(2) or "").strip()
            p = notation.parse(body)
            if p.action != "hold":
                raise InvalidOrder(text, f"a {action} order names one unit, e.g. '{action.capitalize()} F Kiel'")
            return action, p.unit
    raise InvalidOrder(text, "expected an adjustment order: 'Build A Par', 'F Stp/nc B', 'Disband A Par', 'A Par D' or 'Waive'")


def adjudicate_adjustments(game_map: GameMap, notation: Notation, pos: Position, orders: dict[str, list[str]],
                           owners: dict[str, str], civil_rule: str = "2023", shared_provinces: bool = False,
                           stacked_builds: bool = False, rules: Optional[RuleOptions] = None) -> AdjustmentResult:
    """``shared_provinces``: units of one power may share a province (counts); a build goes on an
    owned home province not held by another power, one per province, whatever own units are
    there.  ``stacked_builds`` (with ``shared_provinces``): a province may take several builds in
    one phase, and one order may build a multiple unit (``Build 2A Par``, ``Build A & F Bre``),
    each unit one build; without it, a build order naming more than one unit is illegal.
    ``rules``: the coast options read a written coast as in a move (:mod:`dipsat.board.destinations`;
    the DATC preferences when not given)."""
    rules = rules or RuleOptions()
    centres: dict[str, int] = {}
    for power in owners.values():
        centres[power] = centres.get(power, 0) + 1
    units_of: dict[str, list[int]] = {}
    for i, u in enumerate(pos.units):
        units_of.setdefault(u.power, []).append(i)
    outcomes: list[Outcome] = []
    new_units = list(pos.units)
    removed: dict[int, int] = {}  # unit -> how many of its count are removed
    civil: list[str] = []

    def left(i: int) -> int:
        return pos.units[i].count - removed.get(i, 0)

    for power in sorted(set(orders) | set(units_of) | set(centres)):
        delta = centres.get(power, 0) - sum(pos.units[i].count for i in units_of.get(power, []))
        occupied = {u.province for u in pos.units if not shared_provinces or u.power != power}
        done = 0
        built_here: set[str] = set()
        for text in orders.get(power, []):
            def reject(sev: str, reason: str) -> None:
                outcomes.append(Outcome.rejected(power, text, sev, reason))
            try:
                action, ref = parse_adjustment(notation, text)
            except OrderError as exc:
                reject(exc.severity, exc.reason)
                continue
            if action == "waive":
                if delta - done <= 0:
                    reject("illegal", f"{power} has no build to waive")
                    continue
                done += 1
                outcomes.append(Waived.build(power=power, text=text, unit=None, order_kind="waive"))
                continue
            assert ref is not None  # a build or a disband names its unit
            kind, prov, coast, count = ref.kind, ref.loc.province, ref.loc.coast, written_count(ref)
            if action == "build":
                parts = written_parts(ref)
                n_units = sum(c or 1 for c, _, _ in parts)
                if n_units > 1 and not stacked_builds:
                    reject("illegal", f"a build order builds one unit; {n_units} named (one build per province in a phase)")
                    continue
                try:
                    made = [_check_build(game_map, rules, power, k, prov, coast, owners,
                                         occupied if stacked_builds else occupied | built_here, text) for _, _, k in parts]
                except OrderError as exc:
                    reject(exc.severity, exc.reason)
                    continue
                if delta - done <= 0:
                    reject("illegal", f"{power} may build {max(delta, 0)} unit(s) and has used them (DATC 4.D.4: the first legal builds count)")
                    continue
                if delta - done < n_units:
                    left_ = delta - done
                    reject("illegal", f"{power} may build {max(delta, 0)} unit(s), {left_} left for this order of {n_units} "
                                      "(DATC 4.D.4: the first legal builds count)")
                    continue
                done += n_units
                built_here.add(prov)
                made = [u.updated(count=c or 1) for u, (c, _, _) in zip(made, parts)]
                new_units.extend(made)
                outcomes.append(Built.build(power=power, text=text, unit=None, order_kind="build",
                                            built=", ".join(u.short() for u in made)))
                continue
            # disband
            idx = [i for i in units_of.get(power, []) if pos.units[i].province == prov and left(i) > 0
                   and (kind is None or pos.units[i].kind == kind)]
            if not idx:
                reject("illegal", f"{power} has no unit in {game_map.provinces[prov].name} to disband")
                continue
            try:
                written_unit(game_map, rules, pos.units[idx[0]], ref, text, idx[0], kind=False)
            except OrderError as exc:
                reject(exc.severity, exc.reason)
                continue
            if -delta - done <= 0:
                reject("illegal", f"{power} has no unit to disband (DATC 4.D.6: the first legal disbands count)")
                continue
            n = min(count or 1, left(idx[0]), -delta - done)
            done += n
            removed[idx[0]] = removed.get(idx[0], 0) + n
            outcomes.append(Disbanded.build(power=power, text=text, unit=idx[0], order_kind="disband", cause="adjustment",
                                            removed=f"{f'{n} ' if shared_provinces else ''}{describe(game_map, pos.units[idx[0]])}"))
        if delta < 0 and done < -delta:
            if civil_rule == "2023":
                targets = {p for p, w in owners.items() if w == power}
            else:
                targets = set(game_map.powers[power].home) if power in game_map.powers else set()
            still = [i for i in units_of.get(power, []) if left(i) > 0]
            order = [i for i in civil_disorder_order(game_map, pos, still, targets, civil_rule) for _ in range(left(i))]
            for i in order[: -delta - done]:
                removed[i] = removed.get(i, 0) + 1
                civil.append(pos.units[i].label())
                outcomes.append(Disbanded.build(power=power, text=f"(civil disorder) Disband {pos.units[i].short()}",
                                                unit=i, order_kind="disband", cause="civil_disorder"))
    after_units = [u if i not in removed else u.updated(count=u.count - removed[i])
                   for i, u in enumerate(new_units) if i not in removed or u.count > removed[i]]
    after = Position(variant=pos.variant, year=pos.year, season=pos.season, units=tuple(after_units), owners=owners).canonical()
    return AdjustmentResult(position=pos, outcomes=tuple(outcomes), after=after, civil_disorder=tuple(civil))


def _check_build(m: GameMap, rules: RuleOptions, power: str, kind: Optional[str], prov: str, coast: Optional[str],
                 owners: dict[str, str], occupied: set[str], text: str) -> Unit:
    pdata = m.provinces[prov]
    if prov not in m.powers[power].home:
        raise IllegalOrder(text, f"{pdata.name} is not a home centre of {power}")
    if owners.get(prov) != power:
        raise IllegalOrder(text, f"{power} does not own {pdata.name}")
    if prov in occupied:
        raise IllegalOrder(text, f"{pdata.name} is occupied (DATC 4.D.5: one unit per province)")
    if kind is None:
        kind = "A" if pdata.terrain == "land" or (pdata.terrain == "coast" and not coast) else "F"
        if pdata.coasts and not coast:
            raise AmbiguousOrder(text, f"army or fleet? name the kind (and for a fleet the coast) in {pdata.name}")
    if kind == "A":
        if pdata.terrain not in ("land", "coast"):
            raise IllegalOrder(text, f"an army cannot be built in {pdata.name}")
    elif pdata.terrain == "land":
        raise IllegalOrder(text, f"a fleet cannot be built in {pdata.name}: it is inland (DATC 4.C.4)")
    loc = written_build_location(m, rules, kind, prov, coast, text)
    return Unit(power=power, kind=ARMY if kind == "A" else FLEET, location=loc)


def civil_disorder_order(m: GameMap, pos: Position, units: list[int], targets: set[str], rule: str = "2023") -> list[int]:
    """Units in the order the civil-disorder rule removes them: farthest from ``targets`` first
    (2023: owned centres, land and sea for both kinds; older: home centres, fleets by sea),
    fleets before armies, then by the province's English name."""
    dist = _distances(m, targets)
    fleet_dist = dist if rule == "2023" else _fleet_distances(m, targets)

    def key(i: int) -> tuple[int, int, str]:
        u = pos.units[i]
        d = (fleet_dist if u.kind == FLEET else dist).get(u.province, 10**6)
        return (-d, 0 if u.kind == FLEET else 1, m.provinces[u.province].name)

    return sorted(units, key=key)


def _distances(m: GameMap, sources: set[str]) -> dict[str, int]:
    """Moves from each province to the nearest of ``sources``, over land and sea alike."""
    nbrs: dict[str, set[str]] = {p: set() for p in m.provinces}
    for a, b in m.army_edges:
        nbrs[a].add(b)
        nbrs[b].add(a)
    for a, b in m.fleet_edges:
        pa, pb = m.province_of(a), m.province_of(b)
        nbrs[pa].add(pb)
        nbrs[pb].add(pa)
    dist = {p: 0 for p in sources}
    q = deque(sorted(sources))
    while q:
        x = q.popleft()
        for y in sorted(nbrs[x]):
            if y not in dist and m.provinces[y].passable:
                dist[y] = dist[x] + 1
                q.append(y)
    return dist


def _fleet_distances(m: GameMap, sources: set[str]) -> dict[str, int]:
    """Fleet moves (along fleet adjacency, any coast) from each province to the nearest source."""
    nbrs: dict[str, set[str]] = {}
    for a, b in m.fleet_edges:
        pa, pb = m.province_of(a), m.province_of(b)
        nbrs.setdefault(pa, set()).add(pb)
        nbrs.setdefault(pb, set()).add(pa)
    dist = {p: 0 for p in sources}
    q = deque(sorted(sources))
    while q:
        x = q.popleft()
        for y in sorted(nbrs.get(x, ())):
            if y not in dist:
                dist[y] = dist[x] + 1
                q.append(y)
    return dist
