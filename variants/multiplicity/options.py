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
    # Rule 4(a): "All forces attempting to move to the same space are deemed to be supporting
    # each other" — rule 4 speaks of units "of the same nationality".  Whether the two nations of
    # an agreed multinational merge (rule 5) support each other so against a third power:
    # "mutual" (their units form one force, as one nation's do) or "none" (each nation's units
    # count alone: the merge gets in only where every nation's part would on its own).
    multinational_merge_support: Literal["mutual", "none"] = "mutual"
    # Rule 7: "An Army may only disembark from a Fleet at sea if the Fleet is not ordered to
    # move".  When it tries anyway (A(ENG)-Pic with F(ENG)-NTH): "fleet_fails" (the army's order
    # is void, it stays aboard, and the fleet may not leave it at sea unseaworthy — rule 10:
    # "all fleets attempting to split from the multiple A/F will fail"), or "moves_together" (the
    # army's void order leaves it aboard and the A/F moves as the fleet is ordered).
    disembark_fleet_moving: Literal["fleet_fails", "moves_together"] = "fleet_fails"
    # Rule 7: "an A/F may move into a sea space ... provided it is seaworthy" and "A(Lon)-ENG &
    # F(MAO)-ENG creates A/F(ENG)".  A merge in a sea space: "merged" (the units there after the
    # merge must be seaworthy, as in the example, where the army alone would not be) or
    # "each" (besides, every moving A/F — a unit of armies and fleets — must be seaworthy on its
    # own: a 2A/F may not join fleets at sea).
    sea_merge_seaworthy: Literal["merged", "each"] = "merged"
    # Rule 7: "In any conflict over a sea space, only the fleet component of an A/F is taken into
    # account".  An A/F's support into a sea space: "fleet_part" (its fleets support; the army
    # part, which counts for nothing at sea, does not) or "illegal" (one order for one unit: the
    # army cannot support into the sea, so none of the order is carried out).
    af_sea_support: Literal["fleet_part", "illegal"] = "fleet_part"
    # Orders: a unit written without a count ("A(Par)") where several armies stand.  "one":
    # exactly one army, as the seed writes counts for multiple units ("2A(Par) S ...",
    # "4A(Par): A(Pic)Std, 2A(Pic)-Bur"); "all": the whole multiple unit of that kind.
    bare_unit_count: Literal["one", "all"] = "one"
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


# option -> (kind, where in the seed, the seed's sentence, what it decides)
OPTION_NOTES: dict[str, tuple[str, str, str, str]] = {
    "cut_budget": ("ambiguity", "rule 6", "Support given by a multiple unit is cut up to the strength of the strongest "
                   "attack on that multiple unit",
                   "one budget per attack for all the supports of a multiple unit (stack) or per support order (order)"),
    "multinational_cut_order": ("ambiguity", "rule 6", "Where such a situation arises with a multinational unit ... "
                                "supports are cut alphabetically",
                                "by the supported space (space) or by the supporting nation (nation)"),
    "implied_merge_support": ("choice", "rule 4(b)", "the stationary unit is deemed to be supporting all attempts to "
                              "merge with itself ... all units attempting to merge with a stationary unit are deemed to "
                              "be supporting that unit in place",
                              "the implied supports of merges (both) or none (the regular rules)"),
    "failed_split_defends": ("choice", "rule 10", "it is not considered to be part of the multiple unit in question for "
                             "the purpose of adjudicating any attacks on that multiple unit",
                             "a component that failed to leave does not defend its old space (not_counted, the text) or "
                             "does (counted, the regular rules)"),
    "merge_attack_failure": ("ambiguity", "rule 5(b)", "In the event of a failed attack on the foreign component of a "
                             "multiple unit then the component of the multiple unit which took part in the attack must "
                             "retreat",
                             "a failed attack supported by units merging in: they retreat with the attacking component "
                             "(component) or stay (attacker)"),
    "convoy_load": ("ambiguity", "rule 9", "provided that the sum of the A/F and the unit(s) being convoyed is seaworthy",
                    "the armies convoyed through a sea space in one turn: all of them together (together) or each alone "
                    "(per_army) against its fleets and the armies aboard"),
    "multinational_merge_support": ("ambiguity", "rules 4(a), 5", "All forces attempting to move to the same space are "
                                    "deemed to be supporting each other (rule 4: units 'of the same nationality')",
                                    "the nations of an agreed multinational merge support each other (mutual) or each "
                                    "nation's units count alone against a third power (none)"),
    "disembark_fleet_moving": ("ambiguity", "rules 7, 10", "An Army may only disembark from a Fleet at sea if the Fleet is "
                               "not ordered to move",
                               "an army disembarking while its fleet moves: the fleet's move fails too, as the army would "
                               "be left at sea (fleet_fails) or the army stays aboard and the A/F moves (moves_together)"),
    "sea_merge_seaworthy": ("ambiguity", "rule 7", "an A/F may move into a sea space ... provided it is seaworthy ... "
                            "A(Lon)-ENG & F(MAO)-ENG creates A/F(ENG)",
                            "a merge at sea is judged on the merged result (merged) or every moving A/F must be seaworthy "
                            "on its own as well (each)"),
    "af_sea_support": ("ambiguity", "rule 7", "In any conflict over a sea space, only the fleet component of an A/F is "
                       "taken into account",
                       "an A/F's support into a sea space: its fleets support (fleet_part) or the order is illegal, the "
                       "army being unable to support there (illegal)"),
    "bare_unit_count": ("silence", "notation", "2A, 3A, A/F, 2A/F etc (rule 2); the seed writes a count for every "
                        "multiple unit: '4A(Par): A(Pic)Std, 2A(Pic)-Bur'",
                        "'A(Par)' with several armies in Paris: one army (one) or all of them (all)"),
    "builds_per_centre": ("silence", "rule 4(e)", "Multiple units may also be formed by a player building on a home "
                          "supply centre which is already occupied",
                          "builds on one home centre in one adjustment phase: one (the regular rule) or any number, also "
                          "as one order for a multiple unit (stack)"),
    "year": ("choice", "rule 12", "For postal play it may be easier if Multiplicity Plus is played to a 3 season year: "
             "Spring; Spring retreats and Autumn; Autumn retreats and adjustments",
             "the normal year (normal) or the postal year of three phases: Spring (S1901M); Spring retreats and Autumn "
             "(F1901M); Autumn retreats and adjustments (W1901A)"),
}
