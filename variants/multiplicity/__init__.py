"""Multiplicity Plus (Stephen Agar and Richard Walkerdine, rn42) — seed 003.

The standard board (Switzerland impassable: the seed does not change the map).  Units of one
nation moving to one space merge into a multiple unit whose strength is its number of units
(rules 2-4, 6); two nations may form a multinational unit by matching orders (rule 5); an army
and a fleet travel together as an A/F, at sea only when seaworthy (rules 7-9); a multiple unit
splits by ordering its parts to different places (rule 10); retreats merge and fight by strength
(rule 11); the game opens with a placement phase (rule 1).

The room: notation (:mod:`.notation`), order kinds and binding (:mod:`.orders`), the movement
equations (:mod:`.movement`), the phases other than movement (:mod:`.phases`) and the rule
options (:mod:`.options`).
"""

from __future__ import annotations

from typing import Optional

from dipsat.board.adjustments import AdjustmentResult
from dipsat.errors import PositionError
from dipsat.models import ARMY, FLEET, Position, Unit
from dipsat.outcomes import MovementResult
from dipsat.game.variant import DiplomacyYear, Phases
from dipsat.board.retreats import RetreatResult
from dipsat.rules import RuleOptions
from dipsat.game.variant import Variant, empty_start

from .movement import MultiplicityRules
from .notation import MultiplicityNotation
from .options import OPTION_NOTES, MultiplicityOptions
from .orders import InsideAttack, InsideSupport, MergeAttack, MergeMove, MergeSupport, MultiplicityBinder


READINGS = (
    "Merging is a move like any other: units of one nation ordered to one space form one force whose "
    "strength is the sum of its units (rule 3: 'Units of the same Power ordered to move to the same space are "
    "deemed to be attempting to merge'; rule 4(a): 'All forces attempting to move to the same space are deemed "
    "to be supporting each other').",
    "A force ties with another force (or a defence) as in the regular rules: neither gets in (rule 0: 'The "
    "regular rules of Diplomacy apply, save where varied below').",
    "The parts of a split written as one line belong to the header's unit, wherever a part says it stands "
    "(rule 10: '4A(Par): A(Pic)Std, 2A(Pic)-Bur, A(Pic)-Gas' — Picardy does not border Gascony, so the parts "
    "must be the Paris army's).",
    "A component that failed to leave defends its space only when no part of its multiple unit stood there "
    "(rule 10: 'it is not considered to be part of the multiple unit in question for the purpose of "
    "adjudicating any attacks on that multiple unit').",
    "An army may disembark from an A/F at sea when at least one fleet there is not ordered to move (rule 7: "
    "'An Army may only disembark from a Fleet at sea if the Fleet is not ordered to move').",
    "An order for a unit of armies and fleets (an A/F) is one order: when one kind's part of it is not allowed "
    "(the fleet cannot reach the space, or the unit is to be convoyed), none of it is carried out and the unit "
    "stands (rule 7: A/F combinations are permitted 'along the same lines of other multiple units'; rule 10: a "
    "split is made by 'ordering the units to different locations'; rule 9: 'Only armies or multiple armies may "
    "be convoyed').",
    "A retreat order names the part of a dislodged multiple unit it is for, as a movement order does; the parts "
    "no order names disband (rule 11: 'Merges and splits are allowed as usual during retreats'). A retreat order "
    "for an A/F is one order, as in the movement phase: when one kind's part cannot retreat there, none of it "
    "does, and the unit has no valid retreat order.",
    "A multinational unit has two nations (rule 5: 'Any 2 players may create multiple multi-national units').",
    "Forces of different powers retreating into one space with equal strength: neither is the stronger, so both "
    "disband, the regular rule for retreats to one space (rule 11: 'the stronger unit will succeed and the weaker "
    "will disband'; rule 0).",
    "A move into a sea space that would not be seaworthy is a valid order that fails, not an illegal one: whether "
    "it is seaworthy depends on the other orders (the fleets that merge there, stay or leave), so it is known "
    "only when the turn is adjudicated; the outcome says it was not seaworthy (rule 7: 'an A/F may move into a sea "
    "space ... provided it is seaworthy'; rule 10: 'There is no exception to the rule that an A/F at sea must be "
    "seaworthy').",
    "A space no force entered is left empty by a stand-off (closed to retreats) only when forces of two powers "
    "or more were kept out there; a lone force that fails (not seaworthy, held back by rule 10) stands off with "
    "nobody (rule 3: 'Stand-offs can only occur between units belonging to different Powers').",
    "A convoying sea space can carry armies up to its fleets less the armies already aboard (rule 9: 'provided "
    "that the sum of the A/F and the unit(s) being convoyed is seaworthy'); whether the armies convoyed through it "
    "in one turn count together is the option convoy_load.",
    "An attack inside a multinational unit does not cut supports (rule 5(a) describes it as an attack on the "
    "foreign component, not a move into the space).",
    "A support for an attack inside a multinational unit makes the supporting nation's component there "
    "attack when it has no order of its own (rule 5(a): 'France could order A(Par) S A(Bur) attacks ITALIAN "
    "A(Bur)').",
    "The components of a multinational unit ordered to the same space move as one unit, without MERGE orders "
    "(rule 5: 'the GM will accept the integrity of that multiple unit until orders are received from the "
    "players that result in the multiple unit splitting').",
    "An army aboard another nation's fleets that all move to one space goes with them, its own order replaced "
    "(rule 8: 'the order written for the fleet will always prevail').",
    "Placement beyond the limit: the orders that would exceed it, in the order written, are illegal (rule 1: "
    "'provided that the number of units does not exceed 3 (4 in the case of Russia)').",
    "A merge that supports an inside attack counts for the attack with its units when its move succeeds, and "
    "not otherwise; it is a move, not a support order, so nothing cuts it, and the component's attack is implied "
    "when it has no order of its own (rule 5(a): 'A(Par)-Bur MERGE A(Bur) and support attack on ITALIAN A(Bur)').",
    "The postal year's phases are coded by the movement or adjustment each ends with: S1901M, F1901M (with the "
    "spring's retreats), W1901A (with the autumn's retreats); the third is played only when retreats or "
    "adjustments are due (rule 12: 'Spring; Spring retreats and Autumn; Autumn retreats and adjustments').",
    "In a postal phase an order is a retreat order when the unit it names stands where its power's unit was "
    "dislodged; the retreats are adjudicated first, the season after them (movement, or centres changing hands "
    "then adjustments) on the position they leave, so a retreated unit is ordered from where it retreated to "
    "(rule 12: 'Spring retreats and Autumn'; rule 0: 'The regular rules of Diplomacy apply').",
)


