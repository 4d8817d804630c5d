"""The one reading of a written place: where a written destination leads, and whether a written
unit matches the unit it names.

Every phase reads places through these functions — a move, a support's own unit, a retreat, a
disband, a build — so the coast options (DATC 4.B.2-4.B.6: ``missing_coast_single``,
``impossible_coast``, ``wrong_unit_coast``, ``irrelevant_coast``) and ``wrong_unit_kind``
(4.C.2) give one verdict on one text whatever the phase, with one reason naming the rule.
A retreat is a move to a province the retreat rules leave open: the same written destination
is read here first, and then checked against the open places (:mod:`dipsat.board.retreats`).
"""

from __future__ import annotations

from typing import Callable, Optional

from dipsat.maps import GameMap

from dipsat.errors import AmbiguousOrder, IllegalOrder
from dipsat.models import ARMY, FLEET, Unit
from dipsat.board.notation import LocRef, UnitRef
from dipsat.rules import RuleOptions

def _army_ground(game_map: GameMap) -> Callable[[str], bool]:
    def can_stand(province: str) -> bool:
        return game_map.provinces[province].terrain in ("land", "coast")
    return can_stand


def written_destination(game_map: GameMap, rules: RuleOptions, unit: Unit, dest: LocRef, text: str,
                        index: Optional[int] = None, *, army_can_stand: Optional[Callable[[str], bool]] = None,
                        for_support: bool = False) -> str:
    """The location a unit's written destination leads to (a fleet's coast resolved), by the
    coast options; raises :class:`IllegalOrder` / :class:`AmbiguousOrder` naming the rule when
    the text gives none.  ``army_can_stand``: the board's geography (land and coasts unless a
    variant says otherwise).  ``for_support``: the destination of a supported move, whose coast
    may be left open."""
    m = game_map
    prov = dest.province
    pdata = m.provinces[prov]
    if not pdata.passable:
        raise IllegalOrder(text, f"{pdata.name} is impassable", unit=index)
    if unit.kind not in (ARMY, FLEET):  # a variant's own kinds stand on provinces: a coast is irrelevant
        if dest.coast and f"{prov}/{dest.coast}" not in pdata.coasts and rules.irrelevant_coast == "fail":
            raise IllegalOrder(text, f"{pdata.name} has no {dest.coast} coast (rule option irrelevant_coast=fail)", unit=index)
        return prov
    if unit.kind == ARMY:
        if not (army_can_stand or _army_ground(m))(prov):
            raise IllegalOrder(text, f"an army cannot go to {pdata.name}: it is a sea", unit=index)
        if dest.coast and rules.irrelevant_coast == "fail":
            raise IllegalOrder(text, "an army move names a coast (rule option irrelevant_coast=fail)", unit=index)
        return prov
    # fleet
    if not m.fleet_locations_in(prov):
        raise IllegalOrder(text, f"a fleet cannot go to {pdata.name}: it is inland", unit=index)
    reachable = m.fleet_coasts_reachable(unit.location, prov)
    coast = dest.coast
    if coast and (not pdata.coasts or f"{prov}/{coast}" not in pdata.coasts):
        if rules.irrelevant_coast == "fail":
            raise IllegalOrder(text, f"{pdata.name} has no {coast} coast (rule option irrelevant_coast=fail)", unit=index)
        coast = None
    if not pdata.coasts:
        if not reachable:
            raise IllegalOrder(text, f"{m.display(unit.location)} does not border {pdata.name} for a fleet", unit=index)
        return prov
    if coast:
        loc = f"{prov}/{coast}"
        if loc in reachable:
            return loc
        if rules.impossible_coast == "ignore" and len(reachable) == 1:
            return reachable[0]
        raise IllegalOrder(text, f"a fleet in {m.display(unit.location)} cannot reach {pdata.name} ({m.coasts[loc].name}) (DATC 4.B.3)",
                           unit=index)
    if not reachable:
        raise IllegalOrder(text, f"{m.display(unit.location)} does not border {pdata.name} for a fleet", unit=index)
    if len(reachable) == 1:
        if rules.missing_coast_single == "attempt" or for_support:
            return reachable[0]
        raise IllegalOrder(text, f"the coast of {pdata.name} must be named (rule option missing_coast_single=fail)", unit=index)
    if for_support:
        return prov
    raise AmbiguousOrder(text, f"which coast of {pdata.name}? {' or '.join(m.display(c) for c in reachable)} (DATC 4.B.1)",
                         unit=index)


def written_unit(game_map: GameMap, rules: RuleOptions, unit: Unit, ref: UnitRef, text: str,
                 index: Optional[int] = None, *, kind: bool = True) -> None:
    """Check the ordered unit as written against the unit it names: a wrong kind letter
    (``wrong_unit_kind``; ``kind=False`` where the caller chose among units by kind itself), a
    coast other than the unit's (``wrong_unit_coast``) or no coast at all
    (``irrelevant_coast``).  Raises :class:`IllegalOrder` naming the rule; returns when the
    rules let the text stand."""
    m = game_map
    if kind and ref.kind and ref.kind != unit.kind and rules.wrong_unit_kind == "fail":
        what = {"A": "an army", "F": "a fleet"}.get(ref.kind, ref.kind)
        raise IllegalOrder(text, f"the unit in {m.provinces[unit.province].name} is {unit.kind} {m.display(unit.location)}, not "
                                 f"{what} (rule option wrong_unit_kind=fail)", unit=index)
    if ref.loc.coast and unit.location != ref.loc.location():
        if ref.loc.location() in m.coasts:
            if rules.wrong_unit_coast == "fail":
                raise IllegalOrder(text, f"the unit is on {m.display(unit.location)}, not {m.display(ref.loc.location())} "
                                         "(rule option wrong_unit_coast=fail)", unit=index)
        elif rules.irrelevant_coast == "fail":
            raise IllegalOrder(text, f"{m.display(ref.loc.location())} is not a coast (rule option irrelevant_coast=fail)", unit=index)


def written_build_location(game_map: GameMap, rules: RuleOptions, kind: str, province: str, coast: Optional[str],
                           text: str) -> str:
    """Where a build of ``kind`` written in ``province`` (with ``coast`` as written) puts the
    unit, by the same options as a move's destination: a coast the province does not have, or
    any coast for an army, is ``irrelevant_coast``; a fleet on a province of several coasts must
    name one (DATC 4.B.7); of one possible coast, ``missing_coast_single``.  The caller has
    checked that a unit of that kind may stand there."""
    m = game_map
    pdata = m.provinces[province]
    if coast and (kind != FLEET or f"{province}/{coast}" not in pdata.coasts):
        if rules.irrelevant_coast == "fail":
            what = "an army build names a coast" if kind == ARMY else f"{pdata.name} has no {coast} coast"
            raise IllegalOrder(text, f"{what} (rule option irrelevant_coast=fail)")
        coast = None
    if kind != FLEET or not pdata.coasts:
        return province
    if coast:
        return f"{province}/{coast}"
    if len(pdata.coasts) == 1:
        if rules.missing_coast_single == "attempt":
            return pdata.coasts[0]
        raise IllegalOrder(text, f"the coast of {pdata.name} must be named (rule option missing_coast_single=fail)")
    raise IllegalOrder(text, f"a fleet built in {pdata.name} must name its coast: {' or '.join(m.display(c) for c in pdata.coasts)} (DATC 4.B.7)")
