"""Multiplicity Plus rule options: the core's DATC options plus one field per silence of the seed.

Each field's comment names the seed sentence it rests on; :data:`OPTION_NOTES` is what
``dipsat rules multiplicity`` prints beside the values.
"""

from __future__ import annotations

from typing import Literal

from dipsat.rules import RuleOptions


class MultiplicityOptions(RuleOptions):
    """The core's options plus the readings the Multiplicity Plus text leaves open."""

    # Rule 6: "Support given by a multiple unit is cut up to the strength of the strongest
    # attack on that multiple unit".  "stack": one budget per attack for all the support orders
    # of the multiple unit (the attacker chooses which spaces go first, so they share it);
    # "order": each support order is cut separately up to the attack's strength.
    cut_budget: Literal["stack", "order"] = "stack"
    # Rule 6: "Where such a situation arises with a multinational unit ... supports are cut
    # alphabetically."  "space": by the name of the space each support is aimed at; "nation":
    # by the name of the supporting nation, each nation's last-written first.
    multinational_cut_order: Literal["space", "nation"] = "space"
    # Rule 4(b): "the stationary unit is deemed to be supporting all attempts to merge with
    # itself ... Similarly, all units attempting to merge ... are deemed to be supporting that
    # unit in place".  "both" (the text), "none" (no implied supports: the regular rules).
    implied_merge_support: Literal["both", "none"] = "both"
    # Rule 10: a component that "fails to leave ... is not considered to be part of the multiple
    # unit in question for the purpose of adjudicating any attacks on that multiple unit".
    # "not_counted" (the text) or "counted" (the regular rule: a unit that fails to move
    # defends with its own strength).
    failed_split_defends: Literal["not_counted", "counted"] = "not_counted"
    # Rule 5(a)/(b): "A(Par)-Bur MERGE A(Bur) and support attack on ITALIAN A(Bur)" ... "In the
    # event of a failed attack ... the component of the multiple unit which took part in the
    # attack must retreat."  When the attack fails, the units that merged in with such an order
    # retreat with the attacking component ("component": they joined it and took part) or stay
    # ("attacker": only the units that were there and attacked retreat; the merged units
    # supported, and supporters do not retreat).
    merge_attack_failure: Literal["component", "attacker"] = "component"
    # Rule 9: "provided that the sum of the A/F and the unit(s) being convoyed is seaworthy".
    # "together": the fleets of a sea space carry every army convoyed through it at once (the
    # armies aboard and all those convoyed may not outnumber the fleets; else none of that
    # space's convoys is carried out); "per_army": each convoyed army is checked alone against
    # the fleets and the armies aboard (three armies may pass two fleets in one turn).
    convoy_load: Literal["together", "per_army"] = "together"
    # Orders: a unit written without a count ("A(Par)") where several armies stand.  "one":
    # exactly one army, as the seed writes counts for multiple units ("2A(Par) S ...",
    # "4A(Par): A(Pic)Std, 2A(Pic)-Bur"); "all": the whole multiple unit of that kind.
    bare_unit_count: Literal["one", "all"] = "one"
    # Rule 11: "the stronger unit will succeed and the weaker will disband".  Forces of equal
    # strength retreating into one space: neither is stronger, so both disband (the regular
    # rule for retreats to one space).  The only value; named so that it is listed.
    retreat_tie: Literal["both_disband"] = "both_disband"
    # Rule 4(e): "Multiple units may also be formed by a player building on a home supply centre
    # which is already occupied"; rule 2: "Each component part of a multiple unit requires a
    # supply centre to support it."  How many units a power may build on one home centre in one
    # adjustment phase: "one" (the regular rule, rule 0; a build on an occupied centre merges);
    # "stack" (several builds on one centre, and one order may build a multiple unit:
    # "Build 2A(Par)", "Build A/F(Bre)"; each unit is one build).
    builds_per_centre: Literal["one", "stack"] = "one"
    # Rule 12: "For postal play it may be easier if Multiplicity Plus is played to a 3 season
    # year: Spring; Spring retreats and Autumn; Autumn retreats and adjustments.  Players should
    # determine the relevant system of play at the outset."  "normal": the regular year (spring,
    # its retreats, autumn, its retreats, winter adjustments); "three_season": the postal year,
    # each retreat phase played with the phase after it (:mod:`.calendar`).
    year: Literal["normal", "three_season"] = "normal"


# option -> (kind, where in the seed, what it decides)
OPTION_NOTES: dict[str, tuple[str, str, str]] = {
    "cut_budget": ("ambiguity", "rule 6",
                   "one budget per attack for all the supports of a multiple unit (stack) or per support order (order)"),
    "multinational_cut_order": ("ambiguity", "rule 6",
                                "'supports are cut alphabetically': by the supported space (space) or by the supporting nation (nation)"),
    "implied_merge_support": ("choice", "rule 4(b)", "the implied supports of merges (both) or none (the regular rules)"),
    "failed_split_defends": ("choice", "rule 10", "whether a component that failed to leave defends its old space"),
    "merge_attack_failure": ("ambiguity", "rule 5(b)", "a failed attack supported by units merging in: they retreat with the "
                             "attacking component (component) or stay (attacker)"),
    "convoy_load": ("ambiguity", "rule 9", "the armies convoyed through a sea space in one turn: all of them together "
                    "(together) or each alone (per_army) against its fleets and the armies aboard"),
    "bare_unit_count": ("silence", "notation", "'A(Par)' with several armies in Paris: one army (one) or all of them (all)"),
    "retreat_tie": ("silence", "rule 11", "retreats of equal strength into one space"),
    "builds_per_centre": ("silence", "rule 4(e)", "builds on one home centre in one adjustment phase: one (the regular "
                          "rule) or any number, also as one order for a multiple unit (stack)"),
    "year": ("choice", "rule 12", "the normal year (normal) or the postal year of three phases: Spring (S1901M); Spring "
             "retreats and Autumn (F1901M); Autumn retreats and adjustments (W1901A)"),
}