def placement(variant: Variant, rules: RuleOptions, pos: Position, orders: dict[str, list[str]]) -> AdjustmentResult:
    from .phases import adjudicate_placement

    return adjudicate_placement(variant, pos, orders)


def retreats(variant: Variant, rules: RuleOptions, movement: MovementResult, orders: dict[str, list[str]]) -> RetreatResult:
    from .phases import adjudicate_retreats

    assert isinstance(rules, MultiplicityOptions)
    return adjudicate_retreats(variant, rules, movement, orders)


def adjustments(variant: Variant, rules: RuleOptions, pos: Position, orders: dict[str, list[str]]) -> AdjustmentResult:
    """The regular adjustments on a board of multiple units (a build on an occupied home centre
    merges, rule 4(e)); several builds on one centre with the option ``builds_per_centre``."""
    from dipsat.board.adjustments import adjudicate_adjustments

    assert isinstance(rules, MultiplicityOptions)
    return adjudicate_adjustments(variant.map, variant.notation, pos, orders, pos.owners, rules.civil_disorder,
                                  shared_provinces=True, stacked_builds=rules.builds_per_centre == "stack", rules=rules)


def calendar(variant: Variant, rules: RuleOptions) -> DiplomacyYear:
    """The normal year, or the postal year of three phases (rule 12, option ``year``), after a
    placement phase (rule 1); retreats merge and fight by strength (rule 11); builds by the
    core's adjustments with stacks (option ``builds_per_centre``)."""
    from .calendar import PostalYear

    year = PostalYear if getattr(rules, "year", "normal") == "three_season" else DiplomacyYear
    return year(variant, phases=Phases(placement=placement, retreat=retreats, adjustment=adjustments), victory=variant.victory)


