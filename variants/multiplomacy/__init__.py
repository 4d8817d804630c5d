"""Multiplomacy (CB13/07, C. H. Hemming 1973) — seed 001.

The standard board with changes (rule 2): Switzerland passable, Albania Austrian, Bulgaria
Turkish, Bohemia neutral, every land province a supply centre (57).  Home provinces are the
provinces of the initial deployment (rules 3 and 10).  Any number of units of ONE nation may
share a province, each an individual with its own order (rule 4); moves of one nation into one
province count together, a nation never stands itself off, the numerically greater attack
succeeds (rule 6); supports are cut unit by unit, the last-written first (rule 7); a convoy fails
only when a convoying fleet is displaced (rule 8); retreats fight numerically (rule 9); builds on
any owned home province, one per province (rule 10); victory at 29 centres at the end of two
consecutive winters (rule 11).  Everything else: the 1971 rules (rule 1).

The board is ``maps/multiplomacy.toml``, a change file over the standard map.  The movement
rules are the core's stack rules (:mod:`solver.stacks`); this module only says what differs
from the standard notation and rules.
"""

from __future__ import annotations

from typing import Callable, ClassVar, Literal

from dipsat.engine.formulas import Formula
from dipsat.errors import PositionError
from dipsat.models import Hold, OrderBody, Position
from dipsat.outcomes import MovementResult
from dipsat.board.notation import ParsedOrder
from dipsat.game.variant import DiplomacyYear, Phases, Victory
from dipsat.board.retreats import RetreatResult, adjudicate_stack_retreats
from dipsat.rules import RuleOptions
from dipsat.board.notation_additions import StackNotation
from dipsat.board.stack_orders import StackBinder
from dipsat.board.stacks import StackMovementRules
from dipsat.game.variant import Variant
from dipsat.game.variant import check_position as core_check_position


class MultiplomacyOptions(RuleOptions):
    """The core's options plus the reading rule 7 leaves open."""

    # Rule 7: how many supporting units an attack cuts.  "units": each attacking unit cuts one,
    # attacks of different nations add up (an attack by n units cuts n); "strength": each
    # nation's attack cuts as many as its strength (units + supports), and attacks of different
    # nations overlap (the strongest counts).
    stack_support_cuts: Literal["units", "strength"] = "units"
    # Rule 6: a force meeting head-on a force of the nation holding its target while other
    # units of that nation stand there.  "combined": it must be numerically greater than the
    # opposing force and the standing units together; "separate": greater than each alone.
    stack_head_to_head: Literal["combined", "separate"] = "combined"
    # Rule 9: units of three or more nations retreating into one province.  The numerically
    # greater survives "by the amount of his superiority": over the "next_largest" nation, or
    # over "all_others" together.
    stack_retreat_battle: Literal["next_largest", "all_others"] = "next_largest"


class MultiplomacyRules(StackMovementRules):
    rules: MultiplomacyOptions

    # declared through RuleOptions.choose: one literal per value in one model of every reading
    option_formulas: ClassVar[tuple[str, ...]] = (
        "stack_support_cuts", "stack_head_to_head", "convoyed_attack_from_target_cuts")

    def cuts_by_strength(self) -> bool:
        return self.rules.stack_support_cuts == "strength"

    def head_to_head_combined(self) -> bool:
        return self.rules.stack_head_to_head == "combined"

    def choose_cut_reading(self, build: Callable[[bool], Formula]) -> Formula:
        return self.rules.choose("stack_support_cuts", lambda v: build(v == "strength"))

    def choose_head_to_head(self, build: Callable[[bool], Formula]) -> Formula:
        return self.rules.choose("stack_head_to_head", lambda v: build(v == "combined"))


class MultiplomacyNotation(StackNotation):
    """Standard notation plus the seed's, the stacks grammar addition: counts ("2 F Nth"),
    nation letters ("FA Bur", "2 FF Gol", "1 I A Tun"), "sup by", "1 A & 1 F Naf" ("stand(s)"
    and "sups" are words of the core's)."""

    power_letters = {"e": "England", "g": "Germany", "r": "Russia", "t": "Turkey",
                     "a": "Austria", "i": "Italy", "f": "France"}