def check_position(variant: Variant, pos: Position) -> None:
    m = variant.map
    for u in pos.units:
        if u.province not in m.provinces:
            raise PositionError(f"{u.label()}: unknown province {u.province!r}")
        p = m.provinces[u.province]
        if not p.passable:
            raise PositionError(f"{u.label()}: {p.name} is impassable")
        if u.kind not in (ARMY, FLEET):
            raise PositionError(f"{u.label()}: a Multiplicity unit is made of armies (A) and fleets (F), not {u.kind!r}")
        if u.kind == FLEET and not m.is_fleet_location(u.location):
            raise PositionError(f"{u.label()}: a fleet cannot stand on {u.location!r}")
        if u.power not in m.powers:
            raise PositionError(f"{u.label()}: unknown power {u.power!r}; powers: {', '.join(m.powers)}")
        if u.count < 1:
            raise PositionError(f"{u.label()}: a unit count must be at least 1")
    by_prov: dict[str, list[Unit]] = {}
    for u in pos.units:
        by_prov.setdefault(u.province, []).append(u)
    for prov, units in sorted(by_prov.items()):
        name = m.provinces[prov].name
        powers = sorted({u.power for u in units})
        if len(powers) > 2:
            raise PositionError(f"{name}: units of {', '.join(powers)}; a multinational unit has two nations (rule 5)")
        fleets = sum(u.count for u in units if u.kind == FLEET)
        armies = sum(u.count for u in units if u.kind == ARMY)
        if m.provinces[prov].is_sea and armies > fleets:
            raise PositionError(f"{name}: {armies} army(ies) and {fleets} fleet(s) at sea; an A/F at sea must be "
                                "seaworthy, with at least as many fleets as armies (rule 7)")
        coasts = {u.location for u in units if u.kind == FLEET}
        if len(coasts) > 1:
            raise PositionError(f"{name}: fleets on two coasts ({', '.join(sorted(coasts))}); a multiple unit "
                                "occupies one coast (rule 7)")


def build_sites(variant: Variant, pos: Position, power: str) -> list[str]:
    """Rule 4(e): a build may go on an owned home centre already occupied by one's own units."""
    home = variant.map.powers[power].home if power in variant.map.powers else ()
    foreign = {u.province for u in pos.units if u.power != power}
    return [h for h in home if pos.owners.get(h) == power and h not in foreign]


def rules_text(variant: Variant) -> Optional[str]:
    """``dipsat rules multiplicity``: the variant's options with where each comes from, and its fixed readings."""
    opts = variant.rules()
    base = RuleOptions.model_fields
    lines = [f"Multiplicity Plus (seed 003): the {variant.default_rules} preset with the variant's own options.",
             "", "Options of the variant (override with --option NAME=VALUE):"]
    for name, f in type(opts).model_fields.items():
        if name in base:
            continue
        kind, where, sentence, what = OPTION_NOTES[name]
        values = ", ".join(getattr(f.annotation, "__args__", ()))
        lines.append(f"  {name} = {getattr(opts, name)!r}  [{kind}; {where}]  values: {values}")
        lines.append(f"      \"{sentence}\"")
        lines.append(f"      {what}")
    lines += ["", "Readings of the rules text (fixed, not options):"]
    lines += [f"  - {r}" for r in variant.readings]
    lines += ["", "The core's DATC options apply as well (dipsat rules datc), but for two that the variant's own "
              "formulas fix, so setting them changes nothing:",
              "  - multi_route_disruption: read as all_routes — a convoyed army arrives by any chain of sea spaces "
              "whose convoys all stand (rule 9: convoys 'according to the usual Diplomacy rules').",
              "  - dislodged_no_effect_on_origin: read as head_to_head — a force that gets in head-to-head prevents "
              "nothing in the space the loser left; other dislodged units keep their effect (rule 0)."]
    return "\n".join(lines)


VARIANT = Variant(
    name="multiplicity",
    aliases=("multiplicity-plus", "multiplicity plus", "rn42"),
    description="Multiplicity Plus (Agar and Walkerdine): merged multiple units, multinational units, A/F combinations",
    map_name="standard",
    # the placement phase (rule 1) is played in 1900, before the first spring
    map_changes=({"start_year": 1900, "title": "Multiplicity Plus"},),
    max_units_per_province=None,
    check_position=check_position,
    start_position=empty_start,  # rule 1: the players place their own units
    build_sites=build_sites,
    options_model=MultiplicityOptions,
    default_rules="datc",
    rule_overrides={"name": "multiplicity"},
    readings=READINGS,
    rules_text=rules_text,
    order_kinds=(MergeMove, MergeAttack, MergeSupport, InsideAttack, InsideSupport),
    notation_class=MultiplicityNotation,
    binder_class=MultiplicityBinder,
    movement_rules_class=MultiplicityRules,
    calendar=calendar,
)