class MultiplomacyBinder(StackBinder):
    def move_to_own_province(self, pos: Position, i: int, p: ParsedOrder) -> OrderBody:
        return Hold.build(unit=i)  # "F Nwy-Nwy" (seed 5.ii): the fleet stays


def check_position(variant: Variant, pos: Position) -> None:
    """The core's checks, and one nation to a province (rule 4), each unit count at least 1."""
    core_check_position(variant, pos)
    nations: dict[str, str] = {}
    for u in pos.units:
        other = nations.setdefault(u.province, u.power)
        if other != u.power:
            raise PositionError(f"units of two nations in {variant.map.provinces[u.province].name}: "
                                f"{other} and {u.power} (Multiplomacy rule 4)")
        if u.count < 1:
            raise PositionError(f"{u.label()}: a unit count must be at least 1")


def adjudicate_retreats(variant: Variant, rules: RuleOptions, movement: MovementResult,
                        orders: dict[str, list[str]]) -> RetreatResult:
    """Retreats fight numerically (rule 9), by the ``stack_retreat_battle`` reading."""
    return adjudicate_stack_retreats(variant.map, variant.notation, rules, movement, orders,
                                     battle=rules.stack_retreat_battle if isinstance(rules, MultiplomacyOptions)
                                     else "next_largest")


def calendar(variant: Variant, rules: RuleOptions) -> DiplomacyYear:
    """DATC Diplomacy's year; retreats by numbers (rule 9); builds on any owned home province
    no other nation holds (rule 10: the core's adjustments with stacks)."""
    return DiplomacyYear(variant, phases=Phases(retreat=adjudicate_retreats), victory=variant.victory)


VARIANT = Variant(
    name="multiplomacy",
    aliases=("multi", "cb13/07", "hemming"),
    description="Multiplomacy (C. H. Hemming, 1973): stacks of one nation, numeric attacks, partial support cuts",
    map_name="multiplomacy",  # maps/multiplomacy.toml: a change to the standard map
    max_units_per_province=None,
    check_position=check_position,
    options_model=MultiplomacyOptions,
    default_rules="1971",
    readings=(
        "An attack never cuts a support aimed at the province it comes from (rule 1: '1971 Diplomacy Rules "
        "apply'); it cuts the next-written support it can cut instead (rule 7: 'the last-written being the "
        "first to be cut'; 'uncoordinated single (or n-triple) attacks cut the support of only one (or n) unit(s)').",
        "Home provinces are the provinces of the initial deployment (rule 10: 'those that he holds at the "
        "beginning of the game'); the game opens a winter adjustment for a nation with builds due whenever it "
        "owns a home province no other nation holds, whatever its own units there (rule 10: 'The number of "
        "units originally occupying the province is irrelevant').",
        "The 1971 and 1982 rulebooks' convoy-paradox exemptions from cutting support (a convoyed army does not cut "
        "a support for an attack on one of its convoying fleets) are not applied to stacks: a convoy paradox is "
        "settled as a cycle by the backup rule, which for convoy_paradox_rule 1971, 1982 and 2000 is "
        "paradox_fallback (szykman: its convoys fail; all_hold: its moves fail) (rule 1: '1971 Diplomacy Rules apply'; the seed says nothing of "
        "paradoxes, and a stack's support is cut in parts, which those exemptions do not describe).",
        "An army convoyed by several routes arrives while the fleets not displaced can still carry it, whichever "
        "route lost a fleet (rule 8: 'A Convoy is disrupted only if a convoying fleet is displaced', and its "
        "example: of two armies convoyed from Tunis, the one by Ionian and Eastern Mediterranean reaches Smyrna "
        "while the Aegean fleet of the other's route is dislodged); so the core's multi_route_disruption is not "
        "read by this variant: it is all_routes whatever its value (the 1971 preset's any_route would stop both "
        "armies, against the example).",
    ),
    notation_class=MultiplomacyNotation,
    binder_class=MultiplomacyBinder,
    movement_rules_class=MultiplomacyRules,
    calendar=calendar,
    victory=Victory(centres=29, years=2),  # "at the end of two consecutive winter moves" (rule 11)
)
